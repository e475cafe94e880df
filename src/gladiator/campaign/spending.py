"""L11: the stated policy a challenger (and the bot) spends XP by (§31.3): round the cycle TR,
ST, AG, W, CN buying the next one he can afford, until none is."""

from __future__ import annotations

from typing import Literal

from gladiator.campaign.tables import campaign_tables

__all__ = ["CYCLE", "rating_plan"]

RatingName = Literal["tr", "st", "ag", "cn", "w"]
CYCLE: tuple[RatingName, ...] = ("tr", "st", "ag", "w", "cn")


def rating_plan(xp: int) -> list[RatingName]:
    """The ratings bought, in order, with `xp` (T33 prices)."""
    prices = campaign_tables().t33.ratings
    plan: list[RatingName] = []
    i = 0
    while xp >= min(prices.values()):
        rating = CYCLE[i % len(CYCLE)]
        i += 1
        if prices[rating] <= xp:
            plan.append(rating)
            xp -= prices[rating]
    return plan
