"""PPO on the quick rules' Gymnasium environment: one update runs, the policy as a Bot plays
only legal orders, evaluation alternates seats, and self-play draws its opponents from the pool
(docs/rulings.md PP1-PP3)."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gladiator.bots.random_legal import RandomBot
from gladiator.core.dice import Dice
from gladiator.registry import get
from gladiator.rl.evaluate import evaluate
from gladiator.rl.gym_env import GladiatorEnv
from gladiator.rl.policy_bot import PolicyBot
from gladiator.rl.ppo import PPO, PPOConfig
from gladiator.rl.selfplay import OpponentPool, PooledEnv, TrainConfig, train

SMALL = PPOConfig(hidden=(16, 16), steps_per_update=128, minibatch=64, epochs=2)


def _envs() -> list[GladiatorEnv]:
    return [GladiatorEnv("quick", seat=s) for s in ("red", "blue")]


def test_one_ppo_update_on_the_quick_env() -> None:
    envs = _envs()
    agent = PPO(envs[0].observation_space.shape[0], int(envs[0].action_space.n), SMALL, 0)
    before = agent.snapshot()
    ro = agent.collect(list(envs))
    stats = agent.update(ro)
    assert len(ro.actions) == 128
    assert ro.mask[np.arange(128), ro.actions].all()
    assert np.isfinite(list(stats.values())).all()
    assert any(not np.array_equal(before[k], agent.params[k]) for k in before)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**31 - 1), st.booleans())
def test_policy_bot_plays_only_legal_orders(seed: int, greedy: bool) -> None:
    # Random weights, so the policy's favourite is often illegal: the mask must stop it.
    env = GladiatorEnv("quick")
    agent = PPO(env.observation_space.shape[0], int(env.action_space.n), SMALL, seed)
    agent.params["bpi"] += np.random.default_rng(seed).normal(0, 5, agent.params["bpi"].shape)
    bot = PolicyBot(agent.params, "quick", {}, greedy=greedy)
    rules = get("quick")
    opts = rules.normalise_options({})
    dice = Dice(seed, recording=False)
    state, _ = rules.initial_state(opts, dice)
    rng = random.Random(seed)
    for _ in range(60):
        pending = rules.pending(state)
        if not pending:
            break
        orders = {}
        for s, d in pending.items():
            order = bot.choose(rules, state, s, d, rng)
            d.validate(order)  # raises on an illegal order
            orders[s] = order
        rules.apply(state, orders, dice, quiet=True)


def test_policy_bot_sees_what_the_env_shows_its_seat() -> None:
    # The bot's greedy choice for the env's observation and mask is the env's argmax action.
    env = GladiatorEnv("quick", seat="red")
    agent = PPO(env.observation_space.shape[0], int(env.action_space.n), SMALL, 4)
    bot = PolicyBot(agent.params, "quick", {}, greedy=True)
    obs, info = env.reset(seed=9)
    ep = env.episode
    assert ep is not None
    fwd = agent.net.forward(obs[None, :].astype(np.float64), info["action_mask"][None, :] > 0)
    want = info["orders"][int(fwd.logp[0].argmax())]
    got = bot.choose(ep.ruleset, ep.state, "red", ep.pending["red"], random.Random(0))
    assert got == want


def test_evaluation_counts_and_alternates_seats() -> None:
    score = evaluate("quick", {}, RandomBot, RandomBot, 12, seed=3)
    assert score.wins + score.draws + score.losses == 12
    again = evaluate("quick", {}, RandomBot, RandomBot, 12, seed=3)
    assert again == score


def test_opponent_pool_mixes_snapshots_and_random() -> None:
    pool = OpponentPool("quick", {}, random_share=0.3, seed=1)
    assert isinstance(pool.draw(), RandomBot)  # no snapshot yet: random
    env = GladiatorEnv("quick")
    agent = PPO(env.observation_space.shape[0], int(env.action_space.n), SMALL, 0)
    for _ in range(3):
        pool.add(agent.snapshot(), keep=2)
    assert len(pool.snapshots) == 2
    drawn = [pool.draw() for _ in range(400)]
    share = sum(isinstance(b, RandomBot) for b in drawn) / 400
    assert 0.22 < share < 0.38
    wrapped = PooledEnv(GladiatorEnv("quick"), pool)
    wrapped.reset(seed=0)
    assert wrapped.unwrapped.opponent in [pool.random, *pool.snapshots]  # type: ignore[attr-defined]


def test_train_schedule_is_reproducible() -> None:
    cfg = TrainConfig(
        envs=2,
        updates_vs_random=1,
        updates_selfplay=1,
        snapshot_every=1,
        eval_every=2,
        eval_matches=4,
        random_share=0.0,
        ppo=SMALL,
    )
    a, b = train(cfg), train(cfg)
    assert [p["update"] for p in a.curve] == [0, 2]
    assert a.faced["snapshot"] > 0
    assert all(np.array_equal(a.params[k], b.params[k]) for k in a.params)
    assert [p["vs_random"] for p in a.curve] == [p["vs_random"] for p in b.curve]
