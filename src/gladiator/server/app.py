"""The web arena's ASGI app: the pages, the JSON API and the match sockets of docs/web.md.

Every answer is JSON (`{"error": "one sentence"}` when refused) or a static page; no request
names a file path. Player-given text (orders, labels, events) only ever leaves inside JSON
strings, and every response carries a strict Content-Security-Policy.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from gladiator.core.decisions import IllegalOrder
from gladiator.core.match import NotYourTurn
from gladiator.server import messages, security
from gladiator.server.abandonment import AbandonPolicy
from gladiator.server.answers import MATCH_ID, error, is_count
from gladiator.server.bot_pool import BotPolicy
from gladiator.server.both_sides import both_sides
from gladiator.server.broken_api import CLOSE_BROKEN, Broken, broken_answer, broken_routes
from gladiator.server.campaign_api import campaign_routes
from gladiator.server.campaign_runner import CampaignRunner
from gladiator.server.connection import CLOSE_MOVED, Connection
from gladiator.server.correspondence import DeadlinePolicy
from gladiator.server.correspondence_api import match_json, read_deadline, turns_routes
from gladiator.server.hub import Elsewhere, Hub, Unavailable
from gladiator.server.live_match import LiveMatch
from gladiator.server.mail import MailPolicy
from gladiator.server.mail_api import mail_routes
from gladiator.server.messages import CreateMatchBody, OrderBody
from gladiator.server.ownership import Ownership, OwnershipPolicy
from gladiator.server.rate_limit import CreateLimit, CreationLimiter
from gladiator.server.records_api import records_routes
from gladiator.server.retry import RetryPolicy
from gladiator.server.rules_page import rules_routes
from gladiator.server.rulesets_api import rulesets_routes
from gladiator.server.security import Refused
from gladiator.server.socket_loop import pump, read_hello, read_loop
from gladiator.store import Store, StoreError

__all__ = ["DEFAULT_STATIC", "create_app"]

log = logging.getLogger("gladiator.server")

DEFAULT_STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
M = TypeVar("M", bound=BaseModel)

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (
        b"content-security-policy",
        b"default-src 'self'; base-uri 'none'; object-src 'none'; frame-ancestors 'none'; "
        b"form-action 'self'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
)

PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>GLADIATOR arena</title></head>
<body><h1>GLADIATOR arena</h1>
<p>The browser pages are not installed in this build. The JSON API is served under
<code>/api/</code> and the match sockets under <code>/ws/</code> (see docs/web.md).</p>
</body></html>
"""


class _SecurityHeaders:
    """Adds the security headers to every HTTP response (a plain ASGI wrapper, so websockets
    pass untouched)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {k.lower() for k, _ in headers}
                headers.extend(h for h in SECURITY_HEADERS if h[0] not in present)
                if scope["path"].startswith("/api/"):
                    headers.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(
    store: Store,
    *,
    allowed_origins: Iterable[str] = (),
    static_dir: str | Path | None = None,
    allowed_hosts: Iterable[str] | None = None,
    abandon: AbandonPolicy | None = None,
    create_limit: CreateLimit | None = None,
    retry: RetryPolicy | None = None,
    public_url: str | None = None,
    ownership: OwnershipPolicy | None = None,
    bot_policy: BotPolicy | None = None,
    deadlines: DeadlinePolicy | None = None,
    mail: MailPolicy | None = None,
) -> Starlette:
    """The arena app over `store`. `allowed_origins` are further origins whose pages may call
    the API (its own origin always may); `static_dir` holds the browser pages (default: the
    package's web/static, served if it exists; a placeholder page otherwise). On startup every
    running match of the store is resumed. `allowed_hosts`, when given, are the only Host
    header names answered: a server on loopback names only loopback, so a page on another site
    that rebinds its DNS name to 127.0.0.1 cannot reach the tokenless API. `abandon`: the
    abandonment clocks (default: 600 s and 3600 s); `create_limit`: new matches and campaigns a
    minute per address (default none here; `gladiator serve` sets one, AB6); `retry`: how store
    writes are tried again while the database is unavailable (server/retry.py, HC5);
    `public_url`: where clients reach this process, which other processes on the same database
    send them to for its matches, and `ownership` its heartbeat and lease (docs/deploy.md);
    `bot_policy`: the bot seats' budget cap, worker processes and pause (default: 2 s a
    decision, a worker per core but one, the pause on `abandon`'s clock; HF2-HF4);
    `deadlines`: the correspondence deadlines accepted (default: 60 s to 30 days, CP1);
    `mail`: the SMTP server of the e-mail notices (default none: no e-mail; CP5-CP7)."""
    allowed = frozenset(security.normalise_origin(o) for o in allowed_origins)
    static = Path(static_dir) if static_dir is not None else DEFAULT_STATIC
    owners = Ownership(store, public_url, ownership)
    hub = Hub(store, abandon, retry, owners, bot_policy, deadlines, mail)
    campaigns = CampaignRunner(store, hub)

    # -- helpers ---------------------------------------------------------------------------
    def check_origin(request: Request | WebSocket) -> None:
        if not security.origin_allowed(
            request.headers.get("origin"),
            request.url.scheme,
            request.headers.get("host"),
            allowed | hub.peer_origins,
        ):
            raise security.BadOrigin()

    async def body_of(request: Request, model: type[M]) -> M:
        declared = request.headers.get("content-length")
        # More than 12 digits is over 8 KiB too, whatever the number (HC4).
        digits = declared is not None and declared.isascii() and declared.isdecimal()
        if digits and (len(declared or "") > 12 or int(declared or 0) > security.MAX_MESSAGE):
            raise HTTPException(413, "the request body is over 8 KiB")
        raw = b""
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > security.MAX_MESSAGE:
                raise HTTPException(413, "the request body is over 8 KiB")
        try:
            return model.model_validate_json(raw or b"{}")
        except ValidationError as exc:
            raise HTTPException(400, messages.first_problem(exc)) from None

    async def live_match(match_id: str) -> LiveMatch:
        if not MATCH_ID.match(match_id):
            raise security.NoMatch()
        try:
            live = await hub.get(match_id)
        except Unavailable as exc:
            raise Broken(match_id, exc) from None
        if live is None:
            raise security.NoMatch()
        return live

    async def seat_of(match_id: str, token: str | None) -> str | None:
        return await asyncio.to_thread(security.check_token, store.seat_for_token, match_id, token)

    async def caller(request: Request) -> tuple[LiveMatch, str | None]:
        """The match a token-guarded request is about, and the seat its bearer token holds
        (None: the spectator's); refused without a token, with a wrong one or a bad Origin."""
        check_origin(request)
        token = security.bearer_token(request.headers.get("authorization"))
        if token is None:
            raise security.NoToken()
        match_id = request.path_params["match_id"]
        live = await live_match(match_id)
        return live, await seat_of(match_id, token)

    def link(request: Request, path: str, tokens: Iterable[str]) -> str:
        base = str(request.base_url).rstrip("/")
        fragment = "&".join(f"t={t}" for t in tokens)
        return f"{base}{path}#{fragment}" if fragment else f"{base}{path}"

    # -- pages -----------------------------------------------------------------------------
    def page(name: str) -> Any:
        async def endpoint(request: Request) -> Response:
            match_id = request.path_params.get("match_id")
            if match_id is not None and not MATCH_ID.match(match_id):
                raise HTTPException(404, "no such match")
            file = static / name
            if file.is_file():
                return FileResponse(file, media_type="text/html")
            return HTMLResponse(PLACEHOLDER)

        return endpoint

    # -- API -------------------------------------------------------------------------------
    async def create_match(request: Request) -> Response:
        check_origin(request)
        body = await body_of(request, CreateMatchBody)
        try:
            deadline = read_deadline(body, hub.deadlines)
            deals = both_sides(body)  # DM3: one deal, or the deal and its other side
            made = [
                await hub.create(
                    body.ruleset, body.options, seats, seed, deadline=deadline, emails=emails
                )
                for seats, emails, seed in deals
            ]
        except StoreError as exc:
            return error(503, str(exc))
        except ValueError as exc:
            return error(400, str(exc))
        out = created(request, made[0])
        if len(made) > 1:
            out["other_side"] = created(request, made[1])
        return JSONResponse(out, status_code=201)

    def created(request: Request, made: Any) -> dict[str, Any]:
        """A new match as the lobby shows it: its seats' links, the spectators' and hotseat's."""
        live = made.live
        path = f"/match/{live.id}"
        seats: dict[str, Any] = {}
        for seat in live.match.seats:
            info = live.seats[seat]
            if info.kind == "human":
                seats[seat] = {"kind": "human", "link": link(request, path, [made.tokens[seat]])}
                if seat in made.emails:  # never the address itself (CP5)
                    seats[seat]["email"] = True
            else:
                seats[seat] = {"kind": "bot", "bot": info.bot}
        return {
            "id": live.id,
            "commitment": live.match.commitment,
            "seats": seats,
            "spectator": link(request, path, [made.spectator]),
            "hotseat": link(request, path, made.tokens.values()) if made.tokens else None,
        }

    async def list_matches(request: Request) -> Response:
        status = request.query_params.get("status")
        if status not in (None, "running", "finished", "void"):
            return error(400, "status must be running, finished or void")
        limit_text = request.query_params.get("limit", "100")
        if not is_count(limit_text) or not 1 <= int(limit_text) <= 500:
            return error(400, "limit must be a number 1..500")
        found = await asyncio.to_thread(store.list_matches, status=status, limit=int(limit_text))
        return JSONResponse([match_json(m) for m in found])

    async def view(request: Request) -> Response:
        live, seat = await caller(request)
        last = request.query_params.get("last_event", "0")
        if not is_count(last):
            return error(400, "last_event must be a whole number")
        async with live.lock:
            snap = live.snapshot(seat, int(last))
        snap.pop("type")
        return JSONResponse(
            {
                "match": live.id,
                "seat": seat,
                "role": "spectator" if seat is None else "player",
                **snap,
            }
        )

    async def order(request: Request) -> Response:
        live, seat = await caller(request)
        if seat is None:
            return error(403, "a spectator cannot give orders")
        body = await body_of(request, OrderBody)
        answer = await live.order(seat, body.order, body.id, step=body.decision_number)
        if answer["type"] == "ack":
            return JSONResponse(answer)
        return JSONResponse({"error": answer["message"], **answer}, status_code=409)

    async def check(request: Request) -> Response:
        """What the server would make of an order, without giving it: the order form's preview,
        read by the ruleset's own parser. An illegal order is an answer here, not an error."""
        live, seat = await caller(request)
        if seat is None:
            return error(403, "a spectator cannot give orders")
        body = await body_of(request, OrderBody)
        async with live.lock:
            try:
                canonical = live.match.check(seat, body.order)
            except IllegalOrder as exc:
                return JSONResponse(
                    {
                        "ok": False,
                        "error": str(exc),
                        "reason": exc.reason,
                        "legal": list(exc.legal[:50]),
                    }
                )
            except NotYourTurn as exc:
                return JSONResponse({"ok": False, "error": str(exc), "reason": str(exc)})
        return JSONResponse({"ok": True, "order": canonical})

    # -- the socket ------------------------------------------------------------------------
    async def socket(ws: WebSocket) -> None:
        # A client gone before its close is sent makes the close raise: not our error (HC4).
        with contextlib.suppress(WebSocketDisconnect):
            await serve_socket(ws)

    async def serve_socket(ws: WebSocket) -> None:
        await ws.accept()
        try:
            check_origin(ws)
        except Refused as exc:
            await ws.close(exc.close_code, exc.message)
            return
        try:
            first = await asyncio.wait_for(ws.receive(), security.HELLO_TIMEOUT)
        except TimeoutError:
            await ws.close(security.CLOSE_NO_HELLO, "no hello within 5 seconds")
            return
        if first["type"] == "websocket.disconnect":
            return
        text = first.get("text")
        if text is None:
            await ws.close(security.CLOSE_BAD_HELLO, "the hello must be a JSON text message")
            return
        if len(text.encode()) > security.MAX_MESSAGE:
            await ws.close(security.CLOSE_TOO_BIG, "message over 8 KiB")
            return
        try:
            hello = read_hello(text)
        except Refused as exc:
            await ws.close(exc.close_code, exc.message)
            return
        match_id = ws.path_params["match_id"]
        try:
            live = await live_match(match_id)
            seat = await seat_of(match_id, hello.token)
        except Elsewhere as exc:
            await ws.send_text(json.dumps(messages.moved(exc.url or None)))
            await ws.close(CLOSE_MOVED, "another server holds the match")
            return
        except Refused as exc:
            await ws.close(exc.close_code, exc.message)
            return
        except Broken as exc:
            await ws.close(CLOSE_BROKEN, exc.close_reason())
            return
        except HTTPException as exc:
            # A close reason is at most 123 bytes.
            await ws.close(1011, exc.detail.encode()[:120].decode(errors="ignore"))
            return
        conn = Connection(seat)
        await live.attach(conn, hello.last_event)
        writer = asyncio.create_task(pump(ws, conn))
        try:
            await read_loop(ws, live, conn, writer)
        finally:
            writer.cancel()
            live.detach(conn)

    # -- the app ---------------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hub.resume_all()
        await campaigns.start()
        try:
            yield
        finally:
            campaigns.stop()
            hub.stop()

    routes: list[BaseRoute] = [
        Route("/", page("index.html")),
        Route("/match/{match_id}", page("arena.html")),
        Route("/replay/{match_id}", page("replay.html")),
        *rulesets_routes(check_origin, body_of),
        Route("/api/matches", create_match, methods=["POST"]),
        Route("/api/matches", list_matches, methods=["GET"]),
        Route("/api/matches/{match_id}/view", view),
        Route("/api/matches/{match_id}/orders", order, methods=["POST"]),
        Route("/api/matches/{match_id}/check", check, methods=["POST"]),
        *records_routes(store),
        WebSocketRoute("/ws/{match_id}", socket),
        Route("/campaign/{campaign_id}", page("campaign.html")),
        *rules_routes(),
        *turns_routes(store),
        *campaign_routes(campaigns, check_origin, body_of),
        *broken_routes(hub, store, check_origin),
        *mail_routes(hub, store, static, check_origin, body_of),
    ]
    if static.is_dir():
        routes.append(Mount("/static", StaticFiles(directory=static), name="static"))

    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={
            HTTPException: _http_error,
            Refused: _refused,
            Broken: broken_answer,
            Elsewhere: _elsewhere,
            ClientDisconnect: _client_gone,
            Exception: _internal_error,
        },
    )
    app.state.hub = hub
    app.state.campaigns = campaigns
    app.state.store = store
    if create_limit is not None:
        app.add_middleware(CreationLimiter, limit=create_limit)
    if allowed_hosts is not None:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))
    # Added last, so outermost: even a refused Host gets the security headers.
    app.add_middleware(_SecurityHeaders)
    return app


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return error(exc.status_code, str(exc.detail))


async def _refused(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Refused)
    return error(exc.status, exc.message)


async def _elsewhere(request: Request, exc: Exception) -> Response:
    """Another server process holds the match (docs/deploy.md, OW5): the same request there, or
    a retry here when that process gave no address (it is then taken over or let go soon)."""
    assert isinstance(exc, Elsewhere)
    if not exc.url:
        answer = error(503, str(exc))
        answer.headers["retry-after"] = "1"
        return answer
    target = exc.url + request.url.path + (f"?{request.url.query}" if request.url.query else "")
    answer = error(307, str(exc), url=exc.url)
    answer.headers["location"] = target
    return answer


async def _client_gone(request: Request, exc: Exception) -> Response:
    # A client that closes mid-body (or is cut off by the request timeout) is not our error:
    # one line, no traceback; the answer goes nowhere but keeps the app's flow ordinary (HC4).
    log.info("client left during its request body: %s %s", request.method, request.url.path)
    return error(400, "the request body was not sent in full")


async def _internal_error(request: Request, exc: Exception) -> Response:
    log.exception("internal error on %s", request.url.path)
    return error(500, "internal server error")
