"""Issue #29: a bout where a lanista fields two men is played through the campaign page.

His link's one token opens both of his seats: the bout's "Play your men's fight" link carries it
scoped to each seat (`#t=TOKEN:red&t=TOKEN:green`), so one arena page plays both men, with no
hand-over between them (he hides nothing from himself), and the bout is settled when it ends."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from browser.arena_page import Seat, act, next_to_act, token_of
from browser.browsing import LiveArena, Pages, screenshot
from browser.policy import Entry, colosseum_entry

SEED = 4  # his first two men entered alone find a Two Pairs bout (§30.2.1.1) together


@pytest.mark.browser
def test_a_lanista_plays_both_of_his_men_in_a_two_pairs_bout_from_one_link(
    live: LiveArena, pages: Pages
) -> None:
    lobby = pages.open(f"{live.url}/")
    lobby.fill("#campaign-munera", "1")
    lobby.fill("#campaign-seed", str(SEED))
    lobby.click("#create-campaign")
    link = lobby.locator('#campaign-created a[data-lanista="l1"]')
    href = link.get_attribute("href") or ""
    token = token_of(href)

    page = pages.open(href)
    boxes = page.locator("#entries input[data-gladiator]")
    expect(boxes).to_have_count(5)
    for i in range(2, 5):
        boxes.nth(i).uncheck()
    page.click("#ready")
    expect(page.locator("#campaign-status")).to_contain_text("munus 1 of 1, munus", timeout=60_000)
    page.click("#ready")
    play = page.locator("#bouts a.play[data-match]")
    expect(play).to_have_count(1, timeout=60_000)
    expect(play).to_have_text("Play your men's fight (red, green)")
    assert play.get_attribute("data-seats") == "red green"
    match_id = play.get_attribute("data-match") or ""
    bout_id = page.locator("#bouts tr[data-bout]:has(a.play)").get_attribute("data-bout")
    bout = page.locator(f'#bouts tr[data-bout="{bout_id}"]')
    expect(bout.locator("td")).to_contain_text(["two_pairs"])

    arena = pages.open(f"{live.url}{play.get_attribute('href')}")

    def shown() -> Seat:
        seat = arena.get_attribute("body", "data-seat") or "red"
        return Seat(arena, f"{token}:{seat}", live.url, match_id)

    def choose(decision: dict[str, Any], scene: dict[str, Any], name: str) -> Entry:
        return colosseum_entry(decision, scene, name)

    played: set[str] = set()
    given = 0
    while next_to_act([shown()], timeout=60) is not None:
        # His own two men: the screen is never covered between them.
        assert arena.locator("#handover").is_hidden()
        played.add(act(shown(), choose)[0])
        given += 1
        assert given < 600
    assert played == {"red", "green"}
    assert shown().server_view()["view"]["outcome"] is not None
    screenshot(arena, "campaign-two-men")

    page.bring_to_front()
    expect(bout.locator("td.status")).to_contain_text("settled", timeout=60_000)
    expect(page.locator("#campaign-status")).to_contain_text("over", timeout=60_000)
