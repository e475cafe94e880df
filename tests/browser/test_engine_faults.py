"""What the page shows when the engine fails (ruling HF1) and when a stored match stops
replaying (HF5): the voided decision's message, and the offer to resume from the last good
step, which a click takes."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from browser.arena_page import type_order
from browser.browsing import LiveArena, Pages, screenshot
from gladiator import registry
from gladiator.core.match import Match
from gladiator.server.fault_injection import inject
from gladiator.store import Store, StoredSeat, hash_token
from server_helpers import new_match

RED = "red-page-token-0123456789"


@pytest.fixture
def faulty_quick() -> Iterator[None]:
    """The real quick rules come back after the test (which makes their engine fail on E)."""
    yield
    registry.unregister("quick")


def _fail_on_end() -> None:
    """From here on the quick rules' engine fails on every decision whose order is E."""
    inject("quick", r"^E$")


@pytest.mark.browser
def test_the_page_says_the_decision_was_voided(
    live: LiveArena, pages: Pages, faulty_quick: None
) -> None:
    _fail_on_end()
    made = new_match(live.url, "quick", seats={"red": "human", "blue": "bot:random"}, seed=4)
    page = pages.open(made["seats"]["red"]["link"])
    expect(page.locator("#decision form")).to_have_count(1, timeout=30_000)
    type_order(page, "E")
    page.locator("#submit").click()
    message = page.locator("#message")
    expect(message).to_contain_text("The rules engine failed on this decision")
    expect(message).to_contain_text("yours was E")
    expect(page.locator("#decision form")).to_have_count(1)  # asked again
    screenshot(page, "engine-fault-voided")


def _store_broken(db: str) -> int:
    """A quick match stored with an E at some step (as before HF1 a server would have); the
    step of that E. Red's token is RED."""
    m = Match(registry.get("quick"), {}, seed=11, nonce="n")
    rng = random.Random(4)
    orders: list[tuple[str, str]] = []
    bad = None
    while bad is None or len(m.steps) < bad + 2:
        for seat, d in m.pending().items():
            order = d.sample(rng)
            if bad is None and order == "E":
                bad = len(m.steps)
            orders.append((seat, order))
            m.submit(seat, order)
    with Store(db) as store:
        store.create_match(
            match_id="broken",
            ruleset="quick",
            options=m.options,
            seed=m.seed,
            nonce=m.nonce,
            commitment=m.commitment,
            seats=[
                StoredSeat("red", "human", None, hash_token(RED)),
                StoredSeat("blue", "bot", "random", None),
            ],
            spectator_hash=hash_token("spectator-0123456789"),
        )
        for seq, (seat, order) in enumerate(orders):
            store.add_order("broken", seq, seat, order)
    return bad


@pytest.mark.browser
def test_the_page_offers_to_resume_a_broken_match(
    live: LiveArena, pages: Pages, faulty_quick: None
) -> None:
    step = _store_broken(live.db)
    _fail_on_end()
    pages.expect_console(r"status of 409")  # the page's own look at the broken match
    page = pages.open(f"{live.url}/match/broken#t={RED}")
    message = page.locator("#message")
    expect(message).to_contain_text(f"order E at step {step} can no longer be played")
    button = page.get_by_role("button", name=f"Resume from step {step}")
    expect(button).to_be_visible()
    screenshot(page, "broken-match-offer")
    button.click()
    expect(page.locator("#conn-status")).to_have_text("connected", timeout=30_000)
    expect(page.locator("#events li").first).to_be_visible()
    with Store(live.db) as store:
        resumed = [v for v in store.voids.orders("broken") if v.reason.startswith("resumed")]
    assert resumed and resumed[0].order == "E"
