"""The hostile run of issue 28 (server/hostile.py): how it reads a server's stderr and counts
closes, its command's refusals, and one small run of it (one match of each shape) end to end.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosedError, ConnectionClosedOK
from websockets.frames import Close

from gladiator.cli.hostile import hostile_command
from gladiator.server.hostile import SHAPES, run_hostile
from gladiator.server.hostile_client import Tally
from gladiator.server.hostile_log import read_stderr
from server_helpers import db_url, new_match
from server_logs import errors, serving

INJECTED = """\
match m1: engine fault at step 3: InjectedFault: injected engine fault on 'red: (L)F' \
(pattern '\\\\(L\\\\)F'); the decision's orders are voided (red: (L)F, blue: F)
Traceback (most recent call last):
  File "/src/gladiator/core/match.py", line 198, in _resolution
    events = self.ruleset.apply(state, orders, dice)
             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
gladiator.server.fault_injection.InjectedFault: injected engine fault on 'red: (L)F'
"""
CHAINED = """\
match m2: engine fault at step 0: PlotError: 'LN3': a throw is written +TW-<area>; the \
decision's orders are voided (red: F +LN3)
Traceback (most recent call last):
  File "/src/gladiator/rules/colosseum/plots/plots.py", line 10, in parse
KeyError: 'LN3'

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/src/gladiator/core/match.py", line 198, in _resolution
gladiator.rules.colosseum.plots.plots.PlotError: 'LN3': a throw is written +TW-<area>
"""
OTHER = """\
internal error on /api/matches/m3/orders
Traceback (most recent call last):
  File "/src/gladiator/server/app.py", line 1, in order
ZeroDivisionError: division by zero
"""
INFO = 'INFO:     127.0.0.1:5000 - "WebSocket /ws/m1" [accepted]\nINFO:     connection open\n'


def test_every_traceback_under_a_fault_line_is_the_faults_and_any_other_is_counted() -> None:
    report = read_stderr(INFO + INJECTED + INFO + CHAINED + OTHER + INFO)
    assert (report.fault_lines, report.tracebacks, report.fault_tracebacks) == (2, 4, 3)
    assert report.other_tracebacks == 1
    assert dict(report.fault_kinds) == {"InjectedFault": 1, "PlotError": 1}
    (other,) = report.other
    assert other.startswith("internal error on /api/matches/m3/orders")
    assert other.endswith("ZeroDivisionError: division by zero")


def test_a_traceback_after_a_faults_traceback_is_not_the_faults() -> None:
    """Only a chained traceback continues the fault's block: a bare second one (say, printed
    by a dying task with no log line of its own) is another traceback."""
    stray = OTHER.split("\n", 1)[1]
    report = read_stderr(INJECTED + stray)
    assert (report.fault_tracebacks, report.other_tracebacks) == (1, 1)
    assert read_stderr(stray).other_tracebacks == 1  # before any line at all


def test_a_fault_line_without_its_traceback_is_reported() -> None:
    line = INJECTED.splitlines()[0]
    report = read_stderr(f"{line}\n{INFO}")
    assert (report.fault_lines, report.faults_without_traceback, report.tracebacks) == (1, 1, 0)


def test_a_close_is_counted_by_its_code_and_one_without_a_frame_is_bare() -> None:
    tally = Tally()
    tally.closed(ConnectionClosedError(Close(1009, "message over 8 KiB"), None), "spare", False)
    tally.closed(ConnectionClosedOK(Close(1012, ""), Close(1012, ""), True), "seat", True)
    tally.closed(ConnectionClosedError(None, None), "a seat's socket", True)
    assert dict(tally.closes) == {1009: 1, 1012: 1, 1006: 1}
    (bare,) = tally.bare_closes
    assert bare.startswith("a seat's socket while the server restarted")
    assert tally.to_dict()["closes_without_frame"] == 1


def test_the_command_refuses_a_pattern_that_is_no_regular_expression() -> None:
    app = typer.Typer()
    app.command("hostile")(hostile_command)
    app.command("other")(lambda: None)  # two commands: the name is asked for, as in main
    result = CliRunner().invoke(app, ["hostile", "--pattern", "(L"])
    assert result.exit_code == 2
    assert "is not a regular expression" in result.output
    assert "Traceback" not in result.output


@pytest.fixture(scope="module")
def small_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder: Path = tmp_path_factory.mktemp("hostile")
    return run_hostile(1, seed=3, time_limit=300, folder=folder)


def test_a_small_hostile_run_breaks_no_match(small_run: dict[str, Any]) -> None:
    r = small_run
    assert r["http_5xx"] == 0
    # Every socket the server closed sent its close frame, those cut by the SIGTERM of the
    # restart included (ruling HC7).
    assert r["closes_without_frame"] == 0, r["closes_without_frame_shown"]
    assert r["tracebacks"]["other_tracebacks"] == 0, r["tracebacks"]["other_shown"]
    assert r["unplayable_after_restart"] == 0, r["restart"]
    assert r["unfinished_at_end"] == 0
    assert r["records_verified"] == len(SHAPES)
    assert r["store"]["stored_orders_matching_pattern"] == 0
    faults = r["faults"]
    assert faults["logged"] >= 1
    assert set(faults["by_cause"]) <= {"InjectedFault", "PlotError"}
    assert r["restart"]["matches_running"] >= 1


def test_every_shape_was_played_and_attacked(small_run: dict[str, Any]) -> None:
    shapes = small_run["shapes"]
    assert set(shapes) == set(SHAPES)
    for shape, figures in shapes.items():
        assert figures["orders_acked"] > 0, shape
        assert figures["http_statuses"].get("201") == 1, shape
        assert sum(figures["hostile_sent"].values()) > 0, shape
    assert sum(f["hostile_sent"].get("socket:volley", 0) for f in shapes.values()) > 0


# -- what the hostile run found ----------------------------------------------------------------
async def _hello_and_gone(base: str, match_id: str, first: str | bytes) -> None:
    async with connect(f"ws{base.removeprefix('http')}/ws/{match_id}") as ws:
        await ws.send(first)
    # The block's end closed the socket (a close frame right after the hello), before the
    # server's answer was read.


@pytest.mark.parametrize(
    "first",
    [b"\x00binary", json.dumps({"type": "hello", "token": "wrong"}), "x" * 9000, "hello?"],
    ids=["binary", "foreign_token", "oversized", "not_json"],
)
def test_a_client_that_leaves_after_a_bad_hello_costs_the_server_no_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, first: str | bytes
) -> None:
    """The server closes a socket whose hello it refuses; when the client has already gone,
    that close finds nobody, which is no error (the hostile run saw "Exception in ASGI
    application" here, from the hello's close in server/app.py)."""
    with serving(db_url(tmp_path), caplog) as server:
        made = new_match(server.url, "quick")
        for _ in range(10):
            asyncio.run(_hello_and_gone(server.url, made["id"], first))
    # The block's end stopped the server, so it has dealt with every socket by now.
    assert [r.getMessage() for r in errors(caplog)] == []
