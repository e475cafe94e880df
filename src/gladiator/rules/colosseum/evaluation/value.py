"""A fitted value function for the Colosseum: how likely a seat is to win from here.

`win_probability(state, seat)` is a logistic model on the difference features of
value_features.py, with no bias: P = σ(w · f(state, seat)). Since f changes sign when the seats
swap, P(red) + P(blue) = 1 exactly in a duel (V1, V2). `value(state, seat)` is 2P − 1 in
[-1, 1]; both are exact once the match is over (a win 1, a loss −1, a draw 0).

The weights are data: data/value_weights.toml, written by `gladiator fit-value` (sim/fit_value.py)
with the fit's provenance (seeds, matches, bots, held-out log-loss). `load_weights` checks a
weights file and names what is wrong with it (`ValueWeightsError`).

Search calls these in its inner loop, so both stay cheap: the features cache what a log sheet
alone decides (sheets are immutable and shared by clones) and the dot product is plain Python.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from operator import mul
from pathlib import Path
from typing import Any

from gladiator.rules.colosseum.evaluation.material_heuristic import material_heuristic
from gladiator.rules.colosseum.evaluation.value_features import FEATURE_NAMES, features
from gladiator.rules.colosseum.state import ColosseumState

__all__ = [
    "SCHEMA",
    "SCHEMA_VERSION",
    "ValueWeights",
    "ValueWeightsError",
    "default_weights",
    "load_weights",
    "parse_weights",
    "value",
    "weights_toml",
    "win_probability",
]

SCHEMA = "gladiator.colosseum.value-weights"
SCHEMA_VERSION = 1
WEIGHTS_FILE = "value_weights.toml"
_LOGIT_CAP = 30.0  # σ(±30) is 1 − 1e-13 from the end: no overflow, and never exactly 0 or 1


class ValueWeightsError(ValueError):
    """A value weights file that cannot be used, and why."""


@dataclass(frozen=True, slots=True)
class ValueWeights:
    """The model's weights, in `FEATURE_NAMES` order, and where they came from."""

    weights: tuple[float, ...]
    provenance: Mapping[str, Any] = field(default_factory=dict)

    def by_name(self) -> dict[str, float]:
        return dict(zip(FEATURE_NAMES, self.weights, strict=True))


def parse_weights(data: Mapping[str, Any], source: str = "value weights") -> ValueWeights:
    """Check a parsed weights file; ValueWeightsError naming the first fault."""
    if data.get("schema") != SCHEMA:
        raise ValueWeightsError(f"{source}: schema is {data.get('schema')!r}, not {SCHEMA!r}")
    if data.get("schema_version") != SCHEMA_VERSION:
        raise ValueWeightsError(
            f"{source}: schema_version {data.get('schema_version')!r} is not {SCHEMA_VERSION}"
        )
    raw = data.get("weights")
    if not isinstance(raw, Mapping):
        raise ValueWeightsError(f"{source}: no [weights] table")
    missing = [n for n in FEATURE_NAMES if n not in raw]
    unknown = sorted(set(raw) - set(FEATURE_NAMES))
    if missing or unknown:
        parts = []
        if missing:
            parts.append(f"missing {', '.join(missing[:5])}{' ...' if len(missing) > 5 else ''}")
        if unknown:
            parts.append(f"unknown {', '.join(unknown[:5])}{' ...' if len(unknown) > 5 else ''}")
        raise ValueWeightsError(
            f"{source}: the weights do not match the features ({'; '.join(parts)})"
        )
    out: list[float] = []
    for name in FEATURE_NAMES:
        w = raw[name]
        if isinstance(w, bool) or not isinstance(w, int | float) or not math.isfinite(w):
            raise ValueWeightsError(f"{source}: weight {name} = {w!r} is not a finite number")
        out.append(float(w))
    provenance = data.get("provenance", {})
    if not isinstance(provenance, Mapping):
        raise ValueWeightsError(f"{source}: [provenance] must be a table")
    return ValueWeights(tuple(out), dict(provenance))


def load_weights(path: Path) -> ValueWeights:
    """A weights file from disk, checked; ValueWeightsError (one line) if it cannot be used."""
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        raise ValueWeightsError(f"no such file: {path}") from None
    except IsADirectoryError:
        raise ValueWeightsError(f"{path} is a folder, not a weights file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueWeightsError(f"cannot read {path}: {exc}") from None
    return _parse_text(text, str(path))


def _parse_text(text: str, source: str) -> ValueWeights:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueWeightsError(f"{source}: not TOML ({exc})") from None
    return parse_weights(data, source)


@cache
def default_weights() -> ValueWeights:
    """The packaged weights (data/value_weights.toml)."""
    data = resources.files("gladiator.rules.colosseum").joinpath("data", WEIGHTS_FILE)
    return _parse_text(data.read_text("utf-8"), WEIGHTS_FILE)


def _terminal(state: ColosseumState, seat: str) -> float | None:
    if state.step != "over":
        return None
    if not state.winners:
        return 0.5
    return 1.0 if seat in state.winners else 0.0


def logit(state: ColosseumState, seat: str, weights: ValueWeights | None = None) -> float:
    """w · f(state, seat): the model's log-odds that `seat` wins (not defined once over)."""
    w = (weights or default_weights()).weights
    total: float = sum(map(mul, w, features(state, seat)))
    return total


def win_probability(state: ColosseumState, seat: str, weights: ValueWeights | None = None) -> float:
    """The fitted chance that `seat` wins from here (a draw counts half); exact when over."""
    done = _terminal(state, seat)
    if done is not None:
        return done
    z = max(-_LOGIT_CAP, min(_LOGIT_CAP, logit(state, seat, weights)))
    return 1.0 / (1.0 + math.exp(-z))


def value(state: ColosseumState, seat: str, weights: ValueWeights | None = None) -> float:
    """2·P(win) − 1 in [-1, 1]: 1 a won match, −1 a lost one, 0 a draw or an even position."""
    return 2.0 * win_probability(state, seat, weights) - 1.0


def heuristic(state: ColosseumState, seat: str) -> float:
    """V4: the fitted value where it was fitted, two gladiators and no beast; the first material
    score on any other roster (a team match §27, a beast hunt §28). Only the greedy bot and the
    learners read this: the tactician and the centurion play by their own evaluations."""
    figures = [*state.gladiators.values(), *state.fallen.values()]
    if len(figures) == 2 and all(g.beast is None for g in figures):
        return value(state, seat)
    return material_heuristic(state, seat)


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, Sequence):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {v!r} as a TOML value")


def weights_toml(weights: Sequence[float], provenance: Mapping[str, Any]) -> str:
    """A weights file's text: flat provenance values (numbers, strings, lists of them)."""
    lines = [
        "# GLADIATOR Colosseum: the value function's weights (evaluation/value.py).",
        "# Written by `gladiator fit-value` (sim/fit_value.py); edit by refitting, not by hand.",
        f'schema = "{SCHEMA}"',
        f"schema_version = {SCHEMA_VERSION}",
        "",
        "[provenance]",
        *(f"{k} = {_toml_value(v)}" for k, v in provenance.items()),
        "",
        "[weights]",
        *(f"{n} = {w!r}" for n, w in zip(FEATURE_NAMES, weights, strict=True)),
    ]
    return "\n".join(lines) + "\n"
