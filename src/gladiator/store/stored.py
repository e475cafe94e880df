"""What the store hands out: frozen plain values, detached from any database session."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

__all__ = ["MatchSummary", "StoredMatch", "StoredSeat"]


@dataclass(frozen=True)
class StoredSeat:
    seat: str
    kind: str  # "human" | "bot"
    bot: str | None  # the bot's name when kind == "bot"
    token_hash: str | None  # None for bots
    label: str = ""


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


@dataclass(frozen=True)
class MatchSummary:
    """The public face of a match: never its seed, nonce or token hashes."""

    id: str
    ruleset: str
    status: str
    created_at: datetime
    seats: tuple[tuple[str, str, str], ...]  # (seat, kind, label or bot name)
    outcome: dict[str, Any] | None
