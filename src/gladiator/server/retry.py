"""Store writes that outlast a blip of the database (issue 13, item 2; HC5, HC6).

A write that fails with `StoreUnavailable` (a lost connection, a lock held past the busy
timeout, a full pool) is tried again after growing, jittered delays; any other `StoreError` is
a refusal and is not. What is still failing when the delays run out is raised: a player's order
then gets its error (the client may send it again), while what no player is waiting to send
again (a bot's order, a time-out order, a match's end) is tried once more `again_after` seconds
later, for as long as the match runs.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from gladiator.server.throttled_log import ThrottledWarning
from gladiator.store import StoreUnavailable

__all__ = ["RetryPolicy", "retrying"]

log = logging.getLogger("gladiator.server")
# An outage fails every match's writes at once: one line a few seconds says so, with a count.
_warning = ThrottledWarning(log, interval=5.0)


@dataclass(frozen=True)
class RetryPolicy:
    # 0.05 s doubling to 1.6 s: 3.15 s in all, past a PostgreSQL restart or SQLite's busy
    # timeout, and short enough that a player waiting for the ack sees it or an error soon.
    delays: tuple[float, ...] = (0.05, 0.1, 0.2, 0.4, 0.8, 1.6)
    # Each delay is scaled by a factor drawn from [1 - jitter, 1 + jitter], so that the
    # matches an outage failed together do not all come back in the same millisecond.
    jitter: float = 0.5
    # A write nobody will send again is tried anew this long after its delays ran out.
    again_after: float = 5.0

    def __post_init__(self) -> None:
        if any(d < 0 for d in self.delays) or not 0 <= self.jitter <= 1 or self.again_after <= 0:
            raise ValueError("retry delays must be ≥ 0, jitter in [0, 1], again_after > 0")


async def retrying(
    call: Callable[..., Any],
    *args: Any,
    policy: RetryPolicy,
    what: str,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> Any:
    """`call(*args)` in a worker thread, tried again on StoreUnavailable as `policy` says."""
    for attempt, delay in enumerate(policy.delays, start=1):
        try:
            return await asyncio.to_thread(call, *args)
        except StoreUnavailable as exc:
            # Not the match's dice: when to retry is no part of any game.
            wait = delay * (1 + policy.jitter * (2 * random.random() - 1))
            _warning.warn(
                "%s: %s; trying again in %.2f s (retry %d of %d)",
                what,
                exc,
                wait,
                attempt,
                len(policy.delays),
            )
            await sleep(wait)
    return await asyncio.to_thread(call, *args)  # the last try: its error is the caller's
