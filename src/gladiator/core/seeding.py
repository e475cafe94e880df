"""Seed commitment: publish a hash of the seed at the start, reveal the seed at the end.

The hash covers the seed and a random nonce, so a small seed (`--seed 1`) cannot be guessed from
its commitment before the match is over.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

__all__ = ["commit", "fresh_nonce", "fresh_seed", "matches_commitment"]


def commit(seed: int, nonce: str) -> str:
    """The published commitment for (seed, nonce): a SHA-256 hex digest."""
    return hashlib.sha256(f"gladiator-seed:{seed}:{nonce}".encode()).hexdigest()


def matches_commitment(seed: int, nonce: str, commitment: str) -> bool:
    return hmac.compare_digest(commit(seed, nonce), commitment)


def fresh_seed() -> int:
    return secrets.randbits(63)


def fresh_nonce() -> str:
    return secrets.token_hex(16)
