"""§36 at the set-up of a match: each seat's talents (option `talents`, talents.py TL1) put on his
gladiator, and Toughness (TG, Q50) written on his log sheet, where the CF of his wounds is
counted (logsheet.py).

RULINGS (docs/rulings.md, Colosseum Campaign Game, the TL series)

TL8 §36.3 TG, Q50, §10.3.1: "ignores the first CF loss to each unwounded body area" is the
    first CF category his wounds reach in an area that had none: it costs nothing (a first hit
    that reaches two categories at once costs 1, not 2); later categories of that area count
    as usual, and so does every other CF loss (criticals' V, endurance, Stun). What a lost
    category feeds elsewhere (the arms' CF lost in a drop roll, §13.1.1) is lowered alike. The
    sheet carries the talent (`LogSheet.toughness`, written out only when set).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gladiator.rules.colosseum.kit.talents import parse_talents
from gladiator.rules.colosseum.state import Gladiator

__all__ = ["with_talents"]


def with_talents(g: Gladiator, options: Mapping[str, Any], i: int) -> None:
    """TL1: the i-th seat's talents on g (none when the option is left out, as it is unless some
    gladiator has a talent)."""
    entries = options.get("talents") or ()
    if i >= len(entries) or not entries[i]:
        return
    g.talents = parse_talents(entries[i], f"talents[{i}]")
    if "TG" in g.talents:  # §36.3 TG (Q50, TL8)
        g.sheet = g.sheet.model_copy(update={"toughness": True})
