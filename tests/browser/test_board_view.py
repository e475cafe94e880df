"""The arena page's look (issue #14): the last-phase strip shows both revealed orders of the
phase just resolved, exactly as the events give them, with the movement arrows drawn on the
board; the animation toggle is remembered; at 390×844 nothing scrolls sideways, the tabs switch
and every button is at least 44 px; axe-core finds no serious or critical violation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from browser.arena_page import Seat, act, next_to_act
from browser.browsing import LiveArena, Pages
from browser.policy import colosseum_entry

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "web" / "screenshots"


def serious(page: Page) -> list[str]:
    results: Any = Axe().run(page)
    found = results.response["violations"]
    return [v["id"] for v in found if v.get("impact") in ("serious", "critical")]


def _colosseum_vs_bot(live: LiveArena) -> tuple[str, str]:
    made = httpx.post(
        f"{live.url}/api/matches",
        json={"ruleset": "colosseum", "options": {}, "seats": {"blue": "bot:tactician"}, "seed": 1},
        timeout=10,
    ).json()
    link = made["seats"]["red"]["link"]
    return made["id"], link if link.startswith("http") else f"{live.url}{link}"


@pytest.mark.browser
def test_the_strip_shows_the_revealed_orders_and_the_page_fits_a_phone(
    live: LiveArena, pages: Pages
) -> None:
    match_id, link = _colosseum_vs_bot(live)
    page = pages.open(link)
    red = Seat(page, link.split("#t=", 1)[1], live.url, match_id)
    for _ in range(2):
        assert next_to_act([red]) is not None
        act(red, colosseum_entry)
    page.wait_for_function(
        "() => document.querySelectorAll('#last-phase li[data-kind=order]').length === 2"
    )
    # §5.2.2: the strip's orders are the last phase's "reveals" events, word for word.
    events = red.server_view()["events"]
    starts = [i for i, ev in enumerate(events) if ev["type"] == "phase"]
    last = events[starts[-2] : starts[-1]]
    revealed = [f"{ev['seat']}: {ev['plot']}" for ev in last if ev["type"] == "plot"]
    strip = page.locator("#last-phase li[data-kind=order]").all_inner_texts()
    assert [s.split(" ", 1)[1] for s in strip] == revealed and len(revealed) == 2
    moved = page.locator("#arrows g[data-arrow]").count()
    assert moved == page.evaluate(
        "() => [...document.querySelectorAll('#arrows g[data-arrow] polyline.arrow-line')]"
        ".filter((p) => p.getAttribute('points').split(' ').length >= 2).length"
    )
    assert serious(page) == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "arena-colosseum-1280.png"))

    # The animation toggle is remembered across a reload.
    box = page.locator("#animate")
    was = box.is_checked()
    box.click()
    page.reload()
    expect(page.locator("#animate")).to_be_checked(checked=not was)
    assert page.evaluate("() => document.body.classList.contains('animate')") == (not was)

    page.set_viewport_size({"width": 390, "height": 844})
    expect(page.locator(".tabs")).to_be_visible()
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    small = page.evaluate(
        "() => [...document.querySelectorAll('button')].filter((b) => b.offsetParent)"
        ".map((b) => b.getBoundingClientRect())"
        ".filter((r) => r.height < 44 || r.width < 44).map((r) => [r.width, r.height])"
    )
    assert small == []
    page.locator(".tabs button[data-tab=log]").click()
    expect(page.locator("#events")).to_be_visible()
    expect(page.locator("#board")).to_be_hidden()
    page.locator(".tabs button[data-tab=orders]").click()
    expect(page.locator("#panels")).to_be_visible()
    page.locator(".tabs button[data-tab=board]").click()
    expect(page.locator("#board")).to_be_visible()
    assert serious(page) == []
    page.screenshot(path=str(SHOTS / "arena-colosseum-390.png"))

    lobby = pages.open(f"{live.url}/")
    assert serious(lobby) == []
    lobby.screenshot(path=str(SHOTS / "lobby-1280.png"))
