"""§37.4: the wager on each bout. Each lanista must bet at least 100 at 1-1 on his gladiator;
each better odds offered by the opposing lanista doubles the bet, up to 1,600 at 5-1, never more.

L1 (option wager_payout): "odds", Q47: at k-1 the offeree stakes 100 × 2^(k-1) and the offerer
k times that, and the winner takes both stakes; "even": both stake the forced 100 × 2^(k-1) and
the winner takes both (the odds only set the size of the bet). A draw, or a bout both sides
leave alive without a winner, returns the stakes.
"""

from __future__ import annotations

from typing import Literal

from gladiator.campaign.errors import CampaignError
from gladiator.campaign.tables import campaign_tables

__all__ = ["forced_stake", "stakes"]


def forced_stake(odds: int) -> int:
    """§37.4: the bet odds of k-1 force on the offeree: 100, 200, 400, 800, 1,600."""
    t = campaign_tables().lanistas
    if not 1 <= odds <= t.wager_max_odds:
        raise CampaignError(f"odds of {odds}-1 are not 1-1 to {t.wager_max_odds}-1 (§37.4)")
    stake: int = t.wager_min * 2 ** (odds - 1)
    return stake


def stakes(odds: int, payout: Literal["odds", "even"]) -> tuple[int, int]:
    """(offeree's stake, offerer's stake) at k-1 odds under the L1 reading."""
    forced = forced_stake(odds)
    return forced, forced * odds if payout == "odds" else forced
