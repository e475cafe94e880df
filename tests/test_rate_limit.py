"""The creation limit per client address (server/rate_limit.py; docs/web.md, Limits; AB6): past
the burst, POST /api/matches and /api/campaigns are answered 429 with Retry-After and one line
of JSON, other addresses and other requests go on. The app runs in-process on a fake clock."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from fake_clock import FakeClock
from gladiator.cli.main import app as cli
from gladiator.server.app import create_app
from gladiator.server.rate_limit import CreateLimit, CreationLimiter
from gladiator.store import Store
from server_helpers import arena, db_url

MATCH = {"ruleset": "quick", "options": {}, "seats": {"red": "human", "blue": "bot:random"}}


async def _post(
    store: Store, limit: CreateLimit, calls: list[tuple[str, str, dict[str, Any]]]
) -> list[httpx.Response]:
    """Each call (address, path, body) through one app, in order."""
    web = create_app(store, create_limit=limit)
    answers = []
    for address, path, body in calls:
        transport = httpx.ASGITransport(app=web, client=(address, 5555))
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
            answers.append(await c.post(path, json=body, headers={"host": "127.0.0.1"}))
    web.state.hub.stop()
    return answers


def test_past_the_burst_an_address_gets_429_with_retry_after(tmp_path: Path) -> None:
    clock = FakeClock(1000.0)
    limit = CreateLimit(per_minute=6, burst=3, clock=clock)  # a token every 10 s
    with Store(db_url(tmp_path)) as store:
        answers = asyncio.run(_post(store, limit, [("10.0.0.1", "/api/matches", MATCH)] * 5))
    assert [a.status_code for a in answers] == [201, 201, 201, 429, 429]
    refused = answers[3]
    assert refused.headers["retry-after"] == "10"
    assert refused.headers["content-type"] == "application/json"
    assert refused.headers["x-content-type-options"] == "nosniff"  # still inside the headers
    error = refused.json()["error"]
    assert "\n" not in error
    assert error == (
        "too many new matches or campaigns from this address: at most 6 a minute "
        "(bursts of 3); try again in 10 s"
    )
    assert refused.json()["retry_after"] == 10


def test_other_addresses_and_other_requests_are_not_held_back(tmp_path: Path) -> None:
    clock = FakeClock(1000.0)
    limit = CreateLimit(per_minute=6, burst=2, clock=clock)
    calls = [
        ("10.0.0.1", "/api/matches", MATCH),
        ("10.0.0.1", "/api/matches", MATCH),
        ("10.0.0.1", "/api/matches", MATCH),  # over
        ("10.0.0.2", "/api/matches", MATCH),  # another address: its own bucket
        ("10.0.0.1", "/api/rulesets/quick/preview", {"options": {}}),  # not a creation
    ]
    with Store(db_url(tmp_path)) as store:
        answers = asyncio.run(_post(store, limit, calls))
    assert [a.status_code for a in answers] == [201, 201, 429, 201, 200]


def test_a_campaign_counts_against_the_same_bucket_and_tokens_come_back(tmp_path: Path) -> None:
    clock = FakeClock(1000.0)
    limit = CreateLimit(per_minute=6, burst=1, clock=clock)

    async def scenario(store: Store) -> list[int]:
        web = create_app(store, create_limit=limit)
        transport = httpx.ASGITransport(app=web, client=("10.0.0.9", 1))
        codes = []
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
            codes.append((await c.post("/api/matches", json=MATCH)).status_code)
            codes.append((await c.post("/api/campaigns", json={})).status_code)
            clock.now += 9.9
            codes.append((await c.post("/api/matches", json=MATCH)).status_code)
            clock.now += 0.1
            codes.append((await c.post("/api/matches", json=MATCH)).status_code)
        web.state.hub.stop()
        return codes

    with Store(db_url(tmp_path)) as store:
        assert asyncio.run(scenario(store)) == [201, 429, 429, 201]


def test_a_real_server_with_the_serve_defaults_refuses_the_eleventh_at_once(
    tmp_path: Path,
) -> None:
    with arena(db_url(tmp_path), create_limit=CreateLimit()) as running:
        codes = []
        for _ in range(11):
            answer = httpx.post(f"{running.url}/api/matches", json=MATCH, timeout=30)
            codes.append(answer.status_code)
    assert codes == [201] * 10 + [429]
    assert int(answer.headers["retry-after"]) in (1, 2)  # 30 a minute: one every 2 s


def test_serve_limits_creation_by_default_and_0_turns_it_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    served: list[Any] = []
    monkeypatch.setattr("gladiator.server.listen.serve", lambda web, sock, **_: served.append(web))
    runner = CliRunner()
    db = ["--db", f"sqlite:///{tmp_path / 'x.db'}"]
    for extra in ([], ["--create-rate", "0"]):
        result = runner.invoke(cli, ["serve", "--port", "0", *db, *extra])
        assert result.exit_code == 0, result.stderr
    limits = [
        [m.kwargs["limit"] for m in web.user_middleware if m.cls is CreationLimiter]
        for web in served
    ]
    assert [[(x.per_minute, x.burst) for x in found] for found in limits] == [[(30.0, 10)], []]
