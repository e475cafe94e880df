"""Regret matching for one seat at one simultaneous node, with outcome sampling (SM-MCTS).

Each iteration the seat draws one action from its current strategy mixed with some uniform
exploration, sees one sampled payoff for it, and updates every action's regret with the
importance-sampled estimate (Lanctot, Lisý and Winands 2013, "Monte Carlo Tree Search in
Simultaneous Move Games with Applications to Goofspiel"; Lisý et al. 2013 for its convergence).
Why regret matching rather than decoupled UCT: UCT's greedy selection drifts to a pure action,
and a pure action in a secret simultaneous decision is exactly what an opponent can read and
punish; the average strategy of regret matching approaches a Nash equilibrium of the sampled
game, mixing where mixing is right.

The set of actions may grow (progressive widening): a new action enters with no regret.
"""

from __future__ import annotations

import random

__all__ = ["RegretMatcher"]


class RegretMatcher:
    """Regrets and the average strategy of one seat over a growing list of actions."""

    __slots__ = ("_last", "actions", "regret", "total", "visits")

    def __init__(self, actions: list[str] | None = None) -> None:
        self.actions: list[str] = []
        self.regret: list[float] = []
        self.total: list[float] = []  # the strategy summed over the iterations (the average)
        self.visits = 0
        self._last: list[float] = []
        for a in actions or ():
            self.add(a)

    def add(self, action: str, regret: float = 0.0) -> None:
        """A new action; `regret` starts it ahead (a prior's choice is played first)."""
        self.actions.append(action)
        self.regret.append(regret)
        self.total.append(0.0)

    def strategy(self, active: int | None = None) -> list[float]:
        """The current regret-matching strategy over the first `active` actions."""
        n = len(self.actions) if active is None else min(active, len(self.actions))
        pos = [r if r > 0.0 else 0.0 for r in self.regret[:n]]
        s = sum(pos)
        if s <= 0.0:
            return [1.0 / n] * n
        return [p / s for p in pos]

    def draw(self, rng: random.Random, explore: float, active: int | None = None) -> int:
        """Index of the action to play this iteration, from the strategy mixed with `explore`
        of uniform play; remembers the strategy for `update`."""
        sigma = self.strategy(active)
        n = len(sigma)
        mixed = [(1.0 - explore) * p + explore / n for p in sigma]
        self._last = mixed
        for i, p in enumerate(sigma):
            self.total[i] += p
        x = rng.random()
        acc = 0.0
        for i, p in enumerate(mixed):
            acc += p
            if x < acc:
                return i
        return n - 1

    def update(self, played: int, payoff: float) -> None:
        """Regret update after `played` (drawn by the last `draw`) earned `payoff`: each action's
        estimated payoff (the payoff over its sampling probability for the one played, 0 for the
        rest) minus the payoff of the strategy (the sampled payoff)."""
        mixed = self._last
        self.visits += 1
        estimate = payoff / mixed[played]
        for i in range(len(mixed)):
            self.regret[i] += (estimate if i == played else 0.0) - payoff

    def average(self) -> list[float]:
        """The average strategy over all actions (uniform before any iteration)."""
        s = sum(self.total)
        if s <= 0.0:
            return [1.0 / len(self.actions)] * len(self.actions)
        return [t / s for t in self.total]
