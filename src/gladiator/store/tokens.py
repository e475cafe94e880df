"""Seat and spectator tokens, and match ids.

A token is a bearer secret shown once in a link; the database keeps only its SHA-256, so a leaked
database does not let anyone play a seat.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

__all__ = ["SEAT_SCOPE", "hash_token", "new_match_id", "new_token", "scoped_token", "token_matches"]


# Between a token and the seat it is scoped to ("TOKEN:red"), where one token opens several
# seats of a match; url-safe tokens never hold it.
SEAT_SCOPE = ":"


def scoped_token(token: str, seat: str) -> str:
    return f"{token}{SEAT_SCOPE}{seat}"


def hash_token(token: str) -> str:
    """The SHA-256 hex digest under which a token is stored."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def new_match_id() -> str:
    # 9 random bytes: 12 url-safe characters, short enough for a link, too many to guess.
    return secrets.token_urlsafe(9)


def token_matches(token: str, stored_hash: str | None) -> bool:
    """Whether `token` hashes to `stored_hash`, compared in constant time."""
    if stored_hash is None:
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)
