"""PettingZoo environments: every seat an agent.

* `parallel_env(ruleset, **options)`: a `ParallelEnv` in which every agent gives an action at
  every step; those of the seats the ruleset has pending are played together (simultaneous
  secret orders are one step), the others' are ignored (RL8: send anything, say 0; their mask is
  all zeros).
* `env(ruleset, **options)`: the AEC form, PettingZoo's `parallel_to_aec` of the above. An AEC
  agent acting after another in the same step observes the observation of the step's start:
  the orders are applied only once every agent has acted, so no agent sees another's secret
  order (RL6).

Observations follow PettingZoo's classic convention: `{"observation": Box float32,
"action_mask": Box int8}`; `infos[agent]` also has `action_mask`, `orders` (each action's order
text) and `illegal_action`. Rewards are RL7's ±1/0 at the end (plus `shaping` times the change in
`ruleset.heuristic`, off by default). A masked-out action of a pending seat plays its first
legal action (RL5; `on_illegal="raise"` raises `IllegalAction` instead).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import parallel_to_aec

from gladiator.rl.episode import OBS_BOUND, Episode

__all__ = ["GladiatorParallelEnv", "env", "parallel_env"]

Obs = dict[str, np.ndarray]


class GladiatorParallelEnv(ParallelEnv[str, Obs, int]):  # type: ignore[misc]
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "gladiator_v0"}  # noqa: RUF012

    def __init__(
        self,
        ruleset: str = "quick",
        *,
        slots: int | None = None,
        shaping: float = 0.0,
        on_illegal: str = "first",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if on_illegal not in ("first", "raise"):
            raise ValueError(f"on_illegal must be 'first' or 'raise', not {on_illegal!r}")
        self.ruleset_name = ruleset
        self.match_options = options
        self.slots = slots
        self.shaping = shaping
        self.on_illegal = on_illegal
        self.render_mode = render_mode
        probe = Episode(ruleset, options, 0, slots=slots)
        self.possible_agents = list(probe.seats)
        self.agents: list[str] = []
        n = probe.n_actions
        # One object per agent, handed out every call (PettingZoo's tests check identity).
        self._obs_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(
                        -OBS_BOUND, OBS_BOUND, shape=(probe.obs_size,), dtype=np.float32
                    ),
                    "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._act_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.episode: Episode | None = None
        self._seeds = np.random.default_rng()
        self._illegal: dict[str, bool] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_spaces[agent]

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Obs], dict[str, dict[str, Any]]]:
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        match_seed = int(self._seeds.integers(0, 2**62))
        self.episode = Episode(
            self.ruleset_name,
            self.match_options,
            match_seed,
            slots=self.slots,
            shaping=self.shaping,
        )
        self.agents = list(self.possible_agents)
        self._illegal = {}
        return self._observations(), self._infos()

    def step(
        self, actions: dict[str, int]
    ) -> tuple[
        dict[str, Obs],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        ep = self._episode()
        if ep.over:
            raise RuntimeError("the match is over: call reset()")
        chosen: dict[str, int] = {}
        self._illegal = {}
        for seat in ep.pending:
            if seat not in actions or actions[seat] is None:
                raise ValueError(f"{seat} must act now and was given no action")
            act = int(actions[seat])
            menu = ep.menu(seat)
            masked = 0 <= act < len(menu.orders) and not menu.orders[act]
            self._illegal[seat] = masked
            chosen[seat] = menu.first_legal() if masked and self.on_illegal == "first" else act
        rewards = ep.step(chosen)
        obs, infos = self._observations(), self._infos()
        done = ep.over
        terminations: dict[str, bool] = dict.fromkeys(self.agents, done)
        truncations: dict[str, bool] = dict.fromkeys(self.agents, False)
        rewards = {a: rewards[a] for a in self.agents}
        if done:
            self.agents = []
        return obs, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return self._episode().render(None)

    def close(self) -> None:
        pass

    def _episode(self) -> Episode:
        if self.episode is None:
            raise RuntimeError("call reset() first")
        return self.episode

    def _observations(self) -> dict[str, Obs]:
        ep = self._episode()
        return {
            a: {"observation": ep.observe(a), "action_mask": ep.mask(a)}
            for a in self.possible_agents
            if a in self.agents or not ep.over
        }

    def _infos(self) -> dict[str, dict[str, Any]]:
        ep = self._episode()
        out: dict[str, dict[str, Any]] = {}
        for a in self.possible_agents:
            menu = ep.menu(a)
            out[a] = {
                "action_mask": menu.mask.copy(),
                "orders": list(menu.orders),
                "illegal_action": self._illegal.get(a, False),
            }
        return out


def parallel_env(ruleset: str = "quick", **kwargs: Any) -> GladiatorParallelEnv:
    """The parallel environment; keyword arguments are the env's (`slots`, `shaping`,
    `on_illegal`, `render_mode`) and otherwise the ruleset's match options (`max_turns`...)."""
    return GladiatorParallelEnv(ruleset, **kwargs)


def env(ruleset: str = "quick", **kwargs: Any) -> AECEnv[str, Obs, int]:
    """The AEC environment (`parallel_to_aec` of `parallel_env`)."""
    return parallel_to_aec(parallel_env(ruleset, **kwargs))
