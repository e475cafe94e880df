"""One match as a learning episode: the state, the match's own `Dice`, and for every pending
seat its observation, action menu and mask. The Gymnasium, PettingZoo and OpenSpiel front ends
all drive this, so they share one meaning of observations, actions and rewards.

Secret orders stay secret because an `Episode` applies the orders of a step all at once and
observations come from `ruleset.view(state, seat)` alone: no seat's order is in the state until
every pending seat has given one (RL6).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np

from gladiator.core.decisions import Decision
from gladiator.core.dice import Dice
from gladiator.core.protocol import Ruleset
from gladiator.registry import get as get_ruleset
from gladiator.rl.action_map import Menu
from gladiator.rl.specs import Spec, spec_for

__all__ = ["OBS_BOUND", "Episode"]

# Every feature is clipped to ±OBS_BOUND, the Box space's bounds (the encoders scale what they
# can to about ±2; a figure run far off the Colosseum's board is the exception).
OBS_BOUND = 8.0


class Episode:
    """A match driven by action indices (or order texts) for every pending seat at once."""

    def __init__(
        self,
        ruleset: str,
        options: Mapping[str, Any] | None = None,
        seed: int = 0,
        *,
        slots: int | None = None,
        shaping: float = 0.0,
    ) -> None:
        self.ruleset: Ruleset[Any] = get_ruleset(ruleset)
        self.options = self.ruleset.normalise_options(dict(options or {}))
        self.seats: tuple[str, ...] = tuple(self.ruleset.seats(self.options))
        self.spec: Spec = spec_for(self.ruleset.name, self.options, self.seats, slots)
        self.seed = int(seed)
        self.shaping = float(shaping)
        self.dice = Dice(self.seed, recording=False)
        self.state, _ = self.ruleset.initial_state(self.options, self.dice)
        self.steps = 0
        self.pending: dict[str, Decision] = {}
        self.menus: dict[str, Menu] = {}
        self._refresh()

    def __deepcopy__(self, memo: dict[int, Any]) -> Episode:
        return _copy_episode(self)

    @property
    def n_actions(self) -> int:
        return self.spec.actions.n

    @property
    def obs_size(self) -> int:
        return self.spec.encoder.size

    @property
    def over(self) -> bool:
        return not self.pending

    def _refresh(self) -> None:
        self.pending = dict(self.ruleset.pending(self.state))
        self.menus = {
            seat: self.spec.actions.menu(d, self.candidate_rng(seat))
            for seat, d in self.pending.items()
        }

    def candidate_rng(self, seat: str) -> random.Random:
        """RL4: the rng that fills a seat's candidate slots, from the seed, step and seat only."""
        return random.Random(f"gladiator-rl:{self.seed}:{self.steps}:{seat}")

    # -- what a seat sees ------------------------------------------------------------------
    def observe(self, seat: str) -> np.ndarray:
        view = self.ruleset.view(self.state, seat)
        obs = self.spec.encoder.encode(view, self.pending.get(seat))
        clipped: np.ndarray = np.clip(obs, -OBS_BOUND, OBS_BOUND)
        return clipped

    def menu(self, seat: str) -> Menu:
        return self.menus.get(seat) or Menu.empty(self.n_actions)

    def mask(self, seat: str) -> np.ndarray:
        return self.menu(seat).mask.copy()

    # -- acting ----------------------------------------------------------------------------
    def orders_for(self, actions: Mapping[str, int]) -> dict[str, str]:
        """The order texts of the pending seats' actions (extra seats' actions are ignored)."""
        missing = [s for s in self.pending if s not in actions]
        if missing:
            raise ValueError(f"no action for the pending seat(s) {', '.join(missing)}")
        return {s: self.menus[s].order(int(actions[s])) for s in self.pending}

    def step(self, actions: Mapping[str, int]) -> dict[str, float]:
        return self.step_orders(self.orders_for(actions))

    def step_orders(self, orders: Mapping[str, str]) -> dict[str, float]:
        """Apply one order per pending seat (canonical or not: checked here) and return every
        seat's reward for the step: RL7's ±1/0 at the end, plus the optional shaping."""
        checked = {s: d.validate(orders[s]) for s, d in self.pending.items()}
        before = self._worth() if self.shaping else {}
        self.ruleset.apply(self.state, checked, self.dice, quiet=True)
        self.steps += 1
        self._refresh()
        rewards = self.final_rewards() if self.over else dict.fromkeys(self.seats, 0.0)
        if self.shaping:
            after = self._worth()
            for s in self.seats:
                rewards[s] += self.shaping * (after[s] - before[s])
        return rewards

    def _worth(self) -> dict[str, float]:
        return {s: float(self.ruleset.heuristic(self.state, s)) for s in self.seats}

    def final_rewards(self) -> dict[str, float]:
        """RL7: +1 for a winner, -1 for every other seat; 0 for all in a draw."""
        out = self.ruleset.outcome(self.state)
        if out is None or not out.winners:
            return dict.fromkeys(self.seats, 0.0)
        return {s: 1.0 if s in out.winners else -1.0 for s in self.seats}

    def render(self, seat: str | None = None) -> str:
        return self.ruleset.render_text(self.state, seat)


def _copy_episode(ep: Episode) -> Episode:
    """An independent copy (OpenSpiel clones states): the ruleset and spec are shared, the
    state cloned, the dice forked so the copy throws what the original would."""
    twin = Episode.__new__(Episode)
    twin.__dict__.update(ep.__dict__)
    twin.state = ep.ruleset.clone(ep.state)
    twin.dice = ep.dice.fork(recording=False)
    twin.pending = dict(ep.pending)
    twin.menus = dict(ep.menus)
    return twin
