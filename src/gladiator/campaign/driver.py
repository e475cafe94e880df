"""What happens next in a campaign, read off its state alone (L15).

`next_move(state)` gives the next step a bot lanista or the arena takes, the bout whose fights
are to be played next, or the human lanistas everything waits for. Because it reads nothing but
the state, a campaign stopped at any point (a crash between two steps, a server restart) goes on
exactly as it would have: the same state gives the same next step, and a fight's dice come from
the campaign's seed and the bout (the service's `fight_seed`).

The order, per munus: bot lanistas take or decline the side bets offered them (§37.4.1), offer
odds (§37.4) and buy armour (§34) for their bouts, then say they are ready; the bouts are
fought once every lanista is ready (L19: the games begin), a human lanista's in the arena
unless he asked a bot to fight it; munus_close (§37.5's lots,
§37.7) once every bout is settled; then bot lanistas spend XP (§31.3) and bid (§37.5) and say they
are ready; the auction once every lanista is ready; then the next munus_open (§30), until the set
number of munera (§37.7) or the end of the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gladiator.campaign.bot import (
    bot_armour,
    bot_bids,
    bot_entries,
    bot_offer,
    bot_preferences,
    bot_spending,
    bot_takes_side_bet,
)
from gladiator.campaign.side_bets import games_begun, open_side_bets
from gladiator.campaign.state import Bout, CampaignState, Lanista

__all__ = ["Move", "arena_lanistas", "next_move"]


@dataclass(frozen=True)
class Move:
    """One of: `step` to apply; `fight`, the id of the bout to play now; or `waiting`, the human
    lanistas who must act (say they are ready, or play their fight) before anything else can."""

    step: dict[str, Any] | None = None
    fight: str | None = None
    waiting: tuple[str, ...] = field(default_factory=tuple)

    @property
    def over(self) -> bool:
        return self.step is None and self.fight is None and not self.waiting


def _bots_not_ready(state: CampaignState) -> list[Lanista]:
    return [
        lanista
        for lanista in state.active_lanistas()
        if lanista.kind == "bot" and lanista.id not in state.meta.ready
    ]


def _humans_not_ready(state: CampaignState) -> tuple[str, ...]:
    return tuple(
        lanista.id
        for lanista in state.active_lanistas()
        if lanista.kind == "human" and lanista.id not in state.meta.ready
    )


def _ready(lanista: str) -> Move:
    return Move(step={"kind": "ready", "actor": lanista})


def _munus_move(state: CampaignState, humans_fight: frozenset[str]) -> Move:
    bouts = [b for b in state.munus_bouts() if b.status == "scheduled"]
    for lanista in state.active_lanistas():
        if lanista.kind != "bot":
            continue
        for bout, bet in open_side_bets(state, lanista.id):
            take = bot_takes_side_bet(state, lanista.id, bout, bet)
            kind = "take_side_bet" if take else "decline_side_bet"
            return Move(step={"kind": kind, "actor": lanista.id, "bet": bet.id})
    for lanista in _bots_not_ready(state):
        for bout in bouts:
            if lanista.id not in bout.lanistas():
                continue
            odds = bot_offer(state, lanista.id, bout)
            if odds is not None:
                step = {"kind": "offer_odds", "actor": lanista.id, "bout": bout.id, "odds": odds}
                return Move(step=step)
            for armour in bot_armour(state, lanista.id, bout):
                if armour["gladiator"] not in bout.armour:
                    return Move(step=armour)
        return _ready(lanista.id)
    if not games_begun(state):
        return Move(waiting=_humans_not_ready(state))
    waiting: list[str] = []
    for bout in bouts:
        humans = arena_lanistas(state, bout)
        if humans and not set(humans) <= humans_fight:
            waiting += [h for h in humans if h not in waiting]  # his fight, in the arena
            continue
        return Move(fight=bout.id)
    if bouts:
        return Move(waiting=tuple(waiting))
    return Move(step={"kind": "munus_close"})


def arena_lanistas(state: CampaignState, bout: Bout) -> list[str]:
    """The human lanistas who fight their men of `bout` themselves (not by a bot)."""
    return [
        lid
        for lid in dict.fromkeys(bout.lanistas())
        if state.lanistas[lid].kind == "human" and lid not in bout.bot_fights
    ]


def _between_move(state: CampaignState) -> Move:
    for lanista in _bots_not_ready(state):
        for career in state.stable(lanista.id):
            plan = bot_spending(career)
            if plan:
                spend: dict[str, Any] = {
                    "kind": "spend_xp",
                    "actor": lanista.id,
                    "gladiator": career.id,
                    "purchases": plan,
                }
                return Move(step=spend)
        lots = {lot.gladiator: lot for lot in state.meta.lots}
        for gid, amount in bot_bids(state, lanista.id):
            if lots[gid].bids.get(lanista.id) != amount:
                step: dict[str, Any] = {
                    "kind": "bid",
                    "actor": lanista.id,
                    "gladiator": gid,
                    "amount": amount,
                }
                return Move(step=step)
        return _ready(lanista.id)
    waiting = _humans_not_ready(state)
    if waiting:
        return Move(waiting=waiting)
    if state.meta.lots:
        return Move(step={"kind": "auction"})
    entries = {
        lanista.id: state.meta.entries.get(lanista.id, bot_entries(state, lanista.id))
        for lanista in state.active_lanistas()
    }
    opening: dict[str, Any] = {"kind": "munus_open", "entries": entries}
    if state.meta.options.choose_style:  # §30.2.3.1 NOTE: the bots' choice of styles
        bots = [lanista.id for lanista in state.active_lanistas() if lanista.kind == "bot"]
        prefs = {g: s for lid in bots for g, s in bot_preferences(state, lid).items()}
        opening["preferences"] = prefs
    return Move(step=opening)


def next_move(state: CampaignState, humans_fight: frozenset[str] = frozenset()) -> Move:
    """The next move of the campaign; `humans_fight` names the human lanistas whose fights may
    be played now by the caller (the terminal, or the arena that plays them with the human)."""
    phase = state.meta.phase
    if phase == "over":
        return Move()
    if phase == "munus":
        return _munus_move(state, humans_fight)
    return _between_move(state)
