"""The solver bot (bots.solver_bot): registered, legal, deterministic for a seeded rng, and the
tactician wherever the allocation solver does not model the decision (AS3)."""

from __future__ import annotations

import random

from gladiator.bots import BOTS, make_bot
from gladiator.bots.allocation_solver import modelled
from gladiator.bots.solver_bot import SolverBot, draw
from gladiator.bots.tactician.bot import TacticianBot
from gladiator.core.dice import Dice
from gladiator.registry import get
from solver_spots import spots


def test_registered() -> None:
    assert "solver" in BOTS
    assert isinstance(make_bot("solver"), SolverBot)


def test_draw_follows_the_mix() -> None:
    rng = random.Random(3)
    got = [draw(["a", "b"], [0.25, 0.75], rng) for _ in range(4000)]
    assert 0.22 < got.count("a") / len(got) < 0.28
    assert draw(["only"], [1.0], random.Random(0)) == "only"


def test_orders_validate_and_repeat_for_a_seed() -> None:
    rules = get("colosseum")
    for state, seat, decision in spots(11, 4):
        a = SolverBot().choose(rules, state, seat, decision, random.Random(42))
        b = SolverBot().choose(rules, state, seat, decision, random.Random(42))
        assert a == b
        assert decision.validate(a) == a


def _match(seed: int) -> list[str]:
    rules = get("colosseum")
    opts = rules.normalise_options({})
    seats = rules.seats(opts)
    dice = Dice(seed)
    state, _ = rules.initial_state(opts, dice)
    bots = {seats[0]: SolverBot(), seats[1]: TacticianBot()}
    rng = random.Random(seed)
    log: list[str] = []
    while rules.outcome(state) is None:
        pending = rules.pending(state)
        orders = {}
        for s, d in pending.items():
            orders[s] = bots[s].choose(rules, state, s, d, rng)
            assert d.validate(orders[s]) == orders[s]
            log.append(f"{s}:{orders[s]}")
        rules.apply(state, orders, dice, quiet=True)
    return log


def test_a_seeded_match_repeats() -> None:
    first = _match(21)
    assert first == _match(21)
    assert any(x.startswith("red:A-") or x.startswith("red:D-") for x in first)


def test_the_tactician_plays_what_is_not_modelled_advanced() -> None:
    """Advanced Game spots (styles: §19) go to the tactician, order for order."""
    rules = get("colosseum")
    opts = rules.normalise_options({"advanced": True})
    dice = Dice(4)
    state, _ = rules.initial_state(opts, dice)
    tactician = TacticianBot()
    seen = 0
    for _ in range(40):
        if rules.outcome(state) is not None:
            break
        pending = rules.pending(state)
        orders = {}
        for s, d in pending.items():
            assert not modelled(rules, state, s, d) or not any(
                g.style for g in state.gladiators.values()
            )
            mine = SolverBot().choose(rules, state, s, d, random.Random(seen))
            assert mine == tactician.choose(rules, state, s, d, random.Random(seen))
            orders[s] = mine
            seen += 1
        rules.apply(state, orders, dice, quiet=True)
    assert seen > 5


def test_plots_are_the_tacticians() -> None:
    rules = get("colosseum")
    opts = rules.normalise_options({})
    state, _ = rules.initial_state(opts, Dice(2))
    for s, d in rules.pending(state).items():
        assert not modelled(rules, state, s, d)
        assert SolverBot().choose(rules, state, s, d, random.Random(1)) == TacticianBot().choose(
            rules, state, s, d, random.Random(1)
        )
