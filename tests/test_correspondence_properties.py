"""Properties of correspondence play (CP1-CP3) under any interleaving of the players' orders
and the passing of time: the stand-in only ever plays a decision whose deadline has passed with
the seat still owing it, every match with "forfeit" ends at its first missed deadline, and what
is stored replays to the live match exactly (hypothesis; a fake wall clock)."""

from __future__ import annotations

import asyncio
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fake_clock import FakeClock
from gladiator.server.abandonment import AbandonPolicy
from gladiator.server.bot_pool import BotPolicy
from gladiator.server.hub import Hub
from gladiator.server.live_match import LiveMatch
from gladiator.store import Store
from gladiator.store.resume import rebuild
from gladiator.store.stored import StoredDeadline

LIMIT = 3600
SEATS = ("red", "blue")
# One thing at a time: a seat gives an order if it owes one, or the wall clock moves on.
MOVES = st.lists(
    st.one_of(
        st.tuples(st.just("order"), st.sampled_from(SEATS)),
        st.tuples(st.just("wait"), st.integers(1, 2 * LIMIT)),
    ),
    max_size=40,
)


async def _settle(live: LiveMatch) -> None:
    """Let a stand-in that was set going give its order."""
    for _ in range(200):
        if not live.bots.thinking:
            return
        await asyncio.sleep(0.005)
    raise AssertionError("a stand-in never gave its order")


async def _play(
    store: Store, then: str, seed: int, moves: list[tuple[str, object]]
) -> tuple[LiveMatch, list[tuple[str, float, float]], list[tuple[str, float]]]:
    clock = FakeClock()
    hub = Hub(store, AbandonPolicy(0, 0, clock), bots=BotPolicy(workers=0))
    deadline = StoredDeadline(LIMIT, then, "random" if then == "bot" else None)
    made = await hub.create("quick", {}, dict.fromkeys(SEATS, "human"), seed, deadline=deadline)
    live = made.live
    rng = random.Random(seed)
    owed: list[tuple[str, float, float]] = []  # (seat, decision's start, now) at each sweep
    missed: list[tuple[str, float]] = []  # (seat, deadline) passed with the seat still owing
    for kind, what in moves:
        if live.over:
            break
        if kind == "order" and what in live.match.waiting_for():
            assert isinstance(what, str)
            answer = await live.order(what, live.match.pending()[what].sample(rng))
            assert answer["type"] == "ack", answer
        elif kind == "wait":
            assert isinstance(what, int)
            clock.advance(what)
            owed += [(s, live.turn_since, clock.now) for s in live.match.waiting_for()]
            due = live.turn_since + LIMIT
            missed += [(s, due) for s in live.match.waiting_for() if due <= clock.now]
            await hub.keeper.sweep()
            await _settle(live)
    hub.stop()
    return live, owed, missed


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(then=st.sampled_from(["bot", "forfeit"]), seed=st.integers(0, 1000), moves=MOVES)
def test_deadlines_are_kept_whatever_the_players_do(
    then: str, seed: int, moves: list[tuple[str, object]]
) -> None:
    with Store("sqlite://") as store:
        live, owed, missed = asyncio.run(_play(store, then, seed, moves))
        stored = store.load(live.id)
        assert stored is not None
        late = store.late_orders(live.id)
        # Every stand-in order answers a deadline that had passed for a seat that owed it.
        passed = {(s, round(start + LIMIT, 3)) for s, start, now in owed if start + LIMIT <= now}
        given = {(stored.orders[seq][0], round(due.timestamp(), 3)) for seq, due in late}
        assert given <= passed
        if then == "bot":  # and every deadline that passed with the seat owing was answered
            assert {(s, round(due, 3)) for s, due in missed} <= given
        if then == "forfeit":
            assert not late
            missed = [s for s, start, now in owed if start + LIMIT <= now]
            assert (stored.status == "finished") == bool(missed) or live.match.finished
            if stored.status == "finished" and not live.match.finished:
                assert stored.outcome is not None
                assert missed[0] in stored.outcome["forfeit"]["seats"]
        # What is stored replays to the live match exactly (CP2: the order list is unchanged).
        again = rebuild(stored)
        assert again.steps == live.match.steps and again.events == live.match.events
