"""Resuming a stored match: the same ruleset, options, seed and nonce, then every stored order.

A simultaneous decision that was half-submitted when the server stopped is half-submitted again:
its orders wait inside the rebuilt `Match`, as secret as before (docs/web.md, Storage).
"""

from __future__ import annotations

from gladiator import registry
from gladiator.core.match import Match
from gladiator.store.errors import StoreError
from gladiator.store.stored import StoredMatch

__all__ = ["rebuild"]


def rebuild(stored: StoredMatch) -> Match:
    """The live `Match` of `stored`; StoreError if this program cannot reproduce it."""
    where = f"cannot resume match {stored.id}"
    try:
        ruleset = registry.get(stored.ruleset)
    except registry.UnknownRuleset as exc:
        raise StoreError(f"{where}: {exc}") from None
    try:
        match = Match(ruleset, stored.options, seed=stored.seed, nonce=stored.nonce)
    except ValueError as exc:
        raise StoreError(f"{where}: its options are refused: {exc}") from None
    if match.commitment != stored.commitment:
        raise StoreError(f"{where}: its seed does not match its commitment")
    for seq, (seat, order) in enumerate(stored.orders):
        try:
            match.submit(seat, order)
        except ValueError as exc:
            # IllegalOrder or NotYourTurn: the rules or their tables changed since it was played.
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise StoreError(
                f"{where}: stored order {seq} ({seat}: {order}) fails: {first}"
            ) from None
    match.atomic = True  # replayed in place (fast); from here on a fault costs one decision
    return match
