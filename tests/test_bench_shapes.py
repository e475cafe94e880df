"""The Colosseum's bench shapes (sim/shapes.py): every shape benched and compared, each with its
own figures in the JSON; a bad --shape is one line and exit status 2. No timings are asserted
(principle 10): only the shape of the JSON and that the matches were the shape's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from gladiator.cli.main import app
from gladiator.registry import get
from gladiator.sim import compare, workload
from gladiator.sim.compare import this_checkout
from gladiator.sim.shapes import SHAPES, parse_shapes, run_bench_shapes, run_compare_shapes

runner = CliRunner()
FIGURES = ("matches_per_second_per_core", "decisions_per_second", "engine_us_per_die")


@pytest.fixture(scope="module")
def every_shape() -> dict[str, Any]:
    return run_bench_shapes(tuple(SHAPES), 1, floor_window=0.01, memory_matches=1)


def test_every_shape_has_its_own_figures(every_shape: dict[str, Any]) -> None:
    r = json.loads(json.dumps(every_shape))  # plain JSON throughout
    assert r["schema"] == "gladiator.bench-shapes" and r["schema_version"] == 1
    assert "processor" in r["machine"] and "cpus" in r["machine"]
    assert list(r["shapes"]) == list(SHAPES)
    for name, s in r["shapes"].items():
        # Each shape is a whole schema-2 bench object, as `bench` without --shape prints.
        assert s["schema"] == "gladiator.bench" and s["schema_version"] == 2, name
        assert s["raw_options"] == dict(SHAPES[name].options) and s["description"]
        assert [(x["bot"], x["path"]) for x in s["runs"]] == [
            ("random", "unchecked"),
            ("random", "checked"),
        ]
        for run in s["runs"]:
            assert run["matches"] == 1 and run["decisions"] > 0, name
            assert all(run[k] > 0 for k in FIGURES), name


def test_each_shape_plays_its_own_match(every_shape: dict[str, Any]) -> None:
    opts = {n: s["options"] for n, s in every_shape["shapes"].items()}
    assert opts["basic"] == get("colosseum").normalise_options({})
    assert opts["advanced-duel"]["advanced"] is True and not opts["advanced-duel"]["beasts"]
    assert opts["advanced-2v2"]["teams"] == "red+green:blue+gold"
    assert [len(side.split("+")) for side in opts["advanced-6v6"]["teams"].split(":")] == [6, 6]
    # Issue 27: no Retiarius (the net) against a beast; the gladiator's style is pinned.
    assert opts["hunt"]["styles"][0] == "bestiarius" and opts["hunt"]["beasts"] == "blue:random"
    assert opts["pack"]["styles"][0] == "venator" and opts["pack"]["beasts"].count(":") == 3


def test_the_default_bench_has_no_shapes() -> None:
    """Without --shape the JSON is the old schema-2 object, so old files stay comparable."""
    result = runner.invoke(app, ["bench", "quick", "--matches", "1", "--bots", "random"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["schema"] == "gladiator.bench" and "shapes" not in out


def test_bench_cli_with_a_shape_list(tmp_path: Path) -> None:
    path = tmp_path / "shapes.json"
    args = ["bench", "colosseum", "--shape", "hunt,basic", "--matches", "1", "--out", str(path)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    out = json.loads(path.read_text())
    assert list(out["shapes"]) == ["hunt", "basic"]
    assert out["shapes"]["hunt"]["runs"][0]["matches"] == 1


def test_parse_shapes() -> None:
    assert parse_shapes("colosseum", "all") == tuple(SHAPES)
    assert parse_shapes("colosseum", " Pack, hunt,pack ") == ("pack", "hunt")
    with pytest.raises(ValueError, match="unknown shape 'duel'"):
        parse_shapes("colosseum", "duel")
    with pytest.raises(ValueError, match="colosseum ruleset only"):
        parse_shapes("quick", "basic")


@pytest.mark.parametrize(
    "args",
    [
        ["bench", "colosseum", "--shape", "nope"],
        ["bench", "colosseum", "--shape", ","],
        ["bench", "colosseum", "--shape", "all,hunt"],
        ["bench", "quick", "--shape", "basic"],
        ["bench-compare", "colosseum", "--baseline", ".", "--shape", "nope"],
        ["bench-compare", "quick", "--baseline", ".", "--shape", "hunt"],
    ],
)
def test_a_bad_shape_gets_one_line_and_exit_2(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)  # typer's Exit(2), nothing raised past it


def test_a_bad_shape_from_the_installed_command_is_one_line() -> None:
    entry = "from gladiator.cli.main import run; run()"
    proc = subprocess.run(
        [sys.executable, "-c", entry, "bench", "colosseum", "--shape", "nope"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().startswith("error: unknown shape 'nope'")
    assert len(proc.stderr.strip().splitlines()) == 1


def test_workload_reads_raw_options(capsys: pytest.CaptureFixture[str]) -> None:
    """The workload normalises a shape's raw options in the build that runs it."""
    digests = {}
    for name in ("basic", "pack"):
        options = json.dumps(dict(SHAPES[name].options))
        args = ["--ruleset", "colosseum", "--matches", "1", "--modes", "loud"]
        assert workload.main([*args, "--options", options]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["modes"]["loud"]["decisions"] > 0
        digests[name] = out["modes"]["loud"]["digest"]
    assert digests["basic"] != digests["pack"]


@pytest.mark.parametrize("options", ["[1]", "{not json"])
def test_workload_refuses_options_that_are_no_object(options: str) -> None:
    with pytest.raises(SystemExit):
        workload.main(["--ruleset", "colosseum", "--options", options])


def test_compare_hands_each_build_the_shape_as_options_not_as_a_flag(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An old build has no --shape: it is given this checkout's workload script and the
    shape's raw options as JSON, which any build's normalise_options reads."""
    seen: list[list[str]] = []

    def fake(checkout: Path, args: list[str], timeout: float) -> dict[str, Any]:
        seen.append(list(args))
        mode = {"matches_per_second": 1.0, "decisions_per_second": 1.0, "us_per_die": 1.0}
        return {"quiet_supported": True, "python": "3", "modes": {"loud": {**mode, "digest": ""}}}

    monkeypatch.setattr(compare, "_run_workload", fake)
    here = this_checkout()
    r = run_compare_shapes(("pack",), here, here, matches=1, reps=1, modes=("loud",))
    assert len(seen) == 2 and all("--shape" not in " ".join(a) for a in seen)
    given = [a.partition("=")[2] for a in seen[0] if a.startswith("--options=")]
    assert [json.loads(g) for g in given] == [dict(SHAPES["pack"].options)]
    assert r["shapes"]["pack"]["workload"]["options"] == dict(SHAPES["pack"].options)


def test_compare_runs_a_shape_in_both_builds(monkeypatch: pytest.MonkeyPatch) -> None:
    """This checkout against itself, one shape: both builds played the same hunt."""
    here = this_checkout()
    monkeypatch.setattr(sys, "argv", ["gladiator", "bench-compare", "--baseline", str(here)])
    r = run_compare_shapes(("hunt",), here, here, matches=1, reps=1, modes=("loud",))
    assert r["schema"] == "gladiator.bench-compare-shapes" and "cpus" in r["machine"]
    hunt = r["shapes"]["hunt"]
    assert hunt["schema"] == "gladiator.bench-compare" and hunt["same_results"] is True
    assert hunt["workload"]["options"]["beasts"] == "blue:random"
    assert set(hunt["ratio_new_over_old"]["loud"]) == {
        "matches_per_second",
        "decisions_per_second",
        "us_per_die",
    }
    assert str(here) not in json.dumps(r)  # no folder of this machine in the JSON
