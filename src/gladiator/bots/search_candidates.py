"""The orders a search considers for one seat at one node, best guesses first.

First the prior bot's own choice, then (for a `Distribute`) its neighbours: the same allocation
with a lot of points moved from one slot to another, since a random spread of CFs is nearly
always worse than a small change to a sound one; then the decision's own `candidates`. The list
is distinct and legal, and its order is the order progressive widening lets actions in.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from gladiator.core.decisions import Decision, Distribute, IllegalOrder

__all__ = ["candidate_orders", "distribute_neighbours"]


def distribute_neighbours(
    decision: Distribute, order: str, rng: random.Random, limit: int = 1_000
) -> list[str]:
    """Up to `limit` legal orders one move away from `order`: a lot (a slot's step) taken from a
    used slot and given to another, or added from the unspent budget; in an order drawn with
    `rng`."""
    try:
        base = decision.parse(order)
    except IllegalOrder:
        return []
    steps = {s.name: s.step for s in decision.slots}
    spent = sum(base.values())
    moves: list[tuple[str | None, str]] = []
    for dst in steps:
        if spent < decision.budget:
            moves.append((None, dst))
        for src, v in base.items():
            if v and src != dst:
                moves.append((src, dst))
    rng.shuffle(moves)
    out: dict[str, None] = {}
    for giver, dst in moves:
        amounts = dict(base)
        if giver is not None:
            amounts[giver] -= steps[giver]
        amounts[dst] += steps[dst]
        try:
            text = decision.validate(decision.format(amounts))
        except IllegalOrder:
            continue
        if text != order:
            out.setdefault(text, None)
            if len(out) >= limit:
                break
    return list(out)


def candidate_orders(
    decision: Decision,
    rng: random.Random,
    limit: int,
    first: Iterable[str] = (),
    neighbours: int = 0,
) -> list[str]:
    """At most `limit` distinct legal orders: `first` (the prior's choices, checked), then up to
    `neighbours` neighbours of the first of them (a `Distribute` only), then the decision's
    `candidates`."""
    seen: dict[str, None] = {}
    for order in first:
        try:
            seen.setdefault(decision.validate(order), None)
        except IllegalOrder:
            continue
    if neighbours and seen and isinstance(decision, Distribute):
        for order in distribute_neighbours(decision, next(iter(seen)), rng, neighbours):
            seen.setdefault(order, None)
    if len(seen) < limit:
        for order in decision.candidates(rng, limit):
            seen.setdefault(order, None)
            if len(seen) >= limit:
                break
    return list(seen)[:limit]
