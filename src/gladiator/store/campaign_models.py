"""The campaign tables (docs/web.md, Storage): a campaign, its items, its steps and its ledger.

A campaign state is four collections (meta, lanistas, gladiators, bouts); the store keeps the meta
on the `campaigns` row and one row per item, each item's whole document as JSON text beside the
few columns a page filters on. Every change is a step (`campaign_steps`, seq 0 = the creation),
written with its ledger entries in one transaction; an item's `seq` is the step that last wrote it.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    DateTime,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    String,
    Text,
)
from sqlalchemy.orm import Mapped, mapped_column

from gladiator.store.models import Base

__all__ = [
    "BoutRow",
    "CampaignRow",
    "CampaignStepRow",
    "GladiatorRow",
    "LanistaRow",
    "LedgerEntryRow",
]


class CampaignRow(Base):
    __tablename__ = "campaigns"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    seed: Mapped[int] = mapped_column(BigInteger)
    # The last step applied; the next step must be seq + 1 (the conditional UPDATE that claims it
    # is what refuses a repeated or concurrent step).
    seq: Mapped[int] = mapped_column(Integer)
    meta: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # Correspondence play (CP8): seconds a human lanista has for each decision of his fights
    # and to say he is ready (NULL: none), and the bot that stands in when they pass.
    deadline_s: Mapped[int | None] = mapped_column(Integer)
    deadline_bot: Mapped[str | None] = mapped_column(String(64))


class LanistaRow(Base):
    __tablename__ = "lanistas"

    campaign_id: Mapped[str] = mapped_column(
        ForeignKey("campaigns.id", ondelete="CASCADE"), primary_key=True
    )
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(16))
    doc: Mapped[str] = mapped_column(Text)


class GladiatorRow(Base):
    __tablename__ = "gladiators"
    # A gladiator's lanista is one of his own campaign's; None is the house (challengers, slaves
    # for sale), which the foreign key lets through.
    __table_args__ = (
        ForeignKeyConstraint(
            ["campaign_id", "lanista_id"], ["lanistas.campaign_id", "lanistas.id"]
        ),
        Index("ix_gladiators_lanista", "campaign_id", "lanista_id"),
    )

    campaign_id: Mapped[str] = mapped_column(
        ForeignKey("campaigns.id", ondelete="CASCADE"), primary_key=True
    )
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer)
    lanista_id: Mapped[str | None] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16))
    doc: Mapped[str] = mapped_column(Text)


class BoutRow(Base):
    __tablename__ = "bouts"
    __table_args__ = (Index("ix_bouts_munus", "campaign_id", "munus"),)

    campaign_id: Mapped[str] = mapped_column(
        ForeignKey("campaigns.id", ondelete="CASCADE"), primary_key=True
    )
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer)
    munus: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))
    # The arena matches of the bout's fights (matches.id), a JSON list.
    match_ids: Mapped[str] = mapped_column(Text)
    doc: Mapped[str] = mapped_column(Text)


class CampaignStepRow(Base):
    __tablename__ = "campaign_steps"

    campaign_id: Mapped[str] = mapped_column(
        ForeignKey("campaigns.id", ondelete="CASCADE"), primary_key=True
    )
    # The primary key (campaign_id, seq) refuses a second step under one seq.
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(64))
    payload: Mapped[str] = mapped_column(Text)
    # The campaign's digest of its whole state after this step, as the caller computed it.
    state_digest: Mapped[str] = mapped_column(String(128))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LedgerEntryRow(Base):
    __tablename__ = "ledger_entries"
    # An entry belongs to a stored step: the entries of a step are written with it or not at all.
    __table_args__ = (
        ForeignKeyConstraint(
            ["campaign_id", "seq"],
            ["campaign_steps.campaign_id", "campaign_steps.seq"],
            ondelete="CASCADE",
        ),
        Index("ix_ledger_entries_account", "campaign_id", "account"),
    )

    # SQLite numbers only an INTEGER primary key by itself.
    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer(), "sqlite"), primary_key=True, autoincrement=True
    )
    campaign_id: Mapped[str] = mapped_column(String(64))
    seq: Mapped[int] = mapped_column(Integer)
    account: Mapped[str] = mapped_column(String(128))
    # Sesterces; signed, and the entries of one step sum to 0.
    amount: Mapped[int] = mapped_column(BigInteger)
    memo: Mapped[str] = mapped_column(Text)
