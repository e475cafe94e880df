"""The compact strategy set of one Colosseum allocation (§9.3): a few dozen legal orders that span
what a gladiator can do with his CFs available, for the matrix game of `allocation_solver`.

Attack plans: none; all on one area at 8 CF (or all he has), about a half and a third of his
budget (§9.3.2: at most 8 an area); two equal attacks on the pairs of areas worth
most. Defence shapes for what is left (§9.3.3; at most the §10.3.3 group cap): none (only with no
attack or the largest one), an even spread, all on the head, all on the chest, head-and-chest
heavy. The extremes
(everything to defence, evenly; the largest single attack) are always in, and so is any order
the caller adds (the tactician's own choice). Every order is validated by the decision itself,
so the set is legal by construction; duplicates are dropped, first kept.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from gladiator.core.decisions import Distribute, IllegalOrder
from gladiator.rules.colosseum.vocabulary import AREAS

__all__ = [
    "DEFENCE_SHAPES",
    "Limits",
    "basic_slots",
    "neighbours",
    "order_text",
    "spread",
    "strategy_set",
]

# Weights over head, chest, groin, arms, legs.
DEFENCE_SHAPES: dict[str, tuple[int, ...]] = {
    "even": (1, 1, 1, 1, 1),
    "head": (1, 0, 0, 0, 0),
    "chest": (0, 1, 0, 0, 0),
    "head+chest heavy": (2, 2, 1, 1, 1),
}
_PAIRS = ((0, 1), (1, 2))  # head+chest, chest+groin
_SLOTS = frozenset({f"{k}-{a.upper()}" for k in "AD" for a in AREAS})


def basic_slots(decision: Distribute) -> bool:
    """The plain §9.3 allocation: exactly the ten Basic Game slots (no §22 specials, no §20 net
    slots, no §36.3 weakness slot), the solver's domain."""
    return {s.name for s in decision.slots} == _SLOTS


def spread(total: int, shape: Sequence[int]) -> list[int]:
    """`total` CF over the areas in proportion to `shape`, largest remainders to the earlier
    areas (head first), whole numbers only."""
    weight = sum(shape)
    if total <= 0 or weight <= 0:
        return [0] * len(shape)
    out = [total * w // weight for w in shape]
    left = total - sum(out)
    order = sorted(range(len(shape)), key=lambda i: (-(total * shape[i] % weight), i))
    for i in order:
        if left <= 0:
            break
        if shape[i]:
            out[i] += 1
            left -= 1
    return out


def order_text(attack: Sequence[int], defence: Sequence[int]) -> str:
    parts = [f"A-{a.upper()}:{v}" for a, v in zip(AREAS, attack, strict=True) if v]
    parts += [f"D-{a.upper()}:{v}" for a, v in zip(AREAS, defence, strict=True) if v]
    return " ".join(parts) or "-"


def _attack_plans(budget: int, amax: int) -> list[list[int]]:
    plans: list[list[int]] = [[0] * 5]
    if amax <= 0:
        return plans
    levels = sorted(
        {min(amax, budget), *(min(amax, max(1, round(budget * f))) for f in (1 / 2, 1 / 3))},
        reverse=True,
    )
    for area in range(5):
        for cf in levels:
            plan = [0] * 5
            plan[area] = cf
            plans.append(plan)
    each = min(amax, budget // 2)
    if each >= 1:
        for a, b in _PAIRS:
            plan = [0] * 5
            plan[a] = plan[b] = each
            plans.append(plan)
    return plans


def strategy_set(decision: Distribute, extra: Iterable[str] = ()) -> list[str]:
    """The compact legal set for this allocation decision, `extra` orders first (each
    validated; an illegal one is left out)."""
    limits = {s.name: s.maximum for s in decision.slots}
    budget = decision.budget
    amax = min(limits.get(f"A-{a.upper()}", 0) for a in AREAS)
    dmax = min(limits.get(f"D-{a.upper()}", 0) for a in AREAS)
    cap = min((g.maximum for g in decision.groups if g.label == "defence"), default=budget)
    out: list[str] = []
    seen: set[str] = set()

    def add(text: str) -> None:
        try:
            order = decision.validate(text)
        except IllegalOrder:
            return
        if order not in seen:
            seen.add(order)
            out.append(order)

    for text in extra:
        add(text)
    for plan in _attack_plans(budget, amax):
        left = min(budget - sum(plan), cap)
        if not any(plan) or sum(plan) == min(amax, budget):  # the extremes: all or nothing
            add(order_text(plan, [0] * 5))
        for shape in DEFENCE_SHAPES.values():
            defence = [min(v, dmax) for v in spread(left, shape)]
            add(order_text(plan, defence))
    return out


@dataclass(frozen=True, slots=True)
class Limits:
    """What a §9.3 allocation may hold: the budget, each slot's maximum, the §10.3.3 cap."""

    budget: int
    attack_max: tuple[int, ...]
    defence_max: tuple[int, ...]
    defence_cap: int

    @classmethod
    def of(cls, decision: Distribute) -> Limits:
        limits = {s.name: s.maximum for s in decision.slots}
        cap = min(
            (g.maximum for g in decision.groups if g.label == "defence"), default=decision.budget
        )
        return cls(
            decision.budget,
            tuple(limits.get(f"A-{a.upper()}", 0) for a in AREAS),
            tuple(limits.get(f"D-{a.upper()}", 0) for a in AREAS),
            cap,
        )


def neighbours(
    limits: Limits, attack: Sequence[int], defence: Sequence[int]
) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every legal allocation one CF away: one CF moved between two slots, added from the
    unspent or taken back (§9.3.2 slot maxima, the budget, the §10.3.3 cap)."""
    slots = [*attack, *defence]
    caps = [*limits.attack_max, *limits.defence_max]
    spent = sum(slots)
    n = len(slots)
    for i in range(-1, n):  # -1: from the unspent CF
        if i >= 0 and slots[i] == 0:
            continue
        if i < 0 and spent >= limits.budget:
            continue
        for j in range(-1, n):  # -1: back to the unspent
            if j == i or (j >= 0 and slots[j] >= caps[j]):
                continue
            new = list(slots)
            if i >= 0:
                new[i] -= 1
            if j >= 0:
                new[j] += 1
            if sum(new[5:]) > limits.defence_cap:
                continue
            yield tuple(new[:5]), tuple(new[5:])
