"""Who may do what: seat tokens, the Origin check, the message size and rate limits.

A seat token is a bearer secret; the store keeps only its hash and answers which seat it opens
(`Store.seat_for_token`). Refusals carry both their HTTP status and their websocket close code
(docs/web.md): 401/4401 no token, 403/4403 a wrong token or a refused Origin, 404/4404 no such
match.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

__all__ = [
    "CLOSE_BAD_HELLO",
    "CLOSE_FORBIDDEN",
    "CLOSE_NO_HELLO",
    "CLOSE_NO_MATCH",
    "CLOSE_NO_TOKEN",
    "CLOSE_RATE",
    "CLOSE_TOO_BIG",
    "HELLO_TIMEOUT",
    "MAX_MESSAGE",
    "BadOrigin",
    "NoMatch",
    "NoToken",
    "Refused",
    "TokenBucket",
    "WrongToken",
    "bearer_token",
    "check_token",
    "normalise_origin",
    "origin_allowed",
]

CLOSE_BAD_HELLO = 4400
CLOSE_NO_TOKEN = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NO_MATCH = 4404
CLOSE_NO_HELLO = 4408
CLOSE_RATE = 4429
CLOSE_TOO_BIG = 1009

MAX_MESSAGE = 8 * 1024  # bytes, for a websocket message and an HTTP body alike
HELLO_TIMEOUT = 5.0  # seconds
RATE = 20.0  # messages a second per connection


class Refused(Exception):
    """A request refused before it reached the match, with how to say so on each transport."""

    status = 400
    close_code = CLOSE_BAD_HELLO
    message = "bad request"

    def __init__(
        self,
        message: str | None = None,
        *,
        status: int | None = None,
        close_code: int | None = None,
    ) -> None:
        self.message = message or self.message
        self.status = status or self.status
        self.close_code = close_code or self.close_code
        super().__init__(self.message)


class NoToken(Refused):
    status, close_code, message = 401, CLOSE_NO_TOKEN, "a seat or spectator token is required"


class WrongToken(Refused):
    status, close_code, message = 403, CLOSE_FORBIDDEN, "that token does not open this match"


class BadOrigin(Refused):
    status, close_code, message = 403, CLOSE_FORBIDDEN, "requests from that origin are not allowed"


class NoMatch(Refused):
    status, close_code, message = 404, CLOSE_NO_MATCH, "no such match"


def bearer_token(header: str | None) -> str | None:
    """The token of an `Authorization: Bearer TOKEN` header, or None when there is none."""
    if not header:
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def normalise_origin(url: str) -> str:
    """`scheme://host[:port]` in lower case, default ports dropped; ValueError if not an origin."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"{url!r} is not an origin like http://example.org:8000")
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        raise ValueError(f"{url!r} is not an origin: give only scheme, host and port")
    try:
        port = parts.port
    except ValueError:
        raise ValueError(f"{url!r} has a bad port") from None
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    default = 80 if scheme == "http" else 443
    return f"{scheme}://{host}" if port in (None, default) else f"{scheme}://{host}:{port}"


def origin_allowed(
    origin: str | None, scheme: str, host_header: str | None, allowed: Iterable[str]
) -> bool:
    """True when there is no Origin (not a browser), or it is this server's own origin (the
    scheme of the request and its Host header) or one the operator allowed."""
    if origin is None:
        return True
    try:
        got = normalise_origin(origin)
    except ValueError:
        return False  # "null" (a sandboxed frame, a file) and other junk
    if got in allowed:
        return True
    if not host_header:
        return False
    own_scheme = {"ws": "http", "wss": "https"}.get(scheme, scheme)
    try:
        own = normalise_origin(f"{own_scheme}://{host_header}")
    except ValueError:
        return False
    return got == own


class TokenBucket:
    """At most `rate` messages a second on average, bursts up to `rate` (one second's worth)."""

    def __init__(self, rate: float = RATE, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.tokens = rate
        self._now = clock
        self.last = self._now()

    def take(self) -> bool:
        now = self._now()
        self.tokens = min(self.rate, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


def check_token(
    seat_for_token: Callable[[str, str], str | bool | None], match_id: str, token: str | None
) -> str | None:
    """The seat a token opens (None: the spectator's), or Refused. `seat_for_token` is the
    store's lookup (hashes compared in constant time there)."""
    if not token:
        raise NoToken()
    seat = seat_for_token(match_id, token)
    if seat is False or seat is True:
        raise WrongToken()
    return seat


LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1", "[::1]")


def hosts_for(bound: str, extra: Iterable[str] | None) -> list[str] | None:
    """The Host names a server bound to `bound` answers: on loopback only loopback names (and
    any given), so DNS rebinding cannot reach it; bound elsewhere, any name unless some are
    given."""
    given = [h.strip().lower() for h in extra or () if h.strip()]
    if bound in LOOPBACK_NAMES:
        return [*LOOPBACK_NAMES, *given]
    return given or None
