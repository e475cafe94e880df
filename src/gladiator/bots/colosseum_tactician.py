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

* **The Advanced Game (§19-§26, `tactician_advanced`, `evaluation_kit`).** The weapon in hand
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
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from gladiator.bots.base import Bot
from gladiator.bots.colosseum_evaluation import (
    Kit,
    attack_curve,
    attack_worth,
    best_allocation,
    engagement,
)
from gladiator.bots.colosseum_evaluation_kit import attack_kits, blocked
from gladiator.bots.tactician_advanced import (
    AdvancedView,
    advanced_halvings,
    advanced_pose,
    advanced_view,
    pair_order,
    split_unknown_slots,
    throw_worth,
    weapon_target,
    with_special_defence,
)
from gladiator.bots.team_aim import aimed_order
from gladiator.core.decisions import ChooseOne, Decision, Distribute, IllegalOrder
from gladiator.core.hexgrid import Hex, distance, neighbor_at
from gladiator.core.protocol import Ruleset
from gladiator.rules.colosseum.arena.combat_geometry import front_coords
from gladiator.rules.colosseum.combat.cf_allocation import parse_allocation
from gladiator.rules.colosseum.combat.orders import AllocationChoice, PlotChoice
from gladiator.rules.colosseum.combat.weapon_combat import reaches
from gladiator.rules.colosseum.kit.nets import split_net
from gladiator.rules.colosseum.plots.plot_legality import PlotStatus, posture_after
from gladiator.rules.colosseum.plots.plots import (
    Kick,
    PhasePlot,
    PlotError,
    Throw,
    parse_plot,
    path,
    uses_movement_phase,
)
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.vocabulary import AREAS

__all__ = ["TacticianBot", "Weights"]

PHASES_PER_TURN = 8  # §5.1


@dataclass(frozen=True, slots=True)
class Weights:
    """How the tactician plays (judgement, not rules), in CF-like units of a phase's worth."""

    engaged: float = 6.0  # in range, each in the other's front
    engaged_free: float = 7.0  # in range, he must turn to me (§9.1.2) and gets no PA
    turned: float = 2.0  # he may strike and I am turned to face him
    near: float = 2.0  # adjacent, nobody in a front
    per_hex: float = 1.5  # farther than adjacent: per hex
    cone: float = 1.0  # farther, but he is ahead of me: one step closes in
    collide: float = -6.0  # ending in his hex (§8.1)
    cross: float = -2.0  # passing through his hex (§8.1.1 crossing roll)
    mercy: float = 50.0  # entering a Prone man's hex: the Moment of Truth (§8.3, §18.2.1)
    move: float = 0.5  # a movement phase spent (§5.2.1), more when they run short
    scarce: float = 2.5
    exceed: float = 9.0  # the §17.3 extra phase: endurance +1, two phases fewer next turn
    kneel: float = 5.0  # kneeling voluntarily (§14.3: his attacks at half CF)
    rise: float = 3.0  # KN from Prone, or standing up from Kneeling (§14.1, §16.4)
    recover_weapon: float = 5.0  # R for a weapon within reach (§13.4)
    recover_shield: float = 1.0
    to_item: float = 2.0  # per hex to the weapon he lacks
    throw: float = 20.0  # throwing away his weapon or shield (§13.3)
    kick: float = 2.0  # an item he lacks kicked three hexes farther from him (§13.5)
    noise: float = 0.3  # plot score noise (ties broken at random)
    area_noise: float = 0.25  # +-25% on each target area's worth
    performance: float = 1.0  # worth of one point of §18.3 performance value
    min_attack: int = 1  # the smallest attack considered (§9.5: 1 CF is an attack)
    # The Advanced Game (§19-§26); none of these is read in the Basic Game.
    outreached: float = -3.0  # at range 2+ he strikes me and I cannot strike back (F8)
    reach_edge: float = 3.0  # at range 2+ he cannot strike back and I can (§21, F8)
    halved: float = 1.5  # each halving of my attack where I end (F10: scimitar at range 2...)
    wall_hit: float = -12.0  # a plot that runs into a wall: a collision and Stun (§25.4, W3)
    my_wall: float = 1.5  # my back a hex from a wall: a push pins me there (W6)
    foe_wall: float = 1.5  # his back a hex from a wall, and I have him in my front
    blood: float = -2.0  # entering a Blood counter: a Stumble check (§26.3)
    unknown: float = 0.1  # how often a plot it cannot read is drawn at random instead
    throw_gain: float = 3.0  # per CF of worth of a throw with another weapon to draw (§13.3)
    throw_melee: float = 3.0  # the attacks of the phase a throw cancels (F5)


@dataclass(frozen=True, slots=True)
class _Plot:
    text: str
    end: Hex  # offset from the start hex
    facing: int
    entered: frozenset[Hex]  # offsets of the hexes entered on the way (the end included)
    moves: bool  # uses a movement phase (§5.2.1, R6)
    plot: PhasePlot
    after: dict[str, str]  # his posture once it is done, by posture before (§14.1, R11)
    track: tuple[Hex, ...]  # the hexes passed through in order, the start first (W3)


# The T39 actions (§7.4) and the extras (§13.3, §13.5) it has a model of; a plot with any other
# (§20's net attacks, §22's specials, written after it) is one it cannot read.
_KNOWN_ACTIONS = frozenset({"F", "B", "SFL", "SFR", "SBL", "SBR", "C", "KN", "R", "RO", "S", "X"})


@lru_cache(maxsize=16384)
def _plot_info(text: str, facing: int) -> _Plot:
    """A plot's geometry from the origin in this facing (paths are the same from every hex)."""
    plot = parse_plot(text)
    if any(a.split("-")[0] not in _KNOWN_ACTIONS for a in plot.actions) or not (
        plot.extra is None or isinstance(plot.extra, Kick | Throw)
    ):
        raise ValueError(f"a plot it has no model of: {text}")
    poses = path(plot, Hex(0, 0), facing)
    return _Plot(
        text,
        poses[-1].hex,
        poses[-1].facing,
        frozenset(p.hex for p in poses[1:] if p.hex != Hex(0, 0)),
        uses_movement_phase(plot),
        plot,
        {before: posture_after(plot, before) for before in ("standing", "kneeling", "prone")},
        tuple(dict.fromkeys(p.hex for p in poses)),
    )


@lru_cache(maxsize=256)
def _plots(texts: tuple[str, ...], facing: int) -> tuple[tuple[_Plot, ...], tuple[str, ...]]:
    """The plots it can read, and the texts of those it cannot (plot codes added to the rules
    after it was written: they get the generic fallback)."""
    known: list[_Plot] = []
    unknown: list[str] = []
    for text in texts:
        try:
            known.append(_plot_info(text, facing))
        except (PlotError, ValueError, KeyError):
            unknown.append(text)
    return tuple(known), tuple(unknown)


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
        foe = _other(state, seat)
        # §20: the net orders (`F +TN`, `RN`) are not weighed here; he plays the plots alone.
        texts = tuple(t for t in decision.texts() if split_net(t)[1] is None)
        if len(texts) == 1:
            return texts[0]
        plots, unknown = _plots(texts, me.facing)
        if unknown and (not plots or rng.random() < w.unknown):
            return unknown[int(rng.random() * len(unknown))]
        adv = advanced_view(state, me, foe)
        extra = {o.text for o in decision.options if "§17.3" in o.label}
        status = PlotStatus(
            move_rate=me.sheet.move,
            moves_used=me.moves_used,
            lmp=me.crits.lmp,
            exceeded_last_turn=me.exceeded_last_turn,
        )
        phases_left = PHASES_PER_TURN - state.phase  # after this one
        moves_after = status.moves_left - 1
        if moves_after < 0 or phases_left <= 0:
            scarcity = 0.0
        else:
            scarcity = max(0.0, 1.0 - moves_after / phases_left)
        move_cost = w.move + w.scarce * scarcity
        weapon = weapon_target(state, me) if adv is not None else _nearest_weapon(state, me)
        rel_foe = Hex(foe.hex.q - me.hex.q, foe.hex.r - me.hex.r)
        posture = _posture_worth(w, me.posture)
        best, best_score = None, -math.inf
        cache: dict[tuple[Hex, int], float] = {}
        for p in plots:
            stop, wall = p.end, 0.0
            if adv is not None and adv.arena is not None:  # §25.4, W3: he stops at the wall
                i = blocked(adv.arena, me.hex, p.track)
                if i is not None:
                    stop, wall = p.track[i - 1], w.wall_hit
            key = (stop, p.facing)
            geo = cache.get(key)
            if geo is None:
                end = Hex(me.hex.q + stop.q, me.hex.r + stop.r)
                geo = _pose_worth(w, me, foe, end, p.facing, weapon, adv)
                cache[key] = geo
            score = geo + rng.random() * w.noise + wall
            if (
                adv is not None
                and adv.blood
                and any(Hex(me.hex.q + h.q, me.hex.r + h.r) in adv.blood for h in p.entered)
            ):
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
            score += posture[p.after[me.posture]]
            if p.plot.actions == ("R",):
                score += w.recover_weapon if not me.has_weapon else w.recover_shield
            if isinstance(p.plot.extra, Throw):  # §13.3: the weapon or shield leaves his hand
                thrown = throw_worth(state, me, foe, p.plot.extra) if adv is not None else None
                if thrown is None:
                    score -= w.throw
                else:  # F5: the next weapon he carries comes to hand; no attack this phase
                    score += w.throw_gain * thrown - (w.throw_melee if reaches(me, foe) else 0.0)
            elif isinstance(p.plot.extra, Kick):
                score += _kick_worth(w, me, foe, p, Hex(me.hex.q + p.end.q, me.hex.r + p.end.r))
            if score > best_score:
                best, best_score = p.text, score
        return best

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
        foe = foe or _other(state, seat)
        split = split_unknown_slots(decision, rng)
        if split is None:
            return None  # no attack or defence slot: not an allocation it knows
        fixed, budget = split
        if budget <= 0:
            return " ".join(fixed) or "-"
        limits = {s.name: s.maximum for s in decision.slots}
        attack_max = [limits.get(f"A-{a.upper()}", 0) for a in AREAS]
        variant = state.options["crt"]
        fdef = _expected_defence(foe)
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
        threat, his_cf = _threat(state, me, foe)
        his = attack_kits(foe, me, 1, state.options) if foe.may_attack else ()
        his_halvings, his_kit = (his[0].halvings, his[0].kit) if his else (0, Kit())
        his_cf >>= his_halvings  # F10: his weapon's halvings (a fist, a spear with a shield)
        threat_curves = [
            [attack_worth(me, area, his_cf - d, variant, his_kit) for d in range(budget + 1)]
            for area in AREAS
        ]
        plan = best_allocation(
            budget,
            attack_max,
            curves,
            threat,
            threat_curves,
            halve_attack=halve,
            performance=_performance_weight(w, state, me),
            min_attack=w.min_attack,
            defence_max=min(
                (g.maximum for g in decision.groups if g.label == "defence"), default=None
            ),  # §10.3.3
        )
        if kits:
            plan = pair_order(plan, kits)  # F9: a pair's better weapon takes the larger attacks
        text = " ".join([plan.slots_text(), *fixed]) if fixed else plan.slots_text()
        return with_special_defence(text, decision) if me.style else text


def _other(state: ColosseumState, seat: str) -> Gladiator:
    # A team match (§27, G6): the evaluation assumes one opponent, the nearest.
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
) -> float:
    """How good it is to end the movement here, the opponent assumed where he stands."""
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


def _kick_worth(w: Weights, me: Gladiator, foe: Gladiator, p: _Plot, end: Hex) -> float:
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


def _attack_share(g: Gladiator) -> float:
    """The part of his CFs he has put into attacks so far (1/2 before any evidence)."""
    return (g.attack_used + 8) / (g.attack_used + g.defence_used + 16)


def _last(g: Gladiator) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """His last revealed allocation (§9.4.1), as attack and defence per area."""
    if not g.last_allocation:
        return None
    try:
        a = parse_allocation(g.last_allocation, 10_000)
    except ValueError:
        return None
    return a.attack, a.defence


def _expected_defence(foe: Gladiator) -> list[int]:
    """His likely defence per area: his CFs not put into attack, spread evenly and shaped by
    the last allocation he revealed."""
    avail = max(foe.available, 0)
    total = avail * (1.0 - _attack_share(foe)) if foe.may_attack else float(avail)
    shape = [0.2] * 5
    last = _last(foe)
    if last is not None and sum(last[1]) > 0:
        s = sum(last[1])
        shape = [0.5 * 0.2 + 0.5 * d / s for d in last[1]]
    return [round(total * x) for x in shape]


def _threat(state: ColosseumState, me: Gladiator, foe: Gladiator) -> tuple[list[float], int]:
    """How likely he strikes each of my areas, and with how many CF (§9.3.2: 8 at most)."""
    if not foe.may_attack or foe.available <= 0:
        return [0.0] * 5, 0
    variant = state.options["crt"]
    his_total = foe.available * _attack_share(foe)
    cf = max(1, min(8, round(his_total)))
    worth = [max(attack_worth(me, a, 8, variant), 0.0) + 1.0 for a in AREAS]
    s = sum(worth)
    shape = [w / s for w in worth]
    last = _last(foe)
    if last is not None and sum(last[0]) > 0:
        t = sum(last[0])
        shape = [0.5 * x + 0.5 * a / t for x, a in zip(shape, last[0], strict=True)]
    attacks = max(1.0, his_total / 8)
    return [min(1.0, attacks * x) for x in shape], cf


def _performance_weight(w: Weights, state: ColosseumState, me: Gladiator) -> float:
    """§18.3: one CF of attack over defence moves the appeal roll by 1/10 (Q7) or 1 (`raw`),
    worth nothing once 2D6 + performance + prestige cannot fail to exceed 9."""
    per_cf = 0.1 if state.options["performance"] == "tenths" else 1.0
    raw = me.attack_used - me.defence_used
    pv = int(raw / 10) if per_cf < 1 else raw
    if pv + me.sheet.prestige + 2 > 9:
        return 0.0
    return w.performance * per_cf
