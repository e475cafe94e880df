"""Correspondence play (server/correspondence.py; docs/web.md, Correspondence; CP1-CP4): a
deadline for every decision, and its two consequences (the seat's stand-in bot plays that
decision, or the seat forfeits), applied by the process that holds the match, after a restart
and after a takeover.

The hubs run on a fake wall clock, moved by hand: no test waits for a deadline. Tests that take
`url` run on an SQLite file and on a throwaway PostgreSQL cluster (tests/postgres_fixture.py).
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from fake_clock import FakeClock
from gladiator.server.abandonment import AbandonPolicy
from gladiator.server.bot_pool import BotPolicy
from gladiator.server.correspondence import DeadlinePolicy, deadline_for, duration_text
from gladiator.server.hub import Hub
from gladiator.server.live_match import LiveMatch
from gladiator.server.ownership import Ownership, OwnershipPolicy
from gladiator.store import Store
from gladiator.store.stored import StoredDeadline

SEED = 5  # quick, seed 5: blue moves four times, then red
HUMANS = {"red": "human", "blue": "human"}
BOT_LATE = StoredDeadline(3600, "bot", "random")
FORFEIT_LATE = StoredDeadline(3600, "forfeit")


def _hub(store: Store, clock: FakeClock, ownership: Ownership | None = None) -> Hub:
    # No abandonment clock: a correspondence match has none anyway (CP4); bots in threads.
    return Hub(store, AbandonPolicy(0, 0, clock), ownership=ownership, bots=BotPolicy(workers=0))


async def _until(live: LiveMatch, done: object, what: str) -> None:
    for _ in range(500):
        if callable(done) and done():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"match {live.id}: {what} never happened")


def test_a_late_seat_has_its_decision_played_by_the_stand_in_bot_and_plays_on(url: str) -> None:
    """CP2: blue gives no order for an hour; the stand-in plays that one decision in blue's
    name, the order stored with the deadline it answered; the next decision is blue's again,
    its clock started when it was asked."""
    clock = FakeClock()

    async def scenario(store: Store) -> tuple[str, float, float]:
        hub = _hub(store, clock)
        made = await hub.create("quick", {}, HUMANS, SEED, deadline=BOT_LATE)
        live = made.live
        assert live.match.waiting_for() == ["blue"] and not live.silence.abandonable
        asked = live.turn_since
        clock.advance(3599)
        assert await hub.keeper.sweep() == 0  # a second early: nothing
        clock.advance(2)
        assert await hub.keeper.sweep() == 1
        await _until(live, lambda: len(live.match.steps) == 1, "the stand-in's order")
        assert live.match.waiting_for() == ["blue"]  # blue moves four times: the seat plays on
        assert live.turn_since == clock.now and not live.over
        assert live.view("blue")["deadline"] == {
            "seconds": 3600,
            "then": "bot",
            "due": clock.now + 3600,
            "bot": "random",
        }
        hub.stop()
        return live.id, asked, clock.now

    with Store(url) as store:
        match_id, asked, second = asyncio.run(scenario(store))
        stored = store.load(match_id)
        assert stored is not None and stored.status == "running" and len(stored.orders) == 1
        assert stored.turn is not None and stored.turn.waiting == ("blue",)
        assert stored.turn.since.timestamp() == pytest.approx(second, abs=1e-3)
        ((seq, due),) = store.late_orders(match_id)
        assert seq == 0 and due.timestamp() == pytest.approx(asked + 3600, abs=1e-3)


def test_a_late_seat_forfeits_when_the_creator_chose_forfeit(url: str) -> None:
    """CP3: the late seat loses by forfeit, reason "deadline"; the record keeps the rules'
    own outcome (none) and says who forfeited and why."""
    clock = FakeClock()

    async def scenario(store: Store) -> LiveMatch:
        hub = _hub(store, clock)
        made = await hub.create("quick", {}, HUMANS, SEED, deadline=FORFEIT_LATE)
        live = made.live
        rng = random.Random(2)
        while "red" not in live.match.waiting_for():  # blue's moves, each inside the deadline
            clock.advance(3000)
            answer = await live.order("blue", live.match.pending()["blue"].sample(rng))
            assert answer["type"] == "ack"
        assert await hub.keeper.sweep() == 0 and live.match.waiting_for() == ["red"]
        clock.advance(3601)
        assert await hub.keeper.sweep() == 1
        hub.stop()
        return live

    with Store(url) as store:
        live = asyncio.run(scenario(store))
        stored = store.load(live.id)
        assert stored is not None and stored.status == "finished"
        assert stored.outcome is not None
        assert stored.outcome["method"] == "forfeit" and stored.outcome["winners"] == ["blue"]
        assert stored.outcome["summary"].endswith("no order within the deadline of 1 h")
        forfeit = stored.outcome["forfeit"]
        assert forfeit["seats"] == ["red"] and forfeit["reason"] == "deadline"
        assert forfeit["deadline_seconds"] == 3600
        record = store.record(live.id)
        assert record is not None and record["forfeit"] == forfeit and record["outcome"] is None


@pytest.mark.parametrize("then", ["bot", "forfeit"])
def test_a_deadline_that_passed_while_the_server_was_down_is_applied_on_resume(
    url: str, then: str
) -> None:
    """CP1: the decision's start is stored, so a server started after the deadline passed
    applies it at its first sweep."""
    clock = FakeClock()
    deadline = BOT_LATE if then == "bot" else FORFEIT_LATE

    async def first(store: Store) -> str:
        hub = _hub(store, clock)
        made = await hub.create("quick", {}, HUMANS, SEED, deadline=deadline)
        hub.stop()
        return made.live.id

    async def after_restart(store: Store, match_id: str) -> None:
        hub = _hub(store, clock)
        await hub.resume_all()
        live = hub.live[match_id]
        assert await hub.keeper.sweep() == 1
        if then == "bot":
            await _until(live, lambda: len(live.match.steps) == 1, "the stand-in's order")
        hub.stop()

    with Store(url) as store:
        match_id = asyncio.run(first(store))
    clock.advance(2 * 3600)  # the server was down past the deadline
    with Store(url) as store:
        asyncio.run(after_restart(store, match_id))
        stored = store.load(match_id)
        assert stored is not None
        if then == "bot":
            assert stored.status == "running" and len(stored.orders) == 1
        else:
            assert stored.status == "finished" and stored.outcome is not None
            assert stored.outcome["forfeit"]["seats"] == ["blue"]


def test_the_process_that_takes_over_a_dead_ones_match_applies_its_deadline(
    tmp_path: Path,
) -> None:
    """CP1 with OW2: the match's process stops beating; the other takes the match over and its
    keeper plays the late seat's decision; the first never does."""
    clock = FakeClock()
    url = f"sqlite:///{tmp_path / 'arena.db'}"
    lease = OwnershipPolicy(heartbeat=1, lease=5)

    async def scenario(store: Store) -> tuple[str, int]:
        dead = _hub(store, clock, Ownership(store, "http://a", lease, clock))
        await dead.resume_all()
        made = await dead.create("quick", {}, HUMANS, SEED, deadline=BOT_LATE)
        # Frozen, as a kill -9 leaves it: no sweep, no heartbeat; its rows stay as they were.
        dead.keeper.stop()
        assert dead._beating is not None
        dead._beating.cancel()
        clock.advance(3601)
        alive = _hub(store, clock, Ownership(store, "http://b", lease, clock))
        await alive.resume_all()  # the dead one's heartbeat is an hour old: its matches go
        live = alive.live[made.live.id]
        applied = await alive.keeper.sweep()
        await _until(live, lambda: len(live.match.steps) == 1, "the stand-in's order")
        alive.stop()
        dead.bot_pool.close()
        return made.live.id, applied

    with Store(url) as store:
        match_id, applied = asyncio.run(scenario(store))
        assert applied == 1
        stored = store.load(match_id)
        assert stored is not None and len(stored.orders) == 1


def test_an_order_in_time_stops_the_clock_and_a_completed_decision_starts_the_next() -> None:
    clock = FakeClock()

    async def scenario(store: Store) -> None:
        hub = _hub(store, clock)
        made = await hub.create("quick", {}, HUMANS, SEED, deadline=FORFEIT_LATE)
        live = made.live
        clock.advance(3500)
        answer = await live.order("blue", live.match.pending()["blue"].sample(random.Random(1)))
        assert answer["type"] == "ack" and live.turn_since == clock.now
        clock.advance(3500)  # 7,000 s since creation, 3,500 since the decision was asked
        assert await hub.keeper.sweep() == 0 and not live.over
        hub.stop()

    with Store("sqlite://") as store:
        asyncio.run(scenario(store))


def test_what_a_server_refuses_as_a_deadline_is_said_in_one_line() -> None:
    policy = DeadlinePolicy()
    with pytest.raises(ValueError, match=r"must be 1 min to 30 d a decision, not 59 s"):
        deadline_for("quick", {}, 59, "bot", None, policy)
    with pytest.raises(ValueError, match="not 2592001 s"):
        deadline_for("quick", {}, 30 * 86400 + 1, "bot", None, policy)
    with pytest.raises(ValueError, match=r"§7\.5 reaction time"):
        deadline_for("colosseum", {"reaction_time": 10}, 3600, "bot", None, policy)
    with pytest.raises(ValueError, match="'level:LEVEL' or 'bot:NAME'"):
        deadline_for("quick", {}, 3600, "bot", "random", policy)
    with pytest.raises(ValueError, match="unknown level"):
        deadline_for("quick", {}, 3600, "bot", "level:godlike", policy)
    with pytest.raises(ValueError, match="plays or it forfeits"):
        deadline_for("quick", {}, 3600, "resign", None, policy)
    assert deadline_for("quick", {}, 3600, "forfeit", "bot:random", policy) == FORFEIT_LATE
    normal = deadline_for("quick", {}, 3600, "bot", None, policy)
    assert normal.then == "bot" and normal.bot  # the normal level's bot, by its spec
    assert deadline_for("quick", {}, 60, "bot", "bot:random", policy).bot == "random"
    with pytest.raises(ValueError, match="shortest deadline"):
        DeadlinePolicy(min_seconds=0)


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(0, "0 s"), (59, "59 s"), (90, "1 min 30 s"), (120, "2 min"), (3600, "1 h"),
     (5430, "1 h 30 min"), (86400, "1 d"), (86700, "1 d"), (90061, "1 d 1 h"),
     (30 * 86400, "30 d")],
)  # fmt: skip
def test_durations_read_as_a_player_reads_them(seconds: int, text: str) -> None:
    assert duration_text(seconds) == text


def test_a_match_with_a_stand_in_starts_the_bot_workers_at_once(tmp_path: Path) -> None:
    """CP2: the workers' fork server imports the bots first (seconds); a stand-in due soon
    after a start or a takeover must not wait for it, so they start with such a match, and
    not for a live match or a forfeit's."""
    clock = FakeClock()

    async def scenario(store: Store) -> list[bool]:
        started = []
        for deadline in (None, FORFEIT_LATE, BOT_LATE):
            hub = Hub(store, AbandonPolicy(0, 0, clock), bots=BotPolicy(workers=1))
            await hub.create("quick", {}, HUMANS, SEED, deadline=deadline)
            started.append(hub.bot_pool._executor is not None)
            hub.stop()
        return started

    with Store(f"sqlite:///{tmp_path / 'arena.db'}") as store:
        assert asyncio.run(scenario(store)) == [False, False, True]


def test_an_order_for_a_decision_the_stand_in_played_is_refused_not_applied_later() -> None:
    """CP9: blue's page still shows decision 0 when its deadline passes and the stand-in plays
    it; blue's order, naming decision 0, is refused and stored nowhere, where without the name
    it would have been taken as blue's order for decision 1."""
    clock = FakeClock()

    async def scenario(store: Store) -> None:
        hub = _hub(store, clock)
        made = await hub.create("quick", {}, HUMANS, SEED, deadline=BOT_LATE)
        live = made.live
        assert live.view("blue")["decision_number"] == 0
        order = live.match.pending()["blue"].sample(random.Random(5))
        clock.advance(3601)
        await hub.keeper.sweep()
        await _until(live, lambda: len(live.match.steps) == 1, "the stand-in's order")
        answer = await live.order("blue", order, "c1", step=0)
        assert answer["type"] == "error" and answer["reason"] == "stale"
        assert answer["decision_number"] == 1
        assert "decision 0, which is over" in answer["message"]
        assert len(live.match.steps) == 1 and live.seq == 1  # nothing stored
        fresh = live.match.pending()["blue"].sample(random.Random(6))
        assert (await live.order("blue", fresh, "c2", step=1))["type"] == "ack"
        hub.stop()

    with Store("sqlite://") as store:
        asyncio.run(scenario(store))


def test_a_process_that_lost_the_match_never_forfeits_it(tmp_path: Path) -> None:
    """CP3 with OW1: a process thought dead still holds the match in memory when another took
    it over; its keeper's forfeit is refused by the store, and it lets the match go; the owner
    applies the deadline."""
    clock = FakeClock()
    lease = OwnershipPolicy(heartbeat=1, lease=5)

    async def scenario(store: Store) -> tuple[str, str, bool]:
        stale = _hub(store, clock, Ownership(store, "http://a", lease, clock))
        await stale.resume_all()
        made = await stale.create("quick", {}, HUMANS, SEED, deadline=FORFEIT_LATE)
        stale.keeper.stop()
        assert stale._beating is not None
        stale._beating.cancel()  # a long pause: no heartbeat
        clock.advance(3601)
        owner = _hub(store, clock, Ownership(store, "http://b", lease, clock))
        await owner.resume_all()  # takes the match over
        owner.keeper.stop()  # its sweeps by hand, after the stale one's
        assert await stale.keeper.sweep() == 0
        status = store.load(made.live.id).status  # type: ignore[union-attr]
        let_go = made.live.id not in stale.live
        assert await owner.keeper.sweep() == 1
        owner.stop()
        stale.bot_pool.close()
        return made.live.id, status, let_go

    with Store(f"sqlite:///{tmp_path / 'arena.db'}") as store:
        match_id, status, let_go = asyncio.run(scenario(store))
        assert status == "running" and let_go
        stored = store.load(match_id)
        assert stored is not None and stored.status == "finished"
        assert stored.outcome is not None and stored.outcome["forfeit"]["reason"] == "deadline"
