"""Proximal Policy Optimisation (Schulman et al. 2017) on numpy, sized for a CPU: clipped
surrogate, generalised advantage estimation, an entropy bonus, Adam, and illegal actions masked
to −inf from `info["action_mask"]`.

Every random draw (weights, actions, minibatch order, episode seeds) comes from one seeded
`numpy.random.Generator`, so a run is reproducible from (config, seed, environments)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from gladiator.rl.adam import Adam, clip_by_global_norm
from gladiator.rl.mlp import MLP, init_params

__all__ = ["PPO", "PPOConfig", "Rollout", "gae", "sample_masked"]

Array = NDArray[np.float64]
Mask = NDArray[np.bool_]


class MaskedEnv(Protocol):
    """The part of gymnasium.Env that PPO uses; `info["action_mask"]` marks the legal actions."""

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]: ...

    def step(self, action: Any) -> tuple[Any, Any, bool, bool, dict[str, Any]]: ...


@dataclass(frozen=True)
class PPOConfig:
    hidden: tuple[int, ...] = (64, 64)
    lr: float = 3e-4
    gamma: float = 0.99
    lam: float = 0.95
    clip: float = 0.2
    epochs: int = 4
    minibatch: int = 256
    vf_coef: float = 0.5
    ent_coef: float = 0.01
    max_grad_norm: float = 0.5
    steps_per_update: int = 1024  # over all environments together

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Rollout:
    obs: Array
    mask: Mask
    actions: NDArray[np.int64]
    logp: Array
    values: Array
    advantages: Array
    returns: Array
    episode_returns: list[float] = field(default_factory=list)
    episode_lengths: list[int] = field(default_factory=list)


def sample_masked(logp: Array, rng: np.random.Generator) -> NDArray[np.int64]:
    """One action per row from π = exp(logp). Inverse-CDF: the first index whose cumulative
    probability passes u, and an illegal action adds nothing to the cumulative sum, so it is
    never the first to pass."""
    p = np.exp(logp)
    cum = np.cumsum(p, axis=-1)
    u = rng.random(len(p))[:, None] * cum[:, -1:]
    return np.asarray((cum > u).argmax(axis=-1), dtype=np.int64)


def gae(
    rewards: Array, values: Array, dones: Array, last_values: Array, gamma: float, lam: float
) -> tuple[Array, Array]:
    """Advantages and returns for (time, env) arrays; `dones[t]` ends the episode after step t,
    so nothing is bootstrapped across it."""
    steps = len(rewards)
    adv = np.zeros_like(rewards)
    running = np.zeros_like(last_values)
    for t in reversed(range(steps)):
        next_v = last_values if t == steps - 1 else values[t + 1]
        alive = 1.0 - dones[t]
        delta = rewards[t] + gamma * next_v * alive - values[t]
        running = delta + gamma * lam * alive * running
        adv[t] = running
    return adv, adv + values


class PPO:
    def __init__(self, obs_dim: int, n_actions: int, config: PPOConfig, seed: int) -> None:
        self.config = config
        self.rng = np.random.default_rng(seed)
        self.net = MLP(init_params(self.rng, obs_dim, n_actions, config.hidden))
        self.opt = Adam(self.net.params, lr=config.lr)
        self.updates = 0
        self._obs: list[Array] = []
        self._mask: list[Mask] = []
        self._ep_return: list[float] = []
        self._ep_length: list[int] = []

    @property
    def params(self) -> dict[str, Array]:
        return self.net.params

    def snapshot(self) -> dict[str, Array]:
        """A frozen copy of the weights (for a self-play opponent)."""
        return {k: v.copy() for k, v in self.net.params.items()}

    def act(self, obs: Array, mask: Mask) -> tuple[NDArray[np.int64], Array, Array]:
        fwd = self.net.forward(obs, mask)
        actions = sample_masked(fwd.logp, self.rng)
        return actions, fwd.logp[np.arange(len(actions)), actions], fwd.value

    def _reset(self, env: MaskedEnv) -> tuple[Array, Mask]:
        obs, info = env.reset(seed=int(self.rng.integers(2**31)))
        return np.asarray(obs, dtype=np.float64), np.asarray(info["action_mask"], dtype=bool)

    def collect(self, envs: list[MaskedEnv]) -> Rollout:
        """`steps_per_update` steps over the environments in lockstep (one batched forward pass a
        step); an environment that ends its episode is reset with a seed drawn from our rng."""
        n_env = len(envs)
        if not self._obs:
            for env in envs:
                o, m = self._reset(env)
                self._obs.append(o)
                self._mask.append(m)
                self._ep_return.append(0.0)
                self._ep_length.append(0)
        steps = max(1, self.config.steps_per_update // n_env)
        obs_b = np.zeros((steps, n_env, len(self._obs[0])))
        mask_b = np.zeros((steps, n_env, len(self._mask[0])), dtype=bool)
        act_b = np.zeros((steps, n_env), dtype=np.int64)
        logp_b = np.zeros((steps, n_env))
        val_b = np.zeros((steps, n_env))
        rew_b = np.zeros((steps, n_env))
        done_b = np.zeros((steps, n_env))
        ep_returns: list[float] = []
        ep_lengths: list[int] = []
        for t in range(steps):
            obs_b[t] = np.stack(self._obs)
            mask_b[t] = np.stack(self._mask)
            actions, logp, values = self.act(obs_b[t], mask_b[t])
            act_b[t], logp_b[t], val_b[t] = actions, logp, values
            for i, env in enumerate(envs):
                obs, reward, terminated, truncated, info = env.step(int(actions[i]))
                r = float(reward)
                self._ep_return[i] += r
                self._ep_length[i] += 1
                if truncated and not terminated:
                    # A cut-off episode is worth what the critic says of where it was cut.
                    final = np.asarray(obs, dtype=np.float64)[None, :]
                    fmask = np.asarray(info["action_mask"], dtype=bool)[None, :]
                    if fmask.any():
                        r += self.config.gamma * float(self.net.forward(final, fmask).value[0])
                rew_b[t, i] = r
                if terminated or truncated:
                    done_b[t, i] = 1.0
                    ep_returns.append(self._ep_return[i])
                    ep_lengths.append(self._ep_length[i])
                    self._ep_return[i], self._ep_length[i] = 0.0, 0
                    self._obs[i], self._mask[i] = self._reset(env)
                else:
                    self._obs[i] = np.asarray(obs, dtype=np.float64)
                    self._mask[i] = np.asarray(info["action_mask"], dtype=bool)
        last = self.net.forward(np.stack(self._obs), np.stack(self._mask)).value
        adv, ret = gae(rew_b, val_b, done_b, last, self.config.gamma, self.config.lam)

        def flat(a: NDArray[Any]) -> NDArray[Any]:
            return a.reshape(steps * n_env, *a.shape[2:])

        return Rollout(
            flat(obs_b),
            flat(mask_b),
            flat(act_b),
            flat(logp_b),
            flat(val_b),
            flat(adv),
            flat(ret),
            ep_returns,
            ep_lengths,
        )

    def loss_grads(
        self, ro: Rollout, idx: NDArray[np.int64]
    ) -> tuple[dict[str, Array], dict[str, float]]:
        """The PPO loss's gradients on the minibatch `idx`, and its parts for logging."""
        cfg = self.config
        n = len(idx)
        fwd = self.net.forward(ro.obs[idx], ro.mask[idx])
        a = ro.actions[idx]
        adv = ro.advantages[idx]
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        rows = np.arange(n)
        logp_a = fwd.logp[rows, a]
        ratio = np.exp(logp_a - ro.logp[idx])
        clipped = np.clip(ratio, 1.0 - cfg.clip, 1.0 + cfg.clip)
        surrogate = np.minimum(ratio * adv, clipped * adv)
        # The min's gradient flows only where the unclipped term is the one taken.
        active = ratio * adv <= clipped * adv
        d_logp_a = -(active * ratio * adv) / n
        p = np.exp(fwd.logp)
        onehot = np.zeros_like(p)
        onehot[rows, a] = 1.0
        d_logits = d_logp_a[:, None] * (onehot - p)
        safe_logp = np.where(fwd.mask, fwd.logp, 0.0)
        entropy = -(p * safe_logp).sum(axis=1)
        # dH/dz_j = −p_j (log p_j + H); the loss subtracts ent_coef·mean(H).
        d_logits += cfg.ent_coef * p * (safe_logp + entropy[:, None]) / n
        d_value = cfg.vf_coef * (fwd.value - ro.returns[idx]) / n
        grads = self.net.backward(fwd, d_logits, d_value)
        stats = {
            "policy_loss": float(-surrogate.mean()),
            "value_loss": float(0.5 * ((fwd.value - ro.returns[idx]) ** 2).mean()),
            "entropy": float(entropy.mean()),
            "approx_kl": float((ro.logp[idx] - logp_a).mean()),
            "clip_fraction": float((np.abs(ratio - 1.0) > cfg.clip).mean()),
        }
        return grads, stats

    def loss(self, ro: Rollout, idx: NDArray[np.int64]) -> float:
        """The scalar that `loss_grads` differentiates (for checking the gradients)."""
        cfg = self.config
        fwd = self.net.forward(ro.obs[idx], ro.mask[idx])
        adv = ro.advantages[idx]
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        logp_a = fwd.logp[np.arange(len(idx)), ro.actions[idx]]
        ratio = np.exp(logp_a - ro.logp[idx])
        clipped = np.clip(ratio, 1.0 - cfg.clip, 1.0 + cfg.clip)
        pol = -np.minimum(ratio * adv, clipped * adv).mean()
        p = np.exp(fwd.logp)
        ent = -(p * np.where(fwd.mask, fwd.logp, 0.0)).sum(axis=1).mean()
        val = 0.5 * ((fwd.value - ro.returns[idx]) ** 2).mean()
        return float(pol + cfg.vf_coef * val - cfg.ent_coef * ent)

    def update(self, ro: Rollout) -> dict[str, float]:
        cfg = self.config
        total = len(ro.actions)
        mb = min(cfg.minibatch, total)
        sums: dict[str, float] = {}
        count = 0
        for _ in range(cfg.epochs):
            order = self.rng.permutation(total)
            for start in range(0, total - mb + 1, mb):
                grads, stats = self.loss_grads(ro, order[start : start + mb])
                stats["grad_norm"] = clip_by_global_norm(grads, cfg.max_grad_norm)
                self.opt.step(grads)
                for k, v in stats.items():
                    sums[k] = sums.get(k, 0.0) + v
                count += 1
        self.updates += 1
        return {k: v / count for k, v in sums.items()}
