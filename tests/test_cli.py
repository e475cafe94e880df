"""The `gladiator` command: results, records, and one-line errors for every user mistake."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gladiator.cli.main import app

runner = CliRunner()
PLAYTHROUGHS = Path(__file__).parent / "playthroughs"


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def assert_one_line_error(code: int, out: str, err: str) -> None:
    assert code == 2, (code, out, err)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in out + err


def test_rules_lists_quick() -> None:
    code, out, _ = run("rules")
    assert code == 0 and "quick" in out


def test_sim_json_counts_every_match_and_does_not_depend_on_jobs() -> None:
    code, out, _ = run("sim", "quick", "--matches", "30", "--seed", "7", "--json")
    assert code == 0
    one = json.loads(out)
    assert one["matches"] == 30
    assert sum(row["appearances"] for row in one["by_label"]) == 60
    assert sum(one["endings"].values()) == 30
    assert sum(row["wins"] for row in one["by_label"]) == 30 - one["draws"]
    code, out2, _ = run("sim", "quick", "--matches", "30", "--seed", "7", "--json", "--jobs", "2")
    assert code == 0
    assert json.loads(out2) == one


def test_sim_table_names_every_class() -> None:
    code, out, _ = run("sim", "quick", "--matches", "40", "--seed", "1", "--bots", "random")
    assert code == 0
    for word in ("heavy", "medium", "light", "retiarius", "how matches ended"):
        assert word in out


def test_sim_records_verify_and_replay(tmp_path: Path) -> None:
    code, _, _ = run(
        "sim", "quick", "--matches", "3", "--seed", "2", "--records", str(tmp_path), "--json"
    )
    assert code == 0
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 3
    for f in files:
        code, out, err = run("verify", str(f))
        assert code == 0, err
        assert out.startswith("ok:")
    code, out, _ = run("replay", str(files[0]))
    assert code == 0 and "result:" in out


def test_verify_rejects_a_tampered_record(tmp_path: Path) -> None:
    run("sim", "quick", "--matches", "1", "--seed", "3", "--records", str(tmp_path), "--json")
    f = next(tmp_path.glob("*.json"))
    data = json.loads(f.read_text())
    data["rolls"][0]["faces"] = [7]
    f.write_text(json.dumps(data))
    assert_one_line_error(*run("verify", str(f)))


@pytest.mark.parametrize(
    "content",
    [
        "this is not json",
        "[1, 2, 3]",
        json.dumps({"schema": "someone-else", "moves": []}),
        json.dumps({"schema": "gladiator.match-record", "schema_version": 99}),
        json.dumps({"schema": "gladiator.match-record", "schema_version": 1}),
    ],
    ids=["not-json", "json-list", "foreign", "future-version", "missing-fields"],
)
def test_verify_and_replay_refuse_bad_files_in_one_line(tmp_path: Path, content: str) -> None:
    f = tmp_path / "bad.json"
    f.write_text(content)
    assert_one_line_error(*run("verify", str(f)))
    assert_one_line_error(*run("replay", str(f)))


def test_binary_missing_and_folder_records_are_refused(tmp_path: Path) -> None:
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    assert_one_line_error(*run("verify", str(binary)))
    assert_one_line_error(*run("verify", str(tmp_path / "absent.json")))
    assert_one_line_error(*run("verify", str(tmp_path)))


@pytest.mark.parametrize(
    "args",
    [
        ["sim", "nope"],
        ["play", "nope"],
        ["sim", "quick", "--gladiators", "wizard,heavy"],
        ["sim", "quick", "--gladiators", "heavy"],
        ["sim", "quick", "--option", "bogus=1"],
        ["sim", "quick", "--option", "arena_side=99"],
        ["sim", "quick", "--option", "novalue"],
        ["sim", "quick", "--bots", "oracle"],
        ["play", "quick", "--seat", "mauve"],
        ["play", "quick", "--vs", "oracle"],
        ["bench", "nope"],
        ["bench", "quick", "--gc", "off"],
        ["bench", "quick", "--bots", "oracle"],
        ["bench-compare", "quick", "--baseline", "/nonexistent/checkout"],
        ["bench-compare", "quick", "--baseline", ".", "--gc", "off"],
        ["bench-compare", "chess", "--baseline", "."],
        ["sim", "quick", "--gladiators", "heavy,light", "-o", 'gladiators=["light","light"]'],
    ],
)
def test_bad_arguments_get_one_line(args: list[str]) -> None:
    assert_one_line_error(*run(*args))


def test_no_traceback_from_the_installed_command() -> None:
    """The real entry point, in a subprocess: an unknown ruleset is one line and exit 2."""
    proc = subprocess.run(
        [sys.executable, "-c", "from gladiator.cli.main import run; run()", "sim", "chess"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().startswith("error: unknown ruleset 'chess'; known: ")
    assert "quick" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def _terminal_match(tmp_path: Path) -> tuple[str, Path]:
    """A whole match in the terminal: a human who asks for help, types a wrong order, then only
    ends his turns, against the greedy bot, with fixed dice."""
    save = tmp_path / "match.json"
    script = "?\nZZ\n" + "E\n" * 400
    code, out, err = run(
        "play",
        "quick",
        "--vs",
        "greedy",
        "--seed",
        "11",
        "--gladiators",
        "medium,heavy",
        "--save",
        str(save),
        input=script,
    )
    assert code == 0, err
    return out, save


def test_terminal_match_answers_illegal_entries_and_saves_a_verifiable_record(
    tmp_path: Path,
) -> None:
    out, save = _terminal_match(tmp_path)
    assert "'ZZ' is illegal: not one of the choices; legal:" in out
    assert "pivot left" in out  # the help table
    assert "the end" in out
    code, ok, _ = run("verify", str(save))
    assert code == 0 and ok.startswith("ok:")


def test_terminal_playthrough_transcript_is_unchanged(tmp_path: Path) -> None:
    """The playthrough: the same inputs and seed give the same events, roll for roll. A change of
    behaviour shows as a diff against tests/playthroughs/quick_terminal.txt."""
    _, save = _terminal_match(tmp_path)
    record = json.loads(save.read_text())
    lines = [e["text"] for e in record["events"][1:]]  # the first names the fresh commitment
    lines += [
        f"roll {r['n']}: {r['rule']} {r['for']} {r['dice']} {r['faces']}" for r in record["rolls"]
    ]
    expected = (PLAYTHROUGHS / "quick_terminal.txt").read_text().splitlines()
    assert lines == expected


def test_rich_markup_typed_as_an_order_is_answered_not_crashed(tmp_path: Path) -> None:
    """A player typing Rich markup gets the illegal-order answer, quoted as typed."""
    code, out, err = run("play", "quick", "--seed", "11", input="[/foo]\nq\n")
    assert code == 0, err
    assert "'[/foo]' is illegal" in out


def test_status_panel_shows_every_gladiator_and_status() -> None:
    """The status lines under the map keep their [fighting] tags (not eaten as markup)."""
    code, out, _ = run("play", "quick", "--seed", "11", input="q\n")
    assert code == 0
    assert out.count("[fighting]") >= 2


def test_an_unwritable_save_path_is_refused_before_the_match(tmp_path: Path) -> None:
    assert_one_line_error(*run("play", "quick", "--save", str(tmp_path)))
    assert_one_line_error(*run("play", "quick", "--save", str(tmp_path / "no" / "such.json")))


def test_replay_refuses_a_record_whose_events_are_not_objects(tmp_path: Path) -> None:
    run("sim", "quick", "--matches", "1", "--seed", "4", "--records", str(tmp_path), "--json")
    f = next(tmp_path.glob("*.json"))
    data = json.loads(f.read_text())
    data["events"] = [1, 2]
    f.write_text(json.dumps(data))
    assert_one_line_error(*run("replay", str(f)))


@pytest.mark.parametrize(
    "option",
    ["max_rounds=true", 'arena_side="7"', "gladiators=5", "x=" + "[" * 3000, 'fate="thumbs"'],
)
def test_options_are_checked_strictly(option: str) -> None:
    """A boolean is not a number of rounds; a string is not a size; nonsense is one line."""
    assert_one_line_error(*run("sim", "quick", "--matches", "1", "--option", option))


def test_negative_seed_is_refused() -> None:
    """random.Random(-s) repeats Random(s); a seed is 0 or more."""
    code, _, err = run("sim", "quick", "--matches", "1", "--seed", "-5")
    assert code == 2 and "Traceback" not in err
