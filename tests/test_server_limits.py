"""Connection limits (docs/web.md, Limits; rulings HC1-HC3): silent and slow clients cannot take
the server from everyone else, and a flood is a few log lines, not megabytes."""

from __future__ import annotations

import contextlib
import json
import logging
import re
import resource
import select
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from gladiator.server.app import create_app
from gladiator.server.conn_limits import Limits, address_key, file_budget
from gladiator.server.listen import Listening, start_in_thread
from gladiator.server.throttled_log import ThrottledWarning
from gladiator.store import Store
from server_helpers import tokens_of

FILE_LIMIT = 256


def _low_file_limit() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (FILE_LIMIT, FILE_LIMIT))


def _silent(host: str, port: int, source: str, count: int) -> list[socket.socket]:
    socks = []
    for _ in range(count):
        s = socket.socket()
        s.bind((source, 0))
        s.connect((host, port))
        socks.append(s)
    return socks


def _closed_by_server(socks: list[socket.socket]) -> int:
    """How many of the sockets have an end of file (or a reset, or a refusal) to read."""
    ready, _, _ = select.select(socks, [], [], 0)
    return len(ready)


def _all_closed_within(socks: list[socket.socket], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if _closed_by_server(socks) == len(socks):
            return True
        time.sleep(0.1)
    return False


@contextlib.contextmanager
def _server_process(tmp_path: Path, *options: str) -> Iterator[tuple[str, Path]]:
    """`gladiator serve` in a process of its own whose open-file limit is 256."""
    log = tmp_path / "serve.log"
    with log.open("wb") as err:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "from gladiator.cli.main import run; run()",
                "serve",
                "--port",
                "0",
                "--db",
                f"sqlite:///{tmp_path / 'arena.db'}",
                *options,
            ],
            stdout=subprocess.PIPE,
            stderr=err,
            preexec_fn=_low_file_limit,
        )
        try:
            assert proc.stdout is not None
            found = re.search(r"http://[0-9.]+:[0-9]+", proc.stdout.readline().decode())
            assert found, log.read_text()
            yield found.group(0), log
        finally:
            proc.kill()
            proc.wait(10)


def test_silent_connections_past_the_file_limit_leave_the_server_serving(
    tmp_path: Path,
) -> None:
    # 400 silent sockets from one address, then 500 more from five others: 900 in all against
    # an open-file limit of 256. Before the limits the server ran out of descriptors, stopped
    # answering anyone and logged 36 MB of accept tracebacks in 10 s.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 1100:  # this process holds the 900 client sockets
        if hard != resource.RLIM_INFINITY and hard < 1100:
            pytest.skip("the open-file limit of the test process is below 1100")
        resource.setrlimit(resource.RLIMIT_NOFILE, (1100, hard))
    with _server_process(tmp_path, "--request-timeout", "2") as (url, log):
        host, port = url.removeprefix("http://").split(":")
        silent = _silent(host, int(port), "127.0.0.2", 400)
        for last in range(3, 8):
            silent += _silent(host, int(port), f"127.0.0.{last}", 100)
        started = time.monotonic()
        answer = httpx.get(f"{url}/api/rulesets", timeout=5)
        took = time.monotonic() - started
        assert answer.status_code == 200
        assert took < 3.0, f"the lobby took {took:.2f} s"
        # Every silent one is closed by the request timeout (2 s) if not refused sooner.
        assert _all_closed_within(silent, 5.0), f"{_closed_by_server(silent)} of 900 closed"
        assert httpx.get(f"{url}/api/rulesets", timeout=5).status_code == 200
        for s in silent:
            s.close()
        lines = log.read_text().splitlines()
    assert len(lines) < 20, lines
    assert not [ln for ln in lines if "Too many open files" in ln or "Traceback" in ln]
    assert any("--max-per-address" in ln for ln in lines)


@contextlib.contextmanager
def _arena(tmp_path: Path, **limits: float | int) -> Iterator[Listening]:
    store = Store(f"sqlite:///{tmp_path / 'arena.db'}")
    running = start_in_thread(create_app(store), limits=Limits.checked(**limits))  # type: ignore[arg-type]
    try:
        yield running
    finally:
        running.stop()
        store.close()


def _address(running: Listening) -> tuple[str, int]:
    host, port = running.url.removeprefix("http://").split(":")
    return host, int(port)


def _wait_closed(s: socket.socket, seconds: float) -> float | None:
    """Seconds until the server closed `s` (None: still open after `seconds`)."""
    started = time.monotonic()
    s.settimeout(seconds)
    try:
        while s.recv(4096):
            pass
    except TimeoutError:
        return None
    except ConnectionResetError:
        pass
    return time.monotonic() - started


def test_a_request_head_sent_a_byte_at_a_time_is_cut_off_at_the_timeout(tmp_path: Path) -> None:
    with _arena(tmp_path, request_timeout=1.0) as running:
        s = socket.create_connection(_address(running))
        started = time.monotonic()
        closed_at = None
        with contextlib.suppress(OSError):
            for byte in b"GET /api/rulesets HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 40:
                s.send(bytes([byte]))
                time.sleep(0.1)
                if _closed_by_server([s]):
                    closed_at = time.monotonic() - started
                    break
        s.close()
    assert closed_at is not None and 0.9 <= closed_at <= 2.0, closed_at


def test_a_request_body_never_finished_is_cut_off_at_the_timeout(tmp_path: Path) -> None:
    with _arena(tmp_path, request_timeout=1.0) as running:
        s = socket.create_connection(_address(running))
        s.sendall(
            b"POST /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
        )
        took = _wait_closed(s, 3.0)
        s.close()
    assert took is not None and 0.8 <= took <= 2.0, took


def test_a_connection_idle_after_a_response_is_closed_by_keep_alive(tmp_path: Path) -> None:
    with _arena(tmp_path, request_timeout=30.0) as running:
        s = socket.create_connection(_address(running))
        s.sendall(b"GET /api/bots HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert s.recv(65536).startswith(b"HTTP/1.1 200")
        took = _wait_closed(s, 8.0)
        s.close()
    assert took is not None and took < 7.0  # uvicorn's 5 s keep-alive


def test_the_address_over_its_limit_is_refused_and_others_are_not(tmp_path: Path) -> None:
    with _arena(tmp_path, max_per_address=5) as running:
        host, port = _address(running)
        mine = _silent(host, port, "127.0.0.2", 5)
        extra = socket.socket()
        extra.bind(("127.0.0.2", 0))
        extra.connect((host, port))
        extra.settimeout(2)
        assert extra.recv(4096).startswith(b"HTTP/1.1 503")
        assert _closed_by_server(mine) == 0
        answer = httpx.get(f"{running.url}/api/bots", timeout=5)  # from 127.0.0.1
        assert answer.status_code == 200
        for s in [*mine, extra]:
            s.close()


def test_at_the_total_limit_the_longest_waiting_connection_makes_room(tmp_path: Path) -> None:
    with _arena(tmp_path, max_connections=10, request_timeout=60.0) as running:
        host, port = _address(running)
        silent = []
        for last in range(2, 12):  # ten addresses, one silent socket each
            silent += _silent(host, port, f"127.0.0.{last}", 1)
            time.sleep(0.02)
        with contextlib.ExitStack() as clients:
            # Three clients that keep their connections open after their answer.
            answers = [
                clients.enter_context(httpx.Client(timeout=5)).get(f"{running.url}/api/bots")
                for _ in range(3)
            ]
            assert [a.status_code for a in answers] == [200, 200, 200]
            time.sleep(0.2)
            closed = [i for i, s in enumerate(silent) if _closed_by_server([s])]
        for s in silent:
            s.close()
    # Each new connection pushed out the silent one that had waited longest.
    assert closed == [0, 1, 2]


def test_a_connection_busy_with_its_request_is_not_pushed_out(tmp_path: Path) -> None:
    # A websocket (its request done, now the app's) holds its place at the total limit.
    from websockets.sync.client import connect

    with _arena(tmp_path, max_connections=2, request_timeout=60.0) as running:
        host, port = _address(running)
        made = httpx.post(
            f"{running.url}/api/matches",
            json={"ruleset": "quick", "options": {}, "seats": {}},
            timeout=10,
        ).json()
        ws_url = "ws" + running.url.removeprefix("http") + f"/ws/{made['id']}"
        with connect(ws_url) as ws:
            ws.send(json.dumps({"type": "hello", "token": tokens_of(made["spectator"])[0]}))
            assert '"welcome"' in ws.recv(timeout=5)
            silent = _silent(host, port, "127.0.0.2", 1)
            time.sleep(0.2)
            newcomer = _silent(host, port, "127.0.0.3", 1)  # pushes out the silent one
            time.sleep(0.2)
            assert _closed_by_server(silent) == 1
            third = _silent(host, port, "127.0.0.4", 1)  # pushes out the newcomer
            time.sleep(0.2)
            assert _closed_by_server(newcomer) == 1
            ws.send('{"type":"ping"}')
            assert _closed_by_server(third) == 0
            for s in [*silent, *newcomer, *third]:
                s.close()


def test_limits_default_to_what_the_open_file_limit_allows() -> None:
    limits = Limits.checked()
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    assert limits.max_connections == file_budget(soft) < soft
    assert file_budget(256) == 192 and file_budget(1024) == 896
    assert Limits.checked(max_per_address=10**6).max_per_address == limits.max_connections


@pytest.mark.parametrize(
    "host,key",
    [
        ("203.0.113.7", "203.0.113.7"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"),
        ("::ffff:203.0.113.7", "203.0.113.7"),
    ],
)
def test_one_client_is_an_ipv4_address_or_an_ipv6_64(host: str, key: str) -> None:
    assert address_key(host) == key


def test_a_throttled_warning_says_how_many_it_held_back(caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    warning = ThrottledWarning(logging.getLogger("test.throttled"), 60.0, lambda: now[0])
    with caplog.at_level(logging.WARNING, "test.throttled"):
        for second in range(0, 130):
            now[0] = float(second)
            for _ in range(1000):
                warning.warn("refused %s", "x")
    assert [r.getMessage() for r in caplog.records] == [
        "refused x",
        "refused x (59999 more like it in the last 60 s)",
        "refused x (59999 more like it in the last 60 s)",
    ]
