"""§37.6 who is out of the game, and §37.7 who wins it.

§37.6: a lanista is out when he cannot cover his bets (his purse is below the minimum bet of
§37.4) or has no living gladiator. §37.7: the winner is the lanista with the most money after the
set number of munera (option `munera`), or the last lanista left in the game if he still has a
stable of at least five. L13: equal money is decided by more living gladiators, then more
victories among them, then the lanistas' order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gladiator.campaign.state import CampaignState
from gladiator.campaign.tables import campaign_tables

if TYPE_CHECKING:
    from gladiator.campaign.context import StepContext

__all__ = ["check_out", "richest", "victory_by_stable"]


def check_out(state: CampaignState, lanista: str) -> str | None:
    """§37.6: why `lanista` is out, or None."""
    if not state.stable(lanista):
        return "no living gladiator left"
    if state.lanistas[lanista].purse < campaign_tables().lanistas.wager_min:
        return "cannot cover a bet"
    return None


def richest(state: CampaignState) -> str | None:
    """§37.7, L13: the lanista with the most money (among those still in; if none is, all)."""
    pool = state.active_lanistas() or list(state.lanistas.values())
    order = list(state.lanistas)

    def key(lid: str) -> tuple[int, int, int, int]:
        stable = state.stable(lid)
        wins = sum(g.record.victories for g in stable)
        return (state.lanistas[lid].purse, len(stable), wins, -order.index(lid))

    return max((lanista.id for lanista in pool), key=key, default=None)


def victory_by_stable(ctx: StepContext) -> bool:
    """§37.7: the last lanista left wins if his stable holds five; with none left, no one."""
    state = ctx.state
    active = state.active_lanistas()
    if len(state.lanistas) > 1 and len(active) == 1:
        last = active[0]
        if len(state.stable(last.id)) >= campaign_tables().lanistas.stable:
            state.meta.winner, state.meta.phase = last.id, "over"
            ctx.event("winner", f"{last.name} is the last lanista left", "§37.7", winner=last.id)
            return True
    if not active:
        state.meta.phase = "over"
        ctx.event("winner", "every lanista is out: nobody wins", "§37.7", winner=None)
        return True
    return False
