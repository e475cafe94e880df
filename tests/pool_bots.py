"""Bots for the bot pool's tests (tests/test_server_bot_pool.py). They live in a module of their
own so that a worker process, which unpickles a bot by its class's module and name, can import
them without importing a test module."""

from __future__ import annotations

import os
import random
import signal
import time
from pathlib import Path
from typing import Any

from gladiator.bots.random_legal import RandomBot
from gladiator.core.decisions import Decision
from gladiator.core.protocol import Ruleset


class PidBot(RandomBot):
    """Random legal orders; keeps, in its own state, the process and budget of each decision
    (state that survives from one decision to the next only if the pool sends it back)."""

    name = "pid"

    def __init__(self) -> None:
        self.seen: list[tuple[int, float | None]] = []

    def choose(
        self,
        ruleset: Ruleset[Any],
        state: Any,
        seat: str,
        decision: Decision,
        rng: random.Random,
        *,
        budget: float | None = None,
    ) -> str:
        self.seen.append((os.getpid(), budget))
        return decision.sample(rng)


class KillerBot(PidBot):
    """Kills the process it thinks in on its first decision (the marker file says it did)."""

    name = "killer"

    def __init__(self, marker: Path) -> None:
        super().__init__()
        self.marker = marker

    def choose(self, *args: Any, budget: float | None = None, **kw: Any) -> str:
        if not self.marker.exists():
            self.marker.touch()
            os.kill(os.getpid(), signal.SIGKILL)
        return super().choose(*args, budget=budget, **kw)


class StuckBot(PidBot):
    """Never answers its first decision (the marker file says it began it)."""

    name = "stuck"

    def __init__(self, marker: Path) -> None:
        super().__init__()
        self.marker = marker

    def choose(self, *args: Any, budget: float | None = None, **kw: Any) -> str:
        if not self.marker.exists():
            self.marker.touch()
            time.sleep(3600)
        return super().choose(*args, budget=budget, **kw)


class FailingBot(PidBot):
    """Raises on every decision."""

    name = "failing"

    def choose(self, *args: Any, budget: float | None = None, **kw: Any) -> str:
        raise RuntimeError("this bot always fails")


class LocalBot(PidBot):
    """Holds a function made at run time, so it does not pickle: it thinks in a thread."""

    name = "local"

    def __init__(self) -> None:
        super().__init__()
        self.judge = lambda order: len(order)
