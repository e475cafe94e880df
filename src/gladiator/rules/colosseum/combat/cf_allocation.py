"""One gladiator's CF allocation for a combat phase (§9.3) and its notation.

`Allocation` is the log sheet's allocation boxes (§3.19), checked against the rules;
`parse_allocation` and `format_allocation` read and write the notation `A3:head A2:chest D2:arms`
(design principle 8), and `allocation_decision` is the secret allocation as a generic `Distribute`
decision. The Advanced Game's special attack and defence (§22) are marked in the same boxes
(special_notation.py).

Readings of the reference (shared/rules/colosseum.md) this module follows:

* **8 CF per area is an attack limit only** (§9.3.2 says "Attack CFs ... no more than 8 CF to any
  single body area"; §9.3.3 on defense sets no such limit, and the team rules' 27.5 call the
  exception "the only case where one *attack* can exceed 8 CF"). Defence per area is limited by
  the CFs available alone. `defence_cap=8` turns the stricter reading on wherever an allocation
  is checked.
* The attack minimum of 1 CF (§9.5, Q26/Q27) holds by construction: an area with attack CFs is an
  attack, an area with 0 is none. At most 5 attacks (§9.4.1) holds likewise, one per area.
* **CFs available** (§9.3.1) may be below 1 (§10.3.3); a gladiator with none may allocate nothing.
  Unspent CFs are allowed (the rules ask for no exact spend).
* **Order of a gladiator's own attacks (Q25):** the attacker lists them in the order he wants, as
  part of his secret allocation; the default is ascending body-area number. In the notation the
  order is the order the `A` items are written: `A2:chest A3:head` makes the chest attack first.
  His k-th attack strikes in the k-th round of his T10 row.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from gladiator.core.decisions import Distribute, Slot
from gladiator.rules.colosseum.plots.special_notation import (
    SpecialError,
    attack_slot,
    defence_slot,
    read_short,
    read_slot,
    special_area_ok,
    special_name,
)
from gladiator.rules.colosseum.tables.advanced_tables import advanced_tables
from gladiator.rules.colosseum.vocabulary import AREAS, Area

__all__ = [
    "AREA_NUMBERS",
    "MAX_ATTACKS",
    "MAX_ATTACK_CF_PER_AREA",
    "Allocation",
    "AllocationError",
    "allocation_decision",
    "format_allocation",
    "parse_allocation",
    "read_area",
]

MAX_ATTACK_CF_PER_AREA = 8  # §9.3.2 (the team-fight exception, 27.5, is not a duel's)
MAX_ATTACKS = 5  # §9.4.1: one per body area
AREA_NUMBERS: dict[Area, int] = {area: i + 1 for i, area in enumerate(AREAS)}  # §3.9


# --- allocation (§9.3) ---------------------------------------------------------------------------


class AllocationError(ValueError):
    """An allocation the rules do not allow. The message is one line and names the rule."""


def read_area(value: Area | int | str) -> Area:
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= len(AREAS):
        return AREAS[value - 1]
    if isinstance(value, str):
        word = value.strip().lower()
        if word.isdigit():
            return read_area(int(word))
        for area in AREAS:
            if area == word:
                return area
    raise AllocationError(f"unknown body area {value!r} (head, chest, groin, arms, legs or 1-5)")


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _five(name: str, values: Sequence[int]) -> tuple[int, ...]:
    out = tuple(values)
    if len(out) != len(AREAS):
        raise AllocationError(f"{name} needs one entry per body area (5), got {len(out)}")
    for area, v in zip(AREAS, out, strict=True):
        if not isinstance(v, int) or isinstance(v, bool):
            raise AllocationError(f"{name} CF on the {area} must be a whole number, not {v!r}")
        if v < 0:
            raise AllocationError(f"{name} CF on the {area} cannot be negative ({v}) (§9.3)")
    return out


@dataclass(frozen=True, slots=True)
class Allocation:
    """One gladiator's CFs for one combat phase (§9.3): attack and defence per body area, as
    written in the log sheet's allocation boxes (§3.19).

    `attack` and `defence` hold one entry per area, 1 Head ... 5 Legs. `available` is his CFs
    available this phase (§9.3.1). `order` lists the attacked areas in the order he makes the
    attacks (Q25); left empty it is ascending area number. `defence_cap` is the optional stricter
    reading of §9.3.2 (8 per defended area); the rules text caps attacks only.

    Advanced Game (§22): `special_attack` (area, code) marks that area's attack as a special
    attack with its CFs; `special_defence` (area, code) marks that area's defence box as a special
    defence, which is worth its 2 CF there (§22.3, S2). The letters are T20's.
    """

    available: int
    attack: tuple[int, ...] = (0, 0, 0, 0, 0)
    defence: tuple[int, ...] = (0, 0, 0, 0, 0)
    order: tuple[Area, ...] = ()
    defence_cap: int | None = field(default=None, compare=False)
    special_attack: tuple[Area, str] | None = None
    special_defence: tuple[Area, str] | None = None
    # §27.5 (G10): a single gladiator's rear attacker may put his PA on one attack over the cap.
    attack_cap: int = field(default=MAX_ATTACK_CF_PER_AREA, compare=False)

    def __post_init__(self) -> None:
        attack = _five("attack", self.attack)
        defence = _five("defence", self.defence)
        object.__setattr__(self, "attack", attack)
        object.__setattr__(self, "defence", defence)
        if not isinstance(self.available, int) or isinstance(self.available, bool):
            raise AllocationError(f"CFs available must be a whole number, not {self.available!r}")
        for area, v in zip(AREAS, attack, strict=True):
            if v > self.attack_cap:
                raise AllocationError(
                    f"{v} attack CF on the {area}: at most {self.attack_cap} on one area (§9.3.2)"
                )
        if self.defence_cap is not None:
            for area, v in zip(AREAS, defence, strict=True):
                if v > self.defence_cap:
                    raise AllocationError(
                        f"{v} defence CF on the {area}: at most {self.defence_cap} on one area "
                        "(§9.3.2, defence_cap)"
                    )
        total = sum(attack) + sum(defence)
        budget = max(self.available, 0)
        if total > budget:
            raise AllocationError(f"allocates {total} CF but only {budget} are available (§9.3.1)")
        attacked = tuple(a for a, v in zip(AREAS, attack, strict=True) if v > 0)
        if len(attacked) > MAX_ATTACKS:  # cannot happen with five areas; kept as the rule
            raise AllocationError(f"at most {MAX_ATTACKS} attacks a phase (§9.4.1)")
        if not self.order:
            object.__setattr__(self, "order", attacked)
        else:
            order = tuple(read_area(a) for a in self.order)
            if sorted(order, key=AREA_NUMBERS.__getitem__) != list(attacked):
                raise AllocationError(
                    f"attack order {' '.join(order)} must name each attacked area once "
                    f"({' '.join(attacked) or 'none'}) (§9.4.3, Q25)"
                )
            object.__setattr__(self, "order", order)
        if self.special_attack is not None or self.special_defence is not None:
            _check_specials(self)

    @classmethod
    def of(
        cls,
        available: int,
        attack: Mapping[Area | int, int] | None = None,
        defence: Mapping[Area | int, int] | None = None,
        order: Iterable[Area | int] = (),
        *,
        defence_cap: int | None = None,
    ) -> Allocation:
        """Build from `{area: CF}` maps; areas by name or number 1-5."""
        att = [0] * len(AREAS)
        dfc = [0] * len(AREAS)
        for target, given in ((att, attack), (dfc, defence)):
            for key, cf in (given or {}).items():
                target[AREA_NUMBERS[read_area(key)] - 1] = cf
        return cls(
            available,
            tuple(att),
            tuple(dfc),
            tuple(read_area(a) for a in order),
            defence_cap=defence_cap,
        )

    def attack_on(self, area: Area | int) -> int:
        return self.attack[AREA_NUMBERS[read_area(area)] - 1]

    def defence_on(self, area: Area | int) -> int:
        return self.defence[AREA_NUMBERS[read_area(area)] - 1]

    @property
    def attacks(self) -> tuple[tuple[Area, int], ...]:
        """(area, CF) of each attack, in the order he makes them (Q25)."""
        return tuple((a, self.attack_on(a)) for a in self.order)

    @property
    def total(self) -> int:
        return sum(self.attack) + sum(self.defence)

    @property
    def unspent(self) -> int:
        return max(self.available, 0) - self.total

    def __str__(self) -> str:
        return format_allocation(self)


def _check_specials(al: Allocation) -> None:
    """§22.2, §22.3: a special attack sits on an attack with CFs, a special defence's box holds
    its 2 CF, each in its own area (S2)."""
    try:
        if al.special_attack is not None:
            area, code = al.special_attack
            special_area_ok("A", code, area)
            if not al.attack_on(area):
                raise AllocationError(
                    f"{special_name('A', code)} needs attack CFs on the {area} (§22.2)"
                )
        if al.special_defence is not None:
            area, code = al.special_defence
            special_area_ok("D", code, area)
            cost = advanced_tables().specials.t20.defence_cost_cf
            if al.defence_on(area) != cost:
                raise AllocationError(
                    f"{special_name('D', code)} takes the {area} defence box and {cost} CF "
                    f"there, not {al.defence_on(area)} (§22.3)"
                )
    except SpecialError as exc:
        raise AllocationError(str(exc)) from None


_SHORT = re.compile(r"^([AD])(\d+)[:=]([A-Z]+|\d)$")  # A3:head, D2:4
_SLOT = re.compile(r"^([AD])-([A-Z]+|\d)[:=](-?\d+)$")  # A-HEAD:3 (the Distribute slots)


def parse_allocation(
    text: str,
    available: int,
    *,
    defence_cap: int | None = None,
    attack_cap: int = MAX_ATTACK_CF_PER_AREA,
) -> Allocation:
    """Read `A3:head A2:chest D2:arms` (design principle 8) into a checked Allocation.

    Also reads the Distribute form `A-HEAD:3 D-ARMS:2`; areas by name or number 1-5; `-` or an
    empty text is no allocation. The `A` items are the attacks in the order he makes them (Q25).
    Raises AllocationError (a ValueError) with a one-line message quoting the text.
    """
    shown = _one_line(text)
    att = [0] * len(AREAS)
    dfc = [0] * len(AREAS)
    order: list[Area] = []
    seen: set[tuple[str, Area]] = set()
    specials: dict[str, tuple[Area, str]] = {}
    words = text.upper().replace(",", " ").split()
    if words in ([], ["-"], ["NONE"]):
        words = []
    try:
        for word in words:
            short = _SHORT.match(word)
            slot = _SLOT.match(word)
            special = None if short or slot else _read_special(word)
            if short is not None:
                kind, cf_text, area_text = short.groups()
            elif slot is not None:
                kind, area_text, cf_text = slot.groups()
            elif special is not None:  # §22 (S2): A3:arms/A or A-ARMS-DISARM:3
                kind, area, code, cf_value = special
                if kind in specials:
                    what = "attack" if kind == "A" else "defence"
                    raise AllocationError(f"{word!r}: one special {what} a phase (§22.1)")
                specials[kind] = (area, code)
                area_text, cf_text = area, str(cf_value)
            else:
                raise AllocationError(
                    f"cannot read {word!r}; write e.g. A3:head or D2:arms (A attack, D defence)"
                )
            area = read_area(area_text)
            cf = int(cf_text)
            if cf < 0:
                raise AllocationError(f"{word!r}: CFs cannot be negative (§9.3)")
            if (kind, area) in seen:
                raise AllocationError(f"{word!r}: the {area} is named twice for {kind}")
            seen.add((kind, area))
            if kind == "A":
                att[AREA_NUMBERS[area] - 1] = cf
                if cf:
                    order.append(area)
            else:
                dfc[AREA_NUMBERS[area] - 1] = cf
        return Allocation(
            available,
            tuple(att),
            tuple(dfc),
            tuple(order),
            defence_cap=defence_cap,
            special_attack=specials.get("A"),
            special_defence=specials.get("D"),
            attack_cap=attack_cap,
        )
    except AllocationError as exc:
        raise AllocationError(f"allocation {shown!r}: {exc}") from None


def _read_special(word: str) -> tuple[str, Area, str, int] | None:
    """§22: a special in either notation (special_notation.py), or None."""
    if "/" not in word and word.count("-") < 2:
        return None  # the Basic Game's words never reach the Advanced tables
    try:
        return read_slot(word) or read_short(word)
    except SpecialError as exc:
        raise AllocationError(f"{word!r}: {exc}") from None


def format_allocation(allocation: Allocation, style: Literal["short", "slots"] = "short") -> str:
    """The canonical text: attacks in his order, then defences by area; `-` for nothing.

    `short` is the notation `A3:head A2:chest D2:arms`; `slots` is the `allocation_decision`
    form `A-HEAD:3 A-CHEST:2 D-ARMS:2` (which `Distribute.validate` reorders by slot, so the
    attack order survives only in the short form or through `parse_allocation`).
    """
    items = [("A", area, cf) for area, cf in allocation.attacks]
    items += [("D", a, cf) for a, cf in zip(AREAS, allocation.defence, strict=True) if cf]
    marks = {"A": allocation.special_attack, "D": allocation.special_defence}
    parts = []
    for kind, area, cf in items:
        mark = marks[kind]
        code = mark[1] if mark is not None and mark[0] == area else None
        if style == "slots":
            parts.append(f"{_special_slot(kind, area, code)}:{cf}")
        else:  # §22.2, §22.3: the code letter in the box (S2)
            parts.append(f"{kind}{cf}:{area}" + (f"/{code}" if code else ""))
    return " ".join(parts) if parts else "-"


def _special_slot(kind: str, area: Area, code: str | None) -> str:
    if code is None:
        return _slot_name(kind, area)
    return attack_slot(area, code) if kind == "A" else defence_slot(area, code)


def _slot_name(kind: str, area: Area) -> str:
    return f"{kind}-{area.upper()}"


def allocation_decision(
    available: int, *, defence_cap: int | None = None, prompt: str | None = None
) -> Distribute:
    """The secret allocation as a generic `Distribute` decision (§5.2.6.2, §9.3, design
    principle 2).

    Slots `A-HEAD` ... `A-LEGS` (at most 8 each, §9.3.2) and `D-HEAD` ... `D-LEGS` (at most the
    budget, or `defence_cap`), budget = CFs available (none if below 1). Every order it accepts
    parses (`parse_allocation`) to a valid Allocation with the default attack order, and the
    canonical text of every valid Allocation is an order it accepts.
    """
    budget = max(available, 0)
    defence_max = budget if defence_cap is None else min(defence_cap, budget)
    slots = [Slot(_slot_name("A", a), min(MAX_ATTACK_CF_PER_AREA, budget)) for a in AREAS]
    slots += [Slot(_slot_name("D", a), defence_max) for a in AREAS]
    return Distribute(
        prompt=prompt or f"Allocate up to {budget} CF to attacks and defences (§9.3)",
        secret=True,
        budget=budget,
        slots=tuple(slots),
    )
