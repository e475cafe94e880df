"""Whose move it is, in the lobby and the arena (issue #30; docs/web.md, Correspondence play): a
correspondence match made with the lobby's "Correspondence" choice, its seats opened in two
browser contexts. "My matches" marks the match and the seat that is waited for ("Your move"),
and not the other's; the lobby's title counts them; the arena's title starts with "● Your move"
only in the page whose move it is; a page that asked for notifications and is hidden shows one
when its move comes, and so does the lobby's next poll.

Headless pages are never hidden: an init script makes `document.hidden` true in the context
that is "away", and records every `Notification` made there."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from browser.arena_page import Seat, act, next_to_act, token_of
from browser.browsing import LiveArena, Pages, screenshot
from browser.lobby_page import create_match
from browser.page_checks import serious
from browser.policy import quick_entry
from gladiator.bots.levels import level_for

SEED = 5  # quick, seed 5: blue moves first, then red
MARK = "● Your move — "
DAY_LEFT = r"(23 h 59 min|1 d) left"  # a day's deadline, a moment after it started
# The quick rules' normal level plays a late decision (CP2), as the view names it.
THEN_BOT = re.escape(f"then the stand-in bot ({level_for('quick', 'normal').spec.text}) plays")

# Run before any script of a page of the context: the page is hidden, and every notification
# (and every request for the permission) is recorded in window.__notes / window.__asked.
AWAY = """(() => {
  Object.defineProperty(Document.prototype, "hidden", { configurable: true, get: () => true });
  Object.defineProperty(Document.prototype, "visibilityState",
    { configurable: true, get: () => "hidden" });
  window.__notes = [];
  window.__asked = 0;
  const Real = window.Notification;
  if (typeof Real !== "function") return;
  function Spy(title, options = {}) {
    window.__notes.push({ title, body: options.body || "" });
    return new Real(title, options);
  }
  Object.defineProperty(Spy, "permission", { get: () => Real.permission });
  Spy.requestPermission = (...args) => {
    window.__asked += 1;
    return Real.requestPermission(...args);
  };
  Spy.prototype = Real.prototype;
  window.Notification = Spy;
})();"""


def _away(ctx: BrowserContext) -> BrowserContext:
    ctx.add_init_script(AWAY)
    return ctx


def _notes(page: Page) -> list[dict[str, str]]:
    notes: list[dict[str, str]] = page.evaluate("window.__notes")
    return notes


def _row(page: Page, match_id: str) -> Any:
    return page.locator(f'#my-matches tr[data-match="{match_id}"]')


@pytest.mark.browser
def test_my_move_is_marked_in_the_lobby_and_the_arena_and_notified_when_hidden(
    live: LiveArena, pages: Pages
) -> None:
    creator = pages.open(f"{live.url}/")
    # The time left as a player reads it (deadline.js): its largest unit and the next.
    texts = creator.evaluate(
        """import('/static/deadline.js').then((m) =>
          [0, 45, 65, 3600, 3605, 80000, 3 * 86400 + 5, 90061].map(m.durationText))"""
    )
    assert texts == ["0 s", "45 s", "1 min 5 s", "1 h", "1 h", "22 h 13 min", "3 d", "1 d 1 h"]

    creating = lambda r: r.method == "POST" and r.url.endswith("/api/matches")  # noqa: E731
    with creator.expect_request(creating) as sent:
        made = create_match(
            creator, "quick", seats={"blue": "human"}, seed=SEED, deadline="1 day", then="bot"
        )
    body: dict[str, Any] = sent.value.post_data_json or {}
    # No address typed: no "emails" key at all.
    assert body["deadline"] == {"seconds": 86400, "then": "bot"} and "emails" not in body
    match_id = made.match_id
    assert set(made.links) == {"red", "blue"}

    # The creator holds both seats: the match waits for blue, so blue's link is marked.
    row = _row(creator, match_id)
    expect(row.locator(".your-move")).to_have_text(re.compile(f"^Your move · {DAY_LEFT}$"))
    expect(row).to_have_attribute("data-your-move", "blue")
    expect(row.locator('a.rejoin[data-seat="blue"]')).to_have_class(
        re.compile(r"\byour-move-link\b")
    )
    expect(row.locator('a.rejoin[data-seat="red"]')).not_to_have_class(re.compile("your-move-link"))
    expect(creator).to_have_title("(1) GLADIATOR — lobby")
    running = creator.locator(f'#running tr[data-match="{match_id}"] td.turn')
    expect(running).to_have_text(
        re.compile(f"^waiting for blue · {DAY_LEFT}; 1 d a decision, then a bot plays$")
    )
    assert serious(creator) == []

    # Red is away: his context's pages are hidden; the lobby's poll runs on Playwright's clock.
    red_ctx = _away(pages.context())
    red_ctx.clock.install()
    red_link, blue_link = made.links["red"], made.links["blue"]
    red = Seat(pages.open(red_link, red_ctx), token_of(red_link), live.url, match_id)
    blue = Seat(pages.open(blue_link), token_of(blue_link), live.url, match_id)
    expect(blue.page).to_have_title(re.compile("^" + re.escape(MARK) + "GLADIATOR quick rules"))
    expect(blue.page.locator("#deadline")).to_have_text(
        re.compile(f"^Your move: {DAY_LEFT}; {THEN_BOT} this decision for you$")
    )
    expect(red.page.locator("#deadline")).to_have_text(
        re.compile(f"^Blue has {DAY_LEFT}; {THEN_BOT} this decision for blue$")
    )
    expect(red.page).to_have_title("GLADIATOR quick rules — arena")

    # Red asks to be notified; the browser says yes.
    notify = red.page.locator("#notify-me")
    expect(notify).to_be_visible()
    red_ctx.grant_permissions(["notifications"])
    notify.click()
    expect(red.page.locator("#notify-state")).to_have_text(
        "You will be notified when it is your move while this page is in the background."
    )
    expect(notify).to_be_hidden()
    assert red.page.evaluate("window.__asked") == 1
    assert _notes(red.page) == []

    red_lobby = pages.open(f"{live.url}/", red_ctx)
    red_row = _row(red_lobby, match_id)
    expect(red_row.locator("td.turn")).to_have_text(re.compile(f"^waiting for blue · {DAY_LEFT}$"))
    expect(red_row.locator(".your-move")).to_have_count(0)
    expect(red_row).not_to_have_attribute("data-your-move", re.compile("."))
    expect(red_lobby).to_have_title("GLADIATOR — lobby")

    given = 0
    while next_to_act([red, blue]) is blue:
        act(blue, quick_entry)
        given += 1
        assert given < 10
    assert next_to_act([red, blue]) is red
    expect(red.page).to_have_title(re.compile("^" + re.escape(MARK)))
    expect(blue.page).to_have_title("GLADIATOR quick rules — arena")
    red.page.wait_for_function("() => window.__notes.length > 0")
    (note,) = _notes(red.page)
    assert note["title"] == "GLADIATOR: your move"
    assert re.fullmatch(
        f"GLADIATOR quick rules, match {match_id}: you are red; {DAY_LEFT}\\.", note["body"]
    ), note
    expect(red.page.locator("#deadline")).to_have_text(
        re.compile(f"^Your move: {DAY_LEFT}; {THEN_BOT} this decision for you$")
    )
    assert serious(red.page) == []
    screenshot(red.page, "correspondence-your-move")

    # Red's lobby finds the move at its next poll (every 30 s), and says so while hidden.
    assert _notes(red_lobby) == []
    red_lobby.clock.fast_forward(31_000)
    expect(red_row.locator(".your-move")).to_have_text(re.compile(f"^Your move · {DAY_LEFT}$"))
    expect(red_row.locator('a.rejoin[data-seat="red"]')).to_have_class(re.compile("your-move-link"))
    expect(red_lobby).to_have_title("(1) GLADIATOR — lobby")
    red_lobby.wait_for_function("() => window.__notes.length > 0")
    (lobby_note,) = _notes(red_lobby)
    assert lobby_note["title"] == "GLADIATOR: your move" and match_id in lobby_note["body"]

    # The creator's list, refreshed: now red's link is the marked one.
    creator.click("#refresh")
    expect(row).to_have_attribute("data-your-move", "red")
    expect(row.locator('a.rejoin[data-seat="red"]')).to_have_class(re.compile("your-move-link"))
    expect(row.locator('a.rejoin[data-seat="blue"]')).not_to_have_class(
        re.compile("your-move-link")
    )
    expect(creator.locator(f'#running tr[data-match="{match_id}"] td.turn')).to_contain_text(
        "waiting for red · "
    )
