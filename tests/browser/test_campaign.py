"""A campaign played in the web arena (issue #11): created in the lobby with one human lanista
and three bots, his stable on the campaign page, one man entered in the munus (so he has
exactly one fight), that fight played in the arena page through the lanista's own link, and the
campaign page showing the result when it comes back (the bout settled, the man's record or
status changed)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from browser.arena_page import Seat, play_to_end, token_of
from browser.browsing import LiveArena, Pages, screenshot
from browser.policy import Entry, colosseum_entry

SEED = 7  # munus 1 gives the human's first man a matched pair against a bot's man
FRESH = "0-0-0 / 0"


@pytest.mark.browser
def test_a_human_lanista_plays_his_one_fight_of_a_munus_and_sees_his_stable_change(
    live: LiveArena, pages: Pages
) -> None:
    lobby = pages.open(f"{live.url}/")
    expect(lobby.locator("#campaign-lanistas tr[data-lanista]")).to_have_count(4)
    lobby.fill("#campaign-munera", "1")
    lobby.fill("#campaign-seed", str(SEED))
    lobby.click("#create-campaign")
    link = lobby.locator('#campaign-created a[data-lanista="l1"]')
    expect(link).to_be_visible()
    expect(lobby.locator("#campaign-created a[data-lanista]")).to_have_count(1)
    href = link.get_attribute("href") or ""
    token = token_of(href)

    page = pages.open(href)
    stable = page.locator('section.stable[data-lanista="l1"]')
    expect(stable.locator("tr[data-gladiator]")).to_have_count(5)
    expect(stable.locator(".purse")).to_have_text("2000")
    # Between munera: enter one man only, and say ready.
    boxes = page.locator("#entries input[data-gladiator]")
    expect(boxes).to_have_count(5)
    entered = boxes.first.get_attribute("data-gladiator")
    for i in range(1, 5):
        boxes.nth(i).uncheck()
    expect(page.locator("#ready")).to_be_enabled()
    page.click("#ready")
    expect(page.locator("#campaign-status")).to_contain_text("munus 1 of 1, munus", timeout=60_000)
    mine = page.locator(f'tr[data-gladiator="{entered}"]')
    expect(mine.locator("td.record")).to_have_text(FRESH)
    # In the munus: ready (no odds offered), and the fight is made in the arena.
    expect(page.locator("#ready")).to_be_enabled()
    page.click("#ready")
    play = page.locator("#bouts a.play[data-match]")
    expect(play).to_have_count(1, timeout=60_000)
    match_id = play.get_attribute("data-match") or ""
    bout_id = page.locator("#bouts tr[data-bout]:has(a.play)").get_attribute("data-bout")
    # The row is found by its bout id: once settled it has no play link.
    bout = page.locator(f'#bouts tr[data-bout="{bout_id}"]')
    expect(bout.locator("td.status")).to_have_text("scheduled")
    screenshot(page, "campaign-munus")

    arena = pages.open(f"{live.url}{play.get_attribute('href')}")
    seat = Seat(arena, token, live.url, match_id)

    def choose(decision: dict[str, Any], scene: dict[str, Any], name: str) -> Entry:
        return colosseum_entry(decision, scene, name)

    play_to_end(seat, choose)
    assert seat.server_view()["view"]["outcome"] is not None

    page.bring_to_front()
    expect(bout.locator("td.status")).to_contain_text("settled", timeout=60_000)
    changed = mine.locator("td.record").filter(has_not_text=FRESH)
    dead = mine.locator("td.status").filter(has_text="dead")
    # his record shows the bout (V, S, M or a defeat), or he died in it: one or both
    expect(changed.or_(dead).first).to_be_visible()
    expect(page.locator("#events li").filter(has_text="bout_result")).not_to_have_count(0)
    screenshot(page, "campaign-after-fight")
