"""The Colosseum Basic Game's simultaneous movement (§5.2.2, §7.7, §8) and combat geometry (§9.1,
§9.2, T11, T40).

`resolve_movement(figures, paths, dice, board=...)` takes every gladiator's revealed path for the
phase (a list of `(hex, facing)` poses, the start first, as the phase-plot module's `path` gives
it), executes them together, finds and resolves the collisions (§8: same hex, crossing paths,
Prone opponents at mercy, Impact Factors, placement, the Stun roll and the Stumble check) and
brings everyone back onto the map (§7.7). It returns a `MovementResult`: the new positions, the
event dicts `{"type", "rule", "text", ...}` (the text ends with the rule section, e.g.
"... (§8.4.1)"), a `Collision` record per collision and the §7.7 shift. Every die goes through
`dice` with its purpose and rule section.

The geometry of combat is here too: `in_front` (the combat front, §6.2/T40), `may_attack` (§9.1),
`forced_rotation` (§9.1.2) and `positional_advantage` (§9.2, T11, §9.2.1). All of it is pure: the
caller applies the Stun, the stumble and the Moment of Truth to its own state.

Hex offsets are measured in a figure's own frame as `fl·FL + fr·FR` (`front_coords`), FL and FR
being his left-front and right-front directions, as the T11 and T40 data files are written.

RULINGS (each choice this module makes where the rulebook leaves room; shared/rules/colosseum.md)

M1  §5.2.2, §8.1.1: movement is executed step by step, one step per hex entered (rotations take
    no time). A path's poses in one hex are one step; the figure's track is the hexes he occupies,
    his start hex included, so a gladiator standing still occupies his hex all phase.
M2  §8.1: two gladiators whose tracks end in the same hex collide there, always. This includes
    ending in the hex of a gladiator who does not move.
M3  §8.1.1: two gladiators whose tracks share any other hex (crossing, swapping places, passing
    through the hex of one who stands still or has just left it) each roll 1D6 once for the pair;
    equal rolls are a collision in the first hex they share. Steps are ordered by
    (the later of the two arrivals, the earlier one); unequal rolls let both paths run on, and
    the pair does not roll again this phase.
M4  §8.2: a collision cuts both tracks at the contested hex. A gladiator who enters it keeps the
    facing he entered with (rotations after it are movement left, cancelled); one who started in
    it keeps the last facing he had there.
M5  §8.3, Q24, §18.2.1: a Prone gladiator who is not rolling occupies his hex; anyone entering it
    collides, without dice. If the one entering is not Prone he has the other at his mercy: no
    Impact Factor is rolled, he stops in the hex he came from, and the match goes to the Moment of
    Truth (the collision says `moment_of_truth`). A Prone roller (RO) collides normally (+4 IF),
    also with a Prone gladiator who is not rolling.
M6  §8.4, T12: IF = 1D6 + T12's DRMs as the data file gives them; sidesteps forward (SFL, SFR)
    count as hexes moved forward, sidesteps backward (SBL, SBR) as backward, only hexes moved
    before the collision count, and a Roll's hex counts as neither (its +4 covers it). Stun in
    effect includes Stun from an earlier collision this phase. The Hold Ground talent adds +3
    (§8.4, §36; Campaign Game, a flag).
M7  T12 "+PA": each gladiator's T11 value (with the opponent's handedness, §9.2 NOTE) from the
    positions just before the impact: his last hex before the contested hex (the contested hex if
    he started there) against the opponent's, in the opponent's facing. No §9.2.1 status bonus is
    added: T12 already prices Stumbling and Ensnared, and Prone is M5. Same hex: 0.
M8  §8.4.1: the attacker stays in the contested hex; the defender goes to the hex beyond it,
    straight on from the attacker's hex of entry, keeping his facing. An attacker who did not enter
    the contested hex (he did not move, or was cut in his own start hex) has no hex of entry: the
    defender goes back to the last hex he occupied before it, keeping his facing.
M9  §8.4.2, Q36: equal IFs make both defenders; each goes back to the last hex he occupied before
    the contested hex, facing it (one who started there stays). Each rolls 2D6 + 0 for Stun and
    checks for Stumble.
M10 §8.4.3, Q2: the defender's Stun roll is 2D6 + (attacker's IF - defender's IF), read on T7's
    Stun row (so at least 1 Stun); the record keeps the 2D6, the total and the T7 result.
M11 §8.4.4, §15.2.1, Q5: the defender then checks for Stumble with the rules text's formula,
    1D6 - hexes moved backward this phase - Stun in effect (the new Stun included) < 1; the
    reference sheet's 2D6 - Stun - backward hexes < 7 is the option `stumble_rule="reference"`.
M12 Q36: a defender put into a hex another gladiator holds collides with him there, resolved the
    same way (cause "push"). After a pair has collided it does not roll for a crossing again. A
    runaway chain (only possible with three or more figures) stops after `2·n²` collisions and
    anyone still sharing a hex is put in the nearest free hex (proposal).
M13 §7.7, Q45: movement and collisions run on an unbounded grid; afterwards, while a gladiator
    is off the board, every gladiator moves 3 hexes toward the centre: the hex vector of length 3
    that points most nearly from the farthest-off gladiator to the board's centre, preferring one
    that brings everybody on. Relative positions and facings are kept; items on the ground do not
    move, so the result reports the total shift for the caller to re-note them. (The Advanced
    Game's walls, §7.7.1 and §25, are not handled here.)
M14 §9.1.2, §9.2, Q11: `forced_rotation` works out the attacker's PA from the positions before
    the defender turns; a defender whose front does not hold the attacker turns to face him (the
    facing that points most directly at him, `facing_toward`) and, made to face him, gets no PA
    against him. When each is in the other's front nobody turns (§9.1.3).
M15 §9.2.1, §15.6: status bonuses add to T11: Stumbling +2, Prone +4 (which replaces the
    Stumbling +2), Ensnared +4 (on top of either).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple, Protocol

from gladiator.core.hexgrid import (
    DIRECTIONS,
    Hex,
    HexMap,
    add,
    direction_to,
    distance,
    facing_toward,
    neighbor,
    opposite,
    relation_of,
    ring,
    scale,
    sub,
    to_pixel,
)
from gladiator.rules.colosseum.tables import GladiatorClass, StunExtra, stun_result, tables

__all__ = [
    "EDGE_SHIFT",
    "HOLD_GROUND_IF",
    "Collision",
    "FigureState",
    "ForcedRotation",
    "Impact",
    "MovementDice",
    "MovementResult",
    "Position",
    "StumbleCheck",
    "StunRoll",
    "forced_rotation",
    "front_coords",
    "in_front",
    "map_edge_shift",
    "may_attack",
    "positional_advantage",
    "resolve_movement",
    "starting_positions",
    "stumble_check",
]

EDGE_SHIFT = 3  # §7.7: hexes every gladiator moves back toward the centre
HOLD_GROUND_IF = 3  # §8.4, §36: the Hold Ground talent's IF bonus (not printed in T12)
START_DISTANCE = 5  # §4.5: four empty hexes between the two gladiators

Event = dict[str, Any]
FrontRegion = Literal["one_hex", "two_hex", "three_hex"]
StumbleRule = Literal["text", "reference"]
CollisionCause = Literal["same_hex", "crossing", "prone", "push"]
_StepKind = Literal["start", "forward", "backward", "roll", "push"]


class MovementDice(Protocol):
    """What this module needs of `gladiator.core.dice.Dice`."""

    def d(self, sides: int, purpose: str, rule: str) -> int: ...

    def roll(self, notation: str, purpose: str, rule: str) -> int: ...


class Position(NamedTuple):
    """Where a figure stands and which hex-side he faces (the same shape as a plot's pose)."""

    hex: Hex
    facing: int


def _event(kind: str, rule: str, text: str, **extra: Any) -> Event:
    return {"type": kind, "rule": rule, "text": f"{text} ({rule})", **extra}


def _h(h: Hex) -> str:
    return f"{h[0]},{h[1]}"


def _position(pose: Sequence[Any]) -> Position:
    if len(pose) != 2:
        raise ValueError(f"a position is (hex, facing), got {pose!r}")
    raw_hex, facing = pose
    if len(raw_hex) != 2 or not all(
        isinstance(c, int) and not isinstance(c, bool) for c in raw_hex
    ):
        raise ValueError(f"a hex is (q, r) integers, got {raw_hex!r}")
    # §6.1: a figure always faces one of the six hex-sides, never a corner.
    if isinstance(facing, bool) or not isinstance(facing, int) or not 0 <= facing < 6:
        raise ValueError(f"a facing is an integer 0..5, got {facing!r}")
    return Position(Hex(raw_hex[0], raw_hex[1]), facing)


# --- frames, fronts and positional advantage (§6.2, §9.1, §9.2, T11, T40) ------------------------


def front_coords(origin: Hex, facing: int, target: Hex) -> tuple[int, int]:
    """(fl, fr) with target - origin = fl·FL + fr·FR in the frame of a figure at origin facing
    `facing` (FL, FR his left-front and right-front directions; FL + FR is his front)."""
    lq, lr = DIRECTIONS[(facing - 1) % 6]
    rq, rr = DIRECTIONS[(facing + 1) % 6]
    vq = target[0] - origin[0]
    vr = target[1] - origin[1]
    det = lq * rr - lr * rq  # +-1: two directions 120° apart are a lattice basis
    return (vq * rr - vr * rq) * det, (lq * vr - lr * vq) * det


def in_front(a: tuple[Hex, int], b: tuple[Hex, int], *, region: FrontRegion = "one_hex") -> bool:
    """§6.2, T40: whether b stands in a's combat front (the 1-hex front F, FL, FR by default)."""
    fl, fr = front_coords(a[0], a[1], b[0])
    return tables().combat_front.t40.in_front(region, fl, fr)


def may_attack(
    a: tuple[Hex, int],
    b: tuple[Hex, int],
    *,
    region: FrontRegion = "one_hex",
    attacker_prone: bool = False,
) -> bool:
    """§9.1, §9.1.1: a may attack b if b is in a's combat front; a Prone gladiator cannot attack
    at all (§16.3)."""
    return not attacker_prone and in_front(a, b, region=region)


def positional_advantage(
    attacker: tuple[Hex, int],
    defender: tuple[Hex, int],
    *,
    left_handed: bool = False,
    stumbling: bool = False,
    prone: bool = False,
    ensnared: bool = False,
) -> int:
    """§9.2, T11, §9.2.1: the attacker's PA bonus from the hex he stands in, measured in the
    defender's frame; `left_handed` and the status flags describe the defender. Only the
    attacker's hex matters, not his facing. Prone's +4 replaces Stumbling's +2 (§15.6)."""
    fl, fr = front_coords(defender[0], defender[1], attacker[0])
    pa_file = tables().positional_advantage
    pa = pa_file.t11.bonus(fl, fr, left_handed=left_handed)
    status = pa_file.status_bonus
    if prone:
        pa += status.prone
    elif stumbling:
        pa += status.stumbling
    if ensnared:
        pa += status.ensnared
    return pa


@dataclass(frozen=True, slots=True)
class ForcedRotation:
    """§9.1.2: what an attack does to the defender's facing, and the attacker's PA.

    `turns`: the defender must turn to face the attacker and his facing changes; `facing`: his
    facing after it (his old one if he need not turn); `attacker_pa`: the attacker's PA (T11 +
    §9.2.1), from the positions before the turn; `defender_pa_allowed`: False if he was made to
    face the attacker (the attacker was outside his front), for a gladiator who turns to face an
    opponent never gets a PA bonus against him. (Only a long weapon can leave `turns` False and
    `defender_pa_allowed` False: an attacker straight ahead beyond the defender's front.)
    Otherwise the defender's own PA, if he attacks back, is
    `positional_advantage(defender, attacker, ...)`.
    """

    turns: bool
    facing: int
    attacker_pa: int
    defender_pa_allowed: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "turns": self.turns,
            "facing": self.facing,
            "attacker_pa": self.attacker_pa,
            "defender_pa_allowed": self.defender_pa_allowed,
        }


def forced_rotation(
    attacker: tuple[Hex, int],
    defender: tuple[Hex, int],
    *,
    region: FrontRegion = "one_hex",
    defender_region: FrontRegion = "one_hex",
    left_handed: bool = False,
    stumbling: bool = False,
    prone: bool = False,
    ensnared: bool = False,
) -> ForcedRotation:
    """§9.1.2, §9.1.3, §9.2, Q11: the attacker attacks the defender. If the attacker is not in the
    defender's combat front (`defender_region`, the 1-hex front in the Basic Game), the defender
    turns to face him (even if ensnared); the attacker's PA is worked out before the turn. The
    other keyword flags describe the defender (see `positional_advantage`). ValueError if the
    defender is not in the attacker's combat front (`region`)."""
    a = _position(attacker)
    d = _position(defender)
    if a.hex == d.hex:
        raise ValueError("attacker and defender cannot share a hex (§8.1)")
    if not in_front(a, d, region=region):
        raise ValueError(
            f"the defender at {_h(d.hex)} is not in the attacker's combat front, so he cannot "
            "be attacked (§9.1)"
        )
    pa = positional_advantage(
        a, d, left_handed=left_handed, stumbling=stumbling, prone=prone, ensnared=ensnared
    )
    if in_front(d, a, region=defender_region):
        return ForcedRotation(False, d.facing, pa, True)
    facing = facing_toward(d.hex, a.hex)
    return ForcedRotation(facing != d.facing, facing, pa, False)


def starting_positions(board: HexMap, *, axis: int = 0) -> tuple[Position, Position]:
    """§4.5, R-4.5-setup: both gladiators in the centre of the arena, facing each other along
    direction `axis`, with four empty hexes between them (distance 5): the first 2 hexes from the
    centre against `axis`, facing `axis`; the second 3 hexes from it along `axis`, facing back."""
    if isinstance(axis, bool) or not isinstance(axis, int) or not 0 <= axis < 6:
        raise ValueError(f"axis must be a direction 0..5, got {axis!r}")
    centre = board.centre()
    first = Position(add(centre, scale(DIRECTIONS[opposite(axis)], 2)), axis)
    second = Position(add(centre, scale(DIRECTIONS[axis], START_DISTANCE - 2)), opposite(axis))
    for pos in (first, second):
        if pos.hex not in board:
            raise ValueError(f"board {board.name} is too small for §4.5's starting positions")
    return first, second


# --- figures and records -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FigureState:
    """What the collision rules need to know about a gladiator this phase (T12, §8.3, §9.2).

    `stun` is the Stun in effect; `kneeling`, `stumbling` (performing a Stumble action this
    phase), `ensnared`, `recovering` (plotted a Recover, R) and `rolling` (a Prone gladiator's
    Roll, RO) are this phase's status; `prone` he lies Prone; `left_handed` swaps T11's values
    for attackers measured in his frame; `hold_ground` is the Campaign talent (+3 IF, §36).
    """

    gladiator_class: GladiatorClass = "medium"
    shield: Literal["large", "small"] | None = "small"
    st: int = 0
    ag: int = 0
    stun: int = 0
    kneeling: bool = False
    stumbling: bool = False
    ensnared: bool = False
    recovering: bool = False
    rolling: bool = False
    prone: bool = False
    left_handed: bool = False
    hold_ground: bool = False

    def __post_init__(self) -> None:
        if self.gladiator_class not in ("light", "medium", "heavy"):
            raise ValueError(f"class {self.gladiator_class!r} is not light, medium or heavy")
        if self.shield not in ("large", "small", None):
            raise ValueError(f"shield {self.shield!r} is not 'large', 'small' or None")
        if self.stun < 0:
            raise ValueError(f"Stun in effect cannot be {self.stun}")
        if self.rolling and not self.prone:
            raise ValueError("only a Prone gladiator may Roll (§7.4 RO)")

    @property
    def holds_hex(self) -> bool:
        """§8.3, Q24: a Prone gladiator who is not rolling; entering his hex is a collision."""
        return self.prone and not self.rolling


@dataclass(frozen=True, slots=True)
class Impact:
    """One gladiator's Impact Factor (§8.4, T12): 1D6 + the DRMs, each named as in T12's data."""

    figure: str
    die: int
    drms: tuple[tuple[str, int], ...]
    total: int
    forward: int
    backward: int
    pa: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "figure": self.figure,
            "die": self.die,
            "drms": {name: value for name, value in self.drms},
            "total": self.total,
            "forward": self.forward,
            "backward": self.backward,
            "pa": self.pa,
        }


@dataclass(frozen=True, slots=True)
class StunRoll:
    """§8.4.3: a defender's 2D6 + (attacker's IF - his IF) on T7's Stun row."""

    figure: str
    roll: int
    modifier: int
    total: int
    stun: int
    extra: StunExtra | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "figure": self.figure,
            "roll": self.roll,
            "modifier": self.modifier,
            "total": self.total,
            "stun": self.stun,
            "extra": self.extra,
        }


@dataclass(frozen=True, slots=True)
class StumbleCheck:
    """§8.4.4, §15.2.1: the defender's Stumble check. `stun` is the Stun in effect, the
    collision's included; he has stumbled (and must Stumble next phase, §15.3) if `stumbled`."""

    figure: str
    rule: StumbleRule
    roll: int
    backward: int
    stun: int
    total: int
    stumbled: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "figure": self.figure,
            "rule": self.rule,
            "roll": self.roll,
            "backward": self.backward,
            "stun": self.stun,
            "total": self.total,
            "stumbled": self.stumbled,
        }


@dataclass(frozen=True, slots=True)
class Collision:
    """One collision (§8): where, why, the dice and what became of the two gladiators.

    `hex` is the contested hex (before any §7.7 shift). `crossing_dice` are the §8.1.1 rolls, in
    the order of `figures`. With `mercy` set (the Prone gladiator at the other's mercy, §8.3) no
    IF is rolled and `moment_of_truth` is True. `attacker` is None on a tie (§8.4.2).
    `placements` are where each stood after it (§8.4.1, §8.4.2; before the §7.7 shift).
    """

    hex: Hex
    figures: tuple[str, str]
    cause: CollisionCause
    crossing_dice: tuple[int, int] | None = None
    mercy: str | None = None
    impacts: tuple[Impact, ...] = ()
    attacker: str | None = None
    defenders: tuple[str, ...] = ()
    placements: tuple[tuple[str, Position], ...] = ()
    stun_rolls: tuple[StunRoll, ...] = ()
    stumble_checks: tuple[StumbleCheck, ...] = ()

    @property
    def moment_of_truth(self) -> bool:
        """§8.3, §18.2.1: the match ends and goes to the Moment of Truth."""
        return self.mercy is not None

    def placement(self, figure: str) -> Position:
        for name, pos in self.placements:
            if name == figure:
                return pos
        raise KeyError(figure)

    def to_dict(self) -> dict[str, Any]:
        return {
            "hex": [self.hex.q, self.hex.r],
            "figures": list(self.figures),
            "cause": self.cause,
            "crossing_dice": list(self.crossing_dice) if self.crossing_dice else None,
            "mercy": self.mercy,
            "moment_of_truth": self.moment_of_truth,
            "impacts": [i.to_dict() for i in self.impacts],
            "attacker": self.attacker,
            "defenders": list(self.defenders),
            "placements": {n: [[p.hex.q, p.hex.r], p.facing] for n, p in self.placements},
            "stun_rolls": [s.to_dict() for s in self.stun_rolls],
            "stumble_checks": [s.to_dict() for s in self.stumble_checks],
        }


class MovementResult(NamedTuple):
    """What one movement step did: the new positions (after any §7.7 shift), the events in order,
    the collisions, and the total §7.7 shift (Hex(0, 0) if nobody left the board)."""

    positions: dict[str, Position]
    events: list[Event]
    collisions: list[Collision]
    shift: Hex
    # Each figure's hexes in the order he occupied them this phase, his start hex first, with how
    # he entered each ("start", "forward", "backward", "roll", "push"); before the §7.7 shift, so
    # in the frame of the items on the ground (§15.1, §13.5, §16.2).
    tracks: Mapping[str, tuple[tuple[Hex, str], ...]] = {}

    @property
    def moment_of_truth(self) -> bool:
        """§8.3, §18.2.1: some gladiator has a Prone opponent at his mercy."""
        return any(c.moment_of_truth for c in self.collisions)


# --- tracks (M1) ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Step:
    """One hex of a track: the facing he had on entering it and the last one he had in it."""

    hex: Hex
    entry_facing: int
    last_facing: int
    kind: _StepKind


def _track(name: str, figure: FigureState, poses: Sequence[Any]) -> list[_Step]:
    if len(poses) == 0:
        raise ValueError(f"{name}: a path needs at least its starting position")
    positions = [_position(p) for p in poses]
    first = positions[0]
    steps = [_Step(first.hex, first.facing, first.facing, "start")]
    for pos in positions[1:]:
        last = steps[-1]
        if pos.hex == last.hex:
            steps[-1] = _Step(last.hex, last.entry_facing, pos.facing, last.kind)
            continue
        if direction_to(last.hex, pos.hex) is None:
            raise ValueError(
                f"{name}: a path moves one hex at a time, {_h(last.hex)} to {_h(pos.hex)} is not"
            )
        kind: _StepKind
        if figure.rolling:
            kind = "roll"
        else:
            rel = relation_of(last.hex, last.last_facing, pos.hex)
            kind = "forward" if rel in (0, 1, 5) else "backward"
        steps.append(_Step(pos.hex, pos.facing, pos.facing, kind))
    if figure.holds_hex and len(steps) > 1:
        raise ValueError(f"{name}: a Prone gladiator who does not Roll cannot move (§16.4)")
    return steps


def _cut(track: list[_Step], i: int) -> list[_Step]:
    """M4: the track stopped at its i-th step, facing as he was when the collision happened."""
    step = track[i]
    facing = step.entry_facing if i > 0 else step.last_facing
    return [*track[:i], _Step(step.hex, step.entry_facing, facing, step.kind)]


def _final(track: list[_Step]) -> Position:
    return Position(track[-1].hex, track[-1].last_facing)


def _first_index(track: list[_Step]) -> dict[Hex, int]:
    out: dict[Hex, int] = {}
    for i, step in enumerate(track):
        out.setdefault(step.hex, i)
    return out


class _Candidate(NamedTuple):
    key: tuple[int, int, int]
    x: str
    y: str
    hex: Hex
    ix: int
    iy: int
    cause: CollisionCause
    certain: bool


def _pair_candidate(
    order: int,
    x: str,
    y: str,
    tracks: Mapping[str, list[_Step]],
    figures: Mapping[str, FigureState],
    rolled: set[frozenset[str]],
    collided: set[frozenset[str]],
) -> _Candidate | None:
    tx, ty = tracks[x], tracks[y]
    pair = frozenset((x, y))
    best: _Candidate | None = None

    def consider(h: Hex, ix: int, iy: int, cause: CollisionCause, certain: bool) -> None:
        nonlocal best
        cand = _Candidate((max(ix, iy), min(ix, iy), order), x, y, h, ix, iy, cause, certain)
        if best is None or cand.key < best.key:
            best = cand

    end = tx[-1].hex if tx[-1].hex == ty[-1].hex else None
    if end is not None:  # M2
        ix, iy = len(tx) - 1, len(ty) - 1
        pushed = tx[ix].kind == "push" or ty[iy].kind == "push"
        holds = figures[x].holds_hex or figures[y].holds_hex
        cause: CollisionCause = "push" if pushed else "prone" if holds else "same_hex"
        consider(end, ix, iy, cause, True)
    if pair not in collided:
        first_x, first_y = _first_index(tx), _first_index(ty)
        for h, ix in first_x.items():
            iy_ = first_y.get(h)
            if iy_ is None or h == end:
                continue
            if figures[x].holds_hex or figures[y].holds_hex:  # M5
                consider(h, ix, iy_, "prone", True)
            elif pair not in rolled:  # M3
                consider(h, ix, iy_, "crossing", False)
    return best


# --- collisions (§8) -----------------------------------------------------------------------------


def _impact_drms(
    figure: FigureState, forward: int, backward: int, pa: int, stun: int
) -> list[tuple[str, int]]:
    """M6: T12's DRMs that apply, by their names in data/collision.toml."""
    t = tables().collision.t12.drms
    out: list[tuple[str, int]] = []
    if figure.gladiator_class == "heavy":
        out.append(("heavy", t.heavy.drm))
    elif figure.gladiator_class == "medium":
        out.append(("medium", t.medium.drm))
    if figure.shield == "large":
        out.append(("large_shield", t.large_shield.drm))
    elif figure.shield is None:
        out.append(("no_shield", t.no_shield.drm))
    if forward:
        out.append(("moved_forward", forward * t.moved_forward.drm))
    if backward:
        out.append(("moved_backward", backward * t.moved_backward.drm))
    if figure.rolling:
        out.append(("rolled", t.rolled.drm))
    if figure.kneeling or figure.stumbling:
        out.append(("kneeling_or_stumbling", t.kneeling_or_stumbling.drm))
    if figure.ensnared:
        out.append(("ensnared", t.ensnared.drm))
    if figure.recovering:
        out.append(("attempted_recover", t.attempted_recover.drm))
    if stun:
        out.append(("stun", stun * t.stun.drm))
    if figure.st:
        out.append(("strength", figure.st * t.strength.drm))
    if figure.ag:
        out.append(("agility", figure.ag * t.agility.drm))
    if pa:
        out.append(("positional_advantage", pa * t.positional_advantage.drm))
    if figure.hold_ground:
        out.append(("hold_ground", HOLD_GROUND_IF))
    return out


def _moved(track: list[_Step], i: int) -> tuple[int, int]:
    """Hexes he moved forward and backward by his own plot up to his i-th step (M6)."""
    kinds = [s.kind for s in track[1 : i + 1]]
    return kinds.count("forward"), kinds.count("backward")


def _before(track: list[_Step], i: int) -> Position:
    """M7: where he stood just before the collision in his i-th step's hex."""
    if i > 0:
        return Position(track[i - 1].hex, track[i - 1].last_facing)
    return Position(track[0].hex, track[0].last_facing)


@dataclass
class _Phase:
    figures: Mapping[str, FigureState]
    tracks: dict[str, list[_Step]]
    dice: MovementDice
    stumble_rule: StumbleRule
    events: list[Event] = field(default_factory=list)
    collisions: list[Collision] = field(default_factory=list)
    added_stun: dict[str, int] = field(default_factory=dict)

    def stun_now(self, name: str) -> int:
        return self.figures[name].stun + self.added_stun.get(name, 0)

    # -- one collision -------------------------------------------------------------------------

    def collide(self, c: _Candidate, crossing: tuple[int, int] | None) -> None:
        x, y, h = c.x, c.y, c.hex
        tx, ty = self.tracks[x], self.tracks[y]
        rule = {"same_hex": "§8.1", "crossing": "§8.1.1", "prone": "§8.3", "push": "Q36"}[c.cause]
        how = {
            "same_hex": "end their movement in the same hex",
            "crossing": "rolled equal dice where their paths cross",
            "prone": "meet where a Prone gladiator lies",
            "push": "meet where one of them was pushed",
        }[c.cause]
        self.events.append(
            _event("collision", rule, f"{x} and {y} {how}: they collide in {_h(h)}", hex=h)
        )
        self.events.append(
            _event(
                "stop",
                "§8.2",
                f"{x} and {y} stop where they collided; any movement left is cancelled",
                figures=[x, y],
            )
        )
        fx, fy = self.figures[x], self.figures[y]
        prone_one = x if fx.holds_hex else y if fy.holds_hex else None
        if prone_one is not None:
            other = y if prone_one == x else x
            if not self.figures[other].prone:
                self.mercy(c, prone_one, other, crossing)
                return
        self.impact(c, tx, ty, crossing)

    def mercy(
        self, c: _Candidate, victim: str, victor: str, crossing: tuple[int, int] | None
    ) -> None:
        """M5: §8.3 a standing gladiator runs into a Prone one who is not rolling."""
        i = c.ix if victor == c.x else c.iy
        track = self.tracks[victor]
        # He stops in the hex he came from, as he stood there (he never entered the Prone's hex).
        self.tracks[victor] = track[:i] if i > 0 else _cut(track, 0)
        placed = _final(self.tracks[victor])
        self.events.append(
            _event(
                "mercy",
                "§8.3",
                f"{victor} has the Prone {victim} at his mercy: the match ends and goes to the "
                f"Moment of Truth; {victor} stops in {_h(placed.hex)}",
                victor=victor,
                victim=victim,
            )
        )
        self.events.append(
            _event("moment_of_truth", "§18.2.1", f"Moment of Truth: {victim} Prone before {victor}")
        )
        self.collisions.append(
            Collision(
                c.hex,
                (c.x, c.y),
                c.cause,
                crossing_dice=crossing,
                mercy=victim,
                placements=tuple((n, _final(self.tracks[n])) for n in (c.x, c.y)),
            )
        )

    def impact(
        self, c: _Candidate, tx: list[_Step], ty: list[_Step], crossing: tuple[int, int] | None
    ) -> None:
        x, y, h = c.x, c.y, c.hex
        index = {x: c.ix, y: c.iy}
        old = {x: tx, y: ty}
        before = {n: _before(old[n], index[n]) for n in (x, y)}
        impacts: dict[str, Impact] = {}
        for me, other in ((x, y), (y, x)):
            fig = self.figures[me]
            forward, backward = _moved(old[me], index[me])
            pa = 0
            if before[me].hex != before[other].hex:
                pa = positional_advantage(
                    before[me], before[other], left_handed=self.figures[other].left_handed
                )
            drms = _impact_drms(fig, forward, backward, pa, self.stun_now(me))
            die = self.dice.d(6, f"{me} Impact Factor (T12)", "§8.4")
            total = die + sum(v for _, v in drms)
            impacts[me] = Impact(me, die, tuple(drms), total, forward, backward, pa)
            detail = "".join(f" {v:+d} {name}" for name, v in drms)
            self.events.append(
                _event(
                    "impact_factor",
                    "§8.4",
                    f"{me} Impact Factor: 1D6 {die}{detail} = {total}",
                    figure=me,
                    total=total,
                )
            )
        ifx, ify = impacts[x].total, impacts[y].total
        placements: dict[str, Position] = {}
        if ifx == ify:
            attacker: str | None = None
            defenders: tuple[str, ...] = (x, y)
            self.events.append(
                _event("tie", "§8.4.2", f"equal Impact Factors ({ifx}): both are defenders")
            )
            for n in (x, y):
                i = index[n]
                if i == 0:
                    self.tracks[n] = _cut(old[n], 0)
                else:
                    prev = old[n][i - 1]
                    face = direction_to(prev.hex, h)
                    assert face is not None
                    self.tracks[n] = [
                        *old[n][: i - 1],
                        _Step(prev.hex, prev.entry_facing, face, prev.kind),
                    ]
                placements[n] = _final(self.tracks[n])
                where = "stays in" if i == 0 else "goes back to"
                self.events.append(
                    _event(
                        "placed",
                        "§8.4.2",
                        f"{n} {where} {_h(placements[n].hex)} facing {placements[n].facing}",
                        figure=n,
                        hex=placements[n].hex,
                        facing=placements[n].facing,
                    )
                )
        else:
            attacker = x if ifx > ify else y
            defender = y if attacker == x else x
            defenders = (defender,)
            self.events.append(
                _event(
                    "attacker",
                    "§8.4.1",
                    f"{attacker} (IF {impacts[attacker].total}) is the attacker, {defender} "
                    f"(IF {impacts[defender].total}) the defender",
                    attacker=attacker,
                    defender=defender,
                )
            )
            ia, idf = index[attacker], index[defender]
            self.tracks[attacker] = _cut(old[attacker], ia)
            placements[attacker] = _final(self.tracks[attacker])
            self.events.append(
                _event(
                    "placed",
                    "§8.4.1",
                    f"{attacker} stays in the contested hex {_h(h)}",
                    figure=attacker,
                    hex=h,
                    facing=placements[attacker].facing,
                )
            )
            d_cut = _cut(old[defender], idf)
            facing = d_cut[-1].last_facing
            if ia > 0:
                d = direction_to(old[attacker][ia - 1].hex, h)
                assert d is not None
                to = neighbor(h, d)
                self.tracks[defender] = [*d_cut, _Step(to, facing, facing, "push")]
                text = f"{defender} is pushed straight through to {_h(to)}"
            else:
                prev = old[defender][idf - 1]
                to = prev.hex
                self.tracks[defender] = [
                    *old[defender][: idf - 1],
                    _Step(to, prev.entry_facing, facing, prev.kind),
                ]
                text = f"{attacker} did not move: {defender} goes back to {_h(to)}"
            placements[defender] = _final(self.tracks[defender])
            self.events.append(
                _event("placed", "§8.4.1", text, figure=defender, hex=to, facing=facing)
            )
        stun_rolls: list[StunRoll] = []
        checks: list[StumbleCheck] = []
        for n in defenders:
            modifier = 0 if attacker is None else impacts[attacker].total - impacts[n].total
            roll = self.dice.roll("2D6", f"{n} collision Stun (T7 Stun row)", "§8.4.3")
            points, extra = stun_result(roll + modifier)
            stun_rolls.append(StunRoll(n, roll, modifier, roll + modifier, points, extra))
            self.added_stun[n] = self.added_stun.get(n, 0) + points
            more = f" and {extra.replace('_', ' ')}" if extra else ""
            self.events.append(
                _event(
                    "stun",
                    "§8.4.3",
                    f"{n} Stun roll: 2D6 {roll} {modifier:+d} = {roll + modifier}: "
                    f"{points} Stun{more}",
                    figure=n,
                    stun=points,
                    extra=extra,
                )
            )
            checks.append(self.stumble_check(n, impacts[n].backward))
        self.collisions.append(
            Collision(
                h,
                (x, y),
                c.cause,
                crossing_dice=crossing,
                impacts=(impacts[x], impacts[y]),
                attacker=attacker,
                defenders=defenders,
                placements=tuple((n, placements[n]) for n in (x, y)),
                stun_rolls=tuple(stun_rolls),
                stumble_checks=tuple(checks),
            )
        )

    def stumble_check(self, n: str, backward: int) -> StumbleCheck:
        """M11: §8.4.4, §15.2.1 (Q5)."""
        check, event = stumble_check(
            n, backward, self.stun_now(n), self.dice, self.stumble_rule, "after losing a collision"
        )
        self.events.append(event)
        return check


def stumble_check(
    n: str,
    backward: int,
    stun: int,
    dice: MovementDice,
    rule: StumbleRule = "text",
    why: str = "after losing a collision",
    section: str = "§8.4.4",
) -> tuple[StumbleCheck, Event]:
    """§15.1, §15.2.1 (Q5, M11): 1D6 - hexes moved backward - Stun in effect, below 1 he has
    stumbled (`rule="reference"`: 2D6 - Stun - backward, below 7). `section` names the rule that
    asked for the check (§8.4.4 a lost collision, §15.1 stepping back onto an item)."""
    if rule == "text":
        roll = dice.d(6, f"{n} Stumble check {why}", "§15.2.1")
        total = roll - backward - stun
        stumbled = total < 1
        formula = f"1D6 {roll} - {backward} backward - {stun} Stun = {total}, below 1"
    else:
        roll = dice.roll("2D6", f"{n} Stumble check {why}", "§15.2.1")
        total = roll - stun - backward
        stumbled = total < 7
        formula = f"2D6 {roll} - {stun} Stun - {backward} backward = {total}, below 7"
    verdict = "he stumbles and must Stumble next phase" if stumbled else "he keeps his feet"
    event = _event(
        "stumble_check",
        section,
        f"{n} Stumble check (§15.2.1): {formula}? {verdict}",
        figure=n,
        stumbled=stumbled,
    )
    return StumbleCheck(n, rule, roll, backward, stun, total, stumbled), event


def _nearest_free(h: Hex, taken: set[Hex]) -> Hex:
    radius = 1
    while True:
        for cand in ring(h, radius):
            if cand not in taken:
                return cand
        radius += 1


def resolve_movement(
    figures: Mapping[str, FigureState],
    paths: Mapping[str, Sequence[Any]],
    dice: MovementDice,
    *,
    board: HexMap,
    stumble_rule: StumbleRule = "text",
) -> MovementResult:
    """§5.2.2, §8, §7.7: reveal every path and execute them together (RULINGS M1-M13).

    `paths[name]` is the gladiator's list of `(hex, facing)` poses for this phase, his current
    position first; one who does not move gives just that. Every figure in `figures` needs a
    path and they must start in different hexes of `board`. Figures are handled in the mapping's
    order (dice are rolled in that order within each collision).
    """
    if set(figures) != set(paths):
        raise ValueError(
            f"figures {sorted(figures)} and paths {sorted(paths)} must name the same gladiators"
        )
    if stumble_rule not in ("text", "reference"):
        raise ValueError(f"stumble_rule must be 'text' or 'reference', got {stumble_rule!r}")
    names = list(figures)
    tracks = {n: _track(n, figures[n], paths[n]) for n in names}
    starts: dict[Hex, str] = {}
    for n in names:
        start = tracks[n][0].hex
        if start in starts:
            raise ValueError(f"{starts[start]} and {n} cannot start in the same hex (§8.1)")
        if start not in board:
            raise ValueError(f"{n} starts off the board at {_h(start)}")
        starts[start] = n
    phase = _Phase(figures, tracks, dice, stumble_rule)
    for n in names:
        end = _final(tracks[n])
        steps = len(tracks[n]) - 1
        phase.events.append(
            _event(
                "reveal",
                "§5.2.2",
                f"{n} plots {steps} hex{'es' if steps != 1 else ''} from {_h(tracks[n][0].hex)} "
                f"to {_h(end.hex)} facing {end.facing}",
                figure=n,
            )
        )

    pairs = [(names[i], names[j]) for i in range(len(names)) for j in range(i + 1, len(names))]
    rolled: set[frozenset[str]] = set()
    collided: set[frozenset[str]] = set()
    limit = 2 * len(names) ** 2
    while len(phase.collisions) < limit:
        found = [
            cand
            for order, (x, y) in enumerate(pairs)
            if (cand := _pair_candidate(order, x, y, tracks, figures, rolled, collided)) is not None
        ]
        if not found:
            break
        c = min(found, key=lambda cand: cand.key)
        pair = frozenset((c.x, c.y))
        crossing: tuple[int, int] | None = None
        if not c.certain:
            a = dice.d(6, f"{c.x} crossing {c.y}'s path", "§8.1.1")
            b = dice.d(6, f"{c.y} crossing {c.x}'s path", "§8.1.1")
            crossing = (a, b)
            rolled.add(pair)
            verdict = "match: they collide" if a == b else "no collision"
            phase.events.append(
                _event(
                    "crossing",
                    "§8.1.1",
                    f"{c.x} and {c.y} both pass through {_h(c.hex)}: 1D6 {a} and {b}, {verdict}",
                    hex=c.hex,
                    dice=[a, b],
                    collide=a == b,
                )
            )
            if a != b:
                continue
        collided.add(pair)
        phase.collide(c, crossing)

    positions = {n: _final(tracks[n]) for n in names}
    taken: set[Hex] = set()
    for n in names:  # M12: only a runaway chain of pushes can leave two in one hex
        if positions[n].hex in taken:
            free = _nearest_free(positions[n].hex, taken)
            phase.events.append(
                _event(
                    "crowded",
                    "Q36",
                    f"{n} cannot stay in crowded {_h(positions[n].hex)}; he moves to {_h(free)}",
                    figure=n,
                )
            )
            positions[n] = Position(free, positions[n].facing)
        taken.add(positions[n].hex)

    positions, shift, shift_events = map_edge_shift(positions, board)
    phase.events.extend(shift_events)
    for n in names:
        phase.events.append(
            _event(
                "moved",
                "§5.2.2",
                f"{n} ends in {_h(positions[n].hex)} facing {positions[n].facing}",
                figure=n,
                hex=positions[n].hex,
                facing=positions[n].facing,
            )
        )
    moved = {n: tuple((step.hex, str(step.kind)) for step in tracks[n]) for n in names}
    return MovementResult(positions, phase.events, phase.collisions, shift, moved)


# --- map edges (§7.7) ----------------------------------------------------------------------------

_SHIFTS: tuple[Hex, ...] = tuple(ring(Hex(0, 0), EDGE_SHIFT))


def _cosine(a: Hex, b: Hex) -> float:
    ax, ay = to_pixel(a)
    bx, by = to_pixel(b)
    return (ax * bx + ay * by) / (math.hypot(ax, ay) * math.hypot(bx, by))


def _shift_vector(current: Mapping[str, Position], toward: Hex, board: HexMap) -> Hex:
    """M13: the length-3 vector pointing most nearly along `toward` among those that leave the
    fewest gladiators off the board (ties: ring order)."""

    def key(v: Hex) -> tuple[int, float]:
        left_off = sum(1 for p in current.values() if add(p.hex, v) not in board)
        return left_off, -_cosine(v, toward)

    return min((v for v in _SHIFTS if _cosine(v, toward) > 0), key=key)


def map_edge_shift(
    positions: Mapping[str, tuple[Hex, int]], board: HexMap
) -> tuple[dict[str, Position], Hex, list[Event]]:
    """§7.7, Q45 (M13): while anyone is off `board`, move everyone 3 hexes toward its centre,
    keeping their relative positions and facings. Returns the new positions, the total shift
    (Hex(0, 0) if nobody was off) and the events. Items on the ground stay where they lie; the
    caller adds nothing to them, but may use the shift to say where they now are relative to the
    gladiators. ValueError if the board cannot hold them all."""
    current = {n: _position(p) for n, p in positions.items()}
    events: list[Event] = []
    total = Hex(0, 0)
    if not current:
        return current, total, events
    centre = board.centre()
    spread = max(distance(a.hex, b.hex) for a in current.values() for b in current.values())
    far = max(distance(p.hex, centre) for p in current.values())
    for _ in range(far // EDGE_SHIFT + spread + 4):
        off = [n for n, p in current.items() if p.hex not in board]
        if not off:
            return current, total, events
        mover = max(off, key=lambda n: distance(current[n].hex, centre))
        vec = _shift_vector(current, sub(centre, current[mover].hex), board)
        current = {n: Position(add(p.hex, vec), p.facing) for n, p in current.items()}
        total = add(total, vec)
        events.append(
            _event(
                "map_edge",
                "§7.7",
                f"{mover} is off the map: every gladiator moves 3 hexes toward the centre "
                f"(by {_h(vec)}); items on the ground stay where they lie",
                figure=mover,
                shift=vec,
            )
        )
    raise ValueError(f"board {board.name} cannot hold the gladiators at {sorted(current.items())}")
