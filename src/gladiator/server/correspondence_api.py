"""The correspondence side of the JSON API (docs/web.md, Correspondence): a new match's
deadline read from its body, and whose move it is in a list of matches (the lobby's markers,
"My matches").

Whose move it is, and until when, is public, as the spectator's view shows it: the list says it
of every running match, and `GET /api/turns?ids=A,B` of the matches a browser holds seats in,
however old, without their tokens ever leaving the browser.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gladiator import registry
from gladiator.server.correspondence import DeadlinePolicy, deadline_for
from gladiator.server.messages import CreateMatchBody
from gladiator.store import MatchSummary, Store
from gladiator.store.stored import StoredDeadline

__all__ = ["match_json", "read_deadline", "turns_routes"]

MAX_IDS = 50
_IDS = re.compile(r"^[A-Za-z0-9_-]{1,64}(,[A-Za-z0-9_-]{1,64})*$")


def read_deadline(body: CreateMatchBody, policy: DeadlinePolicy) -> StoredDeadline | None:
    """The deadline a create body asks for, checked; ValueError (one line) if refused."""
    if body.deadline is None:
        return None
    rs = registry.get(body.ruleset)
    options = rs.normalise_options(body.options)
    d = body.deadline
    return deadline_for(rs.name, options, d.seconds, d.then, d.bot, policy)


def match_json(m: MatchSummary) -> dict[str, Any]:
    """A match as the lists show it; a running one says whose move it is (`waiting_for`) and,
    with a deadline, until when (`deadline.due`, Unix seconds)."""
    out: dict[str, Any] = {
        "id": m.id,
        "ruleset": m.ruleset,
        "status": m.status,
        "created_at": m.created_at.isoformat(),
        "seats": [{"seat": seat, "kind": kind, "label": label} for seat, kind, label in m.seats],
        "outcome": m.outcome,
    }
    if m.turn is not None:
        out["waiting_for"] = list(m.turn.waiting)
    if m.deadline is not None:
        due = m.turn.since.timestamp() + m.deadline.seconds if m.turn is not None else None
        out["deadline"] = {
            "seconds": m.deadline.seconds,
            "then": m.deadline.then,
            "due": due,
            "bot": m.deadline.bot,
        }
    return out


def turns_routes(store: Store) -> list[Route]:
    async def turns(request: Request) -> Response:
        text = request.query_params.get("ids", "")
        if not _IDS.match(text):
            return JSONResponse(
                {"error": "ids must be match ids separated by commas"}, status_code=400
            )
        ids = text.split(",")
        if len(ids) > MAX_IDS:
            return JSONResponse(
                {"error": f"at most {MAX_IDS} match ids at once, not {len(ids)}"}, status_code=400
            )
        found = await asyncio.to_thread(store.summaries, ids)
        return JSONResponse([match_json(m) for m in found])

    return [Route("/api/turns", turns)]
