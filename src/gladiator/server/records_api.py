"""A finished match's record and its replay, step by step (docs/web.md, HTTP): public once the
match is over, refused with the reason before (or for a voided match)."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gladiator.core.match import ReplayMismatch
from gladiator.core.record import RecordError
from gladiator.server import security
from gladiator.server.answers import MATCH_ID, error, is_count
from gladiator.server.replay import ReplayBook
from gladiator.store import Store

__all__ = ["records_routes"]


def records_routes(store: Store) -> list[Route]:
    replays = ReplayBook()

    async def no_record(match_id: str, when: str) -> Response:
        stored = await asyncio.to_thread(store.load, match_id)
        if stored is None:
            raise security.NoMatch()
        if stored.status == "void":
            return error(409, f"the match was voided ({(stored.outcome or {}).get('summary')})")
        return error(409, f"the match is not over; {when}")

    async def record(request: Request) -> Response:
        match_id = request.path_params["match_id"]
        if not MATCH_ID.match(match_id):
            raise security.NoMatch()
        rec = await asyncio.to_thread(store.record, match_id)
        if rec is None:
            return await no_record(match_id, "its record is published at the end")
        return JSONResponse(rec)

    async def replay(request: Request) -> Response:
        match_id = request.path_params["match_id"]
        if not MATCH_ID.match(match_id):
            raise security.NoMatch()
        step_text = request.query_params.get("step", "0")
        if not is_count(step_text):
            return error(400, "step must be a whole number")
        rec = await asyncio.to_thread(store.record, match_id)
        if rec is None:
            return await no_record(match_id, "it can be replayed at the end")
        try:
            rp = await asyncio.to_thread(replays.get, match_id, rec)
        except (RecordError, ReplayMismatch, ValueError) as exc:
            return error(409, f"match {match_id} cannot be replayed: {exc}")
        step = int(step_text)
        if step > rp.steps:
            return error(400, f"step must be 0..{rp.steps}, not {step}")
        return JSONResponse(await asyncio.to_thread(rp.step, step))

    return [
        Route("/api/matches/{match_id}/record", record),
        Route("/api/matches/{match_id}/replay", replay),
    ]
