"""The seats' e-mail contacts of correspondence matches (table `seat_contacts`; rulings CP5-CP7).

An address is written with its match, in the match's own transaction, and read only to send a
notice or a re-sent link: no view, list or record holds it, and `Contact` never prints it.

Every link a mail carries is a secret kept here as a hash only:

- the unsubscribe link's key (CP6) is derived from one random secret of the database (`meta`
  row `mail_secret`) and the match and seat, so every notice, whichever process sends it and
  after any restart, carries the same key, and an older notice's link still works; the row
  keeps its hash, which is what an unsubscribe is checked against;
- a re-sent seat link (CP7) is a fresh token whose hash goes in `resent_hash`: it opens the seat
  beside the first link, never instead of it, and the next re-send replaces it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Engine, Select, and_, or_, select, update
from sqlalchemy.orm import Session, sessionmaker

from gladiator.store.engine import database_errors
from gladiator.store.errors import StoreError
from gladiator.store.match_rows import utc
from gladiator.store.models import MetaRow, SeatContactRow, SeatRow
from gladiator.store.tokens import hash_token, new_token, token_matches

__all__ = ["Contact", "Contacts", "Resent", "add_contacts", "seat_hashes", "unsubscribe_key"]

SECRET_KEY = "mail_secret"


@dataclass(frozen=True)
class Contact:
    """A seat's contact as the notices need it; the address and key stay out of its repr, so a
    log line or a failed assertion that shows one never shows them."""

    seat: str
    email: str = field(repr=False)
    unsubscribed: bool
    noticed_turn: datetime | None  # the start of the last decision told about (UTC)
    key: str = field(repr=False)  # the key of its unsubscribe link


@dataclass(frozen=True)
class Resent:
    """A new link for a seat, to be mailed at once: its token exists nowhere else."""

    email: str = field(repr=False)
    token: str = field(repr=False)
    # The link re-sent before it, which stays valid if this one never leaves (CP7).
    previous_hash: str | None = field(default=None, repr=False)


def unsubscribe_key(secret: str, match_id: str, seat: str) -> str:
    digest = hmac.new(
        secret.encode(), f"unsubscribe\0{match_id}\0{seat}".encode(), hashlib.sha256
    ).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def _secret(session: Session) -> str:
    """The database's secret for unsubscribe keys, made by the first contact ever stored."""
    row = session.get(MetaRow, SECRET_KEY)
    if row is None:
        row = MetaRow(key=SECRET_KEY, value=new_token())
        session.add(row)
        session.flush()
    return row.value


def add_contacts(session: Session, match_id: str, emails: Mapping[str, str]) -> None:
    """Write the contacts of a match whose seats are already in `session` (its creation)."""
    if not emails:
        return
    secret = _secret(session)
    session.add_all(
        SeatContactRow(
            match_id=match_id,
            seat=seat,
            email=email,
            unsubscribe_hash=hash_token(unsubscribe_key(secret, match_id, seat)),
        )
        for seat, email in emails.items()
    )


def seat_hashes(match_id: str) -> Select[str, str | None, str | None]:
    """Each seat of the match in table order, with its token's hash and its re-sent token's
    (CP7: either opens the seat)."""
    return (
        select(SeatRow.seat, SeatRow.token_hash, SeatContactRow.resent_hash)
        .outerjoin(
            SeatContactRow,
            and_(SeatContactRow.match_id == SeatRow.match_id, SeatContactRow.seat == SeatRow.seat),
        )
        .where(SeatRow.match_id == match_id)
        .order_by(SeatRow.position)
    )


def _contact(row: SeatContactRow, secret: str) -> Contact:
    noticed = utc(row.noticed_turn) if row.noticed_turn is not None else None
    key = unsubscribe_key(secret, row.match_id, row.seat)
    return Contact(row.seat, row.email, bool(row.unsubscribed), noticed, key)


class Contacts:
    """The contacts' reads and writes, on a Store's engine and lock."""

    def __init__(self, engine: Engine, lock: AbstractContextManager[Any]) -> None:
        self._lock = lock
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    @contextmanager
    def _begin(self, what: str) -> Iterator[Session]:
        with self._lock, database_errors(what), self._sessions.begin() as session:
            yield session

    def prepare(self) -> None:
        """Make the database's secret now, at a server's start, so that two processes making
        their first contacts at once do not both write it inside a match's creation."""
        try:
            with self._begin("cannot prepare the e-mail contacts") as session:
                _secret(session)
        except StoreError:
            with self._begin("cannot prepare the e-mail contacts") as session:
                _secret(session)  # another process wrote it first: read it

    def add(self, match_id: str, emails: Mapping[str, str]) -> None:
        """Give seats of a stored match an address (a match is usually created with them)."""
        with self._begin(f"cannot store the contacts of match {match_id}") as session:
            add_contacts(session, match_id, emails)

    def of_match(self, match_id: str) -> dict[str, Contact]:
        """The match's contacts by seat (unsubscribed ones included)."""
        with self._begin(f"cannot read the contacts of match {match_id}") as session:
            rows = session.scalars(
                select(SeatContactRow).where(SeatContactRow.match_id == match_id)
            ).all()
            if not rows:
                return {}
            secret = _secret(session)
            return {row.seat: _contact(row, secret) for row in rows}

    def contact(self, match_id: str, seat: str) -> Contact | None:
        with self._begin(f"cannot read a contact of match {match_id}") as session:
            row = session.get(SeatContactRow, (match_id, seat))
            return None if row is None else _contact(row, _secret(session))

    def noticed(self, match_id: str, seat: str, turn: datetime) -> None:
        """The seat was told of the decision that began at `turn` (never moved back: a slow
        process cannot undo a newer notice's mark)."""
        with self._begin(f"cannot store a notice of match {match_id}") as session:
            session.execute(
                update(SeatContactRow)
                .where(
                    SeatContactRow.match_id == match_id,
                    SeatContactRow.seat == seat,
                    or_(SeatContactRow.noticed_turn.is_(None), SeatContactRow.noticed_turn < turn),
                )
                .values(noticed_turn=turn)
            )

    def key_matches(self, match_id: str, seat: str, key: str) -> bool:
        """Whether `key` is the seat's unsubscribe key (nothing changes)."""
        with self._begin(f"cannot read a contact of match {match_id}") as session:
            row = session.get(SeatContactRow, (match_id, seat))
            return row is not None and token_matches(key, row.unsubscribe_hash)

    def unsubscribe(self, match_id: str, seat: str, key: str) -> bool:
        """No more mail to the seat's address (CP6); False if the key is not its key. Saying
        it twice is no error."""
        with self._begin(f"cannot unsubscribe a seat of match {match_id}") as session:
            row = session.get(SeatContactRow, (match_id, seat))
            if row is None or not token_matches(key, row.unsubscribe_hash):
                return False
            row.unsubscribed = True
            return True

    def resend(self, match_id: str, seat: str, now: datetime, every: float) -> Resent | None:
        """A new link for the seat and the address to send it to (CP7); None when the seat has
        no address, it unsubscribed, or a link was re-sent less than `every` seconds ago. The
        check and the claim are one UPDATE, so two processes asked at once send one link."""
        token = new_token()
        since = now - timedelta(seconds=every)
        with self._begin(f"cannot re-send a link of match {match_id}") as session:
            previous = session.scalar(
                select(SeatContactRow.resent_hash).where(
                    SeatContactRow.match_id == match_id, SeatContactRow.seat == seat
                )
            )
            done = session.execute(
                update(SeatContactRow)
                .where(
                    SeatContactRow.match_id == match_id,
                    SeatContactRow.seat == seat,
                    SeatContactRow.unsubscribed.is_(False),
                    or_(SeatContactRow.resent_at.is_(None), SeatContactRow.resent_at <= since),
                )
                .values(resent_at=now, resent_hash=hash_token(token))
            )
            if int(getattr(done, "rowcount", 0) or 0) != 1:
                return None
            email = session.scalar(
                select(SeatContactRow.email).where(
                    SeatContactRow.match_id == match_id, SeatContactRow.seat == seat
                )
            )
            if email is None:
                raise StoreError(f"cannot re-send a link of match {match_id}: the contact went")
            return Resent(email, token, previous)

    def resend_failed(
        self, match_id: str, seat: str, token: str, previous_hash: str | None = None
    ) -> None:
        """The re-sent link never left: the seat may ask again at once, and the link re-sent
        before it opens the seat again (a stranger's request in an outage locks nobody out)."""
        with self._begin(f"cannot store a failed re-send of match {match_id}") as session:
            session.execute(
                update(SeatContactRow)
                .where(
                    SeatContactRow.match_id == match_id,
                    SeatContactRow.seat == seat,
                    SeatContactRow.resent_hash == hash_token(token),
                )
                .values(resent_at=None, resent_hash=previous_hash)
            )
