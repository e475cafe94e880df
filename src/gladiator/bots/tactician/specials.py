"""§22 in the tactician's allocation (issue 38): each special attack and special defence the
decision offers priced as the knapsack's other choices are, in CF of worth dealt minus taken.

A special attack replaces the plain attack on its area (§22.2), so it is a second curve for that
area: the worth of `cf` CF of Disarm on the arms, Feint anywhere, Sweep on the legs, Shield Bash
on the chest or Sand on the head, against the defence he is expected to put there, read through
the same CRT outcomes (`crt_outcomes`) and priced in the same units (`hit_value`, KILL = 40):

* Disarm: its H is a P whose weapon-drop roll has −(8 + 2 × the H bonus): the chance that
  3D6 − modified CF − my ST − his arm losses + that DRM < 1, times what a weapon on the ground
  is worth to me (he strikes nothing till he has one back, §13.1, E4);
* Feint: no damage on an H, but a free attack of 4 CF + the H bonus at once on his least
  defended area (S4);
* Sweep and Shield Bash: half damage (the wounds of half the hit's worth, S5) and the Stumble
  check or the Stun roll;
* Sand: 2D3 + the H bonus CF off the rest of his phase (S6), worth a part of a CF each.

A special defence makes every attack on its area an automatic result for 2 CF of defence
(§22.3): the plan with those 2 CF taken out of the budget and his threat on that area read as
the automatic result (No Effect, Block's S, Parry's P). `best_specials` runs the plain plan, one
plan per offered special attack, one per offered special defence, and the best two together, and
keeps the one worth most. The weights are judgement, not rules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from gladiator.bots.colosseum_evaluation import (
    Plan,
    attack_worth,
    crt_outcomes,
    hit_value,
    sum_3d6,
)
from gladiator.core.decisions import Distribute
from gladiator.rules.colosseum.plots.special_notation import read_slot
from gladiator.rules.colosseum.state import Gladiator
from gladiator.rules.colosseum.vocabulary import AREAS, Area, CrtVariant

__all__ = ["SpecialCurves", "best_specials", "special_curves", "special_order", "special_slots"]

WEAPON_DOWN = 9.0  # his weapon on the ground: his attacks gone till he has it back (E4, §13.4)
STUMBLE = 3.0  # a Stumble check failed: he must write S next phase (§15.3), +2 PA on him
STUN_POINT = 1.5  # each point of Stun: a CF off him now and next phase (§11)
SAND_CF = 0.5  # each CF he loses for the rest of the phase (§9.4.6, §9.4.7)
_SHIELD_HIT = 0.5
_PARRY = 0.3
_FUMBLE = -2.5


@dataclass(frozen=True)
class SpecialCurves:
    """The offered specials of one allocation: per special attack slot its area and curve over
    0..8 CF, and per special defence slot its area and the worth of the automatic result to him
    (0 for No Effect)."""

    attacks: tuple[tuple[str, Area, tuple[float, ...], int], ...]  # slot, area, curve, max CF
    defences: tuple[tuple[str, Area, float], ...]


def special_slots(decision: Distribute) -> tuple[dict[str, int], list[str]]:
    """The special attack slots the decision offers (`A-ARMS-DISARM`) with their largest CF,
    and its special defence slots (`D-HEAD-DUCK`), those with room for CF."""
    attacks: dict[str, int] = {}
    defences: list[str] = []
    for s in decision.slots:
        if s.maximum <= 0 or s.name.count("-") != 2 or s.name.endswith("-FW"):
            continue
        if s.name.startswith("A-"):
            attacks[s.name] = s.maximum
        else:
            defences.append(s.name)
    return attacks, defences


@lru_cache(maxsize=4096)
def _drop_chance(modified: int, my_st: int, his_arms: int, drm: int) -> float:
    """§13.1.1: P(3D6 − modified CF − attacker ST − arm losses + drm < 1)."""
    return sum(p for roll, p in sum_3d6() if roll - modified - my_st - his_arms + drm < 1)


def _special_worth(
    code: str,
    me: Gladiator,
    foe: Gladiator,
    area: Area,
    modified: int,
    variant: CrtVariant,
    feint_target: tuple[Area, int],
) -> float:
    """The expected worth of one special attack at this modified CF (the module's docstring)."""
    kit = (foe.has_weapon, foe.has_shield and not foe.sheet.shield_useless)
    value = 0.0
    for p, result, bonus in crt_outcomes(modified, kit[0], kit[1], variant):
        if result == "F":
            value += p * _FUMBLE
        elif result != "H":
            if code != "T":  # Sand: every other result has no effect (S6)
                value += p * (_SHIELD_HIT if result.startswith("S") else _PARRY)
        elif code == "A":  # Disarm
            arms = foe.sheet.cf_lost_to_wounds("arms")
            drop = _drop_chance(max(modified, 0), me.sheet.current_st, arms, -8 - 2 * bonus)
            value += p * drop * (WEAPON_DOWN if foe.has_weapon else 0.0)
        elif code == "F":  # Feint: 4 + bonus CF on his least defended area
            where, defence = feint_target
            value += p * attack_worth(foe, where, max(1, 4 + bonus) - defence, variant)
        elif code == "S":  # Sweep: half damage and a Stumble check less the bonus
            value += p * (0.5 * hit_value(foe, area, bonus) + STUMBLE * min(1.0, 0.3 + 0.1 * bonus))
        elif code == "H":  # Shield Bash: half damage and 2D6 + 2 x bonus on the Stun row
            value += p * (0.5 * hit_value(foe, area, bonus) + STUN_POINT * (1.5 + bonus))
        else:  # Sand: 2D3 + bonus CF lost
            value += p * SAND_CF * max(0, 4 + bonus)
    return value


def special_curves(
    decision: Distribute,
    me: Gladiator,
    foe: Gladiator,
    his_defence: Sequence[int],
    variant: CrtVariant,
) -> SpecialCurves:
    """The worth curves of every special the decision offers against `foe`, whose defence per
    area is expected to be `his_defence`."""
    attack_slots, defence_slots = special_slots(decision)
    weakest = min(range(len(AREAS)), key=lambda i: (his_defence[i], i))
    feint_target = (AREAS[weakest], his_defence[weakest])
    attacks = []
    for name, top in attack_slots.items():
        area, code = _read(name)
        d = his_defence[AREAS.index(area)]
        curve = tuple(
            _special_worth(code, me, foe, area, cf - d, variant, feint_target) if cf else 0.0
            for cf in range(9)
        )
        attacks.append((name, area, curve, top))
    defences = []
    for name in defence_slots:
        area, code = _read(name)
        # §22.3: No Effect for Duck, Back Step, Leap; Block an S on my shield, Parry a P.
        auto = {"B": _SHIELD_HIT, "P": _PARRY}.get(code, 0.0)
        defences.append((name, area, auto))
    return SpecialCurves(tuple(attacks), tuple(defences))


def _read(name: str) -> tuple[Area, str]:
    """`A-ARMS-DISARM` -> ("arms", "A"); `D-HEAD-DUCK` -> ("head", "D")."""
    read = read_slot(f"{name}:2")
    if read is None:
        raise ValueError(f"not a special slot: {name}")
    _kind, area, code, _cf = read
    return area, code


# plan(curves, threat, attack_max, reserve): the tactician's knapsack (best_allocation) with
# `reserve` CF of the budget and of the defence kept back for a special defence.
Planner = Callable[[Sequence[Sequence[float]], Sequence[float], Sequence[int], int], Plan]
_Choice = tuple[float, Plan, str | None, str | None]


def best_specials(
    curves: Sequence[Sequence[float]],
    threat: Sequence[float],
    attack_max: Sequence[int],
    specials: SpecialCurves,
    plan: Planner,
) -> tuple[Plan, str | None, str | None]:
    """The plan worth most among the plain one, one special attack, one special defence and
    the best of each together; with the special attack's and defence's slot names (or None)."""
    plain = plan(curves, threat, attack_max, 0)
    best: _Choice = (plain.value, plain, None, None)
    tried = [_with_attack(curves, threat, attack_max, a, plan) for a in specials.attacks]
    attacks = [c for c in tried if c is not None]
    defences = [_with_defence(curves, threat, attack_max, d, plan) for d in specials.defences]
    for choice in (*attacks, *defences):
        if choice[0] > best[0]:
            best = choice
    if attacks and defences:
        top_a = max(attacks, key=lambda c: c[0])[2]
        top_d = max(defences, key=lambda c: c[0])[3]
        a = next(x for x in specials.attacks if x[0] == top_a)
        d = next(x for x in specials.defences if x[0] == top_d)
        both = _with_attack(curves, threat, attack_max, a, plan, d)
        if both is not None and both[0] > best[0]:
            best = both
    return best[1], best[2], best[3]


def _with_attack(
    curves: Sequence[Sequence[float]],
    threat: Sequence[float],
    attack_max: Sequence[int],
    attack: tuple[str, Area, tuple[float, ...], int],
    plan: Planner,
    defence: tuple[str, Area, float] | None = None,
) -> _Choice | None:
    """The plan with this special attack's curve on its area (and this special defence); None
    if it leaves that area unattacked."""
    name, area, curve, top = attack
    i = AREAS.index(area)
    alt = [list(c) for c in curves]
    alt[i] = list(curve)
    amax = list(attack_max)
    amax[i] = top
    if defence is None:
        p = plan(alt, threat, amax, 0)
        return (p.value, p, name, None) if p.attack[i] else None
    d_name, d_area, auto = defence
    j = AREAS.index(d_area)
    alt_threat = list(threat)
    alt_threat[j] = 0.0
    p = plan(alt, alt_threat, amax, 2)
    return (p.value - threat[j] * auto, p, name, d_name) if p.attack[i] else None


def _with_defence(
    curves: Sequence[Sequence[float]],
    threat: Sequence[float],
    attack_max: Sequence[int],
    defence: tuple[str, Area, float],
    plan: Planner,
) -> _Choice:
    """The plan with this special defence: his threat on its area read as the automatic result,
    its 2 CF kept back (§22.3)."""
    name, area, auto = defence
    j = AREAS.index(area)
    alt_threat = list(threat)
    alt_threat[j] = 0.0
    p = plan(curves, alt_threat, attack_max, 2)
    return (p.value - threat[j] * auto, p, None, name)


def special_order(plan: Plan, attack: str | None, defence: str | None) -> str:
    """The plan's slots with the special attack written in its area's attack box and the
    special defence's 2 CF in its area's defence box (§22.2, §22.3, S2)."""
    parts = []
    for a in plan.order:
        cf = plan.attack[AREAS.index(a)]
        slot = f"A-{a.upper()}"
        if attack is not None and attack.startswith(slot + "-"):
            slot = attack
        parts.append(f"{slot}:{cf}")
    for a, d in zip(AREAS, plan.defence, strict=True):
        if d:
            parts.append(f"D-{a.upper()}:{d}")
    if defence is not None:
        parts.append(f"{defence}:2")
    return " ".join(parts) or "-"
