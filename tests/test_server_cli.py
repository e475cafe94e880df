"""`gladiator serve` and `gladiator loadtest`: a user's mistake is one line on stderr and exit
status 2; the load test plays every order of every match through real sockets and loses none."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gladiator.cli.main import app
from gladiator.server.loadtest import run_loadtest

runner = CliRunner()


def _one_line_error(args: list[str]) -> str:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    return lines[0]


@pytest.mark.parametrize(
    "args,words",
    [
        (["--db", "nosuch://x"], "unsupported database"),
        (["--db", "sqlite:///no/such/folder/x.db"], "does not exist"),
        (["--host", "192.0.2.1"], "not an address of this machine"),
        (["--host", "bad host"], "neither an IP address nor a host name"),
        (["--port", "70000"], "0..65535"),
        (["--allow-origin", "not-an-origin"], "--allow-origin"),
        (["--allow-origin", "http://ok.example/path"], "only scheme, host and port"),
        (["--request-timeout", "0"], "--request-timeout must be 0.5..3600"),
        (["--max-connections", "0"], "--max-connections must be 1.."),
        (["--max-connections", "99999999"], "ulimit -n"),
        (["--max-per-address", "0"], "--max-per-address must be at least 1"),
    ],
)
def test_serve_refuses_bad_arguments(tmp_path: Path, args: list[str], words: str) -> None:
    db = ["--db", f"sqlite:///{tmp_path / 'x.db'}"] if "--db" not in args else []
    assert words in _one_line_error(["serve", "--port", "0", *db, *args])


def test_serve_refuses_a_busy_port(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        line = _one_line_error(
            ["serve", "--port", str(port), "--db", f"sqlite:///{tmp_path / 'x.db'}"]
        )
    assert f"port {port}" in line and "busy" in line
    assert not (tmp_path / "x.db").exists()  # refused before the database was touched


def test_loadtest_refuses_an_unknown_ruleset() -> None:
    assert "unknown ruleset" in _one_line_error(["loadtest", "--ruleset", "chess"])


def test_loadtest_six_quick_matches_lose_no_order() -> None:
    result = run_loadtest(6, "quick", seed=3, options={"max_rounds": 10}, time_limit=120)
    assert result["matches_finished"] == 6
    assert result["orders_lost"] == 0 and result["orders_refused"] == 0
    assert result["orders_sent"] == result["orders_acked"] > 6 * 2
    assert result["latency_ms"]["p50"] is not None
    assert result["latency_ms"]["p50"] <= result["latency_ms"]["p99"]
    assert result["machine"]["cpus"] and result["problems"] == []
