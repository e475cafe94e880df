"""Which server process holds which running match, when several share one database
(docs/deploy.md; rulings OW1-OW5).

Each process has a row in `processes` with a heartbeat. A running match's `owner` is the
process that holds it; only the owner stores its orders (`Store.add_order(owner=...)` refuses
anyone else, so a process that stalled past its lease cannot write after a takeover). A match
whose owner is NULL, has no row, or is dead is claimed by the first process that wants it, in
one compare-and-set UPDATE, so two processes never both win it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, delete, insert, or_, select, update
from sqlalchemy.orm import Session, sessionmaker

from gladiator.store.engine import database_errors
from gladiator.store.models import MatchRow, ProcessRow

__all__ = ["Owner", "Owners", "Peer"]


@dataclass(frozen=True)
class Peer:
    """A process row as read: `dead(peer)` decides, with the heartbeat's age, if it is gone."""

    id: str
    url: str
    host: str
    pid: int
    heartbeat_at: datetime


@dataclass(frozen=True)
class Owner:
    """Another process, alive, that holds the match: where its clients are sent."""

    id: str
    url: str


Dead = Callable[[Peer], bool]


class Owners:
    """The ownership queries, on a Store's engine and lock."""

    def __init__(self, engine: Engine, lock: AbstractContextManager[Any]) -> None:
        self._lock = lock
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    @contextmanager
    def _begin(self, what: str) -> Iterator[Session]:
        """One transaction under the store's lock, database errors as StoreError."""
        with self._lock, database_errors(what), self._sessions.begin() as session:
            yield session

    # -- processes -------------------------------------------------------------------------
    def register(self, peer: Peer) -> None:
        with self._begin("cannot register this server process") as session:
            session.execute(
                insert(ProcessRow).values(
                    id=peer.id,
                    url=peer.url,
                    host=peer.host,
                    pid=peer.pid,
                    heartbeat_at=peer.heartbeat_at,
                )
            )

    def heartbeat(self, process_id: str, at: datetime) -> bool:
        """Say this process is alive; False if its row is gone (a peer removed it as dead)."""
        with self._begin("cannot store this server's heartbeat") as session:
            done = session.execute(
                update(ProcessRow).where(ProcessRow.id == process_id).values(heartbeat_at=at)
            )
            return bool(getattr(done, "rowcount", 1))

    def retire(self, process_id: str) -> int:
        """A process that stops: its row goes and its running matches are let go at once, for
        the next process to claim (OW4); how many."""
        with self._begin("cannot retire this server process") as session:
            done = session.execute(
                update(MatchRow)
                .where(MatchRow.owner == process_id, MatchRow.status == "running")
                .values(owner=None)
            )
            session.execute(delete(ProcessRow).where(ProcessRow.id == process_id))
            return int(getattr(done, "rowcount", 0) or 0)

    def peers(self) -> list[Peer]:
        with self._begin("cannot list the server processes") as session:
            return [_peer(row) for row in session.scalars(select(ProcessRow))]

    # -- matches ---------------------------------------------------------------------------
    def claim(self, match_id: str, me: str, dead: Dead) -> Owner | None:
        """Take the running match unless another live process holds it: None when it is now
        this process's (or was already), else that process. A match not running, or not
        there, is left alone (None: the caller finds out as it loads it)."""
        with self._begin(f"cannot claim match {match_id}") as session:
            owner = session.scalar(
                select(MatchRow.owner).where(MatchRow.id == match_id, MatchRow.status == "running")
            )
            if owner is None or owner == me:
                session.execute(
                    update(MatchRow)
                    .where(MatchRow.id == match_id, MatchRow.status == "running")
                    .where(or_(MatchRow.owner.is_(None), MatchRow.owner == me))
                    .values(owner=me)
                )
                return None
            row = session.get(ProcessRow, owner)
            if row is not None and not dead(_peer(row)):
                return Owner(row.id, row.url)
            taken = session.execute(
                update(MatchRow)
                .where(MatchRow.id == match_id, MatchRow.owner == owner)
                .values(owner=me)
            )
            if getattr(taken, "rowcount", 1) == 1:
                return None
        # Another process took it between the read and the update: ask again.
        return self.claim(match_id, me, dead)

    def claim_orphans(self, me: str, dead: Dead) -> list[str]:
        """Take every running match held by nobody or by a dead process, and forget the dead
        processes; the ids taken."""
        with self._begin("cannot claim the orphaned matches") as session:
            rows = list(session.scalars(select(ProcessRow)))
            alive = {row.id for row in rows if not dead(_peer(row))} | {me}
            candidates = session.execute(
                select(MatchRow.id, MatchRow.owner).where(
                    MatchRow.status == "running",
                    or_(MatchRow.owner.is_(None), MatchRow.owner.not_in(alive)),
                )
            ).all()
            taken: list[str] = []
            for match_id, owner in candidates:
                done = session.execute(
                    update(MatchRow)
                    .where(MatchRow.id == match_id, MatchRow.status == "running")
                    .where(MatchRow.owner.is_(None) if owner is None else MatchRow.owner == owner)
                    .values(owner=me)
                )
                if getattr(done, "rowcount", 1) == 1:
                    taken.append(match_id)
            # A dead process's row goes with its matches; were it only slow, its next
            # heartbeat finds the row gone and registers again (OW2).
            gone = [row.id for row in rows if row.id not in alive]
            if gone:
                session.execute(delete(ProcessRow).where(ProcessRow.id.in_(gone)))
            return taken


def _peer(row: ProcessRow) -> Peer:
    return Peer(row.id, row.url, row.host, row.pid, row.heartbeat_at)
