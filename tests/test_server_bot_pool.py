"""Bots think in the hub's pool of worker processes (server/bot_pool.py; ruling HF3): never in
the server's process, with their state carried from one decision to the next, a small pool
serving several matches, and a worker that dies or a bot that never answers costing only its
decision. The matches are quick-rules bot matches of a few rounds, driven through a `Hub`."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import pickle
import random
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from gladiator import bots, registry
from gladiator.bots import BUILT_IN, make_bot
from gladiator.core.match import Match
from gladiator.core.record import MatchRecord
from gladiator.server import bot_pool
from gladiator.server.bot_pool import BotPolicy, Job
from gladiator.server.hub import Hub
from gladiator.server.live_match import LiveMatch
from gladiator.store import Store
from pool_bots import FailingBot, KillerBot, LocalBot, PidBot, StuckBot

QUICK = {"max_rounds": 5}
LIMIT = 120.0  # seconds a scenario may take before the test fails (a stall, not a timing)


async def _finished(live: LiveMatch) -> None:
    while not live.finish_stored:
        await asyncio.sleep(0.02)


def _play(
    url: str,
    policy: BotPolicy,
    seats: list[Mapping[str, str]],
    *,
    seed: int = 7,
) -> list[LiveMatch]:
    """Create a match per seating on one hub, wait for all of them to end, stop the hub."""

    async def scenario(store: Store) -> list[LiveMatch]:
        hub = Hub(store, bots=policy)
        try:
            made = [await hub.create("quick", QUICK, s, seed + i) for i, s in enumerate(seats)]
            await asyncio.wait_for(asyncio.gather(*(_finished(m.live) for m in made)), LIMIT)
            return [m.live for m in made]
        finally:
            hub.stop()

    with Store(url) as store:
        return asyncio.run(scenario(store))


def _replays(live: LiveMatch) -> MatchRecord:
    record = live.match.record(reveal=True)
    Match.replay(MatchRecord.from_dict(record.to_dict()), registry.get("quick"))
    return record


def _orders_of(live: LiveMatch, seat: str) -> int:
    return sum(1 for step in live.match.steps if seat in step)


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'arena.db'}"


@pytest.fixture
def register_bot(monkeypatch: pytest.MonkeyPatch) -> Callable[[str, Callable[[], Any]], None]:
    def add(name: str, factory: Callable[[], Any]) -> None:
        monkeypatch.setitem(bots.BOTS, name, factory)

    return add


def test_bots_think_in_another_process_and_keep_their_state(
    url: str, register_bot: Callable[[str, Callable[[], Any]], None]
) -> None:
    register_bot("pid", PidBot)
    (live,) = _play(url, BotPolicy(workers=1), [{"red": "bot:pid@0.5", "blue": "bot:pid"}])
    _replays(live)
    for seat, budget in (("red", 0.5), ("blue", None)):
        bot = live.bots.bots[seat]
        assert isinstance(bot, PidBot)
        # One entry per order it gave: the state of every decision came back for the next.
        assert len(bot.seen) == _orders_of(live, seat) > 0
        pids = {pid for pid, _ in bot.seen}
        assert os.getpid() not in pids and len(pids) == 1  # one worker, not this process
        assert {b for _, b in bot.seen} == {budget}


def test_a_pool_of_one_worker_finishes_two_bot_matches(url: str) -> None:
    seats = [
        {"red": "bot:random", "blue": "bot:greedy"},
        {"red": "bot:greedy", "blue": "bot:random"},
    ]
    first, second = _play(url, BotPolicy(workers=1), seats)
    for live in (first, second):
        assert live.match.finished
        _replays(live)


def test_a_match_plays_the_same_in_the_pool_as_in_threads(tmp_path: Path) -> None:
    seats = [{"red": "bot:greedy", "blue": "bot:random"}]
    (pooled,) = _play(f"sqlite:///{tmp_path / 'a.db'}", BotPolicy(workers=1), seats)
    (threaded,) = _play(f"sqlite:///{tmp_path / 'b.db'}", BotPolicy(workers=0), seats)
    assert pooled.match.steps == threaded.match.steps
    assert pooled.match.outcome == threaded.match.outcome


def test_a_killed_worker_costs_one_decision_and_the_pool_starts_anew(
    url: str,
    tmp_path: Path,
    register_bot: Callable[[str, Callable[[], Any]], None],
    caplog: pytest.LogCaptureFixture,
) -> None:
    register_bot("killer", lambda: KillerBot(tmp_path / "killed"))
    with caplog.at_level(logging.INFO, logger="gladiator.server"):
        (live,) = _play(url, BotPolicy(workers=1), [{"red": "bot:killer", "blue": "bot:random"}])
    _replays(live)
    assert (tmp_path / "killed").exists()
    bot = live.bots.bots["red"]
    assert isinstance(bot, KillerBot)
    # Its first decision died with its worker and was played at random; the others it played.
    assert len(bot.seen) == _orders_of(live, "red") - 1 > 0
    assert os.getpid() not in {pid for pid, _ in bot.seen}
    messages = [r.getMessage() for r in caplog.records]
    assert sum("bot workers are started anew" in m for m in messages) == 1
    assert sum("bot red gave no order" in m for m in messages) == 1


def test_a_bot_that_never_answers_costs_its_decision_not_the_match(
    url: str,
    tmp_path: Path,
    register_bot: Callable[[str, Callable[[], Any]], None],
    caplog: pytest.LogCaptureFixture,
) -> None:
    register_bot("stuck", lambda: StuckBot(tmp_path / "stuck"))
    # A decision may take grace + 10 budgets of wall time: here 3 + 10 x 0.05 s, ample for a
    # random order even on a busy machine, and short enough for a test.
    policy = BotPolicy(max_budget=0.05, workers=1, grace=3)
    with caplog.at_level(logging.INFO, logger="gladiator.server"):
        (live,) = _play(url, policy, [{"red": "bot:stuck", "blue": "bot:random"}])
    _replays(live)
    bot = live.bots.bots["red"]
    assert isinstance(bot, StuckBot)
    assert len(bot.seen) == _orders_of(live, "red") - 1 > 0
    assert any("bot stuck gave no order in 3.5 s" in r.getMessage() for r in caplog.records)


def test_a_failing_bot_plays_random_legal_orders_and_is_logged(
    url: str,
    register_bot: Callable[[str, Callable[[], Any]], None],
    caplog: pytest.LogCaptureFixture,
) -> None:
    register_bot("failing", FailingBot)
    with caplog.at_level(logging.ERROR, logger="gladiator.server"):
        (live,) = _play(url, BotPolicy(workers=1), [{"red": "bot:failing", "blue": "bot:random"}])
    _replays(live)
    failures = [r.getMessage() for r in caplog.records if "bot red gave no order" in r.getMessage()]
    assert len(failures) == _orders_of(live, "red") > 0
    assert all("this bot always fails" in m for m in failures)  # the worker's traceback


def test_a_bot_that_does_not_pickle_thinks_in_a_thread_said_once(
    url: str,
    register_bot: Callable[[str, Callable[[], Any]], None],
    caplog: pytest.LogCaptureFixture,
) -> None:
    register_bot("local", LocalBot)
    with caplog.at_level(logging.WARNING, logger="gladiator.server"):
        (live,) = _play(url, BotPolicy(workers=1), [{"red": "bot:local", "blue": "bot:random"}])
    _replays(live)
    bot = live.bots.bots["red"]
    assert isinstance(bot, LocalBot)
    assert {pid for pid, _ in bot.seen} == {os.getpid()}
    assert len(bot.seen) == _orders_of(live, "red") > 0
    said = [r.getMessage() for r in caplog.records if "thinks in a thread" in r.getMessage()]
    assert len(said) == 1 and "bot local (quick)" in said[0]


@pytest.mark.parametrize("name", sorted(BUILT_IN))
@pytest.mark.parametrize("ruleset", ["quick", "colosseum"])
def test_every_built_in_bot_goes_to_a_worker_and_comes_back(name: str, ruleset: str) -> None:
    """What a worker receives and sends back, without the worker: the bot, a state and a
    decision pickled, thought on, and the bot after its decision pickled again."""
    rs = registry.get(ruleset)
    match = Match(rs, {}, seed=3)
    seat = match.waiting_for()[0]
    rng = random.Random(1)
    seen = rs.determinize(match.state, seat, rng)
    job = Job(make_bot(name), rs, seen, seat, match.pending()[seat], rng, 0.05)
    thought = pickle.loads(bot_pool._work(pickle.dumps(job)))
    assert thought.error is None and thought.order is not None
    assert type(thought.bot) is type(job.bot)
    match.check(seat, thought.order)  # a legal order for the decision asked


def _waits_for_ever(server: int, watching: Any) -> None:
    from gladiator.server.bot_pool import _leave_with

    _leave_with(server)
    watching.set()
    time.sleep(60)


def test_a_bot_worker_leaves_when_its_server_is_gone() -> None:
    """A server killed with SIGKILL cannot stop its pool: each worker watches the server and
    leaves once it is gone, so neither it nor the forkserver it keeps alive is left behind."""
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    ctx = multiprocessing.get_context("spawn")
    watching = ctx.Event()
    worker = ctx.Process(target=_waits_for_ever, args=(gone.pid, watching))
    worker.start()
    worker.join(timeout=20)
    assert watching.is_set() and worker.exitcode == 1
