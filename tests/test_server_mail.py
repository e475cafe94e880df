"""E-mail over HTTP (server/mail_api.py; docs/web.md, Correspondence play; rulings CP5-CP7): a
real server and a local SMTP server (tests/smtp_helpers.py). The notice received, the
unsubscribe link (a GET changes nothing, the POST does, a wrong key is refused), a lost link
sent again (both links open the seat; one re-send per ten minutes), the `emails` bodies
refused, and the addresses never shown.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from gladiator.server.correspondence import DeadlinePolicy
from gladiator.server.listen import Listening
from gladiator.server.loadtest import sample_order
from gladiator.server.mail import MailPolicy
from gladiator.store import Store
from server_helpers import arena, db_url, tokens_of
from smtp_helpers import Inbox, body_of, free_port, local_smtp

HUMANS = {"red": "human", "blue": "human"}  # quick, seed 5: blue moves first
EMAILS = {"blue": "blue.player@example.org", "red": "red.player@example.org"}
PUBLIC = "https://arena.example.org"
DAY = {"seconds": 86400, "then": "bot"}


def _policy(port: int) -> MailPolicy:
    return MailPolicy(
        "127.0.0.1",
        "arena@example.org",
        port,
        starttls=False,
        public_url=PUBLIC,
        timeout=5,
        interval=0.05,
        grace=0,
    )


@contextmanager
def _mailing(tmp_path: Path, inbox: Inbox) -> Iterator[tuple[Listening, str]]:
    url = db_url(tmp_path)
    with (
        local_smtp(inbox) as smtp,
        arena(url, mail=_policy(smtp.port), deadlines=DeadlinePolicy(min_seconds=1)) as running,
    ):
        yield running, url


def _create(base: str, **body: Any) -> httpx.Response:
    return httpx.post(
        f"{base}/api/matches",
        json={"ruleset": "quick", "seats": HUMANS, "seed": 5, **body},
        timeout=30,
    )


def _view(base: str, match_id: str, token: str) -> httpx.Response:
    return httpx.get(
        f"{base}/api/matches/{match_id}/view", headers={"authorization": f"Bearer {token}"}
    )


def _local(link: str, base: str) -> str:
    """A link of a mail, on the test's server (the mail names the public address)."""
    assert link.startswith(PUBLIC)
    return base + link.removeprefix(PUBLIC)


def _no_address_in(*texts: str) -> None:
    for text in texts:
        assert "example.org" not in text.replace(PUBLIC, ""), text


def test_the_notice_reaches_the_smtp_server_and_its_unsubscribe_link_stops_them(
    tmp_path: Path,
) -> None:
    """CP5, CP6: the local SMTP server receives blue's notice, with the match's page (no
    token) and the unsubscribe link; a GET of the link changes nothing, a wrong key is
    refused, the one-click POST unsubscribes, and blue's next decision sends nothing."""
    inbox = Inbox()
    with _mailing(tmp_path, inbox) as (running, url):
        base = running.url
        made = _create(base, deadline=DAY, emails=EMAILS)
        assert made.status_code == 201, made.text
        _no_address_in(made.text)
        answer = made.json()
        match_id = answer["id"]
        assert answer["seats"]["blue"]["email"] is True and answer["seats"]["red"]["email"]
        (notice,) = inbox.wait_for(1)
        assert inbox.recipients == [[EMAILS["blue"]]]
        assert notice["Subject"] == f"GLADIATOR: your move in match {match_id}"
        assert f"{PUBLIC}/match/{match_id}\n" in body_of(notice)
        link = notice["List-Unsubscribe"].strip("<>")
        assert link in body_of(notice) and "/blue?key=" in link
        leave = _local(link, base)

        page = httpx.get(leave)
        assert page.status_code == 200 and "/static/unsubscribe.js" in page.text
        assert page.headers["cache-control"] == "no-store"
        with Store(url) as store:
            contact = store.contacts.contact(match_id, "blue")
            assert contact is not None and not contact.unsubscribed  # the GET changed nothing
        for wrong in (leave[:-3] + "xyz", leave.replace("/blue?", "/red?"), leave.split("?")[0]):
            for method in ("GET", "POST"):
                refused = httpx.request(method, wrong)
                assert refused.status_code == 404, (method, wrong)
                assert refused.json()["error"].startswith("that unsubscribe link is not valid")

        one_click = {"content-type": "application/x-www-form-urlencoded"}
        for _ in range(2):  # saying it twice is no error
            done = httpx.post(leave, content="List-Unsubscribe=One-Click", headers=one_click)
            assert done.status_code == 200 and done.headers["content-type"].startswith("text/plain")
            assert done.text == f"Unsubscribed: no more mail about seat blue of match {match_id}."
        with Store(url) as store:
            contact = store.contacts.contact(match_id, "blue")
            assert contact is not None and contact.unsubscribed

        blue = tokens_of(answer["seats"]["blue"]["link"])[0]
        decision = _view(base, match_id, blue).json()["view"]["decision"]
        order = httpx.post(
            f"{base}/api/matches/{match_id}/orders",
            json={"order": sample_order(decision, random.Random(1))},
            headers={"authorization": f"Bearer {blue}"},
        )
        assert order.status_code == 200, order.text
        assert _view(base, match_id, blue).json()["view"]["waiting_for"] == ["blue"]
        time.sleep(0.5)  # ten sweeps
    assert len(inbox.messages) == 1


def test_a_lost_link_is_sent_again_and_both_links_open_the_seat(tmp_path: Path) -> None:
    """CP7: the re-send answers the same sentence whether or not the seat has an address; the
    new link opens the seat, the first still does; a second re-send within ten minutes sends
    nothing."""
    inbox = Inbox()
    with _mailing(tmp_path, inbox) as (running, _url):
        base = running.url
        made = _create(base, deadline=DAY, emails={"blue": EMAILS["blue"]}).json()
        match_id, first = made["id"], tokens_of(made["seats"]["blue"]["link"])[0]
        assert "email" not in made["seats"]["red"]
        inbox.wait_for(1)  # blue's notice
        resend = f"{base}/api/matches/{match_id}/resend"
        asked = httpx.post(resend, json={"seat": "blue"})
        assert asked.status_code == 202, asked.text
        said = asked.json()
        assert said == {
            "message": "If that seat has an e-mail address, a new link to it is on its way "
            "there (one at most every 10 minutes)."
        }
        mail = inbox.wait_for(2)[1]
        assert mail["Subject"] == f"GLADIATOR: your link to match {match_id}"
        assert inbox.recipients[1] == [EMAILS["blue"]]
        (link,) = re.findall(rf"{PUBLIC}/match/{match_id}#t=[\w-]+", body_of(mail))
        new = tokens_of(link)[0]
        assert new != first
        for token in (new, first, f"{new}:blue"):
            assert _view(base, match_id, token).json()["seat"] == "blue"
        assert _view(base, match_id, f"{new}:red").status_code == 403

        for seat in ("blue", "red"):  # again too soon; a seat without an address: the same
            again = httpx.post(resend, json={"seat": seat})
            assert again.status_code == 202 and again.json() == said
        time.sleep(0.5)
        assert len(inbox.messages) == 2
        assert _view(base, match_id, new).json()["seat"] == "blue"  # not replaced

        bad_origin = httpx.post(resend, json={"seat": "blue"}, headers={"origin": "http://evil"})
        assert bad_origin.status_code == 403
        assert httpx.post(resend, json={"seat": "green"}).status_code == 400
        assert (
            httpx.post(f"{base}/api/matches/nosuch/resend", json={"seat": "blue"}).status_code
            == 404
        )
        assert httpx.post(resend, json={"seat": "blue", "x": 1}).status_code == 400


def test_no_address_is_ever_shown_in_a_list_a_view_or_the_record(tmp_path: Path) -> None:
    """CP5: the addresses are kept for the mail only."""
    inbox = Inbox()
    with _mailing(tmp_path, inbox) as (running, _url):
        base = running.url
        made = _create(base, deadline={"seconds": 1, "then": "forfeit"}, emails=EMAILS).json()
        match_id = made["id"]
        for _ in range(100):  # the forfeit a second later ends it
            if httpx.get(f"{base}/api/matches").json()[0]["status"] == "finished":
                break
            time.sleep(0.05)
        record = httpx.get(f"{base}/api/matches/{match_id}/record")
        assert record.status_code == 200
        links = [made["spectator"], made["seats"]["red"]["link"], made["seats"]["blue"]["link"]]
        views = [_view(base, match_id, tokens_of(link)[0]).text for link in links]
        assert all('"view"' in v for v in views)
        _no_address_in(
            record.text,
            httpx.get(f"{base}/api/matches").text,
            httpx.get(f"{base}/api/turns", params={"ids": match_id}).text,
            *views,
        )


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"emails": {"red": "nope"}}, "emails.red: not an e-mail address"),
        ({"emails": {"red": "a@b.org\nBcc: c@d.org"}}, "emails.red: not an e-mail address"),
        ({"emails": {"red": "x" * 250 + "@b.org"}}, "emails.red: string should have at most 254"),
        ({"emails": {"red": 5}}, "emails.red: input should be a valid string"),
        ({"emails": {"r" * 41: "a@b.org"}}, "emails."),
        ({"emails": {"green": "a@b.org"}}, "emails: no seat 'green'; seats: red, blue"),
        ({"emails": {"blue": "a@b.org"}, "seats": {"blue": "bot:random"}}, "emails.blue: a bot's"),
        ({"emails": {"red": "a@b.org"}, "deadline": None}, "e-mail notices are for correspondence"),
    ],
)
def test_emails_a_server_refuses_are_said_in_one_line(
    tmp_path: Path, body: dict[str, Any], said: str
) -> None:
    with arena(db_url(tmp_path), mail=_policy(free_port())) as running:
        answer = _create(running.url, **{"deadline": DAY, **body})
        assert answer.status_code == 400, answer.text
        error = answer.json()["error"]
        assert error.startswith(said) and "\n" not in error, error
        assert "b.org" not in error  # an address is never said back
        assert httpx.get(f"{running.url}/api/matches").json() == []


def test_a_server_without_mail_refuses_addresses_and_re_sends(tmp_path: Path) -> None:
    with arena(db_url(tmp_path)) as running:
        base = running.url
        refused = _create(base, deadline=DAY, emails={"red": EMAILS["red"]})
        assert refused.status_code == 400
        assert refused.json()["error"].startswith("this server sends no e-mail")
        match_id = _create(base, deadline=DAY).json()["id"]
        answer = httpx.post(f"{base}/api/matches/{match_id}/resend", json={"seat": "red"})
        assert answer.status_code == 409
        assert (
            answer.json()["error"]
            == "this server sends no e-mail, so a lost link cannot be sent again"
        )
