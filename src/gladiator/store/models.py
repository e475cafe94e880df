"""The tables: `matches`, `seats`, `orders` (docs/web.md, Storage) and `meta` (schema version).

A match is stored as what replays it: ruleset, options, seed, nonce, commitment and every accepted
order by `seq`. Options, outcome and record are JSON text, so SQLite and PostgreSQL hold the same
bytes. Timestamps are UTC.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    String,
    Text,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

__all__ = [
    "SCHEMA_VERSION",
    "Base",
    "MatchRow",
    "MetaRow",
    "OrderRow",
    "ProcessRow",
    "SeatContactRow",
    "SeatRow",
    "VoidedOrderRow",
]

# The number of the newest migration (store/migrations/versions): each migration writes its number
# into `meta`, so a gladiator that knows fewer migrations refuses a database written by a newer one.
SCHEMA_VERSION = 7


class Base(DeclarativeBase):
    pass


class MetaRow(Base):
    __tablename__ = "meta"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class MatchRow(Base):
    __tablename__ = "matches"
    # The abandonment sweep at startup asks for the running matches that can be abandoned.
    __table_args__ = (Index("ix_matches_abandon", "status", "abandonable"),)

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    ruleset: Mapped[str] = mapped_column(String(64))
    options: Mapped[str] = mapped_column(Text)
    # Seeds are 0..2**63-1 (core.match), which a signed 64-bit integer holds.
    seed: Mapped[int] = mapped_column(BigInteger)
    nonce: Mapped[str] = mapped_column(String(128))
    commitment: Mapped[str] = mapped_column(String(128))
    status: Mapped[str] = mapped_column(String(16), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    outcome: Mapped[str | None] = mapped_column(Text)
    record: Mapped[str | None] = mapped_column(Text)
    spectator_hash: Mapped[str] = mapped_column(String(64))
    # Whether the abandonment clocks apply (docs/web.md, Abandoned matches): a lobby match with
    # a human seat; never a bot-only match or a campaign's fight (AB1, AB5).
    abandonable: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # The last time a human seat did anything (an order, a connection); NULL: never.
    active_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The server process that holds the running match (docs/deploy.md, OW1): only it stores its
    # orders; NULL, or a process whose heartbeat stopped: the next process to want it claims it.
    owner: Mapped[str | None] = mapped_column(String(32), index=True)
    # Correspondence play (docs/web.md, CP1-CP8): seconds a seat has for each decision (NULL: a
    # live match, no deadline), what happens when they run out ("bot": the stand-in bot
    # `deadline_bot` plays that decision; "forfeit": the seat forfeits).
    deadline_s: Mapped[int | None] = mapped_column(Integer)
    on_deadline: Mapped[str | None] = mapped_column(String(16))
    deadline_bot: Mapped[str | None] = mapped_column(String(64))
    # The current decision: when it was first asked, and the seats it still waits for (a JSON
    # list), written with the order that changed them, so any process and the lobby can read
    # whose move it is without holding the match.
    turn_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    waiting: Mapped[str | None] = mapped_column(Text)

    seats: Mapped[list[SeatRow]] = relationship(
        back_populates="match", order_by="SeatRow.position", cascade="all, delete-orphan"
    )


class SeatRow(Base):
    __tablename__ = "seats"

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[str] = mapped_column(String(64), primary_key=True)
    # Table order of the seats (red, blue, ...), which a summary and a resume keep.
    position: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    bot: Mapped[str | None] = mapped_column(String(64))
    token_hash: Mapped[str | None] = mapped_column(String(64))
    label: Mapped[str] = mapped_column(String(200), default="")

    match: Mapped[MatchRow] = relationship(back_populates="seats")


class OrderRow(Base):
    __tablename__ = "orders"
    # An order names a seat of its own match: the database refuses any other, and `load` still
    # reports one that got in where foreign keys were off (an SQLite file edited by hand).
    __table_args__ = (
        ForeignKeyConstraint(
            ["match_id", "seat"], ["seats.match_id", "seats.seat"], ondelete="CASCADE"
        ),
    )

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    # The primary key (match_id, seq) is what refuses a second order under one seq.
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[str] = mapped_column(String(64))
    order_text: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # The deadline that had passed when the server gave this order in the seat's name (CP2);
    # NULL: the seat's own order (or a bot seat's).
    due_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class SeatContactRow(Base):
    """A seat's e-mail address for correspondence notices (CP5-CP7): never shown in any view,
    never in a record. `unsubscribe_hash` checks the unsubscribe link of its notices;
    `noticed_turn` is the decision last told about, so a notice is sent once per decision,
    even across a restart; `resent_hash` is the token of the link last re-sent (it opens the
    seat as the first link does)."""

    __tablename__ = "seat_contacts"
    __table_args__ = (
        ForeignKeyConstraint(
            ["match_id", "seat"], ["seats.match_id", "seats.seat"], ondelete="CASCADE"
        ),
    )

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[str] = mapped_column(String(64), primary_key=True)
    email: Mapped[str] = mapped_column(String(254))
    unsubscribed: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    unsubscribe_hash: Mapped[str] = mapped_column(String(64))
    noticed_turn: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    resent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    resent_hash: Mapped[str | None] = mapped_column(String(64))


class VoidedOrderRow(Base):
    """The audit of orders taken out of a match (ruling HF1): the orders of a decision the
    engine failed on, or a stored tail that no longer replays, dropped to resume the match from
    its last good step. Never replayed; kept to be read."""

    __tablename__ = "voided_orders"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    # The seq it had in `orders`, or would have had (the order that completed the decision,
    # applied to a copy first, is never stored there).
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[str] = mapped_column(String(64))
    order_text: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    voided_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    reason: Mapped[str] = mapped_column(Text)


class ProcessRow(Base):
    """A server process sharing the database (docs/deploy.md): where its clients reach it and
    when it last said it was alive."""

    __tablename__ = "processes"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    url: Mapped[str] = mapped_column(String(300))
    # Host and pid let a process on the same host see at once that another has died (OW3).
    host: Mapped[str] = mapped_column(String(255))
    pid: Mapped[int] = mapped_column(Integer)
    heartbeat_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
