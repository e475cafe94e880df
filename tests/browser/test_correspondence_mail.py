"""The e-mail side of correspondence play in the browser (issue #30; docs/web.md, Correspondence
play; CP5, CP7): the lobby sends a deadline and addresses only when "Correspondence" is on, an
address only for a human seat that has one typed, and shows the server's refusal in one line;
a match link without its token offers to send the seat's link again, which a server with an
SMTP server (a local one, tests/smtp_helpers.py) mails, and one without refuses in a sentence.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from browser.browsing import LiveArena, Pages, screenshot
from browser.lobby_page import create_match
from browser.page_checks import check_both_sizes
from gladiator.server.mail import MailPolicy
from server_helpers import db_url
from smtp_helpers import Inbox, body_of, free_port, local_smtp

RED_MAIL = "red.player@example.org"


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    box = Inbox()
    with local_smtp(box) as smtp:
        yield box, smtp.port


@pytest.fixture
def mailing(tmp_path: Path, inbox: tuple[Inbox, int]) -> Iterator[LiveArena]:
    """An arena that mails through the local SMTP server; its links lead to its own port."""
    port = free_port()
    policy = MailPolicy(
        "127.0.0.1",
        "arena@example.org",
        inbox[1],
        starttls=False,
        public_url=f"http://127.0.0.1:{port}",
        timeout=5,
    )
    server = LiveArena(db_url(tmp_path), port=port, mail=policy)
    yield server
    server.stop()


def _create_request(page: Page) -> Any:
    return page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/api/matches"))


@pytest.mark.browser
def test_the_lobby_sends_addresses_only_for_correspondence_and_a_lost_link_is_mailed(
    mailing: LiveArena, inbox: tuple[Inbox, int], pages: Pages
) -> None:
    lobby = pages.open(f"{mailing.url}/")
    lobby.select_option("#ruleset", "quick")
    expect(lobby.locator("#deadline-more")).to_be_hidden()
    # Live play (the default): neither key is sent, even with an address typed meanwhile.
    lobby.select_option("#deadline-seconds", label="1 hour")
    lobby.select_option('#seats tr[data-seat="blue"] select', "human")
    lobby.fill('#emails input[data-email-seat="blue"]', "blue@example.org")
    lobby.select_option("#deadline-seconds", label="off: live play")
    expect(lobby.locator("#deadline-more")).to_be_hidden()
    with _create_request(lobby) as sent:
        create_match(lobby, "quick", seats={"blue": "human"})
    live_body: dict[str, Any] = sent.value.post_data_json or {}
    assert live_body["ruleset"] == "quick"
    assert "deadline" not in live_body and "emails" not in live_body

    # A bot's seat has no address field; the address typed for blue comes back with his field.
    lobby.select_option("#deadline-seconds", label="3 days")
    lobby.select_option('#seats tr[data-seat="blue"] select', "level:easy")
    expect(lobby.locator("#emails input[data-email-seat]")).to_have_count(1)
    lobby.select_option('#seats tr[data-seat="blue"] select', "human")
    expect(lobby.locator('#emails input[data-email-seat="blue"]')).to_have_value("blue@example.org")
    lobby.fill('#emails input[data-email-seat="blue"]', "")
    check_both_sizes(lobby)  # axe at both sizes; nothing wider than a phone
    screenshot(lobby, "correspondence-lobby")
    with _create_request(lobby) as sent:
        made = create_match(
            lobby,
            "quick",
            seats={"blue": "human"},
            deadline="3 days",
            then="forfeit",
            emails={"red": RED_MAIL},
        )
    body: dict[str, Any] = sent.value.post_data_json or {}
    assert body["deadline"] == {"seconds": 3 * 86400, "then": "forfeit"}
    assert body["emails"] == {"red": RED_MAIL}  # blue's emptied field: no key
    expect(lobby.locator('#created li:has(a[data-seat="red"])')).to_contain_text(
        "notices go to the e-mail address given"
    )
    expect(lobby.locator('#created li:has(a[data-seat="blue"])')).not_to_contain_text("e-mail")
    assert RED_MAIL not in lobby.inner_text("#created")  # an address is never shown back

    # Red lost his link: the match page without a token has the server mail a new one.
    page = pages.open(f"{mailing.url}/match/{made.match_id}", pages.context())
    expect(page.locator("#lost-link")).to_be_visible()
    assert page.locator("#lost-seat option").evaluate_all("os => os.map(o => o.value)") == [
        "red",
        "blue",
    ]
    page.select_option("#lost-seat", "red")
    page.click("#lost-send")
    expect(page.locator("#lost-answer")).to_have_text(
        re.compile(r"^If that seat has an e-mail address, a new link to it is on its way there")
    )
    (message,) = inbox[0].wait_for(1)
    assert inbox[0].recipients == [[RED_MAIL]]
    found = re.search(r"http://127\.0\.0\.1:\d+/match/[\w-]+#t=[\w-]+", body_of(message))
    assert found, body_of(message)
    check_both_sizes(page)
    again = pages.open(found.group(0), pages.context())
    expect(again.locator("#who")).to_have_text("You are red")
    expect(again.locator("#deadline")).to_have_text(
        re.compile(r"^(Your move: |Blue has )2 d 23 h left; then (you forfeit|blue forfeits)$")
    )


@pytest.mark.browser
def test_a_server_without_mail_refuses_addresses_and_lost_links_in_a_sentence(
    live: LiveArena, pages: Pages
) -> None:
    lobby = pages.open(f"{live.url}/")
    pages.expect_console(r"status of (400|409)")
    lobby.select_option("#ruleset", "quick")
    lobby.select_option("#deadline-seconds", label="1 day")
    lobby.fill('#emails input[data-email-seat="red"]', RED_MAIL)
    expect(lobby.locator("#create")).to_be_enabled()
    lobby.click("#create")
    expect(lobby.locator("#create-error")).to_contain_text("this server sends no e-mail")
    expect(lobby.locator("#created")).to_be_hidden()
    assert RED_MAIL not in lobby.inner_text("#create-error")

    made = httpx.post(
        f"{live.url}/api/matches",
        json={
            "ruleset": "quick",
            "seats": {"red": "human", "blue": "level:easy"},
            "deadline": {"seconds": 86400, "then": "forfeit"},
        },
        timeout=30,
    )
    assert made.status_code == 201, made.text
    match_id = made.json()["id"]
    page = pages.open(f"{live.url}/match/{match_id}")
    expect(page.locator("#message")).to_contain_text("This link has no seat or spectator token")
    expect(page.locator("#lost-link")).to_be_visible()
    # Only the human seat can have a link sent.
    assert page.locator("#lost-seat option").evaluate_all("os => os.map(o => o.value)") == ["red"]
    answer = httpx.post(f"{live.url}/api/matches/{match_id}/resend", json={"seat": "red"})
    assert answer.status_code == 409, answer.text
    page.click("#lost-send")
    expect(page.locator("#lost-answer")).to_have_text(answer.json()["error"])
    expect(page.locator("#lost-answer")).to_have_class(re.compile(r"\bbad\b"))
