"""Making a centurion (§29.2, T26): his Fighting Spirit, his characteristics, his match options.

Rulings (docs/rulings.md, C series):

C1  §29.2, Q39: the match rolls every log sheet by §3 (the class from the option `gladiators`)
    before any bot is asked anything, so a T26 roll cannot become the centurion's sheet: what
    T26 gives (TR, ST, AG, CN, W) has no match option. `roll_t26` rolls it with the bot's rng for
    whoever wants to see what the rulebook centurion would have been; `centurion_options` honours
    what can be honoured: the seat is run by §29 (option `solitaire`) and, as Q39 recommends, his
    class is the opposing gladiator's class choice where his own is left "random".
C2  §29.2: his Fighting Spirit (1D3 − 2) is rolled once per match and stays. A bot is not always
    one object for the whole match (the server builds it again after a restart) and its rng is
    given afresh for each decision there, so the FS die is thrown with a generator seeded from
    a hash of the seat and of what is public and fixed from the first decision on: both log
    sheets as rolled and the match options. Every decision of the match reads the same FS; it
    tells nothing of dice to come, for those facts are already on the table.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.tables.advanced_tables import advanced_tables
from gladiator.rules.colosseum.tables.centurion_tables import CenturionRow
from gladiator.rules.colosseum.vocabulary import GladiatorClass

__all__ = [
    "T26Roll",
    "centurion_options",
    "effective_fs",
    "fighting_spirit",
    "roll_fighting_spirit",
    "roll_t26",
]


def _d3(rng: random.Random) -> int:
    """§2.5: a D3 is a D6 halved, rounding up."""
    return (rng.randint(1, 6) + 1) // 2


def roll_fighting_spirit(rng: random.Random) -> int:
    """§29.2: FS = 1D3 − 2 (−1, 0 or +1)."""
    fs = advanced_tables().centurions.t26.fighting_spirit
    assert fs.dice == "1D3"
    return _d3(rng) + fs.modifier


@dataclass(frozen=True, slots=True)
class T26Roll:
    """One roll on the Random Centurion Table (§29.2, T26; D66 by ruling A4)."""

    d66: int
    row: CenturionRow
    fighting_spirit: int


def roll_t26(rng: random.Random) -> T26Roll:
    """§29.2: D66 on T26 (RED the tens, WHITE the ones), then his FS."""
    d66 = 10 * rng.randint(1, 6) + rng.randint(1, 6)
    row = advanced_tables().centurions.t26.row(d66)
    return T26Roll(d66, row, roll_fighting_spirit(rng))


def centurion_options(options: Mapping[str, Any], seats: tuple[str, ...]) -> dict[str, Any]:
    """Match options for a duel where `seats` are centurions (C1): each is a `solitaire` seat
    (§29.3) and, where his opponent's class is chosen and his own is not, takes the same
    class (Q39)."""
    out = dict(options)
    order = ("red", "blue")
    solo = set(out.get("solitaire", ())) | set(seats)
    out["solitaire"] = [s for s in order if s in solo]
    classes = list(out.get("gladiators", ["random", "random"]))
    if len(classes) == len(order):
        for i, seat in enumerate(order):
            other = classes[1 - i]
            mine = classes[i] == "random"  # a class chosen for him stands
            if seat in seats and order[1 - i] not in seats and other != "random" and mine:
                classes[i] = other
        out["gladiators"] = classes
    return out


def _fingerprint(g: Gladiator) -> tuple[Any, ...]:
    s = g.sheet
    return (g.seat, s.id, s.gladiator_class, s.tr, s.st, s.ag, s.cn, s.w, str(s.armour), s.shield)


@lru_cache(maxsize=4096)
def _fs_for(key: str) -> int:
    seed = int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big")
    return roll_fighting_spirit(random.Random(seed))


def fighting_spirit(state: ColosseumState, seat: str) -> int:
    """§29.2 (C2): the centurion's FS in this match, the same at every decision."""
    sheets = sorted(_fingerprint(g) for g in state.gladiators.values())
    options = json.dumps(state.options, sort_keys=True, default=str)
    return _fs_for(json.dumps(["centurion-fs", seat, sheets, options], default=str))


def effective_fs(fs: int, gladiator_class: GladiatorClass) -> int:
    """§29.6.1: FS + 2 if Heavy, + 1 if Medium, + 0 if Light (T30)."""
    return fs + advanced_tables().centurions.t30.effective_fs.for_class(gladiator_class)
