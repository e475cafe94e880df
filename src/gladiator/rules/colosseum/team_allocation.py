"""The secret allocation of a team match (§9.3, §27.3.1, §27.5): the duel's `Distribute` with a
target on every attack box.

Slots are `A-<TARGET>-<AREA>` (an attack on that opponent's area) and `D-<AREA>`, e.g.
`A-BLUE-HEAD:4 A-GREEN-CHEST:3 D-ARMS:2`: the attacks in the order written (Q25), then the
defences. The decision describes itself: `to_dict()` lists each attack slot's target and area,
and each target's largest attack (8, §9.3.2, or 8 + his PA, §27.5).

RULINGS (the G series of docs/rulings.md)

G9  §9.4.1, §27.3.1: a gladiator still has one attack box per body area, and each box names one
    opponent: he may attack the head of one opponent and the chest of another, never the heads of
    both. What he writes announces how many attacks go at each opponent (§27.3.1).
G10 §27.5, §9.3.2: an opponent who stands outside a single gladiator's combat front may put his
    whole PA on one attack on him over the 8-CF cap: at most one attack a phase exceeds 8 CF, by
    at most that PA. His PA is in his CFs available as in a duel (§9.3.1).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from typing import Any

from gladiator.core.decisions import Distribute, IllegalOrder, Slot
from gladiator.rules.colosseum.cf_allocation import MAX_ATTACK_CF_PER_AREA, parse_allocation
from gladiator.rules.colosseum.orders import AllocationChoice
from gladiator.rules.colosseum.vocabulary import AREAS, Area

__all__ = ["TeamAllocation", "TeamAllocationChoice", "attack_slot"]

_ITEM = re.compile(r"^([AD](?:-[A-Z]+)?-[A-Z]+)\s*[:=]\s*(-?\d+)$")


def attack_slot(target: str, area: Area) -> str:
    return f"A-{target.upper()}-{area.upper()}"


@dataclass(frozen=True, slots=True)
class TeamAllocation:
    """A revealed team allocation: (target, area, CF) attacks in his order, defence per area."""

    attacks: tuple[tuple[str, Area, int], ...]
    defence: tuple[int, ...]

    @property
    def attack_total(self) -> int:
        return sum(cf for _, _, cf in self.attacks)


@dataclass(frozen=True, slots=True)
class TeamAllocationChoice(Distribute):
    """§9.3 with a target per attack box (G9); `caps` is each target's largest attack (G10)."""

    targets: tuple[str, ...] = ()
    caps: tuple[int, ...] = ()

    def _slot_target(self) -> dict[str, tuple[str, Area]]:
        return {attack_slot(t, a): (t, a) for t in self.targets for a in AREAS}

    def read(self, order: str) -> TeamAllocation:
        """The allocation an order writes, checked (IllegalOrder with a one-line reason)."""
        amounts = Distribute.parse(self, order)  # every slot named is one of ours
        for s in self.slots:
            v = amounts[s.name]
            if not s.minimum <= v <= s.maximum:
                raise IllegalOrder(order, f"{s.name} must be {s.minimum}..{s.maximum}, not {v}")
        total = sum(amounts.values())
        if total > self.budget:
            raise IllegalOrder(order, f"spends {total} of a budget of {self.budget} (§9.3.1)")
        for g in self.groups:
            taken = sum(amounts[n] for n in g.slots)
            if taken > g.maximum:
                raise IllegalOrder(order, f"{taken} CF to {g.label}, at most {g.maximum} ({g.why})")
        where = self._slot_target()
        written = [
            m.group(1)
            for item in order.upper().replace(",", " ").split()
            if (m := _ITEM.match(item)) is not None
        ]
        attacks: list[tuple[str, Area, int]] = []
        seen: set[str] = set()
        for name in written:
            if name in where and amounts[name] and name not in seen:
                seen.add(name)
                target, area = where[name]
                attacks.append((target, area, amounts[name]))
        areas = [a for _, a, _ in attacks]
        for area in AREAS:
            if areas.count(area) > 1:
                raise IllegalOrder(
                    order, f"one attack box per area: the {area} may be attacked once (G9, §9.4.1)"
                )
        over = [cf for _, _, cf in attacks if cf > MAX_ATTACK_CF_PER_AREA]
        if len(over) > 1:
            raise IllegalOrder(order, "only one attack may exceed 8 CF (§27.5, G10)")
        defence = tuple(amounts[f"D-{a.upper()}"] for a in AREAS)
        return TeamAllocation(tuple(attacks), defence)

    def validate(self, order: str) -> str:
        return format_team(self.read(order))

    def legal(self, limit: int = 10_000) -> list[str] | None:
        return None  # far too many to list; `sample` draws one

    def sample(self, rng: random.Random) -> str:
        # One target (or none) per attack box, at most one box over 8 (G9, G10), then a plain
        # draw over those slots.
        chosen: dict[str, int] = {}
        if self.targets and any(s.maximum for s in self.slots if s.name.startswith("A-")):
            for area in AREAS:
                pick = int(rng.random() * (len(self.targets) + 1))
                if pick < len(self.targets):
                    chosen[attack_slot(self.targets[pick], area)] = MAX_ATTACK_CF_PER_AREA
            if chosen and rng.random() < 0.5:
                name = sorted(chosen)[int(rng.random() * len(chosen))]
                chosen[name] = 10**6
        slots = tuple(
            replace(s, maximum=min(s.maximum, chosen.get(s.name, 0)))
            if s.name.startswith("A-")
            else s
            for s in self.slots
        )
        plain = Distribute(prompt=self.prompt, budget=self.budget, slots=slots, groups=self.groups)
        return self.validate(plain.sample(rng))

    def aimed(self, target: str) -> AllocationChoice:
        """The duel's allocation decision with every attack at `target` (at most 8 CF each),
        for a bot that fights one opponent at a time (G6); `retarget` turns its order back."""
        slots = tuple(
            Slot(f"A-{a.upper()}", min(self._slot(attack_slot(target, a)), MAX_ATTACK_CF_PER_AREA))
            for a in AREAS
        ) + tuple(s for s in self.slots if s.name.startswith("D-"))
        return AllocationChoice(
            prompt=self.prompt, secret=True, budget=self.budget, slots=slots, groups=self.groups
        )

    def retarget(self, order: str, target: str) -> str:
        """An order of `aimed(target)` (either allocation notation) as this decision's order."""
        al = parse_allocation(order, self.budget)
        return self.validate(
            format_team(TeamAllocation(tuple((target, a, cf) for a, cf in al.attacks), al.defence))
        )

    def _slot(self, name: str) -> int:
        return next((s.maximum for s in self.slots if s.name == name), 0)

    def to_dict(self) -> dict[str, Any]:
        d = Distribute.to_dict(self)
        d["attack_slots"] = [
            {"slot": name, "target": t, "area": a} for name, (t, a) in self._slot_target().items()
        ]
        d["targets"] = [
            {"seat": t, "max_attack": cap} for t, cap in zip(self.targets, self.caps, strict=True)
        ]
        return d


def format_team(allocation: TeamAllocation) -> str:
    """The canonical text: attacks in his order, then defences by area; `-` for nothing."""
    parts = [f"{attack_slot(t, a)}:{cf}" for t, a, cf in allocation.attacks]
    parts += [f"D-{a.upper()}:{cf}" for a, cf in zip(AREAS, allocation.defence, strict=True) if cf]
    return " ".join(parts) if parts else "-"


def team_slots(
    targets: tuple[tuple[str, int], ...], budget: int, may_attack: bool
) -> tuple[Slot, ...]:
    """Attack slots per (target, area) up to each target's cap; defence slots up to the budget."""
    out = [
        Slot(attack_slot(t, a), min(cap, budget) if may_attack else 0)
        for t, cap in targets
        for a in AREAS
    ]
    out += [Slot(f"D-{a.upper()}", budget) for a in AREAS]
    return tuple(out)
