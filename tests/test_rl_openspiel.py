"""The OpenSpiel games (gladiator.rl.openspiel_game): OpenSpiel's random simulation checks for
every ruleset, and the tensors and legal actions from the shared encoders and action maps (RL9)."""

from __future__ import annotations

import json

import numpy as np
import pyspiel
import pytest

from gladiator.rl.episode import Episode
from gladiator.rl.openspiel_game import GAME_NAMES

SHORT = {"quick": {}, "skirmish": {"max_turns": 6}, "colosseum": {"max_turns": 1}}


@pytest.mark.parametrize("ruleset", ["quick", "skirmish", "colosseum"])
def test_random_sim(ruleset: str) -> None:
    game = pyspiel.load_game(GAME_NAMES[ruleset], {"options": json.dumps(SHORT[ruleset])})
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_tensors_and_legal_actions_are_the_episodes() -> None:
    game = pyspiel.load_game(GAME_NAMES["skirmish"], {"seed": 5})
    state = game.new_initial_state()
    twin = Episode("skirmish", {}, 5)
    for player, seat in enumerate(twin.seats):
        assert np.allclose(state.observation_tensor(player), twin.observe(seat))
        assert np.allclose(state.information_state_tensor(player), twin.observe(seat))
        assert state.legal_actions(player) == list(np.flatnonzero(twin.mask(seat)))


def test_a_seat_not_deciding_can_only_pass() -> None:
    game = pyspiel.load_game(GAME_NAMES["quick"], {"seed": 2})
    state = game.new_initial_state()
    passing = game.num_distinct_actions() - 1
    legal = [state.legal_actions(p) for p in range(game.num_players())]
    assert sorted(len(a) > 1 or a != [passing] for a in legal) == [False, True]
    assert [passing] in legal


def test_utilities_are_plus_minus_one_at_the_end() -> None:
    game = pyspiel.load_game(GAME_NAMES["quick"], {"seed": 3})
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        state.apply_actions(
            [int(rng.choice(state.legal_actions(p))) for p in range(game.num_players())]
        )
    returns = state.returns()
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])
