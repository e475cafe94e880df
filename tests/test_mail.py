"""E-mail notices of correspondence play (server/mail_notices.py; docs/web.md, Correspondence
play; ruling CP5), sent to a local SMTP server (tests/smtp_helpers.py), from a hub on a fake
wall clock: one notice per decision that waits for a seat with an address, not twice across a
restart, tried again after the SMTP server failed. The HTTP side is tests/test_server_mail.py.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fake_clock import FakeClock
from gladiator.cli.main import app
from gladiator.server.abandonment import AbandonPolicy
from gladiator.server.bot_pool import BotPolicy
from gladiator.server.connection import at
from gladiator.server.hub import CreatedMatch, Hub
from gladiator.server.mail import MailPolicy, check_emails, mail_policy
from gladiator.store import Store
from gladiator.store.stored import StoredDeadline, StoredSeat
from smtp_helpers import Inbox, body_of, free_port, local_smtp

SEED = 5  # quick, seed 5: blue moves four times, then red
HUMANS = {"red": "human", "blue": "human"}
EMAILS = {"blue": "blue.player@example.org", "red": "red@example.org"}
BOT_LATE = StoredDeadline(3600, "bot", "random")
PUBLIC = "https://arena.example.org"


def _mail(port: int, **more: float) -> MailPolicy:
    return MailPolicy(
        "127.0.0.1",
        "arena@example.org",
        port,
        starttls=False,
        public_url=PUBLIC,
        timeout=5,
        **more,  # type: ignore[arg-type]
    )


def _hub(store: Store, clock: FakeClock, mail: MailPolicy | None) -> Hub:
    return Hub(store, AbandonPolicy(0, 0, clock), bots=BotPolicy(workers=0), mail=mail)


async def _create(hub: Hub, emails: dict[str, str] | None = None) -> CreatedMatch:
    return await hub.create("quick", {}, HUMANS, SEED, deadline=BOT_LATE, emails=emails or EMAILS)


async def _order(made: CreatedMatch, seat: str, rng: random.Random) -> None:
    live = made.live
    answer = await live.order(seat, live.match.pending()[seat].sample(rng))
    assert answer["type"] == "ack", answer


def test_a_notice_goes_once_for_each_decision_that_waits_for_the_seat(tmp_path: Path) -> None:
    """CP5: blue, whose move it is, gets one notice for the decision, after the grace; none
    again for it, however many sweeps; one more when the next decision waits for blue; red,
    whose move it is not, none."""
    clock = FakeClock()
    inbox = Inbox()

    async def scenario(store: Store, port: int) -> str:
        hub = _hub(store, clock, _mail(port))
        made = await _create(hub)
        assert made.emails == {"blue", "red"}
        assert await hub.notifier.sweep() == 0  # type: ignore[union-attr]  # within the grace
        clock.advance(61)
        assert await hub.notifier.sweep() == 1  # type: ignore[union-attr]
        for _ in range(3):
            clock.advance(600)
            assert await hub.notifier.sweep() == 0  # type: ignore[union-attr]
        await _order(made, "blue", random.Random(1))  # the next decision is blue's again
        clock.advance(61)
        assert await hub.notifier.sweep() == 1  # type: ignore[union-attr]
        assert await hub.notifier.sweep() == 0  # type: ignore[union-attr]
        hub.stop()
        return made.live.id

    with local_smtp(inbox) as smtp, Store(f"sqlite:///{tmp_path / 'a.db'}") as store:
        match_id = asyncio.run(scenario(store, smtp.port))
    first, second = inbox.wait_for(2)
    assert len(inbox.messages) == 2 and inbox.recipients == [[EMAILS["blue"]]] * 2
    assert first["Subject"] == f"GLADIATOR: your move in match {match_id}"
    assert first["To"] == EMAILS["blue"] and first["From"] == "arena@example.org"
    text = body_of(first)
    assert f"{PUBLIC}/match/{match_id}\n" in text and "#t=" not in text  # no token, ever
    assert "Lost your link?" in text and "a stand-in bot plays this one decision" in text
    assert re.search(r"by \d{4}-\d\d-\d\d \d\d:\d\d UTC, 59 min from now", text), text
    leave = re.findall(rf"{PUBLIC}/unsubscribe/{match_id}/blue\?key=[\w-]+", text)
    assert len(leave) == 1 and first["List-Unsubscribe"] == f"<{leave[0]}>"
    assert first["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert second["List-Unsubscribe"] == first["List-Unsubscribe"]  # an older link still works


def test_no_notice_goes_twice_for_a_decision_across_a_restart(tmp_path: Path) -> None:
    """CP5: the decision told of is stored (`noticed_turn`), so a restarted server does not
    tell it again; the next decision's notice comes from the new process."""
    clock = FakeClock()
    inbox = Inbox()
    url = f"sqlite:///{tmp_path / 'a.db'}"

    async def before(store: Store, port: int) -> str:
        hub = _hub(store, clock, _mail(port))
        made = await _create(hub)
        clock.advance(61)
        assert await hub.notifier.sweep() == 1  # type: ignore[union-attr]
        hub.stop()
        return made.live.id

    async def after(store: Store, port: int, match_id: str) -> None:
        hub = _hub(store, clock, _mail(port, interval=0.01))
        await hub.resume_all()  # its notifier sweeps every 10 ms from now on
        await asyncio.sleep(0.3)
        assert await hub.notifier.sweep() == 0  # type: ignore[union-attr]
        live = hub.live[match_id]
        answer = await live.order("blue", live.match.pending()["blue"].sample(random.Random(3)))
        assert answer["type"] == "ack"
        asked = live.turn_since
        clock.advance(61)
        for _ in range(500):  # until the notice is marked (the inbox has it a moment before)
            told = await asyncio.to_thread(store.contacts.contact, match_id, "blue")
            if told is not None and told.noticed_turn == at(asked):
                break
            await asyncio.sleep(0.01)
        hub.stop()

    with local_smtp(inbox) as smtp:
        with Store(url) as store:
            match_id = asyncio.run(before(store, smtp.port))
        assert len(inbox.messages) == 1
        with Store(url) as store:
            asyncio.run(after(store, smtp.port, match_id))
            contact = store.contacts.contact(match_id, "blue")
    assert len(inbox.messages) == 2 and inbox.recipients == [[EMAILS["blue"]]] * 2
    stored = contact.noticed_turn if contact is not None else None
    assert stored is not None and stored.timestamp() == pytest.approx(clock.now - 61, abs=1e-3)


def test_a_notice_the_smtp_server_did_not_take_is_logged_and_sent_once_it_is_back(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """CP5: the SMTP server is down: one line in the log (no traceback, no address), nothing
    marked; once it is back, after `retry_after`, the notice goes."""
    clock = FakeClock()
    inbox = Inbox()
    port = free_port()  # nothing listens there yet

    async def scenario(store: Store) -> str:
        hub = _hub(store, clock, _mail(port))
        made = await _create(hub)
        clock.advance(61)
        with caplog.at_level(logging.WARNING, logger="gladiator.server"):
            assert await hub.notifier.sweep() == 0  # type: ignore[union-attr]
        clock.advance(30)  # before retry_after: not tried again
        assert await hub.notifier.sweep() == 0  # type: ignore[union-attr]
        with local_smtp(inbox, port):
            assert await hub.notifier.sweep() == 0  # type: ignore[union-attr]
            clock.advance(30)
            assert await hub.notifier.sweep() == 1  # type: ignore[union-attr]
            assert await hub.notifier.sweep() == 0  # type: ignore[union-attr]
        hub.stop()
        return made.live.id

    with Store(f"sqlite:///{tmp_path / 'a.db'}") as store:
        match_id = asyncio.run(scenario(store))
    (line,) = [r for r in caplog.records if "notice" in r.getMessage()]
    said = line.getMessage()
    assert said.startswith(f"match {match_id}: the notice to seat blue was not sent")
    assert line.exc_info is None and "\n" not in said
    assert "example.org" not in said
    assert len(inbox.messages) == 1 and inbox.recipients == [[EMAILS["blue"]]]


def test_nothing_goes_once_the_match_is_over_or_to_a_seat_without_an_address(
    tmp_path: Path,
) -> None:
    """CP5: only the seats given an address get notices, and none once the match is over."""
    clock = FakeClock()
    inbox = Inbox()

    async def scenario(store: Store, port: int) -> None:
        hub = _hub(store, clock, _mail(port))
        made = await _create(hub, {"red": EMAILS["red"]})  # blue, whose move it is, has none
        clock.advance(61)
        assert await hub.notifier.sweep() == 0  # type: ignore[union-attr]
        made.live.end_early({"winners": ["red"], "summary": "ended"}, finished=False)
        assert await hub.notifier.sweep() == 0  # type: ignore[union-attr]
        hub.stop()

    with local_smtp(inbox) as smtp, Store(f"sqlite:///{tmp_path / 'a.db'}") as store:
        asyncio.run(scenario(store, smtp.port))
    assert inbox.messages == []


def test_what_a_new_match_may_give_as_addresses() -> None:
    """CP5: addresses for a correspondence match's human seats only, on a server that mails."""
    seats = [StoredSeat("red", "human", None, "h"), StoredSeat("blue", "bot", "random", None)]
    mail = _mail(25)
    assert check_emails({"red": " a.b+c@mail.example.org "}, seats, BOT_LATE, mail) == {
        "red": "a.b+c@mail.example.org"
    }
    assert check_emails({}, seats, None, None) == {}
    refusals = [
        ({"red": "a@b.org"}, BOT_LATE, None, "this server sends no e-mail"),
        ({"red": "a@b.org"}, None, mail, "for correspondence matches"),
        ({"green": "a@b.org"}, BOT_LATE, mail, "no seat 'green'; seats: red, blue"),
        ({"blue": "a@b.org"}, BOT_LATE, mail, "a bot's seat"),
        ({"red": "not an address"}, BOT_LATE, mail, "emails.red: not an e-mail address"),
        ({"red": "a@b.org\r\nBcc: x@y.org"}, BOT_LATE, mail, "not an e-mail address"),
        ({"red": "a@b.org, c@d.org"}, BOT_LATE, mail, "not an e-mail address"),
        ({"red": "a@localhost"}, BOT_LATE, mail, "not an e-mail address"),
    ]
    for emails, deadline, policy, said in refusals:
        with pytest.raises(ValueError, match=re.escape(said)) as caught:
            check_emails(emails, seats, deadline, policy)
        assert all(a not in str(caught.value) for a in emails.values())  # never said back


def test_a_hub_without_mail_refuses_addresses_and_has_no_notifier(tmp_path: Path) -> None:
    clock = FakeClock()

    async def scenario(store: Store) -> None:
        hub = _hub(store, clock, None)
        assert hub.notifier is None
        with pytest.raises(ValueError, match="this server sends no e-mail"):
            await _create(hub)
        hub.stop()

    with Store(f"sqlite:///{tmp_path / 'a.db'}") as store:
        asyncio.run(scenario(store))
        assert store.list_matches() == []


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--smtp-from", "a@b.org"], "--smtp-from needs --smtp-host"),
        (["--smtp-host", "mail.example.org"], "--smtp-host needs --smtp-from"),
        (["--smtp-host", "m", "--smtp-from", "a@b.org", "--smtp-port", "x"], "--smtp-port"),
        (["--smtp-host", "m", "--smtp-from", "a@b.org", "--smtp-port", "0"], "1 to 65535"),
        (["--smtp-host", "m", "--smtp-from", "nobody"], "is not an e-mail address"),
        (["--smtp-host", "m", "--smtp-from", "a@b.org", "--smtp-user", "u"], "go together"),
        (
            ["--smtp-host", "m", "--smtp-from", "a@b.org", "--smtp-user", "u",
             "--smtp-password-env", "GLADIATOR_TEST_NO_SUCH_VARIABLE"],
            "the variable GLADIATOR_TEST_NO_SUCH_VARIABLE is not set",
        ),
    ],
)  # fmt: skip
def test_serve_refuses_bad_smtp_flags_in_one_line(
    tmp_path: Path, args: list[str], words: str
) -> None:
    result = CliRunner().invoke(
        app, ["serve", "--port", "0", "--db", f"sqlite:///{tmp_path / 'x.db'}", *args]
    )
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], lines
    assert not (tmp_path / "x.db").exists()  # refused before anything was opened


def test_the_smtp_password_comes_from_the_environment_and_is_never_shown() -> None:
    policy = mail_policy(
        "mail.example.org", 587, "arena@example.org", "arena", "PW", True, {"PW": "s3cret"}
    )
    assert policy is not None and policy.password == "s3cret" and policy.port == 587
    assert "s3cret" not in repr(policy)
    assert mail_policy(None, 587, None, None, None, True, {}) is None


def test_the_store_keeps_contacts_as_the_rulings_say(url: str) -> None:
    """CP5-CP7 in the store: a notice's mark never goes back; the unsubscribe key is the
    same for every read and only it unsubscribes; a re-send is one per ten minutes, gives a
    second token that opens the seat beside the first, and none after an unsubscribe."""
    clock = FakeClock()

    async def create(store: Store) -> CreatedMatch:
        hub = _hub(store, clock, _mail(25))
        made = await _create(hub)
        hub.stop()
        return made

    with Store(url) as store:
        made = asyncio.run(create(store))
        match_id, first = made.live.id, made.tokens["blue"]
        contacts = store.contacts
        found = contacts.of_match(match_id)
        assert set(found) == {"blue", "red"} and found["blue"].email == EMAILS["blue"]
        assert EMAILS["blue"] not in repr(found["blue"])  # a log line never shows it
        key = found["blue"].key
        assert contacts.contact(match_id, "blue") == found["blue"]
        assert contacts.key_matches(match_id, "blue", key)
        assert not contacts.key_matches(match_id, "red", key)

        later, sooner = datetime(2030, 1, 2, tzinfo=UTC), datetime(2030, 1, 1, tzinfo=UTC)
        contacts.noticed(match_id, "blue", later)
        contacts.noticed(match_id, "blue", sooner)  # a slow process: never back
        assert contacts.contact(match_id, "blue").noticed_turn == later  # type: ignore[union-attr]

        now = datetime.now(UTC)
        resent = contacts.resend(match_id, "blue", now, 600)
        assert resent is not None and resent.email == EMAILS["blue"]
        assert contacts.resend(match_id, "blue", now + timedelta(seconds=599), 600) is None
        for token in (first, resent.token, f"{resent.token}:blue"):
            assert store.seat_for_token(match_id, token) == "blue"
        assert store.seat_for_token(match_id, f"{resent.token}:red") is False
        contacts.resend_failed(match_id, "blue", resent.token)  # may ask again at once
        again = contacts.resend(match_id, "blue", now + timedelta(seconds=1), 600)
        assert again is not None and store.seat_for_token(match_id, again.token) == "blue"
        assert store.seat_for_token(match_id, resent.token) is False  # replaced by the newest
        assert store.seat_for_token(match_id, first) == "blue"  # the first link: always

        assert not contacts.unsubscribe(match_id, "blue", key[:-2] + "xx")
        assert contacts.unsubscribe(match_id, "blue", key)
        assert contacts.unsubscribe(match_id, "blue", key)  # twice is no error
        assert contacts.contact(match_id, "blue").unsubscribed  # type: ignore[union-attr]
        assert contacts.resend(match_id, "blue", now + timedelta(hours=1), 600) is None
        assert contacts.resend(match_id, "nosuch", now, 600) is None
