"""Property tests of the quick rules: random options, random seeds, random-legal (or aggressive)
play through the checked `Match` layer.

(1) every match ends within the QR12 bound; (2) the state invariants hold after every step
(§6.1, §2.1, §7.6, §7.7, §5.2.4, QR3, QR8, §10.5); (3) a record replays to the same final hash
and any tampering with it (an order, a roll, the seed) is caught; (4) the secret fate vote (QR6)
never shows in another seat's view before all votes are in; (5) every legal order costs what §5.2
says it costs; (6) the fast paths (quiet apply, clone, kept decisions) play as the plain ones.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from gladiator.core.dice import Dice
from gladiator.core.match import Match, ReplayMismatch
from gladiator.core.record import MatchRecord
from gladiator.registry import get
from gladiator.rules.quick import engine
from gladiator.rules.quick.engine import STEPS, arena_of
from gladiator.rules.quick.tables import tables
from quick_helpers import POLICIES, check_invariants, texts, views_without

RULES = get("quick")
CLASSES = ["heavy", "medium", "light", "retiarius", "random"]
FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@dataclass(frozen=True)
class Setup:
    options: dict[str, Any]
    seed: int
    rng_seed: int
    policy: str


@st.composite
def setups(draw: st.DrawFn, *, min_n: int = 2, fates: tuple[str, ...] = ()) -> Setup:
    n = draw(st.integers(min_n, 4))
    options = {
        "gladiators": draw(st.lists(st.sampled_from(CLASSES), min_size=n, max_size=n)),
        "fate": draw(st.sampled_from(fates or ("auto", "victor", "crowd", "vote"))),
        "max_rounds": draw(st.sampled_from([1, 2, 5, 15, 30, 60])),
        "strike_arc": draw(st.sampled_from(["front", "any"])),
        "net_casts_per_turn": draw(st.integers(1, 3)),
        "arena_side": draw(st.integers(4, 7)),
    }
    return Setup(
        options=options,
        seed=draw(st.integers(0, 2**63 - 1)),
        rng_seed=draw(st.integers(0, 2**32 - 1)),
        policy=draw(st.sampled_from(sorted(POLICIES))),
    )


def step_bound(m: Match) -> int:
    """QR12 and §5: at most max_rounds rounds of one turn per seat; a turn of k AP (k <= 7 for a
    light rolling 6) takes at most k orders plus E; and at most one fate per seat."""
    n = len(m.seats)
    return m.options["max_rounds"] * n * 8 + n


def play(setup: Setup, *, check: bool = True) -> tuple[Match, list[dict[str, list[str]]]]:
    """Play a match to the end; return it with the legal orders of each step's decisions."""
    m = Match(RULES, setup.options, seed=setup.seed, nonce="")
    rng = random.Random(setup.rng_seed)
    pick = POLICIES[setup.policy]
    arena = arena_of(m.state)
    legal_log: list[dict[str, list[str]]] = []
    bound = step_bound(m)
    if check:
        check_invariants(m.state, arena)
    while not m.finished:
        assert len(m.steps) <= bound, "the match outran the QR12 bound"
        pending = dict(m.pending())
        legal_log.append({s: texts(d) for s, d in pending.items()})
        for seat, decision in pending.items():
            m.submit(seat, pick(m.state, seat, decision, rng))
        if check:
            check_invariants(m.state, arena)
    return m, legal_log


# -- (1) and (2) ----------------------------------------------------------------------------------
@FAST
@given(setups())
def test_qr12_every_match_ends_and_invariants_hold_after_every_step(setup: Setup) -> None:
    """QR12: every match ends within max_rounds; §6.1/§2.1/§7.6/§7.7/QR3/§5.2.4/QR8/§10.5: the
    state invariants hold after every step (checked inside `play`)."""
    m, _ = play(setup)
    outcome = m.outcome
    assert outcome is not None
    assert len(m.steps) <= step_bound(m)
    standing = [f.seat for f in m.state.fighters.values() if f.fighting]
    if outcome.winners:
        assert list(outcome.winners) == standing  # the last one standing (§9.5, QR6)
    else:
        assert outcome.method == "time" and len(standing) >= 2  # QR12 draw
    assert RULES.pending(m.state) == {}
    event(f"n={len(m.seats)} end={outcome.method}")
    event(f"steps>={10 ** len(str(len(m.steps))) // 10}")


# -- (3) replay -----------------------------------------------------------------------------------
@FAST
@given(setups())
def test_records_replay_reproduces_the_match(setup: Setup) -> None:
    """Records: a finished match's JSON record replays to the same events, outcome and hash."""
    m, _ = play(setup, check=False)
    text = m.record().to_json()
    again = Match.replay(MatchRecord.from_json(text), RULES)
    assert RULES.state_hash(again.state) == RULES.state_hash(m.state) == m.record().final_hash
    assert again.outcome == m.outcome
    assert again.record().to_json() == text


@FAST
@given(setups(), st.sampled_from(["order", "illegal", "roll", "seed"]), st.randoms())
def test_records_replay_detects_a_tampered_record(
    setup: Setup, how: str, rnd: random.Random
) -> None:
    """Records: changing one order (to another legal one or to nonsense), one roll or the seed
    makes the replay fail with ReplayMismatch."""
    m, legal_log = play(setup, check=False)
    data = json.loads(m.record().to_json())
    if how in ("order", "illegal") and data["steps"]:
        i = rnd.randrange(len(data["steps"]))
        seat = rnd.choice(sorted(data["steps"][i]))
        others = [t for t in legal_log[i][seat] if t != data["steps"][i][seat]]
        data["steps"][i][seat] = rnd.choice(others) if how == "order" and others else "ZZZ"
    elif how == "roll" or not data["steps"]:
        roll = rnd.choice(data["rolls"])
        sides = int(roll["dice"].split("D")[1])
        k = rnd.randrange(len(roll["faces"]))
        face = roll["faces"][k]
        roll["faces"][k] = face % sides + 1
        roll["total"] += roll["faces"][k] - face
    else:
        data["seed"] += 1
    with pytest.raises(ReplayMismatch):
        Match.replay(MatchRecord.from_dict(data), RULES)


# -- (4) secrecy ----------------------------------------------------------------------------------
def play_checking_secrecy(setup: Setup) -> int:
    """Play, submitting secret decisions one seat at a time; after each submission every other
    seat's view (and the spectator's) must be unchanged but for who has submitted. Returns the
    number of secret submissions checked."""
    m = Match(RULES, setup.options, seed=setup.seed, nonce="")
    rng = random.Random(setup.rng_seed)
    pick = POLICIES[setup.policy]
    checked = 0
    while not m.finished:
        pending = dict(m.pending())
        secret = len(pending) > 1
        if secret:
            assert all(d.secret for d in pending.values())
        for seat, decision in pending.items():
            order = pick(m.state, seat, decision, rng)
            watchers = [s for s in (None, *m.seats) if s != seat]
            before = {s: m.view(s) for s in watchers}
            still_waiting = len(m.waiting_for()) > 1
            m.submit(seat, order)
            if secret and still_waiting:
                checked += 1
                assert m.view(seat)["my_order"] == decision.validate(order)
                for s in watchers:
                    after = m.view(s)
                    mine = before[s].get("my_order")
                    assert after.get("my_order") == mine  # a watcher's own vote, if any
                    assert views_without(after, "submitted", "waiting_for") == views_without(
                        before[s], "submitted", "waiting_for"
                    ), f"{seat}'s secret vote changed what {s} sees"
                    assert seat in after["submitted"] and seat not in after["waiting_for"]
    return checked


SECRET_FIGHTS = setups(min_n=3, fates=("auto", "vote"))


@FAST
@given(
    SECRET_FIGHTS.map(
        lambda s: Setup({**s.options, "max_rounds": 200}, s.seed, s.rng_seed, "aggressive")
    )
)
def test_qr6_secret_vote_never_shows_in_another_view(setup: Setup) -> None:
    """QR6: a fate vote with several voters is secret: until the last vote is in, no other seat's
    view nor the spectator's changes when a vote is given (so none can hold it)."""
    event(f"secret votes checked: {min(play_checking_secrecy(setup), 3)}+")


def test_qr6_secrecy_property_really_meets_votes() -> None:
    """QR6: the secrecy property above does meet secret votes (fixed seeds, aggressive play)."""
    total = 0
    for seed in range(6):
        opts = {"gladiators": ["random"] * (3 + seed % 2), "fate": "vote", "max_rounds": 300}
        total += play_checking_secrecy(Setup(opts, seed, seed, "aggressive"))
    assert total >= 6


# -- (5) costs ------------------------------------------------------------------------------------
def cost_of(order: str) -> int:
    t = tables().action_costs
    if order == "E":
        return 0
    if order in STEPS:
        return t.forward if order == "F" else t.other_step
    if order in ("L", "R"):
        return t.pivot
    return t.strike if order.startswith("ST") else t.net_cast


@FAST
@given(setups(), st.integers(0, 60))
def test_s5_2_every_legal_order_costs_what_the_table_says(setup: Setup, stop: int) -> None:
    """§5.2: from a position reached by play, every order offered to the active seat is affordable
    and, applied, takes exactly its cost in AP (unless it ends the turn or the match)."""
    m = Match(RULES, setup.options, seed=setup.seed, nonce="")
    rng = random.Random(setup.rng_seed)
    pick = POLICIES[setup.policy]
    while not m.finished and len(m.steps) < stop:
        for seat, decision in list(m.pending().items()):
            m.submit(seat, pick(m.state, seat, decision, rng))
    assume(not m.finished and m.state.phase == "act")
    seat = m.state.active
    for order in texts(m.pending()[seat]):
        trial = RULES.clone(m.state)
        before = (trial.ap, trial.round, trial.turn_index)
        assert cost_of(order) <= trial.ap
        RULES.apply(trial, {seat: order}, Dice(rng.getrandbits(32), recording=False))
        same_turn = (trial.round, trial.turn_index) == before[1:] and trial.phase != "over"
        if order == "E":
            assert not same_turn  # ending the turn passes it on (§4.1)
        elif same_turn:
            assert before[0] - trial.ap == cost_of(order), order


# -- (6) the fast paths play as the plain ones ----------------------------------------------------
@FAST
@given(setups())
def test_fast_paths_quiet_apply_clone_and_kept_decisions_change_nothing(setup: Setup) -> None:
    """Design §10, protocol `quiet`: at every step of a match, (a) a clone equals its original
    field for field and shares no fighter; (b) the decision `pending` gives (kept from an earlier,
    identical position where the gladiator stands alone) equals one built afresh from the rules;
    (c) a quiet apply on a clone leaves exactly the state and dice of the loud apply, and no
    events."""
    m = Match(RULES, setup.options, seed=setup.seed, nonce="")
    rng = random.Random(setup.rng_seed)
    pick = POLICIES[setup.policy]
    while not m.finished:
        state = m.state
        twin = RULES.clone(state)
        assert twin == state
        assert all(twin.fighters[s] is not f for s, f in state.fighters.items())
        pending = dict(m.pending())
        if state.phase == "act":
            seat = state.active
            assert pending[seat] == engine._act_decision(state, seat)
        orders = {s: pick(state, s, d, rng) for s, d in pending.items()}
        dice = m.dice.fork(recording=True)
        assert RULES.apply(twin, orders, dice, quiet=True) == []
        m.apply_step(orders)
        assert twin == m.state
        assert RULES.state_to_dict(twin) == RULES.state_to_dict(m.state)
        assert dice.log == m.dice.log
        assert dice.d(6, "next", "test") == m.dice.fork().d(6, "next", "test")
