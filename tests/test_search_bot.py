"""The SM-MCTS search bot (bots/smmcts.py): legal orders, determinism under an iteration cap, no
peeking at secrets, regret matching's equilibrium, matches that end."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from gladiator.bots import BOTS, make_bot
from gladiator.bots.regret_matching import RegretMatcher
from gladiator.bots.search_candidates import distribute_neighbours
from gladiator.bots.smmcts import SearchBot
from gladiator.core.decisions import Distribute, Slot, SlotGroup
from gladiator.core.dice import Dice
from gladiator.registry import get
from gladiator.sim.search_eval import play_timed

RULESETS = ("quick", "skirmish", "colosseum")


def _advance(name: str, seed: int, steps: int) -> tuple[object, Dice]:
    """A state some random steps into a match."""
    rs = get(name)
    dice = Dice(seed, recording=False)
    state, _ = rs.initial_state(rs.normalise_options({}), dice)
    rng = random.Random(seed)
    for _ in range(steps):
        if rs.outcome(state) is not None:
            break
        rs.apply(state, {s: d.sample(rng) for s, d in rs.pending(state).items()}, dice, quiet=True)
    return state, dice


def test_registered_as_search() -> None:
    assert BOTS["search"] is SearchBot
    assert isinstance(make_bot("search"), SearchBot)


@pytest.mark.parametrize("name", RULESETS)
def test_orders_validate_for_every_ruleset(name: str) -> None:
    rs = get(name)
    bot = SearchBot(iterations=12)
    rng = random.Random(3)
    state, dice = _advance(name, 11, 0)
    searched = 0
    for _ in range(12):
        if rs.outcome(state) is not None:
            break
        orders = {}
        for seat, d in rs.pending(state).items():
            order = bot.choose(rs, state, seat, d, rng)
            assert d.validate(order) == order
            searched += bot.stats.iterations > 0
            orders[seat] = order
        rs.apply(state, orders, dice, quiet=True)
    assert searched > 0


@pytest.mark.parametrize("name", RULESETS)
def test_iteration_cap_is_exact_and_deterministic(name: str) -> None:
    rs = get(name)
    state, _ = _advance(name, 5, 2)
    seat, d = next(iter(rs.pending(state).items()))
    runs = []
    for _ in range(2):
        bot = SearchBot(iterations=25)
        order = bot.choose(rs, state, seat, d, random.Random(99))
        runs.append((order, bot.stats.iterations, bot.stats.root_orders, bot.stats.root_mix))
    assert runs[0] == runs[1]
    if d.legal(2) != [runs[0][0]]:  # a forced order needs no search
        assert runs[0][1] == 25


def test_more_iterations_change_the_root_statistics() -> None:
    rs = get("quick")
    state, _ = _advance("quick", 5, 2)
    seat, d = next(iter(rs.pending(state).items()))
    a, b = SearchBot(iterations=5), SearchBot(iterations=200)
    a.choose(rs, state, seat, d, random.Random(1))
    b.choose(rs, state, seat, d, random.Random(1))
    assert (a.stats.iterations, b.stats.iterations) == (5, 200)
    assert a.stats.root_mix != b.stats.root_mix


def _skirmish_secret_state() -> tuple[object, str, object]:
    """A skirmish state where a seat decides while the other's written move is unrevealed."""
    rs = get("skirmish")
    for seed in range(40):
        dice = Dice(seed, recording=False)
        state, _ = rs.initial_state(rs.normalise_options({}), dice)
        rng = random.Random(seed)
        for _ in range(200):
            if rs.outcome(state) is not None:
                break
            pending = rs.pending(state)
            for seat, d in pending.items():
                hidden = [
                    f
                    for f in state.fighters.values()  # type: ignore[attr-defined]
                    if f.seat != seat and f.alive and f.written and not f.revealed
                ]
                if hidden and len(d.legal(100) or []) > 1:
                    return state, seat, d
            rs.apply(state, {s: d.sample(rng) for s, d in pending.items()}, dice, quiet=True)
    raise AssertionError("no skirmish state with a hidden written move found")


def test_never_reads_another_seats_secret() -> None:
    from gladiator.rules.skirmish.engine import writable

    rs = get("skirmish")
    state, seat, d = _skirmish_secret_state()
    other = rs.clone(state)
    changed = 0
    for f in other.fighters.values():  # type: ignore[attr-defined]
        if f.seat != seat and f.written and not f.revealed:
            codes = [o.code for o in writable(other, f) if o.code != f.written]
            if codes:
                f.written = codes[-1]
                changed += 1
    assert changed and rs.state_hash(state) != rs.state_hash(other)
    for seed in (1, 2, 3):
        a, b = SearchBot(iterations=40), SearchBot(iterations=40)
        first = a.choose(rs, state, seat, d, random.Random(seed))
        second = b.choose(rs, other, seat, d, random.Random(seed))
        assert first == second
        assert a.stats.root_mix == b.stats.root_mix


def test_regret_matching_converges_to_the_known_mix() -> None:
    # Row payoffs [[2, -1], [-1, 1]], zero-sum: each side's equilibrium plays action 0 with 0.4.
    payoff = [[2.0, -1.0], [-1.0, 1.0]]
    row, col = RegretMatcher(["a", "b"]), RegretMatcher(["a", "b"])
    rng = random.Random(7)
    for _ in range(40_000):
        i, j = row.draw(rng, 0.2), col.draw(rng, 0.2)
        u = payoff[i][j]
        row.update(i, u)
        col.update(j, -u)
    assert row.average()[0] == pytest.approx(0.4, abs=0.04)
    assert col.average()[0] == pytest.approx(0.4, abs=0.04)


def test_regret_matching_finds_a_dominant_action() -> None:
    m = RegretMatcher(["bad", "good", "worse"])
    rng = random.Random(2)
    for _ in range(5_000):
        i = m.draw(rng, 0.1)
        m.update(i, {0: 0.0, 1: 1.0, 2: -1.0}[i])
    assert max(range(3), key=lambda k: m.average()[k]) == 1
    assert m.average()[1] > 0.8


def test_distribute_neighbours_are_legal_one_move_away() -> None:
    d = Distribute(
        prompt="p",
        budget=6,
        slots=(Slot("A", 4), Slot("B", 4), Slot("C", 4, step=2)),
        groups=(SlotGroup(("A", "B"), 5),),
    )
    out = distribute_neighbours(d, "A:3 B:2", random.Random(0))
    assert out and len(out) == len(set(out))
    base = d.parse("A:3 B:2")
    for order in out:
        assert d.validate(order) == order
        moved = sum(abs(v - base[k]) for k, v in d.parse(order).items())
        assert moved in (1, 2, 3, 4)  # one lot moved (C's lot is 2) or added
    assert "A:2 B:2 C:2" in out  # a point of A moved to C, which takes 2 at a time
    assert "A:4 B:2" not in out  # A and B may take 5 together


@pytest.mark.parametrize("name", RULESETS)
def test_matches_with_the_search_bot_end(name: str) -> None:
    rs = get(name)
    seats = rs.seats(rs.normalise_options({}))
    players = {seats[0]: SearchBot(iterations=3), seats[1]: make_bot("random")}
    winners, times, steps = play_timed(name, {}, 21, players, seats[0], None)
    assert steps > 0 and times
    assert set(winners) <= set(seats)


@pytest.mark.parametrize("mode", ["tuned", "default"])
def test_the_evaluation_runs_under_the_collector_it_names(mode: str, tmp_path: Path) -> None:
    """MC13: `search_eval` plays under the ladder's tuned collector unless told otherwise, says
    which in its JSON, and leaves the process's settings as it found them."""
    import gc
    import json

    from gladiator.sim.gctune import GEN0
    from gladiator.sim.search_eval import main

    before = gc.get_threshold()
    out = tmp_path / "eval.json"
    args = ["--ruleset", "quick", "--against", "random", "--bot", "greedy", "--seeds", "1"]
    main([*args, "--gc", mode, "--out", str(out)])
    report = json.loads(out.read_text())
    assert report["gc"]["mode"] == mode
    assert (report["gc"]["threshold"][0] == GEN0) == (mode == "tuned")
    assert report["runs"][0]["matches"] == 2
    assert gc.get_threshold() == before
