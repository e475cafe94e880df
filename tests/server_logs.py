"""A server in a thread whose every error reaches `caplog`, uvicorn's own included.

uvicorn logs an exception in the app ("Exception in ASGI application") on `uvicorn.error`,
which does not propagate to the root logger where caplog listens, and each server's start
configures that logger afresh: so caplog's handler is added once the server runs, and kept
until it has stopped (its shutdown may log too).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from gladiator.server.listen import Listening
from server_helpers import arena

__all__ = ["errors", "serving"]


@contextmanager
def serving(url: str, caplog: pytest.LogCaptureFixture, **app_options: Any) -> Iterator[Listening]:
    uvicorn_errors = logging.getLogger("uvicorn.error")
    try:
        with arena(url, **app_options) as server:
            uvicorn_errors.addHandler(caplog.handler)
            yield server
    finally:
        uvicorn_errors.removeHandler(caplog.handler)


def errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """Every record at ERROR or worse, from any logger but the test's own clients' (a client
    starved of CPU on a busy machine logs "keepalive ping failed": not the server's doing)."""
    return [
        r
        for r in caplog.records
        if r.levelno >= logging.ERROR and not r.name.startswith("websockets.client")
    ]
