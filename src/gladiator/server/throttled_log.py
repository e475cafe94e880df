"""A warning that a flood would repeat thousands of times a second, logged at most once per
interval with a count of what was held back, so that an attack cannot fill the disk or bury
every other line of the log."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

__all__ = ["ThrottledWarning"]


class ThrottledWarning:
    def __init__(
        self,
        logger: logging.Logger,
        interval: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.logger = logger
        self.interval = interval
        self.clock = clock
        self.held_back = 0
        self._last: float | None = None

    def warn(self, message: str, *args: object) -> None:
        """Log now if the interval has passed since the last line, else only count it."""
        now = self.clock()
        if self._last is not None and now - self._last < self.interval:
            self.held_back += 1
            return
        if self.held_back:
            message += " (%d more like it in the last %.0f s)"
            args = (*args, self.held_back, now - self._last if self._last is not None else 0.0)
        self.logger.warning(message, *args)
        self._last = now
        self.held_back = 0
