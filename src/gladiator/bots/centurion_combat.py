"""The centurion's CF allocation (§29.6, T30) and his net escape (§29.5.1.2), as an order for the
secret allocation decision (§9.3).

§29.6.1: one 1D6 for every 6 full CFs available, each less his effective FS (FS + 2 Heavy, + 1
Medium); the total (not below 0, nor above his CFs: A21) goes to defence, the rest to attack.
§29.6.2: then each attack CF and each defence CF is placed by 1D6 on the body area rolled.

Rulings (docs/rulings.md, C series):

C9  §29.6.1.1, §29.6.2 (the 6s): where the decision offers no special (the Basic Game, option
    `specials` off, or none allowed him now, S9) the first two defence CFs are placed like the
    others, and a 6 always takes the text's own fallback: an attack CF goes on the area with the
    most attack CFs so far, a defence CF on his area with the weakest armour (the smallest
    expected T8 reduction, |DRM| × n/6 for partial armour "Xn" as Q40 weighs it; a head whose
    helmet is lost has none). Ties, and a 6 before any attack CF is placed, are drawn at random
    among the areas tied.
C12 §29.6.1.1, §29.6.2.1 with §22 (T30): "random" is 1D6 on T20's list in its order (A F S H T;
    D B K P L), a 6 or one not offered rolled again. The first two defence CFs buy a special
    defence; defence CFs later rolled on its area (its box is taken, S2) and every later 6 go to
    the weakest armour of the other areas. An attack 6 with no special attack yet buys one (a
    Feint's area by 1D6 too, 6 again); that area's box becomes the special, holding the CFs
    already there and those rolled on it later.
C10 §29.6, §9.1, §9.3.2, §10.3.3: the charts assume he may attack. When he may not (out of reach,
    Prone, no weapon), every CF goes to defence; an attack CF rolled on an area already holding
    8 (§9.3.2) is rolled again; defence CFs beyond the §10.3.3 cap (CFs from positional advantage
    must attack) go to attack. The attack CFs are placed first and strike in the order their
    areas were first rolled (Q25).
C11 §29.5.1.2: an ensnared centurion rolls 1D6 for every 6 CFs available (rounded up) and puts
    the total on escape, in the `ESCAPE` slot the allocation offers an ensnared man (§20.5.5,
    net_combat.py N10).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from gladiator.bots.centurion_setup import effective_fs
from gladiator.core.decisions import Distribute
from gladiator.rules.colosseum.plots.special_notation import attack_slot, defence_slot
from gladiator.rules.colosseum.state import Gladiator
from gladiator.rules.colosseum.tables.advanced_tables import advanced_tables
from gladiator.rules.colosseum.tables.tables import tables
from gladiator.rules.colosseum.vocabulary import AREAS, Area

__all__ = ["ESCAPE_SLOT", "allocation_order", "defence_total", "weakest_armour"]

ESCAPE_SLOT = "ESCAPE"  # C11: the slot a net escape would be written in


def _d6(rng: random.Random) -> int:
    return rng.randint(1, 6)


def defence_total(available: int, eff_fs: int, rng: random.Random) -> int:
    """§29.6.1 (A21): Σ (1D6 − effective FS), one die per 6 full CFs, within 0..available: his
    Fighting Spirit sets how much he defends (§29.2.1)."""
    t30 = advanced_tables().centurions.t30
    dice = [_d6(rng) for _ in range(t30.defence.count(available))]
    return min(max(sum(d - eff_fs for d in dice), 0), max(available, 0))


def _protection(g: Gladiator, area: Area) -> float:
    """The expected T8 reduction of the area's armour (C9)."""
    if area == "head" and g.crits.helmet_lost:
        return 0.0
    armour = g.sheet.armour_of(area)
    if armour.letter is None:
        return 0.0
    drm: int = getattr(tables().wounds.t8.drm, armour.letter)
    cover = 1.0 if armour.coverage is None else armour.coverage / 6
    return abs(drm) * cover


def weakest_armour(g: Gladiator, besides: Area | None = None) -> tuple[Area, ...]:
    """§29.6.2.2 (C9): the areas whose armour protects least (all of them if tied), of all or
    of those `besides` one (C12)."""
    worth = {a: _protection(g, a) for a in AREAS if a != besides}
    low = min(worth.values())
    return tuple(a for a in worth if worth[a] == low)


def _area(roll: int) -> Area:
    return AREAS[roll - 1]


def _most(placed: dict[Area, int], room: dict[Area, int]) -> tuple[Area, ...]:
    open_ = [a for a in AREAS if placed[a] < room[a]]
    top = max((placed[a] for a in open_), default=0)
    return tuple(a for a in open_ if placed[a] == top)


def _offered(decision: Distribute, kind: str) -> dict[str, list[Area]]:
    """§22 (C12): the special attacks (kind "A") or defences ("D") the decision offers, by T20
    letter, with their areas."""
    t20 = advanced_tables().specials.t20
    table = t20.attacks if kind == "A" else t20.defences
    names = {s.name for s in decision.slots}
    out: dict[str, list[Area]] = {}
    for code in table:
        slot = attack_slot if kind == "A" else defence_slot
        areas = [a for a in AREAS if slot(a, code) in names]
        if areas:
            out[code] = areas
    return out


def _random_special(offered: dict[str, list[Area]], kind: str, rng: random.Random) -> str:
    """C12: 1D6 on T20's list in order, a 6 or one not offered rolled again."""
    t20 = advanced_tables().specials.t20
    codes = list(t20.attacks if kind == "A" else t20.defences)
    while True:
        face = _d6(rng)
        if face <= len(codes) and codes[face - 1] in offered:
            return codes[face - 1]


def _buy_attack(offered: dict[str, list[Area]], rng: random.Random) -> tuple[Area, str]:
    code = _random_special(offered, "A", rng)
    areas = offered[code]
    if len(areas) == 1:
        return areas[0], code
    while True:  # a Feint: its area by 1D6 (C12)
        face = _d6(rng)
        if face <= len(AREAS) and _area(face) in areas:
            return _area(face), code


def _place_attacks(
    n: int,
    room: dict[Area, int],
    rng: random.Random,
    offered: dict[str, list[Area]] | None = None,
) -> tuple[dict[Area, int], list[Area], int, tuple[Area, str] | None]:
    """§29.6.2, §29.6.2.1 (C9, C10, C12): each attack CF by 1D6; what no area can take is
    returned, and the special attack a 6 bought."""
    special_on = advanced_tables().centurions.t30.special_on
    placed: dict[Area, int] = dict.fromkeys(AREAS, 0)
    order: list[Area] = []
    special: tuple[Area, str] | None = None
    for left in range(n, 0, -1):
        if not any(placed[a] < room[a] for a in AREAS):
            return placed, order, left, special
        while True:
            face = _d6(rng)
            if face == special_on and special is None and offered:
                bought = _buy_attack(offered, rng)
                if placed[bought[0]] < room[bought[0]]:
                    special, area = bought, bought[0]
                    break
                continue
            area = rng.choice(_most(placed, room)) if face == special_on else _area(face)
            if placed[area] < room[area]:
                break
        placed[area] += 1
        if area not in order:
            order.append(area)
    return placed, order, 0, special


def _place_defences(
    n: int, g: Gladiator, rng: random.Random, taken: Area | None = None
) -> dict[Area, int]:
    """§29.6.2, §29.6.2.2 (C9, C12): each defence CF by 1D6, a 6 on the weakest armour; with a
    special defence on `taken`, what falls there goes to the weakest armour of the others."""
    special_on = advanced_tables().centurions.t30.special_on
    placed: dict[Area, int] = dict.fromkeys(AREAS, 0)
    for _ in range(n):
        face = _d6(rng)
        area = rng.choice(weakest_armour(g)) if face == special_on else _area(face)
        if taken is not None and (area == taken or face == special_on):
            area = rng.choice(weakest_armour(g, taken))
        placed[area] += 1
    return placed


def _text(
    attack: dict[Area, int],
    order: Sequence[Area],
    defence: dict[Area, int],
    specials: tuple[tuple[Area, str] | None, tuple[Area, str] | None] = (None, None),
) -> str:
    def mark(kind: int, area: Area) -> str:
        s = specials[kind]
        return f"/{s[1]}" if s is not None and s[0] == area else ""

    parts = [f"A{attack[a]}:{a}{mark(0, a)}" for a in order if attack[a]]
    parts += [f"D{defence[a]}:{a}{mark(1, a)}" for a in AREAS if defence[a]]
    return " ".join(parts) or "-"


def allocation_order(g: Gladiator, decision: Distribute, fs: int, rng: random.Random) -> str:
    """§29.6: the centurion's allocation this phase, in the allocation notation."""
    budget = decision.budget
    if budget <= 0:
        return "-"
    limits = {s.name: s.maximum for s in decision.slots}
    if ESCAPE_SLOT in limits:  # §29.5.1.2 (C11)
        per = advanced_tables().centurions.t27.net_escape
        escape = min(sum(_d6(rng) for _ in range(per.count(budget))), budget, limits[ESCAPE_SLOT])
        return f"{ESCAPE_SLOT}:{escape}" if escape else "-"
    room: dict[Area, int] = {a: limits.get(f"A-{a.upper()}", 0) for a in AREAS}
    if any(room.values()):
        defence = defence_total(budget, effective_fs(fs, g.sheet.gladiator_class), rng)
    else:  # C10: he may not attack, so there is nothing to split
        defence = budget
    cap = min(
        (grp.maximum for grp in decision.groups if grp.label == "defence"), default=budget
    )  # §10.3.3
    defence = min(defence, cap)
    attacks_offered = _offered(decision, "A")
    attack, order, spare, special = _place_attacks(budget - defence, room, rng, attacks_offered)
    guard: tuple[Area, str] | None = None
    defences_offered = _offered(decision, "D")
    cost = advanced_tables().specials.t20.defence_cost_cf
    left = defence + spare
    if defences_offered and left >= cost:  # §29.6.1.1 (C12)
        code = _random_special(defences_offered, "D", rng)
        guard = (defences_offered[code][0], code)
        left -= cost
    defences = _place_defences(left, g, rng, guard[0] if guard else None)
    if guard is not None:
        defences[guard[0]] = cost
    return _text(attack, order, defences, (special, guard))
