"""The steps that open and close a munus, and what lanistas do between: raising the odds
(§37.4) and buying armour (§34) for a scheduled bout.

munus_open: §37.6 first (a lanista with no living gladiator, or who cannot cover the minimum
bet, is out), then §37.7's last-lanista win; the arena size is rolled once for the munus (§25.2,
Q22) and every entered gladiator finds his match (§30); each bout's minimum wager, 100 at 1-1
from each side (§37.4; L3: against the house the bank takes the bet), goes into its escrow.
"""

from __future__ import annotations

from gladiator.campaign.armour import armour_cost
from gladiator.campaign.context import StepContext
from gladiator.campaign.creation import add_gladiator
from gladiator.campaign.errors import CampaignError
from gladiator.campaign.fights import refresh_entrants
from gladiator.campaign.ledger import BANK, escrow, lanista_account
from gladiator.campaign.munus import arrange_munus, rearrange_unique
from gladiator.campaign.stable_steps import must_buy
from gladiator.campaign.standing import check_out, richest, victory_by_stable
from gladiator.campaign.state import Bout, Lot, Wager
from gladiator.campaign.tables import arena, campaign_tables
from gladiator.campaign.unique import unique_spec
from gladiator.campaign.wagers import forced_stake, stakes

__all__ = [
    "bot_fight",
    "buy_armour",
    "munus_close",
    "munus_open",
    "offer_odds",
    "ready",
    "set_unique",
]


def _entries(ctx: StepContext) -> list[str]:
    """The gladiators entered, lanista by lanista; each alive, his own, and entered once."""
    state = ctx.state
    raw = ctx.field("entries", dict, None)
    active = [lanista.id for lanista in state.active_lanistas()]
    if raw is None:
        raw = {lid: [g.id for g in state.stable(lid)] for lid in active}
    raw = dict(raw)  # trimmed below: the step's own payload is left as it was
    seen: set[str] = set()
    out: list[str] = []
    minimum = campaign_tables().lanistas.wager_min
    for lid, gids in raw.items():
        if lid not in state.lanistas:
            raise CampaignError(f"{lid!r} is not a lanista of this campaign")
        if lid not in active:
            continue  # out of the game (§37.6): his entries are void
        if not isinstance(gids, list):
            raise CampaignError(f"entries of {lid} must be a list of gladiator ids")
        lanista = state.lanistas[lid]
        for gid in gids:
            career = ctx.own_gladiator(lanista, gid)
            if gid in seen:
                raise CampaignError(
                    f"{career.name} ({gid}) is entered twice: a gladiator fights one match "
                    "per munus (§30.2 NOTE)"
                )
            seen.add(gid)
        if minimum * len(gids) > lanista.purse:
            # L13: he enters only the men whose bets he can cover, the first he named; his
            # entries were made before the auction took his money, so they are not refused.
            covered = lanista.purse // minimum
            ctx.event(
                "entries",
                f"{lanista.name} can cover {covered} bets of {minimum}: only his first "
                f"{covered} men are entered",
                "§37.6",
                lanista=lid,
            )
            raw[lid] = gids[:covered]
    # The stables take turns (one of each lanista's, then the next), so every lanista's men
    # get to find matches (§30.2), not only the first lanista's.
    lists = [list(raw.get(lid, [])) for lid in active]
    for i in range(max((len(x) for x in lists), default=0)):
        out += [x[i] for x in lists if i < len(x)]
    return out


def munus_open(ctx: StepContext) -> None:
    ctx.no_actor()
    ctx.phase("between")
    state = ctx.state
    if state.meta.lots:
        raise CampaignError("the auction is still open: apply an 'auction' step first (§37.5)")
    for lanista in state.active_lanistas():
        reason = check_out(state, lanista.id)
        if reason:
            lanista.out = reason
            ctx.event("out", f"{lanista.name} is out: {reason}", "§37.6", lanista=lanista.id)
    if victory_by_stable(ctx):
        return
    entries = _entries(ctx)
    preferences = ctx.field("preferences", dict, {})
    if preferences and not state.meta.options.choose_style:
        raise CampaignError("style preferences need the option choose_style (§30.2.3.1 NOTE)")
    preferences = {**state.meta.preferences, **preferences}
    state.meta.munus += 1
    state.meta.phase = "munus"
    state.meta.lost = {}
    state.meta.ready, state.meta.entries = [], {}  # L15: everyone acts again in the munus
    t38 = arena()
    size = ctx.dice.roll(f"{t38.dice}{t38.modifier:+d}", "arena size (T38)", "§25.2")
    state.meta.arena_size = size
    ctx.event("arena", f"munus {state.meta.munus}: arena size {size}", "§25.2", size=size)
    for bout in arrange_munus(state, ctx.dice, entries, size, preferences):
        _stake_minimum(ctx, bout)
        ctx.event("bout", f"bout {bout.id}: {bout.type}", "§30.2", bout=bout.id)


def _stake_minimum(ctx: StepContext, bout: Bout) -> None:
    """§37.4: at least 100 at 1-1 from each side; L3: the bank takes a house side's bet."""
    minimum = forced_stake(1)
    wager = Wager()
    for side in bout.sides:
        account = lanista_account(side.lanista) if side.lanista else BANK
        if side.lanista:
            ctx.ledger.pay(side.lanista, escrow(bout.id), minimum, f"bet on bout {bout.id}")
        else:
            ctx.ledger.move(BANK, escrow(bout.id), minimum, f"the house's bet, bout {bout.id}")
        wager.stakes[account] = minimum
    bout.wager = wager


def offer_odds(ctx: StepContext) -> None:
    """§37.4: the actor offers the opposing lanista k-1; the stakes rise to the L1 amounts."""
    ctx.phase("munus")
    actor = ctx.actor()
    bout = ctx.bout(ctx.field("bout", str))
    odds = ctx.field("odds", int)
    lanistas = bout.lanistas()
    if actor.id not in lanistas:
        raise CampaignError(f"lanista {actor.id} has no gladiator in bout {bout.id}")
    others = [lid for lid in lanistas if lid != actor.id]
    if not others:
        raise CampaignError(f"bout {bout.id} has no opposing lanista to offer odds to (L3)")
    wager = bout.wager or Wager()
    if wager.offerer not in (None, actor.id):
        raise CampaignError(f"lanista {wager.offerer} already offered the odds of bout {bout.id}")
    if odds <= wager.odds:
        raise CampaignError(f"odds must rise above {wager.odds}-1 (§37.4)")
    offeree_stake, offerer_stake = stakes(odds, ctx.state.meta.options.wager_payout)
    for lid, stake in ((others[0], offeree_stake), (actor.id, offerer_stake)):
        account = lanista_account(lid)
        more = stake - wager.stakes.get(account, 0)
        purse = ctx.state.lanistas[lid].purse
        if more > purse:
            raise CampaignError(
                f"a wager of {stake} at {odds}-1 is over lanista {lid}'s purse of "
                f"{purse + wager.stakes.get(account, 0)} (§37.4, §37.6)"
            )
        ctx.ledger.pay(lid, escrow(bout.id), more, f"bet at {odds}-1 on bout {bout.id}")
        wager.stakes[account] = stake
    wager.offerer, wager.odds = actor.id, odds
    bout.wager = wager
    ctx.event("odds", f"{actor.name} offers {odds}-1 on bout {bout.id}", "§37.4", bout=bout.id)


def buy_armour(ctx: StepContext) -> None:
    """§34: armour bought for one gladiator's bout, paid to the bank from the lanista's purse
    (§34.3) within his class allowance (§34.2)."""
    ctx.phase("munus")
    if not ctx.state.meta.options.custom_armour:
        raise CampaignError("custom armour is an option the campaign does not use (§34)")
    actor = ctx.actor()
    career = ctx.own_gladiator(actor, ctx.field("gladiator", str))
    bout = ctx.bout(ctx.field("bout", str))
    if career.id not in bout.gladiators():
        raise CampaignError(f"{career.name} does not fight in bout {bout.id}")
    if career.id in bout.armour:
        raise CampaignError(f"{career.name}'s armour for bout {bout.id} is bought already")
    pieces = ctx.field("armour", list)
    shield = ctx.field("shield", str, "large")
    cost = armour_cost(bout.styles[career.id], [str(p) for p in pieces], shield)
    ctx.ledger.pay(actor.id, BANK, cost, f"armour for {career.name} (§34.3)")
    bout.armour[career.id] = {"pieces": [str(p) for p in pieces], "shield": shield, "cost": cost}
    refresh_entrants(ctx.state, bout)
    ctx.event("armour", f"{career.name}'s armour costs {cost}", "§34", gladiator=career.id)


def munus_close(ctx: StepContext) -> None:
    """After the munus: §37.5's lots (one new gladiator for sale per gladiator a lanista lost
    in the arena) and §37.7's set number of munera."""
    ctx.no_actor()
    ctx.phase("munus")
    state = ctx.state
    open_bouts = [b.id for b in state.munus_bouts() if b.status != "settled"]
    if open_bouts:
        raise CampaignError(f"bouts not yet fought: {', '.join(open_bouts)}")
    for lid, n in sorted(state.meta.lost.items()):
        for _ in range(n):
            career = add_gladiator(state, ctx.dice, None, status="for_sale")
            state.meta.lots.append(Lot(gladiator=career.id))
            memo = f"{career.name} is for sale (for {lid}'s loss)"
            ctx.event("lot", memo, "§37.5", lot=career.id)
    state.meta.phase = "between"
    state.meta.ready = []  # L15: XP and bids between munera
    state.meta.timeline.append(state.standing())
    if state.meta.munus >= state.meta.options.munera:
        winner = richest(state)
        state.meta.winner, state.meta.phase = winner, "over"
        ctx.event("winner", f"after {state.meta.munus} munera: {winner}", "§37.7", winner=winner)


def ready(ctx: StepContext) -> None:
    """L15: the actor is done for now: in a munus, offering odds and buying armour (his bouts
    are fought once every lanista in them is ready); between munera, spending XP and bidding,
    with `entries`, optionally, the men he enters in the next munus (each his own and alive)."""
    ctx.phase("munus", "between")
    actor = ctx.actor()
    state = ctx.state
    if must_buy(ctx, actor):
        raise CampaignError(f"lanista {actor.id} buys his stable first (§37.2.1: buy_stable)")
    entries = ctx.field("entries", list, None)
    if entries is not None:
        if state.meta.phase != "between":
            raise CampaignError("entries are made between munera, for the next one (§30.2)")
        chosen = [ctx.own_gladiator(actor, gid).id for gid in entries]
        if len(set(chosen)) != len(chosen):
            raise CampaignError(
                "a gladiator is entered once: he fights one match per munus (§30.2)"
            )
        state.meta.entries[actor.id] = chosen
    if actor.id not in state.meta.ready:
        state.meta.ready.append(actor.id)
    ctx.event("ready", f"{actor.name} is ready", "", lanista=actor.id)


def bot_fight(ctx: StepContext) -> None:
    """A human lanista asks a bot to fight his men of a bout for him, in place of the arena
    (issue #29): before he says he is ready, since the fight begins when everyone is."""
    ctx.phase("munus")
    actor = ctx.actor()
    bout = ctx.bout(ctx.field("bout", str))
    if actor.id not in bout.lanistas():
        raise CampaignError(f"lanista {actor.id} has no gladiator in bout {bout.id}")
    if actor.id in ctx.state.meta.ready:
        raise CampaignError(f"lanista {actor.id} is ready: his fights are being called (L15)")
    if actor.id not in bout.bot_fights:
        bout.bot_fights.append(actor.id)
    ctx.event("bot_fight", f"a bot fights {actor.name}'s men in bout {bout.id}", "", bout=bout.id)


def set_unique(ctx: StepContext) -> None:
    """§30.2.1.1: the lanista whose man rolled a Unique Match sets it up as he likes (L4),
    before he is ready and before anyone has bet on it beyond the forced bet (L19)."""
    ctx.phase("munus")
    actor = ctx.actor()
    bout = ctx.bout(ctx.field("bout", str))
    if bout.type != "unique":
        raise CampaignError(f"bout {bout.id} is a {bout.type}, not a Unique Match")
    if bout.sides[0].lanista != actor.id:
        raise CampaignError(f"bout {bout.id}'s Unique Match is set up by its gladiator's lanista")
    if actor.id in ctx.state.meta.ready:
        raise CampaignError(f"lanista {actor.id} is ready: the match is set (L15)")
    if any(bet.status != "withdrawn" for bet in bout.side_bets):
        raise CampaignError(f"side bets are made on bout {bout.id}: its match is set (L19)")
    if bout.unique is not None and bout.unique.by is not None:
        raise CampaignError(f"bout {bout.id}'s Unique Match is set up already (L4)")
    gladiator = bout.sides[0].gladiators[0]
    others = [g for g in bout.gladiators() if g != gladiator]
    if any(ctx.state.gladiators[g].lanista is not None for g in others):
        # arranged before L4's set-ups, against another lanista's man: played as it stands
        raise CampaignError(f"bout {bout.id} is against another lanista's man: it stands (L4)")
    spec = unique_spec(ctx.field("match", dict), actor.id)
    size = ctx.state.meta.arena_size or 1
    rearrange_unique(ctx.state, ctx.dice, bout, spec, size)
    ctx.event("unique", f"bout {bout.id}: {spec.name}", "§30.2.1.1", bout=bout.id)
