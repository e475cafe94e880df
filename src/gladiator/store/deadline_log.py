"""What the store says of correspondence deadlines once they were applied (the load test's
correspondence mode, server/loadtest_correspondence.py; rulings CP1-CP3): each stand-in order
with the deadline it answered and when it was stored, each deadline forfeit with its deadline
and when it was stored, and the current decision of each running match.

Read-only, on an engine of its own: the load test reads what the servers wrote, with the
servers' own timestamps, while they still run.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from gladiator.store.engine import database_errors, open_engine
from gladiator.store.match_rows import utc
from gladiator.store.models import MatchRow, OrderRow, SeatRow

__all__ = ["Applied", "DeadlineLog", "Waiting"]


@dataclass(frozen=True)
class Applied:
    """A deadline the server applied: `kind` "bot" (a stand-in's order) or "forfeit"; `due`
    the deadline, `at` when the server stored what it did about it."""

    match_id: str
    kind: str
    due: datetime
    at: datetime

    @property
    def lateness(self) -> float:
        return (self.at - self.due).total_seconds()


@dataclass(frozen=True)
class Waiting:
    """A running match with a deadline: its current decision, from when, for whom."""

    match_id: str
    since: datetime
    seconds: int
    humans_waited_for: tuple[str, ...]


class DeadlineLog:
    def __init__(self, url: str) -> None:
        self._engine = open_engine(url)
        self._sessions = sessionmaker(self._engine)

    def close(self) -> None:
        self._engine.dispose()

    def __enter__(self) -> DeadlineLog:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    @contextmanager
    def _read(self) -> Iterator[Session]:
        with database_errors("cannot read the deadlines"), self._sessions() as session:
            yield session

    def applied(self, match_ids: Sequence[str]) -> list[Applied]:
        """Every deadline applied in these matches: the stand-in orders (`orders.due_at`) and
        the deadline forfeits (the outcome's `due_at`, stored at `finished_at`)."""
        ids = list(match_ids)
        found: list[Applied] = []
        with self._read() as session:
            orders = session.execute(
                select(OrderRow.match_id, OrderRow.due_at, OrderRow.at).where(
                    OrderRow.match_id.in_(ids), OrderRow.due_at.is_not(None)
                )
            ).all()
            found += [Applied(m, "bot", utc(due), utc(at)) for m, due, at in orders if due]
            ended = session.execute(
                select(MatchRow.id, MatchRow.outcome, MatchRow.finished_at).where(
                    MatchRow.id.in_(ids), MatchRow.finished_at.is_not(None)
                )
            ).all()
            for match_id, outcome, finished_at in ended:
                forfeit = (json.loads(outcome or "null") or {}).get("forfeit") or {}
                if forfeit.get("reason") == "deadline" and finished_at is not None:
                    due = datetime.fromisoformat(forfeit["due_at"])
                    found.append(Applied(match_id, "forfeit", utc(due), utc(finished_at)))
        return found

    def waiting(self, match_ids: Sequence[str]) -> list[Waiting]:
        """The running matches with a deadline and the human seats their decision waits for
        (`matches.turn_at`, `matches.waiting`, as stored with the order that began it)."""
        ids = list(match_ids)
        out: list[Waiting] = []
        with self._read() as session:
            rows = session.execute(
                select(MatchRow.id, MatchRow.turn_at, MatchRow.waiting, MatchRow.deadline_s).where(
                    MatchRow.id.in_(ids),
                    MatchRow.status == "running",
                    MatchRow.deadline_s.is_not(None),
                    MatchRow.turn_at.is_not(None),
                )
            ).all()
            humans: dict[str, set[str]] = {}
            for match_id, seat in session.execute(
                select(SeatRow.match_id, SeatRow.seat).where(
                    SeatRow.match_id.in_(ids), SeatRow.kind == "human"
                )
            ):
                humans.setdefault(match_id, set()).add(seat)
            for match_id, turn_at, waiting, seconds in rows:
                if turn_at is None or seconds is None:  # not a correspondence match
                    continue
                seats = tuple(
                    s for s in json.loads(waiting or "[]") if s in humans.get(match_id, ())
                )
                out.append(Waiting(match_id, utc(turn_at), int(seconds), seats))
        return out

    def first_stored_after(self, match_ids: Sequence[str], since: datetime) -> dict[str, datetime]:
        """Each match's first order or end stored at `since` or later (a takeover's first act)."""
        ids = list(match_ids)
        first: dict[str, datetime] = {}
        with self._read() as session:
            orders = session.execute(
                select(OrderRow.match_id, func.min(OrderRow.at))
                .where(OrderRow.match_id.in_(ids), OrderRow.at >= since)
                .group_by(OrderRow.match_id)
            ).all()
            ends = session.execute(
                select(MatchRow.id, MatchRow.finished_at).where(
                    MatchRow.id.in_(ids), MatchRow.finished_at >= since
                )
            ).all()
            for match_id, at in [*orders, *ends]:
                if at is not None:
                    at = utc(at)
                    first[match_id] = min(first.get(match_id, at), at)
        return first
