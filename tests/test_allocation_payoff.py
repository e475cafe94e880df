"""The allocation solver's payoff model (bots.allocation_payoff, bots.attack_outcomes): exact
dice against hand-computed CRT and wound-table cases, and the phase model against the engine."""

from __future__ import annotations

import statistics

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gladiator.bots.allocation_payoff import PhaseModel, merge_sequence
from gladiator.bots.attack_outcomes import crt_distribution, drop_probability, hit_distribution
from gladiator.bots.position_value import DEFAULT_VALUE, zero_sum
from gladiator.core.dice import Dice
from gladiator.registry import get
from gladiator.rules.colosseum.combat.cf_allocation import Allocation
from gladiator.rules.colosseum.combat.sequence import attack_sequence, duel_plans
from gladiator.rules.colosseum.vocabulary import AREAS
from solver_spots import spots

# 3D6 counts of 216, by total
N3 = {3: 1, 4: 3, 5: 6, 6: 10, 7: 15, 8: 21, 9: 25, 10: 27, 11: 27, 12: 25}
N3.update({13: 21, 14: 15, 15: 10, 16: 6, 17: 3, 18: 1})


def _p(dist: tuple[tuple[float, str, int], ...], code: str) -> float:
    return sum(p for p, c, _ in dist if c == code)


def test_crt_column_3_by_hand_section_9_5() -> None:
    # 5 CF against 2 defence: column 3. T5 column 3 is H-2/H-1/H/H+1 on 12-18, F on 3, "-" on 4.
    d = crt_distribution(3, 0, True, True)
    assert _p(d, "H") == pytest.approx(sum(N3[r] for r in range(12, 19)) / 216)  # 81/216
    assert _p(d, "F") == pytest.approx(1 / 216)
    assert _p(d, "-") == pytest.approx(3 / 216)
    assert sum(p for p, _, _ in d) == pytest.approx(1.0)
    h_plus_1 = sum(p for p, c, m in d if c == "H" and m == 1)
    assert h_plus_1 == pytest.approx(1 / 216)  # only 18 reads H+1 in column 3


def test_crt_below_column_1_section_9_5_3() -> None:
    # 2 CF against 4: modified -2, column 1 with -3 on the roll: H needs 17+, F is 8 or less.
    d = crt_distribution(-2, 0, True, True)
    assert _p(d, "H") == pytest.approx((3 + 1) / 216)
    assert _p(d, "F") == pytest.approx(sum(N3[r] for r in range(3, 9)) / 216)  # 56/216


def test_crt_above_column_8_section_9_5_4() -> None:
    # modified 10: column 8 with +2: 3 -> 5 (P), 4 -> 6 (P*), the rest H; H+3 from 15 up.
    d = crt_distribution(10, 0, True, True)
    assert _p(d, "P") == pytest.approx(1 / 216)
    assert _p(d, "P*") == pytest.approx(3 / 216)
    assert _p(d, "H") == pytest.approx(212 / 216)
    assert sum(p for p, c, m in d if c == "H" and m == 3) == pytest.approx(20 / 216)


def test_crt_conversions_section_9_6() -> None:
    # No shield: S and S* are parries; no weapon either: those parries are body hits.
    no_kit = crt_distribution(3, 0, False, False)
    assert _p(no_kit, "S") == _p(no_kit, "P") == 0.0
    assert _p(no_kit, "H") == pytest.approx(1 - (1 + 3) / 216)


def test_wound_roll_by_hand_section_10_1() -> None:
    # No armour, H+0: no wound on 8 or less (T7), never a Kill (18 is 7 wounds).
    d = hit_distribution("chest", "-", True, 0, 3)
    assert sum(p for p, w, _, _ in d if w == 0) == pytest.approx(56 / 216)
    assert sum(p for p, w, _, _ in d if w < 0) == 0.0
    # H+3: a Kill on 19+, i.e. 3D6 of 16 or more.
    d3 = hit_distribution("chest", "-", True, 3, 3)
    assert sum(p for p, w, _, _ in d3 if w < 0) == pytest.approx(10 / 216)
    # Full armour A (-8, §10.2.1): a wound only on 17+.
    da = hit_distribution("chest", "A", True, 0, 3)
    assert sum(p for p, w, _, _ in da if w > 0) == pytest.approx(4 / 216)
    assert sum(p for p, *_ in d) == pytest.approx(1.0)


def test_drop_roll_note_section_13_1_1() -> None:
    # §13.1.1's NOTE: ST 3, 4 CF against 2, no arm losses: a 3D6 of 5 or less drops it.
    assert drop_probability(2, 3, 0) == pytest.approx((1 + 3 + 6) / 216)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(0, 8), min_size=5, max_size=5),
    st.lists(st.integers(0, 8), min_size=5, max_size=5),
)
def test_sequence_is_the_engines_section_9_4(a: list[int], b: list[int]) -> None:
    allocs = [Allocation(50, tuple(a)), Allocation(50, tuple(b))]
    engine = [
        [(p.side, p.rank, AREAS.index(p.area)) for p in s.attacks]
        for s in attack_sequence(duel_plans(allocs))
    ]
    state, seat, _ = _SPOT
    model = PhaseModel(state, seat)
    prepared = [model.prepare_split(side, x, (0,) * 5) for side, x in enumerate((a, b))]
    assert [p.written for p in prepared] == [tuple(a), tuple(b)]
    if all(g.posture == "standing" and not g.recovered_weapon for g in model.men):
        assert merge_sequence(prepared[0].planned, prepared[1].planned) == engine


_SPOT = next(
    s for s in spots(3, 8) if all(g.posture == "standing" for g in s[0].gladiators.values())
)


def _engine_mean(state, seat, mine: str, his: str, n: int) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    rules = get("colosseum")
    other = state.opponent(seat).seat
    v0 = zero_sum(DEFAULT_VALUE, state, seat, other)
    values = []
    for i in range(n):
        after = rules.clone(state)
        rules.apply(after, {seat: mine, other: his}, Dice(7_000 + i), quiet=True)
        values.append(zero_sum(DEFAULT_VALUE, after, seat, other) - v0)
    return statistics.fmean(values), statistics.stdev(values) / n**0.5


@pytest.mark.parametrize(
    ("mine", "his"),
    [("A-CHEST:8", "-"), ("A-HEAD:5", "-"), ("A-CHEST:8 D-HEAD:3", "A-HEAD:8 D-CHEST:3")],
)
def test_model_matches_the_engine_sections_9_to_13(mine: str, his: str) -> None:
    """The exact per-attack dice and the expected-loss phase (AS2) against 600 engine phases:
    within four standard errors."""
    state, seat, decision = _SPOT
    rules = get("colosseum")
    theirs = rules.pending(state)[state.opponent(seat).seat]
    mine, his = decision.validate(mine), theirs.validate(his)
    model = PhaseModel(state, seat)
    predicted = model.payoff(model.prepare(0, mine), model.prepare(1, his))
    mean, se = _engine_mean(state, seat, mine, his, 600)
    assert abs(predicted - mean) < 4 * se + 1e-3
    assert predicted != 0.0


def test_a_kill_is_worth_the_match() -> None:
    state, seat, _ = _SPOT
    model = PhaseModel(state, seat)
    value, _, killed = model._part(0, ("kill", None))
    assert killed
    assert value == pytest.approx(1.0 - model.v0)


def test_effects_are_zero_sum() -> None:
    state, seat, _ = _SPOT
    a, b = PhaseModel(state, seat), PhaseModel(state, state.opponent(seat).seat)
    ra, rb = a.row(0, 1, 4), b.row(1, 1, 4)  # seat's chest attack at modified 4, from both views
    assert ra[0] == pytest.approx(rb[0])
