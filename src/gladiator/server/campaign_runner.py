"""Playing the server's campaigns on: bot lanistas' moves and bot-only bouts in a worker thread,
and every fight of a human lanista's gladiator as a real arena match that the lanista plays
through his link (issue #11; docs/web.md, Campaigns).

Crash-safe and idempotent because everything is read off what is stored: the campaign's next
move off its state alone (`driver.next_move`), and a fight's match by its id, which is fixed by
the campaign, the bout and the fight's number (`fight_match_id`). A restart finds a fight that
finished but was not settled and settles it; it never creates a fight twice (the id is looked up
first); and it never applies a result twice, since the store refuses a step whose seq is not the
next one.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from gladiator import registry
from gladiator.campaign import CampaignError, CampaignState
from gladiator.campaign.driver import arena_lanistas, next_move
from gladiator.campaign.fights import BEAST, fight_lanistas, next_fight
from gladiator.campaign.side_bets import games_begun
from gladiator.campaign.state import Bout
from gladiator.campaign_service.fights import RULESET, fight_seed, play_fight
from gladiator.campaign_service.service import CampaignService, PlayedBout
from gladiator.server.hub import Elsewhere, Hub, Unavailable
from gladiator.server.live_match import LiveMatch
from gladiator.store import Store, StoredSeat, StoreError

__all__ = ["ARENA_BOT", "CampaignRunner", "fight_match_id"]

log = logging.getLogger("gladiator.server")

ARENA_BOT = "tactician"  # the other seats of a human's fight (as the in-process fights)


def fight_match_id(campaign_id: str, bout: str, index: int) -> str:
    """The arena match of fight `index` of a bout: one id per fight, so a fight is found again
    after a restart instead of being created a second time."""
    return f"{campaign_id}-{bout}-{index}"


def arena_bouts(state: CampaignState) -> list[Bout]:
    """The bouts of this munus to be fought now in the arena: scheduled, once the games have
    begun (every lanista ready, L19), with a human lanista among them who fights it himself
    (the others the service plays)."""
    if state.meta.phase != "munus" or not games_begun(state):
        return []
    return [
        bout
        for bout in state.munus_bouts()
        if bout.status == "scheduled" and arena_lanistas(state, bout)
    ]


def _label(state: CampaignState, member: str) -> str:
    """Who sits in a kept fight's seat, as the lobby's list of matches shows it."""
    if member.startswith(BEAST):
        return member.removeprefix(BEAST)
    return f"{state.gladiators[member].name}, {state.meta.name}"


class CampaignRunner:
    """The campaigns of one server. One lock per campaign: its steps are taken one at a time,
    whether a lanista's action or the runner's own."""

    def __init__(self, store: Store, hub: Hub) -> None:
        self.store = store
        self.hub = hub
        self.service = CampaignService(store.campaigns)
        self.tokens = store.campaign_tokens
        self._locks: dict[str, asyncio.Lock] = {}
        self._fights: dict[str, str] = {}  # arena match id -> its campaign
        self._tasks: set[asyncio.Task[None]] = set()
        # CP8: campaigns past their deadline found with nobody late to be ready, by the seq
        # they were at (looked at again once a step moves them).
        self._not_late: dict[str, int] = {}
        self._keeping: asyncio.Task[None] | None = None
        hub.on_finish = self._on_finish

    def lock(self, campaign_id: str) -> asyncio.Lock:
        return self._locks.setdefault(campaign_id, asyncio.Lock())

    async def start(self) -> None:
        """At server start: every stored campaign is played on (one that is over stops at
        once), so fights that ended while the server was down are settled."""
        summaries = await asyncio.to_thread(self.store.campaigns.list_campaigns, limit=500)
        for summary in summaries:
            self.kick(summary.id)
        self._keeping = asyncio.get_running_loop().create_task(self._keep_deadlines())

    def kick(self, campaign_id: str) -> None:
        """Play the campaign on in the background, as far as it goes without a human."""
        task = asyncio.get_running_loop().create_task(self.advance(campaign_id))
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("campaign: %s", task.exception(), exc_info=task.exception())

    def _on_finish(self, match_id: str) -> None:
        campaign_id = self._fights.get(match_id)
        if campaign_id is not None:
            self.kick(campaign_id)

    async def advance(self, campaign_id: str) -> None:
        async with self.lock(campaign_id):
            while True:
                try:
                    await asyncio.to_thread(self.service.advance, campaign_id, self._kept_fights)
                    state = await asyncio.to_thread(self.service.load, campaign_id)
                except (CampaignError, StoreError) as exc:
                    log.error("campaign %s cannot go on: %s", campaign_id, exc)
                    return
                settled = False
                for bout in arena_bouts(state):
                    if await self._arena_bout(state, bout):
                        settled = True
                        break  # the state moved on: read it again before the next bout
                if not settled:
                    return

    async def _keep_deadlines(self) -> None:
        while True:
            try:
                await self.sweep_ready()
            except Exception:  # a sweep's bug must not stop the deadlines
                log.exception("the campaigns' deadline sweep failed")
            await asyncio.sleep(self.hub.deadlines.interval)

    async def sweep_ready(self) -> int:
        """CP8: a campaign that has waited its deadline for human lanistas to say they are
        ready says it in their names (no bets, no bids from them this time); how many
        campaigns moved. Their fights' deadlines are their matches' (server/correspondence.py)."""
        clocks = await asyncio.to_thread(self.store.campaign_clocks.deadlines)
        now = self.hub.policy.clock()
        moved = 0
        for campaign_id, (deadline, since, seq) in clocks.items():
            if since.timestamp() + deadline.seconds > now or self._not_late.get(campaign_id) == seq:
                continue
            if await self._make_ready(campaign_id):
                moved += 1
                self.kick(campaign_id)
            else:
                self._not_late[campaign_id] = seq
        return moved

    async def _make_ready(self, campaign_id: str) -> bool:
        async with self.lock(campaign_id):
            try:
                state = await asyncio.to_thread(self.service.load, campaign_id)
                late = [w for w in next_move(state).waiting if w not in state.meta.ready]
                for lanista in late:
                    step = {"kind": "ready", "actor": lanista}
                    state = (await asyncio.to_thread(self.service.step_from, state, step)).state
                    log.info(
                        "campaign %s: %s's deadline passed; ready in his name", campaign_id, lanista
                    )
            except (CampaignError, StoreError) as exc:  # another process moved it first
                log.info("campaign %s: not made ready: %s", campaign_id, exc)
                return False
        return bool(late)

    def _kept_fights(self, state: CampaignState, bout_id: str) -> PlayedBout:
        """A bout nobody plays in the arena, fought here by the arena's bot in every seat (as
        `bot_fights` does: the same fights), each fight kept as a finished match under its
        `fight_match_id` so the campaign page links its replay. A fight stored by a run that
        was cut off before the bout was settled is the same fight: it is kept as it was."""
        bout = state.bouts[bout_id]
        reports: list[dict[str, Any]] = []
        matches: list[str] = []
        while (options := next_fight(bout, reports)) is not None:
            index = len(reports)
            match_id = fight_match_id(state.meta.id, bout_id, index)
            seed = fight_seed(state.meta.seed, bout_id, index)
            fight = play_fight(options, seed, ARENA_BOT, keep=True)
            assert fight.record is not None and fight.outcome is not None
            seats = [
                StoredSeat(seat, "bot", ARENA_BOT, None, _label(state, member))
                for seat, member in bout.seats[index].items()
            ]
            try:
                self.store.add_finished(
                    match_id=match_id,
                    options=fight.record["options"],
                    seats=seats,
                    outcome=fight.outcome,
                    record=fight.record,
                )
            except StoreError:
                if self.store.record(match_id) is None:
                    raise
            reports.append(fight.report)
            matches.append(match_id)
        return PlayedBout(reports, matches)

    async def _arena_bout(self, state: CampaignState, bout: Bout) -> bool:
        """Create the bout's next fight in the arena, or settle the bout once its last fight
        is over; True when it was settled."""
        campaign_id = state.meta.id
        reports: list[dict[str, Any]] = []
        matches: list[str] = []
        while (options := next_fight(bout, reports)) is not None:
            index = len(reports)
            match_id = fight_match_id(campaign_id, bout.id, index)
            self._fights[match_id] = campaign_id
            matches.append(match_id)
            try:
                live = await self.hub.get(match_id)
                if live is None:
                    live = await self._create_fight(state, bout, index, options, match_id)
            except Elsewhere:
                return False  # its process plays it, and settles the bout at its end
            except (Unavailable, StoreError, ValueError) as exc:
                log.error("campaign %s: fight %s: %s", campaign_id, match_id, exc)
                return False
            if not live.finish_stored:
                return False  # the lanista plays it; its end kicks the campaign again
            ruleset: Any = live.match.ruleset
            reports.append(ruleset.campaign_report(live.match.state))
        step = {"kind": "bout_result", "bout": bout.id, "reports": reports, "matches": matches}
        try:
            await asyncio.to_thread(self.service.step_from, state, step)
        except (CampaignError, StoreError) as exc:
            log.error("campaign %s: bout %s not settled: %s", campaign_id, bout.id, exc)
            return False
        log.info("campaign %s: bout %s settled from %s", campaign_id, bout.id, matches)
        return True

    async def _create_fight(
        self,
        state: CampaignState,
        bout: Bout,
        index: int,
        options: dict[str, Any],
        match_id: str,
    ) -> LiveMatch:
        hashes = await asyncio.to_thread(self.tokens.hashes, state.meta.id)
        deadline = await asyncio.to_thread(self.store.campaign_clocks.deadline, state.meta.id)
        addresses = await asyncio.to_thread(self.tokens.emails, state.meta.id)
        emails: dict[str, str] = {}
        seats: dict[str, str] = {}
        seat_hashes: dict[str, str] = {}
        players = arena_lanistas(state, bout)
        for seat, lanista in fight_lanistas(state, bout, index).items():
            if lanista in players:
                if lanista not in hashes:
                    raise ValueError(f"lanista {lanista} has no link (its creation was cut off)")
                seats[seat] = "human"
                seat_hashes[seat] = hashes[lanista]
                if lanista in addresses and self.hub.mail is not None:  # CP5, CP8
                    emails[seat] = addresses[lanista]
            else:
                seats[seat] = f"bot:{ARENA_BOT}"
        registry.get(RULESET)  # an unknown ruleset is a ValueError before anything is stored
        made = await self.hub.create(
            RULESET,
            options,
            seats,
            fight_seed(state.meta.seed, bout.id, index),
            match_id=match_id,
            seat_hashes=seat_hashes,
            abandonable=False,  # AB5: the campaign has its own pace; a forfeit is not a bout
            deadline=deadline,  # CP8: the campaign's, played by its stand-in when it passes
            emails=emails,
        )
        log.info(
            "campaign %s: bout %s fight %d is match %s", state.meta.id, bout.id, index, match_id
        )
        return made.live

    def stop(self) -> None:
        if self._keeping is not None:
            self._keeping.cancel()
        for task in list(self._tasks):
            task.cancel()
