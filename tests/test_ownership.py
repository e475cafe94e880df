"""Several server processes on one database: ownership, redirects, takeover (store/owners.py,
server/ownership.py; docs/deploy.md; rulings OW1-OW5).

Every test that takes `url` runs on an SQLite file and on a throwaway PostgreSQL cluster
(tests/postgres_fixture.py). A process's death is made by its heartbeat's age on a fake clock,
or, across real processes, by SIGKILL.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from fake_clock import FakeClock
from gladiator.server.connection import CLOSE_MOVED, Connection
from gladiator.server.hub import Elsewhere, Hub
from gladiator.server.loadtest import sample_order, server_process
from gladiator.server.ownership import Ownership, OwnershipPolicy
from gladiator.store import NotOwner, Store
from gladiator.store.owners import Peer
from server_helpers import Client, arena, new_match

SEED = 5


def _ownership(store: Store, name: str, clock: FakeClock) -> Ownership:
    return Ownership(store, f"http://{name}.test:8000", OwnershipPolicy(1.0, 5.0), clock)


async def _human_match(hub: Hub) -> str:
    made = await hub.create("quick", {}, {"red": "human", "blue": "human"}, SEED)
    return made.live.id


async def _play(hub: Hub, match_id: str, orders: int) -> None:
    live = await hub.get(match_id)
    assert live is not None
    rng = random.Random(3)
    for _ in range(orders):
        seat = live.match.waiting_for()[0]
        answer = await live.order(seat, live.match.pending()[seat].sample(rng))
        assert answer["type"] == "ack", answer


def test_a_match_held_by_a_live_process_is_sent_there_and_let_go_on_a_clean_stop(
    url: str,
) -> None:
    """OW1, OW4, OW5."""
    clock = FakeClock()

    async def scenario(store: Store) -> tuple[str, Elsewhere, bool]:
        a = Hub(store, ownership=_ownership(store, "a", clock))
        b = Hub(store, ownership=_ownership(store, "b", clock))
        await a.resume_all()
        await b.resume_all()
        match_id = await _human_match(a)
        await _play(a, match_id, 2)
        with pytest.raises(Elsewhere) as sent:
            await b.get(match_id)
        a.stop()  # a clean stop lets its matches go at once
        taken = await b.get(match_id)
        ok = taken is not None and taken.seq == 2
        await _play(b, match_id, 1)
        b.stop()
        return match_id, sent.value, ok

    with Store(url) as store:
        match_id, sent, ok = asyncio.run(scenario(store))
        assert sent.url == "http://a.test:8000"
        assert str(sent) == f"match {match_id} is held by the server at http://a.test:8000"
        assert ok
        stored = store.load(match_id)
        assert stored is not None and len(stored.orders) == 3
        assert store.owners.peers() == []  # both retired


def test_a_process_whose_heartbeat_stopped_is_taken_over_and_fenced_off(url: str) -> None:
    """OW2: b takes a's match when a's heartbeat is older than the lease; a, which only
    stalled, can no longer store an order for it, lets it go and sends its sockets to b."""
    clock = FakeClock()

    async def scenario(store: Store) -> tuple[dict[str, Any], list[Any], int, bool]:
        a = Hub(store, ownership=_ownership(store, "a", clock))
        b = Hub(store, ownership=_ownership(store, "b", clock))
        await a.resume_all()
        await b.resume_all()
        match_id = await _human_match(a)
        await _play(a, match_id, 2)
        stale = a.live[match_id]
        conn = Connection("red")
        await stale.attach(conn, 0)
        clock.now += 6.0  # a says nothing for 6 s; b beats
        await asyncio.to_thread(b.ownership.beat)
        taken = await asyncio.to_thread(b.ownership.claim_orphans)
        assert taken == [match_id]
        await b._take_over(match_id)
        seat = stale.match.waiting_for()[0]
        order = stale.match.pending()[seat].sample(random.Random(1))
        refused = await stale.order(seat, order)
        sent = []
        while not conn.outbox.empty():
            sent.append(conn.outbox.get_nowait())
        kept = match_id in b.live and match_id not in a.live
        answer = await b.live[match_id].order(seat, order)
        a.stop()
        b.stop()
        return refused, sent, answer["type"] == "ack", kept

    with Store(url) as store:
        refused, sent, acked, kept = asyncio.run(scenario(store))
    assert refused["type"] == "error"
    assert "another server process holds the match now" in refused["message"]
    moved = [json.loads(m) for m in sent if isinstance(m, str) and '"moved"' in m]
    assert moved == [{"type": "moved", "url": None}]
    assert sent[-1] == CLOSE_MOVED
    assert acked and kept


def test_a_killed_process_on_this_host_is_dead_at_once_and_a_live_one_is_not(url: str) -> None:
    """OW3: its pid is gone, so no lease need run out; a neighbour that is alive keeps its
    matches however fresh the clock."""
    clock = FakeClock()
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    with Store(url) as store:
        me = _ownership(store, "me", clock)
        now = datetime.fromtimestamp(clock.now, UTC)
        gone = Peer("gone", "http://gone.test", me.host, child.pid, now)
        alive = Peer("alive", "http://alive.test", me.host, os.getppid(), now)
        elsewhere = Peer("far", "http://far.test", "another-host", child.pid, now)
        assert me.dead(gone)
        assert not me.dead(alive)
        assert not me.dead(elsewhere)  # another host's pid says nothing here
        clock.now += 5.5
        assert me.dead(elsewhere)


def test_two_processes_claiming_the_orphans_at_once_split_them(url: str) -> None:
    clock = FakeClock()

    async def make(store: Store, n: int) -> list[str]:
        creator = Hub(store, ownership=_ownership(store, "creator", clock))
        ids = [await _human_match(creator) for _ in range(n)]
        creator.stop()
        return ids

    with Store(url) as store:
        ids = asyncio.run(make(store, 12))
        a = _ownership(store, "a", clock)
        with Store(url) as other:
            b = _ownership(other, "b", clock)
            a.register()  # a process that claims has registered (Hub.resume_all)
            b.register()

            async def both() -> list[list[str]]:
                return list(
                    await asyncio.gather(
                        asyncio.to_thread(a.claim_orphans), asyncio.to_thread(b.claim_orphans)
                    )
                )

            got_a, got_b = asyncio.run(both())
    assert sorted(got_a + got_b) == sorted(ids)
    assert not set(got_a) & set(got_b)


def test_an_order_from_a_process_that_does_not_hold_the_match_is_refused(url: str) -> None:
    clock = FakeClock()

    async def scenario(store: Store) -> str:
        hub = Hub(store, ownership=_ownership(store, "a", clock))
        match_id = await _human_match(hub)
        hub.stop()
        return match_id

    with Store(url) as store:
        match_id = asyncio.run(scenario(store))
        with pytest.raises(NotOwner, match="another server process holds the match now"):
            store.add_order(match_id, 0, "red", "F", owner="someone-else")
        loaded = store.load(match_id)
        assert loaded is not None and loaded.orders == ()


def test_the_http_api_redirects_and_the_socket_says_moved(tmp_path: Path) -> None:
    """OW5 through real servers: two apps on one SQLite file."""
    db = f"sqlite:///{tmp_path / 'arena.db'}"
    with arena(db) as a, arena(db) as b:
        made = new_match(a.url, seats={"red": "human", "blue": "human"}, seed=SEED)
        match_id = made["id"]
        token = made["tokens"]["red"]
        headers = {"Authorization": f"Bearer {token}"}
        there = httpx.get(f"{b.url}/api/matches/{match_id}/view", headers=headers)
        assert there.status_code == 307
        assert there.headers["location"] == f"{a.url}/api/matches/{match_id}/view"
        assert there.json()["url"] == a.url
        # A client drops the token on a redirect to another origin (httpx and browsers do):
        # it asks the holder itself, with its token.
        followed = httpx.get(there.headers["location"], headers=headers)
        assert followed.status_code == 200 and followed.json()["seat"] == "red"
        ws_b = "ws" + b.url.removeprefix("http")
        with connect(f"{ws_b}/ws/{match_id}") as sock:
            sock.send(json.dumps({"type": "hello", "token": token, "last_event": 0}))
            assert json.loads(sock.recv(timeout=10)) == {"type": "moved", "url": a.url}
            with pytest.raises(Exception):  # noqa: B017 - the close, whatever the library calls it
                sock.recv(timeout=10)
            assert sock.close_code == CLOSE_MOVED


def test_kill_9_of_the_process_holding_a_match_loses_no_acknowledged_order(
    tmp_path: Path,
) -> None:
    """Two `gladiator serve` processes on one SQLite file. The match is made on one and played
    there; that one is killed with SIGKILL mid-match; the other takes it over (OW3: at once)
    and the match is played to its end. Every acknowledged order is in the stored match."""
    db = f"sqlite:///{tmp_path / 'arena.db'}"
    acked: dict[str, list[str]] = {}
    with (
        server_process(db, tmp_path / "first.log") as first,
        server_process(db, tmp_path / "second.log") as second,
    ):
        made = new_match(first.url, seats={"red": "human", "blue": "human"}, seed=SEED)
        match_id, tokens = made["id"], made["tokens"]
        rng = random.Random(8)
        for base, until in ((first.url, 6), (second.url, None)):
            # Six orders acknowledged by the first process, then the rest by the second.
            clients = [Client(base, match_id) for _ in tokens]
            for client, token in zip(clients, tokens.values(), strict=True):
                client.hello(token)
            _play_paced(clients, rng, until)
            for client in clients:
                seat = str(client.seat)
                acked.setdefault(seat, []).extend(
                    m["order"] for m in client.messages if m["type"] == "ack"
                )
                client.close()
            if until:
                first.kill()
                first.process.wait()  # reaped: its pid is gone, so the survivor takes over
    with Store(db) as store:
        stored = store.load(match_id)
    assert stored is not None and stored.status == "finished"
    for seat, orders in acked.items():
        kept = [order for who, order in stored.orders if who == seat]
        # Every acknowledged order is kept, in order; at most one more was stored whose ack
        # the kill cut off.
        assert _is_subsequence(orders, kept), (seat, orders, kept)
        assert len(kept) - len(orders) <= 1


def _play_paced(clients: list[Client], rng: random.Random, acks: int | None) -> None:
    """Random legal orders until `acks` are acknowledged (None: to the end), at most one every
    50 ms: under the server's 20 messages a second a socket (docs/web.md)."""
    end = time.monotonic() + 120

    def done() -> bool:
        if acks is None:
            return all(c.over for c in clients)
        return sum(m["type"] == "ack" for c in clients for m in c.messages) >= acks

    while not done():
        assert time.monotonic() < end, [(c.seat, c.outstanding, c.view) for c in clients]
        for c in clients:
            if c.my_turn():
                c.order(sample_order(c.view["decision"], rng))
                time.sleep(0.05)
            with contextlib.suppress(TimeoutError):
                c.recv(timeout=0.02)


def _is_subsequence(part: list[str], whole: list[str]) -> bool:
    rest = iter(whole)
    return all(any(x == y for y in rest) for x in part)
