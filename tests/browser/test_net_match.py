"""A Retiarius against the centurion bot's Secutor (Advanced Game §19, §20), set up in the lobby
(the `advanced` flag, a style per seat) and played to the end through the page: the player
plots from the option list, tosses the net with a `+TN` order, drags the man it ensnares in
the distribute form; the board draws the net in his hand, round the Secutor (the NT badge) and
on the sand, as the server's scene has it."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browser.arena_page import (
    Seat,
    act,
    expect_outcome,
    figures_drawn,
    items_drawn,
    next_to_act,
    token_of,
)
from browser.browsing import LiveArena, Pages, screenshot
from browser.lobby_page import create_match
from browser.policy import Entry, colosseum_entry

# Seed 9 with max_turns 6 (the centurion's Fighting Spirit is drawn from a hash of the match
# options, §29.2, so both matter): red's first toss, in turn 1 phase 1, ensnares the Secutor,
# who struggles free that phase against red's DRAG; later tosses miss or are repelled (RN)
# until the Secutor grabs the net (§20.8.1), and red kills him in turn 2 phase 6 (27 orders).
# Should the play ever change, max_turns still ends the match in time.
SEED = 9
BADGES_SHOWN = 4  # hexsvg.js draws up to four badges under a disc


@pytest.mark.browser
def test_a_retiarius_nets_the_centurions_secutor_through_the_page(
    live: LiveArena, pages: Pages
) -> None:
    lobby = pages.open(f"{live.url}/")
    made = create_match(
        lobby,
        "colosseum",
        options={"advanced": True, "styles": ["retiarius", "secutor"], "max_turns": "6"},
        seats={"blue": "bot:centurion"},
        seed=SEED,
    )
    assert set(made.links) == {"red"} and made.bots["blue"].endswith("bot: centurion")
    expect(lobby.locator('#options [data-opt="advanced"]')).to_be_checked()
    screenshot(lobby, "lobby-advanced")

    page = pages.open(made.links["red"])
    red = Seat(page, token_of(made.links["red"]), live.url, made.match_id)
    expect(page.locator("#board g[data-figure]")).to_have_count(2)
    expect(page.locator('#board g[data-figure="red"] > title')).to_contain_text("Retiarius")
    expect(page.locator('#board g[data-figure="blue"] > title')).to_contain_text("Secutor")

    seen: dict[str, int] = {"net": 0, "ensnared": 0, "ground": 0}

    def choose(decision: dict[str, Any], scene: dict[str, Any], seat: str) -> Entry:
        _check_the_net_drawn(page, scene, seen)
        return colosseum_entry(decision, scene, seat)

    given: list[Entry] = []
    while next_to_act([red]) is not None:
        seat_name, entry = act(red, choose)
        assert seat_name == "red"
        given.append(entry)
        assert len(given) < 120, [e.text for e in given]

    tosses = [e.text for e in given if e.text.endswith("+TN")]
    assert tosses and all(e.how == "option" for e in given if e.text.endswith("+TN"))
    drags = [e for e in given if "DRAG" in e.slots]
    # §20.5.3-§20.5.5: this seed's first toss ensnares him, and red then drags.
    assert seen["net"] and seen["ensnared"] and drags, (seen, [e.text for e in given])
    # §5.2.2: every plot is revealed once both are in; the log shows the tosses as given.
    events = page.locator("#events li").filter(has_text="red reveals")
    shown = [t.split(" (§")[0] for t in events.all_inner_texts()]
    assert [s for s in shown if s.endswith("+TN")] == [f"red reveals {t}" for t in tosses]

    outcome = red.server_view()["view"]["outcome"]
    assert outcome is not None
    expect_outcome(page, outcome)
    screenshot(page, "colosseum-net-end")


def _check_the_net_drawn(page: Page, scene: dict[str, Any], seen: dict[str, int]) -> None:
    """The board shows each figure's states as the server's scene has them (§20: `net` in the
    Retiarius's hand, `ensnared` round his victim, each with its badge) and the items on the
    sand (a net that fell, §20.5.5, §20.8)."""
    drawn = figures_drawn(page)
    for figure in scene["figures"]:
        states = figure["states"]
        assert drawn[figure["id"]]["states"] == " ".join(states), (figure, drawn)
        badges = drawn[figure["id"]]["badges"]
        living = [s for s in states if s != "dead"]
        for state, what in (("net", "net"), ("ensnared", "ensnared")):
            if state in living:
                seen[what] += 1
                if living.index(state) < BADGES_SHOWN:
                    assert any(f"badge-{state}" in b.split() for b in badges), (state, badges)
        if "ensnared" in living and seen["ensnared"] == 1:
            screenshot(page, "colosseum-net-ensnared")
    kinds = sorted(item["kind"] for item in scene["items"])
    assert items_drawn(page) == kinds
    seen["ground"] += kinds.count("net")
