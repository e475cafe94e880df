"""What the store hands out: frozen plain values, detached from any database session."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

__all__ = ["MatchSummary", "StoredDeadline", "StoredMatch", "StoredSeat", "Turn"]


@dataclass(frozen=True)
class StoredSeat:
    seat: str
    kind: str  # "human" | "bot"
    bot: str | None  # the bot's name when kind == "bot"
    token_hash: str | None  # None for bots
    label: str = ""


@dataclass(frozen=True)
class StoredDeadline:
    """A correspondence match's clock (CP1): seconds a seat has for each decision, and what
    follows when they run out: "bot" (`bot`, a bot spec, plays that decision in the seat's
    name) or "forfeit"."""

    seconds: int
    then: str  # "bot" | "forfeit"
    bot: str | None = None


@dataclass(frozen=True)
class Turn:
    """The current decision as the store keeps it: when it was first asked and the seats it
    still waits for (written with the order that changed them)."""

    since: datetime
    waiting: tuple[str, ...]


@dataclass(frozen=True)
class StoredMatch:
    id: str
    ruleset: str
    options: dict[str, Any]
    seed: int
    nonce: str
    commitment: str
    status: str  # "running" | "finished" | "void"
    created_at: datetime
    finished_at: datetime | None
    outcome: dict[str, Any] | None
    spectator_hash: str
    seats: tuple[StoredSeat, ...]
    # (seat, order text) in the order accepted: seq 0, 1, ...
    orders: tuple[tuple[str, str], ...]
    # The abandonment clocks (docs/web.md): whether they apply, and the last human activity.
    abandonable: bool = False
    active_at: datetime | None = None
    # Correspondence play (CP1): the deadline (None: a live match) and the current decision's
    # start (None: a match stored before there were deadlines, until its next order).
    deadline: StoredDeadline | None = None
    turn: Turn | None = None


@dataclass(frozen=True)
class MatchSummary:
    """The public face of a match: never its seed, nonce or token hashes."""

    id: str
    ruleset: str
    status: str
    created_at: datetime
    seats: tuple[tuple[str, str, str], ...]  # (seat, kind, label or bot name)
    outcome: dict[str, Any] | None
    deadline: StoredDeadline | None = None
    turn: Turn | None = None
