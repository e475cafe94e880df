"""The lobby's questions about rulesets (docs/web.md, HTTP): the rulesets with their options
and seats, a preview of the seats some options give, the bots and the bot levels."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gladiator import registry
from gladiator.server.answers import BodyOf, CheckOrigin, error
from gladiator.server.bots_api import bots_api
from gladiator.server.levels_api import levels_api
from gladiator.server.messages import PreviewBody

__all__ = ["rulesets_routes"]


def rulesets_routes(check_origin: CheckOrigin, body_of: BodyOf) -> list[Route]:
    def _form_defaults(opts: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
        # An option a ruleset leaves out of its normalised options at its default (the
        # Colosseum's `teams`, so a duel's records stay as they were) still gets a form field.
        props = schema.get("properties", {})
        extra = {k: p["default"] for k, p in props.items() if k not in opts and "default" in p}
        return {**opts, **extra}

    async def rulesets(request: Request) -> Response:
        out = []
        for name in registry.names():
            rs = registry.get(name)
            opts = rs.normalise_options({})
            notes = getattr(rs, "option_notes", None)
            glossary = getattr(rs, "glossary", None)
            # Every option's note: the ruleset's own hint, else its schema's description.
            described = {
                k: p["description"]
                for k, p in rs.options_schema().get("properties", {}).items()
                if isinstance(p.get("description"), str)
            }
            out.append(
                {
                    "name": rs.name,
                    "title": rs.title,
                    "options": _form_defaults(opts, rs.options_schema()),
                    "seats": list(rs.seats(opts)),
                    "option_notes": {**described, **(notes if isinstance(notes, dict) else {})},
                    "options_schema": rs.options_schema(),
                    "glossary": glossary() if callable(glossary) else {},
                    "rules": f"/rules/{rs.name}",
                }
            )
        return JSONResponse(out)

    async def preview(request: Request) -> Response:
        check_origin(request)
        try:
            rs = registry.get(request.path_params["name"])
        except registry.UnknownRuleset as exc:
            return error(404, str(exc))
        body = await body_of(request, PreviewBody)
        try:
            opts = rs.normalise_options(body.options)
        except ValueError as exc:
            return error(400, str(exc))
        return JSONResponse({"options": opts, "seats": list(rs.seats(opts))})

    async def bots(request: Request) -> Response:
        try:
            return JSONResponse(bots_api(request.query_params.get("ruleset")))
        except registry.UnknownRuleset as exc:
            return error(404, str(exc))

    async def levels(request: Request) -> Response:
        return JSONResponse(levels_api())

    return [
        Route("/api/rulesets", rulesets),
        Route("/api/rulesets/{name}/preview", preview, methods=["POST"]),
        Route("/api/bots", bots),
        Route("/api/levels", levels),
    ]
