"""Correspondence play in the browser (issue #30; docs/web.md, Correspondence play; CP1-CP3): a
quick-rules match with a deadline of an hour a decision, played by hand in two browser contexts,
across a server restart on the same port and database; then the deadline of the seat whose move
it is passes, and its consequence shows in both pages: the stand-in bot plays that one decision
and the match goes on ("bot"), or the late seat forfeits ("forfeit").

No test waits an hour: the server's wall clock is a fake one (tests/fake_clock.py) moved by hand,
and the pages' own clock (`Date.now`, what the time left is read on) is held at the same instant
with Playwright's clock, so every readout is exact."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import BrowserContext, expect

from browser.arena_page import Seat, act, next_to_act
from browser.browsing import LiveArena, Pages, screenshot
from browser.policy import quick_entry
from fake_clock import FakeClock
from gladiator.bots.levels import level_for
from gladiator.server.abandonment import AbandonPolicy
from gladiator.server.bot_pool import BotPolicy
from gladiator.store import Store
from server_helpers import db_url, tokens_of

SEED = 5  # quick, seed 5: blue moves first, a few times, then red
HOUR = 3600
MARK = "● Your move — "
STAND_IN = level_for("quick", "normal").spec.text  # the stand-in of a late decision (CP2)
REFUSED = (
    r"WebSocket connection to 'ws://127\.0\.0\.1:\d+/ws/[\w-]+' failed: .*ERR_CONNECTION_REFUSED"
)


class Correspondence:
    """A web arena on a fake wall clock (no abandonment clock, bots in threads), and the browser
    contexts whose clocks follow it."""

    def __init__(self, tmp_path: Path, pages: Pages) -> None:
        # A whole second: the page's clock holds milliseconds, the readouts whole seconds.
        self.clock = FakeClock(float(int(time.time())))
        self.url = db_url(tmp_path)
        self.live = LiveArena(
            self.url, abandon=AbandonPolicy(0, 0, self.clock), bot_policy=BotPolicy(workers=0)
        )
        self.pages = pages
        self.contexts: list[BrowserContext] = []

    def context(self) -> BrowserContext:
        ctx = self.pages.context()
        ctx.clock.set_fixed_time(self._now())
        self.contexts.append(ctx)
        return ctx

    def _now(self) -> datetime:
        return datetime.fromtimestamp(self.clock.now, UTC)

    def advance(self, seconds: float) -> None:
        """Time passes for the server and for every page alike."""
        self.clock.advance(seconds)
        for ctx in self.contexts:
            ctx.clock.set_fixed_time(self._now())

    def create(self, then: str) -> dict[str, Any]:
        answer = httpx.post(
            f"{self.live.url}/api/matches",
            json={
                "ruleset": "quick",
                "seats": {"red": "human", "blue": "human"},
                "seed": SEED,
                "deadline": {"seconds": HOUR, "then": then},
            },
            timeout=30,
        )
        assert answer.status_code == 201, answer.text
        made: dict[str, Any] = answer.json()
        return made


@pytest.fixture
def corr(tmp_path: Path, pages: Pages) -> Iterator[Correspondence]:
    made = Correspondence(tmp_path, pages)
    yield made
    made.live.stop()


def _seat(corr: Correspondence, made: dict[str, Any], name: str) -> Seat:
    link = made["seats"][name]["link"]
    page = corr.pages.open(link, corr.context())
    return Seat(page, tokens_of(link)[0], corr.live.url, made["id"])


def _then(then: str, who: str) -> str:
    if then == "bot":
        return f"then the stand-in bot ({STAND_IN}) plays this decision for {who}"
    return "then you forfeit" if who == "you" else f"then {who} forfeits"


def _expect_turn(mover: Seat, idle: Seat, then: str, left: str) -> None:
    """The mover's page says it is his move and how long he has; the other's says whose it is."""
    seat = mover.page.evaluate("document.body.dataset.seat")
    expect(mover.page.locator("#deadline")).to_have_text(f"Your move: {left}; {_then(then, 'you')}")
    expect(idle.page.locator("#deadline")).to_have_text(
        f"{seat.capitalize()} has {left}; {_then(then, seat)}"
    )
    expect(mover.page).to_have_title(re.compile("^" + re.escape(MARK)))
    expect(idle.page).to_have_title(re.compile(r"^GLADIATOR quick rules — arena$"))


@pytest.mark.browser
@pytest.mark.parametrize("then", ["bot", "forfeit"])
def test_a_correspondence_match_played_across_a_restart_and_a_deadline_that_passes(
    corr: Correspondence, pages: Pages, then: str
) -> None:
    made = corr.create(then)
    match_id = made["id"]
    red, blue = _seat(corr, made, "red"), _seat(corr, made, "blue")
    seats = {"red": red, "blue": blue}
    for name, seat in seats.items():
        expect(seat.page.locator("#who")).to_have_text(f"You are {name}")
    _expect_turn(blue, red, then, "1 h left")

    # Blue's first orders, each well inside the hour (the next decision's hour starts afresh).
    for _ in range(2):
        corr.advance(20 * 60)
        expect(blue.page.locator("#deadline")).to_contain_text("Your move: 40 min left")
        assert next_to_act([red, blue]) is blue
        act(blue, quick_entry)

    pages.expect_console(REFUSED)
    corr.live.stop()
    for seat in (red, blue):
        expect(seat.page.locator("#conn-status")).to_contain_text("connection lost")
    corr.live.start()
    for seat in (red, blue):
        expect(seat.page.locator("#conn-status")).to_have_text("connected", timeout=30_000)

    # Both play on after the restart, until red has given an order of his own.
    given = []
    while "red" not in given:
        acting = next_to_act([red, blue])
        assert acting is not None
        given.append(act(acting, quick_entry)[0])
        assert len(given) < 20, given
    late = next_to_act([red, blue])
    assert late is not None
    late_name = late.state()["seat"]
    (other,) = (s for name, s in seats.items() if name != late_name)
    _expect_turn(late, other, then, "1 h left")
    corr.advance(HOUR / 2)
    _expect_turn(late, other, then, "30 min left")
    before = late.server_view()
    orders = int(before["event_count"])
    with Store(corr.url) as store:
        assert store.late_orders(match_id) == []

    corr.advance(HOUR / 2 + 1)  # the deadline passes; the keeper sweeps every second
    if then == "bot":
        # The stand-in's order came in the late seat's name: the events go on, and the next
        # decision has a fresh hour.
        for seat in (red, blue):
            seat.page.wait_for_function(
                "n => document.querySelectorAll('#events li').length > n", arg=orders
            )
        after = late.server_view()
        assert after["event_count"] > orders and after["view"]["outcome"] is None
        with Store(corr.url) as store:
            ((seq, due),) = store.late_orders(match_id)
            stored = store.load(match_id)
        assert stored is not None and stored.orders[seq][0] == late_name
        assert due.timestamp() == pytest.approx(before["view"]["deadline"]["due"], abs=1e-3)
        mover = next_to_act([red, blue])
        assert mover is not None
        (idle,) = (s for s in (red, blue) if s is not mover)
        _expect_turn(mover, idle, then, "1 h left")
        act(mover, quick_entry)  # the match goes on by hand
        screenshot(late.page, "correspondence-stand-in")
    else:
        winner = other.page.evaluate("document.body.dataset.seat")
        for seat in (red, blue):
            outcome = seat.page.locator("#outcome")
            expect(outcome).to_be_visible()
            expect(outcome.locator("h2")).to_have_text(f"Won by {winner}")
            expect(outcome).to_contain_text("forfeits: no order within the deadline of 1 h")
            expect(seat.page.locator("#deadline")).to_be_hidden()
            expect(seat.page).to_have_title("GLADIATOR quick rules — arena")
        with Store(corr.url) as store:
            stored = store.load(match_id)
        assert stored is not None and stored.outcome is not None
        assert stored.outcome["forfeit"]["reason"] == "deadline"
        assert stored.outcome["forfeit"]["seats"] == [late_name]
        screenshot(late.page, "correspondence-forfeit")
