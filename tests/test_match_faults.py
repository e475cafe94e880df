"""An engine fault costs its decision, never the match (ruling HF1): `Match(atomic=True)` and
`Match.resolution`/`commit` apply a complete decision to a copy; a plain match reports the
fault and refuses to go on; a replay names the step that fails."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gladiator import registry
from gladiator.core.match import EngineFault, Match, NotYourTurn, ReplayMismatch
from gladiator.server.fault_injection import InjectedFault, faulty, inject

SHAPES: list[tuple[str, dict[str, Any]]] = [
    ("quick", {}),
    ("skirmish", {}),
    ("colosseum", {}),
    ("colosseum", {"advanced": True}),
    ("colosseum", {"advanced": True, "teams": "red+green:blue+gold"}),
]


def _play(m: Match, rng: random.Random, limit: int = 400) -> None:
    for _ in range(limit):
        if m.finished:
            return
        m.apply_step({s: d.sample(rng) for s, d in m.pending().items()})


@settings(max_examples=10, deadline=None)
@given(shape=st.sampled_from(SHAPES), seed=st.integers(0, 2**31))
def test_an_atomic_match_plays_exactly_as_a_plain_one(
    shape: tuple[str, dict[str, Any]], seed: int
) -> None:
    """HF1: applying each decision to a copy (clone and forked dice) changes nothing played."""
    name, options = shape
    rs = registry.get(name)
    plain = Match(rs, options, seed=seed, nonce="n")
    atomic = Match(rs, options, seed=seed, nonce="n", atomic=True)
    _play(plain, random.Random(seed))
    _play(atomic, random.Random(seed))
    assert atomic.record(reveal=True).to_dict() == plain.record(reveal=True).to_dict()


@pytest.fixture
def faulty_quick() -> Iterator[Any]:
    """Quick rules whose engine fails on any sidestep back-left (`SBL`)."""
    yield inject("quick", r"^SBL$")
    registry.unregister("quick")


def _other(d: Any, order: str, rng: random.Random) -> str:
    while (o := d.sample(rng)) == order:
        pass
    return str(o)


def _until_offered(m: Match, order: str, rng: random.Random) -> str:
    """Play random orders other than `order` until a seat is offered it; that seat."""
    for _ in range(500):
        for seat, d in m.pending().items():
            if order in (d.legal() or []):
                return seat
        m.apply_step({s: _other(d, order, rng) for s, d in m.pending().items()})
    raise AssertionError(f"{order} never offered")


def test_a_fault_leaves_an_atomic_match_at_its_last_good_state(faulty_quick: Any) -> None:
    """HF1: nothing of the failed decision is applied; its orders are voided; play goes on."""
    m = Match(faulty_quick, {}, seed=3, atomic=True)
    rng = random.Random(1)
    seat = _until_offered(m, "SBL", rng)
    before = (len(m.steps), len(m.events), m.dice.count, m.ruleset.state_hash(m.state))
    with pytest.raises(EngineFault) as caught:
        m.submit(seat, "SBL")
    fault = caught.value
    assert fault.step == before[0] and fault.orders == {seat: "SBL"}
    assert isinstance(fault.cause, InjectedFault) and "InjectedFault" in fault.reason
    after = (len(m.steps), len(m.events), m.dice.count, m.ruleset.state_hash(m.state))
    assert after == before
    assert m.waiting_for() == [seat]  # asked again
    m.submit(seat, "F" if "F" in (m.pending()[seat].legal() or []) else "E")
    assert len(m.steps) == before[0] + 1


def test_a_plain_match_reports_the_fault_and_stops(faulty_quick: Any) -> None:
    m = Match(faulty_quick, {}, seed=3)
    seat = _until_offered(m, "SBL", random.Random(1))
    with pytest.raises(EngineFault):
        m.submit(seat, "SBL")
    with pytest.raises(EngineFault):  # its state is half-applied: it goes no further
        m.check(seat, "F")


def test_a_resolution_is_committed_only_on_the_decision_it_completes() -> None:
    rs = registry.get("colosseum")
    m = Match(rs, {}, seed=5, atomic=True)
    pending = m.pending()
    first, last = list(pending)
    rng = random.Random(2)
    m.submit(first, pending[first].sample(rng))
    res = m.resolution(last, m.check(last, pending[last].sample(rng)))
    assert len(m.steps) == 0 and m.waiting_for() == [last]  # untouched until committed
    with pytest.raises(NotYourTurn):
        m.resolution(first, "anything")  # first has given its order: it completes nothing
    m.commit(res)
    assert len(m.steps) == 1 and m.steps[0] == res.orders
    with pytest.raises(NotYourTurn):
        m.commit(res)  # that decision is past


def test_a_replay_names_the_step_that_fails() -> None:
    """A record played before a fault was caught: the replay says which step and its orders."""
    rs = registry.get("quick")
    m = Match(rs, {}, seed=3, nonce="n")
    rng = random.Random(1)
    seat = _until_offered(m, "SBL", rng)
    m.submit(seat, "SBL")
    _play(m, rng)
    record = m.record(reveal=True)
    broken_at = next(i for i, s in enumerate(record.steps) if s.get(seat) == "SBL")
    twin = faulty(rs, r"^SBL$")
    with pytest.raises(ReplayMismatch) as caught:
        Match.replay(record, twin)
    assert caught.value.step == broken_at
    assert f"step {broken_at} ({seat}: SBL)" in str(caught.value)
