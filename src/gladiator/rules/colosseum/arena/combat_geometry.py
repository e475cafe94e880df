"""The geometry of combat (§6.2, §9.1, §9.2, T11, T40): a figure's own frame, his combat front,
who may attack whom, forced rotation and positional advantage. Pure functions of positions.

Hex offsets are measured in a figure's own frame as `fl·FL + fr·FR` (`front_coords`), FL and FR
being his left-front and right-front directions, as the T11 and T40 data files are written.

RULINGS (shared/rules/colosseum.md; numbered with movement.py's M series)

M14 §9.1.2, §9.2, Q11: `forced_rotation` works out the attacker's PA from the positions before
    the defender turns; a defender whose front does not hold the attacker turns to face him (the
    facing that points most directly at him, `facing_toward`) and, made to face him, gets no PA
    against him. When each is in the other's front nobody turns (§9.1.3).
M15 §9.2.1, §15.6: status bonuses add to T11: Stumbling +2, Prone +4 (which replaces the
    Stumbling +2), Ensnared +4 (on top of either).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from gladiator.core.hexgrid import (
    DIRECTIONS,
    Hex,
    facing_toward,
)
from gladiator.rules.colosseum.arena.positions import as_position, hex_text
from gladiator.rules.colosseum.tables.tables import tables

__all__ = [
    "ForcedRotation",
    "FrontRegion",
    "forced_rotation",
    "front_coords",
    "in_front",
    "may_attack",
    "positional_advantage",
]

FrontRegion = Literal["one_hex", "two_hex", "three_hex"]


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
    a = as_position(attacker)
    d = as_position(defender)
    if a.hex == d.hex:
        raise ValueError("attacker and defender cannot share a hex (§8.1)")
    if not in_front(a, d, region=region):
        raise ValueError(
            f"the defender at {hex_text(d.hex)} is not in the attacker's combat front, so he "
            "cannot be attacked (§9.1)"
        )
    pa = positional_advantage(
        a, d, left_handed=left_handed, stumbling=stumbling, prone=prone, ensnared=ensnared
    )
    if in_front(d, a, region=defender_region):
        return ForcedRotation(False, d.facing, pa, True)
    facing = facing_toward(d.hex, a.hex)
    return ForcedRotation(facing != d.facing, facing, pa, False)
