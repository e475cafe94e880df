"""The match shapes and style assignments of the random-legal checker (issue 27).

A shape is a Colosseum Advanced Game set-up: a duel, team combat (§27: 2 v 2 and 6 v 6), a
beast hunt (§28: one gladiator against one beast), a pack (B11: one gladiator against two or
three beasts) and a §29 solitaire duel (blue run by the centurion rules' seat order). A style
is one of the option `styles`' 15 values other than "random": "standard" (his class's standard
style), the 12 of T37 and §28.2's two beast fighters. Some styles cannot be played in some
shapes by the rules (a beast fighter fights beasts, §28.2; a Contra-Retiarius only a Retiarius,
§19.2.3): `eligible_styles` asks the options themselves, so the checker follows the rules.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, get_args

from gladiator.registry import get
from gladiator.rules.colosseum.kit.styles import style
from gladiator.rules.colosseum.options import StyleChoice
from gladiator.rules.colosseum.setup.roster import beast_kinds
from gladiator.rules.colosseum.teams import ALL_SEATS
from gladiator.sim.runner import derive_seed

__all__ = [
    "GLADIATORS",
    "SHAPES",
    "STYLES",
    "MatchSpec",
    "eligible_styles",
    "ineligible_styles",
    "paired",
    "shape_options",
    "spec_for",
]

SHAPES = ("duel", "2v2", "6v6", "hunt", "pack", "solitaire")
STYLES: tuple[str, ...] = tuple(s for s in get_args(StyleChoice) if s != "random")
# Gladiators (not beasts) per shape, in seat order: their styles.
GLADIATORS = {"duel": 2, "solitaire": 2, "2v2": 4, "6v6": 12, "hunt": 1, "pack": 1}
# §27, G1, G15: the sides, alternating the seats so each side is a full line of the table.
_SIDES = {
    "2v2": (("red", "green"), ("blue", "gold")),
    "6v6": (ALL_SEATS[0::2], ALL_SEATS[1::2]),
}
_BEAST_SEATS = ("blue", "green", "gold")  # B11: a pack's beasts, in table order


@dataclass(frozen=True)
class MatchSpec:
    """One match to play: its shape, seed, each gladiator's style in seat order, and the beasts'
    kinds (a hunt's one, a pack's two or three; "random" rolls it, P3)."""

    shape: str
    seed: int
    styles: tuple[str, ...]
    beasts: tuple[str, ...] = ()


def shape_options(spec: MatchSpec) -> dict[str, Any]:
    """The match options of a spec (not yet normalised: the options may refuse them)."""
    options: dict[str, Any] = {"advanced": True, "styles": list(spec.styles)}
    if spec.shape == "solitaire":
        options["solitaire"] = ["blue"]  # §29: the second seat follows the centurion charts
    elif spec.shape in _SIDES:
        options["teams"] = ":".join("+".join(side) for side in _SIDES[spec.shape])
    elif spec.shape in ("hunt", "pack"):
        seats = _BEAST_SEATS[: len(spec.beasts)]
        options["beasts"] = ",".join(f"{s}:{k}" for s, k in zip(seats, spec.beasts, strict=True))
        options["styles"] = [*spec.styles, *(["random"] * len(spec.beasts))]  # a beast: none
    return options


def spec_for(shape: str, seed: int, styles: Sequence[str] | None = None) -> MatchSpec:
    """The spec of one match; styles left out are drawn from the seed among those the shape
    allows. ValueError (one line) for an unknown shape or a wrong number of styles."""
    if shape not in SHAPES:
        raise ValueError(f"no shape {shape!r}; shapes: {', '.join(SHAPES)}")
    rng = random.Random(derive_seed(seed, "set-up", shape))
    kinds = (*beast_kinds(), "random")
    beasts: tuple[str, ...] = ()
    if shape == "hunt":
        beasts = (rng.choice(kinds),)
    elif shape == "pack":
        beasts = tuple(rng.choice(kinds) for _ in range(rng.choice((2, 3))))
    if styles is None:
        pool = eligible_styles(shape)
        styles = paired(shape, [rng.choice(pool) for _ in range(GLADIATORS[shape])], rng)
    if len(styles) != GLADIATORS[shape]:
        raise ValueError(f"a {shape} has {GLADIATORS[shape]} gladiators, not {len(styles)} styles")
    for s in styles:
        if s not in STYLES:
            raise ValueError(f"no style {s!r}; styles: {', '.join(STYLES)}")
    return MatchSpec(shape, seed, tuple(styles), beasts)


def paired(shape: str, styles: Sequence[str], rng: random.Random) -> tuple[str, ...]:
    """§19.2.3 in a two-gladiator shape: a style that fights only certain styles gets one of
    them as its opponent (a team match holds nobody to them, G1)."""
    out = list(styles)
    if GLADIATORS[shape] == 2:
        for i in (0, 1):
            wanted = _opponents(out[i])
            if wanted and out[1 - i] not in wanted:
                out[1 - i] = rng.choice(wanted)
    return tuple(out)


def _opponents(key: str) -> tuple[str, ...]:
    return () if key == "standard" else style(key).opponents


@cache
def eligible_styles(shape: str) -> tuple[str, ...]:
    """The styles the options accept for the first gladiator of `shape` (the others standard,
    or his only opponent where he has one)."""
    return tuple(s for s in STYLES if s not in ineligible_styles(shape))


@cache
def ineligible_styles(shape: str) -> dict[str, str]:
    """The styles the options refuse in `shape`, each with the refusal's line."""
    ruleset = get("colosseum")
    beasts = {"hunt": ("lion",), "pack": ("lion", "bear")}.get(shape, ())
    out: dict[str, str] = {}
    for s in STYLES:
        others = ["standard"] * (GLADIATORS[shape] - 1)
        if others and _opponents(s):
            others[0] = _opponents(s)[0]
        try:
            ruleset.normalise_options(shape_options(MatchSpec(shape, 0, (s, *others), beasts)))
        except ValueError as exc:
            out[s] = str(exc).splitlines()[0]
    return out
