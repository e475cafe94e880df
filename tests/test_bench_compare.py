"""The side-by-side comparison of two builds: its workload script and its JSON. No timings are
asserted; only the shape, that both builds ran, and that the same build plays the same matches."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gladiator.sim import workload
from gladiator.sim.compare import CompareError, python_of, run_compare, this_checkout


def test_workload_prints_one_json_object_per_mode(capsys: pytest.CaptureFixture[str]) -> None:
    assert workload.main(["--ruleset", "quick", "--matches", "3", "--blocks", "2"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["quiet_supported"] is True
    assert set(out["modes"]) == {"loud", "quiet"}
    loud, quiet = out["modes"]["loud"], out["modes"]["quiet"]
    assert loud["matches"] == quiet["matches"] == 3
    # A quiet apply throws the same dice and ends the same way.
    assert loud["digest"] == quiet["digest"]
    assert loud["dice_thrown"] == quiet["dice_thrown"] >= loud["rolls"] > 0


def test_workload_refuses_an_unknown_mode() -> None:
    with pytest.raises(SystemExit):
        workload.main(["--modes", "loud,fast"])


def test_compare_runs_each_build_in_its_own_python_and_writes_ratios() -> None:
    """This checkout against itself: both builds ran, interleaved, with the same results."""
    here = this_checkout()
    r = run_compare(here, here, ruleset="quick", matches=2, reps=2, modes=("loud",))
    assert r["schema"] == "gladiator.bench-compare" and r["schema_version"] == 1
    assert "processor" in r["machine"] and "cpus" in r["machine"]
    assert [x["rep"] for x in r["runs"]["old"]] == [0, 1]
    assert [x["rep"] for x in r["runs"]["new"]] == [0, 1]
    assert set(r["ratio_new_over_old"]["loud"]) == {
        "matches_per_second",
        "decisions_per_second",
        "us_per_die",
    }
    assert r["same_results"] is True
    # Builds are named by commit; no folder of this machine goes into the JSON.
    assert "path" not in r["builds"]["new"] and str(here) not in json.dumps(r)
    assert python_of(here)


def test_compare_refuses_a_folder_that_is_no_checkout(tmp_path: Path) -> None:
    with pytest.raises(CompareError, match="not a checkout"):
        run_compare(tmp_path, this_checkout(), matches=1, reps=1)


def test_compare_plays_each_mode_in_a_process_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """A mode played after another in one process would replay its matches on warm caches."""
    from gladiator.sim import compare

    calls: list[list[str]] = []

    def fake(checkout: Path, args: list[str], timeout: float) -> dict[str, object]:
        calls.append(list(args))
        mode = next(a.split("=", 1)[1] for a in args if a.startswith("--modes="))
        rates = {"matches_per_second": 1.0, "decisions_per_second": 1.0, "us_per_die": 1.0}
        return {
            "quiet_supported": True,
            "python": "3",
            "max_rss_kib": 10 if mode == "loud" else 20,
            "modes": {mode: {**rates, "digest": mode}},
        }

    monkeypatch.setattr(compare, "_run_workload", fake)
    here = this_checkout()
    r = run_compare(here, here, ruleset="quick", matches=1, reps=1)
    assert [a for c in calls for a in c if a.startswith("--modes=")] == [
        "--modes=loud",
        "--modes=quiet",
    ] * 2
    assert set(r["runs"]["new"][0]["modes"]) == {"loud", "quiet"}
    assert r["runs"]["new"][0]["max_rss_kib"] == 20
    assert r["same_results"] is True
