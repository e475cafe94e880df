"""The mail the arena sends (rulings CP5-CP7): a notice that a decision waits for a seat, and a
lost seat link sent again. Plain text, with every link spelled out.

A notice never carries a seat's token: its match link is the page without one (which offers
to send a lost link again), so a forwarded or leaked notice opens no seat. Its unsubscribe link
is in the text and in the `List-Unsubscribe` headers, with RFC 8058's one-click POST.
"""

from __future__ import annotations

from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from urllib.parse import quote, urlsplit

from gladiator.server.correspondence import duration_text
from gladiator.store.stored import StoredDeadline

__all__ = ["match_url", "notice_message", "resend_message", "unsubscribe_url"]

THEN = {
    "bot": "a stand-in bot plays this one decision in your seat's name; the next one is yours "
    "again",
    "forfeit": "your seat forfeits the match",
}


def match_url(public_url: str, match_id: str) -> str:
    return f"{public_url}/match/{quote(match_id, safe='')}"


def unsubscribe_url(public_url: str, match_id: str, seat: str, key: str) -> str:
    path = f"/unsubscribe/{quote(match_id, safe='')}/{quote(seat, safe='')}"
    return f"{public_url}{path}?key={quote(key, safe='')}"


def _message(public_url: str, to: str, subject: str, text: str) -> EmailMessage:
    message = EmailMessage()
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = formatdate(usegmt=True)
    message["Message-ID"] = make_msgid(domain=urlsplit(public_url).hostname or "localhost")
    # Not a person writing: no vacation replies (RFC 3834).
    message["Auto-Submitted"] = "auto-generated"
    message.set_content(text)
    return message


def notice_message(
    *,
    public_url: str,
    to: str,
    match_id: str,
    seat: str,
    label: str,
    title: str,
    deadline: StoredDeadline,
    due: float,
    now: float,
    key: str,
) -> EmailMessage:
    """The notice that the decision due at `due` (Unix seconds) waits for `seat` (CP5)."""
    who = f"{label} ({seat})" if label and label != seat else seat
    when = datetime.fromtimestamp(due, UTC).strftime("%Y-%m-%d %H:%M UTC")
    left = due - now
    if left >= 120:  # a mail read minutes later: its seconds would be wrong anyway
        left = round(left / 60) * 60
    page = match_url(public_url, match_id)
    leave = unsubscribe_url(public_url, match_id, seat, key)
    text = (
        f"It is your move as {who} in match {match_id}, {title}.\n\n"
        f"Give your order by {when}, {duration_text(left)} from now. If none comes by "
        f"then, {THEN.get(deadline.then, THEN['forfeit'])}.\n\n"
        f"Open the match with the link you were given when it was created. The match's page "
        f"is\n\n    {page}\n\n"
        "Lost your link? Open that page and ask for it again: a new link to your seat comes "
        "to this address.\n\n"
        "You get this notice because this address was given for your seat when the match was "
        "created. To get no more mail about this match:\n\n"
        f"    {leave}\n"
    )
    message = _message(public_url, to, f"GLADIATOR: your move in match {match_id}", text)
    message["List-Unsubscribe"] = f"<{leave}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    return message


def resend_message(
    *, public_url: str, to: str, match_id: str, seat: str, label: str, token: str
) -> EmailMessage:
    """A new link to `seat`, asked for on the match's page (CP7)."""
    who = f"{label} ({seat})" if label and label != seat else seat
    link = f"{match_url(public_url, match_id)}#t={token}"
    text = (
        f"A new link to your seat, {who}, in match {match_id} was asked for on the match's "
        f"page:\n\n    {link}\n\n"
        "Keep it to yourself: whoever has it plays your seat. The link you had before still "
        "works. If you did not ask for this, you need do nothing: nobody but you has the new "
        "link.\n"
    )
    return _message(public_url, to, f"GLADIATOR: your link to match {match_id}", text)
