"""What the movement step reports (§8): the figures as the collision rules see them, and the
record of each impact, Stun roll, Stumble check and collision, as plain data; in the Advanced
Game also each collision with a wall and each wall check at the map's edge (§25, walls.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from gladiator.core.hexgrid import (
    Hex,
)
from gladiator.rules.colosseum.arena.positions import Position
from gladiator.rules.colosseum.events import Event
from gladiator.rules.colosseum.vocabulary import GladiatorClass, StunExtra

__all__ = [
    "Collision",
    "CollisionCause",
    "Edge",
    "EdgeCheck",
    "FigureState",
    "Impact",
    "MovementResult",
    "StumbleCheck",
    "StumbleRule",
    "StunRoll",
    "WallCollision",
]

StumbleRule = Literal["text", "reference"]
CollisionCause = Literal["same_hex", "occupied", "crossing", "prone", "push"]
# §25: the four edges of the rectangular map, which may be arena walls (walls.py).
Edge = Literal["north", "east", "south", "west"]


@dataclass(frozen=True, slots=True)
class FigureState:
    """What the collision rules need to know about a gladiator this phase (T12, §8.3, §9.2).

    `stun` is the Stun in effect; `kneeling`, `stumbling` (performing a Stumble action this
    phase), `ensnared`, `recovering` (plotted a Recover, R), `rolling` (a Prone gladiator's
    Roll, RO) and `rising` (a Prone gladiator getting up to his knees, KN) are this phase's
    status; `prone` he lies Prone; `left_handed` swaps T11's values for attackers measured in his
    frame; `hold_ground` is the Campaign talent (+3 IF, §36).
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
    rising: bool = False
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
        if self.rising and not self.prone:
            raise ValueError("only a Prone gladiator gets up to his knees (§14.1 KN)")

    @property
    def holds_hex(self) -> bool:
        """§8.3, Q24: a Prone gladiator who is not rolling; entering his hex is a collision."""
        return self.prone and not self.rolling

    @property
    def at_mercy(self) -> bool:
        """§8.3, M5: whoever enters his hex has him at his mercy, unless he is getting up
        (`rising`: he plotted KN, option `prone_kn = "rising"`)."""
        return self.holds_hex and not self.rising


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


@dataclass(frozen=True, slots=True)
class WallCollision:
    """§25.4: a gladiator who ran (or was pushed, W6) into the wall on `edge`, standing in `hex`
    against it (before any §7.7 shift): his T13 roll, read on T7's Stun row, and his Stumble
    check (W5; None when pushed: the collision's one check counts it, or with the check off)."""

    figure: str
    hex: Hex
    edge: Edge
    pushed: bool
    forward: int
    drms: tuple[tuple[str, int], ...]
    stun_roll: StunRoll
    stumble_check: StumbleCheck | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "figure": self.figure,
            "hex": [self.hex.q, self.hex.r],
            "edge": self.edge,
            "pushed": self.pushed,
            "forward": self.forward,
            "drms": {name: value for name, value in self.drms},
            "stun_roll": self.stun_roll.to_dict(),
            "stumble_check": self.stumble_check.to_dict() if self.stumble_check else None,
        }


@dataclass(frozen=True, slots=True)
class EdgeCheck:
    """§25.3: `figure` left the map across `edge`. `roll` is the 1D6 (None where §25.3.1 took
    the opposite marker away instead); `placed` says the edge was marked."""

    figure: str
    edge: Edge
    roll: int | None
    total: int | None
    placed: bool
    removed: Edge | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "figure": self.figure,
            "edge": self.edge,
            "roll": self.roll,
            "total": self.total,
            "placed": self.placed,
            "removed": self.removed,
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
    # The Advanced Game's walls (§25, walls.py): each collision with a wall, each wall check at
    # the map's edge, and the walled edges after them (None when the arena has no walls).
    walls: tuple[WallCollision, ...] = ()
    edge_checks: tuple[EdgeCheck, ...] = ()
    wall_markers: frozenset[str] | None = None

    @property
    def moment_of_truth(self) -> bool:
        """§8.3, §18.2.1: some gladiator has a Prone opponent at his mercy."""
        return any(c.moment_of_truth for c in self.collisions)
