"""Clients that drop mid-body or send a broken body framing: one quiet line, no traceback, and
a 400 or 413 where an answer can still be sent (rulings HC4)."""

from __future__ import annotations

import logging
import socket
import time
from pathlib import Path

import pytest

from server_helpers import arena, db_url

HEAD = b"POST /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"


def _send(url: str, data: bytes, *, wait: float = 1.0) -> bytes:
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port))) as s:
        s.sendall(data)
        s.settimeout(wait)
        try:
            return s.recv(4096)
        except TimeoutError:
            return b""


@pytest.mark.parametrize(
    "data,status",
    [
        (HEAD + b'Content-Length: 100\r\n\r\n{"rul', None),  # the client leaves mid-body
        (HEAD + b"Content-Length: 1234567890123\r\n\r\n{}", b"413"),
        (HEAD + b"Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n", b"400"),
    ],
    ids=["dropped mid-body", "13-digit content-length", "bad chunk size"],
)
def test_a_broken_body_is_one_quiet_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, data: bytes, status: bytes | None
) -> None:
    with caplog.at_level(logging.INFO), arena(db_url(tmp_path)) as running:
        answer = _send(running.url, data, wait=0.3 if status is None else 2.0)
        time.sleep(0.5)
    if status is not None:
        assert answer.split(b" ")[1] == status, answer
    assert not [r for r in caplog.records if r.exc_info], [r.getMessage() for r in caplog.records]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
