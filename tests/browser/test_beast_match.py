"""A bestiarius against a lion (Advanced Game §28), set up in the lobby (`advanced`, the
`beasts` text, a style per seat) and played to the end through the page: the beast's seat has
no decisions (the engine moves it), so only the player acts; the board draws the lion as a
two-hex counter, a band from its head's hex to its body's (§28.2.1)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browser.arena_page import Seat, act, expect_outcome, figures_drawn, next_to_act, token_of
from browser.browsing import LiveArena, Pages, screenshot
from browser.lobby_page import create_match
from browser.policy import Entry, colosseum_entry

# Seed 4: the lion and the bestiarius meet in turn 1; red overcomes it (some 11 orders). The
# match is short, so max_turns stays at its default.
SEED = 4

# Where a beast's band starts and ends on the screen, and the centres of the hexes it should
# join (head first): [[x0, y0], [x1, y1], [hx, hy], [bx, by]].
_BAND_JS = """([seat, head, body]) => {
  const line = document.querySelector(`#board g[data-figure="${seat}"] line.beast-body`);
  const m = line.getScreenCTM();
  const at = (x, y) => {
    const p = line.ownerSVGElement.createSVGPoint();
    p.x = x; p.y = y;
    const s = p.matrixTransform(m);
    return [s.x, s.y];
  };
  const centre = (key) => {
    const b = document.querySelector(`#board polygon[data-hex="${key}"]`).getBoundingClientRect();
    return [b.x + b.width / 2, b.y + b.height / 2];
  };
  const a = (n) => Number(line.getAttribute(n));
  return [at(a('x1'), a('y1')), at(a('x2'), a('y2')), centre(head), centre(body)];
}"""


@pytest.mark.browser
def test_a_bestiarius_fights_a_lion_drawn_as_a_two_hex_counter(
    live: LiveArena, pages: Pages
) -> None:
    lobby = pages.open(f"{live.url}/")
    made = create_match(
        lobby,
        "colosseum",
        options={"advanced": True, "beasts": "blue:lion", "styles": ["bestiarius", "random"]},
        seats={"blue": "human"},  # the lobby's default there is a bot (UO5): a seat link wanted
        seed=SEED,
    )
    page = pages.open(made.links["red"])
    red = Seat(page, token_of(made.links["red"]), live.url, made.match_id)
    expect(page.locator("#board g[data-figure]")).to_have_count(2)
    expect(page.locator('#board g[data-figure="blue"] > title')).to_contain_text("Lion")

    # The lobby hands the beast's seat a link too when asked (a player for any seat): what
    # the server shows through it never holds a decision.
    assert "blue" in made.links
    beast = Seat(page, token_of(made.links["blue"]), live.url, made.match_id)
    bands = 0

    def choose(decision: dict[str, Any], scene: dict[str, Any], seat: str) -> Entry:
        nonlocal bands
        bands += _check_the_counter(page, scene)
        assert beast.server_view()["view"].get("decision") is None
        if bands == 1:
            screenshot(page, "colosseum-beast")
        return colosseum_entry(decision, scene, seat)

    given: list[Entry] = []
    while next_to_act([red]) is not None:
        seat_name, entry = act(red, choose)
        assert seat_name == "red"
        given.append(entry)
        assert len(given) < 120, [e.text for e in given]
    assert given and bands, given
    # §28.4: the beast's seat never had an order to give, so the log reveals no plot of its;
    # it moves after the gladiators, by its T22 roll.
    expect(page.locator("#events li").filter(has_text="red reveals")).not_to_have_count(0)
    expect(page.locator("#events li").filter(has_text="blue reveals")).to_have_count(0)
    expect(page.locator("#events li").filter(has_text="blue (Lion) rolls")).not_to_have_count(0)

    outcome = red.server_view()["view"]["outcome"]
    assert outcome is not None
    expect_outcome(page, outcome)
    screenshot(page, "colosseum-beast-end")


def _check_the_counter(page: Page, scene: dict[str, Any]) -> int:
    """The beast (a figure with two hexes in the scene) is drawn with one band, from the
    centre of its head's hex to its body's; the gladiator with none. 1 if a band was seen."""
    drawn = figures_drawn(page)
    seen = 0
    for figure in scene["figures"]:
        hexes = figure.get("hexes") or []
        if len(hexes) < 2:
            assert drawn[figure["id"]]["bands"] == 0, figure
            continue
        assert figure["kind"] == "beast" and drawn[figure["id"]]["bands"] == 1, (figure, drawn)
        head, body = (f"{q},{r}" for q, r in hexes[:2])
        start, end, head_at, body_at = page.evaluate(_BAND_JS, [figure["id"], head, body])
        for got, want in ((start, head_at), (end, body_at)):
            assert abs(got[0] - want[0]) < 1 and abs(got[1] - want[1]) < 1, (hexes, got, want)
        seen = 1
    return seen
