"""The live matches of a running server: loading, resuming, taking over and creating them
(one `LiveMatch` each, server/live_match.py), and letting them go once nobody watches."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from gladiator import registry
from gladiator.bots.levels import level_for
from gladiator.bots.spec import parse_spec
from gladiator.core.match import Match
from gladiator.server.abandonment import Abandoner, AbandonPolicy
from gladiator.server.bot_pool import BotPolicy, BotPool
from gladiator.server.connection import at
from gladiator.server.correspondence import DeadlineKeeper, DeadlinePolicy
from gladiator.server.live_match import LiveMatch
from gladiator.server.mail import MailPolicy, check_emails
from gladiator.server.mail_notices import Notifier
from gladiator.server.ownership import Ownership
from gladiator.server.retry import RetryPolicy
from gladiator.store import (
    Store,
    StoredMatch,
    StoredSeat,
    StoreError,
    hash_token,
    new_match_id,
    new_token,
)
from gladiator.store.resume import BrokenMatch, Failure, rebuild
from gladiator.store.stored import StoredDeadline, Turn

__all__ = ["CreatedMatch", "Elsewhere", "Hub", "NotBroken", "Unavailable"]

log = logging.getLogger("gladiator.server")

FINISHED_KEPT = 32  # finished matches kept in memory for HTTP lookers (sockets keep theirs)


class Unavailable(Exception):
    """A stored match that cannot be brought back (its data is broken); the message says why,
    and `failure` where its orders stop replaying (it can be resumed from its last good step,
    `Hub.resume_from_good`)."""

    def __init__(self, message: str, failure: Failure | None = None) -> None:
        super().__init__(message)
        self.failure = failure


class NotBroken(Exception):
    """`Hub.resume_from_good` on a match that has nothing to drop; the message says why."""


class Elsewhere(Exception):
    """Another server process, alive, holds the match: its clients go to `url` (OW5)."""

    def __init__(self, match_id: str, url: str) -> None:
        super().__init__(f"match {match_id} is held by the server at {url or 'another address'}")
        self.url = url


@dataclass(frozen=True)
class CreatedMatch:
    live: LiveMatch
    tokens: dict[str, str]  # human seat -> its token
    spectator: str
    emails: frozenset[str] = frozenset()  # the seats given an address for notices (CP5)


class Hub:
    """Every match this server holds in memory: running ones always, finished ones while
    someone is looking at them."""

    def __init__(
        self,
        store: Store,
        policy: AbandonPolicy | None = None,
        retry: RetryPolicy | None = None,
        ownership: Ownership | None = None,
        bots: BotPolicy | None = None,
        deadlines: DeadlinePolicy | None = None,
        mail: MailPolicy | None = None,
    ) -> None:
        self.store = store
        self.policy = policy or AbandonPolicy()
        bots = bots or BotPolicy()
        if bots.pause_after is None:  # HF4: bots pause on the abandonment clock
            bots = replace(bots, pause_after=self.policy.abandon_after)
        self.bots = bots
        self.bot_pool = BotPool(bots, self.policy.clock)
        self.retry = retry or RetryPolicy()
        self.ownership = ownership or Ownership(store)
        self._beating: asyncio.Task[None] | None = None
        # The other processes on this database: a page one of them served may call this one
        # once its match moved here (OW5).
        self.peer_origins: frozenset[str] = frozenset()
        self.abandoner = Abandoner(store, self.policy, lambda: self.live.values())
        self.deadlines = deadlines or DeadlinePolicy()
        self.keeper = DeadlineKeeper(
            store, self.deadlines, lambda: self.live.values(), self.policy.clock
        )
        # E-mail notices (server/mail_notices.py, CP5): none without an SMTP server. Their
        # links lead where players reach this process, unless the policy names a place.
        if mail is not None and not mail.public_url:
            mail = replace(mail, public_url=self.ownership.url)
        if mail is not None and not mail.public_url:
            raise ValueError("e-mail notices need the arena's public URL for their links")
        self.mail = mail
        self.notifier = (
            None
            if mail is None
            else Notifier(store, mail, lambda: self.live.values(), self.policy.clock)
        )
        self.live: dict[str, LiveMatch] = {}
        self._loading = asyncio.Lock()
        # Told the id of every match whose end is stored (the campaigns settle their fights).
        self.on_finish: Callable[[str], None] | None = None

    async def resume_all(self) -> None:
        """Bring back every running match of the store (a broken one is logged and skipped),
        then start the abandonment clocks."""
        await self.abandoner.before_resume()
        await asyncio.to_thread(self.ownership.register)
        await asyncio.to_thread(self.ownership.claim_orphans)
        matches, problems = await asyncio.to_thread(self.store.running, self.ownership.me)
        for problem in problems:
            log.warning("not resumed: %s", problem)
        for stored in matches:
            try:
                live = await asyncio.to_thread(self._rebuild, stored)
            except Unavailable as exc:
                log.warning("not resumed: match %s: %s", stored.id, exc)
                continue
            self.live[stored.id] = live
            self._warm_for(live)
            async with live.lock:
                await live.changed()
        log.info("resumed %d running matches", len(self.live))
        self.abandoner.start()
        self.keeper.start()
        if self.notifier is not None:
            self.notifier.start()
        self._beating = asyncio.get_running_loop().create_task(self._beat())

    async def _beat(self) -> None:
        """The heartbeat, and the takeover of the matches of processes that died (OW2, OW3)."""
        while True:
            await asyncio.sleep(self.ownership.policy.heartbeat)
            try:
                await asyncio.to_thread(self.ownership.beat)
                taken = await asyncio.to_thread(self.ownership.claim_orphans)
                self.peer_origins = await asyncio.to_thread(self.ownership.peer_origins)
            except StoreError as exc:
                log.warning("heartbeat: %s", exc)
                continue
            for match_id in taken:
                if match_id not in self.live:
                    try:
                        await self._take_over(match_id)
                    except Exception:  # one broken match must not stop the heartbeat
                        log.exception("match %s: the takeover failed", match_id)

    async def _take_over(self, match_id: str) -> None:
        async with self._loading:
            try:
                stored = await asyncio.to_thread(self.store.load, match_id)
                if stored is None or stored.status != "running" or match_id in self.live:
                    return
                live = await asyncio.to_thread(self._rebuild, stored)
            except (StoreError, Unavailable) as exc:
                log.warning("not taken over: match %s: %s", match_id, exc)
                return
            self.live[match_id] = live
        self._warm_for(live)
        log.info("took over match %s", match_id)
        async with live.lock:
            await live.changed()

    def _warm_for(self, live: LiveMatch) -> None:
        """A match whose late seats a bot plays (CP2) has its bot workers started at once."""
        if live.deadline is not None and live.deadline.then == "bot" and not live.over:
            self.bot_pool.warm()

    def _rebuild(self, stored: StoredMatch) -> LiveMatch:
        try:
            return LiveMatch(
                self.store,
                stored,
                rebuild(stored),
                self._forget,
                self._finished,
                self.policy.clock,
                self.retry,
                self.ownership.me,
                self._moved,
                self.bot_pool,
            )
        except BrokenMatch as exc:
            raise Unavailable(str(exc), exc.failure) from None
        except (StoreError, ValueError) as exc:  # ValueError: a bot this program lacks
            raise Unavailable(str(exc)) from None

    async def get(self, match_id: str) -> LiveMatch | None:
        """The live match, loading it from the store if need be; None if there is none;
        Unavailable if it is stored but broken."""
        live = self.live.get(match_id)
        if live is not None:
            return live
        async with self._loading:
            live = self.live.get(match_id)
            if live is not None:
                return live
            stored = await self._claim_and_load(match_id)
            if stored is None:
                return None
            live = await asyncio.to_thread(self._rebuild, stored)
            if stored.status != "running":
                self._evict_idle_finished(keep=FINISHED_KEPT - 1)
            self.live[match_id] = live
        if stored.status == "running":
            self._warm_for(live)
            async with live.lock:
                await live.changed()
        return live

    async def _claim_and_load(self, match_id: str) -> StoredMatch | None:
        """Claim the match for this process and load it; Elsewhere if another live process
        holds it, Unavailable if the store cannot say. Caller holds `_loading`."""
        try:
            holder = await asyncio.to_thread(self.ownership.claim, match_id)
            stored = await asyncio.to_thread(self.store.load, match_id)
        except StoreError as exc:
            raise Unavailable(str(exc)) from None
        if holder is not None:
            raise Elsewhere(match_id, holder.url)
        return stored

    async def resume_from_good(self, match_id: str) -> tuple[Failure, int]:
        """Resume a running match whose stored orders stop replaying from its last good step:
        the failing decision's orders and every later one go to the audit (store/voids.py),
        then the match is loaded. The failure and how many orders were dropped; NotBroken if
        there is nothing to drop, Elsewhere if another process holds it (HF5)."""
        async with self._loading:
            if match_id in self.live:
                raise NotBroken(f"match {match_id} is being played: nothing to resume")
            stored = await self._claim_and_load(match_id)
            if stored is None:
                raise NotBroken(f"there is no match {match_id}")
            if stored.status != "running":
                raise NotBroken(
                    f"match {match_id} is {stored.status}: its end stands (its replay shows "
                    "it to its last good step)"
                )
            try:
                await asyncio.to_thread(rebuild, stored)
            except BrokenMatch as exc:
                failure = exc.failure
            except StoreError as exc:
                raise Unavailable(str(exc)) from None
            else:
                raise NotBroken(f"match {match_id} replays to its last order: nothing to drop")
            reason = f"resumed from step {failure.step}: {failure.reason}"
            try:
                dropped = await asyncio.to_thread(
                    self.store.voids.drop_tail, match_id, failure.first_seq, reason
                )
            except StoreError as exc:
                raise Unavailable(str(exc)) from None
        log.warning(
            "match %s: resumed from step %d; %d stored orders dropped (%s)",
            match_id,
            failure.step,
            dropped,
            failure.reason,
        )
        await self.get(match_id)
        return failure, dropped

    def _evict_idle_finished(self, keep: int) -> None:
        """Finished matches loaded for a look but watched by no socket: keep the last few."""
        idle = [m for m in self.live.values() if m.finish_stored and not m.connections]
        for m in idle[: max(0, len(idle) - keep)]:
            del self.live[m.id]

    def _finished(self, match_id: str) -> None:
        if self.on_finish is not None:
            self.on_finish(match_id)

    def _moved(self, live: LiveMatch) -> None:
        if self.live.get(live.id) is live:
            del self.live[live.id]

    def _forget(self, live: LiveMatch) -> None:
        """A finished match nobody watches leaves memory (the store has its record)."""
        if self.live.get(live.id) is live:
            del self.live[live.id]

    async def create(
        self,
        ruleset: str,
        options: Mapping[str, Any],
        seats: Mapping[str, str],
        seed: int | None,
        *,
        match_id: str | None = None,
        seat_hashes: Mapping[str, str] | None = None,
        abandonable: bool = True,
        deadline: StoredDeadline | None = None,
        emails: Mapping[str, str] | None = None,
    ) -> CreatedMatch:
        """A new match: `seats` maps each seat to "human", "bot:NAME[@BUDGET]" or "level:LEVEL"
        (easy, normal, hard: stored as the level's bot and budget) (left out: human).
        ValueError (one line) for a bad ruleset, option, seat or bot. `match_id` names it (a
        campaign's fight: one id per fight, so it is never created twice); `seat_hashes` gives
        a human seat the hash of a token its player already holds (a lanista's link);
        `abandonable`: the abandonment clocks apply (if it has a human seat and no `deadline`;
        AB1, AB5, CP4); `deadline`: a correspondence match's clock (server/correspondence.py);
        `emails`: human seats' addresses for its notices (server/mail.py, CP5).
        A bot's budget over the server's cap is refused (HF2); a level's plays at the cap."""
        rs = registry.get(ruleset)
        match = Match(rs, options, seed=seed, atomic=True)
        unknown = sorted(set(seats) - set(match.seats))
        if unknown:
            raise ValueError(
                f"no seat {unknown[0]!r} in {rs.name}; seats: {', '.join(match.seats)}"
            )
        tokens: dict[str, str] = {}
        stored_seats: list[StoredSeat] = []
        for seat in match.seats:
            spec = seats.get(seat, "human").strip().lower()
            label = rs.seat_label(match.state, seat)
            if spec == "human" and seat_hashes is not None and seat in seat_hashes:
                stored_seats.append(StoredSeat(seat, "human", None, seat_hashes[seat], label))
            elif spec == "human":
                tokens[seat] = new_token()
                stored_seats.append(
                    StoredSeat(seat, "human", None, hash_token(tokens[seat]), label)
                )
            elif spec.startswith("bot:"):
                try:
                    bot = parse_spec(spec[4:])
                except ValueError as exc:
                    raise ValueError(f"seat {seat}: {exc}") from None
                cap = self.bots.max_budget
                if bot.budget is not None and bot.budget > cap:  # HF2
                    raise ValueError(
                        f"seat {seat}: bot budget {bot.budget:g} s is over this server's cap "
                        f"of {cap:g} s a decision"
                    )
                bot.make()  # a plugin that cannot load is refused now, not mid-match
                stored_seats.append(StoredSeat(seat, "bot", bot.text, None, label))
            elif spec.startswith("level:"):
                level = level_for(rs.name, spec[6:])
                level.spec.make()
                stored_seats.append(StoredSeat(seat, "bot", level.spec.text, None, label))
            else:
                raise ValueError(
                    f"seat {seat}: say 'human' or 'bot:NAME' (or 'level:LEVEL'), not {spec!r}"
                )
        contacts = check_emails(emails or {}, stored_seats, deadline, self.mail)
        spectator = new_token()
        match_id = match_id or new_match_id()
        humans = any(s.kind == "human" for s in stored_seats)
        abandonable = abandonable and humans and deadline is None
        stored_at = at(self.policy.clock())
        turn = Turn(stored_at, tuple(match.waiting_for()))
        await asyncio.to_thread(
            functools.partial(
                self.store.create_match,
                match_id=match_id,
                ruleset=rs.name,
                options=match.options,
                seed=match.seed,
                nonce=match.nonce,
                commitment=match.commitment,
                seats=stored_seats,
                spectator_hash=hash_token(spectator),
                abandonable=abandonable,
                created_at=stored_at,
                owner=self.ownership.me,
                deadline=deadline,
                waiting=turn.waiting,
                emails=contacts,
            ),
        )
        stored = StoredMatch(
            id=match_id,
            ruleset=rs.name,
            options=match.options,
            seed=match.seed,
            nonce=match.nonce,
            commitment=match.commitment,
            status="running",
            created_at=stored_at,
            finished_at=None,
            outcome=None,
            spectator_hash=hash_token(spectator),
            seats=tuple(stored_seats),
            orders=(),
            abandonable=abandonable,
            deadline=deadline,
            turn=turn,
        )
        live = LiveMatch(
            self.store,
            stored,
            match,
            self._forget,
            self._finished,
            self.policy.clock,
            self.retry,
            self.ownership.me,
            self._moved,
            self.bot_pool,
        )
        self.live[match_id] = live
        self._warm_for(live)
        async with live.lock:
            await live.changed()
        return CreatedMatch(live, tokens, spectator, frozenset(contacts))

    def stop(self) -> None:
        self.abandoner.stop()
        self.keeper.stop()
        if self.notifier is not None:
            self.notifier.stop()
        if self._beating is not None:
            self._beating.cancel()
        for live in self.live.values():
            live.stop()
        self.bot_pool.close()  # after the matches: their bots' tasks are cancelled, not failed
        self.ownership.retire()
