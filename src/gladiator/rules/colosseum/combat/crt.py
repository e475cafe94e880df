"""One attack read on the CRT (§9.5, T5) and its result converted for the defender's kit (§9.6,
T6).

`resolve_crt` is a blow (attack CF against defence CF); `read_crt` is the one reading of the table
that a blow and a thrown item (§13.3.1.1) share. Every die goes through the match's `dice` with
its purpose and rule section; each step's event text ends with the rule section.

Readings of the reference (shared/rules/colosseum.md) this module follows:

* **Conversions (§9.6, T6):** a defender without a shield takes P for S or S*; without a weapon, H
  for P; missing either, H for P*. They chain (no shield and no weapon: S -> P -> H), because the P
  is a parry with the weapon he lacks. A converted H carries no modifier (H+0).
* **Modified roll (Q27):** 3D6 plus the column DRM (§9.5.3/§9.5.4) plus any other DRM the caller
  supplies (e.g. §10.3.3.1's negative CF, Q31's net escape), clamped to the table's rows 3-18+.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from gladiator.rules.colosseum.events import Event, event
from gladiator.rules.colosseum.tables.crt_tables import CrtResult
from gladiator.rules.colosseum.tables.tables import crt_result, tables
from gladiator.rules.colosseum.vocabulary import Area, CrtVariant

__all__ = [
    "CombatDice",
    "CrtOutcome",
    "convert_result",
    "crt_column",
    "modified_cf",
    "read_crt",
    "resolve_crt",
    "shift_result",
    "unrolled_outcome",
]


class CombatDice(Protocol):
    """What this module needs of `gladiator.core.dice.Dice`."""

    def roll(self, notation: str, purpose: str, rule: str) -> int: ...


# --- one attack on the CRT (§9.5, §9.6) ----------------------------------------------------------


def modified_cf(attack_cf: int, defence_cf: int, fumble_penalty: int = 0) -> int:
    """§9.5: attack CF - defence CF, the defence lowered by a fumble penalty (§9.6)."""
    return attack_cf - (defence_cf - fumble_penalty)


def crt_column(modified: int) -> tuple[int, int]:
    """§9.5.3/§9.5.4: the CRT column 1-8 for a modified CF, and the roll DRM from the excess."""
    if modified < 1:
        return 1, modified - 1
    if modified > 8:
        return 8, modified - 8
    return modified, 0


_LACKING: dict[str, Callable[[bool, bool], bool]] = {
    "shield": lambda weapon, shield: not shield,
    "weapon": lambda weapon, shield: not weapon,
    "weapon_or_shield": lambda weapon, shield: not (weapon and shield),
}


def shift_result(
    result: CrtResult, changes: Mapping[str, str] | None
) -> tuple[CrtResult, tuple[str, str] | None]:
    """An Advanced Game code-for-code swap of a CRT result (results.toml conversions: the flail
    §21.4, two weapons §24.3), applied before the defender's kit converts it (§9.6)."""
    if not changes or result.code not in changes:
        return result, None
    new = CrtResult.model_validate(changes[result.code])
    return new, (str(result), str(new))


def convert_result(
    result: CrtResult, *, has_weapon: bool = True, has_shield: bool = True
) -> tuple[CrtResult, tuple[tuple[str, str, str], ...]]:
    """§9.6/T6: the result a defender lacking a shield or weapon takes instead, chained.

    Returns the final result and each change as (from, to, what he lacks).
    """
    codes = tables().results.t6.codes
    steps: list[tuple[str, str, str]] = []
    current = result
    for _ in range(len(codes)):
        spec = codes[current.code]
        if spec.if_lacking is None or spec.becomes is None:
            break
        if not _LACKING[spec.if_lacking](has_weapon, has_shield):
            break
        new = CrtResult.model_validate(spec.becomes)
        steps.append((str(current), str(new), spec.if_lacking.replace("_", " ")))
        current = new
    return current, tuple(steps)


@dataclass(frozen=True, slots=True)
class CrtOutcome:
    """One attack read on the CRT (§9.5) and converted for the defender's kit (§9.6)."""

    attack_cf: int
    defence_cf: int  # as used, after any §9.4.7 loss or §9.6 fumble penalty
    modified_cf: int
    unweakened_cf: int  # §12.2 NOTE: attack - max(defence, 0)
    column: int
    column_drm: int
    drm: int  # other DRMs supplied by the caller
    roll: int  # the 3D6 as thrown
    total: int  # roll + DRMs, clamped to the table (Q27)
    crt: CrtResult  # the cell read
    result: CrtResult  # after §9.6 conversions
    # §22 (Advanced Game): the attacker's special attack on this area (a T20 letter), the
    # defender's special defence whose automatic result replaced the roll (roll 0), and for a
    # Feint's counter-attack the area of the Feint (whose weapon strikes it).
    special: str = ""
    guard: str = ""
    counter_of: Area | None = None

    @property
    def code(self) -> str:
        return self.result.code


def unrolled_outcome(
    attack_cf: int, defence_cf: int, crt: CrtResult, result: CrtResult, guard: str = ""
) -> CrtOutcome:
    """An attack's outcome fixed without a CRT roll (a guard's automatic result, a Find Weakness
    attack given up): the columns it would have read, no dice."""
    modified = modified_cf(attack_cf, defence_cf)
    column, column_drm = crt_column(modified)
    return CrtOutcome(
        attack_cf=attack_cf,
        defence_cf=defence_cf,
        modified_cf=modified,
        unweakened_cf=attack_cf - max(defence_cf, 0),
        column=column,
        column_drm=column_drm,
        drm=0,
        roll=0,
        total=0,
        crt=crt,
        result=result,
        guard=guard,
    )


def resolve_crt(
    dice: CombatDice,
    attack_cf: int,
    defence_cf: int,
    *,
    drm: int = 0,
    has_weapon: bool = True,
    has_shield: bool = True,
    crt: CrtVariant = "rules",
    label: str = "attack",
    defender: str = "the defender",
    shift: tuple[str, Mapping[str, str]] | None = None,
) -> tuple[CrtOutcome, list[Event]]:
    """Roll 3D6 on the CRT for one attack (§9.5.1-§9.5.4) and convert the result (§9.6); `shift`
    (rule, changes) is the attacker's weapon's swap of the result read (§21.4, §24.3)."""
    if attack_cf < 1:
        raise ValueError(f"an attack needs at least 1 CF, not {attack_cf} (§9.5)")
    modified = modified_cf(attack_cf, defence_cf)
    return read_crt(
        dice,
        modified,
        f"{attack_cf} CF against {defence_cf} defence, modified CF {modified}",
        attack_cf=attack_cf,
        defence_cf=defence_cf,
        unweakened_cf=attack_cf - max(defence_cf, 0),
        drm=drm,
        has_weapon=has_weapon,
        has_shield=has_shield,
        crt=crt,
        label=label,
        defender=defender,
        shift=shift,
    )


def read_crt(
    dice: CombatDice,
    modified: int,
    what: str,
    *,
    attack_cf: int,
    defence_cf: int,
    unweakened_cf: int,
    drm: int = 0,
    has_weapon: bool = True,
    has_shield: bool = True,
    crt: CrtVariant = "rules",
    label: str = "attack",
    defender: str = "the defender",
    rule: str | None = None,
    shift: tuple[str, Mapping[str, str]] | None = None,
) -> tuple[CrtOutcome, list[Event]]:
    """Roll 3D6 on the CRT at a modified CF (§9.5.1; off the table's ends, §9.5.3-§9.5.4) and
    convert the result (§9.6): the one reading of the table that a blow (`resolve_crt`) and a
    thrown item (§13.3.1.1) share. `what` says where the modified CF came from; `rule` names
    the section asking (by default the CRT's own, by the column's DRM)."""
    column, column_drm = crt_column(modified)
    table = tables().crt_table(crt)
    roll = dice.roll("3D6", f"CRT {label}", rule or "§9.5.1")
    total = min(max(roll + column_drm + drm, table.min_roll), table.max_roll)
    cell = crt_result(column, total, crt)
    shifted, moved = shift_result(cell, shift[1] if shift is not None else None)
    result, changes = convert_result(shifted, has_weapon=has_weapon, has_shield=has_shield)
    outcome = CrtOutcome(
        attack_cf=attack_cf,
        defence_cf=defence_cf,
        modified_cf=modified,
        unweakened_cf=unweakened_cf,
        column=column,
        column_drm=column_drm,
        drm=drm,
        roll=roll,
        total=total,
        crt=cell,
        result=result,
    )
    drms = "".join(f" {d:+d}" for d in (column_drm, drm) if d)
    if rule is None:
        rule = "§9.5.3" if column_drm < 0 else "§9.5.4" if column_drm > 0 else "§9.5"
    events = [
        event(
            "crt",
            rule,
            f"{label}: {what}, column {column}; 3D6 {roll}{drms}"
            f"{f' -> {total}' if total != roll else ''}: {cell}",
            column=column,
            modified_cf=modified,
            roll=roll,
            total=total,
            result=str(cell),
        )
    ]
    if moved is not None and shift is not None:
        events.append(
            event(
                "conversion",
                shift[0],
                f"{label}: {moved[0]} becomes {moved[1]}",
                result=moved[1],
            )
        )
    for before, after, lacking in changes:
        events.append(
            event(
                "conversion",
                "§9.6",
                f"{defender} has no {lacking}: {before} becomes {after}",
                result=after,
            )
        )
    return outcome, events
