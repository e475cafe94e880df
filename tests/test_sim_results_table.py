"""Batch results kept as Parquet (sim.results_table): a round trip loses nothing, parts of a
resumed batch are found again, and a folder holding another batch is refused."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest

from gladiator.sim.results_table import (
    BatchMeta,
    BatchMismatch,
    done_indices,
    open_batch,
    read_results,
    to_table,
    write_part,
)
from gladiator.sim.runner import run_batch


def _meta(matches: int = 6, seed: int = 3) -> BatchMeta:
    return BatchMeta(ruleset="quick", options={}, bots=["random"], seed=seed, matches=matches)


def test_round_trip_keeps_every_field(tmp_path: Path) -> None:
    results = run_batch("quick", {}, 6, 3, ["random"])
    path = tmp_path / "r.parquet"
    pq.write_table(to_table(results, _meta()), path)
    meta, back = read_results(path)
    assert meta is not None and meta.same_batch(_meta())
    assert back == results
    assert all(s.facets for s in back)  # each seat's facets kept


def test_parts_resume_and_overlap(tmp_path: Path) -> None:
    results = run_batch("quick", {}, 6, 3, ["random"])
    open_batch(tmp_path, _meta())
    write_part(tmp_path, results[:4], _meta())
    assert done_indices(tmp_path) == {0, 1, 2, 3}
    write_part(tmp_path, results[3:], _meta())  # match 3 written twice: read once
    meta, back = read_results(tmp_path)
    assert meta is not None and back == results
    assert not list(tmp_path.glob(".*.tmp"))


def test_a_folder_of_another_batch_is_refused(tmp_path: Path) -> None:
    open_batch(tmp_path, _meta(seed=3))
    with pytest.raises(BatchMismatch, match="another batch"):
        open_batch(tmp_path, _meta(seed=4))


def test_unreadable_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.parquet"
    bad.write_text("not parquet")
    with pytest.raises(ValueError, match="cannot read results"):
        read_results(bad)
