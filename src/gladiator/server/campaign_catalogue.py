"""What the campaign page's forms offer, read from the campaign's own tables so the page never
copies a rule: T37's styles and prices (§37.2.1, §30.2.3.1), T35's armour (§34), T33's XP
prices (§31.3), the wager ladder (§37.4) and the Unique Match's limits (§30.2.1.1, P4)."""

from __future__ import annotations

from functools import cache
from typing import Any

from gladiator.campaign.armour import AREAS
from gladiator.campaign.tables import campaign_tables, chart

__all__ = ["catalogue"]


@cache
def catalogue() -> dict[str, Any]:
    t = campaign_tables()
    return {
        "styles": [
            {
                "style": key,
                "name": s.name,
                "category": s.category,
                "class": s.gladiator_class,
                "cost": s.cost,
                "custom_armour": key in t.t35.styles,
            }
            for key, s in chart().items()
            if s.category is not None
        ],
        "armour": {
            "areas": list(AREAS),
            "coverages": list(t.t35.coverages),
            "costs": {letter: list(costs) for letter, costs in t.t35.costs.items()},
            "allowance": dict(t.t35.allowance),
        },
        "xp": {
            **{k: v for k, v in t.t33.ratings.items()},
            "talent": t.t33.talent_roll,
            "talent_step": t.t33.talent_bonus_step,
        },
        "wager": {"min": t.lanistas.wager_min, "max_odds": t.lanistas.wager_max_odds},
        "bought": {"min": t.lanistas.bought_min, "max": t.lanistas.bought_max},
        "auction_min_bid": t.lanistas.auction_min_bid,
        "unique": {
            "max_side": t.unique.max_side,
            "max_beasts": t.unique.max_beasts,
            "menu": [row.model_dump() for row in t.unique.rows],
        },
    }
