"""A hit on the defender's shield (S or S*, §12.2-§12.4): the shield damage roll, the boxes it
marks on the log sheet's shield track and what a checked box inflicts (§12.3.1: a weapon drop
roll, or a body hit through body_hits.py), with the S*'s shield drop (§13.1.1). A pure function
of the sheet and the match's dice, like the rest of wounds.py's family.

Readings of the reference (shared/rules/colosseum.md) this module follows:

* Wound categories P1 (Q15) and the shield track P2 (Q16) come from the data files through the
  log sheet. A battered shield protects no more: an S or S* against it must be converted to P by
  the caller (§9.6, Q16); `shield_hit` refuses it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from gladiator.rules.colosseum.events import Event, event
from gladiator.rules.colosseum.hits.body_hits import HitOutcome, body_hit
from gladiator.rules.colosseum.hits.wounds import (
    WOUND_COLOURS,
    ItemDrop,
    WoundDice,
    drop_location,
    drop_text,
    result_code,
    sheet_event_dicts,
    signed,
)
from gladiator.rules.colosseum.sheet.logsheet import LogSheet
from gladiator.rules.colosseum.tables.crt_tables import CrtResult
from gladiator.rules.colosseum.vocabulary import Area

__all__ = ["ShieldOutcome", "shield_hit"]


# --- shield hits (§12) --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShieldOutcome:
    """Everything one S or S* did to the defender's shield (§12) and what followed from it."""

    result: Literal["S", "S*"]
    damage_2d6: int  # the 2D6 (for S*, RED + BLACK of the 5D6, §12.4)
    damage_roll: int  # 2D6 + attacker's ST + modified CF (+1 for S*) (§12.2)
    damage_points: int  # the highest unmarked numbered box before the hit (§12.2.1)
    boxes_marked: int = 0
    triggered: tuple[Literal["P", "H"], ...] = ()  # P2 letter boxes checked off (§12.3.1)
    shield_useless: bool = False  # the last box is marked: drop or throw it (§12.3)
    drop_roll: int | None = None  # S*: the WHITE 3D6 shield drop roll (§12.4, §13.1.1)
    shield_drop: ItemDrop | None = None  # S* drop roll below 1 (§13.1.1, §13.2)
    weapon_drop_roll: int | None = None  # a P box's weapon drop 3D6 (§12.3.1, §13.1.1)
    weapon_drop: ItemDrop | None = None
    body_hit: HitOutcome | None = None  # an H box (or a P box with no weapon), resolved
    body_hit_pending: bool = False  # an H box, but no area was given to resolve it
    events: list[Event] = field(default_factory=list)


def shield_hit(
    sheet: LogSheet,
    result: str | CrtResult,
    attacker_st: int,
    modified_cf: int,
    dice: WoundDice,
    *,
    drop_modified_cf: int | None = None,
    has_weapon: bool = True,
    area: Area | int | None = None,
    turn: int | None = None,
    phase: int | None = None,
    weapon_modifier: int = 0,
    helmet_lost: bool = False,
    damage_drm: int = 0,
) -> tuple[LogSheet, ShieldOutcome]:
    """§12.2-§12.4: a non-net S or S* against a working shield.

    Shield damage = 2D6 + attacker's ST + `modified_cf` (+1 for S*); pass the modified CF without
    what a weakened defender's negative defense added (§12.2 NOTE). For S* one 5D6 throw gives
    RED + BLACK as the damage 2D6 and the WHITE 3D6 as the shield drop roll (§12.4, §13.1.1),
    which uses `drop_modified_cf` (default: `modified_cf`). A damaged shield marks boxes on the
    P2 track (§12.2.1); a P box checked off costs a weapon drop roll (an H if he has no weapon,
    §9.6) and an H box a body hit with H+0 (§12.3.1) on `area`, dated `turn`/`phase`. Without an
    `area` the H is left to the caller (`body_hit_pending`). `damage_drm` is added to the
    damage roll (the pike's +6, §21.9).
    """
    code = result_code(result)
    if code not in ("S", "S*"):
        raise ValueError(f"only S and S* are shield hits (§12.2), not {code!r}")
    if sheet.shield_useless:
        raise ValueError(
            "the shield is battered useless: an S or S* against it is a P (§9.6, §12.3, Q16)"
        )
    if area is not None and (turn is None or phase is None):
        raise ValueError("resolving an H box needs the turn and phase (§11.2)")
    edge = code == "S*"
    events: list[Event] = []
    white: list[int] = []
    if edge:
        faces = dice.coloured(
            WOUND_COLOURS,
            "shield-edge hit (RED+BLACK shield damage, WHITE shield drop)",
            "§12.4",
        )
        red, black = faces["red"][0], faces["black"][0]
        two_d6 = red + black
        white = faces["white"]
        events.append(
            event(
                "dice",
                "§12.4",
                f"shield-edge 5D6: RED {red} + BLACK {black} for damage, WHITE "
                f"{'+'.join(map(str, white))} = {sum(white)} for the drop roll",
            )
        )
    else:
        two_d6 = dice.roll("2D6", "shield damage 2D6", "§12.2")
    points = sheet.shield_damage_points
    floor = points if points is not None else 0
    damage = two_d6 + attacker_st + modified_cf + (1 if edge else 0) + damage_drm
    extra = f" {signed(damage_drm)} (§21.9)" if damage_drm else ""
    events.append(
        event(
            "shield_damage_roll",
            "§12.2",
            f"shield damage 2D6 {two_d6} + attacker ST {attacker_st} + modified CF "
            f"{modified_cf}{' + 1 (S*)' if edge else ''}{extra} = {damage} against damage points "
            f"{floor}" + ("" if damage > floor else ": no damage"),
        )
    )
    marked_before = sheet.shield_marked
    new, sheet_events = sheet.with_shield_damage(damage)
    events.extend(sheet_event_dicts(sheet_events))
    triggered = tuple(
        e.result for e in sheet_events if e.kind == "shield_result" and e.result is not None
    )
    outcome = ShieldOutcome(
        result="S*" if edge else "S",
        damage_2d6=two_d6,
        damage_roll=damage,
        damage_points=floor,
        boxes_marked=new.shield_marked - marked_before,
        triggered=triggered,
        shield_useless=new.shield_useless,
        events=events,
    )
    drop_cf = modified_cf if drop_modified_cf is None else drop_modified_cf
    arms = new.cf_lost_to_wounds("arms")
    if edge:  # §12.4, §13.1.1: the WHITE dice are the shield drop roll
        dropped, text = drop_text("shield", sum(white), drop_cf, attacker_st, arms, 0)
        events.append(event("drop_roll", "§13.1.1", text, item="shield"))
        shield_drop = None
        if dropped:
            shield_drop, ev = drop_location(dice, "shield", "§13.1.1 S*")
            events.append(ev)
        outcome = replace(outcome, drop_roll=sum(white), shield_drop=shield_drop)
    for box in triggered:  # §12.3.1: the defender also suffers that CRT result
        if box == "P" and has_weapon:
            roll = dice.roll("3D6", "weapon drop roll after a shield P box", "§13.1.1")
            dropped, text = drop_text("weapon", roll, drop_cf, attacker_st, arms, 0)
            events.append(event("drop_roll", "§13.1.1", text, item="weapon"))
            weapon_drop = None
            if dropped:
                weapon_drop, ev = drop_location(dice, "weapon", "§12.3.1 P box")
                events.append(ev)
            outcome = replace(outcome, weapon_drop_roll=roll, weapon_drop=weapon_drop)
            continue
        if box == "P":
            events.append(event("shield_result", "§9.6", "P box with no weapon: taken as H"))
        if area is None or turn is None or phase is None:
            events.append(
                event("shield_result", "§12.3.1", "H from the shield track: body hit to resolve")
            )
            outcome = replace(outcome, body_hit_pending=True)
            continue
        new, hit = body_hit(
            new,
            area,
            0,
            dice,
            weapon_modifier=weapon_modifier,
            turn=turn,
            phase=phase,
            helmet_lost=helmet_lost,
            has_weapon=has_weapon,
            has_shield=not new.shield_useless and outcome.shield_drop is None,
        )
        events.extend(hit.events)
        outcome = replace(outcome, body_hit=hit)
    return new, outcome
