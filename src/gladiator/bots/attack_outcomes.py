"""Exact dice distributions of one Colosseum attack, for the allocation solver's payoff model.

Every die is enumerated, nothing is sampled:

* the CRT roll (§9.5.1, T5): 3D6 + the column DRM (§9.5.3/§9.5.4) + other DRMs (§10.3.3.1),
  clamped to 3-18 (Q27), converted for the defender's kit (§9.6, T6) by the engine's own
  `convert_result`;
* a body hit (§10.1-§10.5): the 5D6 wound roll (WHITE 3D6 + H modifier + armour DRM, T7, T8 with
  BLACK for partial armour) and the critical roll RED + BLACK + wounds (T9) in the Q28 order, a
  critical H without a helmet read as 3x + M, and a critical S's Stun 2D6 - CN, at least 1
  (§10.5, §11.2);
* a shield hit (§12.2): the 2D6 of the damage roll, and for S* the WHITE 3D6 drop roll (§12.4);
* a parry (§13.1.1): the 3D6 weapon drop roll.

Results are tuples of (probability, ...) summing to 1, cached: they depend on table data and a
few numbers only, never on a state.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from functools import cache, lru_cache

from gladiator.rules.colosseum.combat.crt import convert_result, crt_column
from gladiator.rules.colosseum.tables.sheet_tables import Armour
from gladiator.rules.colosseum.tables.tables import (
    critical_result,
    crt_result,
    tables,
    wound_result,
)
from gladiator.rules.colosseum.vocabulary import Area, CrtVariant

__all__ = [
    "HitEntry",
    "crt_distribution",
    "drop_probability",
    "hit_distribution",
    "sum_2d6",
    "sum_3d6",
]

# (probability, wounds (-1: T7 Kill), critical codes other than 1/2x/3x, Stun from a critical S)
HitEntry = tuple[float, int, tuple[str, ...], int]


@cache
def sum_3d6() -> tuple[tuple[int, float], ...]:
    counts = Counter(sum(d) for d in itertools.product(range(1, 7), repeat=3))
    return tuple((s, n / 216) for s, n in sorted(counts.items()))


@cache
def sum_2d6() -> tuple[tuple[int, float], ...]:
    counts = Counter(a + b for a, b in itertools.product(range(1, 7), repeat=2))
    return tuple((s, n / 36) for s, n in sorted(counts.items()))


@lru_cache(maxsize=4096)
def crt_distribution(
    modified: int, drm: int, has_weapon: bool, has_shield: bool, variant: CrtVariant = "rules"
) -> tuple[tuple[float, str, int], ...]:
    """§9.5, T5, §9.6: (probability, code, H modifier) of one attack at this modified CF with
    `drm` added to the roll (§10.3.3.1), converted for the defender's kit."""
    column, column_drm = crt_column(modified)
    table = tables().crt_table(variant)
    acc: defaultdict[tuple[str, int], float] = defaultdict(float)
    for roll, p in sum_3d6():
        total = min(max(roll + column_drm + drm, table.min_roll), table.max_roll)
        result, _ = convert_result(
            crt_result(column, total, variant), has_weapon=has_weapon, has_shield=has_shield
        )
        acc[(result.code, result.modifier)] += p
    return tuple((p, code, mod) for (code, mod), p in sorted(acc.items()))


@lru_cache(maxsize=2048)
def hit_distribution(
    area: Area, armour: str, helmet: bool, h_modifier: int, cn: int
) -> tuple[HitEntry, ...]:
    """§10.1-§10.5 (Q28): every outcome of one body hit on `area` with this armour text (`B4`,
    `-`), a helmet still worn or not, an H modifier, and the defender's CN (for a critical S)."""
    t8 = tables().wounds.t8
    worn = Armour.model_validate(armour)
    acc: defaultdict[tuple[int, tuple[str, ...], int], float] = defaultdict(float)
    for white, pw in sum_3d6():
        for black in range(1, 7):
            t7 = wound_result(white + h_modifier + t8.for_armour(worn, black))
            if t7 == "kill":  # §10.1: killed outright, no critical roll (Q28)
                acc[(-1, (), 0)] += pw / 6
                continue
            if t7 == 0:
                acc[(0, (), 0)] += pw / 6
                continue
            for red in range(1, 7):
                codes = [c for c in critical_result(area, red + black + t7) if c != "-"]
                if "H" in codes and not helmet:  # §10.5 H: no helmet, 3x + M
                    i = codes.index("H")
                    codes[i : i + 1] = ["3x", "M"]
                count = Counter(codes)
                wounds = (t7 + count["1"]) * 2 ** count["2x"] * 3 ** count["3x"]
                rest = tuple(sorted(c for c in codes if c not in ("1", "2x", "3x", "S")))
                p = pw / 36
                if "S" not in codes:
                    acc[(wounds, rest, 0)] += p
                    continue
                for roll, ps in sum_2d6():  # §10.5 S: Stun 2D6 - CN, at least 1
                    acc[(wounds, rest, max(roll - cn, 1))] += p * ps
    return tuple((p, w, codes, stun) for (w, codes, stun), p in sorted(acc.items()))


@lru_cache(maxsize=4096)
def drop_probability(modified: int, attacker_st: int, arm_cf_lost: int, drm: int = 0) -> float:
    """§13.1.1: P(3D6 - modified CF - attacker's ST - arms CF lost + DRM < 1)."""
    return sum(p for roll, p in sum_3d6() if roll - modified - attacker_st - arm_cf_lost + drm < 1)
