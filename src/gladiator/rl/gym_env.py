"""A single-agent Gymnasium environment: one seat learns, every other seat is played by a bot.

    env = GladiatorEnv("quick", seat="red", opponent="random")
    obs, info = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))

The contract other code relies on (keep it stable): the constructor's arguments; observations
are `Box(-OBS_BOUND, OBS_BOUND, (n,), float32)` from the ruleset's encoder; actions are
`Discrete(k)` (RL2, RL3); `info` at reset and at every step has `action_mask` (np.int8, 1 = legal
now; all zeros once the match is over), `orders` (each action's order text, "" if illegal),
`seat` and `illegal_action` (whether the action just taken was masked out); at the end also
`outcome` (the ruleset's `Outcome.to_dict()`). Bots move between the agent's decisions, so
every observation is taken when the agent must decide.

RL5: Gymnasium expects every action of the space to be valid in `step` (its checker samples the
whole space), so by default (`on_illegal="first"`) a masked-out action plays the first legal
action instead and `info["illegal_action"]` says so; `on_illegal="raise"` raises
`IllegalAction` instead. An action outside the space always raises.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from gladiator.bots import Bot, make_bot
from gladiator.rl.episode import OBS_BOUND, Episode

__all__ = ["GladiatorEnv"]


class GladiatorEnv(gym.Env[np.ndarray, np.int64]):
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        ruleset: str = "quick",
        seat: str | None = None,
        opponent: str | Bot = "random",
        options: dict[str, Any] | None = None,
        *,
        slots: int | None = None,
        shaping: float = 0.0,
        on_illegal: str = "first",
        render_mode: str | None = None,
    ) -> None:
        if on_illegal not in ("first", "raise"):
            raise ValueError(f"on_illegal must be 'first' or 'raise', not {on_illegal!r}")
        self.on_illegal = on_illegal
        self._illegal = False
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.ruleset_name = ruleset
        self.match_options = dict(options or {})
        self.slots = slots
        self.shaping = shaping
        self.render_mode = render_mode
        probe = Episode(ruleset, self.match_options, 0, slots=slots)
        self.seats = probe.seats
        self.seat = seat or self.seats[0]
        if self.seat not in self.seats:
            raise ValueError(f"no seat {self.seat!r}; seats: {', '.join(self.seats)}")
        self.opponent = opponent
        self.observation_space = spaces.Box(
            -OBS_BOUND, OBS_BOUND, shape=(probe.obs_size,), dtype=np.float32
        )
        self.action_space = spaces.Discrete(probe.n_actions)
        self.episode: Episode | None = None
        self._bots: dict[str, tuple[Bot, random.Random]] = {}

    # -- gymnasium -------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        # The match seed comes from the env's np_random: one seed at the first reset fixes every
        # later episode too.
        match_seed = int(self.np_random.integers(0, 2**62))
        self.episode = Episode(
            self.ruleset_name,
            self.match_options,
            match_seed,
            slots=self.slots,
            shaping=self.shaping,
        )
        self._bots = {
            s: (self._make_bot(), random.Random(f"gladiator-bot:{match_seed}:{s}"))
            for s in self.seats
            if s != self.seat
        }
        self._illegal = False
        reward = self._play_bots()
        del reward  # nothing can be won before the agent's first decision but a forfeit
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        ep = self._episode()
        if ep.over:
            raise RuntimeError("the match is over: call reset()")
        orders = self._bot_orders()
        menu = ep.menu(self.seat)
        act = int(action)
        self._illegal = 0 <= act < len(menu.orders) and not menu.orders[act]
        if self._illegal and self.on_illegal == "first":
            act = menu.first_legal()
        orders[self.seat] = menu.order(act)
        reward = ep.step_orders(orders)[self.seat]
        reward += self._play_bots()
        return self._obs(), float(reward), ep.over, False, self._info()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return self._episode().render(self.seat)

    def action_masks(self) -> np.ndarray:
        """The mask as sb3-contrib's MaskablePPO asks for it (booleans)."""
        return self._episode().mask(self.seat).astype(bool)

    # -- inside ----------------------------------------------------------------------------
    def _episode(self) -> Episode:
        if self.episode is None:
            raise RuntimeError("call reset() first")
        return self.episode

    def _make_bot(self) -> Bot:
        if isinstance(self.opponent, str):
            return make_bot(self.opponent)
        return self.opponent

    def _bot_orders(self) -> dict[str, str]:
        ep = self._episode()
        out: dict[str, str] = {}
        for s, decision in ep.pending.items():
            if s != self.seat:
                bot, rng = self._bots[s]
                out[s] = bot.choose(ep.ruleset, ep.state, s, decision, rng)
        return out

    def _play_bots(self) -> float:
        """Let the bots play until the agent must decide or the match ends; the agent's reward
        collected on the way."""
        ep = self._episode()
        total = 0.0
        while not ep.over and self.seat not in ep.pending:
            total += ep.step_orders(self._bot_orders())[self.seat]
        return total

    def _obs(self) -> np.ndarray:
        return self._episode().observe(self.seat)

    def _info(self) -> dict[str, Any]:
        ep = self._episode()
        menu = ep.menu(self.seat)
        info: dict[str, Any] = {
            "action_mask": menu.mask.copy(),
            "orders": list(menu.orders),
            "seat": self.seat,
            "illegal_action": self._illegal,
        }
        out = ep.ruleset.outcome(ep.state)
        if out is not None:
            info["outcome"] = out.to_dict()
        return info
