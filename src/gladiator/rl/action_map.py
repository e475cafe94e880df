"""From a decision to Discrete(n) actions with a mask, and back to the order text.

Two ways (docs/rulings.md RL2, RL3):

* `FixedVocabulary`: every order text that can ever be legal in the match, listed up front;
  action i always means the same order, and the mask marks those legal now.
* `CandidateSlots`: for decisions too large to list (the Colosseum's plots and CF allocations),
  slot i holds the i-th of `decision.candidates(rng, n)`, drawn with an rng seeded from the
  episode's seed, the step and the seat (RL4), so the same episode offers the same slots.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from gladiator.core.decisions import Decision

__all__ = ["ActionMap", "CandidateSlots", "FixedVocabulary", "IllegalAction", "Menu"]


class IllegalAction(ValueError):
    """An action the mask forbids or out of range (PettingZoo's convention: an error, RL5)."""


@dataclass(frozen=True, slots=True)
class Menu:
    """What each action means now: `orders[i]` is the order text, "" where action i is illegal."""

    orders: tuple[str, ...]
    mask: np.ndarray

    def order(self, action: int) -> str:
        if not 0 <= action < len(self.orders):
            raise IllegalAction(f"action {action} is out of range 0..{len(self.orders) - 1}")
        text = self.orders[action]
        if not text:
            legal = [i for i, t in enumerate(self.orders) if t]
            raise IllegalAction(f"action {action} is masked out now; legal actions: {legal}")
        return text

    def first_legal(self) -> int:
        return int(np.flatnonzero(self.mask)[0])

    @classmethod
    def empty(cls, n: int) -> Menu:
        return cls(("",) * n, np.zeros(n, dtype=np.int8))


class ActionMap(ABC):
    """Maps one seat's decision to `n` actions."""

    n: int

    @abstractmethod
    def menu(self, decision: Decision, rng: random.Random) -> Menu:
        """The actions open now for this decision (rng: only for sampled candidates)."""


class FixedVocabulary(ActionMap):
    def __init__(self, texts: Sequence[str]) -> None:
        self.texts = tuple(dict.fromkeys(texts))
        self.index = {t: i for i, t in enumerate(self.texts)}
        self.n = len(self.texts)

    def menu(self, decision: Decision, rng: random.Random) -> Menu:
        legal = decision.legal(self.n)
        if legal is None:
            raise ValueError(f"a decision offers more orders than the vocabulary's {self.n}")
        orders = [""] * self.n
        for text in legal:
            i = self.index.get(text)
            if i is None:
                # A vocabulary that misses an order is a bug of this package, not of the agent.
                raise ValueError(f"order {text!r} is not in the action vocabulary")
            orders[i] = text
        mask = np.fromiter((1 if t else 0 for t in orders), dtype=np.int8, count=self.n)
        return Menu(tuple(orders), mask)


class CandidateSlots(ActionMap):
    def __init__(self, n: int) -> None:
        if n < 1:
            raise ValueError(f"need at least one action slot, not {n}")
        self.n = n

    def menu(self, decision: Decision, rng: random.Random) -> Menu:
        found = decision.candidates(rng, self.n)
        orders = (*found, *([""] * (self.n - len(found))))
        mask = np.zeros(self.n, dtype=np.int8)
        mask[: len(found)] = 1
        return Menu(orders, mask)
