"""Small helpers the observation encoders share: a growing float list with named one-hots and
relative hex offsets, so that every encoder writes its features the same way."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from gladiator.core import hexgrid as hg
from gladiator.core.decisions import Arrange, ChooseOne, Decision, Distribute, PickHex

__all__ = ["DECISION_FEATURES", "Features", "decision_features", "seat_order"]

DECISION_KINDS = (ChooseOne, Distribute, PickHex, Arrange)
# Decision block: [has a decision, secret, choose, distribute, hex, arrange, size/64]
DECISION_FEATURES = 2 + len(DECISION_KINDS) + 1


class Features:
    """Appends floats in a fixed order; `array()` gives the float32 vector."""

    __slots__ = ("values",)

    def __init__(self) -> None:
        self.values: list[float] = []

    def add(self, *xs: float) -> None:
        self.values.extend(float(x) for x in xs)

    def flag(self, x: Any) -> None:
        self.values.append(1.0 if x else 0.0)

    def one_hot(self, value: Any, choices: Sequence[Any]) -> None:
        # An unknown value gives all zeros rather than an error: a new table entry should not
        # break a trained agent's input size.
        self.values.extend(1.0 if value == c else 0.0 for c in choices)

    def offset(self, mine: Sequence[int], theirs: Sequence[int], scale: float) -> None:
        """Where `theirs` lies from `mine`: dq, dr (divided by `scale`) and the hex distance."""
        dq, dr = theirs[0] - mine[0], theirs[1] - mine[1]
        dist = hg.distance(hg.Hex(mine[0], mine[1]), hg.Hex(theirs[0], theirs[1]))
        self.add(dq / scale, dr / scale, dist / scale)

    def zeros(self, n: int) -> None:
        self.values.extend([0.0] * n)

    def array(self) -> np.ndarray:
        return np.asarray(self.values, dtype=np.float32)


def seat_order(seats: Sequence[str], me: str) -> list[str]:
    """The seats starting with `me`, then the others in table order after him (wrapping), so
    that block 0 of an observation is always the observer and block 1 the next seat."""
    i = list(seats).index(me)
    return [*seats[i:], *seats[:i]]


def decision_features(f: Features, decision: Decision | None) -> None:
    """The observer's own pending decision (never another seat's): whether he decides now, if
    it is secret, its kind, and how many choices it offers (/64, capped at 1)."""
    f.flag(decision is not None)
    f.flag(decision is not None and decision.secret)
    f.values.extend(1.0 if isinstance(decision, k) else 0.0 for k in DECISION_KINDS)
    size = 0
    if isinstance(decision, ChooseOne):
        size = len(decision.options)
    elif isinstance(decision, PickHex):
        size = len(decision.hexes)
    elif isinstance(decision, Arrange):
        size = len(decision.items)
    elif isinstance(decision, Distribute):
        size = decision.budget
    f.add(min(size, 64) / 64)
