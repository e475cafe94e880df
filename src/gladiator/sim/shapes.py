"""The Colosseum's match shapes for `gladiator bench` and `gladiator bench-compare`: the Basic
Game, the Advanced Game's duel, 2 v 2 and 6 v 6, a single-beast hunt and a pack of beasts.

A shape is only a dictionary of raw ruleset options, read by `normalise_options` as any match's
are; so an old build that has never heard of shapes plays the same matches, given the same
dictionary (`sim.compare` hands it to the workload script as JSON). The bench of several shapes
is one run of `run_bench` per shape, each kept whole (a schema-2 `gladiator.bench` object, as
`bench` prints without a shape), side by side under `shapes`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from gladiator.sim.machine import load_average, machine

__all__ = [
    "SCHEMA_VERSION",
    "SHAPES",
    "Shape",
    "parse_shapes",
    "run_bench_shapes",
    "run_compare_shapes",
]

SCHEMA_VERSION = 1
RULESET = "colosseum"


@dataclass(frozen=True)
class Shape:
    description: str
    options: Mapping[str, Any] = field(default_factory=dict)


# G1: the seats of a side, in table order, alternating so that each side keeps its duel seat.
_SIX_A_SIDE = "red+green+white+purple+orange+grey:blue+gold+black+silver+brown+pink"

# The hunt and the pack pin the gladiator's style to a beast fighter without a net. A Retiarius
# against a beast is offered net orders that raise PlotError when applied (issue 27 fixes the
# net); today "random" in a hunt rolls only the two beast fighters (§28.2), but pinning keeps
# the bench's matches off the net whatever the style rules come to roll, and so free of luck.
SHAPES: dict[str, Shape] = {
    "basic": Shape("the Basic Game duel (§2-§18), random classes: `bench colosseum`'s default"),
    "advanced-duel": Shape("the Advanced Game duel, random styles", {"advanced": True}),
    "advanced-2v2": Shape(
        "Advanced Game team combat (§27), 2 v 2, random styles",
        {"advanced": True, "teams": "red+green:blue+gold"},
    ),
    "advanced-6v6": Shape(
        "Advanced Game team combat (§27), 6 v 6, random styles",
        {"advanced": True, "teams": _SIX_A_SIDE},
    ),
    "hunt": Shape(
        "a single-beast hunt (§28): a Bestiarius (pinned: no net) against a random beast",
        {"advanced": True, "beasts": "blue:random", "styles": ["bestiarius", "random"]},
    ),
    "pack": Shape(
        "a pack (§28, B11): a Venator (pinned: no net) against a lion, a bear and a random beast",
        {
            "advanced": True,
            "beasts": "blue:lion,green:bear,gold:random",
            # The beasts' seats take no style (B11): "random", unread.
            "styles": ["venator", "random", "random", "random"],
        },
    ),
}


def parse_shapes(ruleset: str, text: str) -> tuple[str, ...]:
    """`--shape`: one name, names separated by commas, or `all`; ValueError with one line."""
    if ruleset != RULESET:
        raise ValueError(f"--shape is for the {RULESET} ruleset only, not {ruleset!r}")
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    if names == ["all"]:
        return tuple(SHAPES)
    known = f"known: {', '.join(SHAPES)} (or all)"
    if "all" in names:
        raise ValueError("--shape all stands alone, not in a list")
    if not names:
        raise ValueError(f"--shape wants a shape name; {known}")
    for n in names:
        if n not in SHAPES:
            raise ValueError(f"unknown shape {n!r}; {known}")
    return tuple(dict.fromkeys(names))


def _wrap(
    schema: str, per_shape: dict[str, Any], load_before: list[float] | None, *, argv: bool
) -> dict[str, Any]:
    return {
        "schema": schema,
        "schema_version": SCHEMA_VERSION,
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "ruleset": RULESET,
        "machine": machine(),
        "load_average": {"before": load_before, "after": load_average()},
        **({"argv": sys.argv[1:]} if argv else {}),
        "shapes": per_shape,
    }


def run_bench_shapes(
    shapes: tuple[str, ...],
    matches: int,
    seed: int = 1,
    bots: tuple[str, ...] | None = None,
    **bench_kwargs: Any,
) -> dict[str, Any]:
    """`run_bench` once per shape, the same matches count and seed for each. Bots default to
    random legal alone: the look-ahead bots would take minutes over a 6 v 6."""
    from gladiator.sim.bench import run_bench

    before = load_average()
    per_shape = {}
    for name in shapes:
        shape = SHAPES[name]
        result = run_bench(
            RULESET, matches, seed, bots or ("random",), shape.options, **bench_kwargs
        )
        per_shape[name] = {"description": shape.description, "raw_options": dict(shape.options)}
        per_shape[name].update(result)
    return _wrap("gladiator.bench-shapes", per_shape, before, argv=True)


def run_compare_shapes(
    shapes: tuple[str, ...],
    baseline: Path,
    new: Path | None = None,
    *,
    on_shape: Callable[[str], None] | None = None,
    **compare_kwargs: Any,
) -> dict[str, Any]:
    """`run_compare` once per shape: every repetition of one shape, old and new alternating,
    then the next shape. Each build reads the shape's raw options itself."""
    from gladiator.sim.compare import run_compare

    before = load_average()
    per_shape = {}
    for name in shapes:
        if on_shape:
            on_shape(name)
        shape = SHAPES[name]
        result = run_compare(
            baseline, new, ruleset=RULESET, options=shape.options, **compare_kwargs
        )
        per_shape[name] = {"description": shape.description, **result}
    # No argv: it names the checkouts' folders, and the JSON names no folder of this machine.
    return _wrap("gladiator.bench-compare-shapes", per_shape, before, argv=False)
