"""How the simultaneous-move search plays each ruleset: judgement and thinking time, not rules.

The Colosseum's tactician is a strong but slow player (milliseconds an order), so it gives the
prior orders and plays the first steps of each rollout; the quick rules and the skirmish have
fast engines and long matches (hundreds of decisions), so they think briefly, start from the
greedy bot's choice, and judge by the ruleset's heuristic.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

__all__ = ["MODEL_DRAWS", "SAFETY", "SearchConfig", "config_for"]

MODEL_DRAWS = 4  # draws of each opponent model's allocation (its noise or its chart dice; MC6)
SAFETY = 0.3  # the weight of the payoff against the opponent's best reply (MC6)


@dataclass(frozen=True, slots=True)
class SearchConfig:
    budget: float = 0.05  # CPU seconds a decision, when the caller gives none
    prior: str | None = None  # the bot whose choice comes first among a seat's candidates
    extra_priors: tuple[str, ...] = ()  # more bots' choices at the root (opponent models)
    prior_variants: int = 0  # more draws of the prior (other rngs) at the root, for my seat
    prior_inner: bool = False  # the prior's choice first at inner nodes too (costly)
    prior_regret: float = 0.5  # the regret the prior's choice starts with (played first)
    root_limit: int = 16  # candidates per seat at the root
    inner_limit: int = 8  # candidates per seat below it
    neighbours: int = 6  # neighbours of the prior's allocation among the root's candidates
    inner_neighbours: int = 0  # and among an inner node's
    widen_c: float = 2.0  # progressive widening: c * visits ** alpha actions in play
    widen_alpha: float = 0.5
    alone: str = "rm"  # where one seat decides alone: "rm" regret matching, "ucb" UCB1 (MC11)
    ucb_c: float = 1.0  # UCB1's exploration constant (payoffs are -1..1)
    prior_visits: float = 0.0  # UCB1: virtual visits the prior's choice starts with
    prior_value: float = 0.0  # and the payoff each of them is worth
    explore: float = 0.2  # uniform exploration mixed into regret matching's strategy
    max_depth: int = 4  # tree depth (decisions); below it, the rollout
    rollout_policy: str | None = None  # bot playing the first rollout steps (None: random)
    rollout_policy_steps: int = 0
    rollout_steps: int = 4  # random steps after those, then the heuristic
    value_scale: float = 1.0  # heuristic h counts as tanh(h / value_scale)
    leaf: str | None = None  # a judgement of its own instead of `ruleset.heuristic` (LEAVES)
    final: str = "mix"  # "mix": draw from the average strategy; "max": its most played action
    final_floor: float = 0.1  # in "mix", actions under this share of the top one are dropped
    plan: bool = False  # the Colosseum duel's one-ply games (colosseum_plan, MC5) where they play
    models: tuple[str, ...] = ("tactician", "centurion")  # their opponent models (MC6, MC7)
    adapt: bool = False  # drop a model the opponent's revealed allocations rule out (MC12)
    solitaire_plot: str = "tactician"  # against a §29.3 seat: "tactician" (MC8) or "search"
    plot_followup: int = 0  # decisions the models play on after a plot's movement (MC7)
    model_draws: int = MODEL_DRAWS  # draws of each opponent model's allocation (MC6, MC13)
    safety: float = SAFETY  # the weight of his best reply in the allocation's LP (MC6, MC13)
    known_safety: float | None = None  # that weight once `adapt` leaves one model; None: safety
    margin: float = 0.15  # the share of the budget kept back for what follows the last sample

    def __post_init__(self) -> None:
        if self.model_draws < 1:
            raise ValueError(f"model_draws={self.model_draws}: at least 1")
        for name in ("safety", "known_safety"):
            w = getattr(self, name)
            if w is not None and not 0.0 <= w <= 1.0:
                raise ValueError(f"{name}={w}: a weight from 0 to 1")

    def with_options(self, **changes: Any) -> SearchConfig:
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


# MC11: one seat decides alone almost everywhere in the quick rules and the skirmish, so UCB1;
# greedy's choice tried first, and leaves judged at once by the heuristic (random rollouts only
# added noise).
_ALONE = SearchConfig(prior="greedy", alone="ucb", ucb_c=0.1, rollout_steps=0, value_scale=20.0)

_CONFIGS = {
    "colosseum": SearchConfig(
        budget=1.0,
        prior="tactician",
        extra_priors=("centurion",),
        prior_variants=1,
        prior_inner=True,
        prior_regret=2.0,  # leave the tactician's order only on clear evidence
        final="max",
        root_limit=6,
        inner_limit=4,
        neighbours=4,
        inner_neighbours=3,
        max_depth=2,
        rollout_policy="tactician",
        rollout_policy_steps=0,
        rollout_steps=0,
        value_scale=1.0,
        leaf="colosseum",
        plan=True,
        adapt=True,
    ),
    "quick": replace(_ALONE, budget=0.05, max_depth=3),
    "skirmish": replace(_ALONE, budget=0.1, max_depth=6),
}


def config_for(ruleset_name: str) -> SearchConfig:
    return _CONFIGS.get(ruleset_name, SearchConfig())
