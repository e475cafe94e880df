"""The replay viewer of a finished match: step forward and back with the buttons and the slider;
the board, the orders of the step and its events change with the step."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from browser.arena_page import facings
from browser.browsing import LiveArena, Pages, screenshot
from server_helpers import Client, new_match, play


def _finished(base: str, rng_seed: int) -> tuple[str, dict[str, Any]]:
    """A quick match played to the end over sockets with random legal orders from a fixed
    generator (the same match every run); its id and record."""
    made = new_match(base, "quick", options={"max_rounds": 8}, seed=rng_seed)
    clients = []
    for token in made["tokens"].values():
        client = Client(base, made["id"])
        client.hello(token)
        clients.append(client)
    play(clients, random.Random(rng_seed))
    for client in clients:
        client.close()
    answer = httpx.get(f"{base}/api/matches/{made['id']}/record", timeout=10)
    assert answer.status_code == 200, answer.text
    record: dict[str, Any] = answer.json()
    return made["id"], record


def _figures(page: Page) -> list[str]:
    drawn: list[str] = page.eval_on_selector_all(
        "#board g[data-figure]",
        "(gs) => gs.map((g) => `${g.dataset.figure} ${g.getAttribute('transform')} "
        "${g.dataset.facing} ${g.dataset.states}`)",
    )
    return drawn


@pytest.mark.browser
def test_the_replay_viewer_steps_through_a_finished_match(live: LiveArena, pages: Pages) -> None:
    match_id, record = _finished(live.url, 4)
    steps = record["steps"]
    assert isinstance(steps, list) and len(steps) >= 5
    total = len(steps)

    page = pages.open(f"{live.url}/replay/{match_id}")
    body = page.locator("body")
    expect(body).to_have_attribute("data-step", "0")
    expect(page.locator("#step-label")).to_have_text(f"Step 0 of {total}")
    expect(page.locator("#prev")).to_be_disabled()
    expect(page.locator("#orders")).to_have_text("the start")
    expect(page.locator("#board g[data-figure]")).to_have_count(2)
    at_start = _figures(page)
    caption_at_start = page.inner_text("#caption")

    page.click("#next")
    expect(body).to_have_attribute("data-step", "1")
    expect(page.locator("#step-label")).to_have_text(f"Step 1 of {total}")
    ((seat, order),) = steps[0].items()
    expect(page.locator(f'#orders tr[data-seat="{seat}"] td')).to_have_text(order)
    expect(page.locator("#events li")).not_to_have_count(0)

    # Step on to the end with the button; at every step each figure's wedge is drawn pointing
    # through the hex side of its facing (0 = north, clockwise: core.hexgrid).
    seen: set[int] = set()
    for step in range(1, total + 1):
        if step > 1:
            page.click("#next")
        expect(body).to_have_attribute("data-step", str(step))
        for stored, drawn in facings(page).values():
            assert drawn == stored, (step, facings(page))
            seen.add(stored)
    assert len(seen) >= 3, seen

    page.locator("#step-slider").fill("0")
    expect(body).to_have_attribute("data-step", "0")
    page.locator("#step-slider").fill(str(total))
    expect(body).to_have_attribute("data-step", str(total))
    expect(page.locator("#next")).to_be_disabled()
    expect(page.locator("#outcome")).to_be_visible()
    assert _figures(page) != at_start
    assert page.inner_text("#caption") != caption_at_start

    page.click("#prev")
    expect(body).to_have_attribute("data-step", str(total - 1))
    expect(page.locator("#outcome")).to_be_hidden()
    page.locator("#step-slider").fill(str(total // 2))
    expect(body).to_have_attribute("data-step", str(total // 2))
    screenshot(page, "replay")
    page.click("#first")
    expect(body).to_have_attribute("data-step", "0")
    assert _figures(page) == at_start
