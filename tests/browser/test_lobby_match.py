"""Two players, each in a browser context of their own, create a quick-rules match in the lobby,
open their links and play it to the end by clicking in the arena; the seed revealed at the end
matches the commitment shown from the start."""

from __future__ import annotations

import hashlib

import pytest
from playwright.sync_api import expect

from browser.arena_page import Seat, act, commitment_shown, next_to_act, revealed, token_of
from browser.browsing import LiveArena, Pages, screenshot
from browser.lobby_page import create_match
from browser.policy import Entry, quick_entry

# Quick rules, seed 8: nine orders by both seats (steps, strikes, a spared man); QR12 stops it
# as a draw after 8 rounds should the play ever change.
SEED = 8


@pytest.mark.browser
def test_two_contexts_create_in_the_lobby_and_play_a_quick_match_to_the_end(
    live: LiveArena, pages: Pages
) -> None:
    lobby = pages.open(f"{live.url}/")
    # Few-valued options are choice lists drawn from the ruleset's options schema.
    lobby.select_option("#ruleset", "quick")
    arcs = lobby.locator('#options select[data-opt="strike_arc"] option').all_inner_texts()
    assert arcs == ["front", "any"]
    classes = lobby.locator('#options select[data-opt="gladiators"]').first
    assert "retiarius" in classes.locator("option").all_inner_texts()
    # A seat is offered only the bots that play the ruleset: no Colosseum tactician here.
    offered = (
        lobby.locator("#seats select")
        .first.locator("option")
        .evaluate_all("options => options.map(o => o.value)")
    )
    assert "bot:greedy" in offered and "bot:tactician" not in offered
    made = create_match(
        lobby,
        "quick",
        options={"max_rounds": "8", "strike_arc": "front"},
        seats={"blue": "human"},
        seed=SEED,
    )
    assert set(made.links) == {"red", "blue"} and not made.bots
    assert made.hotseat is not None and made.hotseat.count("t=") == 2
    expect(lobby.locator(f'#running tr[data-match="{made.match_id}"]')).to_be_visible()
    screenshot(lobby, "lobby")

    red_page = pages.open(made.links["red"], pages.context())
    blue_page = pages.open(made.links["blue"], pages.context())
    seats = {
        name: Seat(page, token_of(made.links[name]), live.url, made.match_id)
        for name, page in (("red", red_page), ("blue", blue_page))
    }
    for name, seat in seats.items():
        expect(seat.page.locator("#who")).to_have_text(f"You are {name}")
        expect(seat.page.locator("#conn-status")).to_have_text("connected")
        expect(seat.page.locator("#title")).to_have_text("GLADIATOR quick rules")
        assert commitment_shown(seat.page) == made.commitment

    given: list[tuple[str, Entry]] = []
    while (acting := next_to_act(list(seats.values()))) is not None:
        actor = acting.state()["seat"]
        (idle,) = (s for name, s in seats.items() if name != actor)
        # The other player's page says whose turn it is, and offers no form.
        expect(idle.page.locator("#waiting")).to_have_text(f"Waiting for {actor}")
        expect(idle.page.locator("#decision form")).to_have_count(0)
        given.append(act(acting, quick_entry))
        if len(given) == 4:
            screenshot(blue_page, "quick-arena")
        assert len(given) < 60, given
    assert {seat for seat, _ in given} == {"red", "blue"}
    # Moves were given by clicking highlighted hexes, strikes from the option list.
    assert {entry.how for _, entry in given} == {"hex", "option"}
    assert any(entry.text == "ST" for _, entry in given)

    server = seats["red"].server_view()
    outcome = server["view"]["outcome"]
    assert outcome is not None
    for seat in seats.values():
        page = seat.page
        expect(page.locator("#outcome h2")).to_have_text(
            f"Won by {', '.join(outcome['winners'])}" if outcome["winners"] else "A draw"
        )
        expect(page.locator("#outcome")).to_contain_text(outcome["summary"])
        expect(page.locator("#events li")).to_have_count(server["event_count"])
        expect(page.locator("#decision form")).to_have_count(0)
        seed, nonce, commitment = revealed(page)
        assert seed == SEED and commitment == made.commitment
        # Check the dice as a player would: SHA-256 of seed and nonce (core.seeding.commit).
        digest = hashlib.sha256(f"gladiator-seed:{seed}:{nonce}".encode()).hexdigest()
        assert digest == made.commitment
        assert page.inner_text("#seed").startswith(f"Seed {SEED} revealed")
        replay = page.locator("#outcome a.replay-link")
        assert replay.get_attribute("href") == f"/replay/{made.match_id}"
    screenshot(red_page, "quick-end-seed")
