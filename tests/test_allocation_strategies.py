"""The compact strategy sets (bots.allocation_strategies): legal for the decision, with the
tactician's choice and the extremes in."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gladiator.bots.allocation_strategies import Limits, neighbours, spread, strategy_set
from gladiator.bots.tactician.bot import TacticianBot
from gladiator.registry import get
from gladiator.rules.colosseum.combat.cf_allocation import parse_allocation
from solver_spots import spots

_SPOTS = [s for seed in (1, 2, 3, 4) for s in spots(seed, 12)]


def test_spots_are_varied() -> None:
    assert len(_SPOTS) >= 25
    assert len({s[2].budget for s in _SPOTS}) >= 4


@pytest.mark.parametrize("i", range(0, 25, 3))
def test_every_strategy_is_legal_section_9_3(i: int) -> None:
    state, seat, decision = _SPOTS[i]
    tactician = TacticianBot().choose(get("colosseum"), state, seat, decision, random.Random(i))
    got = strategy_set(decision, [tactician])
    assert got[0] == tactician
    assert 2 <= len(got) <= 80
    assert len(set(got)) == len(got)
    g = state.gladiators[seat]
    for order in got:
        assert decision.validate(order) == order
        parse_allocation(order, g.available)  # §9.3.1, §9.3.2
    # The extremes: all to defence evenly, and the largest single attack where he may attack.
    limits = Limits.of(decision)
    if g.may_attack and decision.budget > 0:
        top = min(limits.attack_max[0], decision.budget)
        assert any(f"A-HEAD:{top}" == o for o in got)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, len(_SPOTS) - 1), st.integers(0, 10_000))
def test_neighbours_are_legal(i: int, seed: int) -> None:
    _, _, decision = _SPOTS[i]
    limits = Limits.of(decision)
    start = decision.sample(random.Random(seed))
    al = parse_allocation(start, decision.budget)
    for attack, defence in neighbours(limits, al.attack, al.defence):
        text = (
            " ".join(
                [
                    f"A-{a}:{v}"
                    for a, v in zip(("HEAD", "CHEST", "GROIN", "ARMS", "LEGS"), attack, strict=True)
                    if v
                ]
                + [
                    f"D-{a}:{v}"
                    for a, v in zip(
                        ("HEAD", "CHEST", "GROIN", "ARMS", "LEGS"), defence, strict=True
                    )
                    if v
                ]
            )
            or "-"
        )
        decision.validate(text)
        assert abs(sum(attack) + sum(defence) - al.total) <= 1


def test_spread() -> None:
    assert spread(7, (1, 1, 1, 1, 1)) == [2, 2, 1, 1, 1]
    assert spread(5, (2, 2, 1, 1, 1)) == [1, 1, 1, 1, 1]
    assert spread(4, (1, 0, 0, 0, 0)) == [4, 0, 0, 0, 0]
    assert sum(spread(11, (2, 2, 1, 1, 1))) == 11
    assert spread(0, (1, 0, 0, 0, 0)) == [0] * 5
