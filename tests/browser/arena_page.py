"""Driving the arena page (src/gladiator/web/static/arena.js, whose top comment lists the DOM
hooks used here) the way a player does: wait for the order form, click an option or a
highlighted hex or type into the distribute form, press Submit, read what the page shows.

The decision itself comes from the server's view of the seat (`GET /api/matches/{id}/view`),
so each step also checks that the page offers exactly what the server does."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import httpx
from playwright.sync_api import ElementHandle, Page, expect

from browser.policy import Entry

# What a page shows now, read in one round trip.
_STATE_JS = """() => ({
  form: Boolean(document.querySelector('#decision form')),
  outcome: !document.querySelector('#outcome').hidden,
  handover: !document.querySelector('#handover').hidden,
  events: document.querySelectorAll('#events li').length,
  seat: document.body.dataset.seat || null,
})"""

# The legal hexes a pointer can actually reach: the polygon itself is the element under the
# centre of its box (a figure lets clicks through; an item on the hex would not).
_CLICKABLE_JS = """() => [...document.querySelectorAll('#board polygon.legal')].filter((p) => {
  const b = p.getBoundingClientRect();
  return document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2) === p;
}).map((p) => p.dataset.hex)"""

# Each figure's facing as stored (data-facing) and as drawn: the side its wedge points through,
# from the angle between the disc's centre and the wedge's (0 = north, clockwise, y down).
_FACINGS_JS = """() => [...document.querySelectorAll('#board g[data-figure]')].map((g) => {
  const c = (el) => {
    const b = el.getBoundingClientRect();
    return [b.x + b.width / 2, b.y + b.height / 2];
  };
  const [x0, y0] = c(g.querySelector('.disc'));
  const [x1, y1] = c(g.querySelector('.facing'));
  const deg = (Math.atan2(x1 - x0, y0 - y1) * 180) / Math.PI;
  return [g.dataset.figure, Number(g.dataset.facing), ((Math.round(deg / 60) % 6) + 6) % 6];
})"""

_GONE_OR_REFUSED_JS = """([form]) =>
  !form.isConnected || !document.querySelector('#message').hidden"""


@dataclass
class Seat:
    """One player's page, with the token the server knows the seat by."""

    page: Page
    token: str
    base: str
    match_id: str

    def server_view(self) -> dict[str, Any]:
        answer = httpx.get(
            f"{self.base}/api/matches/{self.match_id}/view",
            headers={"Authorization": f"Bearer {self.token}"},
            timeout=10,
        )
        assert answer.status_code == 200, answer.text
        data: dict[str, Any] = answer.json()
        return data

    def state(self) -> dict[str, Any]:
        data: dict[str, Any] = self.page.evaluate(_STATE_JS)
        return data


def token_of(link: str) -> str:
    return link.split("#t=", 1)[1].split("&", 1)[0]


def next_to_act(seats: Sequence[Seat], timeout: float = 30.0) -> Seat | None:
    """The seat whose page shows an order form; None once every page shows the outcome."""
    end = time.monotonic() + timeout
    while True:
        states = [(s, s.state()) for s in seats if not s.page.is_closed()]
        for seat, st in states:
            if st["form"] and not st["handover"]:
                return seat
        if states and all(st["outcome"] for _, st in states):
            return None
        assert time.monotonic() < end, f"no page shows a decision or the outcome: {states}"
        time.sleep(0.05)


def facings(page: Page) -> dict[str, tuple[int, int]]:
    """{figure: (facing in the scene, facing its wedge is drawn at)}."""
    rows: list[list[Any]] = page.evaluate(_FACINGS_JS)
    return {row[0]: (row[1], row[2]) for row in rows}


def options_shown(page: Page) -> list[str]:
    texts: list[str] = page.eval_on_selector_all(
        "#options [data-option]", "(bs) => bs.map((b) => b.dataset.option)"
    )
    return texts


def clickable_hexes(page: Page) -> list[str]:
    keys: list[str] = page.evaluate(_CLICKABLE_JS)
    return keys


def enter(page: Page, decision: dict[str, Any], entry: Entry) -> None:
    """Give `entry` in the form the way a player would, and check the order line shows it."""
    if decision["kind"] == "choose":
        assert options_shown(page) == [o["text"] for o in decision["options"]]
    if entry.how == "option":
        page.locator(f'#options [data-option="{entry.text}"]').click()
    elif entry.how == "hex":
        assert entry.hex is not None
        key = f"{entry.hex[0]},{entry.hex[1]}"
        assert key in clickable_hexes(page), (key, clickable_hexes(page))
        hexagon = page.locator(f'#board polygon[data-hex="{key}"]')
        hexagon.click()
        assert hexagon.evaluate("(p) => p.classList.contains('selected')")
    elif entry.how == "slots":
        for name, value in entry.slots.items():
            page.locator(f'#decision [data-slot="{name}"]').fill(str(value))
        budget = decision["budget"]
        spent = sum(entry.slots.values())
        assert page.inner_text("#total").startswith(f"Total {spent} of {budget}")
    if entry.how != "as-is":
        # An empty distribute form stands for the empty allocation "-" (orders.js).
        shown = page.input_value("#order-text") or ("-" if entry.how == "slots" else "")
        assert shown == entry.text


def submit(page: Page) -> None:
    """Press Submit and wait until the server took the order (the form goes) or refused it
    (the message shows, and the test fails with it)."""
    form: ElementHandle = page.wait_for_selector("#decision form")  # type: ignore[assignment]
    assert page.locator("#submit").is_enabled(), page.inner_text("#order-check")
    page.locator("#submit").click()
    page.wait_for_function(_GONE_OR_REFUSED_JS, arg=[form])
    assert page.locator("#message").is_hidden(), page.inner_text("#message")


Chooser = Callable[[dict[str, Any], dict[str, Any], str], Entry]


def act(seat: Seat, choose: Chooser) -> tuple[str, Entry]:
    """One order through `seat`'s page: the seat's name and what was entered."""
    data = seat.server_view()
    # The page offers a form only while the server waits for this seat's order (an answered
    # form coming back after its ack was a bug of arena.js).
    view = data["view"]
    assert "decision" in view and data["seat"] not in view["submitted"], (data["seat"], view)
    decision = view["decision"]
    entry = choose(decision, data["scene"], data["seat"])
    enter(seat.page, decision, entry)
    submit(seat.page)
    return data["seat"], entry


def play_to_end(seat: Seat, choose: Chooser, limit: int = 400) -> int:
    """Every order of `seat`'s page until the page shows the outcome; how many were given."""
    given = 0
    while next_to_act([seat], timeout=60) is not None:
        act(seat, choose)
        given += 1
        assert given < limit
    return given


def commitment_shown(page: Page) -> str:
    text = page.inner_text("#seed")
    found = re.fullmatch(r"Seed commitment: ([0-9a-f]{64})", text.strip())
    assert found, text
    return found.group(1)


def revealed(page: Page) -> tuple[int, str, str]:
    """(seed, nonce, commitment) from the end screen's #outcome-seed."""
    text = page.inner_text("#outcome-seed")
    found = re.fullmatch(r"Seed (\d+), nonce ([0-9a-f]+); commitment ([0-9a-f]{64})", text.strip())
    assert found, text
    return int(found.group(1)), found.group(2), found.group(3)


# Each figure's states as drawn (data-states) and the badges under its disc.
_FIGURES_JS = """() => Object.fromEntries([...document.querySelectorAll('#board g[data-figure]')]
  .map((g) => [g.dataset.figure, {
    states: g.dataset.states || '',
    badges: [...g.querySelectorAll('rect.badge')].map((b) => b.getAttribute('class')),
    bands: g.querySelectorAll('line.beast-body').length,
  }]))"""


def figures_drawn(page: Page) -> dict[str, dict[str, Any]]:
    """{figure: {states (data-states: the states joined by spaces, as hexsvg.js writes them),
    badges (each badge's class), bands (a beast's head-to-body band)}}."""
    drawn: dict[str, dict[str, Any]] = page.evaluate(_FIGURES_JS)
    return drawn


def items_drawn(page: Page) -> list[str]:
    """The kinds of the items on the board (data-item), sorted."""
    kinds: list[str] = page.eval_on_selector_all(
        "#board [data-item]", "(gs) => gs.map((g) => g.dataset.item)"
    )
    return sorted(kinds)


def expect_outcome(page: Page, outcome: dict[str, Any]) -> None:
    """The end screen shows the server's outcome: who won and how, and no order form."""
    expect(page.locator("#outcome")).to_be_visible()
    winners = outcome["winners"]
    expect(page.locator("#outcome h2")).to_have_text(
        f"Won by {', '.join(winners)}" if winners else "A draw"
    )
    expect(page.locator("#outcome p").first).to_have_text(
        f"{outcome['summary']} ({outcome['method']})"
    )
    expect(page.locator("#decision form")).to_have_count(0)


def type_order(page: Page, text: str) -> None:
    """Type an order into the order field as a player does (key by key), and wait until the
    server's parser has answered (#order-check says legal, reads as, or what is legal)."""
    field = page.locator("#order-text")
    field.fill("")
    field.press_sequentially(text)
    expect(page.locator("#order-check")).to_have_attribute("data-checked", text.strip())


def order_check(page: Page) -> tuple[str, str]:
    """('ok' or 'bad', the text) of what the form says of the typed order."""
    node = page.locator("#order-check")
    cls = node.get_attribute("class") or ""
    return ("ok" if "ok" in cls.split() else "bad"), node.inner_text()


def slot_values(page: Page) -> dict[str, int]:
    """The distribute form's numbers, by slot name."""
    pairs: list[list[Any]] = page.eval_on_selector_all(
        "#decision [data-slot]", "(xs) => xs.map((x) => [x.dataset.slot, Number(x.value)])"
    )
    return {name: value for name, value in pairs}
