"""A bot as a seat names it: `NAME` or `NAME@BUDGET` (CPU seconds a decision), e.g. `greedy`,
`search@1.0`. What a stored match keeps in a bot seat (docs/web.md), so a seat stored before
budgets existed (a bare name) reads unchanged."""

from __future__ import annotations

import math
from dataclasses import dataclass

from gladiator.bots.base import Bot

__all__ = ["BotSpec", "parse_spec"]


@dataclass(frozen=True)
class BotSpec:
    name: str
    budget: float | None = None  # None: the bot's own default

    @property
    def text(self) -> str:
        return self.name if self.budget is None else f"{self.name}@{self.budget:g}"

    def make(self) -> Bot:
        from gladiator.bots import make_bot

        return make_bot(self.name)


def parse_spec(text: str) -> BotSpec:
    """`NAME[@BUDGET]`; ValueError (one line) for an unknown bot or a bad budget."""
    from gladiator.bots import BOTS

    name, sep, budget_text = text.strip().lower().partition("@")
    name = name.strip()
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(sorted(BOTS))}")
    if not sep:
        return BotSpec(name)
    try:
        budget = float(budget_text)
    except ValueError:
        raise ValueError(f"bot {text.strip()!r}: the budget after @ must be seconds") from None
    if not (math.isfinite(budget) and budget > 0):
        raise ValueError(f"bot {text.strip()!r}: the budget must be a positive number of seconds")
    return BotSpec(name, budget)
