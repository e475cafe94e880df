"""What the campaign store hands out: frozen plain values, detached from any database session."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

__all__ = ["CampaignSummary", "LedgerLine", "StoredCampaign", "StoredStep"]


@dataclass(frozen=True)
class StoredStep:
    seq: int  # 0 is the creation
    kind: str
    payload: dict[str, Any]
    state_digest: str
    at: datetime


@dataclass(frozen=True)
class LedgerLine:
    seq: int  # the step that wrote it
    account: str  # "lanista:<id>", "bank", "escrow:<bout id>"
    amount: int
    memo: str


@dataclass(frozen=True)
class StoredCampaign:
    id: str
    name: str
    seed: int
    seq: int  # the last step applied
    meta: dict[str, Any]
    # Each item's whole document by its id, as the last step that wrote it gave it.
    lanistas: dict[str, dict[str, Any]]
    gladiators: dict[str, dict[str, Any]]
    bouts: dict[str, dict[str, Any]]
    steps: tuple[StoredStep, ...]  # seq 0, 1, ..., seq
    created_at: datetime
    updated_at: datetime

    @property
    def state_digest(self) -> str:
        """The digest the last step recorded for the state these rows hold."""
        return self.steps[-1].state_digest


@dataclass(frozen=True)
class CampaignSummary:
    """The public face of a campaign: never its seed."""

    id: str
    name: str
    seq: int
    created_at: datetime
    updated_at: datetime
    lanistas: tuple[tuple[str, str, str], ...]  # (id, name, kind)
