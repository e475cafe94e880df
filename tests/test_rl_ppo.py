"""PPO on numpy (gladiator.rl.ppo): the algorithm proven on a tiny masked game whose best policy
is known, before any arena is involved."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gladiator.rl.mlp import masked_log_softmax
from gladiator.rl.ppo import PPO, PPOConfig, Rollout, gae, sample_masked
from rl_toy_env import MaskedMatching

TOY = PPOConfig(hidden=(32, 32), lr=3e-3, steps_per_update=512, minibatch=128, epochs=4)


def _train(seed: int, updates: int) -> tuple[PPO, list[float]]:
    ppo = PPO(7, 6, TOY, seed=seed)
    envs = [MaskedMatching() for _ in range(8)]
    means = []
    for _ in range(updates):
        ro = ppo.collect(envs)
        ppo.update(ro)
        means.append(float(np.mean(ro.episode_returns)))
    return ppo, means


def _greedy_return(ppo: PPO, episodes: int, seed: int) -> float:
    env = MaskedMatching()
    total = 0.0
    for e in range(episodes):
        obs, info = env.reset(seed=seed + e)
        done = False
        while not done:
            fwd = ppo.net.forward(obs[None, :], info["action_mask"][None, :])
            obs, r, term, trunc, info = env.step(int(fwd.logp[0].argmax()))
            total += float(r)
            done = term or trunc
    return total / episodes


def test_ppo_learns_the_masked_matching_game() -> None:
    # Uniform over the 3 legal actions matches 1 round in 3: 8/3 ≈ 2.67 of the best 8.
    ppo, means = _train(seed=1, updates=12)
    assert means[0] < 3.5
    assert _greedy_return(ppo, 100, seed=10_000) >= 7.5


def test_ppo_same_seed_same_weights_after_updates() -> None:
    a, _ = _train(seed=5, updates=3)
    b, _ = _train(seed=5, updates=3)
    c, _ = _train(seed=6, updates=3)
    assert a.params.keys() == b.params.keys()
    assert all(np.array_equal(a.params[k], b.params[k]) for k in a.params)
    assert not all(np.array_equal(a.params[k], c.params[k]) for k in a.params)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(2, 12).flatmap(
        lambda n: st.tuples(
            st.lists(st.floats(-30, 30), min_size=n, max_size=n),
            st.lists(st.booleans(), min_size=n, max_size=n).filter(any),
            st.integers(0, 2**32 - 1),
        )
    )
)
def test_masked_actions_are_never_sampled(case: tuple[list[float], list[bool], int]) -> None:
    logits, mask, seed = case
    logp = masked_log_softmax(np.array([logits] * 64), np.array([mask] * 64))
    assert np.all(np.isneginf(logp[:, ~np.array(mask)]))
    actions = sample_masked(logp, np.random.default_rng(seed))
    assert all(mask[a] for a in actions)


def test_rollout_actions_are_legal_under_their_masks() -> None:
    # The toy environment raises on an illegal action, and the rollout keeps each step's mask.
    ppo = PPO(7, 6, TOY, seed=3)
    ro = ppo.collect([MaskedMatching() for _ in range(4)])
    assert ro.mask[np.arange(len(ro.actions)), ro.actions].all()
    assert len(ro.actions) == TOY.steps_per_update


def test_gae_by_hand() -> None:
    # Two steps, episode ends after the second: δ1 = 1 − 0.5, δ0 = 0 + 0.9·0.5 − 1 = −0.55,
    # A0 = δ0 + 0.9·0.8·δ1 = −0.19.
    rewards = np.array([[0.0], [1.0]])
    values = np.array([[1.0], [0.5]])
    dones = np.array([[0.0], [1.0]])
    adv, ret = gae(rewards, values, dones, np.array([7.0]), gamma=0.9, lam=0.8)
    assert np.allclose(adv[:, 0], [-0.19, 0.5])
    assert np.allclose(ret[:, 0], [0.81, 1.0])


def test_loss_gradients_match_finite_differences() -> None:
    cfg = PPOConfig(hidden=(8, 8), ent_coef=0.05, clip=0.2)
    ppo = PPO(7, 6, cfg, seed=2)
    ro = ppo.collect([MaskedMatching() for _ in range(2)])
    rng = np.random.default_rng(0)
    # Old log-probabilities nudged so that some ratios sit outside the clip band.
    ro = Rollout(
        ro.obs,
        ro.mask,
        ro.actions,
        ro.logp + rng.normal(0, 0.3, len(ro.logp)),
        ro.values,
        ro.advantages + rng.normal(0, 1, len(ro.logp)),
        ro.returns,
    )
    idx = np.arange(64)
    grads, _ = ppo.loss_grads(ro, idx)
    for key in ("W0", "b1", "Wpi", "bpi", "Wv"):
        p = ppo.params[key]
        for flat in rng.choice(p.size, 5, replace=False):
            pos = np.unravel_index(flat, p.shape)
            old = p[pos]
            p[pos] = old + 1e-6
            up = ppo.loss(ro, idx)
            p[pos] = old - 1e-6
            down = ppo.loss(ro, idx)
            p[pos] = old
            assert abs((up - down) / 2e-6 - grads[key][pos]) < 1e-5, key
