"""A campaign by correspondence in the browser (issue #30; CP8): created in the lobby with a
deadline of a day a decision, the human lanista's page says how long he has to say ready; a
day later the campaign has said it for him and his fight in the arena is a correspondence
match with the same day a decision. The server's wall clock is a fake one moved by hand."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from browser.browsing import LiveArena, Pages
from fake_clock import FakeClock
from gladiator.server.abandonment import AbandonPolicy
from gladiator.server.bot_pool import BotPolicy
from gladiator.server.correspondence import DeadlinePolicy
from gladiator.store import Store
from server_helpers import db_url

SEED = 7  # munus 1 gives the human's first man a matched pair against a bot's man
DAY = 86400


@pytest.mark.browser
def test_a_campaign_by_correspondence_makes_a_late_lanista_ready_and_fights_by_the_day(
    tmp_path: Path, pages: Pages
) -> None:
    clock = FakeClock(float(int(time.time())))
    url = db_url(tmp_path)
    live = LiveArena(
        url,
        abandon=AbandonPolicy(0, 0, clock),
        bot_policy=BotPolicy(workers=0),
        deadlines=DeadlinePolicy(interval=0.1),
    )
    try:
        lobby = pages.open(f"{live.url}/")
        lobby.fill("#campaign-munera", "1")
        lobby.fill("#campaign-seed", str(SEED))
        lobby.select_option("#campaign-deadline", str(DAY))
        lobby.click("#create-campaign")
        link = lobby.locator('#campaign-created a[data-lanista="l1"]')
        expect(link).to_be_visible()
        page = pages.open(link.get_attribute("href") or "")
        note = page.locator("#campaign-deadline-note")
        expect(note).to_contain_text("Correspondence: 1 d for each decision of a fight")
        expect(note).to_contain_text("to say ready, then the campaign says it for them")
        # Between munera he says nothing; a day later the campaign says "ready" for him, and
        # again in the munus, and his fight is made in the arena.
        clock.advance(DAY + 60)  # the campaign's last step is stamped on the real clock
        expect(page.locator("#campaign-status")).to_contain_text("munus 1 of 1", timeout=60_000)
        clock.advance(DAY + 60)  # the campaign's last step is stamped on the real clock
        play = page.locator("#bouts a.play[data-match]")
        expect(play).not_to_have_count(0, timeout=60_000)
        match_id = play.first.get_attribute("data-match") or ""
        expect(page.locator("#events li").filter(has_text="ready")).not_to_have_count(0)
    finally:
        live.stop()
    with Store(url) as store:
        stored = store.load(match_id)
        assert stored is not None and stored.deadline is not None
        assert stored.deadline.seconds == DAY and stored.deadline.then == "bot"
