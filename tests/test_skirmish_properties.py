"""Property tests of the skirmish rules: random options (2–4 gladiators of either sheet, apart or,
for two, engaged; small max_turns), random seeds, random-legal or aggressive play through the
checked `Match` layer.

(1) every match ends within its turn bound (SR9) and the outcome is §10's; (2) the state
invariants hold after every step (§2.6, §2.7.5, §6.11, §3, §4.3.2, §5.3, §7.2, §7.3, the net),
and every decision offers exactly what the rules allow; (3) a record replays exactly and a
tampered one is refused; (4) the written move is secret (§4.1): no view shows another seat's
written move before he performs it or it is read against an attack, and no view depends on it.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from gladiator.core import hexgrid as hg
from gladiator.core.match import Match, ReplayMismatch
from gladiator.core.record import MatchRecord
from gladiator.rules.skirmish import combat, engine
from gladiator.rules.skirmish.state import Fighter, SkirmishState
from gladiator.rules.skirmish.tables import tables
from skirmish_helpers import POLICIES, RULES, allowed_codes, legal

FAST = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SHEETS = ["thracian", "retiarius"]


@dataclass(frozen=True)
class Setup:
    options: dict[str, Any]
    seed: int
    rng_seed: int
    policy: str


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    n = draw(st.integers(2, 4))
    options: dict[str, Any] = {
        "gladiators": draw(st.lists(st.sampled_from(SHEETS), min_size=n, max_size=n)),
        "start": draw(st.sampled_from(["apart", "engaged"])) if n == 2 else "apart",
        "max_turns": draw(st.sampled_from([1, 4, 12, 30, 80])),
        "arena_side": draw(st.integers(4, 7)),
    }
    return Setup(
        options=options,
        seed=draw(st.integers(0, 2**63 - 1)),
        rng_seed=draw(st.integers(0, 2**32 - 1)),
        policy=draw(st.sampled_from(sorted(POLICIES))),
    )


def step_bound(m: Match) -> int:
    """SR9: at most max_turns turns; a turn is the write, the first/second choice, and per
    gladiator his act, hex or target, and facing decisions."""
    return m.options["max_turns"] * (2 + 3 * len(m.seats))


# -- what the rules allow (an oracle independent of engine._usable) --------------------------------
def expected_usable(state: SkirmishState, f: Fighter, code: str) -> bool:
    """§2.5.7 prohibited, §5.3 stun, §7.2 floored, the net's entangled list, Get up only from
    the floor, the struggle only in a net, a cast only with a net in hand, a reclaim only with a
    net in his own or an adjacent hex and none in hand (SR11)."""
    if code in f.prohibited or code not in allowed_codes(state, f):
        return False
    if code == "GU" and not f.floored:
        return False
    if code == "SG" and not f.entangled:
        return False
    if code == "CN" and not f.has_net:
        return False
    return not (
        code == "RN" and (f.has_net or not any(hg.distance(f.hex, h) <= 1 for h in state.nets))
    )


def expected_writable(state: SkirmishState, f: Fighter) -> list[str]:
    codes = [m.code for m in tables().sheets[f.sheet].moves] + ["SG"]
    return [c for c in codes if expected_usable(state, f, c)]


def check_decisions(state: SkirmishState) -> None:
    """Every decision offers what the rules allow: the write decision the usable moves (so a
    stunned, floored or entangled figure is offered only its allowed moves), the act decision
    the written move and its usable conversions (§2.5.6, §5.4; SR10 when he fell or was netted
    since writing), the facing decision the turns
    of the performed move (§8), never to a floored figure (§7.3)."""
    pending = RULES.pending(state)
    if state.phase == "over":
        assert pending == {}
        return
    if state.phase == "write":
        assert set(pending) == {s for s, f in state.fighters.items() if f.alive}
        for seat, d in pending.items():
            f = state.fighters[seat]
            assert d.secret  # §4.1
            got = legal(d)
            want = expected_writable(state, f)
            assert got == want, (seat, got, want, f)
            if f.stunned:
                assert all(engine.move_of(f, c).stun for c in got)  # §5.3
            if f.floored:
                assert set(got) <= set(tables().sheets[f.sheet].floored_moves) | {"SG"}  # §7.2
            if f.entangled:
                assert set(got) <= set(tables().matrix.net.entangled_moves)
        return
    assert list(pending) == [state.chooser]
    f = state.fighters[state.chooser]
    assert f.alive
    got = legal(pending[f.seat])
    assert not pending[f.seat].secret
    if state.phase == "first":
        assert got == ["FIRST", "SECOND"]
        assert sum(o.alive for o in state.fighters.values()) == 2  # §4.2.1
    elif state.phase == "act":
        written = engine.move_of(f, f.written)
        conv = [c for c in written.converted if expected_usable(state, f, c)]
        if expected_usable(state, f, f.written):
            assert got == [f.written, *conv], (got, conv)  # §2.5.6, §5.4, §7.2, the net
        elif conv:
            assert got == conv, (got, conv)  # SR10: fallen or netted since writing
        else:
            assert got == expected_writable(state, f)  # SR10: anything his state allows
        assert len(got) > 1  # with a single option the move is performed without asking
    elif state.phase == "facing":
        assert not f.floored  # §7.3
        m = engine.move_of(f, f.performed)
        assert got[0] == "KEEP" and 2 <= len(got) <= 2 * m.facing + 1  # §8
        for o in got[1:]:
            assert len(o) <= m.facing and set(o) <= {"R", "L"} and len(set(o)) == 1
            if m.turn != "any":
                assert o[0] == m.turn[0].upper()
    else:
        assert state.phase in ("hex", "target")
        assert len(state.offered) >= 2


def check_invariants(state: SkirmishState) -> None:
    arena = engine.arena_of(state)
    living = [f for f in state.fighters.values() if f.alive]
    hexes = [f.hex for f in living]
    assert len(hexes) == len(set(hexes)), f"two figures share a hex: {hexes}"  # §4.3.2
    for f in state.fighters.values():
        assert f.hex in arena, f"{f.seat} is off the arena at {f.hex}"  # §1.3
        assert 0 <= f.facing <= 5
        assert 8 <= f.max_hp <= 18 and f.hp <= f.max_hp  # §2.6
        assert 0 <= f.nicks <= 2 and 0 <= f.cuts <= 2 and 0 <= f.wounds <= 2  # §2.7.5
        assert f.stun_bank >= 0
        killed = f.hp <= 0 or "D result" in f.cause or "third wound" in f.cause
        assert (not f.alive) == killed, (f.seat, f.alive, f.hp, f.cause)  # §6.11
        assert f.alive or f.cause
        if f.alive:
            assert not f.cause
            assert combat.basic_initiative(f) <= tables().sheets[f.sheet].basic_initiative
        if f.nets_reclaimed:
            assert f.sheet == "retiarius"
    # SR11: every net is somewhere: in a hand, on the floor, or on an entangled man.
    nets = sum(f.has_net for f in state.fighters.values()) + len(state.nets)
    nets += sum(f.entangled for f in living)
    assert nets == sum(f.sheet == "retiarius" for f in state.fighters.values()), "a net was lost"
    assert (state.phase == "over") == (RULES.outcome(state) is not None)
    if state.phase == "over":
        assert all(state.fighters[w].alive for w in state.winners)  # §10
        if state.winners:
            assert list(state.winners) == [f.seat for f in living]
    else:
        assert len(living) >= 2
        assert state.turn <= state.options["max_turns"]


def play(setup: Setup, *, check: bool = True) -> tuple[Match, list[dict[str, list[str]]]]:
    """Play a match to the end through Match; return it with, for each step, the other legal
    orders of each seat that would show in the record's events (for a written move: one of
    another initiative, §4.2, since the initiative event shows the move's initiative)."""
    m = Match(RULES, setup.options, seed=setup.seed, nonce="")
    rng = random.Random(setup.rng_seed)
    pick = POLICIES[setup.policy]
    alternatives: list[dict[str, list[str]]] = []
    bound = step_bound(m)
    while True:
        if check:
            check_invariants(m.state)
            check_decisions(m.state)
        if m.finished:
            break
        assert len(m.steps) < bound, "the match outran its turn bound"
        pending = dict(m.pending())
        writing = m.state.phase == "write"
        orders = {s: pick(m, s, d, rng) for s, d in pending.items()}
        events = m.apply_step(orders)
        rolled = {e["seat"] for e in events if e["type"] == "initiative"}
        alt: dict[str, list[str]] = {}
        for s, d in pending.items():
            others = [o for o in legal(d) if o != orders[s]]
            if writing:
                f = m.state.fighters[s]
                init = engine.move_of(f, orders[s]).initiative
                others = [
                    o for o in others if s in rolled and engine.move_of(f, o).initiative != init
                ]
            alt[s] = others
        alternatives.append(alt)
    return m, alternatives


# -- (1) and (2) ----------------------------------------------------------------------------------
@FAST
@given(setups())
def test_sr9_s10_every_match_ends_and_invariants_hold_after_every_step(setup: Setup) -> None:
    """SR9, §10: every match ends within max_turns, won by the last alive or drawn on time; the
    invariants and the decisions' contents hold after every step (checked inside `play`)."""
    m, _ = play(setup)
    outcome = m.outcome
    assert outcome is not None and len(m.steps) <= step_bound(m)
    alive = [f.seat for f in m.state.fighters.values() if f.alive]
    if outcome.winners:
        assert list(outcome.winners) == alive
    elif alive:
        assert outcome.method == "time" and len(alive) >= 2
        assert m.state.turn == m.options["max_turns"] + 1
    else:
        assert outcome.method == "no survivor"
    event(f"n={len(m.seats)} end={outcome.method}")


def test_properties_meet_falls_nets_stuns_and_deaths() -> None:
    """The property play above does reach the states it checks (fixed seeds, aggressive play):
    stun turns, floored and entangled figures, reclaimed nets, all three causes of death."""
    seen: set[str] = set()
    for seed in range(40):
        n = 2 + seed % 3
        gladiators = [SHEETS[(seed + i) % 2] for i in range(n)]
        opts = {"gladiators": gladiators, "max_turns": 60, "arena_side": 4}
        m = Match(RULES, opts, seed=seed, nonce="")
        rng = random.Random(seed)
        while not m.finished:
            s = m.state
            seen |= {"stunned" for f in s.fighters.values() if f.stunned and f.alive}
            seen |= {"floored" for f in s.fighters.values() if f.floored and f.alive}
            seen |= {"entangled" for f in s.fighters.values() if f.entangled and f.alive}
            seen |= {"reclaimed" for f in s.fighters.values() if f.nets_reclaimed}
            check_decisions(s)
            m.apply_step({q: POLICIES["aggressive"](m, q, d, rng) for q, d in m.pending().items()})
        for f in m.state.fighters.values():
            seen |= {k for k in ("D result", "third wound", "no hit points") if k in f.cause}
    want = {"stunned", "floored", "entangled", "reclaimed", "D result", "third wound"}
    assert want | {"no hit points"} <= seen, seen


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
    m, alternatives = play(setup, check=False)
    data = json.loads(m.record().to_json())
    choices = [(i, s) for i, alt in enumerate(alternatives) for s in alt if alt[s]]
    if how == "order" and choices:
        i, seat = rnd.choice(choices)
        data["steps"][i][seat] = rnd.choice(alternatives[i][seat])
    elif how == "illegal" and data["steps"]:
        i = rnd.randrange(len(data["steps"]))
        seat = rnd.choice(sorted(data["steps"][i]))
        data["steps"][i][seat] = "ZZZ"
    elif how in ("roll", "order", "illegal"):
        roll = rnd.choice(data["rolls"])
        sides = int(roll["dice"].split("D")[1].split("+")[0])
        k = rnd.randrange(len(roll["faces"]))
        face = roll["faces"][k]
        roll["faces"][k] = face % sides + 1
        roll["total"] += roll["faces"][k] - face
    else:
        data["seed"] += 1
    with pytest.raises(ReplayMismatch):
        Match.replay(MatchRecord.from_dict(data), RULES)


# -- (4) secrecy ----------------------------------------------------------------------------------
def attacked(events: list[dict[str, Any]]) -> set[str]:
    """Seats whose move an attack (or a cast) has been cross-referenced against."""
    return {
        e["target"]
        for e in events
        if e["type"] in ("attack", "net")
        and "target" in e
        and e.get("result") != "out of reach"
        and not e.get("behind")  # §4.3.3 (b): from the rear the stand column is read instead
    }


def check_hidden(m: Match, read: set[str]) -> int:
    """§4.1: no view but his own shows a seat's written move before he performs it or it is
    read against an attack this turn. Returns the number of hidden moves checked."""
    checked = 0
    for viewer in (None, *m.seats):
        v = m.view(viewer)
        for shown, f in zip(v["fighters"], m.state.fighters.values(), strict=True):
            assert shown["seat"] == f.seat
            if f.seat == viewer:
                assert shown["written"] == f.written
            elif not f.performed and f.seat not in read:
                assert shown["written"] is None, (viewer, f.seat, f.written, m.state.phase)
                checked += bool(f.written)
    return checked


def views(m: Match, skip: str) -> dict[str | None, str]:
    return {s: json.dumps(m.view(s), sort_keys=True) for s in (None, *m.seats) if s != skip}


def twin_alternative(m: Match, seat: str, written: str) -> str | None:
    """Another legal written move for `seat` of the same initiative and S column as `written`
    (those the rules make public: §4.2 the totals are declared, §2.7.4 bleeding is seen)."""
    f = m.state.fighters[seat]
    a = engine.move_of(f, written)
    for c in legal(m.pending()[seat]):
        b = engine.move_of(f, c)
        if c != written and (b.initiative, b.stun) == (a.initiative, a.stun):
            return c
    return None


def play_checking_secrecy(setup: Setup) -> tuple[int, int]:
    """Play, submitting the written moves one seat at a time and checking after each submission
    that no other seat's view (nor the spectator's) changes but for who has submitted; after
    every step, that unperformed unread written moves are hidden; and at each write phase, that
    the views of every other seat are the same, step by step until that seat acts or is attacked,
    had one seat written another move (of equal initiative and stun column) with the same dice.
    Returns (hidden moves checked, twin steps compared)."""
    m = Match(RULES, setup.options, seed=setup.seed, nonce="")
    rng = random.Random(setup.rng_seed)
    pick = POLICIES[setup.policy]
    hidden = twins = 0
    read: set[str] = set()
    while not m.finished:
        pending = dict(m.pending())
        if m.state.phase == "write":
            read = set()
            orders = {s: pick(m, s, d, rng) for s, d in pending.items()}
            seat = rng.choice(sorted(orders))
            other = twin_alternative(m, seat, orders[seat])
            if other is not None:
                twins += compare_twins(setup, m, orders, seat, other, rng.getrandbits(32))
            for s, order in orders.items():
                watchers = [w for w in (None, *m.seats) if w != s]
                before = {w: m.view(w) for w in watchers}
                last = len(m.waiting_for()) == 1
                events = m.submit(s, order)
                if not last:
                    for w in watchers:
                        after = m.view(w)
                        for k in ("submitted", "waiting_for"):
                            after.pop(k), before[w].pop(k)
                        assert after == before[w], f"{s}'s written move changed what {w} sees"
        else:
            events = m.apply_step({s: pick(m, s, d, rng) for s, d in pending.items()})
        read |= attacked(events)
        hidden += check_hidden(m, read)
    return hidden, twins


def compare_twins(
    setup: Setup, m: Match, orders: dict[str, str], seat: str, other: str, rng_seed: int
) -> int:
    """Two copies of the match (the same seed, the same steps so far): one with `orders`, one
    with `seat` writing `other`. The other seats play on identically; until `seat` acts or is
    attacked, every other view must be the same json in both. Returns the steps compared."""
    a = Match(RULES, setup.options, seed=setup.seed, nonce="")
    b = Match(RULES, setup.options, seed=setup.seed, nonce="")
    for s in m.steps:
        a.apply_step(s)
        b.apply_step(s)
    first_a = a.apply_step(orders)
    first_b = b.apply_step({**orders, seat: other})
    if seat in attacked(first_a) | attacked(first_b):
        return 0  # read against an attack at once, in the step that revealed the moves
    rng = random.Random(rng_seed)
    pick = POLICIES[setup.policy]
    turn = a.state.turn
    compared = 0
    while True:
        fa, fb = a.state.fighters[seat], b.state.fighters[seat]
        if fa.performed or fb.performed or a.finished or b.finished:
            break  # he has acted (or the match is over) in one of the twins
        if turn not in (a.state.turn, b.state.turn) or a.state.turn != b.state.turn:
            break  # a turn ended: in one twin he acted without being asked
        assert views(a, seat) == views(b, seat), f"views depend on {seat}'s written move"
        compared += 1
        pending = dict(a.pending())
        if seat in pending:
            break  # his own decision: he acts now
        assert set(b.pending()) == set(pending)
        step = {s: pick(a, s, d, rng) for s, d in pending.items()}
        ea, eb = a.apply_step(step), b.apply_step(step)
        if seat in attacked(ea) | attacked(eb):
            break  # his written move has been read against an attack
    return compared


@FAST
@given(setups())
def test_s4_1_written_moves_are_secret_in_every_view(setup: Setup) -> None:
    """§4.1: moves are written secretly: no other seat's view nor the spectator's shows a written
    move before it is performed or read against an attack, none changes when a seat submits, and
    none depends on what a seat wrote (compared with a twin match, the same dice)."""
    hidden, twins = play_checking_secrecy(setup)
    event(f"hidden checked: {min(hidden, 10)}+, twin steps: {min(twins, 10)}+")


def test_s4_1_secrecy_property_really_meets_hidden_moves_and_twins() -> None:
    """§4.1: the secrecy property above does compare hidden moves and twin matches."""
    hidden = twins = 0
    for seed in range(4):
        opts = {"gladiators": SHEETS[: 2 + seed % 2] + ["thracian"] * (seed % 2), "max_turns": 6}
        h, t = play_checking_secrecy(Setup(opts, seed, seed, "aggressive"))
        hidden, twins = hidden + h, twins + t
    assert hidden >= 20 and twins >= 20, (hidden, twins)


def test_s4_1_twin_views_really_differ_for_the_writer() -> None:
    """(Sanity of the twin check) the writer's own view does show his written move, so the twin
    comparison would see it if it leaked into the others' views."""
    m = Match(RULES, {"start": "engaged"}, seed=3, nonce="")
    a = Match(RULES, {"start": "engaged"}, seed=3, nonce="")
    m.apply_step({"red": "SL", "blue": "ST"})
    a.apply_step({"red": "SS", "blue": "ST"})
    assert views(m, "blue")["red"] != views(a, "blue")["red"]
    assert views(m, "red") == views(a, "red")
