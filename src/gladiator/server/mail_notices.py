"""The e-mail notices of a hub's correspondence matches (ruling CP5): a seat with an address is
told once of each decision that waits for it, by the process that holds the match.

Every `policy.interval` seconds the notifier looks at the hub's live matches. A match's contacts
are read once, when it is first looked at, and kept (a match without any costs nothing after
that); the seat's row is read again just before its notice, so an unsubscribe served by another
process, or a notice another process sent before a takeover, is seen. A notice is marked sent
(`seat_contacts.noticed_turn`, the start of the decision it told of) only once the SMTP server
took it: a process that dies before that sends it again after the restart or the takeover,
never twice for a decision it has marked. A notice the server does not take is logged in one
line and tried again `policy.retry_after` seconds later.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Iterable
from dataclasses import dataclass, field
from typing import Any

from gladiator.server.connection import at
from gladiator.server.live_match import LiveMatch
from gladiator.server.mail import MailError, MailPolicy, send_mail
from gladiator.server.mail_texts import notice_message
from gladiator.store import Store, StoreError
from gladiator.store.contacts import Contact

__all__ = ["Notifier"]

log = logging.getLogger("gladiator.server")

SAME = 0.001  # seconds: a decision's start read back from the database (microseconds kept)


@dataclass
class Notifier:
    store: Store
    policy: MailPolicy
    matches: Callable[[], Iterable[LiveMatch]]
    clock: Callable[[], float]
    # match id -> seat -> the start of the last decision told of (-1: none); seats with an
    # address that did not unsubscribe only.
    _known: dict[str, dict[str, float]] = field(default_factory=dict, init=False)
    _retry_at: dict[tuple[str, str], float] = field(default_factory=dict, init=False)
    _paused_until: float = field(default=0.0, init=False)
    # One sweep at a time: two would both see a notice due before either marked it.
    _sweeping: asyncio.Lock = field(default_factory=asyncio.Lock, init=False)
    _task: asyncio.Task[None] | None = field(default=None, init=False)
    _sends: set[asyncio.Task[None]] = field(default_factory=set, init=False)

    def grace(self, live: LiveMatch) -> float:
        """How long a decision waits before its notice: a short deadline's notice still comes
        early in it."""
        seconds = live.deadline.seconds if live.deadline is not None else 0
        return min(self.policy.grace, seconds / 4)

    def due(self, live: LiveMatch, now: float) -> list[str]:
        """The seats of `live` whose notice of the current decision is due now, as far as this
        process knows (contacts loaded)."""
        if live.deadline is None or live.over or now < live.turn_since + self.grace(live):
            return []
        if now >= live.turn_since + live.deadline.seconds:  # too late to tell: CP2 or CP3 now
            return []
        known = self._known.get(live.id, {})
        return [
            seat
            for seat in live.late_seats
            if known.get(seat, live.turn_since) < live.turn_since - SAME
            and self._retry_at.get((live.id, seat), 0.0) <= now
        ]

    async def sweep(self) -> int:
        """Send the notices due; how many the SMTP server took."""
        async with self._sweeping:
            return await self._sweep()

    async def _sweep(self) -> int:
        now = self.clock()
        if now < self._paused_until:
            return 0
        sent = 0
        held = list(self.matches())
        for live in held:
            if live.deadline is None or live.over:
                continue
            if live.id not in self._known:
                self._known[live.id] = await self._load(live.id)
            for seat in self.due(live, now):
                result = await self._notice(live, seat, live.turn_since, now)
                if result is None:  # the server is down: the rest waits for the next try
                    self._paused_until = now + self.policy.retry_after
                    return sent
                sent += result
        ids = {live.id for live in held}
        self._known = {i: known for i, known in self._known.items() if i in ids}
        self._retry_at = {k: t for k, t in self._retry_at.items() if k[0] in ids}
        return sent

    async def _load(self, match_id: str) -> dict[str, float]:
        contacts = await asyncio.to_thread(self.store.contacts.of_match, match_id)
        return {c.seat: _told(c) for c in contacts.values() if not c.unsubscribed}

    async def _notice(self, live: LiveMatch, seat: str, start: float, now: float) -> int | None:
        """One seat's notice: 1 sent, 0 not (nothing to send, or refused), None: the SMTP
        server did not work."""
        known = self._known[live.id]
        contact = await asyncio.to_thread(self.store.contacts.contact, live.id, seat)
        if contact is None or contact.unsubscribed:
            known.pop(seat, None)
            return 0
        known[seat] = _told(contact)
        stale = live.over or live.turn_since != start or seat not in live.late_seats
        if stale or known[seat] >= start - SAME:
            return 0
        assert live.deadline is not None
        message = notice_message(
            public_url=self.policy.public_url,
            to=contact.email,
            match_id=live.id,
            seat=seat,
            label=live.seats[seat].label,
            title=live.match.ruleset.title,
            deadline=live.deadline,
            due=start + live.deadline.seconds,
            now=now,
            key=contact.key,
        )
        try:
            await send_mail(self.policy, message)
        except MailError as exc:
            self._retry_at[(live.id, seat)] = now + self.policy.retry_after
            log.warning(
                "match %s: the notice to seat %s was not sent (tried again in %.0f s): %s",
                live.id,
                seat,
                self.policy.retry_after,
                exc,
            )
            return None if exc.down else 0
        self._retry_at.pop((live.id, seat), None)
        known[seat] = start
        try:
            await asyncio.to_thread(self.store.contacts.noticed, live.id, seat, at(start))
        except StoreError as exc:  # this process remembers; only a restart would send it again
            log.warning("match %s: the notice to seat %s is not marked: %s", live.id, seat, exc)
        return 1

    def spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run a send (a re-sent link) beside the sweeps, cancelled when the hub stops."""
        task = asyncio.get_running_loop().create_task(coro)
        self._sends.add(task)
        task.add_done_callback(self._sends.discard)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        try:
            await asyncio.to_thread(self.store.contacts.prepare)
        except StoreError as exc:  # the first contact stored makes it instead
            log.warning("notices: %s", exc)
        while True:
            try:
                await self.sweep()
            except StoreError as exc:  # the database is away: the next sweep tries again
                log.warning("the notice sweep stopped: %s", exc)
            except Exception:  # a sweep's bug must not stop the notices
                log.exception("the notice sweep failed")
            await asyncio.sleep(self.policy.interval)

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None
        for task in list(self._sends):
            task.cancel()


def _told(contact: Contact) -> float:
    return contact.noticed_turn.timestamp() if contact.noticed_turn is not None else -1.0
