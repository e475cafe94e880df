"""The search bot's Colosseum duel player (bots/colosseum_plan.py, rulings MC5-MC8): the safe
exploitation LP, where it plays, legal orders, and §29.3's order of plots in a solitaire match."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from gladiator.bots import make_bot
from gladiator.bots.base import Bot
from gladiator.bots.colosseum_plan import PLOT_DRAWS, ColosseumPlan, plays_here, safe_exploit
from gladiator.bots.opponent_belief import ModelBelief
from gladiator.bots.smmcts import SearchBot
from gladiator.core.decisions import Decision
from gladiator.core.dice import Dice
from gladiator.registry import get
from solver_spots import spots


def test_safe_exploit_is_the_equilibrium_at_full_safety() -> None:
    pennies = np.array([[1.0, -1.0], [-1.0, 1.0]])
    assert safe_exploit(pennies, [[0]], safety=1.0) == pytest.approx([0.5, 0.5], abs=1e-7)


def test_safe_exploit_is_the_best_reply_to_the_model_at_no_safety() -> None:
    pennies = np.array([[1.0, -1.0], [-1.0, 1.0]])
    assert safe_exploit(pennies, [[0]], safety=0.0) == pytest.approx([1.0, 0.0], abs=1e-7)
    assert safe_exploit(pennies, [[1]], safety=0.0) == pytest.approx([0.0, 1.0], abs=1e-7)


def test_safe_exploit_gives_up_a_greedy_reply_that_a_best_reply_punishes() -> None:
    # Row 0 gains most against the model (column 0) but loses 10 to column 1; row 1 is safe.
    m = np.array([[2.0, -10.0], [1.0, 0.5]])
    assert safe_exploit(m, [[0]], safety=0.0) == pytest.approx([1.0, 0.0], abs=1e-7)
    assert safe_exploit(m, [[0]], safety=0.3) == pytest.approx([0.0, 1.0], abs=1e-7)


def test_safe_exploit_takes_the_worst_of_several_models() -> None:
    # Row 0 is best against model A (col 0), row 1 against model B (col 1), row 2 fair to both.
    m = np.array([[3.0, -1.0], [-1.0, 3.0], [0.9, 0.9]])
    x = safe_exploit(m, [[0], [1]], safety=0.0)
    assert float(x @ m[:, 0]) == pytest.approx(1.0, abs=1e-6)
    assert float(x @ m[:, 1]) == pytest.approx(1.0, abs=1e-6)


def _start(options: dict[str, Any]) -> tuple[Any, Dice]:
    rs = get("colosseum")
    dice = Dice(5, recording=False)
    state, _ = rs.initial_state(rs.normalise_options(options), dice)
    return state, dice


def test_plays_the_basic_duel_and_nothing_else() -> None:
    rs = get("colosseum")
    state, _ = _start({})
    for seat, d in rs.pending(state).items():
        assert plays_here(rs, state, seat, d)  # the opening plot
    spot_state, seat, decision = spots(5, 1)[0]
    assert plays_here(rs, spot_state, seat, decision)
    styled, _ = _start({"advanced": True, "styles": ["myrmillo", "thracian"]})
    for seat, d in rs.pending(styled).items():
        assert not plays_here(rs, styled, seat, d)  # §19: the SM-MCTS search's
    quick = get("quick")
    qstate, _ = quick.initial_state(quick.normalise_options({}), Dice(1, recording=False))
    for seat, d in quick.pending(qstate).items():
        assert not plays_here(quick, qstate, seat, d)


def test_allocation_is_legal() -> None:
    rs = get("colosseum")
    plan = ColosseumPlan(make_bot)
    for state, seat, decision in spots(5, 3):
        order = plan.allocate(rs, state, seat, decision, random.Random(2))
        assert decision.validate(order) == order


class _Watching(Bot):
    """A bot (the centurion unless told), counting its decisions and noting for each plot it is
    asked for blue whether the other's plot was revealed."""

    def __init__(self, inner: str = "centurion") -> None:
        self.inner = make_bot(inner)
        self.saw: list[dict[str, str]] = []
        self.calls = 0

    def choose(
        self,
        ruleset: Any,
        state: Any,
        seat: str,
        decision: Decision,
        rng: random.Random,
        *,
        budget: float | None = None,
    ) -> str:
        self.calls += 1
        if state.step == "plot" and seat == "blue":
            self.saw.append(dict(state.early_plots))
        return self.inner.choose(ruleset, state, seat, decision, rng)


def test_solitaire_opponent_plots_after_my_plot_is_revealed() -> None:
    rs = get("colosseum")
    state, _ = _start({"solitaire": ["blue"]})
    pending = rs.pending(state)
    assert set(pending) == {"red"}  # §29.3: the gladiator plots first
    watcher = _Watching()
    plan = ColosseumPlan(lambda name: watcher if name == "centurion" else make_bot(name))
    order = plan.plot(rs, state, "red", pending["red"], random.Random(4), deadline=0.0)
    assert pending["red"].validate(order) == order
    assert watcher.saw and all(set(seen) == {"red"} for seen in watcher.saw)
    assert not state.early_plots  # the true state is never touched


def test_search_bot_plays_the_duel_by_its_plans_within_a_budget() -> None:
    rs = get("colosseum")
    state, _ = _start({"solitaire": ["blue"]})
    bot = SearchBot(0.05)
    decision = rs.pending(state)["red"]
    order = bot.choose(rs, state, "red", decision, random.Random(1))
    assert decision.validate(order) == order
    assert bot.stats.iterations == 0  # no SM-MCTS iteration: the one-ply plan played


def test_against_a_solitaire_seat_the_plot_is_the_tacticians() -> None:
    rs = get("colosseum")
    state, _ = _start({"solitaire": ["blue"]})
    decision = rs.pending(state)["red"]
    plan = ColosseumPlan(make_bot)
    order = plan.choose(rs, state, "red", decision, random.Random(8), deadline=0.0)
    tactician = make_bot("tactician").choose(rs, state, "red", decision, random.Random(8))
    assert order == tactician  # MC8: he answers my revealed plot; the one-ply game is not played


def test_a_solitaire_plot_may_be_weighed_with_a_follow_up() -> None:
    rs = get("colosseum")
    state, _ = _start({"solitaire": ["blue"]})
    decision = rs.pending(state)["red"]
    counts = {}
    for followup in (0, 4):
        counting = _Watching("tactician")
        plan = ColosseumPlan(
            lambda name, c=counting: c if name == "tactician" else make_bot(name),
            solitaire_plot="search",
            followup=followup,
        )
        order = plan.choose(rs, state, "red", decision, random.Random(8), deadline=0.0)
        assert decision.validate(order) == order
        counts[followup] = counting.calls
    # MC8 switched off: plots are weighed (the tactician is asked for candidates and as a model
    # of him), and each follow-up step asks the tactician for my orders too.
    assert counts[4] > counts[0] > 1


def test_each_model_is_drawn_as_often_as_told() -> None:
    """MC6, MC13: `draws` draws of every opponent model's allocation, whatever the belief."""
    rs = get("colosseum")
    state, seat, decision = spots(5, 3)[1]
    calls = {}
    for draws in (2, 7):
        counting = _Watching("centurion")
        plan = ColosseumPlan(
            lambda name, c=counting: c if name == "centurion" else make_bot(name), draws=draws
        )
        order = plan.allocate(rs, state, seat, decision, random.Random(3))
        assert decision.validate(order) == order
        calls[draws] = counting.calls
    assert calls == {2: 2, 7: 7}


def test_search_options_reach_the_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    """`SearchBot(model_draws=…, safety=…, known_safety=…)` configure the duel's games (MC13)."""
    rs = get("colosseum")
    state, seat, decision = spots(5, 3)[1]
    seen: dict[str, Any] = {}
    real = ColosseumPlan.__init__

    def spy(self: ColosseumPlan, *args: Any, **kw: Any) -> None:
        seen.update(kw)
        real(self, *args, **kw)

    monkeypatch.setattr(ColosseumPlan, "__init__", spy)
    SearchBot(0.05, model_draws=9, safety=0.5, known_safety=0.2).choose(
        rs, state, seat, decision, random.Random(1)
    )
    assert (seen["draws"], seen["safety"], seen["known_safety"]) == (9, 0.5, 0.2)


class _OneModel(ModelBelief):
    """A belief that has already narrowed the opponent to the tactician."""

    def plausible(self) -> tuple[str, ...]:
        return ("tactician",)


@pytest.mark.parametrize(("belief", "expected"), [(True, 0.05), (False, 0.3)])
def test_known_safety_applies_once_one_model_is_left(
    monkeypatch: pytest.MonkeyPatch, belief: bool, expected: float
) -> None:
    """MC13: with one model left in the belief the LP's safety weight is `known_safety`;
    without a belief (every model always) it stays `safety`."""
    import gladiator.bots.colosseum_plan as plan_module

    rs = get("colosseum")
    state, seat, decision = spots(5, 3)[1]
    weights: list[float] = []
    real = plan_module.safe_exploit

    def spy(m: Any, groups: Any, safety: float = 0.3) -> Any:
        weights.append(safety)
        return real(m, groups, safety)

    monkeypatch.setattr(plan_module, "safe_exploit", spy)
    b = _OneModel(("tactician", "centurion")) if belief else None
    plan = ColosseumPlan(make_bot, belief=b, safety=0.3, known_safety=0.05)
    order = plan.allocate(rs, state, seat, decision, random.Random(3))
    assert decision.validate(order) == order
    assert weights == [expected]


def test_a_first_round_past_the_budget_plays_the_tacticians_plot() -> None:
    """MC15: past the deadline the plan draws no more candidates than the first (the
    tactician's own plot), and when even one round of samples would pass the budget's end it
    plays that plot and simulates nothing."""
    rs = get("colosseum")
    state, _ = _start({})
    decision = rs.pending(state)["red"]
    calls = {}
    for hard in (None, 0.0):
        counting = _Watching("tactician")
        plan = ColosseumPlan(lambda name, c=counting: c if name == "tactician" else make_bot(name))
        order = plan.plot(rs, state, "red", decision, random.Random(8), deadline=0.0, hard=hard)
        assert decision.validate(order) == order
        calls[hard] = counting.calls
        if hard is not None:
            first = make_bot("tactician").choose(
                rs, state, "red", decision, random.Random(random.Random(8).getrandbits(63))
            )
            assert order == first
    assert calls[0.0] == 1  # one candidate draw, no model play
    assert calls[None] > PLOT_DRAWS  # without a budget: all three draws, then the simulations
