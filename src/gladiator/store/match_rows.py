"""The rows of a stored match: building them from what the server holds, and reading them back
into what the resumer and the lists are promised (`Store`'s helpers)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from gladiator.core.seeding import matches_commitment
from gladiator.store.errors import StoreError
from gladiator.store.models import MatchRow, OrderRow, SeatRow
from gladiator.store.stored import MatchSummary, StoredDeadline, StoredMatch, StoredSeat, Turn

__all__ = [
    "STATUSES",
    "check_seats",
    "deadline_of",
    "json_object",
    "now",
    "seat_rows",
    "stored_match",
    "summary",
    "to_json",
    "turn_of",
    "utc",
    "waiting_json",
]

# "void": ended by the abandonment clock with nobody having played (docs/web.md, AB2).
STATUSES = ("open", "running", "finished", "void")
SEAT_KINDS = ("human", "bot")


def now() -> datetime:
    return datetime.now(UTC)


def utc(value: datetime) -> datetime:
    # SQLite hands back naive datetimes; everything was written in UTC.
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def to_json(value: dict[str, Any], what: str) -> str:
    try:
        return json.dumps(value)
    except (TypeError, ValueError) as exc:
        raise StoreError(f"the {what} is not plain JSON data: {exc}") from None


def json_object(text: str | None, what: str, match_id: str) -> dict[str, Any] | None:
    if text is None:
        return None
    try:
        value = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise StoreError(f"match {match_id}: its {what} is not valid JSON") from None
    if not isinstance(value, dict):
        raise StoreError(f"match {match_id}: its {what} is not a JSON object")
    return value


def waiting_json(seats: Sequence[str]) -> str:
    return json.dumps(list(seats))


def deadline_of(row: MatchRow) -> StoredDeadline | None:
    if row.deadline_s is None or row.on_deadline is None:
        return None
    return StoredDeadline(int(row.deadline_s), str(row.on_deadline), row.deadline_bot)


def turn_of(row: MatchRow) -> Turn | None:
    """The current decision, as far as the row says it (a broken `waiting` reads as none)."""
    if row.turn_at is None or row.waiting is None:
        return None
    try:
        waiting = json.loads(row.waiting)
    except (json.JSONDecodeError, RecursionError):
        return None
    if not isinstance(waiting, list) or not all(isinstance(s, str) for s in waiting):
        return None
    return Turn(utc(row.turn_at), tuple(waiting))


def seat_rows(seats: Sequence[StoredSeat]) -> list[SeatRow]:
    return [
        SeatRow(
            seat=s.seat,
            position=i,
            kind=s.kind,
            bot=s.bot,
            token_hash=s.token_hash,
            label=s.label,
        )
        for i, s in enumerate(seats)
    ]


def check_seats(match_id: str, seats: Sequence[StoredSeat]) -> None:
    if not seats:
        raise StoreError(f"match {match_id}: a match needs at least one seat")
    names = [s.seat for s in seats]
    if len(set(names)) != len(names):
        raise StoreError(f"match {match_id}: seat names repeat ({', '.join(names)})")
    for s in seats:
        problem = _seat_problem(s.kind, s.bot)
        if problem:
            raise StoreError(f"match {match_id}: seat {s.seat} {problem}")


def _seat_problem(kind: str, bot: str | None) -> str | None:
    if kind not in SEAT_KINDS:
        return f"is of unknown kind {kind!r} (known: {', '.join(SEAT_KINDS)})"
    if kind == "bot" and not bot:
        return "is a bot without a bot name"
    return None


def stored_match(
    row: MatchRow, seats: Sequence[SeatRow], orders: Sequence[OrderRow]
) -> StoredMatch:
    """Check what `load` promises the resumer, naming the first problem found."""
    mid = row.id
    if row.status not in STATUSES:
        raise StoreError(f"match {mid}: unknown status {row.status!r}")
    if not seats:
        raise StoreError(f"match {mid}: it has no seats (the database was left half-written)")
    for seat in seats:
        problem = _seat_problem(seat.kind, seat.bot)
        if problem:
            raise StoreError(f"match {mid}: seat {seat.seat} {problem}")
    names = {seat.seat for seat in seats}
    for expected, order in enumerate(orders):
        if order.seq != expected:
            raise StoreError(
                f"match {mid}: order seq {expected} is missing (next stored is {order.seq})"
            )
        if order.seat not in names:
            raise StoreError(
                f"match {mid}: order {order.seq} is for seat {order.seat!r}, "
                "which the match does not have"
            )
    if not matches_commitment(row.seed, row.nonce, row.commitment):
        raise StoreError(f"match {mid}: its seed does not match its commitment")
    options = json_object(row.options, "options", mid)
    assert options is not None  # the column is NOT NULL
    return StoredMatch(
        id=mid,
        ruleset=row.ruleset,
        options=options,
        seed=row.seed,
        nonce=row.nonce,
        commitment=row.commitment,
        status=row.status,
        created_at=utc(row.created_at),
        finished_at=None if row.finished_at is None else utc(row.finished_at),
        outcome=json_object(row.outcome, "outcome", mid),
        spectator_hash=row.spectator_hash,
        seats=tuple(
            StoredSeat(
                seat=s.seat, kind=s.kind, bot=s.bot, token_hash=s.token_hash, label=s.label or ""
            )
            for s in seats
        ),
        orders=tuple((o.seat, o.order_text) for o in orders),
        abandonable=bool(row.abandonable),
        active_at=None if row.active_at is None else utc(row.active_at),
        deadline=deadline_of(row),
        turn=turn_of(row),
    )


def summary(row: MatchRow) -> MatchSummary:
    try:
        outcome = json_object(row.outcome, "outcome", row.id)
    except StoreError:
        # The public list shows what it can; `load` is where a broken match is reported.
        outcome = None
    return MatchSummary(
        id=row.id,
        ruleset=row.ruleset,
        status=row.status,
        created_at=utc(row.created_at),
        seats=tuple((s.seat, s.kind, s.label or s.bot or "") for s in row.seats),
        outcome=outcome,
        deadline=deadline_of(row),
        turn=turn_of(row) if row.status == "running" else None,
    )
