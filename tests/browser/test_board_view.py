"""The arena page's look (issue #14): the last-phase strip shows both revealed orders of the
phase just resolved, exactly as the events give them, with the movement arrows drawn on the
board; the animation toggle is remembered; at 390×844 nothing scrolls sideways, the tabs switch
and every button is at least 44 px; axe-core finds no serious or critical violation."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from browser.arena_page import Chooser, Seat, act, next_to_act, token_of
from browser.browsing import LiveArena, Pages
from browser.page_checks import (
    DESK,
    PHONE,
    check_both_sizes,
    serious,
    shoot,
    too_wide,
    tools_fit,
)
from browser.policy import colosseum_entry, quick_entry, random_entry
from server_helpers import Client, new_match, play


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


def struck_in(events: list[dict[str, Any]]) -> set[str]:
    """The figures a blow landed on in the phase the strip shows: a CRT result other than no
    effect or a fumble (§9.5, §9.6) lands on the seat that is not the attacking side, a thrown
    weapon that hits (§13.3.2) on the seat it was thrown at."""
    last, _ = last_revealed_phase(events)
    seats = ["red", "blue"]
    current: tuple[int, int] | None = None
    out: set[str] = set()
    for ev in events:
        if ev["type"] == "phase":
            current = (ev["turn"], ev["phase"])
        elif current != last:
            continue
        elif ev["type"] == "crt" and "side" in ev and ev["result"] not in ("-", "F"):
            out.add(seats[1 - ev["side"]])
        elif ev["type"] == "throw" and ev.get("hit"):
            out.add(next(s for s in seats if s != ev["seat"]))
    return out


# The animation the hit flash's CSS gives a figure's disc while it flashes.
_FLASH_JS = """() => {
  const g = document.querySelector('#board g[data-figure]');
  g.classList.add('flash');
  const name = getComputedStyle(g.querySelector('.disc')).animationName;
  g.classList.remove('flash');
  return name;
}"""

# A figure in every state the glossary names, drawn by the page's own board code.
_BADGES_JS = """async (states) => {
  const { Board } = await import('/static/hexsvg.js');
  const { loadGlossary } = await import('/static/glossary.js');
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  const board = new Board(svg);
  board.setStates((await loadGlossary('colosseum')).states);
  const figure = { id: 'x', seat: 'red', label: 'Light', hex: [0, 0], facing: 0, alive: true };
  return states.map((s) => {
    const g = board.figure({ ...figure, states: [s] });
    const badge = g.querySelector('g.badge-group');
    return [s, badge.dataset.state, badge.querySelector(':scope > title').textContent];
  });
}"""


def check_badge_titles(page: Page, live: LiveArena) -> None:
    """Every badge the Colosseum's glossary names gets its meaning as its SVG <title>, and
    the badges on the board now carry one each."""
    rulesets = httpx.get(f"{live.url}/api/rulesets", timeout=10).json()
    states = next(r for r in rulesets if r["name"] == "colosseum")["glossary"]["states"]
    wanted = [s for s in states if s != "dead"]  # the dead get a cross, not a badge
    for state, drawn, title in page.evaluate(_BADGES_JS, wanted):
        assert drawn == state and title.endswith(f": {states[state]}"), (state, title)
    untitled = page.evaluate(
        "() => [...document.querySelectorAll('#board g.badge-group')]"
        ".filter((b) => !b.querySelector(':scope > title').textContent.includes(': '))"
        ".map((b) => b.dataset.state)"
    )
    assert untitled == []


def hexes(scene: dict[str, Any]) -> dict[str, str]:
    return {f["id"]: f"{f['hex'][0]},{f['hex'][1]}" for f in scene["figures"]}


@pytest.mark.browser
def test_the_strip_shows_the_revealed_orders_and_the_page_fits_a_phone(
    live: LiveArena, pages: Pages
) -> None:
    match_id, link = _colosseum_vs_bot(live)
    page = pages.open(link)
    page.set_viewport_size(DESK)
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
    shoot(page, "arena-colosseum-1280")

    # Fight on until a blow lands: the figure it landed on is marked struck.
    for _ in range(40):
        assert next_to_act([red]) is not None
        data = red.server_view()
        if struck_in(data["events"]):
            break
        act(red, colosseum_entry)
    else:
        pytest.fail("no blow landed in 40 orders")
    struck = struck_in(data["events"])
    expect(page.locator("#board g[data-struck]")).to_have_count(len(struck))
    marked = page.eval_on_selector_all(
        "#board g[data-struck]", "(gs) => gs.map((g) => g.dataset.figure)"
    )
    assert set(marked) == struck
    # The flash runs only with the toggle on and motion not reduced.
    assert page.evaluate(_FLASH_JS) == "hit-flash"
    check_badge_titles(page, live)

    # The animation toggle is remembered across a reload, and stops the flash.
    box = page.locator("#animate")
    assert box.is_checked()
    box.click()
    assert page.evaluate(_FLASH_JS) == "none"
    page.reload()
    expect(page.locator("#animate")).not_to_be_checked()
    assert page.evaluate("() => document.body.classList.contains('animate')") is False
    box.click()
    page.emulate_media(reduced_motion="reduce")
    expect(page.locator("#board g[data-figure]")).to_have_count(2)
    assert page.evaluate(_FLASH_JS) == "none"
    page.emulate_media(reduced_motion="no-preference")

    page.set_viewport_size(PHONE)
    expect(page.locator(".tabs")).to_be_visible()
    assert too_wide(page) == []
    tools_fit(page)
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
    shoot(page, "arena-colosseum-390")

    # A decision that offers hexes (a §5.2.1 plot) brings them up to a 44 px target on the
    # phone; the whole arena fitted to 390 px leaves a hex about 20 px tall.
    legal = page.locator("#board .hex.legal")
    for _ in range(12):
        if next_to_act([red]) is None:
            pytest.fail("the match ended before another plot")
        if legal.count():
            break
        act(red, colosseum_entry)
    else:
        pytest.fail("no decision offering hexes in 12 orders")
    heights = page.eval_on_selector_all(
        "#board .hex.legal", "(hs) => hs.map((h) => h.getBoundingClientRect().height)"
    )
    assert min(heights) >= 44, heights
    page.locator("#zoom-fit").click()
    fitted = page.eval_on_selector("#board .hex", "(h) => h.getBoundingClientRect().height")
    assert fitted < 44, fitted


def _vs_bot(live: LiveArena, ruleset: str) -> tuple[str, str]:
    made = new_match(live.url, ruleset, seats={"blue": "bot:greedy"}, seed=3)
    link: str = made["seats"]["red"]["link"]
    return made["id"], link if link.startswith("http") else f"{live.url}{link}"


@pytest.mark.browser
def test_the_quick_and_skirmish_arenas_pass_axe_at_both_sizes(
    live: LiveArena, pages: Pages
) -> None:
    rng = random.Random(5)
    choosers: dict[str, Chooser] = {
        "quick": quick_entry,
        "skirmish": lambda decision, scene, seat: random_entry(decision, rng),
    }
    for ruleset, choose in choosers.items():
        match_id, link = _vs_bot(live, ruleset)
        page = pages.open(link)
        red = Seat(page, token_of(link), live.url, match_id)
        for _ in range(6):
            if next_to_act([red]) is None:
                break
            act(red, choose)
        # A quick-rules strike is named by its "strike" event alone: a hit, not an order.
        shown = page.locator("#last-phase li[data-kind=order], #last-phase li[data-kind=hit]")
        expect(shown).not_to_have_count(0)
        check_both_sizes(page, f"arena-{ruleset}")


@pytest.mark.browser
def test_the_lobby_replay_and_campaign_pages_pass_axe_at_both_sizes(
    live: LiveArena, pages: Pages
) -> None:
    lobby = pages.open(f"{live.url}/")
    check_both_sizes(lobby, "lobby")
    for ruleset in ("quick", "skirmish", "colosseum"):
        rules = pages.open(f"{live.url}/rules/{ruleset}")
        expect(rules.locator("h1").first).to_be_visible()
        check_both_sizes(rules)

    made = new_match(live.url, "quick", options={"max_rounds": 4}, seed=4)
    clients = []
    for token in made["tokens"].values():
        client = Client(live.url, made["id"])
        client.hello(token)
        clients.append(client)
    play(clients, random.Random(4))
    for client in clients:
        client.close()
    replay = pages.open(f"{live.url}/replay/{made['id']}")
    expect(replay.locator("#board g[data-figure]")).to_have_count(2)
    replay.click("#next")
    check_both_sizes(replay)

    lanistas = [{"name": "Batiatus", "kind": "human"}] + [
        {"name": f"Rival {i}", "kind": "bot"} for i in range(3)
    ]
    created = httpx.post(
        f"{live.url}/api/campaigns",
        json={"name": "Axe", "lanistas": lanistas, "options": {"munera": 1}, "seed": 7},
        timeout=30,
    )
    assert created.status_code == 201, created.text
    campaign = pages.open(created.json()["lanistas"]["l1"]["link"])
    expect(campaign.locator("#entries input[data-gladiator]")).to_have_count(5)
    check_both_sizes(campaign)
