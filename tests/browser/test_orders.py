"""What a player types and reads in the arena's order form (orders.js, order_check.js,
presets.js, glossary.js, cite.js): the README's notation accepted by the web form, a mistake
answered with what is legal, one-click allocation presets within the decision's limits, a meaning
for the orders, § citations linked to the rules reference, the lobby's bot by default and
"my matches", and a Colosseum phase against the bot counted in clicks.

One server for the module (each test makes its own matches)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Locator, Page, expect

from browser.arena_page import (
    options_shown,
    order_check,
    slot_values,
    submit,
    token_of,
    type_order,
)
from browser.browsing import LiveArena, Pages
from browser.lobby_page import my_matches
from server_helpers import db_url

pytestmark = pytest.mark.browser

README_ALLOCATION = "A3:head A2:chest D2:arms D1:legs"


@pytest.fixture(scope="module")
def arena(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveArena]:
    server = LiveArena(db_url(tmp_path_factory.mktemp("orders")))
    yield server
    server.stop()


def _both_human(base: str) -> tuple[str, dict[str, str]]:
    made = httpx.post(
        f"{base}/api/matches", json={"ruleset": "colosseum", "seed": 3}, timeout=30
    ).json()
    return made["id"], {seat: info["link"] for seat, info in made["seats"].items()}


def _give(base: str, match: str, link: str, order: str) -> None:
    answer = httpx.post(
        f"{base}/api/matches/{match}/orders",
        json={"order": order},
        headers={"Authorization": f"Bearer {token_of(link)}"},
        timeout=30,
    )
    assert answer.status_code == 200, answer.text


def test_the_readme_notation_is_accepted_by_the_web_form(arena: LiveArena, pages: Pages) -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text("utf-8")
    assert f"`{README_ALLOCATION}`" in readme  # the notation this test types is the README's
    match, links = _both_human(arena.url)
    page = pages.open(links["red"])
    # §7.2: the plot typed in the book's notation, in any case and spacing.
    expect(page.locator("#order-text")).to_have_value("")
    type_order(page, "ff(r)")
    assert order_check(page)[0] == "ok", order_check(page)
    assert "reads as F F(R)" in order_check(page)[1]
    expect(page.locator('#options [data-option="F F(R)"]')).to_have_class(re.compile("selected"))
    # A mistake: the reason, and what is legal.
    type_order(page, "F F F")
    state, text = order_check(page)
    assert state == "bad" and "F F(R)" in text
    expect(page.locator("#submit")).to_be_disabled()
    type_order(page, "f f")
    submit(page)
    _give(arena.url, match, links["blue"], "F F")
    # §9.3: the allocation form is empty (no "-"), and the README's notation fills it.
    expect(page.locator("#decision [data-slot]").first).to_be_visible()
    expect(page.locator("#order-text")).to_have_value("")
    type_order(page, README_ALLOCATION)
    state, text = order_check(page)
    assert state == "ok" and "A-HEAD:3 A-CHEST:2 D-ARMS:2 D-LEGS:1" in text, text
    values = slot_values(page)
    assert {k: v for k, v in values.items() if v} == {
        "A-HEAD": 3,
        "A-CHEST": 2,
        "D-ARMS": 2,
        "D-LEGS": 1,
    }
    type_order(page, "A9:head")
    state, text = order_check(page)
    assert state == "bad" and "A-HEAD" in text  # the slots it may use are listed
    type_order(page, README_ALLOCATION)
    submit(page)
    _give(arena.url, match, links["blue"], "D1:head")
    events = page.locator("#events li")
    expect(
        events.filter(has_text="red reveals A-HEAD:3 A-CHEST:2 D-ARMS:2 D-LEGS:1")
    ).to_have_count(1)
    # § citations in the log link to the rules reference, which shows the section.
    cite = page.locator("#events a.cite").first
    href = cite.get_attribute("href") or ""
    assert re.fullmatch(r"/rules/colosseum#s\d+(\.\d+)*", href), href
    rules = pages.open(f"{arena.url}{href}")
    expect(rules.locator(".rules-text .target")).to_have_count(1)


class Clicks:
    """Every click the test makes, counted (typing counts as 0 clicks)."""

    def __init__(self) -> None:
        self.count = 0

    def click(self, target: Locator) -> None:
        self.count += 1
        target.click()


def _phase(page: Page, clicks: Clicks, *, typed: bool) -> list[str]:
    """Play the seat's decisions until one allocation is given; the kinds met. Typed: the
    order field and Enter (a pause, §7.4, where offered, and one defence, §9.3.3);
    clicked: an option or a preset, then Submit."""
    kinds: list[str] = []
    while "distribute" not in kinds:
        form = page.wait_for_selector("#decision form")
        assert form is not None
        kind = (
            "distribute"
            if "decision-distribute" in (form.get_attribute("class") or "")
            else "choose"
        )
        kinds.append(kind)
        if typed:
            # The order field has the focus: the keyboard alone gives the order.
            expect(page.locator("#order-text")).to_be_focused()
            offered = options_shown(page) if kind == "choose" else []
            text = ("X" if "X" in offered else offered[0]) if offered else "D1:chest"
            page.keyboard.type(text)
            expect(page.locator("#order-check")).to_have_attribute("data-checked", text)
            if order_check(page)[0] == "bad":  # no CF to spend (§9.3.1): the empty allocation
                type_order(page, "-")
            page.keyboard.press("Enter")
        elif kind == "choose":
            offered = options_shown(page)
            assert offered, "no plot offered"
            wanted = "F F" if "F F" in offered else offered[0]
            clicks.click(page.locator(f'#options [data-option="{wanted}"]'))
            clicks.click(page.locator("#submit"))
        else:
            clicks.click(page.locator('#presets [data-preset="balanced"]'))
            assert sum(slot_values(page).values()) > 0
            clicks.click(page.locator("#submit"))
        page.wait_for_function(
            "([f]) => !f.isConnected || !document.querySelector('#message').hidden", arg=[form]
        )
        expect(page.locator("#message")).to_be_hidden()
        assert len(kinds) < 12, kinds
    return kinds


def test_a_colosseum_phase_against_the_bot_in_few_clicks(arena: LiveArena, pages: Pages) -> None:
    clicks = Clicks()
    lobby = pages.open(f"{arena.url}/")
    lobby.select_option("#ruleset", "colosseum")
    # A bot of the default level is the opponent unless the player says otherwise.
    expect(lobby.locator('#seats tr[data-seat="blue"] select')).to_have_value("level:normal")
    expect(lobby.locator('#seats tr[data-seat="red"] select')).to_have_value("human")
    expect(lobby.locator("#rules-link")).to_have_attribute("href", "/rules/colosseum")
    # Every option has a note beside it (the options schema's descriptions).
    rows = lobby.locator("#options .option-row")
    assert rows.count() == rows.filter(has=lobby.locator(".hint")).count() > 20
    clicks.click(lobby.locator("details.advanced summary"))  # a fixed seed: the same match
    lobby.fill("#seed-input", "5")
    clicks.click(lobby.locator("#create"))
    link = lobby.locator('#created a[data-seat="red"]')
    expect(link).to_be_visible()
    seat_link = link.get_attribute("href") or ""
    page = pages.open(seat_link, lobby.context)
    lobby_clicks = clicks.count + 1  # the link is followed with a click in the lobby
    before = clicks.count
    kinds = _phase(page, clicks, typed=False)
    phase_clicks = clicks.count - before
    # Plot (an option, Submit) and allocation (a preset, Submit) for each phase played until the
    # first allocation; the turn's cost is these clicks with the lobby's.
    assert phase_clicks == 2 * len(kinds) and lobby_clicks + phase_clicks <= 25, kinds
    print(f"\nclicks: lobby {lobby_clicks}, phases {kinds}: {phase_clicks}")
    # The same with the keyboard only: no clicks at all.
    expect(page.locator("#decision form")).to_have_count(1)
    before = clicks.count
    typed_kinds = _phase(page, clicks, typed=True)
    assert clicks.count == before and "distribute" in typed_kinds
    # "My matches" in the lobby keeps the seat, with a link back to it.
    lobby.reload()
    match_id = page.url.split("/match/", 1)[1].split("#", 1)[0]
    expect(lobby.locator(f'#my-matches tr[data-match="{match_id}"] a.rejoin')).to_have_count(1)
    mine = my_matches(lobby)
    assert mine[match_id]["red"].endswith(f"#t={token_of(seat_link)}")


def test_presets_stay_within_the_decision_limits(arena: LiveArena, pages: Pages) -> None:
    match, links = _both_human(arena.url)
    page = pages.open(links["red"])
    type_order(page, "F F")
    submit(page)
    _give(arena.url, match, links["blue"], "F F")
    expect(page.locator("#presets")).to_be_visible()
    view = httpx.get(
        f"{arena.url}/api/matches/{match}/view",
        headers={"Authorization": f"Bearer {token_of(links['red'])}"},
        timeout=30,
    ).json()["view"]["decision"]
    limits = {s["name"]: s["max"] for s in view["slots"]}
    check = f"{arena.url}/api/matches/{match}/check"
    auth = {"Authorization": f"Bearer {token_of(links['red'])}"}
    for preset in ("balanced", "attack", "defence"):
        page.locator(f'#presets [data-preset="{preset}"]').click()
        values = slot_values(page)
        assert sum(values.values()) == view["budget"], (preset, values)
        assert all(v <= limits[k] for k, v in values.items()), (preset, values)
        attacks = sum(v for k, v in values.items() if k.startswith("A-"))
        defences = sum(v for k, v in values.items() if k.startswith("D-"))
        assert {"attack": defences == 0, "defence": attacks == 0}.get(
            preset, attacks * defences > 0
        )
        text = page.input_value("#order-text")
        answer = httpx.post(check, json={"order": text}, headers=auth, timeout=30).json()
        assert answer["ok"], (preset, text, answer)
    expect(page.locator('#presets [data-preset="last"]')).to_be_disabled()
    submit(page)
    _give(arena.url, match, links["blue"], "D1:head")
    # The meanings: every plot option says what it does, in the order written (§7.2.2).
    expect(page.locator("#options [data-option]").first).to_be_visible()
    turn_first = page.locator('#options [data-option="(R)F"]').get_attribute("title") or ""
    move_first = page.locator('#options [data-option="F(R)"]').get_attribute("title") or ""
    assert turn_first.index("right") < turn_first.index("forward"), turn_first
    assert move_first.index("forward") < move_first.index("right"), move_first
    expect(page.locator("#order-help")).to_contain_text("KN")
