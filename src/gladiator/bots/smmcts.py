"""The search bot: simultaneous-move Monte Carlo tree search with regret matching (SM-MCTS).

* **Simultaneous nodes.** Each node holds one `RegretMatcher` per pending seat; every seat draws
  its order from its own regret-matching strategy (with some uniform exploration) and learns
  from the one sampled payoff (outcome sampling). Regret matching rather than decoupled UCT: the
  orders are secret and simultaneous, and its average strategy tends to an equilibrium mix where
  UCT settles on one pure, readable order (`regret_matching`). A sequential step (one seat
  pending) is the same node with one matcher, or with `alone="ucb"` plain UCB1 (`ucb_selector`,
  MC11): with no secret to keep, the best order is a pure one.
* **Chance: open loop.** Dice are not nodes. Every iteration starts from a fresh
  `ruleset.determinize(state, seat, rng)` copy (never the true state: another seat's secret is
  drawn afresh) with fresh dice of the bot's own, and a node's child is found by the joint
  orders and by what the next decisions are (each pending seat, its decision's kind, prompt and
  size), so dice that lead to a different kind of decision (a combat instead of the next plot)
  lead to a different child, while rolls that only change numbers share one. Statistics thus
  average over the dice, as the player must.
* **Candidates and widening.** A seat's orders at a node are the prior bot's choice first (and
  at the root more draws of it, other bots' choices and a few neighbours of an allocation),
  then `decision.candidates`; only `widen_c * visits ** widen_alpha` of them are in play, so the
  few good guesses are tried often before the long tail enters.
* **Leaves.** Below `max_depth`, or at a node seen for the first time, a rollout: the rollout
  policy (the tactician in the Colosseum) for a few steps, random orders for a few more, then the
  ruleset's heuristic, squashed to -1..1 (a finished match: 1 won, -1 lost, 0 drawn).
* **Budget.** `budget` CPU seconds (time.process_time) a decision, the set-up included; or, with
  `iterations`, exactly that many iterations whatever the time (deterministic for a seeded rng).

The final order is drawn from the root's average strategy for the seat, after dropping orders
played less than `final_floor` as often as the most played (the mix without its noise).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from typing import Any

from gladiator.bots.base import Bot
from gladiator.bots.colosseum_leaf import colosseum_leaf
from gladiator.bots.opponent_belief import ModelBelief
from gladiator.bots.regret_matching import RegretMatcher
from gladiator.bots.search_candidates import candidate_orders
from gladiator.bots.search_config import SearchConfig, config_for
from gladiator.bots.ucb_selector import UCBSelector
from gladiator.core.decisions import ChooseOne, Decision, Distribute, IllegalOrder
from gladiator.core.dice import Dice
from gladiator.core.protocol import Ruleset

__all__ = ["SearchBot", "SearchStats"]

# Judgements of a position a ruleset's search may use instead of its heuristic.
LEAVES: dict[str, Callable[[Ruleset[Any], Any, str], float]] = {"colosseum": colosseum_leaf}

Signature = tuple[tuple[str, str, str, int], ...]
Selector = RegretMatcher | UCBSelector


def _signature(pending: Mapping[str, Decision]) -> Signature:
    out = []
    for seat in sorted(pending):
        d = pending[seat]
        if isinstance(d, ChooseOne):
            size = len(d.options)
        elif isinstance(d, Distribute):
            size = d.budget
        else:
            size = 0
        out.append((seat, type(d).__name__, d.prompt, size))
    return tuple(out)


class _Node:
    __slots__ = ("children", "matchers", "seats", "visits")

    def __init__(self, matchers: dict[str, Selector]) -> None:
        self.seats = tuple(sorted(matchers))
        self.matchers = matchers
        self.children: dict[tuple[tuple[str, ...], Signature], _Node] = {}
        self.visits = 0


class SearchStats:
    """What the last search did (for tests and reports)."""

    __slots__ = ("iterations", "root_mix", "root_orders", "seconds")

    def __init__(self) -> None:
        self.iterations = 0
        self.seconds = 0.0
        self.root_orders: list[str] = []
        self.root_mix: list[float] = []


def _bot(name: str) -> Bot:
    from gladiator.bots import make_bot  # the registry imports this module

    return make_bot(name)


class SearchBot(Bot):
    name = "search"

    def __init__(
        self,
        budget: float | None = None,
        *,
        iterations: int | None = None,
        config: SearchConfig | None = None,
        **options: Any,
    ) -> None:
        """`budget`: CPU seconds a decision when `choose` is given none (None: the ruleset's
        default); `iterations`: a fixed number of iterations instead of a time budget;
        `config`: the search's settings for every ruleset; `options`: changes to the ruleset's
        default settings (`SearchConfig` field names)."""
        self.budget = budget
        self.iterations = iterations
        self.config = config
        self.options = options
        self.stats = SearchStats()
        self._bots: dict[str, Bot] = {}
        self._beliefs: dict[str, ModelBelief] = {}  # per seat, for the match it plays (MC12)

    # -- the protocol ------------------------------------------------------------------------
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
        start = time.process_time()
        self.stats = SearchStats()
        only = decision.legal(2)
        if only is not None and len(only) == 1:
            return only[0]
        cfg = (self.config or config_for(ruleset.name)).with_options(**self.options)
        limit = budget if budget is not None else self.budget
        limit = cfg.budget if limit is None else limit
        if cfg.plan and self.iterations is None and ruleset.name == "colosseum":
            # Imported here: it brings in scipy, which the other rulesets' search does without.
            from gladiator.bots.colosseum_plan import ColosseumPlan, plays_here

            if plays_here(ruleset, state, seat, decision):
                deadline = start + limit * (1.0 - cfg.margin)
                belief = None
                if cfg.adapt:
                    belief = self._beliefs.get(seat)
                    if belief is None or belief.models != tuple(cfg.models):
                        belief = self._beliefs[seat] = ModelBelief(cfg.models)
                plan = ColosseumPlan(
                    self.bot,
                    cfg.models,
                    belief,
                    solitaire_plot=cfg.solitaire_plot,
                    followup=cfg.plot_followup,
                    draws=cfg.model_draws,
                    safety=cfg.safety,
                    known_safety=cfg.known_safety,
                )
                order = plan.choose(ruleset, state, seat, decision, rng, deadline, start + limit)
                self.stats.seconds = time.process_time() - start
                return order
        search = _Search(ruleset, seat, cfg, rng, self)
        root = search.root(state, decision)
        n = 0
        slowest = 0.0
        while True:
            if self.iterations is not None:
                if n >= self.iterations:
                    break
            else:
                now = time.process_time()
                # Stop when one more iteration as slow as the slowest so far (a new node asks
                # the prior bot) would pass the budget.
                if now - start + slowest > limit:
                    break
            t0 = time.process_time()
            search.iterate(state, root)
            slowest = max(slowest, time.process_time() - t0)
            n += 1
        order = search.final(root)
        self.stats.iterations = n
        self.stats.seconds = time.process_time() - start
        return order

    def bot(self, name: str) -> Bot:
        if name not in self._bots:
            self._bots[name] = _bot(name)
        return self._bots[name]


class _Search:
    def __init__(
        self,
        ruleset: Ruleset[Any],
        seat: str,
        cfg: SearchConfig,
        rng: random.Random,
        owner: SearchBot,
    ) -> None:
        self.ruleset = ruleset
        self.seat = seat
        self.cfg = cfg
        self.rng = rng
        self.owner = owner
        self.seats: set[str] = {seat}

    # -- the tree ------------------------------------------------------------------------------
    def root(self, state: Any, decision: Decision) -> _Node:
        copy = self.ruleset.determinize(state, self.seat, self.rng)
        pending = dict(self.ruleset.pending(copy))
        pending[self.seat] = decision  # mine as given; the others' as I can know them
        cfg = self.cfg
        matchers: dict[str, Selector] = {}
        for s in sorted(pending):
            d = pending[s]
            first = self._prior_orders(copy, s, d, cfg.prior, cfg.extra_priors)
            if s == self.seat and cfg.prior is not None:
                for _ in range(cfg.prior_variants):
                    sub = random.Random(self.rng.getrandbits(63))
                    first.append(self.owner.bot(cfg.prior).choose(self.ruleset, copy, s, d, sub))
            orders = candidate_orders(d, self.rng, cfg.root_limit, first, cfg.neighbours)
            matchers[s] = self._matcher(orders, bool(first), len(pending) == 1)
        self.seats.update(matchers)
        return _Node(matchers)

    def _prior_orders(
        self, state: Any, seat: str, decision: Decision, prior: str | None, extra: tuple[str, ...]
    ) -> list[str]:
        names = ([prior] if prior is not None else []) + list(extra)
        return [
            self.owner.bot(n).choose(self.ruleset, state, seat, decision, self.rng) for n in names
        ]

    def _matcher(self, orders: list[str], has_prior: bool, alone: bool) -> Selector:
        cfg = self.cfg
        if alone and cfg.alone == "ucb":  # MC11
            u = UCBSelector(c=cfg.ucb_c)
            for i, a in enumerate(orders):
                if i == 0 and has_prior:
                    u.add(a, cfg.prior_visits, cfg.prior_value)
                else:
                    u.add(a)
            return u
        m = RegretMatcher(orders)
        if has_prior and orders:
            m.regret[0] = cfg.prior_regret
        return m

    def _expand(self, state: Any, pending: Mapping[str, Decision]) -> _Node:
        cfg = self.cfg
        matchers = {}
        for s in sorted(pending):
            d = pending[s]
            first = self._prior_orders(state, s, d, cfg.prior if cfg.prior_inner else None, ())
            orders = candidate_orders(d, self.rng, cfg.inner_limit, first, cfg.inner_neighbours)
            matchers[s] = self._matcher(orders, bool(first), len(pending) == 1)
        self.seats.update(matchers)
        return _Node(matchers)

    def iterate(self, true_state: Any, root: _Node) -> None:
        state = self.ruleset.determinize(true_state, self.seat, self.rng)
        dice = Dice(self.rng.getrandbits(63), recording=False)
        self._descend(root, state, self.ruleset.pending(state), dice, 0)

    def _descend(
        self, node: _Node, state: Any, pending: Mapping[str, Decision], dice: Dice, depth: int
    ) -> dict[str, float]:
        cfg, rng, ruleset = self.cfg, self.rng, self.ruleset
        node.visits += 1
        active = max(1, math.ceil(cfg.widen_c * node.visits**cfg.widen_alpha))
        drawn: dict[str, int] = {}
        orders: dict[str, str] = {}
        for s in node.seats:
            m = node.matchers[s]
            i = m.draw(rng, cfg.explore, active)
            drawn[s] = i
            orders[s] = m.actions[i]
        for s, d in pending.items():
            if s not in orders or not _accepts(d, orders[s]):
                # Open loop: these dice gave a decision the node's orders do not fit.
                orders[s] = d.sample(rng)
        ruleset.apply(state, orders, dice, quiet=True)
        after = ruleset.pending(state)
        if not after or ruleset.outcome(state) is not None or depth + 1 >= cfg.max_depth:
            values = self._rollout(state, after, dice)
        else:
            key = (tuple(orders[s] for s in sorted(orders)), _signature(after))
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = self._expand(state, after)
                values = self._rollout_from(child, state, after, dice)
            else:
                values = self._descend(child, state, after, dice, depth + 1)
        for s, i in drawn.items():
            node.matchers[s].update(i, values.get(s, 0.0))
        return values

    def _rollout_from(
        self, node: _Node, state: Any, pending: Mapping[str, Decision], dice: Dice
    ) -> dict[str, float]:
        """A new node: its first orders (the prior's, as its matchers start), then a rollout."""
        node.visits += 1
        drawn = {}
        orders = {}
        for s in node.seats:
            m = node.matchers[s]
            i = m.draw(self.rng, self.cfg.explore, 1)
            drawn[s], orders[s] = i, m.actions[i]
        self.ruleset.apply(state, orders, dice, quiet=True)
        values = self._rollout(state, self.ruleset.pending(state), dice)
        for s, i in drawn.items():
            node.matchers[s].update(i, values.get(s, 0.0))
        return values

    def _rollout(self, state: Any, pending: Mapping[str, Decision], dice: Dice) -> dict[str, float]:
        ruleset, cfg, rng = self.ruleset, self.cfg, self.rng
        policy = self.owner.bot(cfg.rollout_policy) if cfg.rollout_policy else None
        steps = 0
        while pending and steps < cfg.rollout_policy_steps + cfg.rollout_steps:
            if policy is not None and steps < cfg.rollout_policy_steps:
                orders = {s: policy.choose(ruleset, state, s, d, rng) for s, d in pending.items()}
            else:
                orders = {s: d.sample(rng) for s, d in pending.items()}
            ruleset.apply(state, orders, dice, quiet=True)
            pending = ruleset.pending(state)
            steps += 1
        return self._values(state)

    def _values(self, state: Any) -> dict[str, float]:
        out = self.ruleset.outcome(state)
        if out is not None:
            return {
                s: (0.0 if not out.winners else 1.0 if s in out.winners else -1.0)
                for s in self.seats
            }
        scale = self.cfg.value_scale
        if self.cfg.leaf is not None:
            leaf = LEAVES[self.cfg.leaf]
            return {s: math.tanh(leaf(self.ruleset, state, s) / scale) for s in self.seats}
        return {s: math.tanh(self.ruleset.heuristic(state, s) / scale) for s in self.seats}

    # -- the answer ----------------------------------------------------------------------------
    def final(self, root: _Node) -> str:
        m = root.matchers[self.seat]
        if not m.visits:  # the set-up took the whole budget: the prior's choice
            return m.actions[0]
        mix = m.average()
        self.owner.stats.root_orders = list(m.actions)
        self.owner.stats.root_mix = mix
        top = max(mix)
        if self.cfg.final == "max" or isinstance(m, UCBSelector):
            return m.actions[mix.index(top)]
        kept = [
            (a, p) for a, p in zip(m.actions, mix, strict=True) if p >= self.cfg.final_floor * top
        ]
        x = self.rng.random() * sum(p for _, p in kept)
        for a, p in kept:
            x -= p
            if x < 0:
                return a
        return kept[-1][0]


def _accepts(decision: Decision, order: str) -> bool:
    try:
        return decision.validate(order) == order
    except IllegalOrder:
        return False
