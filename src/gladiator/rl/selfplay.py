"""Training a PPO agent for a two-seat ruleset: first against the random bot, then in self-play
against frozen snapshots of itself mixed with random (PP1), evaluated every few updates against
random on fixed seeds (PP2).

The agent learns in both seats (half the environments are red, half blue), so the policy is one
policy for either side of the table."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import gymnasium as gym
import numpy as np

from gladiator.bots.base import Bot
from gladiator.bots.random_legal import RandomBot
from gladiator.rl.evaluate import Score, evaluate
from gladiator.rl.gym_env import GladiatorEnv
from gladiator.rl.policy_bot import PolicyBot
from gladiator.rl.ppo import PPO, PPOConfig

__all__ = ["OpponentPool", "TrainConfig", "TrainResult", "train"]

Params = dict[str, np.ndarray]


@dataclass(frozen=True)
class TrainConfig:
    ruleset: str = "quick"
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    envs: int = 8
    updates_vs_random: int = 100
    updates_selfplay: int = 100
    snapshot_every: int = 10  # updates between frozen snapshots in self-play
    pool_size: int = 8  # the newest snapshots kept as opponents
    random_share: float = 0.3  # self-play episodes that still face the random bot
    eval_every: int = 10
    eval_matches: int = 200
    eval_seed: int = 2024
    ppo: PPOConfig = field(default_factory=PPOConfig)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class OpponentPool:
    """Who the learning seat faces in the next episode: the random bot, or (with probability
    1 − random_share once snapshots exist) one of the kept snapshots, drawn uniformly and
    playing by sampling from its policy."""

    def __init__(self, ruleset: str, options: dict[str, Any], random_share: float, seed: int):
        self.ruleset, self.options = ruleset, options
        self.random_share = random_share
        self.rng = np.random.default_rng(seed)
        self.random = RandomBot()
        self.snapshots: list[PolicyBot] = []
        self.faced: dict[str, int] = {"random": 0, "snapshot": 0}

    def add(self, params: Params, keep: int) -> None:
        bot = PolicyBot(params, self.ruleset, self.options, greedy=False)
        self.snapshots = [*self.snapshots, bot][-keep:]

    def draw(self) -> Bot:
        if not self.snapshots or self.rng.random() < self.random_share:
            self.faced["random"] += 1
            return self.random
        self.faced["snapshot"] += 1
        return self.snapshots[int(self.rng.integers(len(self.snapshots)))]


class PooledEnv(gym.Wrapper[np.ndarray, np.int64, np.ndarray, np.int64]):
    """Sets the environment's opponent from the pool before each match (GladiatorEnv takes a
    Bot instance as its opponent and makes the match's bots at reset)."""

    def __init__(self, env: GladiatorEnv, pool: OpponentPool) -> None:
        super().__init__(env)
        self.pool = pool

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        inner = self.env.unwrapped
        assert isinstance(inner, GladiatorEnv)
        inner.opponent = self.pool.draw()
        return self.env.reset(seed=seed, options=options)


@dataclass
class TrainResult:
    params: Params
    curve: list[dict[str, Any]]
    cpu_seconds: float
    wall_seconds: float
    steps: int
    faced: dict[str, int]


def train(
    cfg: TrainConfig, on_point: Callable[[dict[str, Any]], None] | None = None
) -> TrainResult:
    """Runs the whole schedule; `on_point` sees each evaluation point as it is made."""
    cpu0, wall0 = time.process_time(), time.perf_counter()
    pool = OpponentPool(cfg.ruleset, cfg.options, 1.0, cfg.seed + 1)
    envs: list[Any] = []
    seats = GladiatorEnv(cfg.ruleset, options=cfg.options).seats
    for i in range(cfg.envs):
        env = GladiatorEnv(cfg.ruleset, seat=seats[i % len(seats)], options=cfg.options)
        envs.append(PooledEnv(env, pool))
    space = envs[0].observation_space
    n_actions = int(envs[0].action_space.n)
    agent = PPO(int(space.shape[0]), n_actions, cfg.ppo, cfg.seed)
    curve: list[dict[str, Any]] = []
    steps = 0
    recent: list[float] = []

    def point(update: int, phase: str, stats: dict[str, float]) -> None:
        score = _score(cfg, agent.snapshot(), RandomBot, cfg.eval_matches)
        row = {
            "update": update,
            "steps": steps,
            "phase": phase,
            "cpu_seconds": round(time.process_time() - cpu0, 1),
            "vs_random": score.to_dict(),
            "train_mean_return": float(np.mean(recent)) if recent else None,
            "entropy": stats.get("entropy"),
            "approx_kl": stats.get("approx_kl"),
        }
        recent.clear()
        curve.append(row)
        if on_point:
            on_point(row)

    point(0, "start", {})
    total = cfg.updates_vs_random + cfg.updates_selfplay
    for u in range(1, total + 1):
        selfplay = u > cfg.updates_vs_random
        if selfplay:
            pool.random_share = cfg.random_share
            if (u - cfg.updates_vs_random - 1) % cfg.snapshot_every == 0:
                pool.add(agent.snapshot(), cfg.pool_size)
        ro = agent.collect(envs)
        steps += len(ro.actions)
        recent.extend(ro.episode_returns)
        stats = agent.update(ro)
        if u % cfg.eval_every == 0 or u == total:
            point(u, "selfplay" if selfplay else "vs_random", stats)
    return TrainResult(
        agent.snapshot(),
        curve,
        time.process_time() - cpu0,
        time.perf_counter() - wall0,
        steps,
        dict(pool.faced),
    )


def _score(cfg: TrainConfig, params: Params, opponent: Callable[[], Bot], matches: int) -> Score:
    return evaluate(
        cfg.ruleset,
        cfg.options,
        lambda: PolicyBot(params, cfg.ruleset, cfg.options, greedy=True),
        opponent,
        matches,
        cfg.eval_seed,
    )
