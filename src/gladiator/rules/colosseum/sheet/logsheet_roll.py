"""Rolling a new gladiator log sheet (§3) with the match's dice: armour (§3.10), then the five
characteristics (§3.11.1); a style's own armour rolls in the Advanced Game (§19, F4).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from gladiator.rules.colosseum.kit.styles import rolls_needed, style, styled_armour
from gladiator.rules.colosseum.sheet.logsheet import LogSheet
from gladiator.rules.colosseum.sheet.logsheet_boxes import ARMOUR_TABLE, CHARACTERISTICS, row_armour
from gladiator.rules.colosseum.tables.tables import tables
from gladiator.rules.colosseum.vocabulary import CLASSES, GladiatorClass

__all__ = [
    "DiceLike",
    "roll_log_sheet",
]


class DiceLike(Protocol):
    """What `roll_log_sheet` needs of `gladiator.core.dice.Dice`."""

    def d(self, sides: int, purpose: str, rule: str) -> int: ...

    def roll(self, notation: str, purpose: str, rule: str) -> int: ...


def roll_log_sheet(
    dice: DiceLike,
    gladiator_class: GladiatorClass,
    *,
    id: int,
    name: str,
    opponent_is_retiarius: bool = False,
    prestige: int = 0,
    style: str | None = None,
    shield: bool = True,
    ratings: Mapping[str, int] | None = None,
) -> LogSheet:
    """§3: a new sheet. Rolls in the sheet's order: armour 1D6 (§3.10), then 3D6 for TR, ST, AG,
    CN and W (§3.11.1). With a `style` (§19, Advanced Game) the style's armour rolls instead
    (none for a Velite, two for a Crupellarius) and its armour, shield and move (styles.py, F4);
    `shield` False leaves the shield behind (F2). Given `ratings` (a campaign career's TR ST AG CN
    W, §30, X1) the armour is still rolled but the characteristics are not."""
    if gladiator_class not in CLASSES:
        raise ValueError(f"class {gladiator_class!r} is not light, medium or heavy (§3.4)")
    table_name = ARMOUR_TABLE[gladiator_class]
    if style is not None:
        return _roll_styled(
            dice,
            gladiator_class,
            style,
            id=id,
            name=name,
            opponent_is_retiarius=opponent_is_retiarius,
            prestige=prestige,
            shield=shield,
            ratings=ratings,
        )
    roll = dice.d(6, f"armour and shield, {gladiator_class} ({table_name})", "§3.10")
    row = tables().armour.table(gladiator_class).row(roll)
    return LogSheet.model_validate(
        {
            "id": id,
            "name": name,
            "gladiator_class": gladiator_class,
            "prestige": prestige,
            **_ratings(dice, ratings),
            "armour": row_armour(row),
            # §3.10.2: the opponent of a Retiarius always carries a small shield.
            "shield": "small" if opponent_is_retiarius else row.shield,
            "armour_roll": roll,
            "opponent_is_retiarius": opponent_is_retiarius,
        }
    )


def _ratings(dice: DiceLike, career: Mapping[str, int] | None) -> dict[str, Any]:
    """The five ratings: a career's as given (X1, no dice), or rolled (§3.11.1)."""
    if career is None:
        return _roll_ratings(dice)
    return {**{c: career[c] for c in CHARACTERISTICS}, "career": True}


def _roll_ratings(dice: DiceLike) -> dict[str, int]:
    """§3.11.1: 3D6 on T4 for TR, ST, AG, CN and W, in that order."""
    t4 = tables().physical.t4
    return {
        c: getattr(t4.row(dice.roll("3D6", f"{c.upper()} (T4)", "§3.11.1")), c)
        for c in CHARACTERISTICS
    }


def _roll_styled(
    dice: DiceLike,
    gladiator_class: GladiatorClass,
    key: str,
    *,
    id: int,
    name: str,
    opponent_is_retiarius: bool,
    prestige: int,
    shield: bool,
    ratings: Mapping[str, int] | None,
) -> LogSheet:
    """§19, F4: the style's armour rolls (0-2), then the characteristics."""
    table_name = ARMOUR_TABLE[gladiator_class]
    s = style(key)
    rolls = [
        dice.d(6, f"armour and shield, {s.name} ({table_name}, roll {n + 1})", "§3.10")
        for n in range(rolls_needed(key))
    ]
    table = tables().armour.table(gladiator_class)
    armour, carried = styled_armour(
        key,
        [table.row(r) for r in rolls],
        opponent_is_retiarius=opponent_is_retiarius,
        shield=shield,
    )
    return LogSheet.model_validate(
        {
            "id": id,
            "name": name,
            "gladiator_class": gladiator_class,
            "prestige": prestige,
            **_ratings(dice, ratings),
            "armour": armour,
            "shield": carried,
            "armour_roll": rolls[0] if rolls else None,
            "armour_roll_2": rolls[1] if len(rolls) > 1 else None,
            "opponent_is_retiarius": opponent_is_retiarius,
            "style": key,
        }
    )
