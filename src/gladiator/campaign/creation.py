"""Making a new gladiator for the campaign: §3.11 ratings on T4, §33 social origin, §35.2
prestige, §36.2 talent rolls; and a challenger by the Basic Rules (§30.3).

Q13: the origin's modifiers are DRMs on each 3D6 creation roll, clamped to 3-18 before T4 is read
(option social_origin_drm "roll"), or added to the rating read ("rating"). Either way the PR is
1D3 + the origin's PR modifier (§35.2).
"""

from __future__ import annotations

from gladiator.campaign.state import CampaignOptions, CampaignState, Career
from gladiator.campaign.tables import OriginRow, campaign_tables, t4
from gladiator.campaign.talents import creation_rolls, roll_talent
from gladiator.core.dice import Dice

__all__ = [
    "RATINGS",
    "add_gladiator",
    "gladiator_name",
    "new_gladiator",
    "roll_origin",
    "roll_ratings",
]

RATINGS = ("tr", "st", "ag", "cn", "w")  # §3.11.1: rolled in this order


def gladiator_name(n: int) -> str:
    """A Roman name for the n-th new gladiator (flavour, §3.3), numbered past the list."""
    names = campaign_tables().names.names
    base = names[n % len(names)]
    lap = n // len(names)
    return base if lap == 0 else f"{base} {_roman(lap + 1)}"


def _roman(n: int) -> str:
    out = ""
    for value, letters in ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while n >= value:
            out += letters
            n -= value
    return out


def roll_origin(dice: Dice) -> OriginRow:
    """§33.2: 2D6 on T34."""
    t34 = campaign_tables().t34
    return t34.row(dice.roll(t34.dice, "social origin (T34)", "§33.2"))


def roll_ratings(
    dice: Dice, origin: OriginRow | None = None, drm: str = "roll", *, rule: str = "§3.11.1"
) -> dict[str, int]:
    """§3.11.1: 3D6 on T4 for TR, ST, AG, CN and W, with the origin's DRMs (§33.2, Q13)."""
    table = t4()
    out: dict[str, int] = {}
    for rating in RATINGS:
        roll = dice.roll("3D6", f"{rating.upper()} (T4)", rule)
        mod = origin.drm(rating) if origin is not None else 0
        if drm == "roll":
            out[rating] = getattr(table.row(max(3, min(18, roll + mod))), rating)
        else:
            out[rating] = getattr(table.row(roll), rating) + mod
    return out


def new_gladiator(
    dice: Dice,
    options: CampaignOptions,
    *,
    id: str,
    name: str,
    lanista: str | None,
    status: str = "alive",
    talents: bool = True,
) -> Career:
    """§3.11, §33, §35.2, §36.2: a new campaign gladiator. With `talents` False (a challenger
    by the Basic Rules, §30.3) there is no origin and no starting talent roll."""
    origin = roll_origin(dice) if options.social_origin and talents else None
    ratings = roll_ratings(dice, origin, options.social_origin_drm)
    prestige_dice = campaign_tables().prestige.creation_dice
    pr = dice.roll(prestige_dice, "prestige", "§35.2") + (origin.pr if origin else 0)
    career = Career.model_validate(
        {
            "id": id,
            "lanista": lanista,
            "status": status,
            "name": name,
            **ratings,
            "prestige": pr,
            "origin": origin.origin if origin else None,
        }
    )
    if talents:
        for _ in range(creation_rolls(career.tr)):
            roll_talent(career, dice, rule="§36.2")
    return career


def add_gladiator(
    state: CampaignState, dice: Dice, lanista: str | None, status: str = "alive"
) -> Career:
    """A new gladiator of the campaign, named and numbered in turn, added to `state`."""
    gid = state.new_id("g")
    career = new_gladiator(
        dice,
        state.meta.options,
        id=gid,
        name=gladiator_name(state.meta.next_id - 2),
        lanista=lanista,
        status=status,
    )
    state.gladiators[gid] = career
    return career
