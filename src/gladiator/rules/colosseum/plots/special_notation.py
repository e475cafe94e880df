"""How a special attack or defence (§22, T20) is written in the allocation notation.

§22.2: "Record the code letter and the CFs allocated in the appropriate attack block"; §22.3:
"Record the code letter in the appropriate defense block". The log sheet's box for an area then
holds the letter beside the number, so the short notation writes the letter after the area:

* `A3:arms/A` is a Disarm (A) with 3 CF in the arms attack box; `A4:head/F` a Feint at the head;
* `D2:head/D` is a Duck (D) in the head defence box, worth its 2 CF (§22.3).

The slot form, which the allocation decision offers and the record keeps, names the special:
`A-ARMS-DISARM:3`, `A-HEAD-FEINT:4`, `D-HEAD-DUCK:2` (the name without spaces: SHIELDBASH,
BACKSTEP). Both read back to the same allocation; the letter may also be the name
(`A3:arms/DISARM`).
"""

from __future__ import annotations

import re
from functools import cache

from gladiator.rules.colosseum.tables.advanced_tables import advanced_tables
from gladiator.rules.colosseum.tables.special_tables import SpecialAttack, SpecialDefence
from gladiator.rules.colosseum.vocabulary import AREAS, Area

__all__ = [
    "SpecialError",
    "attack_slot",
    "defence_slot",
    "read_short",
    "read_slot",
    "special_area_ok",
    "special_attack",
    "special_defence",
    "special_name",
]


class SpecialError(ValueError):
    """A special written where it cannot go; the message is one line naming the rule."""


def special_attack(code: str) -> SpecialAttack:
    return advanced_tables().specials.t20.attacks[code]  # type: ignore[index]


def special_defence(code: str) -> SpecialDefence:
    return advanced_tables().specials.t20.defences[code]  # type: ignore[index]


def special_name(kind: str, code: str) -> str:
    """ "Disarm (A)" and the like, for events and messages."""
    spec = special_attack(code) if kind == "A" else special_defence(code)
    return f"{spec.name} ({code})"


def _word(name: str) -> str:
    return name.upper().replace(" ", "")


@cache
def _codes() -> dict[tuple[str, str], str]:
    """(kind, letter or name) -> letter, for both kinds."""
    t20 = advanced_tables().specials.t20
    out: dict[tuple[str, str], str] = {}
    for kind, table in (("A", t20.attacks), ("D", t20.defences)):
        for code, spec in table.items():
            out[(kind, code)] = code
            out[(kind, _word(spec.name))] = code
    return out


def attack_slot(area: Area, code: str) -> str:
    return f"A-{area.upper()}-{_word(special_attack(code).name)}"


def defence_slot(area: Area, code: str) -> str:
    return f"D-{area.upper()}-{_word(special_defence(code).name)}"


def _code(kind: str, text: str) -> str:
    code = _codes().get((kind, text.upper()))
    if code is None:
        known = sorted(c for k, c in _codes() if k == kind and len(c) == 1)
        what = "special attack" if kind == "A" else "special defence"
        raise SpecialError(f"no {what} {text!r} (§22: {', '.join(known)})")
    return code


def special_area_ok(kind: str, code: str, area: Area) -> None:
    """§22.2, §22.3: each special has its area (Feint any); raise SpecialError if not this."""
    spec = special_attack(code) if kind == "A" else special_defence(code)
    if spec.area not in ("any", area):
        raise SpecialError(
            f"{special_name(kind, code)} is written in the {spec.area} box, not the {area} "
            f"({spec.section})"
        )


_SLOT = re.compile(r"^([AD])-([A-Z]+)-([A-Z]+)[:=](-?\d+)$")
_SHORT = re.compile(r"^([AD])(\d+)[:=]([A-Z]+|\d)/([A-Z]+)$")


def _area(text: str) -> Area:
    if text.isdigit() and 1 <= int(text) <= len(AREAS):
        return AREAS[int(text) - 1]
    word = text.lower()
    for area in AREAS:
        if area == word:
            return area
    raise SpecialError(f"unknown body area {text!r} (head, chest, groin, arms, legs or 1-5)")


def _read(kind: str, area_text: str, code_text: str, cf: int) -> tuple[str, Area, str, int]:
    area = _area(area_text)
    code = _code(kind, code_text)
    special_area_ok(kind, code, area)
    return kind, area, code, cf


def read_slot(word: str) -> tuple[str, Area, str, int] | None:
    """`A-ARMS-DISARM:3` -> ("A", "arms", "A", 3); None if the word is no special slot."""
    m = _SLOT.match(word.upper())
    if m is None:
        return None
    return _read(m[1], m[2], m[3], int(m[4]))


def read_short(word: str) -> tuple[str, Area, str, int] | None:
    """`A3:arms/A` -> ("A", "arms", "A", 3); None if the word is no special."""
    m = _SHORT.match(word.upper())
    if m is None:
        return None
    return _read(m[1], m[3], m[4], int(m[2]))
