"""The load test's bot matches (`gladiator loadtest --bot-matches K`; ruling HF3): K matches
whose every seat is one bot, made on one server and kept at K while the humans' orders are
timed (a bot match that ends is replaced), so that K matches' bots think from the first timed
order to the last."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

from gladiator.core.protocol import Ruleset
from gladiator.sim.runner import derive_seed
from gladiator.store import Store

__all__ = ["BotMatches"]

LOOK_EVERY = 0.5  # seconds between looks for a bot match that ended


@dataclass
class BotMatches:
    base: str  # the server that makes and plays them
    db: str
    ruleset: Ruleset[Any]
    options: Mapping[str, Any]
    seed: int
    spec: str  # every seat's bot, NAME[@BUDGET]
    count: int
    made: list[str] = field(default_factory=list)  # every bot match made, replacements too
    running: list[str] = field(default_factory=list)

    def start(self, limit: float) -> None:
        """Make the matches and wait until each has an order (its server's bot workers are
        up). A spec the server refuses (a budget over its cap) is a ValueError, its line."""
        for _ in range(self.count):
            self.running.append(self._make())
        end = time.monotonic() + limit
        with Store(self.db) as store:
            while time.monotonic() < end:
                loaded = [store.load(match_id) for match_id in self.running]
                if all(m is None or m.orders or m.status != "running" for m in loaded):
                    return
                time.sleep(0.1)
        raise ValueError(f"the bot matches gave no order in {limit:g} s")

    async def keep(self) -> None:
        """Replace every bot match that ends, until cancelled."""
        store = Store(self.db)
        try:
            while True:
                await asyncio.sleep(LOOK_EVERY)
                await asyncio.to_thread(self._replace_ended, store)
        finally:
            store.close()

    def tally(self) -> dict[str, Any]:
        """What the bots did: their orders, and how many of their matches ended."""
        orders = ended = 0
        with Store(self.db) as store:
            for match_id in self.made:
                stored = store.load(match_id)
                if stored is not None:
                    orders += len(stored.orders)
                    ended += stored.status != "running"
        return {
            "bot_matches": self.count,
            "bot_spec": self.spec if self.count else None,
            "bot_matches_made": len(self.made),
            "bot_matches_finished": ended,
            "bot_orders": orders,
        }

    def _replace_ended(self, store: Store) -> None:
        for i, match_id in enumerate(self.running):
            stored = store.load(match_id)
            if stored is not None and stored.status != "running":
                self.running[i] = self._make()

    def _make(self) -> str:
        seats = {seat: f"bot:{self.spec}" for seat in self.ruleset.seats(self.options)}
        body = {
            "ruleset": self.ruleset.name,
            "options": dict(self.options),
            "seats": seats,
            "seed": derive_seed(self.seed, "bots", len(self.made)),
        }
        answer = httpx.post(f"{self.base}/api/matches", json=body, timeout=30)
        if answer.status_code == 400:
            raise ValueError(f"--bot-spec {self.spec}: {answer.json()['error']}")
        answer.raise_for_status()
        match_id: str = answer.json()["id"]
        self.made.append(match_id)
        return match_id
