"""Two builds side by side in one run: the same workload, old and new alternately.

Each repetition runs `sim/workload.py` once per build and mode, each in its own subprocess with
that checkout's own Python (its `.venv`, else `uv run` in it), the order alternating from one
repetition to the next, so that the machine's load changes weigh on both builds alike; every
mode plays the same matches from the same warmed-up start. The result holds every repetition,
the medians per build and mode, and the ratios new/old of the medians (above 1 is faster for
rates, below 1 is faster for microseconds per die), with the machine's details and its load
averages around each run.

The workload script is this checkout's file, run by the other build's Python: an old build
needs none of this build's options. Match options (a bench shape's, `sim.shapes`) go to it as
raw JSON, which each build reads with its own `normalise_options`.
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import gladiator
from gladiator.sim.machine import load_average, machine

__all__ = ["SCHEMA_VERSION", "WORKLOAD", "python_of", "run_compare", "this_checkout"]

SCHEMA_VERSION = 1
WORKLOAD = Path(__file__).with_name("workload.py")
_RATES = ("matches_per_second", "decisions_per_second", "us_per_die")


class CompareError(ValueError):
    """A checkout that cannot be run, or a workload that failed in it."""


def this_checkout() -> Path:
    """The checkout this gladiator was imported from (the src layout's root)."""
    root = Path(gladiator.__file__).resolve().parents[2]
    if not (root / "pyproject.toml").is_file():
        raise CompareError(f"gladiator is not imported from a checkout ({root}); pass --new")
    return root


def python_of(checkout: Path) -> list[str]:
    """The command that runs that checkout's own Python."""
    venv = checkout / ".venv" / "bin" / "python"
    if venv.is_file():
        return [str(venv)]
    uv = shutil.which("uv")
    if uv is None:
        raise CompareError(f"{checkout} has no .venv and uv is not on PATH")
    return [uv, "run", "--project", str(checkout), "--frozen", "python"]


def _git(checkout: Path) -> dict[str, Any]:
    def git(*args: str) -> str | None:
        try:
            p = subprocess.run(
                ["git", "-C", str(checkout), *args], capture_output=True, text=True, timeout=30
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
        return p.stdout.strip() if p.returncode == 0 else None

    status = git("status", "--porcelain", "--untracked-files=no")
    return {
        "commit": git("rev-parse", "HEAD"),
        "branch": git("rev-parse", "--abbrev-ref", "HEAD"),
        "dirty": bool(status) if status is not None else None,
    }


def _run_workload(checkout: Path, args: Sequence[str], timeout: float) -> dict[str, Any]:
    cmd = [*python_of(checkout), "-P", str(WORKLOAD), *args]
    try:
        p = subprocess.run(cmd, cwd=checkout, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise CompareError(f"the workload ran past {timeout:.0f} s in {checkout}") from None
    if p.returncode != 0:
        tail = (p.stderr or p.stdout).strip().splitlines()[-3:]
        raise CompareError(f"the workload failed in {checkout}: {' | '.join(tail)}")
    result: dict[str, Any] = json.loads(p.stdout.strip().splitlines()[-1])
    package = Path(result.pop("package")).resolve()
    if checkout.resolve() not in package.parents:
        raise CompareError(f"{checkout}'s Python imported gladiator from {package}, not from it")
    return result  # without the package's path: the JSON names no folder of this machine


def _medians(reps: list[dict[str, Any]], modes: Sequence[str]) -> dict[str, dict[str, float]]:
    return {
        m: {k: round(statistics.median(r["modes"][m][k] for r in reps), 3) for k in _RATES}
        for m in modes
    }


def _run_modes(
    checkout: Path, args: Sequence[str], modes: Sequence[str], timeout: float
) -> dict[str, Any]:
    """The workload once per mode, each in a process of its own: a mode played after another
    in one process replays the same matches with the caches the first has just filled, which
    flatters whichever build caches the most of a match."""
    result: dict[str, Any] = {}
    for mode in modes:
        one = _run_workload(checkout, [*args, f"--modes={mode}"], timeout)
        if not result:
            result = one
            continue
        result["modes"].update(one["modes"])
        if one.get("max_rss_kib") and result.get("max_rss_kib"):
            result["max_rss_kib"] = max(result["max_rss_kib"], one["max_rss_kib"])
    return result


def run_compare(
    baseline: Path,
    new: Path | None = None,
    *,
    ruleset: str = "quick",
    options: Mapping[str, Any] | None = None,
    matches: int = 200,
    seed: int = 1,
    reps: int = 5,
    modes: Sequence[str] = ("loud", "quiet"),
    gc: str = "default",
    timeout: float = 600.0,
    on_rep: Callable[[int, str], None] | None = None,
) -> dict[str, Any]:
    builds = {"old": baseline.resolve(), "new": (new or this_checkout()).resolve()}
    for name, path in builds.items():
        if not (path / "pyproject.toml").is_file():
            raise CompareError(f"{name} build {path} is not a checkout (no pyproject.toml)")
    args = [f"--ruleset={ruleset}", f"--matches={matches}", f"--seed={seed}", f"--gc={gc}"]
    if options:  # raw options, read by each build's own normalise_options (a bench shape)
        args.append(f"--options={json.dumps(dict(options), sort_keys=True)}")
    runs: dict[str, list[dict[str, Any]]] = {"old": [], "new": []}
    for rep in range(reps):
        for name in ("old", "new") if rep % 2 == 0 else ("new", "old"):
            if on_rep:
                on_rep(rep, name)
            before = load_average()
            result = _run_modes(builds[name], args, modes, timeout)
            result.update(rep=rep, load_average={"before": before, "after": load_average()})
            runs[name].append(result)
    med = {name: _medians(r, modes) for name, r in runs.items()}
    ratios = {m: {k: round(med["new"][m][k] / med["old"][m][k], 3) for k in _RATES} for m in modes}
    digests = {
        name: {m: {r["modes"][m]["digest"] for r in rs} for m in modes} for name, rs in runs.items()
    }
    return {
        "schema": "gladiator.bench-compare",
        "schema_version": SCHEMA_VERSION,
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "workload": {
            "script": "src/gladiator/sim/workload.py",
            "ruleset": ruleset,
            # Only where given, so that a comparison without options reads as it always has.
            **({"options": dict(options)} if options else {}),
            "matches": matches,
            "seed": seed,
            "repetitions": reps,
            "modes": list(modes),
            "gc": gc,
            "bot": "random legal (Decision.sample)",
            "processes": "one per build, repetition and mode (compare._run_modes)",
            "note": "quiet falls back to a loud apply in a build whose apply has no `quiet` "
            "(see builds.*.quiet_supported): then quiet compares the two builds' sim paths",
        },
        "machine": machine(),
        "builds": {
            name: {
                **_git(path),
                "quiet_supported": runs[name][0]["quiet_supported"],
                "python": runs[name][0]["python"],
            }
            for name, path in builds.items()
        },
        "median": med,
        "ratio_new_over_old": ratios,
        "same_results": all(
            len(digests["old"][m]) == 1 and digests["old"][m] == digests["new"][m] for m in modes
        ),
        "runs": runs,
    }
