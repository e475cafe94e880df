"""§31: experience earned in a match (T33) and spent between matches (§31.3).

A Consecutive bout is one match (§30.2.1.1: "one gladiator fights 1D3+1 opponents"), so its
fights' attack and defense CFs are totalled before the division by 3 (§31.2.1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from gladiator.campaign.errors import CampaignError
from gladiator.campaign.reports import Kill, SeatReport
from gladiator.campaign.state import Career
from gladiator.campaign.tables import campaign_tables
from gladiator.campaign.talents import roll_talent
from gladiator.core.dice import Dice

__all__ = ["Purchase", "apply_purchase", "kill_bonus", "match_xp", "purchase_cost"]

Purchase = Literal["tr", "st", "ag", "cn", "w", "talent"]


def kill_bonus(kill: Kill) -> int:
    """§31.2.4: 10 for a kill, + (5 - turn) × 5 for a slow kill (§31.2.3.1), × 3 for a quick
    one (§31.2.3.2); the bonus part is never below 0."""
    t = campaign_tables().t33
    per = t.slow_per_turn if kill.kind == "slow" else t.quick_per_turn
    return t.kill + max(0, t.bonus_turns - kill.turn) * per


def match_xp(reports: Sequence[SeatReport]) -> int:
    """§31.2: one gladiator's XP from his reports of one match (one per fight)."""
    t = campaign_tables().t33
    attack = sum(r.attack_cf for r in reports)
    defense = sum(r.defense_cf for r in reports)
    xp = max(0, (attack - defense) // t.base_divisor)  # §31.2.1
    for r in reports:
        xp += t.missus if r.missus else 0  # §31.2.2
        xp += t.opponent_missus if r.opponent_missus else 0  # §31.2.3
        xp += sum(kill_bonus(k) for k in r.kills)  # §31.2.4
    return xp


def purchase_cost(purchase: Purchase, extra: int = 0) -> int:
    """§31.3, T33: 25 for +1 TR or a talent roll (each extra 10 adds +1 to its RED die), 35 for
    +1 AG or ST, 50 for +1 CN or W."""
    t = campaign_tables().t33
    if purchase == "talent":
        return t.talent_roll + extra * t.talent_bonus_step
    if extra:
        raise CampaignError("only a talent roll takes extra XP for its RED die (§31.3)")
    return t.ratings[purchase]


def apply_purchase(career: Career, purchase: Purchase, dice: Dice, extra: int = 0) -> str:
    """Spend his XP on one improvement (§31.3); returns what he got. Changes `career`."""
    if extra < 0:
        raise CampaignError("extra XP on a talent roll cannot be negative")
    cost = purchase_cost(purchase, extra)
    if cost > career.xp:
        raise CampaignError(
            f"{career.name} has {career.xp} XP; {purchase} costs {cost} (§31.3, T33)"
        )
    career.xp -= cost
    if purchase == "talent":
        talent = roll_talent(career, dice, red_bonus=extra, rule="§36.4")
        return f"talent {talent}" if talent else "talent roll: none"
    setattr(career, purchase, getattr(career, purchase) + 1)
    return f"+1 {purchase.upper()}"
