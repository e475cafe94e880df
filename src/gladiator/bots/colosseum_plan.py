"""The search bot's Colosseum duel player: one-ply games against opponent models (MC5-MC8).

Deep noisy rollouts of the Colosseum (1 s, two plies) played no better than the tactician they
started from. This plays each decision as a small game instead, solved exactly where it can be:

* **Allocation (§9.3).** The allocation solver's matrix game (compact sets, exact CRT, wound,
  critical and drop odds, the value of the position after; `allocation_solver`), with the
  opponent's likely orders added as columns: several draws of each model bot (the tactician's
  noise, the centurion's chart dice) on his own decision. The mix played maximises a blend of
  the worst model's expected payoff and the payoff against his best reply (a safety term, so a
  wrong model costs little): one LP (MC6).
* **Plot (§7.2).** Candidate plots (the model bots' own choices for my seat, then the
  decision's candidates) against each opponent model as a policy: for each pair, the plot is
  applied to a determinized copy with the bot's own dice, the opponent plots as the model would
  (after seeing mine under §29.3's `solitaire` option, before otherwise), movement is resolved,
  and the position after is judged by the fitted value function (`evaluation/value.py`).
  Samples go round the cells with common dice until the budget; the plot with the best worst
  model is played (MC7).

Both games drop a model that the opponent's revealed allocations have ruled out in this match
(`opponent_belief`, MC12).

Anything else (Advanced Game styles, specials, nets, teams, beasts, talents) is left to the
caller (the SM-MCTS search).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from scipy.optimize import linprog

from gladiator.bots.allocation_solver import (
    allocation_game,
    best_reply,
    modelled,
    opponent_decision,
)
from gladiator.bots.allocation_strategies import Limits
from gladiator.bots.base import Bot
from gladiator.bots.opponent_belief import ModelBelief
from gladiator.bots.search_config import MODEL_DRAWS, SAFETY
from gladiator.core.decisions import ChooseOne, Decision, Distribute, IllegalOrder
from gladiator.core.dice import Dice
from gladiator.core.protocol import Ruleset
from gladiator.rules.colosseum.evaluation.value import value
from gladiator.rules.colosseum.state import ColosseumState

__all__ = ["ColosseumPlan", "plays_here", "safe_exploit"]

MODELS = ("tactician", "centurion")  # the opponent models: the two heuristic Colosseum bots
PLOT_CANDIDATES = 10  # my plots weighed
PLOT_DRAWS = 3  # draws of each model bot's plot for my seat among them
ORACLE_POOL = 40  # the solver's double-oracle pool, smaller than its own 200 (speed)
ORACLE_ROUNDS = 2


def plays_here(ruleset: Ruleset[Any], state: Any, seat: str, decision: Decision) -> bool:
    """A two-man Colosseum duel decision this player takes: a modelled allocation (AS3) or a
    plot, both men being gladiators with no style, talent or beast (the Basic Game)."""
    if not isinstance(state, ColosseumState) or len(state.gladiators) != 2:
        return False
    if any(g.style or g.beast is not None or g.talents for g in state.gladiators.values()):
        return False
    if state.step == "plot":
        return isinstance(decision, ChooseOne)
    return isinstance(decision, Distribute) and modelled(ruleset, state, seat, decision)


def safe_exploit(
    m: np.ndarray, model_cols: Sequence[Sequence[int]], safety: float = SAFETY
) -> np.ndarray:
    """The row mix x maximising (1 - safety) * s + safety * t, where s is the least, over the
    models, of x's mean payoff against that model's columns and t the least payoff of x
    against any column (his best reply). safety = 1: the equilibrium; 0: the best reply to the
    worst model."""
    rows, cols = m.shape
    # Variables: x (rows), s, t. linprog minimises, so the objective is negated.
    c = np.zeros(rows + 2)
    c[rows] = -(1.0 - safety)
    c[rows + 1] = -safety
    a_ub: list[np.ndarray] = []
    for group in model_cols:
        row = np.zeros(rows + 2)
        row[:rows] = -m[:, list(group)].mean(axis=1)
        row[rows] = 1.0  # s <= x' M q_model
        a_ub.append(row)
    for j in range(cols):
        row = np.zeros(rows + 2)
        row[:rows] = -m[:, j]
        row[rows + 1] = 1.0  # t <= x' M_j
        a_ub.append(row)
    a_eq = np.zeros((1, rows + 2))
    a_eq[0, :rows] = 1.0
    bounds = [(0.0, None)] * rows + [(None, None), (None, None)]
    res = linprog(
        c,
        A_ub=np.array(a_ub),
        b_ub=np.zeros(len(a_ub)),
        A_eq=a_eq,
        b_eq=[1.0],
        bounds=bounds,
        method="highs",
    )
    if res.status != 0:
        raise RuntimeError(f"safe-exploit LP failed: {res.message}")
    x = np.maximum(res.x[:rows], 0.0)
    return np.asarray(x / x.sum())


class ColosseumPlan:
    """Plays plots and Basic Game allocations for a search bot; `bot(name)` makes the models."""

    def __init__(
        self,
        bot: Callable[[str], Bot],
        models: Sequence[str] = MODELS,
        belief: ModelBelief | None = None,
        *,
        solitaire_plot: str = "tactician",
        followup: int = 0,
        draws: int = MODEL_DRAWS,
        safety: float = SAFETY,
        known_safety: float | None = None,
    ) -> None:
        """`belief`: what this match has shown of the opponent (MC12); None: every model
        always. `solitaire_plot`: against a seat that plots after mine (§29.3), "tactician"
        plays the tactician's plot (MC8), "search" weighs plots as everywhere else. `followup`:
        decisions played on by the models (the tactician for me) after the movement, before
        the position is judged. `draws`: draws of each model's allocation; `safety`: the weight
        of his best reply in the allocation's LP (MC6); `known_safety`: that weight once the
        belief has narrowed the models to one (None: `safety` still)."""
        self.bot = bot
        self.models = tuple(models)
        self.belief = belief
        self.solitaire_plot = solitaire_plot
        self.followup = followup
        self.draws = draws
        self.safety = safety
        self.known_safety = known_safety

    def _models(self, state: ColosseumState, other: str) -> tuple[str, ...]:
        """The opponent models still in the game (MC12)."""
        if self.belief is None:
            return self.models
        self.belief.seen(state, other)
        return self.belief.plausible()

    def choose(
        self,
        ruleset: Ruleset[Any],
        state: ColosseumState,
        seat: str,
        decision: Decision,
        rng: random.Random,
        deadline: float,
        hard: float | None = None,
    ) -> str:
        """`deadline`: when sampling stops (process time); `hard`: the budget's end, which not
        even the first round of plot samples may pass (None: that round always runs)."""
        if isinstance(decision, Distribute):
            return self.allocate(ruleset, state, seat, decision, rng)
        assert isinstance(decision, ChooseOne)
        other = state.opponent(seat).seat
        if other not in ruleset.pending(state) and self.solitaire_plot == "tactician":
            # MC8: he plots after mine is revealed (§29.3, option `solitaire`): the tactician's.
            return self.bot(self.models[0]).choose(ruleset, state, seat, decision, rng)
        return self.plot(ruleset, state, seat, decision, rng, deadline, hard)

    # -- the allocation ------------------------------------------------------------------------
    def allocate(
        self,
        ruleset: Ruleset[Any],
        state: ColosseumState,
        seat: str,
        decision: Distribute,
        rng: random.Random,
    ) -> str:
        game = allocation_game(
            ruleset, state, seat, decision, oracle_pool=ORACLE_POOL, oracle_rounds=ORACLE_ROUNDS
        )
        model = game.model
        other = state.opponent(seat).seat
        theirs = opponent_decision(ruleset, state, other)
        rows = [model.prepare(0, t) for t in game.rows]
        cols = [model.prepare(1, t) for t in game.cols]
        m = game.matrix
        groups: list[list[int]] = []
        drawn: dict[str, list[str]] = {}
        safety = self.safety
        if theirs.slots:
            index = {c.text: j for j, c in enumerate(cols)}
            playing = self._models(state, other)
            # Every model is drawn, the ones left out too, so the belief keeps learning.
            for name in self.models:
                group = []
                drawn[name] = []
                for k in range(self.draws):
                    sub = random.Random(rng.getrandbits(63) ^ k)
                    try:
                        text = theirs.validate(
                            self.bot(name).choose(ruleset, state, other, theirs, sub)
                        )
                    except IllegalOrder:
                        continue
                    drawn[name].append(text)
                    if name not in playing:
                        continue
                    if text not in index:
                        index[text] = len(cols)
                        c = model.prepare(1, text)
                        cols.append(c)
                        m = np.hstack([m, np.array([[model.payoff(r, c)] for r in rows])])
                    group.append(index[text])
                if group:
                    groups.append(group)
            if self.belief is not None:
                self.belief.expect(state, other, drawn)
                if self.known_safety is not None and len(playing) == 1:
                    safety = self.known_safety  # MC13: one model left, exploit it harder
        if groups:
            # My best replies to each model's draws join the rows (hill climbing, AS5's oracle).
            limits = Limits.of(decision)
            texts = {r.text for r in rows}
            for group in groups:
                mix = np.zeros(len(cols))
                mix[group] = 1.0 / len(group)
                best, _ = best_reply(model, 0, mix, cols, rows, limits, 6)
                if best.text not in texts:
                    texts.add(best.text)
                    rows.append(best)
                    m = np.vstack([m, np.array([[model.payoff(best, c) for c in cols]])])
            x = safe_exploit(m, groups, safety)
        else:
            x = game.x
        u = rng.random()
        acc = 0.0
        for r, p in zip(rows, x, strict=True):
            acc += float(p)
            if u < acc:
                return decision.validate(r.text)
        return decision.validate(rows[int(np.argmax(x))].text)

    # -- the plot ------------------------------------------------------------------------------
    def plot(
        self,
        ruleset: Ruleset[Any],
        state: ColosseumState,
        seat: str,
        decision: ChooseOne,
        rng: random.Random,
        deadline: float,
        hard: float | None = None,
    ) -> str:
        first: dict[str, None] = {}
        # My own plot's candidates: both heuristic bots', whatever the models. A bot's plot can
        # take a fifth of a second in a crowded spot, so under a budget (`hard`) the draws stop
        # at the deadline, and the slowest of them is what a simulation (which asks a model
        # bot for his plot) is first expected to cost (MC15).
        slowest = 0.0
        for name in [MODELS[0]] * PLOT_DRAWS + [MODELS[1]]:
            t0 = time.process_time()
            if first and hard is not None and t0 + slowest > deadline:
                break
            sub = random.Random(rng.getrandbits(63))
            try:
                first.setdefault(
                    decision.validate(self.bot(name).choose(ruleset, state, seat, decision, sub)),
                    None,
                )
            except IllegalOrder:
                continue
            finally:
                slowest = max(slowest, time.process_time() - t0)
        for text in decision.candidates(rng, PLOT_CANDIDATES):
            if len(first) >= PLOT_CANDIDATES:
                break
            first.setdefault(text, None)
        plots = list(first)
        if len(plots) == 1:
            return plots[0]
        other = state.opponent(seat).seat
        models = self._models(state, other)
        totals = np.zeros((len(plots), len(models)))
        samples = 0  # slowest: the slowest candidate draw, then the slowest simulation so far
        while True:
            seed = rng.getrandbits(63)
            round_ = np.zeros_like(totals)
            done = True
            for j, name in enumerate(models):
                for i, mine in enumerate(plots):
                    t0 = time.process_time()
                    if not samples and hard is not None and t0 + slowest > hard:
                        # MC15: a first round too slow for the budget; the tactician's plot.
                        return plots[0]
                    if samples and t0 + slowest > deadline:
                        done = False  # a partial round is dropped: its dice were not common
                        break
                    sub = random.Random(seed ^ (j + 1))  # common dice across my plots
                    round_[i, j] = self._after_plot(ruleset, state, seat, other, mine, name, sub)
                    slowest = max(slowest, time.process_time() - t0)
                if not done:
                    break
            if not done:
                break
            totals += round_
            samples += 1
        mean = totals / samples
        score = mean.min(axis=1) + 0.25 * mean.mean(axis=1)
        return plots[int(np.argmax(score))]

    def _after_plot(
        self,
        ruleset: Ruleset[Any],
        state: ColosseumState,
        seat: str,
        other: str,
        mine: str,
        model: str,
        rng: random.Random,
    ) -> float:
        """The value to `seat` once movement is resolved after plot `mine`, the opponent
        plotting as `model` would (knowing mine only where §29.3 reveals it first)."""
        copy = ruleset.determinize(state, seat, rng)
        dice = Dice(rng.getrandbits(63), recording=False)
        opponent = self.bot(model)
        pending = ruleset.pending(copy)
        orders = {seat: mine}
        for s, d in pending.items():
            if s != seat:
                orders[s] = opponent.choose(ruleset, copy, s, d, rng)
        ruleset.apply(copy, orders, dice, quiet=True)
        if copy.step == "plot" and copy.early_plots:
            # §29.3: the solitaire seat plots now, having seen mine.
            pending = ruleset.pending(copy)
            late = {s: opponent.choose(ruleset, copy, s, d, rng) for s, d in pending.items()}
            ruleset.apply(copy, late, dice, quiet=True)
        me = self.bot(MODELS[0])
        for _ in range(self.followup):
            pending = ruleset.pending(copy)
            if not pending or ruleset.outcome(copy) is not None:
                break
            orders = {
                s: (me if s == seat else opponent).choose(ruleset, copy, s, d, rng)
                for s, d in pending.items()
            }
            ruleset.apply(copy, orders, dice, quiet=True)
        return value(copy, seat)
