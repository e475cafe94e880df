"""`gladiator serve --bot-budget-cap --bot-workers` and `gladiator loadtest --bot-matches`: a
bad value is one line on stderr and exit status 2; the load test plays bot matches beside the
humans' and counts their orders (rulings HF2, HF3)."""

from __future__ import annotations

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
        (["--bot-budget-cap", "abc"], "--bot-budget-cap must be a number, not 'abc'"),
        (["--bot-budget-cap", "0"], "--bot-budget-cap must be a positive number of seconds"),
        (["--bot-budget-cap", "-2"], "--bot-budget-cap must be a positive number of seconds"),
        (["--bot-budget-cap", "nan"], "--bot-budget-cap must be a finite number"),
        (["--bot-budget-cap", "inf"], "--bot-budget-cap must be a finite number"),
        (["--bot-workers", "0"], "--bot-workers must be a whole number from 1 to 256, not 0"),
        (["--bot-workers", "1.5"], "--bot-workers must be a whole number from 1 to 256"),
        (["--bot-workers", "many"], "--bot-workers must be a number, not 'many'"),
    ],
)
def test_serve_refuses_bad_bot_settings(tmp_path: Path, args: list[str], words: str) -> None:
    db = f"sqlite:///{tmp_path / 'x.db'}"
    assert words in _one_line_error(["serve", "--port", "0", "--db", db, *args])
    assert not (tmp_path / "x.db").exists()  # refused before the database was touched


@pytest.mark.parametrize(
    "args,words",
    [
        (["--bot-spec", "search@x"], "the budget after @ must be seconds"),
        (["--bot-spec", "hal"], "unknown bot 'hal'"),
        (["--bot-spec", "search@3"], "over this server's cap of 2 s a decision"),
    ],
)
def test_loadtest_refuses_a_bad_bot_spec(args: list[str], words: str) -> None:
    line = _one_line_error(["loadtest", "--matches", "1", "--bot-matches", "1", *args])
    assert words in line


def test_loadtest_plays_bot_matches_beside_the_humans() -> None:
    result = run_loadtest(
        2,
        "quick",
        seed=4,
        options={"max_rounds": 3},
        time_limit=120,
        bot_matches=2,
        bot_spec="greedy",
        bot_workers=1,
    )
    assert result["bot_matches"] == 2 and result["bot_spec"] == "greedy"
    assert result["bot_orders"] > 0 and result["bot_matches_made"] >= 2
    assert result["orders_lost"] == 0 and result["problems"] == []
    latency = result["latency_ms"]
    assert latency["p50"] <= latency["p95"] <= latency["p99"] <= latency["max"]
