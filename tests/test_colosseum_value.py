"""The Colosseum value function (evaluation/value.py): exact at the end, antisymmetric
(V1, V2), in range, its weights file checked, and the heuristic it became (V4) read by the greedy
bot only: the tactician and the centurion never call it."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gladiator.core.dice import Dice
from gladiator.rules.colosseum.engine import ColosseumRules
from gladiator.rules.colosseum.evaluation.material_heuristic import material_heuristic
from gladiator.rules.colosseum.evaluation.value import (
    SCHEMA,
    ValueWeights,
    ValueWeightsError,
    default_weights,
    load_weights,
    parse_weights,
    value,
    weights_toml,
    win_probability,
)
from gladiator.rules.colosseum.evaluation.value_features import FEATURE_NAMES
from gladiator.rules.colosseum.state import ColosseumState
from gladiator.sim.runner import play_match

RULES = ColosseumRules()


def fresh(seed: int = 1, **options: object) -> ColosseumState:
    state, _ = RULES.initial_state(RULES.normalise_options(options), Dice(seed))
    return state


def played(seed: int, steps: int, advanced: bool) -> ColosseumState:
    state = fresh(seed, advanced=advanced)
    rng = random.Random(seed)
    dice = Dice(seed + 1)
    for _ in range(steps):
        if RULES.outcome(state) is not None:
            break
        pending = RULES.pending(state)
        RULES.apply(state, {s: d.sample(rng) for s, d in pending.items()}, dice, quiet=True)
    return state


def test_value_is_exact_once_the_match_is_over() -> None:
    state = fresh()
    state.step, state.winners = "over", ("red",)
    assert (value(state, "red"), value(state, "blue")) == (1.0, -1.0)
    assert (win_probability(state, "red"), win_probability(state, "blue")) == (1.0, 0.0)
    state.winners = ()  # a draw (§5.4.1 stans missus with nobody ahead)
    assert value(state, "red") == value(state, "blue") == 0.0


def test_value_of_a_played_out_match_matches_its_result() -> None:
    state = played(7, 10_000, False)
    assert state.step == "over"
    for seat in ("red", "blue"):
        want = 0.0 if not state.winners else (1.0 if seat in state.winners else -1.0)
        assert value(state, seat) == want


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 40), advanced=st.booleans())
def test_v2_value_is_antisymmetric_and_in_range(seed: int, steps: int, advanced: bool) -> None:
    state = played(seed, steps, advanced)
    red, blue = value(state, "red"), value(state, "blue")
    assert abs(red + blue) < 1e-12
    assert -1.0 <= red <= 1.0
    assert math.isclose(win_probability(state, "red") + win_probability(state, "blue"), 1.0)


def test_wounds_near_death_lower_his_value() -> None:
    state = fresh(3, gladiators=["medium", "medium"])
    state.gladiators["blue"].sheet = state.gladiators["red"].sheet
    even = value(state, "red")
    red = state.gladiators["red"]
    red.sheet, _ = red.sheet.with_wounds("chest", red.sheet.w - 1)  # one box from death (§10.3.2)
    assert value(state, "red") < even - 0.2


def test_the_packaged_weights_load_with_their_provenance() -> None:
    w = default_weights()
    assert len(w.weights) == len(FEATURE_NAMES)
    for key in ("seed", "matches", "matchups", "test_log_loss", "l2"):
        assert key in w.provenance, key
    assert w.provenance["test_log_loss"] < math.log(2)  # better than a coin on held-out matches


def _good() -> dict[str, object]:
    return {
        "schema": SCHEMA,
        "schema_version": 1,
        "weights": dict.fromkeys(FEATURE_NAMES, 0.5),
        "provenance": {"seed": 1},
    }


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"schema": "other"}, "schema is 'other'"),
        ({"schema_version": 2}, "schema_version 2"),
        ({"weights": None}, "no \\[weights\\] table"),
        ({"weights": {"d_cf": 1.0}}, "missing d_cf_share"),
        ({"weights": {**dict.fromkeys(FEATURE_NAMES, 0.5), "d_luck": 1.0}}, "unknown d_luck"),
        ({"weights": {**dict.fromkeys(FEATURE_NAMES, 0.5), "d_cf": "x"}}, "d_cf = 'x' is not"),
        ({"weights": {**dict.fromkeys(FEATURE_NAMES, 0.5), "d_cf": math.nan}}, "not a finite"),
        ({"weights": {**dict.fromkeys(FEATURE_NAMES, 0.5), "d_cf": True}}, "not a finite"),
        ({"provenance": 3}, "provenance\\] must be a table"),
    ],
)
def test_a_bad_weights_file_is_refused_by_name(change: dict[str, object], message: str) -> None:
    with pytest.raises(ValueWeightsError, match=message):
        parse_weights({**_good(), **change}, "w.toml")


def test_weights_files_round_trip_and_bad_files_give_one_line(tmp_path: Path) -> None:
    path = tmp_path / "w.toml"
    weights = [float(i) / 7 for i in range(len(FEATURE_NAMES))]
    path.write_text(weights_toml(weights, {"seed": 4, "bots": ["tactician"], "note": 'a "q"'}))
    got = load_weights(path)
    assert got.weights == tuple(weights)
    assert got.provenance == {"seed": 4, "bots": ["tactician"], "note": 'a "q"'}
    with pytest.raises(ValueWeightsError, match="no such file"):
        load_weights(tmp_path / "none.toml")
    with pytest.raises(ValueWeightsError, match="is a folder"):
        load_weights(tmp_path)
    path.write_text("schema = [")
    with pytest.raises(ValueWeightsError, match="not TOML"):
        load_weights(path)


def test_weights_given_are_the_weights_used() -> None:
    state = played(11, 6, False)
    zero = ValueWeights((0.0,) * len(FEATURE_NAMES))
    assert value(state, "red", zero) == 0.0
    doubled = ValueWeights(tuple(2 * w for w in default_weights().weights))
    p, q = win_probability(state, "red"), win_probability(state, "red", doubled)
    logit = math.log(p / (1 - p))
    assert math.isclose(q, 1 / (1 + math.exp(-2 * logit)), rel_tol=1e-9)


def test_v4_the_duel_heuristic_is_the_value_elsewhere_the_material_score() -> None:
    state = played(5, 8, False)
    assert RULES.heuristic(state, "red") == value(state, "red")
    team = fresh(2, advanced=True, teams="red+green:blue")
    assert RULES.heuristic(team, "red") == material_heuristic(team, "red")
    hunt = fresh(2, advanced=True, beasts="blue:lion")
    assert RULES.heuristic(hunt, "red") == material_heuristic(hunt, "red")


def test_v4_the_tactician_and_the_centurion_never_call_the_heuristic(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(self: object, state: object, seat: str) -> float:
        raise AssertionError("heuristic called")

    monkeypatch.setattr(ColosseumRules, "heuristic", refuse)
    for options in ({}, {"advanced": True}):
        summary = play_match("colosseum", options, 4, ["tactician", "centurion"])
        assert summary.winners or summary.method
    with pytest.raises(AssertionError, match="heuristic called"):
        play_match("colosseum", {}, 4, ["greedy", "tactician"])
