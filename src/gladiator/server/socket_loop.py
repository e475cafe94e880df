"""A match socket's loop after its hello (docs/web.md, Websocket): the pump that sends what the
hub queued for the connection, and the reader that checks each client message and hands an
order to the live match."""

from __future__ import annotations

import asyncio
import contextlib
import json

from pydantic import ValidationError
from starlette.websockets import WebSocket

from gladiator.server import messages, security
from gladiator.server.connection import CLOSE_MOVED, CLOSE_TOO_SLOW, Connection
from gladiator.server.live_match import LiveMatch
from gladiator.server.messages import Hello, OrderMessage
from gladiator.server.security import Refused

__all__ = ["pump", "read_hello", "read_loop"]


def read_hello(text: str) -> Hello:
    """The first message: 4400 if it is not a hello, 4401 if it has no token."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise Refused("the hello is not valid JSON") from None
    if not isinstance(data, dict) or data.get("type") != "hello":
        raise Refused("the first message must be a hello")
    if not data.get("token"):
        raise security.NoToken()
    try:
        return Hello.model_validate(data)
    except ValidationError as exc:
        raise Refused(messages.first_problem(exc)) from None


_CLOSE_REASONS = {
    CLOSE_TOO_SLOW: "too slow to keep up",
    CLOSE_MOVED: "another server holds the match now",
}


async def pump(ws: WebSocket, conn: Connection) -> None:
    """Send what the hub queued for this connection, in order; an int in the queue closes."""
    try:
        while True:
            item = await conn.outbox.get()
            if isinstance(item, int):
                await ws.close(item, _CLOSE_REASONS.get(item, ""))
                return
            await ws.send_text(item)
    except asyncio.CancelledError:
        raise
    except Exception:  # the client went away: the reader sees it too
        return


async def read_loop(
    ws: WebSocket, live: LiveMatch, conn: Connection, writer: asyncio.Task[None]
) -> None:
    bucket = security.TokenBucket()

    async def close(code: int, reason: str) -> None:
        writer.cancel()
        with contextlib.suppress(Exception):
            await ws.close(code, reason)

    while True:
        received = await ws.receive()
        if received["type"] == "websocket.disconnect":
            return
        text = received.get("text")
        raw = text.encode() if text is not None else received.get("bytes") or b""
        if len(raw) > security.MAX_MESSAGE:
            await close(security.CLOSE_TOO_BIG, "message over 8 KiB")
            return
        if not bucket.take():
            await close(security.CLOSE_RATE, "more than 20 messages a second")
            return
        if text is None:
            conn.send(json.dumps(messages.error(None, "send JSON text messages, not binary")))
            continue
        try:
            msg = messages.parse_client(text)
        except ValidationError as exc:
            conn.send(json.dumps(messages.error(None, messages.first_problem(exc))))
            continue
        if isinstance(msg, OrderMessage):
            if conn.seat is None:
                conn.send(json.dumps(messages.error(msg.id, "a spectator cannot give orders")))
                continue
            await live.order(conn.seat, msg.order, msg.id, reply=conn, step=msg.decision_number)
        elif isinstance(msg, Hello):
            conn.send(json.dumps(messages.error(None, "this connection has already said hello")))
        # a ping needs no answer: it only keeps the connection alive through proxies
