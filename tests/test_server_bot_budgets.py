"""A bot seat's budget against the server's cap (ruling HF2): every bad budget asked of
`POST /api/matches` is a 400 with one line naming the seat; a stored budget over the cap plays
at the cap; a bot's own default is capped too."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from gladiator import bots
from gladiator.bots.random_legal import RandomBot
from gladiator.bots.smmcts import SearchBot
from gladiator.server.abandonment import AbandonPolicy
from gladiator.server.bot_pool import BotPolicy, capped_budget
from gladiator.server.hub import Hub
from gladiator.store import Store
from pool_bots import PidBot
from server_helpers import arena, db_url

QUICK = {"max_rounds": 3}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One arena with the default cap (2 s a decision) for every request of this module."""
    with arena(db_url(tmp_path_factory.mktemp("budgets"))) as running:
        yield running.url


def _create(base: str, blue: str) -> httpx.Response:
    body = {"ruleset": "quick", "options": QUICK, "seats": {"red": "human", "blue": blue}}
    return httpx.post(f"{base}/api/matches", json=body, timeout=30)


@pytest.mark.parametrize(
    "blue,words",
    [
        ("bot:search@999999", "bot budget 999999 s is over this server's cap of 2 s a decision"),
        ("bot:search@2.5", "bot budget 2.5 s is over this server's cap of 2 s"),
        ("bot:random@1e300", "over this server's cap of 2 s"),
        ("bot:search@0", "the budget must be a positive number of seconds"),
        ("bot:search@-1", "the budget must be a positive number of seconds"),
        ("bot:search@nan", "the budget must be a positive number of seconds"),
        ("bot:search@inf", "the budget must be a positive number of seconds"),
        ("bot:search@1e309", "the budget must be a positive number of seconds"),
        ("bot:search@abc", "the budget after @ must be seconds"),
        ("bot:search@", "the budget after @ must be seconds"),
        ("bot:search@1@2", "the budget after @ must be seconds"),
        ("bot:hal@1", "unknown bot 'hal'"),
    ],
)
def test_a_bad_budget_is_refused_in_one_line(server: str, blue: str, words: str) -> None:
    answer = _create(server, blue)
    assert answer.status_code == 400, answer.text
    error = answer.json()
    assert set(error) == {"error"}
    assert error["error"].startswith("seat blue: ") and words in error["error"]
    assert "\n" not in error["error"]


@pytest.mark.parametrize(
    "blue,stored",
    [
        ("bot:random@2", "random@2"),  # at the cap
        ("bot:search@0.05", "search@0.05"),
        ("bot:search", "search"),  # its own default (0.05 s in the quick rules)
        ("level:hard", "search@1"),
    ],
)
def test_budgets_within_the_cap_are_taken(server: str, blue: str, stored: str) -> None:
    answer = _create(server, blue)
    assert answer.status_code == 201, answer.text
    assert answer.json()["seats"]["blue"] == {"kind": "bot", "bot": stored}


def test_a_higher_cap_takes_a_higher_budget(tmp_path: Path) -> None:
    with arena(db_url(tmp_path), bot_policy=BotPolicy(max_budget=5, workers=1)) as running:
        taken = _create(running.url, "bot:random@4")
        refused = _create(running.url, "bot:random@6")
    assert taken.status_code == 201, taken.text
    assert refused.status_code == 400
    assert "over this server's cap of 5 s" in refused.json()["error"]


def test_a_stored_budget_over_the_cap_plays_at_the_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Made by a server whose cap was 5, resumed by one whose cap is 0.25: never refused."""
    monkeypatch.setitem(bots.BOTS, "pid", PidBot)
    seats = {"red": "bot:random", "blue": "bot:pid@4"}

    async def made_then_resumed(store: Store) -> tuple[str, PidBot]:
        generous = Hub(store, AbandonPolicy(0, 0), bots=BotPolicy(max_budget=5, workers=1))
        made = await generous.create("quick", QUICK, seats, 3)
        made.live.stop()  # before any bot thought: that server stops at once
        generous.stop()
        strict = Hub(store, AbandonPolicy(0, 0), bots=BotPolicy(max_budget=0.25, workers=1))
        try:
            await strict.resume_all()
            live = strict.live[made.live.id]
            while not live.finish_stored:
                await asyncio.sleep(0.02)
            bot = live.bots.bots["blue"]
            assert isinstance(bot, PidBot)
            return live.id, bot
        finally:
            strict.stop()

    with Store(db_url(tmp_path)) as store:
        match_id, bot = asyncio.run(asyncio.wait_for(made_then_resumed(store), 120))
        stored = store.load(match_id)
    assert bot.seen and {budget for _, budget in bot.seen} == {0.25}
    assert stored is not None and stored.status == "finished"
    assert {s.seat: s.bot for s in stored.seats} == {"red": "random", "blue": "pid@4"}


def test_the_cap_applies_to_a_bots_own_default_where_it_is_known() -> None:
    search = SearchBot()  # the Colosseum's default is 1 s a decision, the quick rules' 0.05 s
    assert capped_budget(search, "colosseum", None, 2.0) is None  # its own default stands
    assert capped_budget(search, "colosseum", None, 0.5) == 0.5
    assert capped_budget(search, "quick", None, 0.5) is None
    assert capped_budget(SearchBot(budget=3.0), "quick", None, 2.0) == 2.0
    assert capped_budget(search, "quick", 9.0, 2.0) == 2.0
    assert capped_budget(search, "quick", 0.1, 2.0) == 0.1
    # A bot that does not search keeps its None (it does not read budgets).
    assert capped_budget(RandomBot(), "quick", None, 0.5) is None
