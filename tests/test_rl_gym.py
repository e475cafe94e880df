"""The single-agent Gymnasium wrapper (gladiator.rl.gym_env): the API checker for every
ruleset, masks, determinism for a seed, and errors for masked-out actions (RL5)."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import gladiator.rl  # noqa: F401  (registers the ids)
from gladiator.rl.action_map import IllegalAction
from gladiator.rl.gym_env import GladiatorEnv

SHORT: dict[str, dict[str, Any]] = {
    "quick": {},
    "skirmish": {"max_turns": 8},
    "colosseum": {"max_turns": 2},
}


def _play(env: GladiatorEnv, seed: int) -> tuple[list[np.ndarray], list[float], dict[str, Any]]:
    obs, info = env.reset(seed=seed)
    seen, rewards = [obs], []
    rng = np.random.default_rng(seed)
    done = False
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, done, truncated, info = env.step(int(rng.choice(legal)))
        assert not truncated
        seen.append(obs)
        rewards.append(reward)
    return seen, rewards, info


@pytest.mark.parametrize("ruleset", ["quick", "skirmish", "colosseum"])
def test_check_env_passes(ruleset: str) -> None:
    check_env(GladiatorEnv(ruleset, options=SHORT[ruleset]), skip_render_check=True)


@pytest.mark.parametrize("ruleset", ["quick", "skirmish", "colosseum"])
def test_an_episode_ends_with_plus_minus_one_or_draw(ruleset: str) -> None:
    env = GladiatorEnv(ruleset, options=SHORT[ruleset])
    obs, rewards, info = _play(env, 5)
    assert all(env.observation_space.contains(o) for o in obs)
    assert rewards[-1] in (-1.0, 0.0, 1.0)
    assert all(r == 0.0 for r in rewards[:-1])
    winners = info["outcome"]["winners"]
    expected = 0.0 if not winners else (1.0 if "red" in winners else -1.0)
    assert rewards[-1] == expected
    assert not info["action_mask"].any()


def test_quick_same_seed_same_episode_and_other_seed_differs() -> None:
    env = GladiatorEnv("quick", opponent="greedy")
    a, ra, _ = _play(env, 11)
    b, rb, _ = _play(env, 11)
    c, _, _ = _play(env, 12)
    assert ra == rb and len(a) == len(b)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert len(a) != len(c) or not all(np.array_equal(x, y) for x, y in zip(a, c, strict=True))


def test_quick_mask_is_int8_and_matches_orders() -> None:
    env = GladiatorEnv("quick")
    _, info = env.reset(seed=3)
    mask = info["action_mask"]
    assert mask.dtype == np.int8 and mask.shape == (env.action_space.n,)
    assert [bool(t) for t in info["orders"]] == [bool(m) for m in mask]
    # RL2: the quick rules' action i always names the same order
    assert info["orders"][env.unwrapped.episode.spec.actions.index["E"]] == "E"


def test_masked_out_action_plays_the_first_legal_by_default() -> None:
    env = GladiatorEnv("quick")
    _, info = env.reset(seed=3)
    first = int(np.flatnonzero(info["action_mask"])[0])
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    twin = GladiatorEnv("quick")
    twin.reset(seed=3)
    obs, _, _, _, info = env.step(illegal)
    assert info["illegal_action"] is True
    obs2, _, _, _, info2 = twin.step(first)
    assert info2["illegal_action"] is False
    assert np.array_equal(obs, obs2)


def test_masked_out_action_raises_when_asked() -> None:
    env = GladiatorEnv("quick", on_illegal="raise")
    _, info = env.reset(seed=3)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction, match="masked out"):
        env.step(illegal)
    with pytest.raises(IllegalAction, match="out of range"):
        env.step(env.action_space.n)


def test_registered_ids_make_the_env() -> None:
    env = gymnasium.make("gladiator/Quick-v0", opponent="greedy")
    obs, info = env.reset(seed=0)
    assert obs.shape == env.observation_space.shape
    assert "action_mask" in info
    env.close()


def test_ansi_render_is_the_rulesets_text() -> None:
    env = GladiatorEnv("quick", render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert isinstance(text, str) and "red" in text


def test_agent_may_take_the_second_seat() -> None:
    env = GladiatorEnv("skirmish", seat="blue", opponent="greedy", options={"max_turns": 4})
    _, _, info = _play(env, 1)
    assert info["seat"] == "blue" and "outcome" in info
