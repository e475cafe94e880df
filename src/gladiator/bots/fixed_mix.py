"""Two bots for balance experiments, generic over rulesets: they read only the decision's legal
orders (the protocol), never the state.

`FixedBot` always plays the first order of its preference list that is legal (an "always the
same attack" player); `MixedBot` draws among the legal orders by fixed weights (a player of a
mixed strategy, such as the equilibrium of `gladiator.rules.skirmish.analysis`). Neither holds a
random generator of its own: draws use the `rng` the caller passes, so a seeded run repeats.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from gladiator.bots.base import Bot
from gladiator.core.decisions import Decision
from gladiator.core.protocol import Ruleset

__all__ = ["FixedBot", "MixedBot"]

_LIMIT = 10_000  # beyond this many legal orders the decision is sampled instead of listed


class FixedBot(Bot):
    """The first order of `preference` that is legal now, else the decision's first legal order
    (a random one where the decision is too large to list)."""

    name = "fixed"

    def __init__(self, preference: Sequence[str]) -> None:
        self.preference = tuple(preference)

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
        legal = decision.legal(_LIMIT)
        if legal is None:
            return decision.sample(rng)
        allowed = set(legal)
        for order in self.preference:
            if order in allowed:
                return order
        return legal[0]


class MixedBot(Bot):
    """A legal order drawn with probability proportional to its weight (orders without a weight
    weigh 0); uniformly among the legal orders when none of them weighs anything.

    With `plans_only`, the weights are used for secret decisions (the plan: a written move) and
    every open decision takes its first legal order (perform as written, go first, keep facing):
    a player who mixes his plans and carries them out."""

    name = "mixed"

    def __init__(self, weights: Mapping[str, float], *, plans_only: bool = False) -> None:
        bad = [k for k, w in weights.items() if w < 0]
        if bad:
            raise ValueError(f"weights must not be negative: {', '.join(bad)}")
        self.weights = dict(weights)
        self.plans_only = plans_only

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
        legal = decision.legal(_LIMIT)
        if legal is None:
            return decision.sample(rng)
        if self.plans_only and not decision.secret:
            return legal[0]
        weights = [self.weights.get(order, 0.0) for order in legal]
        total = sum(weights)
        if total <= 0:
            return legal[int(rng.random() * len(legal))]
        x = rng.random() * total
        for order, w in zip(legal, weights, strict=True):
            x -= w
            if x < 0 and w > 0:
                return order
        return next(o for o, w in zip(reversed(legal), reversed(weights), strict=True) if w > 0)
