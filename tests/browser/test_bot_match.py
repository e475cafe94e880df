"""One player against a bot in the Colosseum: the lobby seats the tactician, the player plots
from the option list (the ghost shows where a move ends), allocates CFs in the distribute form,
and the bot answers every secret decision."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browser.arena_page import Seat, act, next_to_act, options_shown, token_of
from browser.browsing import LiveArena, Pages, screenshot
from browser.lobby_page import create_match
from browser.policy import colosseum_entry

SEED = 1


@pytest.mark.browser
def test_a_player_plots_and_allocates_against_the_tactician_bot(
    live: LiveArena, pages: Pages
) -> None:
    lobby = pages.open(f"{live.url}/")
    made = create_match(lobby, "colosseum", seats={"blue": "bot:tactician"}, seed=SEED)
    assert set(made.links) == {"red"}
    assert made.bots["blue"].endswith("bot: tactician")

    page = pages.open(made.links["red"])
    red = Seat(page, token_of(made.links["red"]), live.url, made.match_id)
    expect(page.locator("#title")).to_contain_text("Colosseum")
    expect(page.locator("#board g[data-figure]")).to_have_count(2)
    expect(page.locator("#panels .panel[data-seat]")).to_have_count(2)

    kinds: list[str] = []
    given: list[str] = []
    ghost_shown = False
    # A few phases: three allocations, or the end should the bot (whose own dice are not the
    # match's seed) win sooner.
    while kinds.count("distribute") < 3 and next_to_act([red]) is not None:
        decision = red.server_view()["view"]["decision"]
        kinds.append(decision["kind"])
        if decision["kind"] == "choose" and not ghost_shown and len(kinds) > 1:
            ghost_shown = True
            _hover_a_move(page, decision)
        seat_name, entry = act(red, colosseum_entry)
        assert seat_name == "red"
        given.append(entry.text)
        assert len(kinds) < 30, kinds
    assert "distribute" in kinds and ghost_shown
    # §5.2.2, §9.4.1: every secret order is revealed once both are in, so the bot answered
    # each one, and the log shows red's orders exactly as they were clicked and typed.
    events = page.locator("#events li")
    expect(events.filter(has_text="blue reveals")).to_have_count(len(given))
    revealed = [t.split(" (§")[0] for t in events.filter(has_text="red reveals").all_inner_texts()]
    assert revealed == [f"red reveals {order}" for order in given]
    screenshot(page, "colosseum-mid-match")


def _hover_a_move(page: Page, decision: dict[str, Any]) -> None:
    """Hover a move with a path in the option list: the ghost shows its path and where the
    figure ends, facing its new way; the screenshot keeps it."""
    moving = [o for o in decision["options"] if len(o.get("path") or []) >= 2]
    assert moving, "no move with a path to preview"
    option = max(moving, key=lambda o: len(o["path"]))
    assert option["text"] in options_shown(page)
    page.fill("#option-filter", option["text"])
    button = page.locator(f'#options [data-option="{option["text"]}"]')
    button.hover()
    ghost = page.locator("#ghost")
    expect(ghost.locator("polyline.ghost-path")).to_have_count(1)
    expect(ghost.locator("g.figure.ghost")).to_have_count(1)
    screenshot(page, "colosseum-ghost")
    page.fill("#option-filter", "")
