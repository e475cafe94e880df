"""Store faults during play: retries with backoff (server/retry.py; issue 13, item 2; HC5, HC6).

The faults are injected where a real one comes from: the driver's own OperationalError, raised
on the cursor of the Store's engine as the database would raise it ("database is locked" from
SQLite, a closed connection from PostgreSQL), so the classification in `database_errors` is
tested with the hub. Every test that takes `url` runs on an SQLite file and on a throwaway
PostgreSQL cluster (tests/postgres_fixture.py).

Before the retries, one failed insert of a bot's order stalled its match until a restart: the
bot's task died with the error and nothing woke the bot again.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import time
from typing import Any

import psycopg
import pytest
from sqlalchemy import event
from sqlalchemy.exc import IntegrityError, OperationalError

from gladiator import registry
from gladiator.core.match import Match
from gladiator.server.hub import Hub
from gladiator.server.live_match import LiveMatch
from gladiator.server.retry import RetryPolicy, retrying
from gladiator.store import Store, StoredSeat, StoreError, StoreUnavailable
from gladiator.store.engine import database_errors
from gladiator.store.resume import rebuild

FAST = RetryPolicy(delays=(0.01, 0.02, 0.04), jitter=0.5, again_after=0.1)
BOTS = {"red": "bot:random", "blue": "bot:random"}
SEED = 11


class Faults:
    """Makes the store's inserts of orders fail as the database would: `fail_next` times, or
    until `outage_until` (a time.monotonic() value)."""

    def __init__(self, store: Store, url: str) -> None:
        self.driver_error: type[Exception] = (
            sqlite3.OperationalError if url.startswith("sqlite") else psycopg.OperationalError
        )
        self.message = (
            "database is locked"
            if url.startswith("sqlite")
            else "server closed the connection unexpectedly"
        )
        self.fail_next = 0
        self.outage_until = 0.0
        self.failed = 0
        self.inserts = 0
        event.listen(store._engine, "before_cursor_execute", self._before)

    def _before(self, _conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        if not statement.lstrip().upper().startswith("INSERT INTO ORDERS"):
            return
        self.inserts += 1
        if self.fail_next > 0 or time.monotonic() < self.outage_until:
            self.fail_next = max(0, self.fail_next - 1)
            self.failed += 1
            raise self.driver_error(self.message)


async def _until_over(live: LiveMatch, within: float = 60.0) -> None:
    """Wait for the match to end with its end stored; fail, saying where it stopped, if not."""
    deadline = time.monotonic() + within
    while not (live.match.finished and live.finish_stored):
        if time.monotonic() > deadline:
            raise AssertionError(
                f"match stalled at step {len(live.match.steps)}, waiting for "
                f"{live.match.waiting_for()} ({live.seq} orders stored)"
            )
        await asyncio.sleep(0.01)


def _stored_orders_are_the_matchs(store: Store, live: LiveMatch) -> None:
    """Every order the match took is stored once, and the stored match replays to its end."""
    stored = store.load(live.id)
    assert stored is not None and stored.status == "finished"
    record = live.match.record(reveal=True)
    assert len(stored.orders) == sum(len(step) for step in record.steps)
    assert rebuild(stored).record(reveal=True).to_dict() == record.to_dict()


def test_a_bots_order_the_store_fails_once_is_stored_on_a_retry_and_the_match_finishes(
    url: str,
) -> None:
    """The issue's finding: one transient store error on a bot's order (3 of 3 trials stalled)."""

    async def scenario(store: Store, faults: Faults) -> LiveMatch:
        hub = Hub(store, retry=FAST)
        faults.fail_next = 0
        made = await hub.create("quick", {}, BOTS, SEED)
        while made.live.seq < 3:  # fail the fourth order, mid-match
            await asyncio.sleep(0.001)
        faults.fail_next = 1
        await _until_over(made.live)
        hub.stop()
        return made.live

    for trial in range(3):
        with Store(url) as store:
            faults = Faults(store, url)
            live = asyncio.run(scenario(store, faults))
            assert faults.failed == 1, trial
            _stored_orders_are_the_matchs(store, live)


def test_an_outage_longer_than_every_retry_is_waited_out(url: str) -> None:
    """The delays run out (0.07 s in all) inside a 0.5 s outage: the bot's order is tried again
    `again_after` later, and again, until the database is back (HC5)."""

    async def scenario(store: Store, faults: Faults) -> tuple[LiveMatch, int]:
        hub = Hub(store, retry=FAST)
        made = await hub.create("quick", {}, BOTS, SEED)
        while made.live.seq < 2:
            await asyncio.sleep(0.001)
        faults.outage_until = time.monotonic() + 0.5
        await asyncio.sleep(0.55)
        during = faults.failed
        await _until_over(made.live)
        hub.stop()
        return made.live, during

    with Store(url) as store:
        faults = Faults(store, url)
        live, during = asyncio.run(scenario(store, faults))
        # Each try: 1 attempt + 3 retries; more than one try fits in 0.5 s at again_after 0.1.
        assert during >= 8
        _stored_orders_are_the_matchs(store, live)


def test_a_players_order_during_a_blip_is_acknowledged_not_refused(url: str) -> None:
    async def scenario(store: Store, faults: Faults) -> list[dict[str, Any]]:
        hub = Hub(store, retry=FAST)
        made = await hub.create("quick", {}, {"red": "human", "blue": "human"}, SEED)
        live = made.live
        answers = []
        for _ in range(4):
            seat = live.match.waiting_for()[0]
            order = live.match.pending()[seat].sample(random.Random(1))
            faults.fail_next = 2
            answers.append(await live.order(seat, order))
        hub.stop()
        return answers

    with Store(url) as store:
        faults = Faults(store, url)
        answers = asyncio.run(scenario(store, faults))
    assert [a["type"] for a in answers] == ["ack"] * 4
    assert faults.failed == 8


def test_a_players_order_in_a_long_outage_gets_an_error_and_can_be_sent_again(
    url: str,
) -> None:
    async def scenario(store: Store, faults: Faults) -> tuple[dict[str, Any], dict[str, Any]]:
        hub = Hub(store, retry=FAST)
        made = await hub.create("quick", {}, {"red": "human", "blue": "human"}, SEED)
        live = made.live
        seat = live.match.waiting_for()[0]
        order = live.match.pending()[seat].sample(random.Random(1))
        faults.fail_next = 10
        refused = await live.order(seat, order)
        faults.fail_next = 0
        again = await live.order(seat, order)
        hub.stop()
        return refused, again

    with Store(url) as store:
        faults = Faults(store, url)
        refused, again = asyncio.run(scenario(store, faults))
        assert faults.failed == 4  # the attempt and its three retries
    assert refused["type"] == "error"
    assert refused["message"].startswith("the order was not stored: cannot store order 0 of")
    assert again["type"] == "ack"


def test_a_commit_whose_answer_was_lost_is_not_stored_twice(url: str) -> None:
    """HC6: the order is committed but the call fails (a connection lost after COMMIT): the
    retry finds it stored, the same order at the same seq, and takes that as done."""

    with Store(url) as store:
        real = store.add_order
        lost = {"left": 2}

        def add_order_losing_answers(*args: Any, **kwargs: Any) -> None:
            real(*args, **kwargs)
            if lost["left"] > 0:
                lost["left"] -= 1
                raise StoreUnavailable("cannot store order: server closed the connection")

        store.add_order = add_order_losing_answers  # type: ignore[method-assign]

        async def scenario() -> LiveMatch:
            hub = Hub(store, retry=FAST)
            made = await hub.create("quick", {}, BOTS, SEED)
            await _until_over(made.live)
            hub.stop()
            return made.live

        live = asyncio.run(scenario())
        assert lost["left"] == 0
        _stored_orders_are_the_matchs(store, live)


def test_the_same_seq_with_another_order_is_still_refused(url: str) -> None:
    """HC6 takes back only what was sent: another order at a stored seq is a conflict."""
    with Store(url) as store:
        seats = [
            StoredSeat("red", "human", None, "a" * 64, "red"),
            StoredSeat("blue", "human", None, "b" * 64, "blue"),
        ]
        m = Match(registry.get("quick"), {}, seed=SEED)
        store.create_match(
            match_id="m1",
            ruleset="quick",
            options=m.options,
            seed=m.seed,
            nonce=m.nonce,
            commitment=m.commitment,
            seats=seats,
            spectator_hash="c" * 64,
        )
        store.add_order("m1", 0, "red", "F")
        store.add_order("m1", 0, "red", "F")  # the same: taken as already done
        with pytest.raises(StoreError, match="already stored"):
            store.add_order("m1", 0, "red", "B")
        with pytest.raises(StoreError, match="already stored"):
            store.add_order("m1", 0, "blue", "F")
        loaded = store.load("m1")
        assert loaded is not None and list(loaded.orders) == [("red", "F")]


def test_a_refusal_is_not_tried_again_and_unavailability_is() -> None:
    calls: list[str] = []
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    def refused() -> None:
        calls.append("refused")
        raise StoreError("cannot store order 3 of match m: the match is finished")

    def busy() -> None:
        calls.append("busy")
        raise StoreUnavailable("cannot store order 3 of match m: database is locked")

    policy = RetryPolicy(delays=(0.1, 0.2, 0.4), jitter=0.5, again_after=1.0)
    with pytest.raises(StoreError, match="finished"):
        asyncio.run(retrying(refused, policy=policy, what="m", sleep=sleep))
    assert calls == ["refused"] and slept == []
    with pytest.raises(StoreUnavailable, match="locked"):
        asyncio.run(retrying(busy, policy=policy, what="m", sleep=sleep))
    assert calls == ["refused"] + ["busy"] * 4
    # Backoff: each delay doubles, within its ±50% jitter.
    assert [round(s / d, 3) for s, d in zip(slept, policy.delays, strict=True)] == [
        pytest.approx(1.0, abs=0.5)
    ] * 3


def test_database_errors_say_which_may_pass() -> None:
    """HC5: the driver's OperationalError (locked, connection lost) may pass; a broken
    constraint is a refusal."""
    with (
        pytest.raises(StoreUnavailable, match=r"^storing: database is locked$"),
        database_errors("storing"),
    ):
        raise OperationalError("INSERT", {}, sqlite3.OperationalError("database is locked"))
    with (
        pytest.raises(StoreError) as refused,
        database_errors("storing", conflict="already stored"),
    ):
        raise IntegrityError("INSERT", {}, sqlite3.IntegrityError("UNIQUE failed"))
    assert not isinstance(refused.value, StoreUnavailable)
    assert str(refused.value) == "storing: already stored"


def test_retry_policies_out_of_range_are_refused() -> None:
    for bad in (
        {"delays": (-1.0,)},
        {"jitter": 1.5},
        {"again_after": 0.0},
    ):
        with pytest.raises(ValueError, match="retry delays"):
            RetryPolicy(**bad)  # type: ignore[arg-type]
