"""Resumable batches (`sim --out DIR`, sim.resume): a batch stopped in the middle, by an error or
by SIGKILL, loses at most the chunks in flight, and the same batch run again plays only what is
missing and ends with exactly the results of a batch never stopped."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from gladiator.cli.main import app
from gladiator.sim.results_table import BatchMeta, BatchMismatch, done_indices, write_part
from gladiator.sim.resume import plan_batch
from gladiator.sim.runner import MatchSummary, chunk_indices, run_batch, todo_indices

BOTS = ["random", "greedy"]


def _meta(matches: int, seed: int = 7) -> BatchMeta:
    return BatchMeta(ruleset="quick", options={}, bots=BOTS, seed=seed, matches=matches)


class Stop(Exception):
    pass


def _play(folder: Path, matches: int, *, jobs: int = 1, stop_after: int | None = None) -> None:
    """Play the batch into `folder`; with `stop_after`, raise from the callback after that many
    parts, as a crash would stop it."""
    plan = plan_batch(folder, _meta(matches))
    written = 0

    def write(part: list[MatchSummary]) -> None:
        nonlocal written
        plan.write(part)
        written += 1
        if stop_after is not None and written >= stop_after:
            raise Stop

    run_batch("quick", {}, plan.meta.matches, 7, BOTS, jobs=jobs, on_chunk=write, skip=plan.done)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_batch_stopped_after_k_parts_resumes_to_the_uninterrupted_results(
    tmp_path: Path, jobs: int
) -> None:
    whole = run_batch("quick", {}, 60, 7, BOTS)
    with pytest.raises(Stop):
        _play(tmp_path, 60, jobs=jobs, stop_after=3)
    kept = done_indices(tmp_path)
    assert 0 < len(kept) < 60  # stopped in the middle, the three parts kept
    played: list[int] = []
    plan = plan_batch(tmp_path, _meta(60))
    assert plan.done == kept
    run_batch(
        "quick",
        {},
        60,
        7,
        BOTS,
        jobs=jobs,
        skip=plan.done,
        on_chunk=lambda part: (plan.write(part), played.extend(s.index for s in part)),
    )
    assert sorted(played) == sorted(set(range(60)) - kept)  # only the missing ones played
    assert plan.results() == whole


def test_sigkill_in_the_middle_loses_only_chunks_in_flight(tmp_path: Path) -> None:
    """A real `kill -9` of the process writing the batch, from inside it after three parts (so
    that it dies mid-batch however fast or slow the machine is), with two pool workers busy."""
    script = f"""
import os, signal
from pathlib import Path
from gladiator.sim.results_table import BatchMeta
from gladiator.sim.resume import plan_batch
from gladiator.sim.runner import run_batch
folder = Path({str(tmp_path)!r})
plan = plan_batch(folder, BatchMeta("quick", {{}}, {BOTS!r}, 7, 60))
parts = []
def write(part):
    plan.write(part)
    parts.append(part)
    if len(parts) == 3:
        os.kill(os.getpid(), signal.SIGKILL)
run_batch("quick", {{}}, 60, 7, {BOTS!r}, jobs=2, on_chunk=write)
"""
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=300)
    assert proc.returncode == -signal.SIGKILL, proc.stderr.decode()
    kept = done_indices(tmp_path)
    assert 0 < len(kept) < 60
    _play(tmp_path, 60)
    plan = plan_batch(tmp_path, _meta(60))
    assert plan.remaining == 0
    assert plan.results() == run_batch("quick", {}, 60, 7, BOTS)


def test_a_larger_matches_extends_the_batch(tmp_path: Path) -> None:
    _play(tmp_path, 10)
    _play(tmp_path, 16)
    plan = plan_batch(tmp_path, _meta(16))
    assert plan.meta.matches == 16 and plan.remaining == 0
    assert plan.results() == run_batch("quick", {}, 16, 7, BOTS)
    # Fewer asked than kept: the batch keeps its size.
    assert plan_batch(tmp_path, _meta(5)).meta.matches == 16


def test_another_batch_in_the_folder_is_refused(tmp_path: Path) -> None:
    _play(tmp_path, 4)
    with pytest.raises(BatchMismatch, match="seed 8 here, 7 there"):
        plan_batch(tmp_path, _meta(4, seed=8))
    other_opts = BatchMeta("quick", {"arena_side": 5}, BOTS, 7, 4)
    with pytest.raises(BatchMismatch, match="options"):
        plan_batch(tmp_path, other_opts)


def test_parts_without_a_description_are_not_a_batch(tmp_path: Path) -> None:
    write_part(tmp_path, run_batch("quick", {}, 2, 7, BOTS), _meta(2))
    with pytest.raises(ValueError, match=r"no batch\.json"):
        plan_batch(tmp_path, _meta(2))


@given(
    matches=st.integers(0, 300),
    jobs=st.integers(1, 4),
    skip=st.sets(st.integers(0, 320), max_size=60),
)
def test_chunks_of_what_is_left_cover_it_once_in_order(
    matches: int, jobs: int, skip: set[int]
) -> None:
    todo = todo_indices(matches, skip)
    chunks = chunk_indices(todo, jobs)
    assert [i for c in chunks for i in c] == [i for i in range(matches) if i not in skip]
    assert all(1 <= len(c) <= 20 for c in chunks)


# --- the command -------------------------------------------------------------------------------


def _sim(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(app, ["sim", "quick", "--seed", "4", *args])
    return r.exit_code, r.stdout, r.stderr


def test_sim_out_resumed_prints_the_summary_of_the_whole_batch(tmp_path: Path) -> None:
    code, plain, _ = _sim("--matches", "14", "--json")
    assert code == 0
    out = str(tmp_path / "batch")
    assert _sim("--matches", "8", "--json", "--out", out, "--jobs", "2")[0] == 0
    assert len(done_indices(Path(out))) == 8
    code, resumed, _ = _sim("--matches", "14", "--json", "--out", out)
    assert code == 0, resumed
    assert json.loads(resumed) == json.loads(plain)
    # Run once more: nothing left, the same summary again, and the note says what was kept.
    code, again, err = _sim("--matches", "14", "--out", out)
    assert code == 0 and "14 of 14 matches kept; nothing left to play" in err
    assert "14 quick matches, seed 4" in again


def test_sim_out_errors_are_one_line(tmp_path: Path) -> None:
    out = tmp_path / "b"
    assert _sim("--matches", "3", "--out", str(out), "--json")[0] == 0
    code, _, err = _sim("--matches", "3", "--out", str(out), "--bots", "random")
    assert code == 2 and err.startswith("error: ") and "another batch" in err
    assert len(err.strip().splitlines()) == 1
    a_file = tmp_path / "f.txt"
    a_file.write_text("x")
    code, _, err = _sim("--out", str(a_file))
    assert code == 2 and "is a file, not a folder" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--ray-address", "not an address"], "wants auto, HOST:PORT or ray://HOST:PORT"),
        (["--ray-address", "127.0.0.1:1"], "no Ray cluster answers at 127.0.0.1:1"),
        (["--ray-address", "auto", "--jobs", "2"], "--jobs sizes a local cluster"),
    ],
)
def test_sim_ray_address_errors_are_one_line(args: list[str], message: str) -> None:
    code, _, err = _sim("--matches", "2", *args)
    assert code == 2 and message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_no_temporary_part_is_left_after_a_batch(tmp_path: Path) -> None:
    _play(tmp_path, 12, jobs=2)
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]
