"""The feature by shape matrix of the Colosseum Advanced Game (issue 27's Must-show item).

Each Advanced Game feature (`FEATURES`: its section, how its events are told in a match's event
log, and which offered orders use it) is played in each shape (a duel, 2 v 2, 6 v 6, a one-beast
hunt and a pack) by the biased random-legal player of shape_matrix_play.py from a fixed list of
seeds, or is ruled out of that shape by a ruling of docs/rulings.md, named with its reason. A
cell neither seen nor ruled is a gap: `matrix` reports it ("missing") and the test
(tests/test_colosseum_shape_matrix.py) fails on it. `markdown` writes the page
docs/colosseum-shape-matrix.md (`gladiator rules matrix colosseum --markdown ...`).

The §19 styles are one row: every style the options accept in the shape is seated (a set-up
per group of styles); a style the options refuse there is named with the ruling.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any, Literal

from gladiator.core.match import Match
from gladiator.registry import get
from gladiator.sim.random_legal_shapes import STYLES, ineligible_styles, paired
from gladiator.sim.shape_matrix_play import (
    BEASTS,
    GLADIATORS,
    MATRIX_SHAPES,
    Recipe,
    Wanted,
    play_recipe,
    recipe_options,
)

__all__ = [
    "FEATURES",
    "KNOWN_GAPS",
    "RECIPES",
    "SEEDS",
    "STYLE_RULINGS",
    "Cell",
    "Feature",
    "markdown",
    "matrix",
]

SEEDS: tuple[int, ...] = tuple(range(1, 13))
_AREAS = "HEAD|CHEST|ARMS|GROIN|LEGS"
_PICK_UP = r"(^|\s)R(\(|\s|$)"

RECIPES: dict[str, Recipe] = {
    r.name: r
    for r in (
        # §27.4 in a pack needs the two beasts biting him from either side, so that no facing
        # puts both in his front (B15): the first is seed 30 of a search over 1-60.
        Recipe("plain", seeds=(30,)),
        # §26 needs a T7 Kill (19+) on a man: in a 2 v 2 the first is seed 40 of a search over
        # 1-80 (seed 5 since issue 37); a beast's on the man in a hunt seed 108, in a pack 158
        # (209 since issue 37's special defences against beasts; a beast is never cleaved, B19).
        Recipe("cleave", weapons="axe", max_turns=12, seeds=(40, 108, 209)),
        Recipe("net", style="retiarius"),
        Recipe("optional", style="hoplomachus"),
        Recipe("specials", style="secutor", talents="FW"),
        Recipe("unarmed"),
        Recipe("pair", style="dimachaeri"),
        Recipe("walls", options={"arena_size": 5}, move="flee"),
        Recipe("items", move="items"),
        Recipe("solitaire", options={"solitaire": "second side"}),
    )
}

Ruled = Mapping[str, tuple[str, str]]  # shape: (ruling id, why)


def _events(
    kinds: Sequence[str] = (), rules: Sequence[str] = (), text: str = ""
) -> Callable[[Mapping[str, Any]], bool]:
    """An event predicate: its type one of `kinds`, its rule (one section or several joined)
    or its text citing one of `rules` (a section or one of its subsections: "§20.9" is cited by
    "§20.9.2"), its text matching `text` (each left empty: any)."""
    pattern = re.compile(text) if text else None
    cited = re.compile("|".join(re.escape(r) + r"(?!\d)" for r in rules)) if rules else None

    def seen(e: Mapping[str, Any]) -> bool:
        if kinds and e.get("type") not in kinds:
            return False
        said = str(e.get("text") or "")
        rule = str(e.get("rule") or "")
        if cited is not None and not cited.search(rule) and not cited.search(said):
            return False
        return pattern is None or bool(pattern.search(said))

    return seen


@dataclass(frozen=True)
class Feature:
    """One row: `key`, the `section` it checks, a `title`, the `recipe` that sets it up, its
    events (`seen`), the offered orders that use it (`plot`, `slot`, regular expressions), and
    the shapes the rules leave it out of (`ruled`)."""

    key: str
    section: str
    title: str
    recipe: str
    seen: Callable[[Mapping[str, Any]], bool]
    plot: str = ""
    slot: str = ""
    ruled: Ruled = field(default_factory=dict)

    @property
    def wanted(self) -> Wanted:
        return Wanted(self.key, self.seen, self.plot, self.slot)


_NO_NET = {s: ("B17", "no net attack against a beast") for s in ("hunt", "pack")}
_NO_SPECIAL = {s: ("B10", "no §22 special attack against a beast") for s in ("hunt", "pack")}
_NO_FW = {s: ("TL6", "a beast has no defence to weaken (B10)") for s in ("hunt", "pack")}
_ONE_FOE = {
    "duel": ("G5", "a man one opponent attacks is a duel's defender"),
    "hunt": ("G5", "one beast: a duel's defender (B6)"),
}
_NO_APPEAL = {
    "hunt": ("B9", "a beast knows no appeal"),
    "pack": ("B14", "no appeal against beasts (B9)"),
}


def _special(key: str, name: str, slot: str, kind: str, section: str) -> Feature:
    what = "special attack" if kind == "special_attack" else "special defence"
    return Feature(
        key,
        section,
        f"{name} ({what})",
        "specials",
        _events((kind,), text=rf"\b{name}\b"),
        slot=rf"-{slot}$",
        ruled=_NO_SPECIAL if kind == "special_attack" else {},  # B10: his guard meets a beast
    )


FEATURES: tuple[Feature, ...] = (
    Feature("styles", "§19", "the fighting styles seated", "styles", _events(("gladiator",))),
    Feature(
        "net_toss",
        "§20.5",
        "net toss (TN)",
        "net",
        _events(("net_attack",), ("§20.5",)),
        plot=r"\+TN",
        ruled=_NO_NET,
    ),
    Feature(
        "net_swing",
        "§20.6",
        "net swing (SN)",
        "net",
        _events(("net_attack",), ("§20.6",)),
        plot=r"\+SN",
        ruled=_NO_NET,
    ),
    Feature(
        "net_lay",
        "§20.7",
        "net lay (LN)",
        "net",
        _events(("net_attack",), ("§20.7",)),
        plot=r"\+LN",
        ruled=_NO_NET,
    ),
    Feature(
        "net_drop",
        "§20.8.2",
        "net dropped (DN)",
        "net",
        _events(("net_dropped",)),
        plot=r"\+DN-",
    ),
    Feature("trident", "§20.9", "the trident", "net", _events(rules=("§20.9",))),
    Feature(
        "optional_weapons",
        "§21",
        "optional weapons (Hoplomachus's spear)",
        "optional",
        _events(rules=("§21",)),
    ),
    _special("feint", "Feint", "FEINT", "special_attack", "§22.2"),
    _special("disarm", "Disarm", "DISARM", "special_attack", "§22.2"),
    _special("sweep", "Sweep", "SWEEP", "special_attack", "§22.2"),
    _special("shield_bash", "Shield Bash", "SHIELDBASH", "special_attack", "§22.2"),
    _special("sand", "Sand", "SAND", "special_attack", "§22.2"),
    _special("duck", "Duck", "DUCK", "special_defence", "§22.3"),
    _special("block", "Block", "BLOCK", "special_defence", "§22.3"),
    _special("back_step", "Back Step", "BACKSTEP", "special_defence", "§22.3"),
    _special("parry", "Parry", "PARRY", "special_defence", "§22.3"),
    _special("leap", "Leap", "LEAP", "special_defence", "§22.3"),
    Feature(
        "find_weakness",
        "§36.3",
        "Find Weakness (FW slot, TL6)",
        "specials",
        _events(("find_weakness",)),
        slot=r"-FW$",
        ruled=_NO_FW,
    ),
    Feature(
        "unarmed",
        "§23",
        "unarmed combat (weapon thrown away)",
        "unarmed",
        _events(rules=("§23",)),
        plot=r"\+TW",
    ),
    Feature("two_weapons", "§24", "two weapons (Dimachaeri)", "pair", _events(text=r"§24")),
    Feature("walls", "§25.4", "running into an arena wall", "walls", _events(("wall_collision",))),
    Feature(
        "cleaving",
        "§26",
        "cleaving: Blood counters (an axe)",
        "cleave",
        _events(rules=("§26",)),
        slot=r"^A-",
    ),
    Feature(
        "forced_turns",
        "§27.2",
        "a single gladiator's forced turn",
        "plain",
        _events(("forced_rotation",), ("§27.2",)),
        ruled={
            "duel": ("G3", "one opponent: a duel's turn (§9.1.2)"),
            "hunt": ("B6", "one beast: a duel's turn (§9.1.2)"),
        },
    ),
    Feature(
        "yielding",
        "§27.3",
        "a single gladiator yields to an opponent he does not attack",
        "plain",
        _events(("yield",), ("§27.3",)),
        ruled={
            "duel": ("G4", "one opponent: nobody is a single gladiator (§27.1)"),
            "hunt": ("G4", "one beast: nobody is a single gladiator (B6)"),
        },
    ),
    Feature(
        "named_attacks",
        "§27.3.1",
        "attack boxes naming their target (G9)",
        "plain",
        _events(("allocation",), text=rf"\bA-[A-Z]+-({_AREAS})\b"),
        ruled={
            "duel": ("G18", "a duel's attacks name no target"),
            "hunt": ("B1", "one beast is a duel's one opponent"),
        },
    ),
    Feature(
        "rear_attacks",
        "§27.4",
        "attacks from the rear hexes",
        "plain",
        _events(("rear_attack",)),
        ruled=_ONE_FOE,
    ),
    Feature(
        "beasts",
        "§28",
        "beasts",
        "plain",
        _events(rules=("§28",)),
        ruled={
            "duel": ("B1", "a duel with a beast is the hunt column"),
            "2v2": ("B11", "beasts are not played with teams"),
            "6v6": ("B11", "beasts are not played with teams"),
        },
    ),
    Feature(
        "centurions",
        "§29",
        "solitaire centurions (option solitaire)",
        "solitaire",
        _events(("plot_first",)),
        ruled={
            "hunt": ("B1", "beasts are not played with solitaire"),
            "pack": ("B11", "beasts are not played with solitaire"),
        },
    ),
    Feature(
        "item_dropped",
        "§13.2",
        "an item dropped",
        "items",
        _events(("item_dropped", "item_lost", "net_dropped")),
        slot=r"^A-",
    ),
    Feature(
        "item_thrown", "§13.3", "an item thrown", "items", _events(("throw",)), plot=r"\+T[WS]"
    ),
    Feature(
        "item_recovered",
        "§13.4",
        "an item picked up (or fumbled)",
        "items",
        _events(("recovery",)),
        plot=_PICK_UP,
    ),
    Feature(
        "item_kicked",
        "§13.5",
        "an item kicked",
        "items",
        _events(("kick",), ("§13.5.1",)),
        plot=r"\+K[WS]",
    ),
    Feature(
        "criticals",
        "§10.4",
        "critical hits",
        "plain",
        _events(("critical_roll", "beast_critical")),
        slot=r"^A-",
    ),
    Feature(
        "moment_of_truth",
        "§18",
        "the Moment of Truth (appeal)",
        "plain",
        _events(("appeal",)),
        slot=r"^A-",
        ruled=_NO_APPEAL,
    ),
)

# §19 styles the options refuse in a shape: the ruling that says why.
STYLE_RULINGS: dict[str, tuple[str, str]] = {
    "bestiarius": ("A20", "a beast fighter fights beasts (§28.2)"),
    "venator": ("A20", "a beast fighter fights beasts (§28.2)"),
    "contra_retiarius": ("F1", "fights only a Retiarius (§19.2.3)"),
}

# Cells neither seen nor ruled, reported for a ruling or a fix (issue 27), with the evidence;
# the test expects them to fail (strict), so a fixed one shows up.
KNOWN_GAPS: dict[tuple[str, str], str] = {}

Status = Literal["seen", "ruled", "missing"]


@dataclass(frozen=True)
class Cell:
    """One (feature, shape): `seen` in the match of `seed` (`events` of its events), `ruled`
    out by `ruling` for `why`, or `missing` (a gap). `note`: what else the cell says."""

    feature: str
    shape: str
    status: Status
    seed: int | None = None
    events: int = 0
    ruling: str = ""
    why: str = ""
    note: str = ""

    def text(self) -> str:
        if self.status == "seen":
            head = f"✓ (seed {self.seed}, {self.events} events)"
            return f"{head}; {self.note}" if self.note else head
        if self.status == "ruled":
            return f"— {self.ruling}: {self.why}"
        return f"✗ gap: {self.note or 'not seen'}"


def matrix(seeds: Sequence[int] = SEEDS, shapes: Sequence[str] = MATRIX_SHAPES) -> list[Cell]:
    """Every (feature, shape) cell, features in `FEATURES` order, shapes in `shapes` order."""
    cells: dict[tuple[str, str], Cell] = {}
    for shape in shapes:
        cells[("styles", shape)] = _styles_cell(shape, seeds[0])
        for f in FEATURES:
            if shape in f.ruled:
                ruling, why = f.ruled[shape]
                cells[(f.key, shape)] = Cell(f.key, shape, "ruled", ruling=ruling, why=why)
        for name, recipe in RECIPES.items():
            todo = [f for f in FEATURES if f.recipe == name and (f.key, shape) not in cells]
            for seed in (*seeds, *recipe.seeds):
                if not todo:
                    break
                played = play_recipe(shape, recipe, seed, [f.wanted for f in todo])
                for f in todo:
                    if played.counts[f.key]:
                        cells[(f.key, shape)] = Cell(
                            f.key, shape, "seen", seed, played.counts[f.key]
                        )
                todo = [f for f in todo if (f.key, shape) not in cells]
            for f in todo:
                gap = KNOWN_GAPS.get((f.key, shape), "")
                tried = f"not seen (seeds {seeds[0]}-{seeds[-1]})"
                cells[(f.key, shape)] = Cell(f.key, shape, "missing", note=gap or tried)
    return [cells[(f.key, s)] for f in FEATURES for s in shapes]


def _styles_cell(shape: str, seed: int) -> Cell:
    """§19: every style the options accept seated in set-ups of this shape, the others ruled."""
    refused = ineligible_styles(shape)
    wanted = [s for s in STYLES if s not in refused]
    n = GLADIATORS[shape]
    seated: set[str] = set()
    events = 0
    ruleset = get("colosseum")
    named = [s for s in wanted if s != "standard"]
    unseated = list(named)
    while unseated:  # a group of styles a set-up, each paired with its opponent (§19.2.3)
        chunk = (unseated[:n] + ["standard"] * n)[:n]
        options = recipe_options(shape, Recipe("styles"), seed)
        options["styles"] = [*paired(shape, chunk, Random(seed)), *options["styles"][n:]]
        m = Match(ruleset, options, seed=seed, nonce="shape-matrix")
        for e in m.events:
            if e.get("type") == "gladiator":
                events += 1
                seated.add(str(e.get("style")))
        left = [s for s in unseated if s not in seated]
        if len(left) == len(unseated):
            break
        unseated = left
    notes = [f"{len(named) - len(unseated)} of {len(STYLES) - 1} styles"]
    unexplained = [s for s in refused if s not in STYLE_RULINGS]
    for s in refused:
        if s in STYLE_RULINGS:
            ruling, why = STYLE_RULINGS[s]
            notes.append(f"{s}: {ruling}, {why}")
    if unseated or unexplained:
        gaps = [f"{s} not seated" for s in unseated] + [f"{s}: {refused[s]}" for s in unexplained]
        return Cell("styles", shape, "missing", note="; ".join(gaps))
    return Cell("styles", shape, "seen", seed, events, note="; ".join(notes))


_SHAPE_TITLES = {
    "duel": "duel",
    "2v2": "2 v 2",
    "6v6": "6 v 6",
    "hunt": "hunt (1 beast)",
    "pack": "pack (2 beasts)",
}


def markdown(cells: Sequence[Cell], command: str, shapes: Sequence[str] = MATRIX_SHAPES) -> str:
    """The page: how it was made, then one row per feature and one column per shape."""
    by = {(c.feature, c.shape): c for c in cells}
    lines = [
        "# Colosseum Advanced Game: feature by shape matrix",
        "",
        "Generated by `" + command + "` from the same data as",
        "`tests/test_colosseum_shape_matrix.py` (`src/gladiator/sim/shape_matrix.py`); do not",
        "edit by hand. Each cell is a biased random-legal match of that shape (seeds "
        f"{SEEDS[0]}-{SEEDS[-1]}, then",
        "the recipe's own seeds for a rare feature; the first that shows the feature) and how",
        "many of the feature's events it logged before it stopped, or the ruling of",
        "`docs/rulings.md` that leaves the feature out of that shape.",
        f"Hunt: one {BEASTS['hunt'][0]}; pack: {' and '.join(BEASTS['pack'])}.",
        "",
        "| feature | " + " | ".join(_SHAPE_TITLES[s] for s in shapes) + " |",
        "|---|" + "---|" * len(shapes),
    ]
    for f in FEATURES:
        row = [f"{f.section} {f.title}"] + [by[(f.key, s)].text() for s in shapes]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"
