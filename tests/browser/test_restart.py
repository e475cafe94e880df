"""The server stops in the middle of a secret decision, with one seat's order already given, and
a new server starts on the same SQLite file and port: both pages reconnect by themselves, the
given order is still given (and still secret), and the match is played to the end."""

from __future__ import annotations

import hashlib
import random
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from browser.arena_page import Seat, act, commitment_shown, next_to_act, revealed
from browser.browsing import LiveArena, Pages, screenshot
from browser.policy import Entry, random_entry
from server_helpers import new_match

SEED = 21
# Expected while no server listens: Chromium logs each refused socket as a console error.
RETRYING = re.compile(r"connection lost; trying again in [2-9] s")
REFUSED = (
    r"WebSocket connection to 'ws://127\.0\.0\.1:\d+/ws/[\w-]+' failed: .*ERR_CONNECTION_REFUSED"
)


@pytest.mark.browser
def test_both_pages_resume_after_a_server_restart_mid_secret_decision(
    live: LiveArena, pages: Pages
) -> None:
    made = new_match(live.url, "skirmish", options={"max_turns": 2}, seed=SEED)
    red = Seat(
        pages.open(made["seats"]["red"]["link"]), made["tokens"]["red"], live.url, made["id"]
    )
    blue = Seat(
        pages.open(made["seats"]["blue"]["link"]), made["tokens"]["blue"], live.url, made["id"]
    )
    start_commitment = commitment_shown(red.page)
    rng = random.Random(SEED)

    def choose(decision: dict[str, Any], scene: dict[str, Any], seat: str) -> Entry:
        return random_entry(decision, rng)

    # §4.1: both write their move in secret; red writes his first.
    expect(blue.page.locator("#decision form")).to_have_count(1)
    assert next_to_act([red]) is red
    written = act(red, choose)[1].text
    waiting = f"Order given ({written}) — waiting for blue"
    expect(red.page.locator("#waiting")).to_have_text(waiting)
    _assert_secret_from_blue(blue, written)

    pages.expect_console(REFUSED)
    live.stop()
    # Down long enough for the pages' own retries to fail twice (their backoff grows).
    for seat in (red, blue):
        expect(seat.page.locator("#conn-status")).to_contain_text(RETRYING)
    live.start()
    for seat in (red, blue):
        expect(seat.page.locator("#conn-status")).to_have_text("connected", timeout=30_000)
    expect(red.page.locator("#waiting")).to_have_text(waiting)
    expect(red.page.locator("#decision form")).to_have_count(0)
    expect(blue.page.locator("#decision form")).to_have_count(1)
    _assert_secret_from_blue(blue, written)

    given = 1
    while (acting := next_to_act([red, blue])) is not None:
        act(acting, choose)
        given += 1
        assert given < 40
    final = red.server_view()
    assert final["view"]["outcome"] is not None
    for seat in (red, blue):
        expect(seat.page.locator("#outcome")).to_be_visible()
        expect(seat.page.locator("#events li")).to_have_count(final["event_count"])
        seed, nonce, commitment = revealed(seat.page)
        assert (seed, commitment) == (SEED, start_commitment)
        assert hashlib.sha256(f"gladiator-seed:{seed}:{nonce}".encode()).hexdigest() == commitment
    screenshot(blue.page, "skirmish-end-after-restart")


def _assert_secret_from_blue(blue: Seat, written: str) -> None:
    """Blue's page shows nothing of red's written move: no Written row on red's sheet."""
    red_sheet = blue.page.locator('#panels .panel[data-seat="red"]')
    expect(red_sheet).to_have_count(1)
    assert "Written" not in red_sheet.inner_text()
    assert f"({written})" not in blue.page.inner_text("#waiting")
