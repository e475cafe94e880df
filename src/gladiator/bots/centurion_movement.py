"""The centurion's movement (§29.3, §29.4, §29.5.1, T27, T28): the charts turned into one of
the legal phase plots of the decision.

Once a phase he rolls the Movement roll (RED and WHITE, ruling A4): the threshold checks add
them, the Random Movement Chart reads them as D66 with the Position DRMs on the RED die. Then, in
the order of §29.3: a Prone man rolls away or kneels (§29.3.1.2); the Pause check (§29.3.1.1,
T27a, the Q21 overrides of `pause_overrides`); Repel Net (§29.5.1, C8); Recover
(§29.3.1.3); otherwise the RMC (§29.3.2, T28) pointed at the nearest opponent, with the Charge
on 66+ (§29.3.2.3), the step toward a dropped item he needs (§29.3.2.4) and the kick of one he
does not (§29.3.2.5); his facing last (§29.3.3).

"Where the opponent is": with the option `solitaire` the gladiator's plot is revealed before the
centurion plots (§29.3), and he is taken where that plot ends (collisions aside); in plain
simultaneous play, where he stands.

Rulings (docs/rulings.md, C series):

C3  §29.3.2, §29.3.3, §29.4: the chart gives an end hex and a facing; the plot is the legal one
    that ends nearest that hex, then with the facing nearest the one §29.3.3 allows, then with
    the fewest backward actions (B, SBL, SBR: "always moves forward if at all possible"), then
    entering the fewest hexes, then turning least; what is still tied is drawn at random
    (§29.4 "randomly determine the exact path"). Only movement actions and the Pause X take part
    (C, KN, R, RO and kicks only where a chart calls for them).
C4  §29.3.3, T27b: "turn up to n hex-sides toward the nearest opponent" is from his facing
    before the move toward the facing that points most directly at the opponent from his end
    hex; when the opponent is straight behind him, either way (at random on a tie).
C5  T27a/T27b "Positional Advantage modifier": PA exists only where an attack could be made
    (§9.2), so it counts only if the one it belongs to has the other in his combat front (§9.1):
    the opponent's PA on the centurion for the Pause check (T27a says "Opponent's"), the
    centurion's own on the opponent for the Position DRMs (T27b says just "PA"), T11 plus the
    §9.2.1 Prone and Stumbling bonuses.
C6  §29.3.1, §16.4: a Prone centurion makes no Pause check (a Prone man may not Pause) and goes
    straight to §29.3.1.2: RO into the one of his four Roll hexes farthest from the opponent, or
    KN turning one hex-side toward him. A centurion who must Stumble writes S, turning one
    hex-side toward the opponent where he may.
C7  §29.3.2.4, §29.3.2.5: an item he "needs" is a weapon or shield of a kind he lacks (not a
    battered shield); every other item on the floor is "unneeded". The step toward the nearest
    needed item moves the RMC hex to its neighbour on the chart (within 2 hexes of him) nearest
    the item, if that is nearer; its colour then sets his turn. The kick check is made when a
    hex his plot enters is within one hex of an unneeded item; the kick goes the way that sends
    it farthest from the opponent (three hexes, the middle of §13.5.1's 1D6), and his facing in
    the item's hex follows §29.3.3 with that hex's colour (GREY beyond the chart).
C8  §29.5 (Retiarius actions), on the net orders of §20 (nets.py): the Repel Net check
    (§29.5.1.1) is made when the decision offers RN (an opponent holds a net), and T29 (§29.5.2)
    when it offers a net attack (`F +TN`, `X +LN2`). A centurion Retiarius drops the range DRM
    of T27b.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from gladiator.bots.centurion_nets import is_retiarius, net_attack, net_option, offers_net_attack
from gladiator.core.decisions import ChooseOne, Option
from gladiator.core.hexgrid import (
    DIRECTIONS,
    Hex,
    add,
    distance,
    facing_toward,
    neighbor,
    neighbors,
    opposite,
    scale,
)
from gladiator.rules.colosseum.arena.combat_geometry import (
    front_coords,
    may_attack,
    positional_advantage,
)
from gladiator.rules.colosseum.combat.orders import PlotChoice
from gladiator.rules.colosseum.hits.item_choices import holds, wants
from gladiator.rules.colosseum.kit.nets import split_net
from gladiator.rules.colosseum.plots.plot_decision import plot_status
from gladiator.rules.colosseum.plots.plots import (
    Kick,
    PhasePlot,
    PlotError,
    parse_plot,
    path,
)
from gladiator.rules.colosseum.state import ColosseumState, Gladiator, GroundItem
from gladiator.rules.colosseum.tables.advanced_tables import advanced_tables
from gladiator.rules.colosseum.tables.centurion_tables import Colour, RmcRow

__all__ = [
    "MovementRoll",
    "Situation",
    "pause_check",
    "plot_order",
    "position_drm",
    "roll_movement",
    "situation",
    "turned",
]

PHASES_PER_TURN = 8  # §5.1
_MOVES = frozenset({"F", "B", "SFL", "SFR", "SBL", "SBR"})
_BACKWARD = frozenset({"B", "SBL", "SBR"})
_STILL = ("X", "S", "KN", "-")  # the plot that neither moves nor turns him, best first


@dataclass(frozen=True, slots=True)
class MovementRoll:
    """§29.3: the RED and WHITE dice of the phase (A4)."""

    red: int
    white: int

    @property
    def total(self) -> int:
        """The sum, for the threshold checks (Pause, Prone, Kick, Repel Net)."""
        return self.red + self.white

    def d66(self, red_drm: int = 0) -> int:
        """The D66 reading with the Position DRMs on the RED die (§29.3.2.2)."""
        return 10 * (self.red + red_drm) + self.white


def roll_movement(rng: random.Random) -> MovementRoll:
    return MovementRoll(rng.randint(1, 6), rng.randint(1, 6))


@dataclass(frozen=True, slots=True)
class Situation:
    """What the centurion reads (all public): himself, his nearest opponent and where that
    opponent is taken to be (his revealed plot's end, or where he stands), the range between
    them and the RMC arrow (§29.3.2.1)."""

    me: Gladiator
    foe: Gladiator
    foe_hex: Hex
    foe_facing: int
    range: int
    arrow: int


def situation(state: ColosseumState, seat: str) -> Situation:
    me = state.gladiators[seat]
    foe = state.opponent(seat)
    foe_hex, foe_facing = foe.hex, foe.facing
    written = state.early_plots.get(foe.seat)
    if written is not None:  # §29.3: he has moved first; his plot is on the table
        end = path(parse_plot(split_net(written)[0]).bare(), foe.hex, foe.facing)[-1]
        foe_hex, foe_facing = end.hex, end.facing
    arrow = me.facing if foe_hex == me.hex else facing_toward(me.hex, foe_hex)
    return Situation(me, foe, foe_hex, foe_facing, distance(me.hex, foe_hex), arrow)


def _sides(a: int, b: int) -> int:
    d = (a - b) % 6
    return min(d, 6 - d)


def turned(facing: int, toward: int, allowance: int) -> tuple[int, ...]:
    """§29.3.3 (C4): the facings he may end with, turning up to `allowance` hex-sides (3: any)
    from `facing` toward `toward`; two when `toward` is straight behind and he cannot reach it."""
    diff = (toward - facing) % 6
    signed = diff if diff <= 3 else diff - 6
    if abs(signed) <= allowance:
        return (toward,)
    if signed == 3:
        return ((facing + allowance) % 6, (facing - allowance) % 6)
    step = allowance if signed > 0 else -allowance
    return ((facing + step) % 6,)


def _toward(sit: Situation, here: Hex) -> int:
    """The facing from `here` that points most directly at the opponent."""
    return sit.arrow if here == sit.foe_hex else facing_toward(here, sit.foe_hex)


# --- the positional advantage (C5) ---------------------------------------------------------------


def foe_pa(sit: Situation) -> int:
    """T27a: the opponent's PA on the centurion, from where the opponent is taken to be."""
    foe_pose, my_pose = (sit.foe_hex, sit.foe_facing), sit.me.pose
    if sit.foe_hex == sit.me.hex or not may_attack(
        foe_pose, my_pose, attacker_prone=sit.foe.posture == "prone"
    ):
        return 0
    me = sit.me
    return positional_advantage(
        foe_pose,
        my_pose,
        left_handed=me.left_handed,
        stumbling=me.must_stumble,
        prone=me.posture == "prone",
    )


def my_pa(sit: Situation) -> int:
    """T27b: the centurion's PA on the opponent."""
    foe_pose, my_pose = (sit.foe_hex, sit.foe_facing), sit.me.pose
    if sit.foe_hex == sit.me.hex or not may_attack(
        my_pose, foe_pose, attacker_prone=sit.me.posture == "prone"
    ):
        return 0
    foe = sit.foe
    return positional_advantage(
        my_pose,
        foe_pose,
        left_handed=foe.left_handed,
        stumbling=foe.must_stumble,
        prone=foe.posture == "prone",
    )


# --- the checks -----------------------------------------------------------------------------------


def pause_check(state: ColosseumState, sit: Situation, roll: MovementRoll) -> bool:
    """§29.3.1.1, T27a (A5, Q21): Movement roll + DRMs below 1 -> he Pauses."""
    cent = advanced_tables().centurions
    d = cent.t27.pause.drms
    over = cent.pause_overrides
    me = sit.me
    allowed = plot_status(state, me).moves_allowed
    stood = max(0, state.phase - 1 - me.moves_used)  # non-moving phases used this turn
    pauses_left = max(0, PHASES_PER_TURN - allowed - stood)
    phases_left = PHASES_PER_TURN - state.phase + 1  # this one included
    if over.must_pause_when_pauses_fill_phases and pauses_left >= phases_left:
        return True
    if over.skip_when_no_pauses_left and pauses_left == 0:
        return False
    drm = (
        d.range.total(sit.range // 3)
        + d.pauses_remaining.total(pauses_left)
        + d.phase.total(state.phase)
        + d.positional_advantage.total(foe_pa(sit))
    )
    return roll.total + drm < cent.t27.pause.below


def position_drm(sit: Situation, fs: int) -> int:
    """§29.3.2.2, T27b: the DRMs on the RED die, his Fighting Spirit's among them (§29.2.1)."""
    d = advanced_tables().centurions.t27.position.drms
    drm = d.stun.total(sit.me.sheet.stun_in_effect // 3)
    if not (d.range.not_for_retiarius and is_retiarius(sit.me)):
        drm += d.range.total(sit.range // 3)
    return drm + d.positional_advantage.total(my_pa(sit)) + d.fighting_spirit.total(fs)


# --- choosing among the offered plots (C3) -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Choice:
    option: Option
    plot: PhasePlot

    @property
    def end(self) -> Hex:
        assert self.option.hex is not None
        return self.option.hex

    @property
    def facing(self) -> int:
        assert self.option.facing is not None
        return self.option.facing


def _choices(decision: ChooseOne) -> list[_Choice]:
    out = []
    # A plot decision's options are in his own frame; the charts work on the board.
    options = decision.board_options() if isinstance(decision, PlotChoice) else decision.options
    for o in options:
        if o.hex is None or o.facing is None:
            continue
        try:
            out.append(_Choice(o, parse_plot(o.text)))
        except PlotError:  # an action this module does not know (a later rule's)
            continue
    return out


def _best(
    cands: Sequence[_Choice], target: Hex, wanted: tuple[int, ...], rng: random.Random
) -> _Choice | None:
    if not cands:
        return None

    def key(c: _Choice) -> tuple[int, ...]:
        acts = c.plot.actions
        return (
            distance(c.end, target),
            min(_sides(c.facing, w) for w in wanted),
            sum(1 for a in acts if a in _BACKWARD),
            len(c.option.path) - 1,
            sum(abs(t) for t in c.plot.turns),
        )

    keys = [key(c) for c in cands]
    low = min(keys)
    return rng.choice([c for c, k in zip(cands, keys, strict=True) if k == low])


def _bare(cands: Sequence[_Choice], *codes: str) -> list[_Choice]:
    """The plots without a throw or a kick that write actions, all of them among `codes`."""
    return [
        c
        for c in cands
        if c.plot.extra is None and c.plot.actions and set(c.plot.actions) <= set(codes)
    ]


def _still(decision: ChooseOne) -> str:
    texts = set(decision.texts())
    return next((t for t in _STILL if t in texts), decision.texts()[0])


def _turning(cands: Sequence[_Choice], sit: Situation, rng: random.Random) -> _Choice | None:
    """A plot that stays in his hex, turned one hex-side toward the opponent where it may."""
    here = sit.me.hex
    return _best(cands, here, turned(sit.me.facing, _toward(sit, here), 1), rng)


# --- the RMC (§29.3.2) ---------------------------------------------------------------------------


def _rmc_hex(origin: Hex, arrow: int, fl: int, fr: int) -> Hex:
    """The chart's (fl, fr) with the arrow as front: fl·FL + fr·FR (centurion_tables.py)."""
    left, right = DIRECTIONS[(arrow - 1) % 6], DIRECTIONS[(arrow + 1) % 6]
    return add(origin, add(scale(left, fl), scale(right, fr)))


def _colour(sit: Situation, here: Hex) -> Colour:
    """The RMC colour of a hex (GREY beyond the chart, C7)."""
    at = front_coords(sit.me.hex, sit.arrow, here)
    rows: tuple[RmcRow, ...] = advanced_tables().centurions.t28.rows
    return next((r.colour for r in rows if r.at == at), "grey")


def _wanted(sit: Situation, here: Hex, adjusted: int, colour: Colour) -> tuple[int, ...]:
    """§29.3.3: the facings he may end with in `here`."""
    pos = advanced_tables().centurions.t27.position
    if sit.me.facing == opposite(sit.arrow) and adjusted > pos.no_rotation_above:
        return (sit.me.facing,)  # §29.3.3.1
    allowance = pos.rotation.for_colour(colour)  # §29.3.3.2-§29.3.3.4: RED 2, GREY 1, WHITE any
    return turned(sit.me.facing, _toward(sit, here), allowance)


def _needed(state: ColosseumState, me: Gladiator, item: GroundItem) -> bool:
    if item.item == "net":  # §20.8.2: the net is no weapon or shield he lacks
        return False
    return wants(me, item.item) and not item.battered


def _shift_toward_item(
    state: ColosseumState, sit: Situation, target: Hex, rng: random.Random
) -> Hex:
    """§29.3.2.4 (C7): one hex on the chart toward the nearest dropped item he needs."""
    items = [i.hex for i in state.items if _needed(state, sit.me, i)]
    if not items:
        return target
    near = min(distance(sit.me.hex, h) for h in items)
    item = rng.choice([h for h in items if distance(sit.me.hex, h) == near])
    steps = [h for h in neighbors(target) if distance(h, sit.me.hex) <= 2]
    best = min(distance(h, item) for h in steps)
    if best >= distance(target, item):
        return target
    return rng.choice([h for h in steps if distance(h, item) == best])


def _kick(
    state: ColosseumState,
    sit: Situation,
    cands: Sequence[_Choice],
    chosen: _Choice,
    roll: MovementRoll,
    adjusted: int,
    rng: random.Random,
) -> _Choice | None:
    """§29.3.2.5 (C7): into the hex of an unneeded item his path passes within 1 hex of, and
    kick it, if Movement roll + range is below 10."""
    entered = chosen.option.path[1:]
    near = [
        i
        for i in state.items
        if not _needed(state, sit.me, i) and any(distance(h, i.hex) <= 1 for h in entered)
    ]
    if not near:
        return None
    if roll.total + sit.range >= advanced_tables().centurions.t27.kick.below:
        return None
    for item in near:  # in the order they lie on the floor
        kicks = [
            c
            for c in cands
            if isinstance(c.plot.extra, Kick)
            and c.plot.extra.item == item.item
            and c.end == item.hex
        ]
        if not kicks:
            continue
        wanted = _wanted(sit, item.hex, adjusted, _colour(sit, item.hex))
        keys = [_kick_key(c, item.hex, wanted, sit) for c in kicks]
        low = min(keys)
        tied = [c for c, k in zip(kicks, keys, strict=True) if k == low]
        return _best(tied, item.hex, wanted, rng)
    return None


def _kick_key(c: _Choice, here: Hex, wanted: tuple[int, ...], sit: Situation) -> tuple[int, int]:
    """A kick's facing error (§29.3.3), then how far from the opponent the item would land."""
    assert isinstance(c.plot.extra, Kick)
    way = (c.facing + c.plot.extra.direction) % 6
    land = here
    for _ in range(3):  # §13.5.1: 1D6 hexes, three the middle of it
        land = neighbor(land, way)
    return (min(_sides(c.facing, w) for w in wanted), -distance(land, sit.foe_hex))


def _prone(
    sit: Situation, cands: Sequence[_Choice], roll: MovementRoll, rng: random.Random
) -> _Choice | None:
    """§29.3.1.2 (C6): RO away from the opponent, or KN turning one hex-side toward him."""
    rolls = [c for c in _bare(cands, "RO-FL", "RO-FR", "RO-BL", "RO-BR")]
    kneel = _bare(cands, "KN")
    if roll.total + sit.range < advanced_tables().centurions.t27.prone.below and rolls:
        far = max(distance(c.end, sit.foe_hex) for c in rolls)
        return rng.choice([c for c in rolls if distance(c.end, sit.foe_hex) == far])
    return _turning(kneel, sit, rng) or (rng.choice(rolls) if rolls else None)


def plot_order(
    state: ColosseumState, seat: str, decision: ChooseOne, fs: int, rng: random.Random
) -> str:
    """§29.3-§29.5.1: the centurion's plot this phase."""
    roll = roll_movement(rng)  # once a phase, whatever he then does (A4)
    texts = decision.texts()
    if len(texts) == 1:
        return texts[0]
    sit = situation(state, seat)
    me = sit.me
    cands = _choices(decision)
    if me.must_stumble and all(c.plot.actions[:1] == ("S",) for c in cands):  # §15.3 (C6)
        pick = _turning(cands, sit, rng)
        return pick.option.text if pick else _still(decision)
    if me.posture == "prone":  # §29.3.1.2 (C6)
        pick = _prone(sit, cands, roll, rng)
        return pick.option.text if pick else _still(decision)
    if pause_check(state, sit, roll):  # §29.3.1.1
        return _still(decision)
    t27 = advanced_tables().centurions.t27
    if "RN" in texts and roll.total + sit.range < t27.repel_net.below:  # §29.5.1.1 (C8)
        return "RN"
    lacking = not holds(me, "weapon") or not holds(me, "shield")
    near_item = any(_needed(state, me, i) and distance(i.hex, me.hex) <= 1 for i in state.items)
    if lacking and near_item:  # §29.3.1.3
        pick = _turning(_bare(cands, "R"), sit, rng)
        if pick is not None:
            return pick.option.text
    code, lay = net_attack(rng) if offers_net_attack(texts) else ("", None)
    if code:  # §29.5.2 (C8)
        net = net_option(texts, code, lay)
        if net is not None:
            return net
    # §29.3.2: the Random Movement Chart, its arrow toward the nearest opponent.
    pos = t27.position
    drm = position_drm(sit, fs)
    adjusted = roll.d66(drm)
    row = advanced_tables().centurions.t28.row(roll.red, roll.white, drm)
    if adjusted >= pos.charge_at_least and me.facing == sit.arrow:  # §29.3.2.3
        charge = _bare(cands, "C")
        if charge:
            return charge[0].option.text
    target = _rmc_hex(me.hex, sit.arrow, row.fl, row.fr)
    colour: Colour = row.colour
    if lacking:  # §29.3.2.4 (no Recover this phase)
        shifted = _shift_toward_item(state, sit, target, rng)
        if shifted != target:
            target, colour = shifted, _colour(sit, shifted)
    wanted = _wanted(sit, target, adjusted, colour)  # §29.3.3
    moving = _bare(cands, *_MOVES, "X") or _bare(cands, *_MOVES, "X", "C", "KN", "S")
    chosen = _best(moving, target, wanted, rng)
    if chosen is None:
        return _still(decision)
    kicked = _kick(state, sit, cands, chosen, roll, adjusted, rng)  # §29.3.2.5
    return (kicked or chosen).option.text
