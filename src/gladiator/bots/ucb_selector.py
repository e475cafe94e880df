"""UCB1 for one seat that decides alone at a search node (plain MCTS, MC11).

Where only one seat is pending (the quick rules' action points, the skirmish's initiative and
converted moves) there is nothing to hide and nothing to mix: the best order is a pure one, and
UCB1's optimism finds it with far fewer samples than regret matching's importance-sampled
estimates, whose variance grows as an action's probability shrinks. A prior's choice (played
first) starts with `prior_visits` virtual visits worth `prior_value` each, so a few unlucky dice
do not throw out the heuristic bot's judgement, while clear evidence still does.

It has `RegretMatcher`'s interface (`draw`, `update`, `average`, `add`, `actions`, `visits`), so
a node holds either.
"""

from __future__ import annotations

import math
import random

__all__ = ["UCBSelector"]


class UCBSelector:
    """Mean payoffs and visit counts of one seat over a growing list of actions."""

    __slots__ = ("actions", "c", "counts", "sums", "visits")

    def __init__(self, actions: list[str] | None = None, c: float = 1.0) -> None:
        self.actions: list[str] = []
        self.counts: list[float] = []
        self.sums: list[float] = []
        self.visits = 0
        self.c = c
        for a in actions or ():
            self.add(a)

    def add(self, action: str, visits: float = 0.0, value: float = 0.0) -> None:
        """A new action; `visits` virtual visits worth `value` each start it ahead."""
        self.actions.append(action)
        self.counts.append(visits)
        self.sums.append(visits * value)

    def draw(self, rng: random.Random, explore: float = 0.0, active: int | None = None) -> int:
        """Index of the action to play: an unvisited one first (in list order, so the prior's
        choice and the best guesses go first), then the highest upper confidence bound.
        `explore` is unused (UCB's bonus is its exploration); ties go to the earlier action."""
        n = len(self.actions) if active is None else min(active, len(self.actions))
        for i in range(n):
            if self.counts[i] <= 0.0:
                return i
        total = sum(self.counts[:n])
        log_total = math.log(total) if total > 1.0 else 0.0
        best, best_score = 0, -math.inf
        for i in range(n):
            k = self.counts[i]
            score = self.sums[i] / k + self.c * math.sqrt(log_total / k)
            if score > best_score:
                best, best_score = i, score
        return best

    def update(self, played: int, payoff: float) -> None:
        self.visits += 1
        self.counts[played] += 1.0
        self.sums[played] += payoff

    def average(self) -> list[float]:
        """Each action's share of the visits, the prior's virtual ones included (the robust
        choice is the most visited)."""
        s = sum(self.counts)
        if s <= 0.0:
            return [1.0 / len(self.actions)] * len(self.actions)
        return [c / s for c in self.counts]

    def mean(self, i: int) -> float:
        return self.sums[i] / self.counts[i] if self.counts[i] > 0 else 0.0
