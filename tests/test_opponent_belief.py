"""The search bot's belief over opponent models, from revealed allocations (ruling MC12)."""

from __future__ import annotations

import random

import pytest

from gladiator.bots import make_bot
from gladiator.bots.colosseum_plan import ColosseumPlan
from gladiator.bots.opponent_belief import ModelBelief, allocation_distance
from gladiator.core.decisions import Distribute
from gladiator.core.dice import Dice
from gladiator.registry import get
from gladiator.rules.colosseum.state import ColosseumState


def _state(turn: int, phase: int, last: str = "") -> ColosseumState:
    rs = get("colosseum")
    state, _ = rs.initial_state(rs.normalise_options({}), Dice(1, recording=False))
    assert isinstance(state, ColosseumState)
    state.turn, state.phase = turn, phase
    state.gladiators["blue"].last_allocation = last
    return state


def test_allocation_distance_counts_differing_points() -> None:
    assert allocation_distance("A-HEAD:3 D-ARMS:2", "D-ARMS:2 A-HEAD:3") == 0.0
    assert allocation_distance("A-HEAD:3", "A-CHEST:3") == 6.0
    assert allocation_distance("A-HEAD:3 D-ARMS:2", "A-HEAD:1 D-ARMS:2 D-LEGS:1") == 3.0
    assert allocation_distance("A-HEAD:3", "nonsense") is None


def test_a_model_that_missed_leaves_the_game_and_a_hit_brings_it_back() -> None:
    b = ModelBelief(("tactician", "centurion"))
    draws = {"tactician": ["A-GROIN:8"] * 4, "centurion": ["A-HEAD:2 D-CHEST:2 D-LEGS:4"] * 4}
    b.expect(_state(1, 3), "blue", draws)
    assert b.plausible() == ("tactician", "centurion")  # nothing revealed yet
    b.seen(_state(1, 4, last="A-GROIN:8"), "blue")  # §9.4.1: revealed, the tactician's
    assert b.observed == 1
    assert b.weights()["tactician"] > 0.9
    assert b.plausible() == ("tactician",)
    b.expect(_state(1, 4, last="A-GROIN:8"), "blue", draws)
    b.seen(_state(1, 5, last="A-HEAD:2 D-CHEST:2 D-LEGS:4"), "blue")
    assert b.plausible() == ("tactician", "centurion")


def test_a_player_like_neither_keeps_both_models() -> None:
    b = ModelBelief(("tactician", "centurion"))
    draws = {"tactician": ["A-GROIN:8"], "centurion": ["A-HEAD:8"]}
    for phase in range(1, 6):
        b.expect(_state(1, phase, last="D-ARMS:4 D-LEGS:4"), "blue", draws)
    b.seen(_state(1, 7, last="D-ARMS:4 D-LEGS:4"), "blue")
    assert b.plausible() == ("tactician", "centurion")
    assert b.weights()["tactician"] == pytest.approx(0.5)


def test_an_earlier_state_is_another_match() -> None:
    b = ModelBelief(("tactician", "centurion"))
    draws = {"tactician": ["A-GROIN:8"], "centurion": ["A-HEAD:8"]}
    b.expect(_state(2, 3), "blue", draws)
    b.seen(_state(2, 4, last="A-GROIN:8"), "blue")
    assert b.plausible() == ("tactician",)
    b.seen(_state(1, 1), "blue")
    assert b.plausible() == ("tactician", "centurion") and b.observed == 0


def test_the_plan_learns_the_tactician_in_a_match() -> None:
    rs = get("colosseum")
    dice = Dice(5, recording=False)
    state, _ = rs.initial_state(rs.normalise_options({}), dice)
    belief = ModelBelief(("tactician", "centurion"))
    plan = ColosseumPlan(make_bot, belief=belief)
    opponent = make_bot("tactician")
    rng = random.Random(2)
    allocations = 0
    while rs.outcome(state) is None and allocations < 3:
        pending = rs.pending(state)
        orders = {}
        for s, d in pending.items():
            if s == "red":  # deadline 0: one round of plot samples, enough here
                orders[s] = plan.choose(rs, state, s, d, rng, deadline=0.0)
                allocations += isinstance(d, Distribute)
            else:
                orders[s] = opponent.choose(rs, state, s, d, rng)
        rs.apply(state, orders, dice, quiet=True)
    belief.seen(state, "blue")
    assert belief.observed >= 1
    assert belief.weights()["tactician"] > 0.8
    assert belief.plausible() == ("tactician",)
