"""§36: talent rolls on T36, at creation (§36.2) and bought with XP (§31.3, §36.4).

A roll is D66, RED die the tens. XP bought as a talent roll may add to the RED die (+1 per extra
10 XP, §31.3), and only so can the 71-76 rows be reached (§36.4 NOTE); a RED die pushed past 7
reads the 7x row (L6). A talent is learned once: a repeat is rolled again, except Weapon Skill,
learned once per weapon (§36.3). A gladiator who knows every talent a roll can give keeps the
roll's "none" (nothing left to learn).
"""

from __future__ import annotations

from gladiator.campaign.state import Career
from gladiator.campaign.tables import campaign_tables
from gladiator.core.dice import Dice

__all__ = ["bravado_bonus", "creation_rolls", "roll_talent", "ws_weapon"]

# Rolls of a repeat before giving up (every reachable talent known): far more than any player
# would throw.
_MAX_REROLLS = 60


def creation_rolls(tr: int) -> int:
    """§36.2: one roll per 4 points of TR, rounded down."""
    return tr // campaign_tables().t36.tr_per_roll


def ws_weapon(career: Career) -> str | None:
    """L7: the weapon a new Weapon Skill names, the first of T36's list he has not got."""
    known = {t.split(":", 1)[1] for t in career.talents if t.startswith("WS:")}
    return next((w for w in campaign_tables().t36.ws_weapons if w not in known), None)


def _mastery_weapon(career: Career) -> str:
    """L7: Weapon Mastery goes to his first skilled weapon, else the sword he trained with."""
    skilled = [t.split(":", 1)[1] for t in career.talents if t.startswith("WS:")]
    return skilled[0] if skilled else "sword"


def _learnable(career: Career, code: str) -> str | None:
    """The talent string he would learn from a `code` result, or None (a repeat, §36.3)."""
    if code == "WS":
        weapon = ws_weapon(career)
        return None if weapon is None else f"WS:{weapon}"
    if career.has(code):
        return None
    if code == "MS":
        return f"MS:{_mastery_weapon(career)}"
    return code


def roll_talent(career: Career, dice: Dice, red_bonus: int = 0, *, rule: str = "§36.2") -> str:
    """Roll T36 for `career` (changed in place: the talent added, Bravado's +2 PR) and return
    the talent learned, or "" for a 'none' row. `red_bonus`: XP's +1s on the RED die (§31.3)."""
    t36 = campaign_tables().t36
    for _ in range(_MAX_REROLLS):
        red = dice.d(6, "talent (T36), RED die", rule)
        white = dice.d(6, "talent (T36), WHITE die", rule)
        value = min(red + red_bonus, t36.max_red) * 10 + white
        row = t36.row(value)
        if not row.code:
            return ""
        talent = _learnable(career, row.code)
        if talent is not None:
            career.talents.append(talent)
            if row.code == "BR":
                # §36.3 BR: +2 PR at once.
                career.prestige += campaign_tables().prestige.bravado_pr
            return talent
        # §36.3: a repeat is rolled again.
    return ""


def bravado_bonus(career: Career) -> int:
    """§36.3 BR: +1 on the §35.5 prestige change roll."""
    return campaign_tables().prestige.bravado_change if career.has("BR") else 0
