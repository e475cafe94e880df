"""§30.2.1.1 Unique Match: "a special match. The players choose one or invent their own."

L4: the match-maker chooses for the gladiator who rolled it, 1D6 on P4's menu of the matches
§27 (teams) and §28 (beasts) allow; his lanista may set it up anew before he is ready
(`set_unique`): his side of one to six men (he and the house's) against one to six of the
house's challengers, to the death or not, or he alone against one to three random beasts (B11).
Every man in it besides him is the house's: the Unique Match is the editor's show, and the other
lanistas' men are matched elsewhere by then.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from gladiator.campaign.errors import CampaignError
from gladiator.campaign.state import UniqueMatch
from gladiator.campaign.tables import campaign_tables
from gladiator.core.dice import Dice

__all__ = ["roll_unique", "unique_spec"]


def roll_unique(dice: Dice) -> UniqueMatch:
    """P4: the match-maker's Unique Match."""
    menu = campaign_tables().unique
    row = menu.row(dice.roll(menu.dice, "Unique Match (P4)", "§30.2.1.1"))
    return UniqueMatch(
        name=row.name,
        men=row.men,
        opponents=row.opponents,
        beasts=row.beasts,
        sine_missione=row.sine_missione,
    )


def unique_spec(raw: Any, by: str) -> UniqueMatch:
    """A lanista's own Unique Match, checked against the limits of §27 and §28."""
    if not isinstance(raw, dict):
        raise CampaignError("a Unique Match is {men, opponents or beasts, sine_missione, name}")
    try:
        spec = UniqueMatch.model_validate({"name": "Unique Match", **raw, "by": by})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise CampaignError(f"the Unique Match's {where}: {first['msg']}") from None
    menu = campaign_tables().unique
    if not spec.name.strip() or len(spec.name) > 60:
        raise CampaignError("a Unique Match's name is 1 to 60 characters")
    if spec.men > menu.max_side or spec.opponents > menu.max_side:
        raise CampaignError(f"a side holds 1 to {menu.max_side} men (§27)")
    if spec.beasts > menu.max_beasts:
        raise CampaignError(f"a Unique Match has at most {menu.max_beasts} beasts (§28)")
    if (spec.opponents > 0) == (spec.beasts > 0):
        raise CampaignError("a Unique Match is against men or against beasts: one of the two")
    if spec.beasts and spec.men != 1:
        raise CampaignError("beasts fight one man, not a team (§28, B11)")
    if spec.beasts and spec.sine_missione:
        raise CampaignError("a beast fight has no death roll: no beast grants missus (§30.2.1.1)")
    return spec
