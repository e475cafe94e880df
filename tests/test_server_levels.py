"""Bot levels in the web arena: the lobby API lists them, a seat chosen by level stores the
level's bot and budget, and the hub hands that budget to `choose`."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import httpx
import pytest

from gladiator import bots, registry
from gladiator.bots.random_legal import RandomBot
from gladiator.core.match import Match
from gladiator.core.record import MatchRecord
from gladiator.server.bot_pool import BotPolicy
from gladiator.store import Store
from server_helpers import arena, db_url, new_match

# BudgetBot counts in a class variable of this process: its bots think in threads here (HF3).
THREADS = BotPolicy(workers=0)

QUICK = {"max_rounds": 5}


class BudgetBot(RandomBot):
    """Stands in for the search bot: random legal orders, noting every budget it is given."""

    name = "search"
    budgets: ClassVar[list[float | None]] = []

    def choose(self, *args: Any, budget: float | None = None, **kw: Any) -> str:
        BudgetBot.budgets.append(budget)
        return super().choose(*args, budget=budget, **kw)


@pytest.fixture
def search_bot(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    BudgetBot.budgets = []
    monkeypatch.setitem(bots.BOTS, "search", BudgetBot)
    yield


def _finish(base: str, match_id: str) -> MatchRecord:
    end = time.monotonic() + 60
    while (answer := httpx.get(f"{base}/api/matches/{match_id}/record")).status_code == 409:
        assert time.monotonic() < end, "the bots did not finish"
        time.sleep(0.05)
    return MatchRecord.from_dict(answer.json())


def test_the_lobby_api_lists_the_levels_of_every_ruleset(tmp_path: Path) -> None:
    with arena(db_url(tmp_path)) as server:
        data = httpx.get(f"{server.url}/api/levels").json()
    assert data["levels"] == ["easy", "normal", "hard"] and data["default"] == "normal"
    assert set(data["rulesets"]) == set(registry.names())
    colosseum = {row["level"]: row for row in data["rulesets"]["colosseum"]}
    assert colosseum["easy"]["bot"] == "centurion"
    assert colosseum["normal"]["bot"] == "tactician"
    quick = {row["level"]: row for row in data["rulesets"]["quick"]}
    assert quick["easy"]["bot"] == "random" and quick["normal"]["bot"] == "greedy"


def test_hard_is_the_search_bot_with_its_budget_when_installed(
    tmp_path: Path, search_bot: None
) -> None:
    with arena(db_url(tmp_path)) as server:
        data = httpx.get(f"{server.url}/api/levels").json()
    hard = {row["level"]: row for row in data["rulesets"]["skirmish"]}["hard"]
    assert hard == {"level": "hard", "bot": "search@1", "budget": 1.0, "fallback": False}


def test_a_match_with_a_level_named_bot_stores_its_bot_and_passes_its_budget(
    tmp_path: Path, search_bot: None
) -> None:
    url = db_url(tmp_path)
    with arena(url, bot_policy=THREADS) as server:
        made = new_match(
            server.url,
            options=QUICK,
            seats={"red": "level:hard", "blue": "level:easy"},
            seed=12,
        )
        assert made["seats"]["red"] == {"kind": "bot", "bot": "search@1"}
        assert made["seats"]["blue"] == {"kind": "bot", "bot": "random"}
        rec = _finish(server.url, made["id"])
    Match.replay(rec, registry.get("quick"))
    assert BudgetBot.budgets and set(BudgetBot.budgets) == {1.0}
    assert any("red" in step for step in rec.steps)
    store = Store(url)
    try:
        stored = store.load(made["id"])
    finally:
        store.close()
    assert stored is not None
    assert {s.seat: s.bot for s in stored.seats} == {"red": "search@1", "blue": "random"}


def test_a_bot_named_with_a_budget_gets_it_and_a_bad_level_is_refused(
    tmp_path: Path, search_bot: None
) -> None:
    with arena(db_url(tmp_path), bot_policy=THREADS) as server:
        made = new_match(
            server.url, options=QUICK, seats={"red": "bot:search@0.25", "blue": "bot:random"}
        )
        _finish(server.url, made["id"])
        assert set(BudgetBot.budgets) == {0.25}
        body = {"ruleset": "quick", "options": QUICK, "seats": {"red": "level:expert"}}
        answer = httpx.post(f"{server.url}/api/matches", json=body, timeout=30)
        assert answer.status_code == 400 and "unknown level 'expert'" in answer.json()["error"]
        body["seats"] = {"red": "bot:random@soon"}
        answer = httpx.post(f"{server.url}/api/matches", json=body, timeout=30)
        assert answer.status_code == 400 and "budget" in answer.json()["error"]
