"""The attack sequence of one combat phase between two gladiators (§9.4.1-§9.4.5, T10).

The attacks are revealed together (§9.4.1); T10 gives each gladiator's rounds (§9.4.2), shifted by
his weapon's Spd (§9.4.5); within a round more CF goes first (§9.4.4). What happens when they
strike is attacks.py's (`PhaseCombat`).

Readings of the reference (shared/rules/colosseum.md) this module follows:

* **Speed (§9.4.5):** each round is shifted by Spd and clamped to 1-5, so two attacks may share a
  round (an axe making five attacks strikes in 2, 3, 4, 5, 5).
* **Within a round (§9.4.4)** more CF goes first; equal CF of the two gladiators are simultaneous.
  The order is fixed when the attacks are revealed, from the allocated CFs: a CF loss later in the
  phase changes no place in it (§9.4.6 "the attack sequence is not recalculated"). Two attacks of
  the same gladiator in one round (only after a clamp) keep CF order, then his own order; each is
  paired with at most one equal-CF enemy attack.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gladiator.rules.colosseum.cf_allocation import Allocation
from gladiator.rules.colosseum.tables import attack_rounds, tables
from gladiator.rules.colosseum.vocabulary import Area

__all__ = [
    "PlannedAttack",
    "Side",
    "Step",
    "attack_schedule",
    "attack_sequence",
]

Side = int  # 0 or 1


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
    """One attack as revealed (§9.4.1): whose, where, with the CF allocated, in which round."""

    side: Side
    area: Area
    cf: int
    round: int
    rank: int  # 0 for his first attack in his own order (Q25)


@dataclass(frozen=True, slots=True)
class Step:
    """What is resolved at once: one attack, or two equal-CF attacks simultaneously (§9.4.4)."""

    round: int
    attacks: tuple[PlannedAttack, ...]

    @property
    def simultaneous(self) -> bool:
        return len(self.attacks) > 1


def attack_sequence(
    allocations: Sequence[Allocation], speeds: Sequence[int | Sequence[int]] = (0, 0)
) -> tuple[Step, ...]:
    """The whole phase's order of attacks for two gladiators (§9.4.2-§9.4.5, Q25)."""
    if len(allocations) != 2 or len(speeds) != 2:
        raise ValueError("a phase's attack sequence is worked out for two gladiators")
    planned: list[PlannedAttack] = []
    for side, (alloc, speed) in enumerate(zip(allocations, speeds, strict=True)):
        rounds = attack_schedule(len(alloc.order), speed)
        for rank, ((area, cf), rnd) in enumerate(zip(alloc.attacks, rounds, strict=True)):
            planned.append(PlannedAttack(side, area, cf, rnd, rank))
    steps: list[Step] = []
    for rnd in sorted({p.round for p in planned}):
        here = [p for p in planned if p.round == rnd]
        for cf in sorted({p.cf for p in here}, reverse=True):
            mine = sorted((p for p in here if p.cf == cf and p.side == 0), key=lambda p: p.rank)
            theirs = sorted((p for p in here if p.cf == cf and p.side == 1), key=lambda p: p.rank)
            for i in range(max(len(mine), len(theirs))):
                pair = tuple(group[i] for group in (mine, theirs) if i < len(group))
                if len(pair) == 2:
                    steps.append(Step(rnd, pair))
                else:
                    steps.extend(Step(rnd, (p,)) for p in pair)
    return tuple(steps)
