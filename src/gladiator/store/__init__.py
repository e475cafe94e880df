"""Storage of web arena matches and campaigns in SQLite or PostgreSQL (docs/web.md, Storage).

A match is stored as what replays it (ruleset, options, seed, nonce, commitment) plus every
accepted order by `seq`; `gladiator.store.resume.rebuild` turns a stored match back into a live
`Match`. Tokens are stored only as SHA-256 hashes. Campaigns (`CampaignStore`, also
`Store.campaigns`) are stored step by step, each step with its ledger entries in one transaction.
"""

from __future__ import annotations

from gladiator.store.campaign_docs import documents_digest
from gladiator.store.campaigns import CampaignStore
from gladiator.store.errors import NotOwner, StoreError, StoreUnavailable
from gladiator.store.models import SCHEMA_VERSION
from gladiator.store.repository import Store
from gladiator.store.stored import MatchSummary, StoredMatch, StoredSeat
from gladiator.store.stored_campaign import CampaignSummary, LedgerLine, StoredCampaign, StoredStep
from gladiator.store.tokens import hash_token, new_match_id, new_token

__all__ = [
    "SCHEMA_VERSION",
    "CampaignStore",
    "CampaignSummary",
    "LedgerLine",
    "MatchSummary",
    "NotOwner",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "StoredCampaign",
    "StoredMatch",
    "StoredSeat",
    "StoredStep",
    "documents_digest",
    "hash_token",
    "new_match_id",
    "new_token",
]
