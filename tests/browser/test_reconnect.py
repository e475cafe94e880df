"""A player whose page closes mid-match comes back through the same link: the page catches up
with every event the other seat's page and the server hold, and the match goes on to the end."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser.arena_page import Seat, act, next_to_act, token_of
from browser.browsing import LiveArena, Pages
from browser.policy import Entry, quick_entry
from server_helpers import new_match

# Quick rules, seed 3: blue moves first; after red's one step blue strikes and ends his turn.
SEED = 3


@pytest.mark.browser
def test_a_page_closed_mid_match_catches_up_on_reopening_and_finishes(
    live: LiveArena, pages: Pages
) -> None:
    made = new_match(live.url, "quick", options={"max_rounds": 8}, seed=SEED)
    links = {seat: info["link"] for seat, info in made["seats"].items()}
    red_ctx, blue_ctx = pages.context(), pages.context()
    red = Seat(pages.open(links["red"], red_ctx), made["tokens"]["red"], live.url, made["id"])
    blue = Seat(pages.open(links["blue"], blue_ctx), made["tokens"]["blue"], live.url, made["id"])
    assert token_of(links["red"]) == red.token

    # Play until red has moved once and it is blue's turn again.
    given: list[tuple[str, Entry]] = []
    while not (given and given[-1][0] == "red" and next_to_act([red, blue]) is blue):
        acting = next_to_act([red, blue])
        assert acting is not None and len(given) < 20, given
        given.append(act(acting, quick_entry))
    before = red.state()["events"]

    red.page.close()
    while (acting := next_to_act([blue], timeout=10)) is blue:
        given.append(act(blue, quick_entry))
        if blue.server_view()["view"]["waiting_for"] == ["red"]:
            break
    missed = blue.state()["events"] - before
    assert missed >= 3, "blue's strike and end of turn happened while red was away"

    red.page = pages.open(links["red"], red_ctx)
    server_count = red.server_view()["event_count"]
    expect(red.page.locator("#events li")).to_have_count(server_count)
    expect(blue.page.locator("#events li")).to_have_count(server_count)
    texts_red = red.page.locator("#events li").all_inner_texts()
    assert texts_red == blue.page.locator("#events li").all_inner_texts()
    expect(red.page.locator("#decision form")).to_have_count(1)

    while (acting := next_to_act([red, blue])) is not None:
        given.append(act(acting, quick_entry))
        assert len(given) < 60, given
    final = red.server_view()
    assert final["view"]["outcome"] is not None
    for seat in (red, blue):
        expect(seat.page.locator("#events li")).to_have_count(final["event_count"])
        expect(seat.page.locator("#outcome")).to_be_visible()
