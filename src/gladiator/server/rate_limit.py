"""The creation limit: at most `per_minute` new matches or campaigns a minute per client address,
in bursts of up to `burst` (a token bucket per address; docs/web.md, Limits; ruling AB6).

Over the limit the request is answered 429 with `Retry-After` (whole seconds until a token is
back) and a one-line JSON error, before its body is read. The address is the TCP peer's: behind
a proxy every client shares the proxy's address, so the proxy must limit instead.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["CREATE_PATHS", "CreateLimit", "CreationLimiter", "create_limit"]

CREATE_PATHS = frozenset({"/api/matches", "/api/campaigns"})
PER_MINUTE = 30.0
BURST = 10
# Addresses kept before the full buckets (those idle long enough to have refilled) are dropped.
MAX_ADDRESSES = 10_000


@dataclass(frozen=True)
class CreateLimit:
    per_minute: float = PER_MINUTE
    burst: int = BURST
    clock: Callable[[], float] = time.monotonic


def create_limit(per_minute: float, burst: int) -> CreateLimit | None:
    """The limit for `serve --create-rate --create-burst` (rate 0: none); ValueError, one line."""
    if not math.isfinite(per_minute) or per_minute < 0:
        raise ValueError(f"--create-rate must be 0 (off) or more a minute, not {per_minute}")
    if per_minute == 0:
        return None
    if burst < 1:
        raise ValueError(f"--create-burst must be at least 1, not {burst}")
    return CreateLimit(float(per_minute), burst)


class _Buckets:
    def __init__(self, limit: CreateLimit) -> None:
        self.rate = limit.per_minute / 60.0  # tokens a second
        self.burst = float(limit.burst)
        self.clock = limit.clock
        self.buckets: dict[str, tuple[float, float]] = {}  # address -> (tokens, when)

    def take(self, address: str) -> float:
        """0 when a token was taken, else the seconds until one is back."""
        now = self.clock()
        tokens, when = self.buckets.get(address, (self.burst, now))
        tokens = min(self.burst, tokens + (now - when) * self.rate)
        if tokens >= 1.0:
            self.buckets[address] = (tokens - 1.0, now)
            self._prune(now)
            return 0.0
        self.buckets[address] = (tokens, now)
        return (1.0 - tokens) / self.rate

    def _prune(self, now: float) -> None:
        if len(self.buckets) <= MAX_ADDRESSES:
            return
        refill = self.burst / self.rate
        self.buckets = {a: (t, w) for a, (t, w) in self.buckets.items() if now - w < refill}


class CreationLimiter:
    """ASGI wrapper: POST to a creation path counts against the caller's address."""

    def __init__(self, app: ASGIApp, limit: CreateLimit) -> None:
        self.app = app
        self.limit = limit
        self._buckets = _Buckets(limit)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope.get("method") != "POST"
            or scope.get("path") not in CREATE_PATHS
        ):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        wait = self._buckets.take(client[0] if client else "")
        if wait <= 0:
            await self.app(scope, receive, send)
            return
        retry = max(1, math.ceil(wait))
        body = json.dumps(
            {
                "error": f"too many new matches or campaigns from this address: at most "
                f"{self.limit.per_minute:g} a minute (bursts of {self.limit.burst}); "
                f"try again in {retry} s",
                "retry_after": retry,
            }
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 429,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"retry-after", str(retry).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
