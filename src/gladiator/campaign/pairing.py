"""§30.2: what kind of match a gladiator finds (T31), whether it is to the death (§30.2.2), the
categories it pairs (T32) and the styles fought (§30.2.3.1).

Q32: a 1D6 at least the Death value makes a death match. Q33: "Any" rolls the challenger's
category again on 1D6 (1-5, a 6 re-rolled); the 66 cell gives the Contra-Retiarius a Retiarius.
L2: a style that needs a talent (Retiarius SR, Dimachaeri SD; or bought as one, L8) is open only
to a gladiator who has it, and a pairing whose category he cannot fight is rolled again. The
Contra-Retiarius fights only a Retiarius (§19.2.3), so he is never drawn for a Battle (any
category, no pairing) or as a teammate against anyone else.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gladiator.campaign.errors import CampaignError
from gladiator.campaign.fights import STYLE_TALENTS as _TALENT_STYLES  # §36 SR, SD; L8
from gladiator.campaign.state import Career
from gladiator.campaign.tables import CATEGORIES, MatchRow, campaign_tables, chart
from gladiator.core.dice import Dice

__all__ = [
    "MatchRoll",
    "career_styles",
    "category_styles",
    "pick_style",
    "roll_beast",
    "roll_match",
    "roll_pairing",
]

_REROLLS = 100


@dataclass(frozen=True)
class MatchRoll:
    row: MatchRow
    d66: int
    sine_missione: bool
    categories: tuple[str, str] | None  # (gladiator's, challenger's); None: no pairing roll


def category_styles(category: str | None) -> list[str]:
    """T37's styles in `category` (None: any, as a Battle takes), in chart order."""
    return [
        key
        for key, s in chart().items()
        if (category is None and key != "contra_retiarius") or s.category == category
    ]


def career_styles(career: Career | None, category: str | None) -> list[str]:
    """The styles of `category` this gladiator may fight in (a challenger, None, any). §19.5
    (L8): a man bought as a Retiarius or Dimachaeri who has not the talent to switch (SR, SD)
    fights in that style only."""
    styles = category_styles(category)
    if career is None:
        return styles
    fixed = career.bought_as
    if fixed in _TALENT_STYLES and not career.has(_TALENT_STYLES[fixed]):
        return [s for s in styles if s == fixed]
    return [s for s in styles if s not in _TALENT_STYLES or career.has(_TALENT_STYLES[s])]


def roll_pairing(dice: Dice, career: Career | None, name: str) -> tuple[str, str]:
    """§30.2.3: D66 on T32, re-rolled while he cannot fight the gladiator's category (L2)."""
    t32 = campaign_tables().t32
    for _ in range(_REROLLS):
        row = t32.row(dice.roll("D66", f"pairing for {name} (T32)", "§30.2.3"))
        if not career_styles(career, row.gladiator):
            continue
        challenger: str = row.challenger
        if challenger == "any":
            if row.gladiator == "V":
                challenger = t32.contra_retiarius_any  # Q33: a Retiarius for the 66 cell
            else:
                challenger = _any_category(dice, name, row.gladiator)
        return row.gladiator, challenger
    raise CampaignError(f"no pairing {name} can fight after {_REROLLS} rolls")


def _any_category(dice: Dice, name: str, his: str) -> str:
    """Q33: "Any" rolls the challenger's category on 1D6, 6 re-rolled; L17: so is a V (a
    Contra-Retiarius) unless he is a Retiarius (IV), whom alone a Contra-Retiarius fights
    (§19.2.3), as every other cell of T32 has it."""
    t32 = campaign_tables().t32
    while True:
        roll = dice.roll(t32.any_dice, f"challenger category for {name} (T32 Any)", "§30.2.3")
        if roll == t32.any_reroll:
            continue
        category = CATEGORIES[roll - 1]
        if category == "V" and his != "IV":
            continue
        return category


def roll_match(dice: Dice, career: Career) -> MatchRoll:
    """§30.2.1-§30.2.3 for one gladiator: match type, death roll, pairing."""
    d66 = dice.roll("D66", f"match for {career.name} (T31)", "§30.2.1")
    row = campaign_tables().t31.row(d66)
    sine = False
    if row.death is not None:
        roll = dice.roll("1D6", f"death match? (Death {row.death})", "§30.2.2")
        sine = roll >= row.death
    categories = roll_pairing(dice, career, career.name) if row.pairing else None
    return MatchRoll(row, d66, sine, categories)


def pick_style(
    dice: Dice,
    career: Career | None,
    category: str | None,
    name: str,
    preferences: Sequence[str] = (),
) -> str:
    """§30.2.3.1: a style at random among those of his category he may fight in; with the
    NOTE's option, the first of his `preferences` that fits."""
    options = career_styles(career, category)
    if not options:
        raise CampaignError(f"{name} can fight in no style of category {category}")
    for wanted in preferences:
        if wanted in options:
            return wanted
    if len(options) == 1:
        return options[0]
    where = f"category {category}" if category else "any category"
    return options[dice.d(len(options), f"style for {name} ({where}, T37)", "§30.2.3.1") - 1]


def roll_beast(dice: Dice) -> str:
    """P3 (Q34): 1D6 Bear, Leopard, Lion, Tiger, Wolf; a 6 is rolled again."""
    p3 = campaign_tables().p3
    while True:
        roll = dice.roll(p3.dice, "beast (P3)", "§30.2.1.1")
        if roll <= len(p3.beasts):
            return p3.beasts[roll - 1]
