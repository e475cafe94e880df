"""`Store`: matches, their seats and their accepted orders in SQLite or PostgreSQL.

Every call opens a short-lived Session on the Store's one Engine and commits before it returns, so
the server may acknowledge an order as soon as `add_order` has returned, from any thread.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, selectinload, sessionmaker

from gladiator.core.record import MatchRecord
from gladiator.core.seeding import matches_commitment
from gladiator.store.campaign_clocks import CampaignClocks
from gladiator.store.campaign_tokens import CampaignTokens
from gladiator.store.campaigns import CampaignStore
from gladiator.store.contacts import Contacts, add_contacts, seat_hashes
from gladiator.store.engine import database_errors, open_engine, serialiser
from gladiator.store.errors import NotOwner, StoreError
from gladiator.store.match_rows import (
    STATUSES,
    check_seats,
    json_object,
    now,
    seat_rows,
    stored_match,
    summary,
    to_json,
    utc,
    waiting_json,
)
from gladiator.store.models import MatchRow, OrderRow, SeatRow
from gladiator.store.owners import Owners
from gladiator.store.schema import prepare_schema
from gladiator.store.stored import MatchSummary, StoredDeadline, StoredMatch, StoredSeat, Turn
from gladiator.store.tokens import SEAT_SCOPE, hash_token, new_token, token_matches
from gladiator.store.voids import Voids

__all__ = ["Store"]


class Store:
    def __init__(self, url: str = "sqlite:///gladiator.db") -> None:
        self._engine = open_engine(url)
        self._lock = serialiser(self._engine)
        self._sessions = sessionmaker(self._engine, expire_on_commit=False)
        try:
            prepare_schema(self._engine)
        except BaseException:
            self._engine.dispose()
            raise

    def close(self) -> None:
        self._engine.dispose()

    @property
    def campaigns(self) -> CampaignStore:
        """The campaigns of this database, on this Store's connections."""
        return CampaignStore.sharing(self._engine, self._lock)

    @property
    def campaign_clocks(self) -> CampaignClocks:
        """The campaigns' correspondence deadlines (CP8)."""
        return CampaignClocks(self._engine, self._lock)

    @property
    def owners(self) -> Owners:
        """Which server process holds which running match (store/owners.py)."""
        return Owners(self._engine, self._lock)

    @property
    def contacts(self) -> Contacts:
        """The seats' e-mail contacts (store/contacts.py, CP5-CP7)."""
        return Contacts(self._engine, self._lock)

    @property
    def voids(self) -> Voids:
        """The audit of orders taken out of matches (store/voids.py, HF1)."""
        return Voids(self._engine, self._lock)

    @property
    def campaign_tokens(self) -> CampaignTokens:
        """The campaign lanistas' token hashes, on this Store's connections."""
        return CampaignTokens(self._engine, self._lock)

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    @contextmanager
    def _session(self, what: str, *, conflict: str | None = None) -> Iterator[Session]:
        """One transaction, committed on leaving; a database error becomes a StoreError."""
        with (
            self._lock,
            database_errors(what, conflict=conflict),
            self._sessions.begin() as session,
        ):
            yield session

    # -- writing -----------------------------------------------------------------------------
    def create_match(
        self,
        *,
        match_id: str,
        ruleset: str,
        options: dict[str, Any],
        seed: int,
        nonce: str,
        commitment: str,
        seats: Sequence[StoredSeat],
        spectator_hash: str,
        abandonable: bool = False,
        created_at: datetime | None = None,
        owner: str | None = None,
        deadline: StoredDeadline | None = None,
        waiting: Sequence[str] = (),
        emails: Mapping[str, str] | None = None,
    ) -> None:
        """Store a new match with its seats in one transaction, as `running`; `abandonable`:
        the abandonment clocks apply to it; `created_at`: now, unless given; `owner`: the
        server process that holds it (store/owners.py); `deadline`: a correspondence match's
        clock (CP1); `waiting`: the seats its first decision waits for, asked at creation;
        `emails`: human seats' addresses for notices (store/contacts.py, CP5)."""
        check_seats(match_id, seats)
        if not matches_commitment(seed, nonce, commitment):
            raise StoreError(f"match {match_id}: its seed does not match its commitment")
        created_at = created_at or now()
        row = MatchRow(
            id=match_id,
            ruleset=ruleset,
            options=to_json(options, "options"),
            seed=seed,
            nonce=nonce,
            commitment=commitment,
            status="running",
            created_at=created_at,
            spectator_hash=spectator_hash,
            abandonable=abandonable,
            owner=owner,
            seats=seat_rows(seats),
            deadline_s=None if deadline is None else deadline.seconds,
            on_deadline=None if deadline is None else deadline.then,
            deadline_bot=None if deadline is None else deadline.bot,
            turn_at=created_at,
            waiting=waiting_json(waiting),
        )
        with self._adding(match_id) as session:
            session.add(row)
            if emails:
                session.flush()  # the seats' rows before their contacts' (a foreign key)
                add_contacts(session, match_id, emails)

    @contextmanager
    def _adding(self, match_id: str) -> Iterator[Session]:
        what = f"cannot store match {match_id}"
        exists = "a match with that id already exists"
        with self._session(what, conflict=exists) as session:
            if session.get(MatchRow, match_id) is not None:
                raise StoreError(f"{what}: {exists}")
            yield session

    def add_finished(
        self,
        *,
        match_id: str,
        options: dict[str, Any],
        seats: Sequence[StoredSeat],
        outcome: dict[str, Any],
        record: dict[str, Any],
    ) -> None:
        """Store, in one transaction, a match of bots played to its end elsewhere (a campaign's
        bot-only fight), with its record and its orders, step by step in seat order, so that
        it is replayed and rebuilt as any finished match is."""
        rec = MatchRecord.from_dict(record)
        check_seats(match_id, seats)
        if rec.seed is None or rec.nonce is None:
            raise StoreError(f"match {match_id}: a finished match's record reveals its seed")
        if not matches_commitment(rec.seed, rec.nonce, rec.seed_commitment):
            raise StoreError(f"match {match_id}: its seed does not match its commitment")
        with self._adding(match_id) as session:
            session.add(
                MatchRow(
                    id=match_id,
                    ruleset=rec.ruleset,
                    options=to_json(options, "options"),
                    seed=rec.seed,
                    nonce=rec.nonce,
                    commitment=rec.seed_commitment,
                    status="finished",
                    created_at=now(),
                    finished_at=now(),
                    outcome=to_json(outcome, "outcome"),
                    record=to_json(record, "record"),
                    spectator_hash=hash_token(new_token()),
                    abandonable=False,
                    seats=seat_rows(seats),
                )
            )
            session.flush()  # the match's row before its orders' (their foreign key)
            orders = [(seat, text) for step in rec.steps for seat, text in step.items()]
            stamp = now()
            session.add_all(
                OrderRow(match_id=match_id, seq=seq, seat=seat, order_text=text, at=stamp)
                for seq, (seat, text) in enumerate(orders)
            )

    def add_order(
        self,
        match_id: str,
        seq: int,
        seat: str,
        order: str,
        active_at: datetime | None = None,
        owner: str | None = None,
        *,
        turn: Turn | None = None,
        due_at: datetime | None = None,
    ) -> None:
        """Store an accepted order; committed before returning. Orders must come seq 0, 1, ...
        `active_at` (a human's order) is stored as the match's last human activity with it.
        `owner`: the server process storing it, refused (NotOwner) if another holds the match.
        `turn`: the decision after this order (CP1); `due_at`: the deadline that had passed
        when the server gave this order in the seat's name (CP2)."""
        what = f"cannot store order {seq} of match {match_id}"
        # The conflict is another writer storing the same seq between the count and the insert.
        duplicate = "an order with that seq is already stored"
        with self._session(what, conflict=duplicate) as session:
            found = session.execute(
                select(MatchRow.status, MatchRow.owner).where(MatchRow.id == match_id)
            ).first()
            if found is None:
                raise StoreError(f"{what}: there is no such match")
            status, holder = found
            if status != "running":
                raise StoreError(f"{what}: the match is {status}")
            if owner is not None and holder != owner:
                raise NotOwner(f"{what}: another server process holds the match now")
            known = session.scalars(
                select(SeatRow.seat).where(SeatRow.match_id == match_id).order_by(SeatRow.position)
            ).all()
            if seat not in known:
                raise StoreError(
                    f"{what}: the match has no seat {seat!r} (seats: {', '.join(known)})"
                )
            count = (
                session.scalar(
                    select(func.count()).select_from(OrderRow).where(OrderRow.match_id == match_id)
                )
                or 0
            )
            if seq < count:
                stored = session.get(OrderRow, (match_id, seq))
                if stored is not None and (stored.seat, stored.order_text) == (seat, order):
                    return  # a retry whose first commit landed though its answer was lost (HC6)
                raise StoreError(f"{what}: an order with that seq is already stored")
            if seq != count:
                # A gap would make the match impossible to resume, so it is never written.
                raise StoreError(f"{what}: the next order of this match is seq {count}")
            session.add(
                OrderRow(
                    match_id=match_id,
                    seq=seq,
                    seat=seat,
                    order_text=order,
                    at=now(),
                    due_at=due_at,
                )
            )
            changed: dict[str, Any] = {}
            if active_at is not None:
                changed["active_at"] = active_at
            if turn is not None:
                changed.update(turn_at=turn.since, waiting=waiting_json(turn.waiting))
            if changed:
                session.execute(update(MatchRow).where(MatchRow.id == match_id).values(**changed))

    def set_turn(self, match_id: str, turn: Turn) -> None:
        """Store the running match's current decision anew (asked again after a fault, HF1)."""
        with self._session(f"cannot store the turn of match {match_id}") as session:
            session.execute(
                update(MatchRow)
                .where(MatchRow.id == match_id, MatchRow.status == "running")
                .values(turn_at=turn.since, waiting=waiting_json(turn.waiting))
            )

    def touch(self, match_id: str, at: datetime) -> None:
        """Store `at` as the running match's last human activity (a connection)."""
        with self._session(f"cannot store the activity of match {match_id}") as session:
            session.execute(
                update(MatchRow)
                .where(MatchRow.id == match_id, MatchRow.status == "running")
                .values(active_at=at)
            )

    def void(self, match_id: str, outcome: dict[str, Any]) -> None:
        """End a running match that nobody played: status `void`, no record (AB2)."""
        outcome_text = to_json(outcome, "outcome")
        with self._session(f"cannot void match {match_id}") as session:
            done = session.execute(
                update(MatchRow)
                .where(MatchRow.id == match_id, MatchRow.status == "running")
                .values(status="void", finished_at=now(), outcome=outcome_text)
            )
            if getattr(done, "rowcount", 1) != 1:
                raise StoreError(f"cannot void match {match_id}: it is not running")

    def void_silent(self, created_before: datetime, outcome: dict[str, Any]) -> int:
        """Void, in one statement, every abandonable running match created before
        `created_before` in which no human ever did anything; how many (AB4: startup then
        rebuilds none of them)."""
        outcome_text = to_json(outcome, "outcome")
        with self._session("cannot void the silent matches") as session:
            done = session.execute(
                update(MatchRow)
                .where(
                    MatchRow.status == "running",
                    MatchRow.abandonable.is_(True),
                    MatchRow.active_at.is_(None),
                    MatchRow.created_at < created_before,
                )
                .values(status="void", finished_at=now(), outcome=outcome_text)
            )
            return int(getattr(done, "rowcount", 0) or 0)

    def finish(
        self,
        match_id: str,
        outcome: dict[str, Any],
        record: dict[str, Any],
        owner: str | None = None,
    ) -> None:
        """Mark a match finished with its outcome and the final record (seed revealed);
        `owner` as for `add_order`."""
        outcome_text = to_json(outcome, "outcome")
        record_text = to_json(record, "record")
        with self._session(f"cannot finish match {match_id}") as session:
            row = session.get(MatchRow, match_id)
            if row is None:
                raise StoreError(f"cannot finish match {match_id}: there is no such match")
            if row.status == "finished" and row.outcome == outcome_text:
                return  # a retry whose first commit landed though its answer was lost (HC6)
            if row.status == "finished":
                raise StoreError(f"cannot finish match {match_id}: it is already finished")
            if owner is not None and row.owner != owner:
                raise NotOwner(
                    f"cannot finish match {match_id}: another server process holds it now"
                )
            row.status = "finished"
            row.finished_at = now()
            row.outcome = outcome_text
            row.record = record_text

    # -- reading -----------------------------------------------------------------------------
    def load(self, match_id: str) -> StoredMatch | None:
        """The match as stored, or None; StoreError if its stored data cannot resume it."""
        with self._session(f"cannot load match {match_id}") as session:
            row = session.get(MatchRow, match_id, options=[selectinload(MatchRow.seats)])
            if row is None:
                return None
            orders = session.scalars(
                select(OrderRow).where(OrderRow.match_id == match_id).order_by(OrderRow.seq)
            ).all()
            return stored_match(row, row.seats, orders)

    def running(self, owner: str | None = None) -> tuple[list[StoredMatch], list[str]]:
        """Every running match that loads (held by `owner`, if given), and one message for
        each that does not: three queries (matches, their seats, their orders) however many
        matches there are."""
        which = [MatchRow.status == "running"]
        if owner is not None:
            which.append(MatchRow.owner == owner)
        running = select(MatchRow.id).where(*which).scalar_subquery()
        with self._session("cannot list the running matches") as session:
            rows = session.scalars(
                select(MatchRow).where(*which).order_by(MatchRow.created_at, MatchRow.id)
            ).all()
            seats: dict[str, list[SeatRow]] = {}
            for seat in session.scalars(
                select(SeatRow)
                .where(SeatRow.match_id.in_(running))
                .order_by(SeatRow.match_id, SeatRow.position)
            ):
                seats.setdefault(seat.match_id, []).append(seat)
            orders: dict[str, list[OrderRow]] = {}
            for order in session.scalars(
                select(OrderRow)
                .where(OrderRow.match_id.in_(running))
                .order_by(OrderRow.match_id, OrderRow.seq)
            ):
                orders.setdefault(order.match_id, []).append(order)
            session.expunge_all()  # the rows' seats relationship is never loaded from here
        good: list[StoredMatch] = []
        problems: list[str] = []
        for row in rows:
            try:
                good.append(stored_match(row, seats.get(row.id, []), orders.get(row.id, [])))
            except StoreError as exc:
                problems.append(str(exc))
        return good, problems

    def list_matches(self, *, status: str | None = None, limit: int = 100) -> list[MatchSummary]:
        """The newest matches first, public fields only."""
        if status is not None and status not in STATUSES:
            raise StoreError(f"unknown match status {status!r}; known: {', '.join(STATUSES)}")
        if limit < 1:
            raise StoreError(f"the limit must be at least 1, not {limit}")
        query = (
            select(MatchRow)
            .options(selectinload(MatchRow.seats))
            .order_by(MatchRow.created_at.desc(), MatchRow.id)
            .limit(limit)
        )
        if status is not None:
            query = query.where(MatchRow.status == status)
        with self._session("cannot list the matches") as session:
            return [summary(row) for row in session.scalars(query).all()]

    def summaries(self, match_ids: Sequence[str]) -> list[MatchSummary]:
        """The public face of the matches named (those that exist), in the order named."""
        query = (
            select(MatchRow)
            .options(selectinload(MatchRow.seats))
            .where(MatchRow.id.in_(list(match_ids)))
        )
        with self._session("cannot read the matches") as session:
            found = {row.id: summary(row) for row in session.scalars(query).all()}
        return [found[i] for i in dict.fromkeys(match_ids) if i in found]

    def late_orders(self, match_id: str) -> list[tuple[int, datetime]]:
        """The orders the server gave in a seat's name when its deadline passed (CP2): each
        one's seq and the deadline it answered."""
        with self._session(f"cannot read the orders of match {match_id}") as session:
            rows = session.execute(
                select(OrderRow.seq, OrderRow.due_at)
                .where(OrderRow.match_id == match_id, OrderRow.due_at.is_not(None))
                .order_by(OrderRow.seq)
            ).all()
        return [(int(seq), utc(due)) for seq, due in rows if due is not None]

    def record(self, match_id: str) -> dict[str, Any] | None:
        """The final record once the match is finished, else None."""
        with self._session(f"cannot read the record of match {match_id}") as session:
            row = session.execute(
                select(MatchRow.status, MatchRow.record).where(MatchRow.id == match_id)
            ).one_or_none()
        if row is None or row.status != "finished":
            return None
        return json_object(row.record, "record", match_id)

    def seat_for_token(self, match_id: str, token: str) -> str | Literal[False] | None:
        """The seat a token opens, None for the spectator token, False for any other token.

        One token may open several seats (a campaign lanista's men in one bout share his link's
        token): plain, it opens the first of them in table order; `TOKEN:seat` opens that seat
        (a token never holds a colon: it is url-safe base64)."""
        token, _, wanted = token.partition(SEAT_SCOPE)
        with self._session(f"cannot check a token of match {match_id}") as session:
            spectator = session.scalar(
                select(MatchRow.spectator_hash).where(MatchRow.id == match_id)
            )
            if spectator is None:
                return False
            seats = session.execute(seat_hashes(match_id)).all()
        for seat, token_hash, resent_hash in seats:  # a re-sent link opens it too (CP7)
            if (not wanted or seat == wanted) and (
                token_matches(token, token_hash) or token_matches(token, resent_hash)
            ):
                return str(seat)
        if not wanted and token_matches(token, spectator):
            return None
        return False
