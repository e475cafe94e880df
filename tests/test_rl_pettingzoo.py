"""PettingZoo's own API and seed tests for every ruleset (gladiator.rl.pettingzoo_env), and the
AEC form's secrecy: an agent acting second in a step observes nothing of the first's order."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from gladiator.rl.pettingzoo_env import env, parallel_env

RULESETS = ["quick", "skirmish", "colosseum"]
SHORT: dict[str, dict[str, Any]] = {
    "quick": {"max_rounds": 30},
    "skirmish": {"max_turns": 6},
    "colosseum": {"max_turns": 1},
}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_parallel_api(ruleset: str) -> None:
    parallel_api_test(parallel_env(ruleset, **SHORT[ruleset]), num_cycles=400)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_aec_api(ruleset: str) -> None:
    api_test(env(ruleset, **SHORT[ruleset]), num_cycles=200)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_parallel_seed(ruleset: str) -> None:
    parallel_seed_test(lambda: parallel_env(ruleset, **SHORT[ruleset]))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_aec_seed(ruleset: str) -> None:
    seed_test(lambda: env(ruleset, **SHORT[ruleset]), num_cycles=100)


@pytest.mark.parametrize(("ruleset", "options"), [("skirmish", {}), ("colosseum", {})])
def test_aec_second_agent_never_sees_the_first_agents_secret_order(
    ruleset: str, options: dict[str, Any]
) -> None:
    """RL6: in a secret step (skirmish's written moves, the Colosseum's plots), whatever red
    orders, blue's observation before his own order is the same."""
    seen = []
    for pick in range(4):
        e = env(ruleset, **options)
        e.reset(seed=9)
        assert e.agent_selection == "red"
        obs, *_ = e.last()
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 1
        e.step(int(legal[pick % len(legal)]))
        assert e.agent_selection == "blue"
        blue_obs, *_ = e.last()
        seen.append(blue_obs["observation"])
    assert all(np.array_equal(seen[0], s) for s in seen[1:])


def test_parallel_not_pending_seats_actions_are_ignored() -> None:
    """RL8: in the quick rules one seat acts at a time; the other's action changes nothing."""
    runs = []
    for other in (0, 3, 16):
        p = parallel_env("quick")
        obs, _ = p.reset(seed=4)
        active = [a for a in p.agents if obs[a]["action_mask"].any()]
        assert len(active) == 1
        (me,) = active
        act = int(np.flatnonzero(obs[me]["action_mask"])[0])
        out, *_ = p.step({a: act if a == me else other for a in p.agents})
        runs.append(np.concatenate([out[a]["observation"] for a in p.possible_agents]))
    assert all(np.array_equal(runs[0], r) for r in runs[1:])
