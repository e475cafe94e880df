"""What a CRT result does to the defender's log sheet: wounds, criticals, Stun, shields, drops.

Colosseum Edition §10 (wounds and critical hits), §11.2/§11.5 (Stun and its recovery), §12 (shield
damage), §13.1-§13.2 (weapon and shield drops) and §7.6.1 (the illegal-order Stun roll), as pure
functions: each takes a `LogSheet` and the match's dice and returns the new sheet and a record of
what happened. Every die goes through `dice` with its purpose and rule section, so the dice log
replays the resolution; every record carries event dicts `{"type", "rule", "text"}` whose text
ends with the rule section, e.g. "... (§10.1.1)".

The body hit and its critical results (§10) are body_hits.py, the shield hit (§12)
shield_hits.py; this module holds what they share (the dice, the drops of §13.1-§13.2), Stun
(§11, §7.6.1) and what the lasting critical results do phase by phase (STU, SA).

Readings of the reference (shared/rules/colosseum.md) this module follows:

* T7 "8" is "8 or less" and stun extras stand only in their own column (Q2, via the data file).
* Stun recovery uses the rules text, CN - (1D6 - phases since last stunned) (Q6).
* Drop locations use T15 with the facing-relative directions (Q17).
* Several STU results: one die each, he stumbles if any shows 1 (Q30).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from gladiator.rules.colosseum.sheet.logsheet import LogSheet, SheetEvent
from gladiator.rules.colosseum.sheet.logsheet_boxes import AREA_NAMES
from gladiator.rules.colosseum.tables.crt_tables import CrtResult
from gladiator.rules.colosseum.tables.tables import stun_result, tables
from gladiator.rules.colosseum.vocabulary import AREAS, Area, RelationCode, StunExtra

__all__ = [
    "WOUND_COLOURS",
    "Item",
    "ItemDrop",
    "WoundDice",
    "area_name",
    "drop_check",
    "drop_location",
    "drop_text",
    "illegal_order_stun",
    "phases_since_stunned",
    "result_code",
    "severed_artery_bleeding",
    "sheet_event_dicts",
    "signed",
    "stumbling_check",
    "stun_check",
    "stun_recovery",
]

# §10.1, §2.5: the wound roll throws all five dice at once.
WOUND_COLOURS: tuple[str, ...] = ("white", "white", "white", "black", "red")
PHASES_PER_TURN = 8  # §5.1

Item = Literal["weapon", "shield"]
Event = dict[str, Any]


class WoundDice(Protocol):
    """What this module needs of `gladiator.core.dice.Dice`."""

    def d(self, sides: int, purpose: str, rule: str) -> int: ...

    def roll(self, notation: str, purpose: str, rule: str) -> int: ...

    def coloured(self, colours: Sequence[str], purpose: str, rule: str) -> dict[str, list[int]]: ...


def _event(kind: str, rule: str, text: str, **extra: Any) -> Event:
    return {"type": kind, "rule": rule, "text": f"{text} ({rule})", **extra}


def sheet_event_dicts(events: Iterable[SheetEvent]) -> list[Event]:
    out: list[Event] = []
    for e in events:
        extra: dict[str, Any] = {}
        if e.area is not None:
            extra["area"] = e.area
        if e.amount:
            extra["amount"] = e.amount
        if e.result is not None:
            extra["result"] = e.result
        out.append(_event(e.kind, e.rule, e.text, **extra))
    return out


def area_name(area: Area | int) -> Area:
    if isinstance(area, int) and not isinstance(area, bool) and 1 <= area <= len(AREAS):
        return AREAS[area - 1]
    if isinstance(area, str) and area in AREAS:
        return area
    raise ValueError(f"body area {area!r} is not 1-5 or one of {', '.join(AREAS)} (§3.9)")


def signed(n: int) -> str:
    return f"{n:+d}"


# --- drops (§13) ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ItemDrop:
    """A dropped weapon or shield and where it lands (§13.2): the T15 direction roll and the
    side of the gladiator it travels through, and the distance in hexes (0 = his own hex)."""

    item: Item
    direction_roll: int
    direction: RelationCode
    distance: int
    cause: str  # the rule that dropped it, e.g. "§10.5 WD" or "§13.1.1"

    def to_dict(self) -> dict[str, Any]:
        return {
            "item": self.item,
            "direction_roll": self.direction_roll,
            "direction": self.direction,
            "distance": self.distance,
            "cause": self.cause,
        }


def drop_location(dice: WoundDice, item: Item, cause: str) -> tuple[ItemDrop, Event]:
    """§13.2: 1D6 for the direction on T15, then 1D6 − 1 for the distance (Q17)."""
    t15 = tables().items.t15
    roll = dice.roll(t15.direction_dice, f"dropped {item}: direction (T15)", "§13.2.1")
    direction = t15.directions[roll].direction
    distance_roll = dice.roll(t15.distance_dice, f"dropped {item}: distance", "§13.2.2")
    distance = min(max(distance_roll + t15.distance_modifier, 0), t15.max_distance)
    drop = ItemDrop(item, roll, direction, distance, cause)
    where = "stays in his hex" if distance == 0 else f"lands {distance} hex(es) toward {direction}"
    event = _event(
        "item_dropped",
        "§13.2",
        f"{item} dropped ({cause}): direction {roll} = {direction}, distance "
        f"{distance_roll}{t15.distance_modifier:+d} = {distance}, {where}",
        item=item,
    )
    return drop, event


_DROP_ITEM: dict[str, Item] = {"S*": "shield", "P": "weapon", "P*": "weapon"}


def result_code(result: str | CrtResult) -> str:
    return result.code if isinstance(result, CrtResult) else result


def _drop_total(
    roll: int, modified_cf: int, attacker_st: int, arm_cf_lost: int, drm: int = 0
) -> int:
    """§13.1.1: 3D6 − modified CF − attacker's ST − CF the defender lost from his arms."""
    return roll - modified_cf - attacker_st - arm_cf_lost + drm


def drop_text(
    item: Item, roll: int, modified_cf: int, attacker_st: int, arm_cf_lost: int, drm: int
) -> tuple[bool, str]:
    total = _drop_total(roll, modified_cf, attacker_st, arm_cf_lost, drm)
    dropped = total < 1
    extra = f" {signed(drm)} DRM" if drm else ""
    text = (
        f"{item} drop roll 3D6 {roll} − modified CF {modified_cf} − attacker ST {attacker_st} − "
        f"arms CF lost {arm_cf_lost}{extra} = {total}: "
        + (f"below 1, {item} dropped" if dropped else "kept")
    )
    return dropped, text


def drop_check(
    result: str | CrtResult,
    modified_cf: int,
    attacker_st: int,
    arm_cf_lost: int,
    dice: WoundDice,
    *,
    drm: int = 0,
) -> bool:
    """§13.1.1: does an S* (shield) or P/P* (weapon) make the defender drop the item?

    3D6 − modified CF − attacker's ST − CF lost from his arms (area 4) < 1 drops it. `drm` is
    added to the roll (Disarm §22, two-weapon fighting §24.2.2 are negative). The NOTE's case:
    ST 3, 4 CF against 2, no arm losses: a 3D6 of 5 or less drops the weapon.
    """
    code = result_code(result)
    item = _DROP_ITEM.get(code)
    if item is None:
        raise ValueError(f"only S*, P and P* call for a drop roll (§13.1), not {code!r}")
    if arm_cf_lost < 0:
        raise ValueError(f"CF lost from the arms cannot be {arm_cf_lost}")
    roll = dice.roll("3D6", f"{item} drop roll after {code}", "§13.1.1")
    dropped, _text = drop_text(item, roll, modified_cf, attacker_st, arm_cf_lost, drm)
    return dropped


# --- lasting critical results, phase by phase (§10.5) -------------------------------------------


def stumbling_check(stu: int, dice: WoundDice) -> bool:
    """§10.5 STU, §10.5.1, Q30: when he tries to leave his hex, roll one D6 per STU result; any 1
    means he performs a Stumble action instead of his move (§15.1)."""
    if stu < 0:
        raise ValueError(f"STU count cannot be {stu}")
    stumbled = False
    for i in range(stu):
        face = dice.d(6, f"stumbling check, die {i + 1} of {stu} (STU)", "§10.5")
        stumbled = stumbled or face == 1
    return stumbled


def severed_artery_bleeding(
    sheet: LogSheet, arteries: Iterable[Area | int]
) -> tuple[LogSheet, list[Event]]:
    """§10.5 SA: at the end of every phase after the one it happened in, each severed artery
    marks one more wound on its area. No attack, so no critical roll (§10.4)."""
    events: list[Event] = []
    for area in arteries:
        name = area_name(area)
        events.append(
            _event("severed_artery", "§10.5", f"severed artery: {AREA_NAMES[name]} bleeds 1 wound")
        )
        sheet, evs = sheet.with_wounds(name, 1)
        events.extend(sheet_event_dicts(evs))
    return sheet, events


# --- Stun (§11, §7.6.1) -------------------------------------------------------------------------


def stun_check(
    dice: WoundDice, drm: int = 0, *, purpose: str = "Stun roll", rule: str = "§10.1"
) -> tuple[int, StunExtra | None]:
    """T7 Stun row: 2D6 + `drm`, read as Stun points and that column's extra (Q2)."""
    roll = dice.roll("2D6", f"{purpose} (T7 Stun row)", rule)
    return stun_result(roll + drm)


def illegal_order_stun(dice: WoundDice) -> tuple[int, StunExtra | None]:
    """§7.6.1: an illegal order that stood: the offender rolls 2D6 + 0 on T7's Stun row."""
    return stun_check(dice, 0, purpose="illegal order stood", rule="§7.6.1")


def phases_since_stunned(sheet: LogSheet, turn: int, phase: int) -> int:
    """Q6: phase boundaries since the phase written with the last Stun box (0 in that phase)."""
    last = sheet.last_stunned
    if last is None:
        raise ValueError("he has never been stunned (§11.2)")
    since = (turn - last[0]) * PHASES_PER_TURN + (phase - last[1])
    if since < 0:
        raise ValueError(f"turn {turn} phase {phase} is before his last Stun {last}")
    return since


def stun_recovery(
    sheet: LogSheet,
    phases_since: int,
    dice: WoundDice,
    *,
    start_of_phase_stun: int | None = None,
) -> tuple[LogSheet, int]:
    """§11.5: after movement, Stun removed = CN − (1D6 − phases since last stunned), at least 0
    (the rules text, Q6), and never more than the Stun in effect at the start of the movement
    phase (§11.5.2; `start_of_phase_stun`, default: the Stun in effect now). The new total goes
    in the next Stun box with the same phase (§11.5.2). No die is rolled without Stun."""
    if phases_since < 0:
        raise ValueError(f"phases since last stunned cannot be {phases_since}")
    cap = sheet.stun_in_effect if start_of_phase_stun is None else start_of_phase_stun
    cap = min(cap, sheet.stun_in_effect)
    if cap <= 0:
        return sheet, 0
    roll = dice.d(6, "Stun recovery 1D6", "§11.5.1")
    removed = min(max(sheet.cn - (roll - phases_since), 0), cap)
    new, _events = sheet.with_stun_removed(removed)
    return new, removed
