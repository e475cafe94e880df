"""An allocation as written (§9.3, §9.4.1): its attacks and defences (cf_allocation.py's
notation, §22's special boxes), the net's ESCAPE and DRAG CFs (§20.5.5, N10), the attack given up
to Find Weakness (§36.3, TL6) and, where the match has more than two figures, the target each
attack box names (§27.3.1, G9).

Canonical text: the attacks in the order he makes them (Q25), then the defences by area, then
ESCAPE and DRAG; e.g. `A-CHEST:3 A-HEAD-FEINT:4 D-ARMS:2 ESCAPE:1`, and with targets
`A-BLUE-CHEST:3 A-GREEN-HEAD-FEINT:4 D-ARMS:2`. A man with one target may leave it out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from gladiator.rules.colosseum.combat.cf_allocation import (
    MAX_ATTACK_CF_PER_AREA,
    Allocation,
    AllocationError,
    format_allocation,
    parse_allocation,
    read_area,
)
from gladiator.rules.colosseum.combat.net_combat import split_net_allocation
from gladiator.rules.colosseum.vocabulary import Area

__all__ = ["Written", "canonical", "read_written", "split_weakness"]

_TARGETED = re.compile(r"^A-([A-Z]+)-([A-Z]+|\d)(-[A-Z]+)?([:=].*)$")  # A-BLUE-HEAD[-FEINT]:4
_ATTACK_AREA = re.compile(r"^A(?:\d+[:=]([A-Z]+|\d)|-([A-Z]+|\d))")  # A3:head or A-HEAD...
_FW_SHORT = re.compile(r"^A(\d+)[:=]([A-Z]+|\d)/FW$")  # A3:chest/FW
_FW_SLOT = re.compile(r"^A-([A-Z]+|\d)-FW[:=](\d+)$")  # A-CHEST-FW:3


@dataclass(frozen=True, slots=True)
class Written:
    allocation: Allocation
    nets: dict[str, int] = field(default_factory=dict)  # ESCAPE, DRAG (N10)
    given_up: Area | None = None  # TL6
    target_of: dict[Area, str] = field(default_factory=dict)  # area -> seat, where named


def read_written(
    order: str,
    budget: int,
    *,
    targets: Sequence[str] = (),
    named: bool = False,
    nets: bool = False,
    weakness: bool = False,
    attack_cap: int = MAX_ATTACK_CF_PER_AREA,
) -> Written:
    """The allocation an order writes; AllocationError with one line if it cannot be read.
    `named`: each attack box names its target among `targets` (one target may be left out)."""
    text, target_of = _untarget(order, targets) if named else (order, {})
    amounts: dict[str, int] = {}
    if nets:  # §20.5.5 (N10)
        text, amounts = split_net_allocation(text)
    given_up: Area | None = None
    if weakness:  # §36.3 (TL6)
        text, given_up = split_weakness(text)
    allocation = parse_allocation(text, budget, attack_cap=attack_cap)
    return Written(allocation, amounts, given_up, target_of)


def canonical(w: Written) -> str:
    """The canonical text (the module's docstring)."""
    text = format_allocation(w.allocation, "slots")
    if w.given_up is not None:  # TL6: the mark goes back on the attack given up
        plain = f"A-{w.given_up.upper()}:"
        text = " ".join(
            f"A-{w.given_up.upper()}-FW:{word[len(plain) :]}" if word.startswith(plain) else word
            for word in text.split()
        )
    net = " ".join(f"{k}:{v}" for k, v in sorted(w.nets.items(), reverse=True) if v)
    if net:
        text = net if text == "-" else f"{text} {net}"
    if not w.target_of:
        return text
    return " ".join(_aim(word, w.target_of) for word in text.split())


def _aim(word: str, target_of: dict[Area, str]) -> str:
    m = _ATTACK_AREA.match(word)
    if m is None:
        return word
    area = read_area(m.group(1) or m.group(2))
    return f"A-{target_of[area].upper()}-{word[2:]}"


def _untarget(order: str, targets: Sequence[str]) -> tuple[str, dict[Area, str]]:
    """§27.3.1 (G9): the order with its targets taken out, and each attacked area's target."""
    seats = {t.upper(): t for t in targets}
    target_of: dict[Area, str] = {}
    words: list[str] = []
    for word in order.replace(",", " ").split():
        up = word.upper()
        m = _TARGETED.match(up)
        if m is not None and m.group(1) in seats:
            seat, rest = seats[m.group(1)], f"A-{m.group(2)}{m.group(3) or ''}{m.group(4)}"
        elif _ATTACK_AREA.match(up) and len(targets) == 1:
            seat, rest = targets[0], up
        elif _ATTACK_AREA.match(up):
            who = ", ".join(t.upper() for t in targets) or "nobody: he may not attack"
            raise AllocationError(
                f"{word!r}: an attack names its target, e.g. A-<SEAT>-HEAD:4; "
                f"he may attack {who} (§27.3.1)"
            )
        else:
            words.append(word)
            continue
        area = read_area(_area_of(rest))
        if area in target_of:
            raise AllocationError(
                f"one attack box per area: the {area} may be attacked once (G9, §9.4.1)"
            )
        target_of[area] = seat
        words.append(rest)
    return " ".join(words) or "-", target_of


def _area_of(word: str) -> str:
    m = _ATTACK_AREA.match(word)
    assert m is not None
    return m.group(1) or m.group(2)


def split_weakness(text: str) -> tuple[str, Area | None]:
    """TL6: the allocation without its FW mark (the attack stays, as a plain one) and the area of
    the attack given up; AllocationError with one line for two marks."""
    rest: list[str] = []
    area: Area | None = None
    for word in text.replace(",", " ").split():
        up = word.upper()
        short, slot = _FW_SHORT.match(up), _FW_SLOT.match(up)
        if short is None and slot is None:
            rest.append(word)
            continue
        if area is not None:
            raise AllocationError(f"{word!r}: one attack given up to Find Weakness a phase (§36.3)")
        if short is not None:
            cf, where = short.groups()
        else:
            assert slot is not None
            where, cf = slot.groups()
        area = read_area(where)
        rest.append(f"A{cf}:{area}")
    return " ".join(rest) or "-", area
