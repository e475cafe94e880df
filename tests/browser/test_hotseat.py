"""Hotseat: one page holds both seats' tokens (`#t=T1&t=T2`). Before each secret entry a
hand-over screen covers the arena, and the second player never sees the first one's order."""

from __future__ import annotations

import random
import time

import pytest
from playwright.sync_api import expect

from browser.arena_page import Seat, act
from browser.browsing import LiveArena, Pages, screenshot
from browser.policy import random_entry
from server_helpers import new_match, tokens_of

SEED = 5


@pytest.mark.browser
def test_hotseat_hands_over_between_secret_entries_and_keeps_them_secret(
    live: LiveArena, pages: Pages
) -> None:
    made = new_match(live.url, "skirmish", options={"max_turns": 1}, seed=SEED)
    assert tokens_of(made["hotseat"]) == [made["tokens"]["red"], made["tokens"]["blue"]]
    page = pages.open(made["hotseat"])
    rng = random.Random(SEED)

    def seat_shown() -> Seat:
        name = page.get_attribute("body", "data-seat") or ""
        return Seat(page, made["tokens"][name], live.url, made["id"])

    # §4.1: the first secret entry is behind a hand-over screen too (who sits down first).
    handover = page.locator("#handover")
    expect(handover).to_be_visible()
    first = page.inner_text("#handover-text").removeprefix("Pass the screen to ")
    assert first in ("red", "blue")
    page.click("#handover button")
    expect(page.locator("body")).to_have_attribute("data-seat", first)
    written = act(seat_shown(), lambda d, s, seat: random_entry(d, rng))[1].text

    # The second writer gets the screen only through the hand-over: nothing of the first
    # entry is visible meanwhile, nor on his screen after it.
    second = "blue" if first == "red" else "red"
    expect(handover).to_be_visible()
    expect(page.locator("#handover-text")).to_have_text(f"Pass the screen to {second}")
    visible = page.inner_text("body")
    assert "Written" not in visible and f"({written})" not in visible
    assert page.locator("#decision").inner_html() == ""
    screenshot(page, "hotseat-handover")
    page.click("#handover button")
    expect(page.locator("body")).to_have_attribute("data-seat", second)
    expect(page.locator("#decision form")).to_have_count(1)
    first_sheet = page.locator(f'#panels .panel[data-seat="{first}"]')
    assert "Written" not in first_sheet.inner_text()
    assert f"({written})" not in page.inner_text("#waiting")
    mine = page.locator(f'#panels .panel[data-seat="{second}"]')
    assert "Written" not in mine.inner_text()  # not written yet
    act(seat_shown(), lambda d, s, seat: random_entry(d, rng))

    # Then the turn is performed (initiative, moves, hexes, facings) to the end of the match,
    # handing over whenever the other seat's screen would show something new.
    end = time.monotonic() + 60
    while not page.locator("#outcome").is_visible():
        assert time.monotonic() < end, "the hotseat match did not finish"
        if handover.is_visible():
            page.click("#handover button")
        elif page.locator("#decision form").count():
            act(seat_shown(), lambda d, s, seat: random_entry(d, rng))
        else:
            page.wait_for_timeout(50)
    expect(page.locator("#outcome-seed")).to_be_visible()
