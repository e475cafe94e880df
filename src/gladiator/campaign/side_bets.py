"""§37.4.1: "Lanistas may make any side bets they can find takers for, at any odds."

L19: a side bet is offered on a scheduled bout of the munus by a lanista who is not yet ready
(L15), for any taker or for one lanista he names: he stakes `stake` on one side, and the taker,
who takes the other side, stakes `takes` (the odds are takes to stake). Both stakes go into the
bet's own escrow account when they are made, so a lanista can never be short of a bet (§37.6).
A lanista never backs the side against his own men, as offerer or taker (he could throw the
fight). Bets are made until the games begin, when every lanista is ready: an offer nobody has
taken by then is returned with the bout's result, as is every stake of a drawn bout; otherwise
the winner of the bet takes both stakes.
"""

from __future__ import annotations

from gladiator.campaign.context import StepContext
from gladiator.campaign.errors import CampaignError
from gladiator.campaign.ledger import lanista_account
from gladiator.campaign.state import Bout, CampaignState, SideBet

__all__ = [
    "decline_side_bet",
    "games_begun",
    "offer_side_bet",
    "open_side_bets",
    "settle_side_bets",
    "side_bet_escrow",
    "take_side_bet",
    "withdraw_side_bet",
]

MAX_STAKE = 100_000
MAX_OFFERS = 5  # a lanista's offers nobody has taken yet, at once


def side_bet_escrow(bet: str) -> str:
    return f"side:{bet}"


def games_begun(state: CampaignState) -> bool:
    """L19: the munus's fights begin once every lanista in the game is ready (L15)."""
    ready = set(state.meta.ready)
    return all(lanista.id in ready for lanista in state.active_lanistas())


def _men_on(state: CampaignState, bout: Bout, side: int, lanista: str) -> bool:
    return any(state.gladiators[g].lanista == lanista for g in bout.sides[side].gladiators)


def _amount(ctx: StepContext, name: str) -> int:
    value: int = ctx.field(name, int)
    if not 1 <= value <= MAX_STAKE:
        raise CampaignError(f"a side bet's {name} is 1 to {MAX_STAKE} sesterces (§37.4.1)")
    return value


def _open_window(ctx: StepContext) -> None:
    ctx.phase("munus")
    if games_begun(ctx.state):
        raise CampaignError("the games have begun: side bets are made before them (§37.4.1)")


def offer_side_bet(ctx: StepContext) -> None:
    _open_window(ctx)
    actor = ctx.actor()
    if actor.id in ctx.state.meta.ready:
        raise CampaignError(f"lanista {actor.id} said he is ready: he offers nothing more (L15)")
    bout = ctx.bout(ctx.field("bout", str))
    if bout.munus != ctx.state.meta.munus:
        raise CampaignError(f"bout {bout.id} is not of this munus")
    backs = ctx.field("backs", int)
    if backs not in (0, 1) or backs >= len(bout.sides):
        raise CampaignError("a side bet backs side 0 or side 1 of the bout")
    if _men_on(ctx.state, bout, 1 - backs, actor.id):
        raise CampaignError("a lanista never bets against his own men (L19)")
    offered = [
        bet
        for b in ctx.state.munus_bouts()
        for bet in b.side_bets
        if bet.offerer == actor.id and bet.status == "offered"
    ]
    if len(offered) >= MAX_OFFERS:
        raise CampaignError(
            f"lanista {actor.id} has {MAX_OFFERS} side bets on offer: one must be taken or "
            "withdrawn first (L19)"
        )
    stake, takes = _amount(ctx, "stake"), _amount(ctx, "takes")
    to = ctx.field("to", str, None)
    if to is not None:
        if to == actor.id or to not in ctx.state.lanistas:
            raise CampaignError(f"a side bet is offered to another lanista, not {to!r}")
        if ctx.state.lanistas[to].out is not None:
            raise CampaignError(f"lanista {to} is out of the game (§37.6)")
    bet = SideBet(
        id=f"{bout.id}-s{len(bout.side_bets) + 1}",
        offerer=actor.id,
        backs=backs,
        stake=stake,
        takes=takes,
        to=to,
    )
    ctx.ledger.pay(actor.id, side_bet_escrow(bet.id), stake, f"side bet {bet.id} (§37.4.1)")
    bout.side_bets.append(bet)
    ctx.event(
        "side_bet",
        f"{actor.name} offers {stake} against {takes} on side {backs} of bout {bout.id}",
        "§37.4.1",
        bout=bout.id,
        bet=bet.id,
    )


def _offered(ctx: StepContext) -> tuple[Bout, SideBet]:
    wanted = ctx.field("bet", str)
    for bout in ctx.state.munus_bouts():
        for bet in bout.side_bets:
            if bet.id == wanted:
                if bout.status != "scheduled" or bet.status != "offered":
                    raise CampaignError(f"side bet {wanted} is {bet.status}, no longer offered")
                return bout, bet
    raise CampaignError(f"no side bet {wanted!r} in this munus")


def take_side_bet(ctx: StepContext) -> None:
    _open_window(ctx)
    actor = ctx.actor()
    bout, bet = _offered(ctx)
    if actor.id == bet.offerer:
        raise CampaignError("a lanista cannot take his own side bet")
    if bet.to not in (None, actor.id):
        raise CampaignError(f"side bet {bet.id} is offered to lanista {bet.to} only")
    if _men_on(ctx.state, bout, bet.backs, actor.id):
        raise CampaignError("a lanista never bets against his own men (L19)")
    memo = f"side bet {bet.id} taken (§37.4.1)"
    ctx.ledger.pay(actor.id, side_bet_escrow(bet.id), bet.takes, memo)
    bet.taker, bet.status = actor.id, "taken"
    ctx.event("side_bet", f"{actor.name} takes side bet {bet.id}", "§37.4.1", bet=bet.id)


def decline_side_bet(ctx: StepContext) -> None:
    _open_window(ctx)
    actor = ctx.actor()
    _, bet = _offered(ctx)
    if actor.id == bet.offerer:
        raise CampaignError("the offerer withdraws his side bet; he does not decline it")
    if actor.id not in bet.declined:
        bet.declined.append(actor.id)
    ctx.event("side_bet", f"{actor.name} declines side bet {bet.id}", "§37.4.1", bet=bet.id)


def withdraw_side_bet(ctx: StepContext) -> None:
    _open_window(ctx)
    actor = ctx.actor()
    _, bet = _offered(ctx)
    if actor.id != bet.offerer:
        raise CampaignError(f"side bet {bet.id} is lanista {bet.offerer}'s to withdraw")
    memo = f"side bet {bet.id} withdrawn"
    ctx.ledger.move(side_bet_escrow(bet.id), lanista_account(actor.id), bet.stake, memo)
    bet.status = "withdrawn"
    ctx.event("side_bet", f"{actor.name} withdraws side bet {bet.id}", "§37.4.1", bet=bet.id)


def open_side_bets(state: CampaignState, lanista: str) -> list[tuple[Bout, SideBet]]:
    """The side bets `lanista` may still take or decline."""
    if state.meta.phase != "munus" or games_begun(state):
        return []
    return [
        (bout, bet)
        for bout in state.munus_bouts()
        if bout.status == "scheduled"
        for bet in bout.side_bets
        if bet.status == "offered"
        and bet.offerer != lanista
        and bet.to in (None, lanista)
        and lanista not in bet.declined
        and not _men_on(state, bout, bet.backs, lanista)
    ]


def settle_side_bets(ctx: StepContext, bout: Bout, outcome: str) -> None:
    """With the bout's result: the winner takes both stakes; a draw, or an offer nobody took,
    returns them."""
    for bet in bout.side_bets:
        pot = side_bet_escrow(bet.id)
        offerer = lanista_account(bet.offerer)
        if bet.status == "offered" or (bet.status == "taken" and outcome == "draw"):
            ctx.ledger.move(pot, offerer, bet.stake, f"side bet {bet.id} returned")
            if bet.taker is not None:
                taker = lanista_account(bet.taker)
                ctx.ledger.move(pot, taker, bet.takes, f"side bet {bet.id} returned")
            bet.status = "returned"
        elif bet.status == "taken" and bet.taker is not None:
            won = outcome == f"side{bet.backs}"
            winner = offerer if won else lanista_account(bet.taker)
            ctx.ledger.move(pot, winner, bet.stake + bet.takes, f"side bet {bet.id} won")
            bet.status = "won" if won else "lost"
