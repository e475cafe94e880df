"""The biased random-legal player of the feature by shape matrix (issue 27, shape_matrix.py).

A match of one shape (duel, 2 v 2, 6 v 6, a one-beast hunt, a pack) set up by a `Recipe` (the
styles, talents and options that make some Advanced Game features possible) and played by every
seat from what its decision offers, as the random-legal checker does (random_legal_orders.py),
but biased toward the features still to be seen:

* a plot decision takes, with probability `PLOT_BIAS`, one of the offered plots whose text a
  wanted feature's `plot` pattern matches (the net toss `+TN`, a kick `+KW`, a throw `+TW`, ...);
  otherwise a plot with no throw, kick or pick-up that ends nearest an opponent (the recipe's
  `move` "approach"), farthest from him ("flee": toward the walls), on an item lying on the
  ground ("items", else as "approach") or any offered plot ("random");
* an allocation decision puts, with probability `SLOT_BIAS`, CF into one offered slot whose name
  a wanted feature's `slot` pattern matches (one attack box, one defence box: `A-LEGS-SWEEP`,
  `D-HEAD-DUCK`, `A-CHEST-FW`), the rest drawn within the limits the decision states;
* every other decision is drawn at random from its description.

Every order is checked by the match; one it refuses is replaced by an unbiased draw. The match
stops as soon as each wanted feature's events have been seen, or at `max_steps`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from gladiator.core.decisions import IllegalOrder
from gladiator.core.hexgrid import Hex, distance, facing_toward
from gladiator.core.match import Match
from gladiator.registry import get
from gladiator.sim.random_legal_orders import Unsampleable, sample_order
from gladiator.sim.random_legal_shapes import paired
from gladiator.sim.runner import derive_seed

__all__ = [
    "BEASTS",
    "GLADIATORS",
    "MATRIX_SHAPES",
    "PLOT_BIAS",
    "SLOT_BIAS",
    "Played",
    "Recipe",
    "Wanted",
    "play_recipe",
    "recipe_options",
]

MATRIX_SHAPES = ("duel", "2v2", "6v6", "hunt", "pack")
GLADIATORS = {"duel": 2, "2v2": 4, "6v6": 12, "hunt": 1, "pack": 1}
# The beasts of a hunt and a pack, fixed so that a seed names one match (B1, B11).
BEASTS: dict[str, tuple[str, ...]] = {"hunt": ("bear",), "pack": ("wolf", "leopard")}
_SIDES = {"2v2": "red+green:blue+gold", "6v6": None}  # 6v6: alternate seats (G1, G15)
_BEAST_SEATS = ("blue", "green", "gold")
PLOT_BIAS = 0.6
SLOT_BIAS = 0.9
_NONCE = "shape-matrix"
# What an approaching or fleeing man leaves alone: throws, kicks, pick-ups (R), a net dropped.
_PLAIN_PLOT = re.compile(r"^[^+]*$")
_PICK_UP = re.compile(r"(^|\s)R(\(|\s|$)")

Move = Literal["approach", "flee", "items", "random"]


@dataclass(frozen=True)
class Recipe:
    """A match set-up that makes features possible: `style` for every gladiator (None: the
    standard style), `talents` and `weapons` (F2) for every gladiator, other `options`, how
    plots move."""

    name: str
    style: str | None = None
    talents: str = ""
    weapons: str = ""
    options: Mapping[str, Any] = field(default_factory=dict)
    move: Move = "approach"
    max_turns: int = 8
    seeds: tuple[int, ...] = ()  # searched after the matrix's own seeds (a rare feature)


@dataclass(frozen=True)
class Wanted:
    """A feature to see: `seen` tells its events; `plot` and `slot` (regular expressions, ""
    for none) the offered plots and allocation slots that use it."""

    key: str
    seen: Callable[[Mapping[str, Any]], bool]
    plot: str = ""
    slot: str = ""


@dataclass
class Played:
    """One match: its shape, recipe and seed, and how many events of each wanted feature it
    showed before it stopped (at `steps` decisions)."""

    shape: str
    recipe: str
    seed: int
    counts: dict[str, int]
    steps: int = 0


def recipe_options(shape: str, recipe: Recipe, seed: int) -> dict[str, Any]:
    """The match options of a recipe in a shape (the ruleset normalises them)."""
    n = GLADIATORS[shape]
    styles = [recipe.style or "standard"] * n
    if n == 2:
        styles = list(paired(shape, styles, random.Random(derive_seed(seed, "pair"))))
    options: dict[str, Any] = {"advanced": True, "max_turns": recipe.max_turns, **recipe.options}
    beasts = BEASTS.get(shape, ())
    if recipe.talents:
        options["talents"] = [recipe.talents] * n + [""] * len(beasts)
    if recipe.weapons:
        options["weapons"] = [recipe.weapons] * n + [""] * len(beasts)
    options["styles"] = styles + ["random"] * len(beasts)
    if shape == "2v2":
        options["teams"] = _SIDES["2v2"]
    elif shape == "6v6":
        from gladiator.rules.colosseum.teams import ALL_SEATS

        options["teams"] = "+".join(ALL_SEATS[0::2]) + ":" + "+".join(ALL_SEATS[1::2])
    elif beasts:
        seats = _BEAST_SEATS[: len(beasts)]
        options["beasts"] = ",".join(f"{s}:{k}" for s, k in zip(seats, beasts, strict=True))
    if options.get("solitaire") == "second side":  # §29: the centurions are blue's side
        side = str(options.get("teams") or "red:blue").split(":")[1]
        options["solitaire"] = side.split("+")
    return options


def play_recipe(
    shape: str, recipe: Recipe, seed: int, wanted: Sequence[Wanted], *, max_steps: int = 400
) -> Played:
    """One biased match of `shape` set up by `recipe` from `seed`, stopped when every wanted
    feature has been seen or after `max_steps` decisions."""
    m = Match(get("colosseum"), recipe_options(shape, recipe, seed), seed=seed, nonce=_NONCE)
    rng = random.Random(derive_seed(seed, "shape-matrix", shape, recipe.name))
    counts = {w.key: 0 for w in wanted}
    read = 0
    while True:
        read = _count(m.events, read, wanted, counts)
        if all(counts.values()) or m.finished or len(m.steps) >= max_steps:
            break
        pending = m.pending()
        if not pending:
            break
        missing = [w for w in wanted if not counts[w.key]]
        for seat, decision in pending.items():
            description = decision.to_dict()
            order = _order(m, seat, description, missing, recipe.move, rng)
            try:
                m.check(seat, order)
            except IllegalOrder:
                order = sample_order(description, rng)
            m.submit(seat, order)
    return Played(shape, recipe.name, seed, counts, len(m.steps))


def _count(
    events: Sequence[Mapping[str, Any]], read: int, wanted: Sequence[Wanted], counts: dict[str, int]
) -> int:
    for e in events[read:]:
        for w in wanted:
            if w.seen(e):
                counts[w.key] += 1
    return len(events)


def _order(
    m: Match,
    seat: str,
    description: Mapping[str, Any],
    missing: Sequence[Wanted],
    move: Move,
    rng: random.Random,
) -> str:
    kind = description.get("kind")
    if kind == "choose" and description.get("options"):
        return _plot(m, seat, description, missing, move, rng)
    if kind == "distribute":
        return _allocation(description, missing, rng)
    return sample_order(description, rng)


def _plot(
    m: Match,
    seat: str,
    description: Mapping[str, Any],
    missing: Sequence[Wanted],
    move: Move,
    rng: random.Random,
) -> str:
    options = list(description["options"])
    patterns = [re.compile(w.plot) for w in missing if w.plot]
    if patterns and rng.random() < PLOT_BIAS:
        pattern = rng.choice(patterns)  # one feature at a time, so a rare one gets its turn
        hits = [o for o in options if pattern.search(str(o["text"]))]
        if hits:
            return str(rng.choice(hits)["text"])
    plain = [
        o
        for o in options
        if _PLAIN_PLOT.match(str(o["text"])) and not _PICK_UP.search(str(o["text"]))
    ]
    me = m.state.gladiators.get(seat)
    foes = [g.hex for g in m.state.opponents(seat)] if me is not None else []
    if move == "items" and m.state.items:  # onto an item on the ground, to pick it up or kick it
        foes, move = [i.hex for i in m.state.items], "approach"
    if move == "random" or not plain or not foes or any("facing" not in o for o in plain):
        return str(rng.choice(plain or options)["text"])
    sign = 1 if move != "flee" else -1

    def score(o: Mapping[str, Any]) -> tuple[int, int, float]:
        end = Hex(*o["hex"])
        near = min(foes, key=lambda h: distance(end, h))
        return (sign * distance(end, near), _turn_off(end, int(o["facing"]), near), rng.random())

    return str(min(plain, key=score)["text"])


def _turn_off(here: Hex, facing: int, there: Hex) -> int:
    """How many hex-sides `facing` is from the direction toward `there` (0: straight at it)."""
    if here == there:
        return 0
    gap = abs(facing_toward(here, there) - facing) % 6
    return min(gap, 6 - gap)


def _allocation(
    description: Mapping[str, Any], missing: Sequence[Wanted], rng: random.Random
) -> str:
    """CF into one offered attack slot and one defence slot of the wanted features, if any;
    the rest drawn within the stated limits."""
    slots = list(description.get("slots") or [])
    budget = int(description.get("budget", 0))
    patterns = [re.compile(w.slot) for w in missing if w.slot]
    if not patterns or budget < 1 or rng.random() >= SLOT_BIAS:
        return sample_order(description, rng)
    forced: dict[str, int] = {}
    for box in ("D-", "A-"):  # a defence box half the budget at most, an attack all it can
        pattern = rng.choice(patterns)
        hits = [
            s
            for s in slots
            if str(s["name"]).startswith(box) and pattern.search(str(s["name"])) and s["max"] > 0
        ]
        if hits:
            s = rng.choice(hits)
            step = int(s.get("step", 1))
            left = budget - sum(forced.values())
            share = left if box == "A-" else budget // 2
            forced[str(s["name"])] = max(step, min(int(s["max"]), share))
    if not forced:
        return sample_order(description, rng)
    steered = dict(description)
    steered["slots"] = [
        {**s, "min": forced[str(s["name"])]} if str(s["name"]) in forced else s for s in slots
    ]
    try:
        return sample_order(steered, rng)
    except Unsampleable:
        return sample_order(description, rng)
