"""A trained policy as a `Bot`: it sees exactly what the environment would show its seat (the rl
package's encoder over `view(state, seat)`, and the action mask of the seat's decision), never
the raw state, so it can sit at any table: an evaluation, a self-play opponent, the arena."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np

from gladiator.bots.base import Bot
from gladiator.core.decisions import Decision
from gladiator.core.protocol import Ruleset
from gladiator.registry import get
from gladiator.rl.episode import OBS_BOUND
from gladiator.rl.mlp import MLP
from gladiator.rl.specs import spec_for

__all__ = ["PolicyBot"]


class PolicyBot(Bot):
    """`greedy`: the most probable legal action (evaluation); otherwise a draw from π with the
    bot's own rng (a self-play opponent that does not always play the same line)."""

    name = "ppo"

    def __init__(
        self,
        params: Mapping[str, np.ndarray],
        ruleset: str,
        options: Mapping[str, Any],
        *,
        greedy: bool = True,
    ) -> None:
        self.net = MLP({k: np.asarray(v, dtype=np.float64) for k, v in params.items()})
        rules = get(ruleset)
        opts = rules.normalise_options(dict(options))
        self.spec = spec_for(ruleset, opts, tuple(rules.seats(opts)))
        self.greedy = greedy

    def choose(
        self,
        ruleset: Ruleset[Any],
        state: Any,
        seat: str,
        decision: Decision,
        rng: random.Random,
        *,
        budget: float | None = None,
    ) -> str:
        view = ruleset.view(state, seat)
        obs = np.clip(self.spec.encoder.encode(view, decision), -OBS_BOUND, OBS_BOUND)
        menu = self.spec.actions.menu(decision, rng)
        mask = np.asarray(menu.mask, dtype=bool)
        fwd = self.net.forward(obs[None, :], mask[None, :])
        logp = fwd.logp[0]
        if self.greedy:
            return menu.order(int(logp.argmax()))
        # Inverse CDF on the bot's rng; a masked action adds 0 and is never the one that passes.
        cum = np.cumsum(np.exp(logp))
        u = rng.random() * cum[-1]
        return menu.order(int((cum > u).argmax()))
