"""The load test's client side of an order (server/loadtest.py; the tests): a decision
rebuilt from the JSON form the server sends, and a legal order drawn from it."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from gladiator.core.decisions import (
    Arrange,
    ChooseOne,
    Decision,
    Distribute,
    Option,
    PickHex,
    Slot,
    SlotGroup,
)
from gladiator.core.hexgrid import Hex

__all__ = ["decision_from_dict", "sample_order"]


def decision_from_dict(d: Mapping[str, Any]) -> Decision:
    """A decision rebuilt from its `to_dict()` (what a client receives), enough to draw from."""
    kind = d.get("kind")
    prompt = str(d.get("prompt", ""))
    if kind == "choose":
        return ChooseOne(prompt=prompt, options=tuple(Option(o["text"]) for o in d["options"]))
    if kind == "distribute":
        return Distribute(
            prompt=prompt,
            budget=int(d["budget"]),
            exact=bool(d["exact"]),
            max_used=d.get("max_used"),
            slots=tuple(
                Slot(s["name"], int(s["max"]), int(s["min"]), step=int(s.get("step", 1)))
                for s in d["slots"]
            ),
            groups=tuple(
                SlotGroup(
                    tuple(g["slots"]),
                    int(g["max"]),
                    max_used=g.get("max_used"),
                    above=int(g.get("above", 0)),
                )
                for g in d.get("groups", ())
            ),
        )
    if kind == "hex":
        return PickHex(prompt=prompt, hexes=tuple(Hex(q, r) for q, r in d["hexes"]))
    if kind == "arrange":
        return Arrange(prompt=prompt, items=tuple(d["items"]))
    raise ValueError(f"unknown decision kind {kind!r}")


def sample_order(decision: Mapping[str, Any], rng: random.Random) -> str:
    """A legal order for a decision as the server describes it, drawn at random."""
    return decision_from_dict(decision).sample(rng)
