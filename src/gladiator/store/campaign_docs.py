"""Checking the plain JSON documents a campaign step hands the store, and their canonical text.

The store does not know the campaign's models (gladiator.campaign): it needs of an item only its
`id` and the few fields it keeps in columns, and of a ledger entry that it is (account, whole
number, memo). Documents are stored as canonical JSON (sorted keys), the same bytes in SQLite and
PostgreSQL, so `documents_digest` of what was stored equals that of what was given.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from gladiator.store.errors import StoreError

__all__ = [
    "BoutFields",
    "GladiatorFields",
    "LanistaFields",
    "bout_fields",
    "canonical_json",
    "check_ledger",
    "document_json",
    "documents_digest",
    "gladiator_fields",
    "lanista_fields",
    "unique_ids",
]

_INT64 = 2**63
_ID_LENGTH = 64
_ACCOUNT_LENGTH = 128

LanistaFields = tuple[str, str, str]  # id, name, kind
GladiatorFields = tuple[str, str | None, str]  # id, lanista id, status
BoutFields = tuple[str, int, str, list[str]]  # id, munus, status, match ids


def canonical_json(value: Any, what: str) -> str:
    """Sorted keys: the same value always gives the same text (for digests)."""
    return _dumps(value, what, sort_keys=True)


def document_json(value: Any, what: str) -> str:
    """A document as stored: compact, its keys in the order given. A campaign's documents hold
    maps whose order is meaning (a fight's seats in table order, red first, matching its per-seat
    option lists), so sorting them would hand back another document."""
    return _dumps(value, what, sort_keys=False)


def _dumps(value: Any, what: str, *, sort_keys: bool) -> str:
    try:
        return json.dumps(value, sort_keys=sort_keys, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError, RecursionError) as exc:
        raise StoreError(f"the {what} is not plain JSON data: {exc}") from None


def documents_digest(
    meta: Mapping[str, Any],
    lanistas: Iterable[Mapping[str, Any]],
    gladiators: Iterable[Mapping[str, Any]],
    bouts: Iterable[Mapping[str, Any]],
) -> str:
    """SHA-256 of a whole campaign state as canonical JSON, items in id order: a digest a caller
    may record with each step and compare with what `load_campaign` gives back."""

    def ordered(items: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
        return sorted(items, key=lambda item: str(item.get("id")))

    state = {
        "meta": meta,
        "lanistas": ordered(lanistas),
        "gladiators": ordered(gladiators),
        "bouts": ordered(bouts),
    }
    return hashlib.sha256(canonical_json(state, "campaign state").encode()).hexdigest()


def _text(doc: Mapping[str, Any], key: str, what: str, *, limit: int = 200) -> str:
    value = doc.get(key)
    if not isinstance(value, str) or not value or len(value) > limit:
        raise StoreError(f"{what} needs {key!r} as text of 1 to {limit} characters, not {value!r}")
    return value


def _item_id(doc: Any, what: str) -> str:
    if not isinstance(doc, Mapping):
        raise StoreError(f"{what} is not a JSON object")
    return _text(doc, "id", what, limit=_ID_LENGTH)


def lanista_fields(doc: Any) -> LanistaFields:
    item = _item_id(doc, "a lanista")
    what = f"lanista {item}"
    return item, _text(doc, "name", what), _text(doc, "kind", what, limit=16)


def gladiator_fields(doc: Any) -> GladiatorFields:
    item = _item_id(doc, "a gladiator")
    what = f"gladiator {item}"
    lanista = doc.get("lanista")
    if lanista is not None:
        lanista = _text(doc, "lanista", what, limit=_ID_LENGTH)
    return item, lanista, _text(doc, "status", what, limit=16)


def bout_fields(doc: Any) -> BoutFields:
    item = _item_id(doc, "a bout")
    what = f"bout {item}"
    munus = doc.get("munus")
    if not isinstance(munus, int) or isinstance(munus, bool) or not 0 <= munus < 2**31:
        raise StoreError(f"{what} needs a whole-number 'munus', not {munus!r}")
    match_ids = doc.get("match_ids", [])
    if not isinstance(match_ids, list) or not all(isinstance(m, str) for m in match_ids):
        raise StoreError(f"{what} has 'match_ids' that are not a list of match ids")
    return item, munus, _text(doc, "status", what, limit=16), list(match_ids)


def unique_ids(ids: Sequence[str], what: str) -> None:
    seen: set[str] = set()
    for item in ids:
        if item in seen:
            raise StoreError(f"{what} {item} is given twice")
        seen.add(item)


def check_ledger(ledger: Iterable[Any]) -> list[tuple[str, int, str]]:
    """The entries, given as (account, amount, memo) or as {"account", "amount", "memo"}, as
    tuples; StoreError unless they sum to 0."""
    entries: list[tuple[str, int, str]] = []
    for entry in ledger:
        if isinstance(entry, Mapping) and {"account", "amount", "memo"} <= entry.keys():
            account, amount, memo = entry["account"], entry["amount"], entry["memo"]
        elif isinstance(entry, Sequence) and not isinstance(entry, str) and len(entry) == 3:
            account, amount, memo = entry
        else:
            raise StoreError(f"a ledger entry is (account, amount, memo), not {entry!r}")
        if not isinstance(account, str) or not account or len(account) > _ACCOUNT_LENGTH:
            raise StoreError(f"a ledger entry names no account: {entry!r}")
        if not isinstance(amount, int) or isinstance(amount, bool) or not -_INT64 < amount < _INT64:
            raise StoreError(f"the ledger entry for {account} has no whole amount: {amount!r}")
        if not isinstance(memo, str):
            raise StoreError(f"the ledger entry for {account} has a memo that is not text")
        entries.append((account, amount, memo))
    total = sum(amount for _, amount, _ in entries)
    if total != 0:
        raise StoreError(f"the ledger entries sum to {total}, not 0")
    return entries
