"""§32: lasting injuries. Ordinary wounds heal before the next match (§32.1); for each wounded
body area roll 2D6 minus the wounds there, and a result below 0 lowers that area's rating by it
(§32.2.1-§32.2.4: head CN, chest and groin W, arms ST, legs AG).

L5: a rating driven below what play allows cripples him: W or CN below 1, or CF (TR + ST + AG)
below 1. A crippled gladiator is retired (and counts as lost for the §37.5 auction).
"""

from __future__ import annotations

from collections.abc import Sequence

from gladiator.campaign.state import Career
from gladiator.campaign.tables import campaign_tables
from gladiator.core.dice import Dice

__all__ = ["apply_injuries", "crippled", "injury_loss"]

_AREA_NAMES = ("head", "chest", "groin", "arms", "legs")


def injury_loss(roll: int, wounds: int) -> int:
    """§32.2: the rating lost for one area: 0, or how far 2D6 − wounds fell below 0."""
    return max(0, wounds - roll)


def apply_injuries(career: Career, wounds: Sequence[int], dice: Dice) -> list[str]:
    """Roll §32.2 for each wounded area of `career` (changed in place); returns what was lost."""
    table = campaign_tables().injuries
    lost: list[str] = []
    for area, n in enumerate(wounds):
        if n <= 0:
            continue
        roll = dice.roll(table.dice, f"injury, {_AREA_NAMES[area]} ({n} wounds)", "§32.2")
        loss = injury_loss(roll, n)
        if loss:
            rating = table.areas[area]
            setattr(career, rating, getattr(career, rating) - loss)
            lost.append(f"-{loss} {rating.upper()} ({_AREA_NAMES[area]})")
    return lost


def crippled(career: Career) -> bool:
    """L5: a rating below what play allows."""
    return career.w < 1 or career.cn < 1 or career.cf < 1
