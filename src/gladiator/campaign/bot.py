"""The bot lanista's policy: pure functions of the state that return the steps he would take.

- Entries: every living gladiator his purse can cover a minimum bet for (§37.4, §37.6).
- Odds (§37.4): he estimates each side's strength (CF + CN + W/2 + PR of its men, from the
  current ratings, Q43), turns it into a chance p of winning, and offers the highest k-1 whose
  bet he expects to win: under Q47's payout that is k < p / (1 - p); under "even" any k when
  p > 1/2, up to 5-1 (so he always offers the most when he is the favourite).
- Side bets (§37.4.1, L19): he takes one he expects to win, on the same chances, keeping his
  reserve; he declines the rest. He offers none.
- XP (§31.3): a talent roll with +3 on the RED die when he has 55 XP (the only way to the 71-76
  talents), then the ratings round the cycle of `spending.CYCLE`.
- Bids (§37.5): 100 + 20 per point of CF above 10 for each lot (twice that while his stable
  is short of five), keeping his next munus's bets and at least 500 in his purse.
- Styles (§30.2.3.1 NOTE): the heaviest style first.
- Armour (§34): a kit per class within its allowance, if his purse keeps 500 after it.
"""

from __future__ import annotations

from typing import Any

from gladiator.campaign.fights import BEAST
from gladiator.campaign.spending import rating_plan
from gladiator.campaign.state import Bout, CampaignState, Career, SideBet
from gladiator.campaign.tables import campaign_tables, chart
from gladiator.campaign.wagers import stakes

__all__ = [
    "bot_armour",
    "bot_bids",
    "bot_entries",
    "bot_offer",
    "bot_preferences",
    "bot_purchases",
    "bot_spending",
    "bot_takes_side_bet",
    "side_chance",
    "strength",
]

_RESERVE = 500
_BEAST_STRENGTH = 45.0
_TALENT_XP = 55
_TALENT_EXTRA = 3
_PREFERENCE = (
    "crupellarius",
    "gallus",
    "hoplomachus",
    "cataphractarius",
    "secutor",
    "provocator",
    "dimachaeri",
    "retiarius",
    "myrmillo",
    "thracian",
    "contra_retiarius",
    "velite",
)
_KITS = {
    "light": ["C3", "C", "-", "-", "C3"],
    "medium": ["B4", "B", "B4", "C3", "C4"],
    "heavy": ["A4", "A", "B", "C4", "B4"],
}


def strength(career: Career) -> float:
    return career.cf + career.cn + career.w / 2 + career.prestige


def bot_entries(state: CampaignState, lanista: str) -> list[str]:
    n = state.lanistas[lanista].purse // campaign_tables().lanistas.wager_min
    return [g.id for g in state.stable(lanista)][:n]


def _side_strength(state: CampaignState, bout: Bout, index: int) -> float:
    side = bout.sides[index]
    if bout.type == "consecutive" and index == 1:
        # One after another: the run is as strong as its best man, plus a little per fight.
        best = max(strength(state.gladiators[g]) for g in side.gladiators)
        return best * (1 + 0.25 * (len(side.gladiators) - 1))
    if not side.gladiators:  # the beasts' side (§28): each counted as a strong man
        beasts = sum(m.startswith(BEAST) for seats in bout.seats[:1] for m in seats.values())
        return _BEAST_STRENGTH * max(1, beasts)
    return sum(strength(state.gladiators[g]) for g in side.gladiators) or 1.0


def side_chance(state: CampaignState, bout: Bout, index: int) -> float:
    """His estimate of the chance that side `index` wins the bout."""
    a, b = _side_strength(state, bout, index), _side_strength(state, bout, 1 - index)
    return a**4 / (a**4 + b**4)


def bot_takes_side_bet(state: CampaignState, lanista: str, bout: Bout, bet: SideBet) -> bool:
    """§37.4.1: he takes a side bet when he expects to win it (his side's chance times the
    offerer's stake beats the other's chance times his own) and keeps his reserve after it."""
    q = side_chance(state, bout, 1 - bet.backs)
    affordable = state.lanistas[lanista].purse - bet.takes >= _RESERVE
    return affordable and q * bet.stake > (1 - q) * bet.takes


def bot_offer(state: CampaignState, lanista: str, bout: Bout) -> int | None:
    """The odds he offers on `bout`, or None (he stays at 1-1 or cannot offer)."""
    lanistas = bout.lanistas()
    if lanista not in lanistas or len(set(lanistas)) < 2 or bout.status != "scheduled":
        return None
    if bout.wager is not None and bout.wager.offerer not in (None, lanista):
        return None
    mine = next(i for i, s in enumerate(bout.sides) if s.lanista == lanista)
    p = side_chance(state, bout, mine)
    payout = state.meta.options.wager_payout
    other = next(lid for lid in lanistas if lid != lanista)
    current = bout.wager.odds if bout.wager else 1
    staked = bout.wager.stakes if bout.wager else {}
    mine_left = state.lanistas[lanista].purse + staked.get(f"lanista:{lanista}", 0)
    theirs_left = state.lanistas[other].purse + staked.get(f"lanista:{other}", 0)
    best = None
    for k in range(current + 1, campaign_tables().lanistas.wager_max_odds + 1):
        theirs, ours = stakes(k, payout)
        good = k < p / (1 - p) if payout == "odds" else p > 0.5
        if good and ours <= mine_left and theirs <= theirs_left:
            best = k
    return best


def bot_spending(career: Career) -> list[dict[str, Any]]:
    xp = career.xp
    plan: list[dict[str, Any]] = []
    t33 = campaign_tables().t33
    if xp >= _TALENT_XP:
        plan.append({"what": "talent", "extra": _TALENT_EXTRA})
        xp -= t33.talent_roll + _TALENT_EXTRA * t33.talent_bonus_step
    plan += [{"what": r} for r in rating_plan(xp)]
    return plan


def bot_bids(state: CampaignState, lanista: str) -> list[tuple[str, int]]:
    """A lot is worth 100 + 20 per point of CF above 10, twice that while his stable is short
    of its five (§37.2: a stable of five; §37.6: a lanista with no living man is out); he keeps
    enough for his next munus's bets (100 a man) and at least his reserve."""
    lt = campaign_tables().lanistas
    living = len(state.stable(lanista))
    keep = max(_RESERVE, lt.wager_min * (living + 1))
    purse = state.lanistas[lanista].purse - keep
    short = max(0, lt.stable - living)
    out: list[tuple[str, int]] = []
    for lot in state.meta.lots:
        career = state.gladiators[lot.gladiator]
        amount = max(100, 100 + 20 * (career.cf - 10)) * (2 if short > 0 else 1)
        if amount <= purse:
            out.append((lot.gladiator, amount))
            purse -= amount
            short -= 1
    return out


def bot_preferences(state: CampaignState, lanista: str) -> dict[str, list[str]]:
    return {g.id: list(_PREFERENCE) for g in state.stable(lanista)}


def bot_armour(state: CampaignState, lanista: str, bout: Bout) -> list[dict[str, Any]]:
    """buy_armour steps for his standard-style men of `bout`."""
    if not state.meta.options.custom_armour:
        return []
    from gladiator.campaign.armour import armour_cost

    purse = state.lanistas[lanista].purse
    steps: list[dict[str, Any]] = []
    for gid in bout.gladiators():
        career = state.gladiators[gid]
        style = bout.styles[gid]
        if career.lanista != lanista or style not in campaign_tables().t35.styles:
            continue
        kit = _KITS[chart()[style].gladiator_class]
        cost = armour_cost(style, kit, "large")
        if purse - cost >= _RESERVE:
            purse -= cost
            steps.append(
                {
                    "kind": "buy_armour",
                    "actor": lanista,
                    "bout": bout.id,
                    "gladiator": gid,
                    "armour": kit,
                    "shield": "large",
                }
            )
    return steps


def bot_purchases() -> list[str]:
    """§37.2.1: what he buys with 4,000: two Galli, two Secutores, a Hoplomachus, a Myrmillo."""
    return ["gallus", "gallus", "secutor", "secutor", "hoplomachus", "myrmillo"]
