"""A tiny masked game for proving PPO before the real arena: each of `rounds` steps shows a
target among `n` actions and leaves only the target and `decoys` others legal. Matching pays 1.
The best masked policy scores `rounds`; a uniform one over the legal actions rounds/(decoys+1)."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from numpy.typing import NDArray


class MaskedMatching(gym.Env[NDArray[np.float64], np.int64]):
    def __init__(self, n: int = 6, decoys: int = 2, rounds: int = 8) -> None:
        self.n, self.decoys, self.rounds = n, decoys, rounds
        self.observation_space = gym.spaces.Box(0.0, 1.0, (n + 1,), np.float64)
        self.action_space = gym.spaces.Discrete(n)
        self._rng = np.random.default_rng(0)
        self._t = 0
        self._target = 0
        self._mask = np.ones(n, dtype=bool)

    def _draw(self) -> tuple[NDArray[np.float64], dict[str, Any]]:
        self._target = int(self._rng.integers(self.n))
        others = [a for a in range(self.n) if a != self._target]
        legal = [self._target, *self._rng.choice(others, self.decoys, replace=False).tolist()]
        self._mask = np.zeros(self.n, dtype=bool)
        self._mask[legal] = True
        obs = np.zeros(self.n + 1)
        obs[self._target] = 1.0
        obs[-1] = self._t / self.rounds
        return obs, {"action_mask": self._mask.copy()}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float64], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self._t = 0
        return self._draw()

    def step(self, action: Any) -> tuple[NDArray[np.float64], float, bool, bool, dict[str, Any]]:
        a = int(action)
        if not self._mask[a]:
            raise ValueError(f"illegal action {a}")
        reward = 1.0 if a == self._target else 0.0
        self._t += 1
        obs, info = self._draw()
        return obs, reward, self._t >= self.rounds, False, info
