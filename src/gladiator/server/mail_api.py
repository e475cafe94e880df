"""The HTTP side of the e-mail notices (docs/web.md, Correspondence play; rulings CP6, CP7).

- `POST /api/matches/{id}/resend` `{"seat": S}`: a lost seat link sent again to the address
  given for that seat. The answer is the same 202 sentence whether or not the seat has an
  address, a link went, or one went less than ten minutes ago: a stranger learns nothing of the
  address. The mail itself goes after the answer, so its time tells nothing either.
- `GET /unsubscribe/{id}/{seat}?key=KEY`: the page of a notice's unsubscribe link, a button
  that posts. A GET changes nothing: mail scanners fetch every link they see.
- `POST /unsubscribe/{id}/{seat}?key=KEY`: no more mail to that seat's address (the button,
  and RFC 8058's one-click POST from the mail program, body `List-Unsubscribe=One-Click`).
  Checked by its key alone, never by Origin: a mail provider's POST comes from its own servers.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from starlette import responses
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from gladiator.server import security
from gladiator.server.answers import MATCH_ID
from gladiator.server.connection import at
from gladiator.server.hub import Hub
from gladiator.server.mail import MailError, MailPolicy, send_mail
from gladiator.server.mail_texts import resend_message
from gladiator.server.messages import ResendBody
from gladiator.store import Store, StoreError
from gladiator.store.contacts import Resent

__all__ = ["mail_routes"]

log = logging.getLogger("gladiator.server")

BodyOf = Callable[[Request, type[Any]], Awaitable[Any]]
_KEY = re.compile(r"^[A-Za-z0-9_-]{20,100}$")
ON_ITS_WAY = (
    "If that seat has an e-mail address, a new link to it is on its way there (one at most "
    "every {minutes} minutes)."
)
NO_MAIL = "this server sends no e-mail, so a lost link cannot be sent again"
WRONG_KEY = "that unsubscribe link is not valid: check that the whole link was copied"
NO_STORE = {"cache-control": "no-store"}
# Where the page is not installed: the same button, as a plain form (no script needed).
FALLBACK_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>GLADIATOR: unsubscribe</title></head>
<body><h1>Unsubscribe</h1><form method="post">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit">No more mail about this match</button></form></body></html>
"""


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=NO_STORE)


def _unsubscribe_target(request: Request) -> tuple[str, str, str]:
    match_id = request.path_params["match_id"]
    seat = request.path_params["seat"]
    key = request.query_params.get("key", "")
    if not (MATCH_ID.match(match_id) and 0 < len(seat) <= 64 and _KEY.match(key)):
        raise HTTPException(404, WRONG_KEY)
    return match_id, seat, key


def mail_routes(
    hub: Hub, store: Store, static: Path, check_origin: Callable[[Request], None], body_of: BodyOf
) -> list[BaseRoute]:
    """The re-send and unsubscribe routes, over `hub`'s mail policy (none: no re-sends) and
    `store`'s contacts; the unsubscribe page is `static`/unsubscribe.html."""

    async def resend(request: Request) -> Response:
        check_origin(request)
        match_id = request.path_params["match_id"]
        if not MATCH_ID.match(match_id):
            raise security.NoMatch()
        mail = hub.mail
        if mail is None or hub.notifier is None:
            return _error(409, NO_MAIL)
        body: ResendBody = await body_of(request, ResendBody)
        try:
            found = await asyncio.to_thread(store.summaries, [match_id])
            if not found:
                raise security.NoMatch()
            labels = {seat: label for seat, kind, label in found[0].seats if kind == "human"}
            if body.seat not in labels:
                return _error(400, f"no human seat {body.seat!r} in match {match_id}")
            if found[0].status != "running":
                return _error(409, "the match is over: its page and its replay need no seat link")
            now = at(hub.policy.clock())
            resent = await asyncio.to_thread(
                store.contacts.resend, match_id, body.seat, now, mail.resend_every
            )
        except StoreError as exc:
            return _error(503, str(exc))
        if resent is not None:
            message = resend_message(
                public_url=mail.public_url,
                to=resent.email,
                match_id=match_id,
                seat=body.seat,
                label=labels[body.seat],
                token=resent.token,
            )
            hub.notifier.spawn(_send_link(store, mail, match_id, body.seat, resent, message))
        minutes = f"{mail.resend_every / 60:g}"
        return JSONResponse(
            {"message": ON_ITS_WAY.format(minutes=minutes)}, status_code=202, headers=NO_STORE
        )

    async def unsubscribe_page(request: Request) -> Response:
        match_id, seat, key = _unsubscribe_target(request)
        try:
            known = await asyncio.to_thread(store.contacts.key_matches, match_id, seat, key)
        except StoreError as exc:
            return _error(503, str(exc))
        if not known:
            return _error(404, WRONG_KEY)
        file = static / "unsubscribe.html"
        if file.is_file():
            return responses.FileResponse(file, media_type="text/html", headers=NO_STORE)
        return responses.HTMLResponse(FALLBACK_PAGE, headers=NO_STORE)

    async def unsubscribe(request: Request) -> Response:
        match_id, seat, key = _unsubscribe_target(request)
        try:
            done = await asyncio.to_thread(store.contacts.unsubscribe, match_id, seat, key)
        except StoreError as exc:
            return _error(503, str(exc))
        if not done:
            return _error(404, WRONG_KEY)
        return responses.PlainTextResponse(
            f"Unsubscribed: no more mail about seat {seat} of match {match_id}.", headers=NO_STORE
        )

    return [
        Route("/api/matches/{match_id}/resend", resend, methods=["POST"]),
        Route("/unsubscribe/{match_id}/{seat}", unsubscribe_page, methods=["GET"]),
        Route("/unsubscribe/{match_id}/{seat}", unsubscribe, methods=["POST"]),
    ]


async def _send_link(
    store: Store, mail: MailPolicy, match_id: str, seat: str, resent: Resent, message: EmailMessage
) -> None:
    try:
        await send_mail(mail, message)
    except MailError as exc:
        log.warning("match %s: the new link of seat %s was not sent: %s", match_id, seat, exc)
        try:  # the seat may ask again at once
            await asyncio.to_thread(
                store.contacts.resend_failed, match_id, seat, resent.token, resent.previous_hash
            )
        except StoreError as exc2:
            log.warning("match %s: %s", match_id, exc2)
        return
    log.info("match %s: a new link of seat %s was sent", match_id, seat)
