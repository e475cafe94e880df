"""Orders taken out of a stored match, kept in `voided_orders` (ruling HF1).

Two things take orders out, each in one transaction, so a crash leaves either the orders where
they were or their audit rows and the shorter match, never half of it:

- `void_decision`: the engine failed on a complete decision. Its orders already stored (the
  ones held secret until the last came) leave `orders`, and the last one, applied to a copy
  and never stored, is written to the audit beside them.
- `drop_tail`: a stored match whose orders no longer replay (stored before the engine fault was
  caught, or by a program whose rules have changed since) is resumed from its last good step:
  every order from the failing decision's first on leaves `orders`. Only a running match: a
  finished one's end stands (ruling HF5).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, delete, select
from sqlalchemy.orm import Session, sessionmaker

from gladiator.store.engine import database_errors
from gladiator.store.errors import NotOwner, StoreError
from gladiator.store.models import MatchRow, OrderRow, VoidedOrderRow

__all__ = ["VoidedOrder", "Voids"]


@dataclass(frozen=True)
class VoidedOrder:
    seq: int
    seat: str
    order: str
    at: datetime | None
    voided_at: datetime  # as the database hands it back (SQLite: naive UTC)
    reason: str


def _utc(value: datetime | None) -> datetime | None:
    if value is None:
        return None
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Voids:
    """The audit of voided orders, on a Store's engine and lock."""

    def __init__(self, engine: Engine, lock: AbstractContextManager[Any]) -> None:
        self._lock = lock
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    @contextmanager
    def _begin(self, what: str) -> Iterator[Session]:
        with self._lock, database_errors(what), self._sessions.begin() as session:
            yield session

    def void_decision(
        self,
        match_id: str,
        first_seq: int,
        reason: str,
        unstored: Sequence[tuple[str, str]],
        owner: str | None = None,
    ) -> None:
        """Move the running match's orders from `first_seq` on to the audit, with `unstored`
        (seat, order) pairs after them; `owner` as for `Store.add_order`."""
        what = f"cannot void orders of match {match_id}"
        with self._begin(what) as session:
            row = session.get(MatchRow, match_id)
            if row is None:
                raise StoreError(f"{what}: there is no such match")
            if row.status != "running":
                raise StoreError(f"{what}: the match is {row.status}")
            if owner is not None and row.owner != owner:
                raise NotOwner(f"{what}: another server process holds the match now")
            count = self._move(session, match_id, first_seq, reason)
            now = datetime.now(UTC)
            # A retry whose first commit landed (HC6) writes these audit rows twice: harmless,
            # since the audit is only read, and `orders` is the same either way.
            for i, (seat, order) in enumerate(unstored):
                session.add(
                    VoidedOrderRow(
                        match_id=match_id,
                        seq=first_seq + count + i,
                        seat=seat,
                        order_text=order,
                        at=now,
                        voided_at=now,
                        reason=reason,
                    )
                )

    def drop_tail(self, match_id: str, first_seq: int, reason: str) -> int:
        """Resume a running match from before order `first_seq`: move that order and every
        later one to the audit. How many were moved."""
        what = f"cannot resume match {match_id} from order {first_seq}"
        with self._begin(what) as session:
            row = session.get(MatchRow, match_id)
            if row is None:
                raise StoreError(f"{what}: there is no such match")
            if row.status != "running":
                raise StoreError(f"{what}: the match is {row.status}")
            return self._move(session, match_id, first_seq, reason)

    def orders(self, match_id: str) -> list[VoidedOrder]:
        """The voided orders of a match, oldest first."""
        with self._begin(f"cannot read the voided orders of match {match_id}") as session:
            rows = session.scalars(
                select(VoidedOrderRow)
                .where(VoidedOrderRow.match_id == match_id)
                .order_by(VoidedOrderRow.id)
            ).all()
            return [
                VoidedOrder(r.seq, r.seat, r.order_text, _utc(r.at), r.voided_at, r.reason)
                for r in rows
            ]

    @staticmethod
    def _move(session: Session, match_id: str, first_seq: int, reason: str) -> int:
        rows = session.scalars(
            select(OrderRow)
            .where(OrderRow.match_id == match_id, OrderRow.seq >= first_seq)
            .order_by(OrderRow.seq)
        ).all()
        now = datetime.now(UTC)
        for r in rows:
            session.add(
                VoidedOrderRow(
                    match_id=match_id,
                    seq=r.seq,
                    seat=r.seat,
                    order_text=r.order_text,
                    at=r.at,
                    voided_at=now,
                    reason=reason,
                )
            )
        session.execute(
            delete(OrderRow).where(OrderRow.match_id == match_id, OrderRow.seq >= first_seq)
        )
        return len(rows)
