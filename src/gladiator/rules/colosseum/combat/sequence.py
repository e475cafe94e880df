"""The attack sequence of one combat phase among any number of figures (§9.4.1-§9.4.5, T10,
with §27.3's yielding).

The attacks are revealed together (§9.4.1); T10 gives each figure's rounds (§9.4.2), shifted by
his weapon's Spd (§9.4.5); within a round more CF goes first (§9.4.4). What happens when they
strike is rounds.py's (`PhaseCombat`).

Readings of the reference (shared/rules/colosseum.md) this module follows:

* **Speed (§9.4.5):** each round is shifted by Spd and clamped to 1-5, so two attacks may share a
  round (an axe making five attacks strikes in 2, 3, 4, 5, 5).
* **Within a round (§9.4.4)** more CF goes first; equal CF of different figures are
  simultaneous, each figure's k-th attack of that CF with the others' k-th. The order is fixed
  when the attacks are revealed, from the allocated CFs: a CF loss later in the phase changes no
  place in it (§9.4.6 "the attack sequence is not recalculated"). Two attacks of one figure in
  one round (only after a clamp) keep CF order, then his own order.
* **§27.3 (G4):** in a round where a figure and an opponent he yields to both attack, all his
  attacks of that round come after every other attack of it, whatever the CFs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from gladiator.rules.colosseum.combat.cf_allocation import Allocation
from gladiator.rules.colosseum.tables.tables import attack_rounds, tables
from gladiator.rules.colosseum.vocabulary import AREAS, Area

__all__ = [
    "Attack",
    "Plan",
    "PlannedAttack",
    "Side",
    "Step",
    "attack_schedule",
    "attack_sequence",
    "duel_plans",
]

Side = int  # a figure's index in the phase's combat


@dataclass(frozen=True, slots=True)
class Attack:
    """One attack box as written: at whom, where, with how many CF; `special` is its §22.2
    special attack's T20 letter, if it is one."""

    target: Side
    area: Area
    cf: int
    special: str = ""


@dataclass(frozen=True, slots=True)
class Plan:
    """One figure's revealed allocation (§9.4.1): his attacks in the order he makes them (Q25),
    his defence per area (1 Head ... 5 Legs) and his special defence (§22.3: area, T20 letter)."""

    attacks: tuple[Attack, ...] = ()
    defence: tuple[int, ...] = (0,) * len(AREAS)
    special_defence: tuple[Area, str] | None = None

    @classmethod
    def of(cls, allocation: Allocation, target: Side) -> Plan:
        """A one-target allocation (the duel's notation) with every attack at `target`."""
        special = allocation.special_attack
        return cls(
            tuple(
                Attack(target, area, cf, special[1] if special and special[0] == area else "")
                for area, cf in allocation.attacks
            ),
            allocation.defence,
            allocation.special_defence,
        )


def duel_plans(allocations: Sequence[Allocation]) -> tuple[Plan, Plan]:
    """Two figures' allocations, each attacking the other."""
    first, second = allocations
    return Plan.of(first, 1), Plan.of(second, 0)


def attack_schedule(attacks: int, speed: int | Sequence[int] = 0) -> tuple[int, ...]:
    """T10's rounds for 0-5 attacks, each shifted by the weapon's Spd and clamped (§9.4.5); a
    sequence gives each attack its own Spd (the weapons of a pair, §24, Q44)."""
    if attacks == 0:
        return ()
    rounds = attack_rounds(attacks)
    last = tables().attack_sequence.t10.rounds_per_phase
    speeds = [speed] * attacks if isinstance(speed, int) else list(speed)
    if len(speeds) != attacks:
        raise ValueError(f"{attacks} attacks need {attacks} speeds, not {len(speeds)}")
    return tuple(min(max(r + s, 1), last) for r, s in zip(rounds, speeds, strict=True))


@dataclass(frozen=True, slots=True)
class PlannedAttack:
    """One attack as revealed (§9.4.1): whose, at whom, where, with the CF allocated, in which
    round; `rank` is its place in his own order (Q25), -1 for a Feint's counter (§22.2)."""

    side: Side
    target: Side
    area: Area
    cf: int
    round: int
    rank: int
    special: str = ""


@dataclass(frozen=True, slots=True)
class Step:
    """What is resolved at once: one attack, or equal-CF attacks simultaneously (§9.4.4)."""

    round: int
    attacks: tuple[PlannedAttack, ...]

    @property
    def simultaneous(self) -> bool:
        return len(self.attacks) > 1


def attack_sequence(
    plans: Sequence[Plan],
    speeds: Sequence[int | Sequence[int]] | None = None,
    yields: Mapping[Side, set[Side]] | None = None,
) -> tuple[Step, ...]:
    """The whole phase's order of attacks (§9.4.2-§9.4.5, Q25, §27.3)."""
    speeds = speeds if speeds is not None else [0] * len(plans)
    if len(speeds) != len(plans):
        raise ValueError(f"{len(plans)} figures need {len(plans)} speeds, not {len(speeds)}")
    planned: list[PlannedAttack] = []
    for side, (plan, speed) in enumerate(zip(plans, speeds, strict=True)):
        rounds = attack_schedule(len(plan.attacks), speed)
        for rank, (a, rnd) in enumerate(zip(plan.attacks, rounds, strict=True)):
            planned.append(PlannedAttack(side, a.target, a.area, a.cf, rnd, rank, a.special))
    yields = yields or {}
    steps: list[Step] = []
    for rnd in sorted({p.round for p in planned}):
        here = [p for p in planned if p.round == rnd]
        sides = {p.side for p in here}
        late = {s for s in sides if yields.get(s, set()) & sides}  # §27.3 (G4)
        for tier in (False, True):
            layer = [p for p in here if (p.side in late) == tier]
            for cf in sorted({p.cf for p in layer}, reverse=True):
                by_side = [
                    sorted((p for p in layer if p.cf == cf and p.side == s), key=lambda p: p.rank)
                    for s in sorted({p.side for p in layer if p.cf == cf})
                ]
                for i in range(max(len(g) for g in by_side)):
                    steps.append(Step(rnd, tuple(g[i] for g in by_side if i < len(g))))
    return tuple(steps)
