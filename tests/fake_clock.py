"""A wall clock the tests move by hand (the server's clocks take any `() -> float`): no test
sleeps for a deadline, a lease or an abandonment clock."""

from __future__ import annotations

import time


class FakeClock:
    def __init__(self, now: float | None = None) -> None:
        self.now = time.time() if now is None else now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
