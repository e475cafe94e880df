"""What an order means, for the terminal's `?`: the option's own label, else the meanings of its
tokens in the ruleset's glossary (presentation.glossary), in the order written, so that `(R)F`
reads "turn right, then forward" and `F(R)` "forward, then turn right". As glossary.js does for
the web arena."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

__all__ = ["meaning"]

# A rotation (2L), a throw or kick +TW-HEAD, an action SFL or RO-FL, a target >blue, the empty -.
_TOKEN = re.compile(r"\(\d?[LR]\)|\+[A-Z]+\d?(?:-[A-Z]+)?|[A-Z]+\d*(?:-[A-Z]+)*|>\w+|^-$")


def _token(tok: str, orders: Mapping[str, str]) -> str | None:
    if tok in orders:
        return orders[tok]
    if tok.startswith(">"):
        return f"at {tok[1:].lower()}"
    base, dash, side = tok.partition("-")
    if dash and base in orders:
        where = orders.get(f"-{side}")
        return f"{orders[base]}: {where}" if where else orders[base]
    return None


def meaning(text: str, glossary: Mapping[str, Any]) -> str:
    """The meaning of `text` from the glossary's orders, or "" when a token is unknown."""
    orders: Mapping[str, str] = glossary.get("orders", {})
    upper = text.strip().upper()
    if upper in orders:
        return orders[upper]
    parts = [_token(t, orders) for t in _TOKEN.findall(upper)]
    if not parts or any(p is None for p in parts):
        return ""
    return ", then ".join(p for p in parts if p)
