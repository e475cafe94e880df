"""The Colosseum tactician: a fast heuristic player of the Colosseum Basic Game.

Not the rulebook's centurion (§29); a sound player built on `rules.colosseum.evaluation`:

* **Plot (§7.2).** Every offered plot is judged by where it ends (its path from the bot's pose,
  cached per list of plots and facing) against where the opponent stands now: close to striking
  range with him in the combat front (§6.2, §9.1), the positional advantage of each side (§9.2,
  T11, §9.2.1), no collision unless he lies Prone (§8.3: entering his hex is his Moment of
  Truth), movement phases kept for later in the turn (§5.2.1) and the §17.3 extra phase avoided,
  getting up when Prone or Kneeling (§14, §16.4), going for a dropped weapon (§13.4), never
  throwing his own weapon or shield away (§13.3) and kicking an item the opponent lacks away
  from him (§13.5).
* **Allocation (§9.3).** The CFs available are split by `best_allocation`: attacks on the areas
  where the opponent's armour, wounds and expected defence make a hit worth most (at most 8 CF an
  area, §9.3.2), defence on the areas he is likely to strike, a little weight on the §18.3
  performance value. The expected defence and threat come from public facts: his CFs available,
  his allocations already revealed, the totals on his sheet.

* **The Advanced Game (§19-§26, `advanced_kit`, `evaluation_kit`).** The weapon in hand
  as the engine will use it (`weapon_combat.strokes`): reach (F8: standing at range 2 with a
  long weapon against a short one is worth more, being outreached worse), each attack's
  halvings (F10) and result swaps (§21.4, §24.3), the axe's wound DRM and the maul's Stun, a
  fist's worth (§23), a pair's weapons in turn (F9: the larger attacks where the weapon halves
  least), the pair's CF bonus in the budget (§24.2); throwing a weapon only when another comes
  to hand (F5: a Velite's javelins, a Hoplomachus's spear); taking up only what F6 allows; no
  plot into a wall (§25.4, W3: such a plot is judged where the wall stops it, with the Stun),
  his back to a wall good and mine bad (W6); no step onto a Blood counter (§26.3).
* **What it cannot read.** A plot option it cannot parse (plot codes added later: §20's net,
  §22's specials) is drawn at random now and then (`Weights.unknown`) and otherwise passed by;
  allocation slots it has no model for take the values of a random legal order drawn with its
  own rng, the attacks and defences sharing the rest; any other decision gets a random legal
  order. In the Basic Game none of this draws a number, so its play is exactly as before.

Randomness comes only from the `rng` the caller passes (small noise on the plot scores and on the
worth of each target area), so the bot is not a fixed, exploitable pattern, yet a seeded run
repeats. It reads only public state: in the Colosseum the whole state is on the table (`view`
returns it) and the secret orders wait inside `Match`. Any other ruleset or decision, or anything
unexpected, gets a random legal order.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from gladiator.bots.base import Bot
from gladiator.bots.colosseum_evaluation import (
    Kit,
    Plan,
    attack_curve,
    attack_worth,
    best_allocation,
    engagement,
)
from gladiator.bots.colosseum_evaluation_kit import attack_kits, blocked
from gladiator.bots.tactician.advanced_kit import (
    AdvancedView,
    advanced_halvings,
    advanced_pose,
    advanced_view,
    pair_order,
    split_unknown_slots,
    throw_worth,
    weapon_target,
)
from gladiator.bots.tactician.beasts import beast_pose_worth
from gladiator.bots.tactician.judgement import (
    expected_defence,
    performance_weight,
    threat,
)
from gladiator.bots.tactician.nets import (
    hand_worth,
    net_allocation,
    net_variants,
    net_worth,
    repel_worth,
)
from gladiator.bots.tactician.plot_shapes import PlotShape, readable_plots
from gladiator.bots.tactician.specials import best_specials, special_curves, special_order
from gladiator.bots.tactician.weights import Weights
from gladiator.bots.team_aim import aimed_order, focus, focus_target
from gladiator.core.decisions import ChooseOne, Decision, Distribute, IllegalOrder
from gladiator.core.hexgrid import Hex, distance, neighbor_at
from gladiator.core.protocol import Ruleset
from gladiator.rules.colosseum.arena.combat_geometry import front_coords
from gladiator.rules.colosseum.combat.orders import AllocationChoice, PlotChoice
from gladiator.rules.colosseum.combat.weapon_combat import reaches
from gladiator.rules.colosseum.kit.nets import split_net
from gladiator.rules.colosseum.kit.weapons import may_pick_up
from gladiator.rules.colosseum.plots.plot_legality import PlotStatus
from gladiator.rules.colosseum.plots.plots import (
    Kick,
    PlotError,
    Throw,
)
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.vocabulary import AREAS

__all__ = ["TacticianBot", "Weights"]

PHASES_PER_TURN = 8  # §5.1


class TacticianBot(Bot):
    name = "tactician"
    rulesets = frozenset({"colosseum"})

    def __init__(self, weights: Weights | None = None) -> None:
        self.weights = weights or Weights()

    def choose(
        self,
        ruleset: Ruleset[Any],
        state: Any,
        seat: str,
        decision: Decision,
        rng: random.Random,
        *,
        budget: float | None = None,
    ) -> str:
        order: str | None = None
        if isinstance(state, ColosseumState) and seat in state.gladiators:
            try:
                if isinstance(decision, PlotChoice):
                    order = self._plot(state, seat, decision, rng)
                elif (
                    isinstance(decision, AllocationChoice) and decision.named
                ):  # §27 (G6): the nearest
                    order = aimed_order(
                        state,
                        seat,
                        decision,
                        lambda foe, plain: self._allocate(state, seat, plain, rng, foe),
                        focus_target if self.weights.teams else None,
                    )
                elif isinstance(decision, Distribute):
                    order = self._allocate(state, seat, decision, rng)
                if order is not None:
                    order = decision.validate(order)
            except (IllegalOrder, PlotError, ValueError, KeyError):
                order = None
        return order if order is not None else decision.sample(rng)

    # -- the phase plot (§7.2) --------------------------------------------------------------
    def _plot(
        self, state: ColosseumState, seat: str, decision: ChooseOne, rng: random.Random
    ) -> str | None:
        w = self.weights
        me = state.gladiators[seat]
        foe = _other(state, seat, w.teams)
        everything = decision.texts()
        # §20: the net orders are weighed after the plain plots they follow (tactician/nets.py).
        texts = tuple(t for t in everything if split_net(t)[1] is None)
        if len(texts) == 1 and len(everything) == 1:
            return texts[0]
        plots, unknown = readable_plots(texts, me.facing)
        if unknown and (not plots or rng.random() < w.unknown):
            return unknown[int(rng.random() * len(unknown))]
        scores = self._plot_scores(state, me, foe, decision, plots, rng)
        if w.nets and me.style:
            scores.update(_net_scores(w, state, me, foe, everything, scores))
        if not scores:
            return None
        return max(scores, key=lambda t: scores[t][0])

    def _plot_scores(
        self,
        state: ColosseumState,
        me: Gladiator,
        foe: Gladiator,
        decision: ChooseOne,
        plots: tuple[PlotShape, ...],
        rng: random.Random,
    ) -> dict[str, tuple[float, Hex, int]]:
        """Each plain plot's worth, with where it leaves him (absolute hex, facing)."""
        w = self.weights
        adv = advanced_view(state, me, foe)
        extra = {o.text for o in decision.options if "§17.3" in o.label}
        move_cost = _move_cost(w, state, me)
        weapon = weapon_target(state, me) if adv is not None else _nearest_weapon(state, me)
        rel_foe = Hex(foe.hex.q - me.hex.q, foe.hex.r - me.hex.r)
        posture = _posture_worth(w, me.posture)
        beasts = tuple(b for b in state.opponents(me.seat) if b.beast is not None and b.alive)
        out: dict[str, tuple[float, Hex, int]] = {}
        cache: dict[tuple[Hex, int], float] = {}
        for p in plots:
            stop, wall = p.end, 0.0
            if adv is not None and adv.arena is not None:  # §25.4, W3: he stops at the wall
                i = blocked(adv.arena, me.hex, p.track)
                if i is not None:
                    stop, wall = p.track[i - 1], w.wall_hit
            end = Hex(me.hex.q + stop.q, me.hex.r + stop.r)
            key = (stop, p.facing)
            if key not in cache:
                cache[key] = _pose_worth(w, me, foe, end, p.facing, weapon, adv, beasts)
            score = cache[key] + rng.random() * w.noise + wall
            if adv is not None and _enters(me, p, adv.blood):
                score += w.blood
            if p.moves:
                score -= move_cost
            if p.text in extra:
                score -= w.exceed
            if rel_foe in p.entered and foe.alive:
                if foe.posture == "prone":
                    score += w.mercy
                elif p.end != rel_foe:
                    score += w.cross
            score += posture[p.after[me.posture]] + self._extra_worth(state, me, foe, p, adv)
            out[p.text] = (score, end, p.facing)
        return out

    def _extra_worth(
        self,
        state: ColosseumState,
        me: Gladiator,
        foe: Gladiator,
        p: PlotShape,
        adv: AdvancedView | None,
    ) -> float:
        """What a pick-up, a throw or a kick adds to the plot (§13.3-§13.5)."""
        w = self.weights
        if p.plot.actions == ("R",):
            if not me.has_weapon:
                return w.recover_weapon
            if me.style and w.nets and _nets_to_shun(state, me):  # N14: R takes up the net
                return -w.drop_net
            return w.recover_shield
        if isinstance(p.plot.extra, Throw):  # §13.3: the weapon or shield leaves his hand
            thrown = throw_worth(state, me, foe, p.plot.extra) if adv is not None else None
            if thrown is None:
                return -w.throw
            # F5: the next weapon he carries comes to hand; no attack this phase
            return w.throw_gain * thrown - (w.throw_melee if reaches(me, foe) else 0.0)
        if isinstance(p.plot.extra, Kick):
            return _kick_worth(w, me, foe, p, Hex(me.hex.q + p.end.q, me.hex.r + p.end.r))
        return 0.0

    # -- the allocation (§9.3) --------------------------------------------------------------
    def _allocate(
        self,
        state: ColosseumState,
        seat: str,
        decision: Distribute,
        rng: random.Random,
        foe: Gladiator | None = None,
    ) -> str | None:
        w = self.weights
        me = state.gladiators[seat]
        foe = foe or _other(state, seat, w.teams)
        nets, spent = net_allocation(state, me, decision) if w.nets else ((), 0)
        split = split_unknown_slots(decision, rng, handled=frozenset(n.split(":")[0] for n in nets))
        if split is None:
            return None  # no attack or defence slot: not an allocation it knows
        fixed, budget = (*split[0], *nets), split[1] - spent
        if budget <= 0:
            return " ".join(fixed) or "-"
        limits = {s.name: s.maximum for s in decision.slots}
        attack_max = [limits.get(f"A-{a.upper()}", 0) for a in AREAS]
        variant = state.options["crt"]
        fdef = expected_defence(foe)
        kits = attack_kits(me, foe, len(AREAS), state.options)  # () in the Basic Game
        kit = kits[0].kit if kits else Kit()
        curves = []
        for i, area in enumerate(AREAS):
            noise = 1.0 + w.area_noise * (2.0 * rng.random() - 1.0)
            curves.append([v * noise for v in attack_curve(foe, area, fdef[i], variant, kit)])
        halve: list[int] | list[bool]
        if me.style:
            halve = advanced_halvings(me, foe, kits)
        else:
            halve_all = me.posture == "kneeling" or me.recovered_weapon  # §14.3, §13.4.2
            halve = [halve_all or (a == "legs" and foe.posture == "kneeling") for a in AREAS]
        danger, his_cf = threat(state, me, foe)
        his = attack_kits(foe, me, 1, state.options) if foe.may_attack else ()
        his_halvings, his_kit = (his[0].halvings, his[0].kit) if his else (0, Kit())
        his_cf >>= his_halvings  # F10: his weapon's halvings (a fist, a spear with a shield)
        threat_curves = [
            [attack_worth(me, area, his_cf - d, variant, his_kit) for d in range(budget + 1)]
            for area in AREAS
        ]
        perf = performance_weight(w.performance, state, me)
        dmax = min((g.maximum for g in decision.groups if g.label == "defence"), default=None)

        def planner(
            c: Sequence[Sequence[float]], t: Sequence[float], amax: Sequence[int], reserve: int
        ) -> Plan:
            if budget < reserve:  # no room for the special defence's 2 CF
                return Plan((0,) * len(AREAS), (0,) * len(AREAS), (), -math.inf)
            return best_allocation(
                budget - reserve,
                amax,
                c,
                t,
                threat_curves,
                halve_attack=halve,
                performance=perf,
                min_attack=w.min_attack,
                defence_max=None if dmax is None else max(0, dmax - reserve),  # §10.3.3
            )

        specials = special_curves(decision, me, foe, fdef, variant) if me.style else None
        if specials is not None and w.specials and (specials.attacks or specials.defences):
            plan, attack, defence = best_specials(curves, danger, attack_max, specials, planner)
        else:
            plan, attack, defence = planner(curves, danger, attack_max, 0), None, None
        if kits:
            plan = pair_order(plan, kits)  # F9: a pair's better weapon takes the larger attacks
        text = special_order(plan, attack, defence)  # §22 (tactician/specials.py)
        return " ".join([text, *fixed]) if fixed else text


def _enters(me: Gladiator, p: PlotShape, spots: frozenset[Hex]) -> bool:
    """§26.3: the plot enters one of these hexes (a Blood counter's)."""
    return bool(spots) and any(Hex(me.hex.q + h.q, me.hex.r + h.r) in spots for h in p.entered)


def _nets_to_shun(state: ColosseumState, me: Gladiator) -> tuple[Hex, ...]:
    """Where a net lies that an R would take up (N14), while he is better without it (the
    trident at half CF again, §20.9.2)."""
    if me.net or not me.weapons:
        return ()
    return tuple(i.hex for i in state.items if i.item == "net" and may_pick_up(me, i))


def _move_cost(w: Weights, state: ColosseumState, me: Gladiator) -> float:
    """A movement phase spent (§5.2.1), dearer as they run short this turn."""
    status = PlotStatus(
        move_rate=me.sheet.move,
        moves_used=me.moves_used,
        lmp=me.crits.lmp,
        exceeded_last_turn=me.exceeded_last_turn,
    )
    phases_left = PHASES_PER_TURN - state.phase  # after this one
    moves_after = status.moves_left - 1
    if moves_after < 0 or phases_left <= 0:
        return w.move
    return w.move + w.scarce * max(0.0, 1.0 - moves_after / phases_left)


def _net_scores(
    w: Weights,
    state: ColosseumState,
    me: Gladiator,
    foe: Gladiator,
    texts: Sequence[str],
    scores: dict[str, tuple[float, Hex, int]],
) -> dict[str, tuple[float, Hex, int]]:
    """§20: each offered net attack scored as its plot plus what the net is worth from where the
    plot leaves him, a net dropped or let go as its plot plus the trident in both hands, and RN as
    the Pause plus what it saves (tactician/nets.py)."""
    out: dict[str, tuple[float, Hex, int]] = {}
    for plot, variants in net_variants(texts).items():
        if plot not in scores:
            continue
        base, end, facing = scores[plot]
        for text, order in variants:
            out[text] = (base + net_worth(state, me, foe, end, facing, order), end, facing)
    for text, (plot, worth) in hand_worth(state, me, foe, texts, w.drop_net).items():
        if plot in scores:
            base, end, facing = scores[plot]
            out[text] = (base + worth, end, facing)
    if "RN" in texts and "X" in scores:
        base, end, facing = scores["X"]
        out["RN"] = (base + repel_worth(state, me, foe), end, facing)
    return out


def _other(state: ColosseumState, seat: str, teams: bool = False) -> Gladiator:
    """The one opponent the evaluation assumes: a duel's, or in a team match (§27, G6) the
    nearest, or with `teams` the one worth fighting (team_aim.focus)."""
    if teams and state.options.get("teams"):
        return focus(state, seat)
    return state.opponent(seat)


def _nearest_weapon(state: ColosseumState, me: Gladiator) -> Hex | None:
    """Where the nearest weapon lies, if he has none (§13.4: he may pick up any he lacks)."""
    if me.has_weapon:
        return None
    spots = [i.hex for i in state.items if i.item == "weapon"]
    return min(spots, key=lambda h: distance(h, me.hex)) if spots else None


def _pose_worth(
    w: Weights,
    me: Gladiator,
    foe: Gladiator,
    end: Hex,
    facing: int,
    weapon: Hex | None,
    adv: AdvancedView | None = None,
    beasts: tuple[Gladiator, ...] = (),
) -> float:
    """How good it is to end the movement here, the opponent assumed where he stands (against
    beasts, every beast still fighting: tactician/beasts.py)."""
    if beasts and w.beasts and weapon is None:  # §28
        return beast_pose_worth(me, beasts, end, facing)
    e = engagement(
        end, facing, foe.hex, foe.facing, his_left=foe.left_handed, my_left=me.left_handed
    )
    foe_able = foe.alive and foe.has_weapon and not foe.sheet.unconscious
    foe_able = foe_able and foe.posture != "prone"
    mine, his, engaged = e.mine, e.his, e.distance == 1
    extra = 0.0
    if adv is not None:  # the Advanced Game: each man's weapons reach as far as they do (§21, F8)
        mine, his, extra = advanced_pose(w, adv, me, foe, end, facing, e.distance)
        foe_able = foe.alive and not foe.sheet.unconscious and foe.posture != "prone"
        engaged = e.distance >= 1 and (mine or his or e.distance == 1)

    # §9.2.1: a Prone or stumbling man is easier to strike; I stay Prone unless I kneel.
    my_pa = e.my_pa + (4 if foe.posture == "prone" else 2 if foe.must_stumble else 0)
    his_pa = e.his_pa + (4 if me.posture == "prone" else 0)
    if weapon is not None:  # §13.4: fetch the weapon first, keep out of his reach meanwhile
        worth = -w.to_item * distance(end, weapon)
        if engaged and his and foe_able:
            worth -= 2.0 + his_pa
        return worth + extra
    if e.distance == 0:
        return w.collide + extra
    if engaged:
        if mine and his and foe_able:
            return w.engaged + my_pa - his_pa + extra
        if mine:
            return w.engaged_free + my_pa + extra
        if his and foe_able:
            # §9.1.2 turns me to face him only where I may strike back (F8): outreached, I
            # just take his blows.
            turned = w.outreached if e.distance >= 2 else w.turned
            return turned - his_pa + extra
        return w.near + extra
    fl, fr = front_coords(end, facing, foe.hex)
    far = w.near - w.per_hex * (e.distance - 1) + (w.cone if fl >= 0 and fr >= 0 else 0.0)
    return far + extra


def _posture_worth(w: Weights, posture: str) -> dict[str, float]:
    """§14, §16.4 (R11), by posture after the plot: rise from Prone, stand up from Kneeling,
    never kneel by choice."""
    if posture == "prone":
        return {"prone": 0.0, "kneeling": w.rise, "standing": w.rise}
    if posture == "kneeling":
        return {"prone": 0.0, "kneeling": -w.rise, "standing": w.rise}
    return {"prone": 0.0, "kneeling": -w.kneel, "standing": 0.0}


def _kick_worth(w: Weights, me: Gladiator, foe: Gladiator, p: PlotShape, end: Hex) -> float:
    """§13.5: kick away an item he lacks and I do not need, as far from him as it goes; never
    kick what I lack myself."""
    kick = p.plot.extra
    assert isinstance(kick, Kick)
    his = foe.has_weapon if kick.item == "weapon" else foe.has_shield
    mine = me.has_weapon if kick.item == "weapon" else me.has_shield
    if his or not mine:
        return -w.kick
    far = end
    for _ in range(3):  # §13.5.1: 1D6 hexes; three is the middle of it
        far = neighbor_at(far, p.facing, kick.direction)
    return w.kick * max(0, distance(far, foe.hex) - distance(end, foe.hex)) / 3
