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


def last_revealed_phase(events: list[dict[str, Any]]) -> tuple[tuple[int, int], dict[str, str]]:
    """The Colosseum phase the strip must show, by the turn and phase numbers of its "phase"
    event (§5.2): the latest one whose plots (§5.2.2) are in the events, with each seat's
    revealed plot and CF allocation (§9.4.1), in the order revealed."""
    revealed: dict[tuple[int, int], dict[str, list[str]]] = {}
    current: tuple[int, int] | None = None
    for ev in events:
        if ev["type"] == "phase":
            current = (ev["turn"], ev["phase"])
        elif current is not None and ev["type"] in ("plot", "allocation"):
            revealed.setdefault(current, {}).setdefault(ev["seat"], []).append(ev[ev["type"]])
    last = max(revealed)
    return last, {seat: " · ".join(orders) for seat, orders in revealed[last].items()}


def hexes(scene: dict[str, Any]) -> dict[str, str]:
    return {f["id"]: f"{f['hex'][0]},{f['hex'][1]}" for f in scene["figures"]}


@pytest.mark.browser
def test_the_strip_shows_the_revealed_orders_and_the_page_fits_a_phone(
    live: LiveArena, pages: Pages
) -> None:
    match_id, link = _colosseum_vs_bot(live)
    page = pages.open(link)
    red = Seat(page, link.split("#t=", 1)[1], live.url, match_id)
    # Plot until CFs are to be allocated (§9.3) after a phase in which somebody moved: the
    # phase is still open then, its plots revealed and its figures moved.
    start: dict[str, str] = {}
    for _ in range(12):
        assert next_to_act([red]) is not None
        data = red.server_view()
        if data["view"]["decision"]["kind"] == "choose":
            start = hexes(data["scene"])
        elif start and hexes(data["scene"]) != start:
            break
        act(red, colosseum_entry)
    else:
        pytest.fail("no allocation after a movement in 12 orders")
    scene, events = data["scene"], data["events"]
    (turn, phase), orders = last_revealed_phase(events)
    # The scene names the open phase: the one whose CFs are asked for.
    assert scene["caption"].startswith(f"Turn {turn}, phase {phase}:"), scene["caption"]
    expect(page.locator("#strip h2")).to_have_text(f"Last phase: Turn {turn}, phase {phase}")
    shown = page.eval_on_selector_all(
        "#last-phase li[data-kind=order]",
        "(lis) => lis.map((li) => [li.dataset.seat, li.textContent.replace(/^Order /, '')])",
    )
    assert shown == [[seat, f"{seat}: {o}"] for seat, o in orders.items()] and len(shown) == 2
    # One arrow per figure that moved, from where it stood when the plots were asked for to
    # where the scene has it now.
    now = hexes(scene)
    moved = {f: (start[f], now[f]) for f in now if now[f] != start.get(f)}
    arrows = page.eval_on_selector_all(
        "#arrows g[data-arrow]", "(gs) => gs.map((g) => [g.dataset.arrow, g.dataset.path])"
    )
    assert len(moved) >= 1
    assert {a: (p.split()[0], p.split()[-1]) for a, p in arrows} == moved, (arrows, moved)
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
