"""E-mail through the SMTP server a deployment names (`gladiator serve --smtp-host`; rulings
CP5-CP7): what this server sends through it, and the addresses a new match may give.

Mail goes out with the standard library's `smtplib`, in a worker thread, one connection a
message, with a timeout: the event loop never waits on an SMTP server. A failure is a
`MailError` of one line that names neither the password nor the recipient's address.
"""

from __future__ import annotations

import asyncio
import os
import re
import smtplib
import ssl
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from email.message import EmailMessage

from gladiator.server.security import normalise_origin
from gladiator.store.stored import StoredDeadline, StoredSeat

__all__ = ["MailError", "MailPolicy", "check_emails", "mail_policy", "send_mail"]

MAX_ADDRESS = 254
# A plain address (RFC 5321's dot-atom local part at a dotted domain): nothing that could end a
# header or name a second recipient (no spaces, commas, quotes or angle brackets).
_ADDRESS = re.compile(
    r"^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
    r"@[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)+$"
)
# The SMTP errors that refuse one message; any other means the server is not working for us
# now (unreachable, TLS, login), and the rest of a sweep waits for the next try.
_REFUSALS = (smtplib.SMTPRecipientsRefused, smtplib.SMTPSenderRefused, smtplib.SMTPDataError)


def valid_address(text: str) -> bool:
    local = text.partition("@")[0]
    return len(text) <= MAX_ADDRESS and len(local) <= 64 and _ADDRESS.match(text) is not None


@dataclass(frozen=True)
class MailPolicy:
    """The SMTP server and what the mail's links point at. `public_url`: where players reach
    the arena ("": the app's own public URL); `interval`: seconds between the notifier's looks;
    `grace`: seconds a decision waits before its notice goes (a player at the board answers
    sooner and is not mailed; at most a quarter of the deadline); `retry_after`: seconds
    before a failed notice is tried again; `resend_every`: a seat's re-sent links are at least
    this far apart (CP7)."""

    host: str
    sender: str
    port: int = 587
    user: str | None = None
    password: str | None = field(default=None, repr=False)
    starttls: bool = True
    public_url: str = ""
    timeout: float = 20.0
    interval: float = 5.0
    grace: float = 60.0
    retry_after: float = 60.0
    resend_every: float = 600.0

    def __post_init__(self) -> None:
        if not self.host.strip():
            raise ValueError("the SMTP host is empty")
        if not 1 <= self.port <= 65535:
            raise ValueError(f"the SMTP port must be 1 to 65535, not {self.port}")
        if not valid_address(self.sender):
            raise ValueError(f"the sender {self.sender!r} is not an e-mail address")
        if (self.user is None) != (self.password is None):
            raise ValueError("an SMTP login needs both a user and a password")
        if self.public_url:
            object.__setattr__(self, "public_url", normalise_origin(self.public_url))


def mail_policy(
    host: str | None,
    port: float,
    sender: str | None,
    user: str | None,
    password_env: str | None,
    starttls: bool,
    environ: Mapping[str, str] = os.environ,
) -> MailPolicy | None:
    """The policy `gladiator serve`'s --smtp-* flags give (None: no e-mail); ValueError (one
    line) for what does not make one. The password comes from the environment variable named,
    never from the command line, which every user of the machine can read."""
    if host is None:
        given = [f for f, v in (("--smtp-from", sender), ("--smtp-user", user)) if v is not None]
        if password_env is not None:
            given.append("--smtp-password-env")
        if given:
            raise ValueError(f"{given[0]} needs --smtp-host")
        return None
    if sender is None:
        raise ValueError("--smtp-host needs --smtp-from, the address the notices come from")
    if port != int(port) or not 1 <= port <= 65535:
        raise ValueError(f"--smtp-port must be a whole number 1 to 65535, not {port:g}")
    if (user is None) != (password_env is None):
        raise ValueError("--smtp-user and --smtp-password-env go together")
    password = None
    if password_env is not None:
        password = environ.get(password_env)
        if not password:
            raise ValueError(f"--smtp-password-env: the variable {password_env} is not set")
    try:
        return MailPolicy(host, sender, int(port), user, password, starttls)
    except ValueError as exc:
        raise ValueError(f"--smtp-*: {exc}") from None


def may_mail(
    deadline: StoredDeadline | None, mail: MailPolicy | None, kind: str, what: str
) -> None:
    """CP5: addresses are for correspondence (`kind`: "matches", "campaigns") on a server that
    sends mail; ValueError (one line) otherwise, `what` being the thing to create without."""
    if deadline is None:
        raise ValueError(f"e-mail notices are for correspondence {kind}: give a deadline too")
    if mail is None:
        raise ValueError(f"this server sends no e-mail: create the {what} without addresses")


def checked_address(where: str, address: str) -> str:
    """The address, trimmed; ValueError naming `where` (never the address) if it is none."""
    if not valid_address(address.strip()):
        raise ValueError(f"{where}: not an e-mail address (name@example.org)")
    return address.strip()


def check_emails(
    emails: Mapping[str, str],
    seats: Sequence[StoredSeat],
    deadline: StoredDeadline | None,
    mail: MailPolicy | None,
) -> dict[str, str]:
    """A new match's addresses by seat, checked (CP5); ValueError (one line, never quoting an
    address back) for what is refused."""
    if not emails:
        return {}
    may_mail(deadline, mail, "matches", "match")
    kinds = {s.seat: s.kind for s in seats}
    checked: dict[str, str] = {}
    for seat, address in emails.items():
        if seat not in kinds:
            raise ValueError(f"emails: no seat {seat!r}; seats: {', '.join(kinds)}")
        if kinds[seat] != "human":
            raise ValueError(f"emails.{seat}: a bot's seat gets no notices")
        checked[seat] = checked_address(f"emails.{seat}", address)
    return checked


class MailError(Exception):
    """A message the SMTP server did not take; `down`: the server did not work at all."""

    def __init__(self, message: str, *, down: bool) -> None:
        super().__init__(message)
        self.down = down


def _describe(exc: BaseException, recipients: Sequence[str]) -> str:
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        # Its text is a dict keyed by the address; only the server's answers are said.
        answers = [f"{code} {_text(msg)}" for code, msg in exc.recipients.values()]
        text = "the recipient was refused: " + "; ".join(answers)
    elif isinstance(exc, smtplib.SMTPResponseException):
        text = f"{exc.smtp_code} {_text(exc.smtp_error)}"
    else:
        text = str(exc) or type(exc).__name__
    for address in recipients:
        text = text.replace(address, "(the address)")
    return " ".join(text.split())[:300]


def _text(value: bytes | str) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes) else value


def _send_now(policy: MailPolicy, message: EmailMessage) -> None:
    with smtplib.SMTP(policy.host, policy.port, timeout=policy.timeout) as smtp:
        if policy.starttls:
            smtp.starttls(context=ssl.create_default_context())
        if policy.user is not None and policy.password is not None:
            smtp.login(policy.user, policy.password)
        smtp.send_message(message)


async def send_mail(policy: MailPolicy, message: EmailMessage) -> None:
    """Hand `message` to the SMTP server; MailError if it did not take it."""
    if message["From"] is None:
        message["From"] = policy.sender
    try:
        await asyncio.to_thread(_send_now, policy, message)
    except (OSError, smtplib.SMTPException) as exc:
        to = [str(a) for a in message.get_all("To", [])]
        raise MailError(_describe(exc, to), down=not isinstance(exc, _REFUSALS)) from None
