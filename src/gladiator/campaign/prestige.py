"""§35: prestige. Change after a match (§35.5: 1D3 + 1 per opponent of higher PR, + 1 with
Bravado; above his PR, +1), −1 for a missus (§35.5.1), +1 for cleaving (§35.5.2); and the
intimidation arithmetic of §35.4.1 (the engine rolls it at set-up from the entrants' PR; §35.3's
crowd favour is the engine's missus roll, which the entrants' `prestige` feeds).
"""

from __future__ import annotations

from collections.abc import Sequence

from gladiator.campaign.state import Career
from gladiator.campaign.tables import campaign_tables
from gladiator.campaign.talents import bravado_bonus
from gladiator.core.dice import Dice

__all__ = ["intimidation", "prestige_change"]


def prestige_change(
    career: Career,
    opponents_pr: Sequence[int],
    dice: Dice,
    *,
    missus: bool,
    cleaved: bool,
) -> int:
    """§35.5 for a surviving gladiator (changed in place); returns the change. The roll is
    compared with his PR before the match's −1/+1 (§35.5.1, §35.5.2)."""
    t = campaign_tables().prestige
    higher = sum(1 for pr in opponents_pr if pr > career.prestige)
    roll = dice.roll(t.change_dice, "prestige change", "§35.5")
    change = 1 if roll + higher + bravado_bonus(career) > career.prestige else 0
    change += t.missus if missus else 0
    change += t.cleaved if cleaved else 0
    career.prestige += change
    return change


def intimidation(highest_a: int, roll_a: int, highest_b: int, roll_b: int) -> tuple[int, int]:
    """§35.4.1: each side's 1D3 + its highest PR; the lower side is intimidated and each man of
    the other side gets a PB of the difference. Returns (PB of side A, PB of side B)."""
    a, b = highest_a + roll_a, highest_b + roll_b
    return (a - b, 0) if a > b else (0, b - a)
