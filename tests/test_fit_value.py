"""Fitting the Colosseum value function (sim/fit_value.py, `gladiator fit-value`): the logistic
fit and the metrics on known data, determinism for a seed whatever the workers, held-out matches
kept apart, and a small seeded fit that beats a coin on them."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from gladiator.cli.main import app
from gladiator.rules.colosseum.evaluation.value import load_weights
from gladiator.rules.colosseum.evaluation.value_features import FEATURE_NAMES
from gladiator.sim.fit_value import (
    FitConfig,
    _split,
    evaluate,
    fit_logistic,
    fit_value,
    play_positions,
)


def test_fit_logistic_recovers_known_weights() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(4000, 2))
    y = (rng.random(4000) < 1 / (1 + np.exp(-(x @ np.array([2.0, -1.0]))))).astype(float)
    w = fit_logistic(x, y, 0.0)
    assert np.allclose(w, [2.0, -1.0], atol=0.2)
    assert abs(fit_logistic(x, y, 10.0)).max() < abs(w).max()  # L2 shrinks


def test_evaluate_on_known_predictions() -> None:
    y = np.array([1.0, 0.0, 0.5, 1.0])
    coin = evaluate(np.full(4, 0.5), y)
    assert math.isclose(coin["log_loss"], math.log(2))
    assert math.isclose(coin["brier"], 0.1875)  # (.25 + .25 + 0 + .25) / 4
    assert coin["accuracy"] == 0.5
    sure = evaluate(np.array([0.9, 0.2, 0.5, 0.4]), y)
    assert sure["accuracy"] == 2 / 3  # the draw is left out of accuracy


def test_the_holdout_is_a_share_of_matches() -> None:
    held = _split(100, 3, 0.2)
    assert len(held) == 20 and held == _split(100, 3, 0.2) and held != _split(100, 4, 0.2)


def test_a_fit_is_the_same_for_its_seed_whatever_the_workers() -> None:
    config = FitConfig(seed=2, matches=9, per_match=2, folds=2)
    one = play_positions(config)
    assert one.x.shape[1] == len(FEATURE_NAMES)
    assert set(one.match.tolist()) <= set(range(9)) and len(one.y) <= 18
    two = play_positions(FitConfig(seed=2, matches=9, per_match=2, folds=2, workers=2))
    assert np.array_equal(one.x, two.x) and np.array_equal(one.y, two.y)
    w1, prov1, _ = fit_value(config)
    w2, prov2, _ = fit_value(config)
    assert w1 == w2 and prov1 == prov2
    other = play_positions(FitConfig(seed=3, matches=9, per_match=2))
    assert not np.array_equal(one.y, other.y) or not np.array_equal(one.x, other.x)


def test_a_small_seeded_fit_beats_a_coin_on_held_out_matches() -> None:
    _, provenance, report = fit_value(FitConfig(seed=5, matches=45, per_match=6, folds=3))
    test = report["test"]
    assert test["value"]["positions"] > 30
    assert test["value"]["log_loss"] < test["constant"]["log_loss"]
    assert test["value"]["brier"] < test["constant"]["brier"]
    assert provenance["holdout_matches"] == 9


def test_cli_fit_value_writes_weights_and_report(tmp_path: Path) -> None:
    weights, report = tmp_path / "w.toml", tmp_path / "fit.json"
    args = ["fit-value", "--matches", "6", "--per-match", "2", "--no-speed"]
    res = CliRunner().invoke(app, [*args, "--weights", str(weights), "--report", str(report)])
    assert res.exit_code == 0, res.output
    assert load_weights(weights).provenance["matches"] == 6
    data = json.loads(report.read_text())
    assert set(data["test"]) == {"value", "old_heuristic", "constant"}
    assert "machine" in data


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--matches", "2"], "--matches must be at least 5"),
        (["--holdout", "1.5"], "--holdout must lie between 0 and 1"),
        (["--weights", "no-such-folder/w.toml"], "no folder no-such-folder"),
    ],
)
def test_cli_fit_value_bad_input_gets_one_line(args: list[str], message: str) -> None:
    res = CliRunner().invoke(app, ["fit-value", *args])
    assert res.exit_code == 2
    assert message in res.output and "Traceback" not in res.output
