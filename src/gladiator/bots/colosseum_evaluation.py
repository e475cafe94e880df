"""What positions and allocations are worth to a Colosseum gladiator: the rules knowledge of the
tactician bot (`gladiator.bots.tactician.bot`), as pure functions of public state.

Nothing here rolls or changes a state. Everything read is on the table for both seats (both log
sheets, positions, facings, the CFs available and the allocations already revealed: `view`
shows the whole state); the secret orders of the phase wait inside `Match` and are never seen.

Values are in "CF of the victim": one CF lost is 1, a kill is `KILL`. Two layers:

* **Allocation (§9.3-§10.5).** `attack_curve` is the expected worth of an attack on one body area
  for each CF put into it against an expected defence: the CRT (§9.5, T5) read for every 3D6
  roll, converted for the defender's kit (§9.6, T6), each body hit priced by the exact
  distribution of the 5D6 wound roll (§10.1 T7, armour §10.2 T8, criticals §10.4 T9 in the Q28
  order) against the wounds he already has (§10.3 kill, §10.3.1 CF categories). `best_allocation`
  splits the CFs available between attacks and defences to maximise what he deals minus what he
  is expected to take under that separable model: the attacks exactly (a knapsack over the five
  areas), the defence one CF at a time where it saves most.
* **Position (§6.2, §9.1, §9.2).** `engagement` says, for two poses, who has whom in his combat
  front and the positional advantage each would strike with (T11; the §9.2.1 status bonuses are
  the caller's to add).

The weights below are judgement, not rules: they say how the tactician plays, not what happens.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from gladiator.core.hexgrid import Hex, distance
from gladiator.rules.colosseum.arena.combat_geometry import front_coords
from gladiator.rules.colosseum.combat.cf_allocation import MAX_ATTACK_CF_PER_AREA
from gladiator.rules.colosseum.combat.crt import convert_result, crt_column, shift_result
from gladiator.rules.colosseum.state import Gladiator
from gladiator.rules.colosseum.tables.sheet_tables import Armour
from gladiator.rules.colosseum.tables.tables import (
    critical_result,
    crt_result,
    tables,
    wound_result,
)
from gladiator.rules.colosseum.vocabulary import AREAS, Area, CrtVariant

__all__ = [
    "KILL",
    "Engagement",
    "Kit",
    "Plan",
    "attack_curve",
    "attack_worth",
    "best_allocation",
    "crt_outcomes",
    "engagement",
    "hit_value",
    "sum_3d6",
]

KILL = 40.0  # a dead opponent, in CF
_MORTAL = 14.0  # §10.5 M: he dies at the end of the match
_ARTERY = 10.0  # §10.5 SA: a wound a phase until he dies
_CRIT_EXTRA: dict[str, float] = {
    "V": 1.0,  # -1 CF for the match
    "S": 3.0,  # Stun (2D6 - CN): fewer CF, maybe unconscious (§11.4)
    "ST": 0.6,
    "AG": 0.6,
    "WD": 4.0,  # no attacks until he picks it up (E4)
    "SD": 1.5,
    "H": 2.0,  # the head bare for the rest of the match
    "LMP": 1.0,
    "STU": 1.0,
}
_SHIELD_HIT = 0.5  # S, S*: shield damage (§12) on the way to a useless shield
_PARRY = 0.3  # P, P*: a chance he drops his weapon (§13.1.1)
_FUMBLE = -2.5  # F: the attacker's later attacks are cancelled, his defence lowered (§9.6)
# Each wound brings him nearer to a full area (§10.3.2): this share of a kill spread over W boxes.
_PROGRESS = 0.5


# --- dice ----------------------------------------------------------------------------------------


@cache
def sum_3d6() -> tuple[tuple[int, float], ...]:
    """3D6: (total, probability) for each total 3-18."""
    counts = Counter(a + b + c for a, b, c in itertools.product(range(1, 7), repeat=3))
    return tuple((s, n / 216) for s, n in sorted(counts.items()))


@lru_cache(maxsize=512)
def crt_outcomes(
    modified: int,
    has_weapon: bool,
    has_shield: bool,
    variant: CrtVariant = "rules",
    shift: tuple[tuple[str, str], ...] = (),
) -> tuple[tuple[float, str, int], ...]:
    """§9.5, T5, §9.6: (probability, code, H modifier) of one attack at this modified CF on a
    defender with this kit, summed over the 3D6; `shift` is the attacker's weapon's swap of the
    result read (§21.4, §24.3: the engine's `shift_result`, before the defender's kit)."""
    column, drm = crt_column(modified)
    table = tables().crt_table(variant)
    changes = dict(shift) if shift else None
    acc: defaultdict[tuple[str, int], float] = defaultdict(float)
    for roll, p in sum_3d6():
        total = min(max(roll + drm, table.min_roll), table.max_roll)
        cell, _ = shift_result(crt_result(column, total, variant), changes)
        result, _ = convert_result(cell, has_weapon=has_weapon, has_shield=has_shield)
        acc[(result.code, result.modifier)] += p
    return tuple((p, code, mod) for (code, mod), p in sorted(acc.items()))


@cache
def _hit_profile(
    area: Area, armour: str, h_modifier: int, helmet: bool
) -> tuple[tuple[float, int, tuple[str, ...]], ...]:
    """§10.1-§10.5 in the Q28 order: (probability, wounds, critical codes) of one body hit; wounds
    -1 is a T7 Kill. `armour` is the area's armour text (`B4`, `-`); `helmet` whether a helmet
    is still worn (a critical H without one is 3x+M)."""
    t8 = tables().wounds.t8
    worn = Armour.model_validate(armour)
    acc: defaultdict[tuple[int, tuple[str, ...]], float] = defaultdict(float)
    for white, pw in sum_3d6():
        for black in range(1, 7):
            drm = t8.for_armour(worn, black)
            t7 = wound_result(white + h_modifier + drm)
            if t7 == "kill":
                acc[(-1, ())] += pw / 6
                continue
            if t7 == 0:
                acc[(0, ())] += pw / 6
                continue
            for red in range(1, 7):
                codes = [c for c in critical_result(area, red + black + t7) if c != "-"]
                if "H" in codes and not helmet:
                    i = codes.index("H")
                    codes[i : i + 1] = ["3x", "M"]
                count = Counter(codes)
                wounds = (t7 + count["1"]) * 2 ** count["2x"] * 3 ** count["3x"]
                rest = tuple(sorted(c for c in codes if c not in ("1", "2x", "3x")))
                acc[(wounds, rest)] += pw / 36
    return tuple((p, w, codes) for (w, codes), p in sorted(acc.items()))


@lru_cache(maxsize=4096)
def _hit_value(
    area: Area, armour: str, helmet: bool, wounds_before: int, w: int, h_modifier: int
) -> float:
    t7a = tables().wound_categories.t7a
    value = 0.0
    for p, wounds, codes in _hit_profile(area, armour, h_modifier, helmet):
        if wounds < 0 or "K" in codes or wounds_before + wounds >= w:  # §10.1, §10.3.2
            value += p * KILL
            continue
        v = t7a.new_categories(area, w, wounds_before, wounds) + wounds * _PROGRESS * KILL / w
        for c in codes:
            if c == "M":
                v += _MORTAL
            elif c == "SA":
                v += _ARTERY
            else:
                v += _CRIT_EXTRA.get(c, 0.0)
        value += p * v
    return value


def _kit(target: Gladiator) -> tuple[bool, bool]:
    """§9.6: what the defender parries and blocks with (a battered shield blocks nothing)."""
    return target.has_weapon, target.has_shield and not target.sheet.shield_useless


def hit_value(target: Gladiator, area: Area, h_modifier: int) -> float:
    """The expected worth of a body hit H`h_modifier` on `target`'s `area` (§10)."""
    return _hit_value(area, *_area_key(target, area), h_modifier)


def _area_key(target: Gladiator, area: Area) -> tuple[str, bool, int, int]:
    sheet = target.sheet
    lost = target.crits.helmet_lost
    armour = "-" if area == "head" and lost else str(sheet.armour_of(area))
    helmet = not lost and sheet.armour_of("head").letter is not None
    return armour, helmet, sheet.wounds_in(area), sheet.w


@dataclass(frozen=True, slots=True)
class Kit:
    """What the weapon of one attack does to its results (Advanced Game, §21, §23, §24; the
    Basic Game's sword is `Kit()`): the swap of the result read (§21.4, §24.3), the wound roll
    DRM (§21.2), a Stun roll on every H (§21.8.1), and for a fist (§23.2) the worth to the
    attacker of his parried blow (his own arms' wound roll, a negative number)."""

    shift: tuple[tuple[str, str], ...] = ()
    wound_drm: int = 0
    hit_stun: bool = False
    unarmed: bool = False
    parried: float = 0.0


_BASIC = Kit()
_HIT_STUN = 2.0  # §21.8.1: the maul's extra 2D6 on T7's Stun row, on top of the wound
_FIST = 2.5  # §23.2.3: a fist's H is a Stun roll (2D6 + ST + 2 x H bonus), no wound
_FIST_PER_H = 0.5


@lru_cache(maxsize=65536)
def _attack_worth(
    modified: int,
    area: Area,
    armour: str,
    helmet: bool,
    wounds_before: int,
    w: int,
    has_weapon: bool,
    has_shield: bool,
    variant: CrtVariant,
    kit: Kit = _BASIC,
) -> float:
    value = 0.0
    for p, code, mod in crt_outcomes(modified, has_weapon, has_shield, variant, kit.shift):
        if kit.unarmed:  # §23.2.1-§23.2.3: shield hits ignored, parries wound his own arms
            if code == "H":
                value += p * (_FIST + _FIST_PER_H * mod)
            elif code in ("P", "P*"):
                value += p * kit.parried
            elif code == "F":
                value += p * _FUMBLE
            continue
        if code == "H":
            value += p * _hit_value(area, armour, helmet, wounds_before, w, mod + kit.wound_drm)
            if kit.hit_stun:
                value += p * _HIT_STUN
        elif code in ("S", "S*"):
            value += p * _SHIELD_HIT
        elif code in ("P", "P*"):
            value += p * _PARRY
        elif code == "F":
            value += p * _FUMBLE
    return value


def attack_worth(
    target: Gladiator, area: Area, modified: int, variant: CrtVariant, kit: Kit = _BASIC
) -> float:
    """The expected worth of one attack on `target`'s `area` at this modified CF (§9.5, §9.6:
    attack CF less the defence there), to the attacker: hits priced by `hit_value`, a fumble
    counted against him; `kit` what the attacker's weapon adds (§21, §23, §24)."""
    return _attack_worth(modified, area, *_area_key(target, area), *_kit(target), variant, kit)


def attack_curve(
    target: Gladiator, area: Area, defence: int, variant: CrtVariant, kit: Kit = _BASIC
) -> list[float]:
    """`attack_worth` for 0..8 CF of attack (§9.3.2) against `defence` CF; 0 CF is no attack."""
    key = (area, *_area_key(target, area), *_kit(target), variant, kit)
    return [0.0] + [
        _attack_worth(cf - defence, *key) for cf in range(1, MAX_ATTACK_CF_PER_AREA + 1)
    ]


# --- allocation ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Plan:
    """An allocation (§9.3): CF per area for attack and for defence, attacks strongest first."""

    attack: tuple[int, ...]
    defence: tuple[int, ...]
    order: tuple[Area, ...]
    value: float

    def slots_text(self) -> str:
        """The `Distribute` slot notation, attacks in the order made (Q25), then defences."""
        parts = [f"A-{a.upper()}:{self.attack[AREAS.index(a)]}" for a in self.order]
        parts += [f"D-{a.upper()}:{d}" for a, d in zip(AREAS, self.defence, strict=True) if d]
        return " ".join(parts) or "-"


def best_allocation(
    budget: int,
    attack_max: Sequence[int],
    attack_curves: Sequence[Sequence[float]],
    threat: Sequence[float],
    threat_curves: Sequence[Sequence[float]],
    *,
    halve_attack: Sequence[int] = (0,) * 5,
    performance: float = 0.0,
    min_attack: int = 1,
    defence_max: int | None = None,
) -> Plan:
    """The split of `budget` CF that maximises the expected worth dealt minus taken.

    `attack_curves[a][cf]`: worth of cf CF of attack on area a (capped at `attack_max[a]`, and
    halved `halve_attack[a]` times, rounded down each time: §14.2, §14.3, §13.4.2, F10, Q26).
    `threat[a]`: how likely the opponent attacks my area a; `threat_curves[a][d]`: the worth of
    his attack there against d CF of my defence. `performance`: worth of one CF of attack over
    defence (§18.3's performance value).
    Attacks are a knapsack over the areas; defence is filled one CF at a time where it saves most,
    up to `defence_max` (§10.3.3: CFs from positional advantage go to attacks).
    """
    n = len(AREAS)
    # defence_value[r]: the best saving from r CF of defence, greedily, with the split.
    base = sum(threat[a] * threat_curves[a][0] for a in range(n))
    defence = [0] * n
    splits: list[tuple[int, ...]] = [tuple(defence)]
    saved = [0.0]
    for _ in range(budget):
        best_a, best_gain = -1, 0.0
        for a in range(n):
            curve = threat_curves[a]
            d = defence[a]
            gain = threat[a] * (curve[d] - curve[d + 1]) if d + 1 < len(curve) else 0.0
            if gain > best_gain:
                best_a, best_gain = a, gain
        if best_a < 0:
            # Nothing more to save: the rest of the CF stays unspent.
            splits.append(tuple(defence))
            saved.append(saved[-1])
            continue
        defence[best_a] += 1
        splits.append(tuple(defence))
        saved.append(saved[-1] + best_gain)
    # Knapsack over the areas: best[t] = (worth, cf per area) spending exactly t on attacks.
    best: dict[int, tuple[float, tuple[int, ...]]] = {0: (0.0, ())}
    for a in range(n):
        nxt: dict[int, tuple[float, tuple[int, ...]]] = {}
        for t, (v, alloc) in best.items():
            for cf in range(0, min(attack_max[a], budget - t) + 1):
                if 0 < cf < min_attack:
                    continue
                eff = cf >> int(halve_attack[a])
                worth = v + attack_curves[a][eff] if cf else v
                key = t + cf
                if key not in nxt or worth > nxt[key][0]:
                    nxt[key] = (worth, (*alloc, cf))
        best = nxt
    choice: tuple[float, tuple[int, ...], tuple[int, ...]] | None = None
    for t, (v, alloc) in best.items():
        r = budget - t if defence_max is None else min(budget - t, defence_max)
        spent_defence = sum(splits[r])
        total = v + saved[r] - base + performance * (t - spent_defence)
        if choice is None or total > choice[0]:
            choice = (total, alloc, splits[r])
    assert choice is not None
    value, attack, dfc = choice
    attacked = [a for a in range(n) if attack[a]]
    attacked.sort(key=lambda a: -attack_curves[a][attack[a]])
    return Plan(attack, dfc, tuple(AREAS[a] for a in attacked), value)


# --- position ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Engagement:
    """How two poses stand toward each other for combat (§6.2, §9.1, §9.2, T11)."""

    distance: int
    mine: bool  # he is in my combat front: I may attack (§9.1)
    his: bool  # I am in his combat front
    my_pa: int  # T11 bonus attacking him from here (his handedness; no §9.2.1 status)
    his_pa: int  # T11 bonus he would have attacking me


@lru_cache(maxsize=8192)
def _relation(
    dq: int, dr: int, my_facing: int, his_facing: int, his_left: bool, my_left: bool
) -> Engagement:
    me, him = Hex(0, 0), Hex(dq, dr)
    d = distance(me, him)
    front = tables().combat_front.t40
    t11 = tables().positional_advantage.t11
    mfl, mfr = front_coords(me, my_facing, him)
    hfl, hfr = front_coords(him, his_facing, me)
    mine = d > 0 and front.in_front("one_hex", mfl, mfr)
    his = d > 0 and front.in_front("one_hex", hfl, hfr)
    my_pa = t11.bonus(hfl, hfr, left_handed=his_left) if d else 0
    his_pa = t11.bonus(mfl, mfr, left_handed=my_left) if d else 0
    return Engagement(d, mine, his, my_pa, his_pa)


def engagement(
    my_hex: Hex, my_facing: int, his_hex: Hex, his_facing: int, *, his_left: bool, my_left: bool
) -> Engagement:
    """Who may attack whom from these poses, and with what positional advantage (§9.1, §9.2)."""
    return _relation(
        his_hex.q - my_hex.q, his_hex.r - my_hex.r, my_facing, his_facing, his_left, my_left
    )
