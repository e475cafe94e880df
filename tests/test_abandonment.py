"""The abandonment clocks (server/abandonment.py; docs/web.md, Abandoned matches; AB1-AB5).

The hub runs on a fake wall clock, moved by hand: no test sleeps. Every test that takes `url`
runs on an SQLite file and on a throwaway PostgreSQL cluster (tests/postgres_fixture.py).
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import httpx
import pytest
from alembic import command
from sqlalchemy import create_engine, event, text
from typer.testing import CliRunner

from fake_clock import FakeClock
from gladiator import registry
from gladiator.cli.main import app
from gladiator.core.match import Match
from gladiator.core.record import MatchRecord
from gladiator.core.seeding import commit
from gladiator.server import hub as hub_module
from gladiator.server.abandonment import AbandonPolicy
from gladiator.server.app import create_app
from gladiator.server.connection import Connection
from gladiator.server.hub import Hub
from gladiator.server.live_match import LiveMatch
from gladiator.store import SCHEMA_VERSION, Store, hash_token
from gladiator.store.schema import migrations_config

SEED = 5  # quick, seed 5: blue moves four times, then red


def _policy(clock: FakeClock, abandon: float = 600, void: float = 3600) -> AbandonPolicy:
    return AbandonPolicy(abandon, void, clock)


async def _play_until_waiting_for(live: LiveMatch, player: str, waited: str) -> None:
    """`player` gives random legal orders until the match waits for `waited`."""
    rng = random.Random(1)
    while waited not in live.match.waiting_for():
        order = live.match.pending()[player].sample(rng)
        answer = await live.order(player, order)
        assert answer["type"] == "ack", answer


def test_the_silent_seat_forfeits_after_abandon_after_and_the_match_leaves_memory(
    url: str,
) -> None:
    clock = FakeClock()

    async def scenario(store: Store) -> tuple[LiveMatch, dict[str, int], dict[str, int]]:
        hub = Hub(store, _policy(clock))
        made = await hub.create("quick", {}, {"red": "human", "blue": "human"}, SEED)
        live = made.live
        await _play_until_waiting_for(live, "blue", "red")
        clock.advance(599)
        early = await hub.abandoner.sweep()
        clock.advance(2)
        late = await hub.abandoner.sweep()
        assert live.id not in hub.live  # nobody watches: it left memory
        hub.stop()
        return live, early, late

    with Store(url) as store:
        live, early, late = asyncio.run(scenario(store))
        assert early == {"forfeit": 0, "void": 0}
        assert late == {"forfeit": 1, "void": 0}
        stored = store.load(live.id)
        assert stored is not None and stored.status == "finished"
        assert stored.outcome is not None
        assert stored.outcome["method"] == "forfeit"
        assert stored.outcome["winners"] == ["blue"]
        assert stored.outcome["forfeit"]["seats"] == ["red"]
        record = store.record(live.id)
    assert record is not None
    assert record["forfeit"]["seats"] == ["red"]
    assert record["forfeit"]["reason"] == "silent"
    assert record["forfeit"]["silent_seconds"] == 601.0
    # The rules did not end it: the record's own outcome is theirs (none), so it still replays.
    assert record["outcome"] is None
    replayed = Match.replay(MatchRecord.from_dict(record), registry.get("quick"))
    assert replayed.waiting_for() == ["red"]


def test_an_order_keeps_the_match_alive_and_an_ended_match_refuses_orders(url: str) -> None:
    clock = FakeClock()

    async def scenario(store: Store) -> tuple[dict[str, int], dict[str, Any]]:
        hub = Hub(store, _policy(clock))
        made = await hub.create("quick", {}, {"red": "human", "blue": "human"}, SEED)
        await _play_until_waiting_for(made.live, "blue", "red")
        clock.advance(500)
        await _play_until_waiting_for(made.live, "red", "blue")  # red acts: the clock restarts
        clock.advance(500)
        kept = await hub.abandoner.sweep()
        clock.advance(101)
        await hub.abandoner.sweep()
        again = await hub.get(made.live.id)
        assert again is not None and again.ended is not None
        refused = await again.order("red", "F")
        hub.stop()
        return kept, refused

    with Store(url) as store:
        kept, refused = asyncio.run(scenario(store))
    assert kept == {"forfeit": 0, "void": 0}
    assert refused["type"] == "error"
    assert refused["message"].startswith("the match is over: ")
    assert "forfeits: no move for 600 s" in refused["message"]


def test_a_match_nobody_played_is_voided_after_void_after(url: str) -> None:
    clock = FakeClock()

    async def scenario(store: Store) -> tuple[str, list[dict[str, int]]]:
        hub = Hub(store, _policy(clock))
        made = await hub.create("quick", {}, {"red": "human", "blue": "human"}, SEED)
        sweeps = []
        for step in (601, 3000):  # past abandon_after, then past void_after
            clock.advance(step)
            sweeps.append(await hub.abandoner.sweep())
        assert made.live.id not in hub.live
        hub.stop()
        return made.live.id, sweeps

    with Store(url) as store:
        match_id, sweeps = asyncio.run(scenario(store))
        assert sweeps == [{"forfeit": 0, "void": 0}, {"forfeit": 0, "void": 1}]
        stored = store.load(match_id)
        assert stored is not None and stored.status == "void"
        assert stored.outcome == {
            "winners": [],
            "method": "void",
            "summary": "void: no player did anything for 3600 s",
        }
        assert store.record(match_id) is None
        assert [m.id for m in store.list_matches(status="void")] == [match_id]


def test_a_connection_counts_as_playing(url: str) -> None:
    """Red only opened the match, blue never came: blue holds it up and forfeits (AB2)."""
    clock = FakeClock()

    async def scenario(store: Store) -> tuple[str, dict[str, int], list[Any]]:
        hub = Hub(store, _policy(clock))
        made = await hub.create("quick", {}, {"red": "human", "blue": "human"}, SEED)
        conn = Connection("red")
        await made.live.attach(conn, 0)
        clock.advance(601)
        swept = await hub.abandoner.sweep()
        assert made.live.id in hub.live  # red still watches
        made.live.detach(conn)
        assert made.live.id not in hub.live
        hub.stop()
        sent = []
        while not conn.outbox.empty():
            sent.append(json.loads(str(conn.outbox.get_nowait())))
        return made.live.id, swept, sent

    with Store(url) as store:
        match_id, swept, sent = asyncio.run(scenario(store))
        last = sent[-1]
        assert last["type"] == "update"  # red's socket is told the end
        assert last["view"]["outcome"]["method"] == "forfeit"
        assert last["view"]["waiting_for"] == [] and "decision" not in last["view"]
        assert swept == {"forfeit": 1, "void": 0}
        stored = store.load(match_id)
        assert stored is not None and stored.outcome is not None
        assert stored.outcome["forfeit"]["seats"] == ["blue"]
        assert stored.outcome["winners"] == ["red"]


def test_bot_matches_and_campaign_fights_have_no_clock(tmp_path: Path) -> None:
    clock = FakeClock()

    async def scenario(store: Store) -> tuple[list[str], dict[str, int]]:
        hub = Hub(store, _policy(clock))
        bots = await hub.create("quick", {}, {"red": "bot:random", "blue": "bot:random"}, 1)
        fight = await hub.create(
            "quick", {}, {"red": "human", "blue": "bot:random"}, 2, abandonable=False
        )
        for live in (bots.live, fight.live):
            live.stop()  # frozen where they stand: the clock alone could end them
        clock.advance(10**6)
        swept = await hub.abandoner.sweep()
        hub.stop()
        return [bots.live.id, fight.live.id], swept

    with Store(f"sqlite:///{tmp_path / 'a.db'}") as store:
        ids, swept = asyncio.run(scenario(store))
        assert swept == {"forfeit": 0, "void": 0}
        for match_id in ids:
            stored = store.load(match_id)
            assert stored is not None
            assert stored.abandonable is False and stored.status == "running"


def _count_statements(store: Store) -> list[str]:
    seen: list[str] = []
    event.listen(
        store._engine,
        "before_cursor_execute",
        lambda conn, cursor, statement, *rest: seen.append(statement),
    )
    return seen


def test_running_reads_every_running_match_in_three_queries(url: str) -> None:
    clock = FakeClock()

    async def make(store: Store) -> None:
        hub = Hub(store, _policy(clock))
        for i in range(12):
            made = await hub.create("quick", {}, {"red": "human", "blue": "human"}, i)
            rng = random.Random(i)
            for _ in range(2):
                seat = made.live.match.waiting_for()[0]
                await made.live.order(seat, made.live.match.pending()[seat].sample(rng))
        hub.stop()

    with Store(url) as store:
        asyncio.run(make(store))
        seen = _count_statements(store)
        matches, problems = store.running()
    assert problems == [] and len(matches) == 12
    assert [len(m.orders) for m in matches] == [2] * 12
    selects = [s for s in seen if s.lstrip().upper().startswith("SELECT")]
    assert len(selects) == 3, selects


def test_a_restart_rebuilds_no_voided_match_and_ends_the_overdue_ones(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = FakeClock()
    rebuilt: list[str] = []
    real_rebuild = hub_module.rebuild

    def counting_rebuild(stored: Any) -> Match:
        rebuilt.append(stored.id)
        return real_rebuild(stored)

    async def first_life(store: Store) -> tuple[list[str], str]:
        hub = Hub(store, _policy(clock))
        silent = [
            (await hub.create("quick", {}, {"red": "human", "blue": "human"}, i)).live.id
            for i in range(5)
        ]
        played = await hub.create("quick", {}, {"red": "human", "blue": "human"}, SEED)
        await _play_until_waiting_for(played.live, "blue", "red")
        hub.stop()  # the server stops before any clock ran out
        return silent, played.live.id

    async def second_life(store: Store) -> dict[str, LiveMatch]:
        hub = Hub(store, _policy(clock))
        await hub.resume_all()
        await hub.abandoner.sweep()  # as the sweep the resume starts does
        live = dict(hub.live)
        hub.stop()
        return live

    with Store(url) as store:
        silent, played = asyncio.run(first_life(store))
    clock.advance(3601)
    monkeypatch.setattr(hub_module, "rebuild", counting_rebuild)
    with Store(url) as store:
        live = asyncio.run(second_life(store))
        assert rebuilt == [played]  # the voided ones were never replayed
        assert live == {}
        assert {store.load(m).status for m in silent} == {"void"}  # type: ignore[union-attr]
        ended = store.load(played)
        assert ended is not None and ended.status == "finished"
        assert ended.outcome is not None and ended.outcome["winners"] == ["blue"]
        assert store.running() == ([], [])
    rebuilt.clear()
    with Store(url) as store:
        asyncio.run(second_life(store))
    assert rebuilt == []  # a third start has nothing at all to replay


def test_with_the_clocks_off_a_restart_resumes_everything(url: str) -> None:
    clock = FakeClock()

    async def life(store: Store) -> int:
        hub = Hub(store, _policy(clock, 0, 0))
        await hub.resume_all()
        if not hub.live:
            await hub.create("quick", {}, {"red": "human", "blue": "human"}, 1)
        await hub.abandoner.sweep()
        count = len(hub.live)
        hub.stop()
        return count

    with Store(url) as store:
        assert asyncio.run(life(store)) == 1
    clock.advance(10**6)
    with Store(url) as store:
        assert asyncio.run(life(store)) == 1


def _v3_database(url: str) -> None:
    """A database at migration 0003 (before the clocks) holding a lobby match a human played,
    one nobody played, a bot match, a finished match and a campaign's fight."""
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            command.upgrade(migrations_config(conn), "0003")
        with engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO campaigns (id, name, seed, seq, meta, created_at, updated_at) "
                    "VALUES ('camp', 'c', 1, 0, '{}', '2024-01-01 00:00:00', "
                    "'2024-01-01 00:00:00')"
                )
            )
            for mid, status, blue in (
                ("played", "running", "human"),
                ("unplayed", "running", "human"),
                ("bots", "running", "bot"),
                ("done", "finished", "human"),
                ("camp-b1-0", "running", "human"),
            ):
                conn.execute(
                    text(
                        "INSERT INTO matches (id, ruleset, options, seed, nonce, commitment, "
                        "status, created_at, spectator_hash) VALUES (:id, 'quick', '{}', 11, "
                        "'n', :commitment, :status, '2024-01-01 00:00:00', 'h')"
                    ),
                    {"id": mid, "commitment": commit(11, "n"), "status": status},
                )
                conn.execute(
                    text(
                        "INSERT INTO seats (match_id, seat, position, kind, bot, token_hash, "
                        "label) VALUES (:id, 'red', 0, 'bot', 'random', NULL, ''), "
                        "(:id, 'blue', 1, :blue, :bot, :token, '')"
                    ),
                    {
                        "id": mid,
                        "blue": blue,
                        "bot": "random" if blue == "bot" else None,
                        "token": None if blue == "bot" else hash_token("t"),
                    },
                )
            conn.execute(
                text(
                    "INSERT INTO orders (match_id, seq, seat, order_text, at) VALUES "
                    "('played', 0, 'blue', 'F', '2024-01-01 00:00:05'), "
                    "('played', 1, 'blue', 'R', '2024-01-01 00:00:09'), "
                    "('unplayed', 0, 'red', 'F', '2024-01-01 00:00:07')"
                )
            )
    finally:
        engine.dispose()


def test_a_v3_database_is_upgraded_with_its_clocks(url: str) -> None:
    _v3_database(url)
    with Store(url) as store:
        found = {m: store.load(m) for m in ("played", "unplayed", "bots", "done", "camp-b1-0")}
    flags = {m: (s.abandonable, s.active_at) for m, s in found.items() if s is not None}
    assert {m: f[0] for m, f in flags.items()} == {
        "played": True,
        "unplayed": True,
        "bots": False,
        "done": False,
        "camp-b1-0": False,
    }
    played_at = flags["played"][1]
    assert played_at is not None and played_at.isoformat() == "2024-01-01T00:00:09+00:00"
    assert flags["unplayed"][1] is None  # red's order was a bot's
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            version = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
            schema = conn.execute(
                text("SELECT value FROM meta WHERE key = 'schema_version'")
            ).scalar()
    finally:
        engine.dispose()
    assert (version, schema) == (f"{SCHEMA_VERSION:04d}", str(SCHEMA_VERSION))  # the newest


runner = CliRunner()


@pytest.mark.parametrize(
    "args,words",
    [
        (["--abandon-after", "-1"], "--abandon-after must be a number of seconds, 0 or more"),
        (["--abandon-after", "0.5"], "--abandon-after must be 0 (off) or at least 1 second"),
        (["--void-after", "ten"], "--void-after must be a number, not 'ten'"),
        (["--void-after", "inf"], "--void-after must be a finite number"),
        (["--create-rate", "-3"], "--create-rate must be 0 (off) or more a minute"),
        (["--create-burst", "0"], "--create-burst must be at least 1"),
        (["--create-burst", "2.5"], "--create-burst must be a whole number"),
    ],
)
def test_serve_refuses_bad_clock_and_limit_arguments(
    tmp_path: Path, args: list[str], words: str
) -> None:
    result = runner.invoke(
        app, ["serve", "--port", "0", "--db", f"sqlite:///{tmp_path / 'x.db'}", *args]
    )
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], lines
    assert not (tmp_path / "x.db").exists()  # refused before anything was opened


def test_the_api_lists_a_voided_match_and_says_it_has_no_record(tmp_path: Path) -> None:
    clock = FakeClock()

    async def scenario(store: Store) -> tuple[httpx.Response, httpx.Response]:
        hub = Hub(store, _policy(clock))
        made = await hub.create("quick", {}, {"red": "human", "blue": "human"}, SEED)
        clock.advance(3601)
        await hub.abandoner.sweep()
        hub.stop()
        web = create_app(store)
        transport = httpx.ASGITransport(app=web)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
            listed = await c.get("/api/matches", params={"status": "void"})
            record = await c.get(f"/api/matches/{made.live.id}/record")
        web.state.hub.stop()
        return listed, record

    with Store(f"sqlite:///{tmp_path / 'a.db'}") as store:
        listed, record = asyncio.run(scenario(store))
    assert [m["status"] for m in listed.json()] == ["void"]
    assert record.status_code == 409
    assert record.json() == {
        "error": "the match was voided (void: no player did anything for 3600 s)"
    }
