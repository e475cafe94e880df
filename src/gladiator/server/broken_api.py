"""A stored match whose orders stop replaying (ruling HF5): what the API says of it, and the
resume from its last good step.

Such a match was stored before engine faults were caught, or by a program whose rules have
changed since. Every answer about it says exactly which stored order of which step fails and
how to resume (never a bare 409): `GET /api/matches/{id}/view` and the socket answer 409 / close
4409 with the failure, and `POST /api/matches/{id}/resume`, with any token of the match, drops
the failing decision's orders and every later one (kept in the audit, store/voids.py) and
resumes the match from its last good step.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from gladiator.server import security
from gladiator.server.answers import MATCH_ID
from gladiator.server.hub import Hub, NotBroken, Unavailable
from gladiator.store import Store

__all__ = ["CLOSE_BROKEN", "Broken", "broken_answer", "broken_routes"]

CLOSE_BROKEN = 4409  # the socket's close code for a match that cannot be resumed as stored


class Broken(Exception):
    """A stored match that cannot be loaded as stored: answered by `broken_answer`."""

    def __init__(self, match_id: str, cause: Unavailable) -> None:
        f = cause.failure
        if f is None:
            text = f"match {match_id} cannot be resumed: {cause}"
        else:
            text = (
                f"Match {match_id} stops at a stored order: {f.seat}'s order {f.order} at step "
                f"{f.step} can no longer be played ({f.reason}). It can go on from step "
                f"{f.step}, its last good step; the orders from there on are set aside (kept in "
                "the server's audit, never replayed)."
            )
        super().__init__(text)
        self.match_id = match_id
        self.failure = f

    def to_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {"error": str(self)}
        if self.failure is not None:
            body["broken"] = self.failure.to_dict()
            body["resume"] = f"/api/matches/{self.match_id}/resume"
        return body

    def close_reason(self) -> str:
        """At most 123 bytes, as a close frame allows."""
        if self.failure is None:
            return str(self).encode()[:120].decode(errors="ignore")
        return f"stored order {self.failure.seq} fails; GET /api/matches/{self.match_id}/view"[:120]


async def broken_answer(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Broken)
    return JSONResponse(exc.to_dict(), status_code=409)


def broken_routes(
    hub: Hub, store: Store, check_origin: Callable[[Request], None]
) -> list[BaseRoute]:
    async def resume(request: Request) -> Response:
        check_origin(request)
        match_id = request.path_params["match_id"]
        if not MATCH_ID.match(match_id):
            raise security.NoMatch()
        token = security.bearer_token(request.headers.get("authorization"))
        await asyncio.to_thread(security.check_token, store.seat_for_token, match_id, token)
        try:
            failure, dropped = await hub.resume_from_good(match_id)
        except NotBroken as exc:
            return JSONResponse({"error": str(exc)}, status_code=409)
        except Unavailable as exc:
            raise Broken(match_id, exc) from None
        return JSONResponse(
            {
                "resumed": True,
                "from_step": failure.step,
                "dropped": dropped,
                "failure": failure.to_dict(),
            }
        )

    return [Route("/api/matches/{match_id}/resume", resume, methods=["POST"])]
