"""`gladiator report`: a played batch's files, the same report again from its Parquet, and one
line of error for each mistake."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gladiator.cli.main import app

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def assert_one_line_error(code: int, out: str, err: str, says: str) -> None:
    assert code == 2, (code, out, err)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert says in lines[0] and "Traceback" not in out + err


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report") / "quick"
    code, _, err = run("report", "quick", "--matches", "30", "--seed", "4", "--out", str(out))
    assert code == 0, err
    return out


def test_report_writes_html_pdf_json_and_keeps_the_batch(played: Path) -> None:
    names = sorted(p.name for p in played.iterdir())
    assert names == ["batch.parquet", "report.html", "report.json", "report.pdf"]
    numbers = json.loads((played / "report.json").read_text())
    assert numbers["schema"] == "gladiator.balance_report" and numbers["schema_version"] == 1
    assert numbers["batch"]["matches"] == 30 and numbers["batch"]["seed"] == 4
    assert numbers["batch"]["bots"] == ["greedy"]  # the quick rules' best bot
    assert numbers["facet_names"] == ["class"]


def test_report_from_the_kept_batch_is_the_same_report(played: Path, tmp_path: Path) -> None:
    code, _, err = run(
        "report", "quick", "--from", str(played / "batch.parquet"), "--out", str(tmp_path)
    )
    assert code == 0, err
    assert (tmp_path / "report.json").read_bytes() == (played / "report.json").read_bytes()
    assert (tmp_path / "report.pdf").exists() and not (tmp_path / "batch.parquet").exists()


def test_unknown_ruleset_is_one_line() -> None:
    assert_one_line_error(*run("report", "chess", "--matches", "2"), says="unknown ruleset")


def test_missing_from_is_one_line(tmp_path: Path) -> None:
    code, out, err = run("report", "quick", "--from", str(tmp_path / "nothing.parquet"))
    assert_one_line_error(code, out, err, says="no such file")


def test_garbled_from_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(b"PAR1 not really")
    assert_one_line_error(*run("report", "quick", "--from", str(bad)), says="cannot read")
    folder = tmp_path / "batch"
    folder.mkdir()
    (folder / "batch.json").write_text("{not json")
    assert_one_line_error(*run("report", "quick", "--from", str(folder)), says="unreadable")


def test_from_another_rulesets_batch_or_with_batch_options_is_one_line(played: Path) -> None:
    path = str(played / "batch.parquet")
    assert_one_line_error(*run("report", "skirmish", "--from", path), says="a quick batch")
    assert_one_line_error(*run("report", "quick", "--from", path, "--seed", "2"), says="--from")


def test_bad_bot_and_bad_option_are_one_line() -> None:
    assert_one_line_error(*run("report", "quick", "--bots", "nobody"), says="unknown bot")
    assert_one_line_error(*run("report", "quick", "-o", "nope=1"), says="nope")
