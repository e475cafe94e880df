"""What a bot is: something that picks a legal order for a seat, through the protocol alone."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any, ClassVar

from gladiator.core.decisions import Decision
from gladiator.core.protocol import Ruleset

__all__ = ["Bot"]


class Bot(ABC):
    name: str = "bot"
    # The rulesets this bot really plays (None: any). Elsewhere it may still answer, at random,
    # but a ladder or a level leaves it out there.
    rulesets: ClassVar[frozenset[str] | None] = None

    @abstractmethod
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
        """A legal order for `seat`. `rng` is the bot's own: never the match's dice, so that a
        bot cannot see the rolls to come. `budget` is the thinking time (CPU seconds) this
        decision may take; bots that do not search ignore it, a search bot stops within it
        (None: the bot's own default)."""
