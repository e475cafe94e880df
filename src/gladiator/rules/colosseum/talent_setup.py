"""§36 at the set-up of a match: each seat's talents (option `talents`, talents.py T1) put on his
gladiator, and Toughness (TG, Q50) written on his log sheet, where the CF of his wounds is
counted (logsheet.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gladiator.rules.colosseum.state import Gladiator
from gladiator.rules.colosseum.talents import parse_talents

__all__ = ["with_talents"]


def with_talents(g: Gladiator, options: Mapping[str, Any], i: int) -> None:
    """T1: the i-th seat's talents on g (none when the option is left out, as it is unless some
    gladiator has a talent)."""
    entries = options.get("talents") or ()
    if i >= len(entries) or not entries[i]:
        return
    g.talents = parse_talents(entries[i], f"talents[{i}]")
    if "TG" in g.talents:  # §36.3 TG (Q50, T7)
        g.sheet = g.sheet.model_copy(update={"toughness": True})
