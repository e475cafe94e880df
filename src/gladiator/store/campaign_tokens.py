"""The secret links of a campaign's human lanistas: each lanista's token, kept only as its SHA-256
(as the seats' tokens are), so a leaked database lets nobody act for a lanista.

A table of its own rather than a field of the lanista's document: the document is the campaign's
plain state (shown in views, hashed into the state digest), the token is the server's secret.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AbstractContextManager
from typing import Any, Literal

from sqlalchemy import Engine, ForeignKey, String, insert, select
from sqlalchemy.orm import Mapped, mapped_column, sessionmaker

from gladiator.store.engine import database_errors
from gladiator.store.models import Base
from gladiator.store.tokens import token_matches

__all__ = ["CampaignTokenRow", "CampaignTokens"]


class CampaignTokenRow(Base):
    __tablename__ = "campaign_tokens"

    campaign_id: Mapped[str] = mapped_column(
        ForeignKey("campaigns.id", ondelete="CASCADE"), primary_key=True
    )
    lanista_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64))
    # Where his fights' correspondence notices go (CP5, CP8); NULL: none. Never in a view.
    email: Mapped[str | None] = mapped_column(String(254))


class CampaignTokens:
    """The lanistas' token hashes, on a Store's engine and lock."""

    def __init__(self, engine: Engine, lock: AbstractContextManager[Any]) -> None:
        self._lock = lock
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    def add(
        self,
        campaign_id: str,
        hashes: Mapping[str, str],
        emails: Mapping[str, str] | None = None,
    ) -> None:
        """Store lanista id -> token hash for a campaign already created, with the lanistas'
        addresses for their fights' notices (`emails`, by lanista id)."""
        what = f"cannot store the lanistas' links of campaign {campaign_id}"
        emails = emails or {}
        with self._lock, database_errors(what), self._sessions.begin() as session:
            for lanista_id, token_hash in hashes.items():
                session.execute(
                    insert(CampaignTokenRow).values(
                        campaign_id=campaign_id,
                        lanista_id=lanista_id,
                        token_hash=token_hash,
                        email=emails.get(lanista_id),
                    )
                )

    def emails(self, campaign_id: str) -> dict[str, str]:
        """Lanista id -> the address his fights' notices go to (those who gave one)."""
        what = f"cannot read the lanistas' addresses of campaign {campaign_id}"
        with self._lock, database_errors(what), self._sessions.begin() as session:
            rows = session.execute(
                select(CampaignTokenRow.lanista_id, CampaignTokenRow.email).where(
                    CampaignTokenRow.campaign_id == campaign_id,
                    CampaignTokenRow.email.is_not(None),
                )
            ).all()
        return {str(lid): str(email) for lid, email in rows}

    def hashes(self, campaign_id: str) -> dict[str, str]:
        what = f"cannot read the lanistas' links of campaign {campaign_id}"
        with self._lock, database_errors(what), self._sessions.begin() as session:
            rows = session.execute(
                select(CampaignTokenRow.lanista_id, CampaignTokenRow.token_hash).where(
                    CampaignTokenRow.campaign_id == campaign_id
                )
            ).all()
        return {str(lid): str(h) for lid, h in rows}

    def lanista_for(self, campaign_id: str, token: str) -> str | Literal[False]:
        """The lanista `token` acts for, or False for any other token."""
        for lanista_id, token_hash in self.hashes(campaign_id).items():
            if token_matches(token, token_hash):
                return lanista_id
        return False
