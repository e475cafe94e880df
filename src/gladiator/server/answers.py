"""What the API's modules share: the one-sentence error answer, the checks of a match id and
of a count given as text, and the shapes of the app's Origin check and body reader."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.websockets import WebSocket

__all__ = ["MATCH_ID", "BodyOf", "CheckOrigin", "error", "is_count"]

MATCH_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
# `check_origin(request)` raises security.BadOrigin; `body_of(request, Model)` the checked body.
CheckOrigin = Callable[[Request | WebSocket], None]
BodyOf = Callable[[Request, type[Any]], Awaitable[Any]]


def error(status: int, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": message, **extra}, status_code=status)


def is_count(text: str) -> bool:
    """ASCII digits only: `str.isdigit` also takes "²", which `int` then refuses."""
    return text.isascii() and text.isdecimal() and len(text) <= 12
