"""Play this deal from both sides (DM3, issue 38): the lobby's checkbox makes the match and its
twin on the same seed, the seats' players swapped, and shows both matches' links."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser.browsing import LiveArena, Pages


@pytest.mark.browser
def test_the_lobby_creates_a_deal_and_its_other_side(live: LiveArena, pages: Pages) -> None:
    lobby = pages.open(f"{live.url}/")
    lobby.select_option("#ruleset", "colosseum")
    expect(lobby.locator("#seats tr[data-seat]").first).to_be_visible()
    expect(lobby.locator("#create")).to_be_enabled()
    lobby.select_option('#seats tr[data-seat="blue"] select', "bot:tactician")
    lobby.check("#both-sides")
    lobby.click("#create")
    created = lobby.locator("#created")
    expect(created).to_be_visible()
    expect(lobby.locator("#create-error")).to_be_hidden()
    # The first match: red is the human's link, blue the bot; its twin the other way round.
    expect(created.locator('a[data-seat="red"]')).to_have_count(1)
    expect(created.locator('li[data-seat="blue"]')).to_contain_text("tactician")
    twin = lobby.locator("#other-side")
    expect(twin).to_be_visible()
    expect(twin.locator('a[data-twin-seat="blue"]')).to_have_count(1)
    expect(twin.locator('li[data-twin-seat="red"]')).to_contain_text("tactician")
    ids = created.locator("h3").all_inner_texts()
    assert len(ids) == 2 and ids[0] != ids[1]
