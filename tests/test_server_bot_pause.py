"""A match nobody is connected to stops costing CPU (ruling HF4): after `abandon_after` seconds
with no connection of any kind and no human activity, its bots do not start thinking; a
connection sets them going again. The hub runs on a fake wall clock moved by hand."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

from fake_clock import FakeClock
from gladiator.server.abandonment import AbandonPolicy
from gladiator.server.bot_pool import BotPolicy
from gladiator.server.connection import Connection
from gladiator.server.hub import Hub
from gladiator.server.live_match import LiveMatch
from gladiator.store import Store
from gladiator.store.stored import StoredDeadline

QUICK = {"max_rounds": 5}
BOTS_ONLY = {"red": "bot:random", "blue": "bot:random"}
LIMIT = 120.0  # seconds before a scenario counts as stalled


async def _until(done: Callable[[], bool]) -> None:
    while not done():
        await asyncio.sleep(0.02)


def _run(
    tmp_path: Path,
    abandon_after: float,
    scenario: Callable[[Hub, FakeClock], Awaitable[None]],
) -> None:
    clock = FakeClock()

    async def main(store: Store) -> None:
        hub = Hub(store, AbandonPolicy(abandon_after, 0, clock), bots=BotPolicy(workers=1))
        try:
            await asyncio.wait_for(scenario(hub, clock), LIMIT)
        finally:
            hub.stop()

    with Store(f"sqlite:///{tmp_path / 'arena.db'}") as store:
        asyncio.run(main(store))


async def _attach(live: LiveMatch) -> Connection:
    spectator = Connection(None)
    await live.attach(spectator, 0)
    return spectator


def test_a_bot_match_nobody_watches_pauses_and_goes_on_when_someone_connects(
    tmp_path: Path,
) -> None:
    async def scenario(hub: Hub, clock: FakeClock) -> None:
        live = (await hub.create("quick", QUICK, BOTS_ONLY, 5)).live
        # Its bots were woken; before they start, a minute and more passes with nobody
        # connected (a second over: the stored creation time is rounded to the microsecond).
        clock.now += 61
        await _until(lambda: live.bots.paused and not live.bots.thinking)
        assert live.match.steps == [] and not live.over  # not one decision thought
        await live.bots.wake_later()  # a change wakes them: they stay paused
        await _until(lambda: not live.bots.thinking)
        assert live.match.steps == [] and live.bots.paused
        spectator = await _attach(live)  # a spectator's page opens
        assert not live.bots.paused
        await _until(lambda: live.finish_stored)
        assert live.match.finished
        live.detach(spectator)

    _run(tmp_path, 60, scenario)


def test_bots_watched_by_a_spectator_never_pause(tmp_path: Path) -> None:
    async def scenario(hub: Hub, clock: FakeClock) -> None:
        live = (await hub.create("quick", QUICK, BOTS_ONLY, 6)).live
        await _attach(live)
        clock.now += 10**6  # long past the clock: a connection holds them going
        await _until(lambda: live.finish_stored)
        assert live.match.finished and not live.bots.paused

    _run(tmp_path, 60, scenario)


def test_a_bot_waiting_for_a_human_who_left_pauses_and_the_human_wakes_it(
    tmp_path: Path,
) -> None:
    async def scenario(hub: Hub, clock: FakeClock) -> None:
        # Quick rules, seed 5: blue (the bot) moves four times, then red.
        live = (await hub.create("quick", QUICK, {"red": "human", "blue": "bot:random"}, 5)).live
        clock.now += 61  # red never came
        await _until(lambda: live.bots.paused and not live.bots.thinking)
        assert live.match.steps == []
        red = Connection("red")
        await live.attach(red, 0)  # red's page opens: blue plays on until red's turn
        await _until(lambda: "red" in live.match.waiting_for())
        assert len(live.match.steps) == 4 and not live.bots.paused
        live.detach(red)

    _run(tmp_path, 60, scenario)


def test_with_the_clock_off_bots_never_pause(tmp_path: Path) -> None:
    async def scenario(hub: Hub, clock: FakeClock) -> None:
        live = (await hub.create("quick", QUICK, BOTS_ONLY, 7)).live
        clock.now += 10**6
        await _until(lambda: live.finish_stored)
        assert live.match.finished and not live.bots.paused

    _run(tmp_path, 0, scenario)


def test_the_bots_of_a_correspondence_match_never_pause(tmp_path: Path) -> None:
    """CP2 with HF4: a correspondence match is played with nobody connected, so its bot seat
    moves however long the human has been away, and the human's stand-in plays his late
    decisions: the match ends with nobody ever connected."""

    async def scenario(hub: Hub, clock: FakeClock) -> None:
        deadline = StoredDeadline(3600, "bot", "random")
        seats = {"red": "human", "blue": "bot:random"}
        live = (await hub.create("quick", QUICK, seats, 5, deadline=deadline)).live
        clock.now += 10**6  # long past HF4's clock, and past every deadline
        for _ in range(300):  # quick, seed 5 ends in far fewer decisions
            if live.finish_stored:
                break
            clock.now += 3601
            await hub.keeper.sweep()
            await _until(lambda: not live.bots.thinking)
        assert live.match.finished and not live.bots.paused

    _run(tmp_path, 60, scenario)
