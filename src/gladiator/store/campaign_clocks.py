"""A campaign's correspondence deadline (CP8): how long a human lanista has for each decision
of his fights and to say he is ready, and the bot that stands in when it passes. A server's
matter, not the campaign's rules: kept beside the campaign's row, out of its documents (which
are hashed into its state digest)."""

from __future__ import annotations

from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, select, update
from sqlalchemy.orm import sessionmaker

from gladiator.store.campaign_models import CampaignRow
from gladiator.store.engine import database_errors
from gladiator.store.errors import StoreError
from gladiator.store.stored import StoredDeadline

__all__ = ["CampaignClocks"]


def _utc(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class CampaignClocks:
    """The campaigns' deadlines, on a Store's engine and lock."""

    def __init__(self, engine: Engine, lock: AbstractContextManager[Any]) -> None:
        self._lock = lock
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    def set(self, campaign_id: str, deadline: StoredDeadline) -> None:
        """Give a campaign already created its deadline ("bot" only: CP8)."""
        what = f"cannot store the deadline of campaign {campaign_id}"
        with self._lock, database_errors(what), self._sessions.begin() as session:
            done = session.execute(
                update(CampaignRow)
                .where(CampaignRow.id == campaign_id)
                .values(deadline_s=deadline.seconds, deadline_bot=deadline.bot)
            )
            if getattr(done, "rowcount", 1) != 1:
                raise StoreError(f"{what}: there is no such campaign")

    def deadlines(self) -> dict[str, tuple[StoredDeadline, datetime, int]]:
        """Every campaign with a deadline: it, the time of the campaign's last step (when it
        began waiting for whoever it waits for) and that step's seq."""
        what = "cannot read the campaigns' deadlines"
        with self._lock, database_errors(what), self._sessions.begin() as session:
            rows = session.execute(
                select(
                    CampaignRow.id,
                    CampaignRow.deadline_s,
                    CampaignRow.deadline_bot,
                    CampaignRow.updated_at,
                    CampaignRow.seq,
                ).where(CampaignRow.deadline_s.is_not(None))
            ).all()
        return {
            str(cid): (StoredDeadline(int(seconds or 0), "bot", bot), _utc(updated), int(seq))
            for cid, seconds, bot, updated, seq in rows
        }

    def deadline(self, campaign_id: str) -> StoredDeadline | None:
        what = f"cannot read the deadline of campaign {campaign_id}"
        with self._lock, database_errors(what), self._sessions.begin() as session:
            row = session.execute(
                select(CampaignRow.deadline_s, CampaignRow.deadline_bot).where(
                    CampaignRow.id == campaign_id
                )
            ).first()
        if row is None or row.deadline_s is None:
            return None
        return StoredDeadline(int(row.deadline_s), "bot", row.deadline_bot)
