"""One combat phase between two gladiators: allocation, attack sequence, CRT, CF-loss propagation.

Colosseum Edition §9.3 (allocating CFs), §9.4 (the attack sequence, T10), §9.5 (resolving one
attack on the CRT, T5) and §9.6 (the results, T6), as a pure module: no movement, no wounds. What a
body hit (or a shield hit, a parry) does to the defender is the wound module's business; it is
plugged in as a callback that answers how many CF the defender lost, and this module carries that
loss through the rest of the phase (§9.4.6-§9.4.8). Every die goes through the match's `dice` with
its purpose and rule section; every step emits an event dict `{"type", "rule", "text"}` whose text
ends with the rule section, e.g. "... (§9.5)".

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
* **Speed (§9.4.5):** each round is shifted by Spd and clamped to 1-5, so two attacks may share a
  round (an axe making five attacks strikes in 2, 3, 4, 5, 5).
* **Within a round (§9.4.4)** more CF goes first; equal CF of the two gladiators are simultaneous.
  The order is fixed when the attacks are revealed, from the allocated CFs: a CF loss later in the
  phase changes no place in it (§9.4.6 "the attack sequence is not recalculated"). Two attacks of
  the same gladiator in one round (only after a clamp) keep CF order, then his own order; each is
  paired with at most one equal-CF enemy attack.
* **Simultaneous attacks** are read on the values from before their step: both CRT rolls are made
  first, then both results take effect; the losses they cause fall on later attacks only.
* **CF loss (§9.4.6-§9.4.8):** comes off the victim's unresolved attacks in sequence order (an
  attack cut to 0 is cancelled; the sequence stays). What they cannot absorb waits and comes off
  the defence of the next area of his that is actually attacked (cancelled attacks attack
  nothing); losses that wait add up; that defence may go below 0 and stays lowered for the phase.
  If no attack against him remains, the rest has no effect (§9.4.8).
* **Fumble (§9.6):** the fumbler's remaining attacks are cancelled. The 1D6 penalty is rolled only
  if he is attacked again this phase, when that attack comes, and comes off the defence of the
  area attacked (EX-9.6: 2 - (3 - 4) = 3).
* **Conversions (§9.6, T6):** a defender without a shield takes P for S or S*; without a weapon, H
  for P; missing either, H for P*. They chain (no shield and no weapon: S -> P -> H), because the P
  is a parry with the weapon he lacks. A converted H carries no modifier (H+0).
* **Modified roll (Q27):** 3D6 plus the column DRM (§9.5.3/§9.5.4) plus any other DRM the caller
  supplies (e.g. §10.3.3.1's negative CF, Q31's net escape), clamped to the table's rows 3-18+.
* The callback is called for every result that touches the defender (S, S*, P, P* and H); "-" and
  F are handled here. `CrtOutcome.unweakened_cf` is the modified CF without the part that comes from
  a defence driven below 0 (§12.2 NOTE), for the shield-damage roll.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

from gladiator.core.decisions import Distribute, Slot
from gladiator.rules.colosseum.advanced_tables import advanced_tables
from gladiator.rules.colosseum.special_notation import (
    SpecialError,
    attack_slot,
    defence_slot,
    read_short,
    read_slot,
    special_area_ok,
    special_name,
)
from gladiator.rules.colosseum.tables import (
    AREAS,
    Area,
    CrtResult,
    CrtVariant,
    attack_rounds,
    crt_result,
    tables,
)

__all__ = [
    "AREA_NUMBERS",
    "MAX_ATTACKS",
    "MAX_ATTACK_CF_PER_AREA",
    "Allocation",
    "AllocationError",
    "CfAccount",
    "CombatDice",
    "CrtOutcome",
    "OnHit",
    "PhaseCombat",
    "PlannedAttack",
    "Step",
    "allocation_decision",
    "attack_schedule",
    "attack_sequence",
    "convert_result",
    "crt_column",
    "format_allocation",
    "modified_cf",
    "parse_allocation",
    "resolve_crt",
]

MAX_ATTACK_CF_PER_AREA = 8  # §9.3.2 (the team-fight exception, 27.5, is not a duel's)
MAX_ATTACKS = 5  # §9.4.1: one per body area
AREA_NUMBERS: dict[Area, int] = {area: i + 1 for i, area in enumerate(AREAS)}  # §3.9

Event = dict[str, Any]
Side = int  # 0 or 1
Item = Literal["weapon", "shield"]


class CombatDice(Protocol):
    """What this module needs of `gladiator.core.dice.Dice`."""

    def roll(self, notation: str, purpose: str, rule: str) -> int: ...


class OnHit(Protocol):
    """What a result that touches the defender does: returns the CF he loses at once (>= 0)."""

    def __call__(self, attacker: Side, defender: Side, area: Area, result: CrtOutcome) -> int: ...


def _event(kind: str, rule: str, text: str, **extra: Any) -> Event:
    return {"type": kind, "rule": rule, "text": f"{text} ({rule})", **extra}


def _area(value: Area | int | str) -> Area:
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= len(AREAS):
        return AREAS[value - 1]
    if isinstance(value, str):
        word = value.strip().lower()
        if word.isdigit():
            return _area(int(word))
        for area in AREAS:
            if area == word:
                return area
    raise AllocationError(f"unknown body area {value!r} (head, chest, groin, arms, legs or 1-5)")


def _one_line(text: str) -> str:
    return " ".join(text.split())


# --- allocation (§9.3) ---------------------------------------------------------------------------


class AllocationError(ValueError):
    """An allocation the rules do not allow. The message is one line and names the rule."""


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

    def __post_init__(self) -> None:
        attack = _five("attack", self.attack)
        defence = _five("defence", self.defence)
        object.__setattr__(self, "attack", attack)
        object.__setattr__(self, "defence", defence)
        if not isinstance(self.available, int) or isinstance(self.available, bool):
            raise AllocationError(f"CFs available must be a whole number, not {self.available!r}")
        for area, v in zip(AREAS, attack, strict=True):
            if v > MAX_ATTACK_CF_PER_AREA:
                raise AllocationError(
                    f"{v} attack CF on the {area}: at most {MAX_ATTACK_CF_PER_AREA} on one area "
                    "(§9.3.2)"
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
            order = tuple(_area(a) for a in self.order)
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
                target[AREA_NUMBERS[_area(key)] - 1] = cf
        return cls(
            available,
            tuple(att),
            tuple(dfc),
            tuple(_area(a) for a in order),
            defence_cap=defence_cap,
        )

    def attack_on(self, area: Area | int) -> int:
        return self.attack[AREA_NUMBERS[_area(area)] - 1]

    def defence_on(self, area: Area | int) -> int:
        return self.defence[AREA_NUMBERS[_area(area)] - 1]

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


def parse_allocation(text: str, available: int, *, defence_cap: int | None = None) -> Allocation:
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
            area = _area(area_text)
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


# --- attack sequence (§9.4) ----------------------------------------------------------------------


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


# --- one attack on the CRT (§9.5, §9.6) ----------------------------------------------------------


def modified_cf(attack_cf: int, defence_cf: int, fumble_penalty: int = 0) -> int:
    """§9.5: attack CF - defence CF, the defence lowered by a fumble penalty (§9.6)."""
    return attack_cf - (defence_cf - fumble_penalty)


def crt_column(modified: int) -> tuple[int, int]:
    """§9.5.3/§9.5.4: the CRT column 1-8 for a modified CF, and the roll DRM from the excess."""
    if modified < 1:
        return 1, modified - 1
    if modified > 8:
        return 8, modified - 8
    return modified, 0


_LACKING: dict[str, Callable[[bool, bool], bool]] = {
    "shield": lambda weapon, shield: not shield,
    "weapon": lambda weapon, shield: not weapon,
    "weapon_or_shield": lambda weapon, shield: not (weapon and shield),
}


def shift_result(
    result: CrtResult, changes: Mapping[str, str] | None
) -> tuple[CrtResult, tuple[str, str] | None]:
    """An Advanced Game code-for-code swap of a CRT result (results.toml conversions: the flail
    §21.4, two weapons §24.3), applied before the defender's kit converts it (§9.6)."""
    if not changes or result.code not in changes:
        return result, None
    new = CrtResult.model_validate(changes[result.code])
    return new, (str(result), str(new))


def convert_result(
    result: CrtResult, *, has_weapon: bool = True, has_shield: bool = True
) -> tuple[CrtResult, tuple[tuple[str, str, str], ...]]:
    """§9.6/T6: the result a defender lacking a shield or weapon takes instead, chained.

    Returns the final result and each change as (from, to, what he lacks).
    """
    codes = tables().results.t6.codes
    steps: list[tuple[str, str, str]] = []
    current = result
    for _ in range(len(codes)):
        spec = codes[current.code]
        if spec.if_lacking is None or spec.becomes is None:
            break
        if not _LACKING[spec.if_lacking](has_weapon, has_shield):
            break
        new = CrtResult.model_validate(spec.becomes)
        steps.append((str(current), str(new), spec.if_lacking.replace("_", " ")))
        current = new
    return current, tuple(steps)


@dataclass(frozen=True, slots=True)
class CrtOutcome:
    """One attack read on the CRT (§9.5) and converted for the defender's kit (§9.6)."""

    attack_cf: int
    defence_cf: int  # as used, after any §9.4.7 loss or §9.6 fumble penalty
    modified_cf: int
    unweakened_cf: int  # §12.2 NOTE: attack - max(defence, 0)
    column: int
    column_drm: int
    drm: int  # other DRMs supplied by the caller
    roll: int  # the 3D6 as thrown
    total: int  # roll + DRMs, clamped to the table (Q27)
    crt: CrtResult  # the cell read
    result: CrtResult  # after §9.6 conversions
    # §22 (Advanced Game): the attacker's special attack on this area (a T20 letter), the
    # defender's special defence whose automatic result replaced the roll (roll 0), and for a
    # Feint's counter-attack the area of the Feint (whose weapon strikes it).
    special: str = ""
    guard: str = ""
    counter_of: Area | None = None

    @property
    def code(self) -> str:
        return self.result.code


def resolve_crt(
    dice: CombatDice,
    attack_cf: int,
    defence_cf: int,
    *,
    drm: int = 0,
    has_weapon: bool = True,
    has_shield: bool = True,
    crt: CrtVariant = "rules",
    label: str = "attack",
    defender: str = "the defender",
    shift: tuple[str, Mapping[str, str]] | None = None,
) -> tuple[CrtOutcome, list[Event]]:
    """Roll 3D6 on the CRT for one attack (§9.5.1-§9.5.4) and convert the result (§9.6); `shift`
    (rule, changes) is the attacker's weapon's swap of the result read (§21.4, §24.3)."""
    if attack_cf < 1:
        raise ValueError(f"an attack needs at least 1 CF, not {attack_cf} (§9.5)")
    modified = modified_cf(attack_cf, defence_cf)
    return read_crt(
        dice,
        modified,
        f"{attack_cf} CF against {defence_cf} defence, modified CF {modified}",
        attack_cf=attack_cf,
        defence_cf=defence_cf,
        unweakened_cf=attack_cf - max(defence_cf, 0),
        drm=drm,
        has_weapon=has_weapon,
        has_shield=has_shield,
        crt=crt,
        label=label,
        defender=defender,
        shift=shift,
    )


def read_crt(
    dice: CombatDice,
    modified: int,
    what: str,
    *,
    attack_cf: int,
    defence_cf: int,
    unweakened_cf: int,
    drm: int = 0,
    has_weapon: bool = True,
    has_shield: bool = True,
    crt: CrtVariant = "rules",
    label: str = "attack",
    defender: str = "the defender",
    rule: str | None = None,
    shift: tuple[str, Mapping[str, str]] | None = None,
) -> tuple[CrtOutcome, list[Event]]:
    """Roll 3D6 on the CRT at a modified CF (§9.5.1; off the table's ends, §9.5.3-§9.5.4) and
    convert the result (§9.6): the one reading of the table that a blow (`resolve_crt`) and a
    thrown item (§13.3.1.1) share. `what` says where the modified CF came from; `rule` names
    the section asking (by default the CRT's own, by the column's DRM)."""
    column, column_drm = crt_column(modified)
    table = tables().crt_table(crt)
    roll = dice.roll("3D6", f"CRT {label}", rule or "§9.5.1")
    total = min(max(roll + column_drm + drm, table.min_roll), table.max_roll)
    cell = crt_result(column, total, crt)
    shifted, moved = shift_result(cell, shift[1] if shift is not None else None)
    result, changes = convert_result(shifted, has_weapon=has_weapon, has_shield=has_shield)
    outcome = CrtOutcome(
        attack_cf=attack_cf,
        defence_cf=defence_cf,
        modified_cf=modified,
        unweakened_cf=unweakened_cf,
        column=column,
        column_drm=column_drm,
        drm=drm,
        roll=roll,
        total=total,
        crt=cell,
        result=result,
    )
    drms = "".join(f" {d:+d}" for d in (column_drm, drm) if d)
    if rule is None:
        rule = "§9.5.3" if column_drm < 0 else "§9.5.4" if column_drm > 0 else "§9.5"
    events = [
        _event(
            "crt",
            rule,
            f"{label}: {what}, column {column}; 3D6 {roll}{drms}"
            f"{f' -> {total}' if total != roll else ''}: {cell}",
            column=column,
            modified_cf=modified,
            roll=roll,
            total=total,
            result=str(cell),
        )
    ]
    if moved is not None and shift is not None:
        events.append(
            _event(
                "conversion",
                shift[0],
                f"{label}: {moved[0]} becomes {moved[1]}",
                result=moved[1],
            )
        )
    for before, after, lacking in changes:
        events.append(
            _event(
                "conversion",
                "§9.6",
                f"{defender} has no {lacking}: {before} becomes {after}",
                result=after,
            )
        )
    return outcome, events


# --- the phase (§9.4.6-§9.4.8) -------------------------------------------------------------------


@dataclass(slots=True)
class CfAccount:
    """Where one gladiator's CF losses this phase went (§9.4.6-§9.4.8)."""

    lost: int = 0
    off_attacks: int = 0
    off_defence: int = 0
    no_effect: int = 0
    waiting: int = 0  # still to come off the next area attacked (§9.4.7)


@dataclass(slots=True)
class _Live:
    planned: PlannedAttack
    cf: int
    status: Literal["pending", "resolved", "cancelled"] = "pending"


class PhaseCombat:
    """The combat step of one phase between two gladiators (§5.2.6.3, §9.4-§9.6): the attack
    sequence over the five attack rounds.

    Give it both allocations, the dice and `on_hit`; `run()` (or `step()` repeatedly) resolves the
    attacks in sequence. `on_hit(attacker, defender, area, outcome)` is called for every S, S*, P,
    P* or H and returns the CF the defender loses at once (wounds, Stun: §9.4.6, §11.3). It may
    call `set_equipment` (a dropped weapon or shield changes later conversions) or
    `cancel_attacks` (a gladiator killed or knocked out). `drm(attacker, defender, area)` adds
    other DRMs to the CRT roll. `speeds` are the weapons' Spd (§9.4.5); `has_weapon` and
    `has_shield` the defenders' kit at the start (§9.6).
    """

    def __init__(
        self,
        allocations: Sequence[Allocation],
        dice: CombatDice,
        on_hit: OnHit,
        *,
        speeds: Sequence[int | Sequence[int]] = (0, 0),
        names: Sequence[str] = ("G1", "G2"),
        has_weapon: Sequence[bool] = (True, True),
        has_shield: Sequence[bool] = (True, True),
        crt: CrtVariant = "rules",
        drm: Callable[[Side, Side, Area], int] | None = None,
        shift: Callable[[Side, Area], tuple[str, Mapping[str, str]] | None] | None = None,
        guard_results: Mapping[str, CrtResult] | None = None,
    ) -> None:
        if len(allocations) != 2 or len(names) != 2:
            raise ValueError("a phase's combat is between two gladiators")
        self.allocations = (allocations[0], allocations[1])
        self.names = (names[0], names[1])
        self.sequence = attack_sequence(self.allocations, speeds)
        self._dice = dice
        self._on_hit = on_hit
        self._drm = drm
        self._shift = shift
        self._charged = [0, 0]
        self._crt: CrtVariant = crt
        # §22.3: each special defence's automatic result (T20 by default; Q9's option).
        self._guard_results = dict(guard_results or {})
        self._round = 0
        self._weapon = [bool(has_weapon[0]), bool(has_weapon[1])]
        self._shield = [bool(has_shield[0]), bool(has_shield[1])]
        self._live = {
            (p.side, p.area): _Live(p, p.cf) for step in self.sequence for p in step.attacks
        }
        self._defence = [list(a.defence) for a in self.allocations]
        self._fumble_due = [False, False]
        self.fumbled = [False, False]
        self.accounts = (CfAccount(), CfAccount())
        self.outcomes: list[tuple[PlannedAttack, CrtOutcome]] = []
        self.events: list[Event] = []
        self._next = 0
        self._finished = False
        self.events.append(self._sequence_event())

    # -- state ------------------------------------------------------------------------------
    @property
    def done(self) -> bool:
        return self._finished

    def attack_cf(self, side: Side, area: Area | int) -> int:
        """His attack CF on that area now (0 if he did not attack it)."""
        live = self._live.get((side, _area(area)))
        return 0 if live is None else live.cf

    def attack_status(self, side: Side, area: Area | int) -> str | None:
        live = self._live.get((side, _area(area)))
        return None if live is None else live.status

    def defence_cf(self, side: Side, area: Area | int) -> int:
        """His defence CF on that area now (may be below 0, §9.4.7)."""
        return self._defence[side][AREA_NUMBERS[_area(area)] - 1]

    def has_item(self, side: Side, item: Item) -> bool:
        return (self._weapon if item == "weapon" else self._shield)[side]

    # -- changes the callback may make ------------------------------------------------------
    def set_equipment(
        self, side: Side, *, weapon: bool | None = None, shield: bool | None = None
    ) -> None:
        """A weapon or shield dropped (or recovered) during the phase (§13, §9.6)."""
        if weapon is not None:
            self._weapon[side] = weapon
        if shield is not None:
            self._shield[side] = shield

    def charge(self, side: Side, amount: int) -> None:
        """A CF loss `on_hit` caused to someone other than the defender (§23.2.1: the unarmed
        attacker's own arms), taken with the step's other losses (§9.4.6)."""
        if amount < 0:
            raise ValueError(f"a CF loss cannot be {amount}")
        self._charged[side] += amount

    def cancel_attacks(self, side: Side, reason: str, rule: str) -> list[Event]:
        """Cancel every unresolved attack of his (e.g. killed, §10.3.2; unconscious, §11.4)."""
        events: list[Event] = []
        for live in self._pending_of(side):
            live.status = "cancelled"
            events.append(
                _event(
                    "attack_cancelled",
                    rule,
                    f"{self.names[side]}'s {live.planned.area} attack ({live.cf} CF) is "
                    f"cancelled: {reason}",
                    side=side,
                    area=live.planned.area,
                )
            )
        self.events.extend(events)
        return events

    # -- resolution -------------------------------------------------------------------------
    def run(self) -> list[Event]:
        """Resolve every remaining step; returns the events of the whole phase so far."""
        while not self._finished:
            self.step()
        return self.events

    def step(self) -> list[Event]:
        """Resolve the next step of the sequence (and close the phase after the last)."""
        start = len(self.events)
        if self._finished:
            return []
        if self._next >= len(self.sequence):
            self._close()
            return self.events[start:]
        step = self.sequence[self._next]
        self._next += 1
        self._round = step.round
        active = [self._live[(p.side, p.area)] for p in step.attacks]
        active = [live for live in active if live.status == "pending"]
        if len(active) > 1:
            self.events.append(
                _event(
                    "simultaneous",
                    "§9.4.4",
                    f"round {step.round}: equal CF ({active[0].cf}), "
                    f"{self.names[0]} and {self.names[1]} strike simultaneously",
                    round=step.round,
                )
            )
        # Every attack of the step is read on the values from before it (§9.4.4)...
        reads: list[tuple[_Live, CrtOutcome]] = []
        for live in active:
            reads.append((live, self._read(live)))
            live.status = "resolved"
        # ...then the results take effect (§9.4.6).
        losses = [0, 0]
        for live, outcome in reads:
            p = live.planned
            self.outcomes.append((p, outcome))
            defender = 1 - p.side
            if outcome.code == "F":
                self._fumble(p.side)
            elif outcome.code != "-":
                lost = self._on_hit(p.side, defender, p.area, outcome)
                if not isinstance(lost, int) or isinstance(lost, bool) or lost < 0:
                    raise ValueError(f"on_hit must return the CF lost (an int >= 0), not {lost!r}")
                losses[defender] += lost
        for side in (0, 1):
            losses[side] += self._charged[side]
            self._charged[side] = 0
            if losses[side]:
                self._lose(side, losses[side])
        if self._next >= len(self.sequence):
            self._close()
        return self.events[start:]

    def counter_attack(self, side: Side, cf: int, via: Area) -> int:
        """§22.2 Feint: an immediate counter-attack of `cf` CF by `side` (S4: on the defender's
        area with the least defence now that no special defence makes No Effect; ties to the
        lower area number), struck with the weapon of the Feint on `via`; the CF the defender
        loses at once."""
        defender = 1 - side
        guard = self.allocations[defender].special_defence
        shut = {guard[0]} if guard is not None and self._guard(guard[1]).code == "-" else set()
        open_ = [a for a in AREAS if a not in shut] or list(AREAS)
        area = min(open_, key=lambda a: (self.defence_cf(defender, a), AREA_NUMBERS[a]))
        planned = PlannedAttack(side, area, cf, self._round, -1)
        self.events.append(
            _event(
                "feint_counter",
                "§22.2",
                f"{self.names[side]}'s feint opens {self.names[defender]}'s guard: he "
                f"counter-attacks the {area} with {cf} CF",
                side=side,
                area=area,
                cf=cf,
            )
        )
        outcome = replace(self._read(_Live(planned, cf, "resolved"), via=via), counter_of=via)
        self.outcomes.append((planned, outcome))
        if outcome.code == "F":
            self._fumble(side)
            return 0
        if outcome.code == "-":
            return 0
        lost = self._on_hit(side, defender, area, outcome)
        if not isinstance(lost, int) or isinstance(lost, bool) or lost < 0:
            raise ValueError(f"on_hit must return the CF lost (an int >= 0), not {lost!r}")
        return lost

    def _guard(self, code: str) -> CrtResult:
        if code not in self._guard_results:
            auto = advanced_tables().specials.t20.defences[code].auto  # type: ignore[index]
            self._guard_results[code] = CrtResult.model_validate(auto)
        return self._guard_results[code]

    def _guarded(self, live: _Live, code: str, defence: int) -> tuple[CrtOutcome, list[Event]]:
        """§22.3: a special defence's automatic result instead of the roll, converted for
        the defender's kit as any result is (§9.6, S3)."""
        p = live.planned
        defender = 1 - p.side
        auto = self._guard(code)
        result, changes = convert_result(
            auto, has_weapon=self._weapon[defender], has_shield=self._shield[defender]
        )
        modified = modified_cf(live.cf, defence)
        column, column_drm = crt_column(modified)
        outcome = CrtOutcome(
            attack_cf=live.cf,
            defence_cf=defence,
            modified_cf=modified,
            unweakened_cf=live.cf - max(defence, 0),
            column=column,
            column_drm=column_drm,
            drm=0,
            roll=0,
            total=0,
            crt=auto,
            result=result,
            guard=code,
        )
        shown = "No Effect" if str(auto) == "-" else str(auto)
        events = [
            _event(
                "special_defence",
                "§22.3",
                f"{self.names[p.side]} -> {self.names[defender]}'s {p.area}: "
                f"{self.names[defender]}'s {special_name('D', code)}, {live.cf} CF against "
                f"{defence} defence: automatically {shown}, no roll",
                modified_cf=modified,
                result=str(result),
                special=code,
            )
        ]
        for before, after, lacking in changes:
            events.append(
                _event(
                    "conversion",
                    "§9.6",
                    f"{self.names[defender]} has no {lacking}: {before} becomes {after}",
                    result=after,
                )
            )
        return outcome, events

    def _read(self, live: _Live, via: Area | None = None) -> CrtOutcome:
        p = live.planned
        defender = 1 - p.side
        index = AREA_NUMBERS[p.area] - 1
        account = self.accounts[defender]
        before = self._defence[defender][index]
        if account.waiting:
            waiting = account.waiting
            self._defence[defender][index] -= waiting
            account.off_defence += waiting
            account.waiting = 0
            self.events.append(
                _event(
                    "defence_reduced",
                    "§9.4.7",
                    f"{self.names[defender]}'s {p.area} defence {before} -> "
                    f"{self._defence[defender][index]}: {waiting} CF lost earlier this phase",
                    side=defender,
                    area=p.area,
                    amount=waiting,
                )
            )
        if self._fumble_due[defender]:
            self._fumble_due[defender] = False
            penalty = self._dice.roll("1D6", "fumble penalty", "§9.6")
            now = self._defence[defender][index]
            self._defence[defender][index] -= penalty
            self.events.append(
                _event(
                    "fumble_penalty",
                    "§9.6",
                    f"{self.names[defender]} fumbled: 1D6 = {penalty} comes off his {p.area} "
                    f"defence, {now} -> {self._defence[defender][index]}",
                    side=defender,
                    area=p.area,
                    amount=penalty,
                )
            )
        guard = self.allocations[defender].special_defence
        special = self.allocations[p.side].special_attack
        code = special[1] if special is not None and special[0] == p.area and via is None else ""
        if guard is not None and guard[0] == p.area:  # §22.3
            outcome, events = self._guarded(live, guard[1], self._defence[defender][index])
            outcome = replace(outcome, special=code)
            for e in events:
                e.update(side=p.side, area=p.area, round=p.round)
            events[0]["text"] = f"round {p.round}: {events[0]['text']}"
            self.events.extend(events)
            return outcome
        extra = self._drm(p.side, defender, p.area) if self._drm is not None else 0
        label = f"{self.names[p.side]} -> {self.names[defender]}'s {p.area}"
        if code:  # §22.2
            label += f" ({special_name('A', code)})"
        outcome, events = resolve_crt(
            self._dice,
            live.cf,
            self._defence[defender][index],
            drm=extra,
            has_weapon=self._weapon[defender],
            has_shield=self._shield[defender],
            crt=self._crt,
            label=label,
            defender=self.names[defender],
            shift=self._shift(p.side, via or p.area) if self._shift is not None else None,
        )
        if code:
            outcome = replace(outcome, special=code)
        for e in events:
            e.update(side=p.side, area=p.area, round=p.round)
        events[0]["text"] = f"round {p.round}: {events[0]['text']}"
        self.events.extend(events)
        return outcome

    def _pending_of(self, side: Side) -> list[_Live]:
        """His attacks not yet resolved nor cancelled, in sequence order."""
        out: list[_Live] = []
        for step in self.sequence[self._next :]:
            for p in step.attacks:
                live = self._live[(p.side, p.area)]
                if p.side == side and live.status == "pending":
                    out.append(live)
        return out

    def _fumble(self, side: Side) -> None:
        self.fumbled[side] = True
        self._fumble_due[side] = True
        self.events.append(
            _event(
                "fumble",
                "§9.6",
                f"{self.names[side]} fumbles: his remaining attacks are cancelled, and 1D6 comes "
                "off the defence of his next area attacked",
                side=side,
            )
        )
        self.cancel_attacks(side, "fumble", "§9.6")

    def _lose(self, side: Side, amount: int) -> None:
        """§9.4.6-§9.4.8: a CF loss taken at once."""
        name = self.names[side]
        account = self.accounts[side]
        account.lost += amount
        self.events.append(
            _event("cf_loss", "§9.4.6", f"{name} loses {amount} CF", side=side, amount=amount)
        )
        left = amount
        for live in self._pending_of(side):
            if not left:
                break
            take = min(live.cf, left)
            live.cf -= take
            left -= take
            account.off_attacks += take
            area = live.planned.area
            if live.cf == 0:
                live.status = "cancelled"
                text = f"{name}'s {area} attack loses {take} CF and is cancelled"
                kind = "attack_cancelled"
            else:
                text = f"{name}'s {area} attack loses {take} CF, {live.cf} left"
                kind = "attack_reduced"
            self.events.append(_event(kind, "§9.4.6", text, side=side, area=area, amount=take))
        if not left:
            return
        if self._pending_of(1 - side):
            account.waiting += left
            self.events.append(
                _event(
                    "defence_loss_waiting",
                    "§9.4.7",
                    f"{left} CF will come off the defence of {name}'s next area attacked",
                    side=side,
                    amount=left,
                )
            )
        else:
            account.no_effect += left
            self.events.append(
                _event(
                    "loss_without_effect",
                    "§9.4.8",
                    f"{left} CF of {name}'s loss has no further effect this phase",
                    side=side,
                    amount=left,
                )
            )

    def _close(self) -> None:
        self._finished = True
        for side in (0, 1):
            account = self.accounts[side]
            if account.waiting:
                left = account.waiting
                account.no_effect += left
                account.waiting = 0
                self.events.append(
                    _event(
                        "loss_without_effect",
                        "§9.4.8",
                        f"{left} CF of {self.names[side]}'s loss has no further effect: "
                        "no attack against him remained",
                        side=side,
                        amount=left,
                    )
                )
        self.events.append(_event("combat_end", "§9.4", "the phase's attacks are over"))

    def _sequence_event(self) -> Event:
        parts: list[str] = []
        for step in self.sequence:
            names = " = ".join(f"{self.names[p.side]} {p.area} {p.cf}" for p in step.attacks)
            parts.append(f"r{step.round} {names}")
        text = "attack sequence: " + ("; ".join(parts) if parts else "no attacks")
        return _event(
            "attack_sequence",
            "§9.4.2",
            text,
            steps=[
                [{"side": p.side, "area": p.area, "cf": p.cf} for p in step.attacks]
                for step in self.sequence
            ],
        )
