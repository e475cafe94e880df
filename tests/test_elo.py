"""Elo ratings from a round robin (sim.elo): the fit on known cases and its bootstrap."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gladiator.sim.elo import bootstrap, expected_score, fit


def test_a_bot_scoring_076_is_about_200_elo_above() -> None:
    r = fit(["a", "b"], {("a", "b"): (760, 1000)}, anchor="b", prior=0)
    assert r["b"] == 0
    assert r["a"] == pytest.approx(400 * math.log10(0.76 / 0.24), abs=1e-6)
    assert 195 < r["a"] < 205
    assert expected_score(r["a"]) == pytest.approx(0.76)


def test_draws_count_half_and_an_even_score_is_no_difference() -> None:
    r = fit(["a", "b"], {("a", "b"): (50, 100)}, prior=0)
    assert r["a"] == pytest.approx(0) and r["b"] == pytest.approx(0)


def test_three_bots_recover_the_ratings_that_made_the_scores() -> None:
    truth = {"x": 0.0, "y": 150.0, "z": -100.0}
    n = 10_000
    points = {
        (a, b): (n * expected_score(truth[a] - truth[b]), n)
        for a, b in (("x", "y"), ("x", "z"), ("y", "z"))
    }
    r = fit(list(truth), points, anchor="x", prior=0)
    for bot, elo in truth.items():
        assert r[bot] == pytest.approx(elo, abs=1e-6)


def test_without_an_anchor_the_mean_is_zero() -> None:
    r = fit(["a", "b", "c"], {("a", "b"): (70, 100), ("b", "c"): (60, 100)})
    assert sum(r.values()) == pytest.approx(0, abs=1e-9)
    assert r["a"] > r["b"] > r["c"]


def test_a_perfect_record_stays_finite_with_the_prior() -> None:
    r = fit(["a", "b"], {("a", "b"): (100, 100)}, anchor="b")
    # one virtual draw: a scores 100.5 of 101
    assert r["a"] == pytest.approx(400 * math.log10(100.5 / 0.5), abs=1e-6)


def test_bootstrap_contains_the_estimate_and_repeats_for_a_seed() -> None:
    pairs = {("a", "b"): [(1.0, 1.0)] * 40 + [(1.0, 0.0)] * 30 + [(0.0, 0.5)] * 30}
    points = {("a", "b"): (sum(x + y for x, y in pairs[("a", "b")]), 200)}
    est = fit(["a", "b"], points, anchor="b")
    one = bootstrap(["a", "b"], pairs, anchor="b", samples=300, seed=5)
    two = bootstrap(["a", "b"], pairs, anchor="b", samples=300, seed=5)
    other = bootstrap(["a", "b"], pairs, anchor="b", samples=300, seed=6)
    assert one == two
    assert one != other
    lo, hi = one["a"]
    assert lo < est["a"] < hi
    assert one["b"] == (0.0, 0.0)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 99), st.integers(1, 99))
def test_more_points_never_mean_a_lower_rating(k: int, extra: int) -> None:
    low = fit(["a", "b"], {("a", "b"): (k, 100)}, anchor="b", prior=0)["a"]
    high = fit(["a", "b"], {("a", "b"): (min(99, k + extra), 100)}, anchor="b", prior=0)["a"]
    assert high >= low - 1e-9
