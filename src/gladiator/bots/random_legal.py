"""The random-legal bot: any legal order, uniformly where the decision allows."""

from __future__ import annotations

import random
from typing import Any

from gladiator.bots.base import Bot
from gladiator.core.decisions import Decision
from gladiator.core.protocol import Ruleset

__all__ = ["RandomBot"]


class RandomBot(Bot):
    name = "random"

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
        return decision.sample(rng)
