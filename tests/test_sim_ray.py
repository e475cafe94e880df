"""Batches on Ray (sim.ray_backend): the same summaries as local processes, match for match, a
resumed Parquet batch, and the command's `--ray`. One local Ray cluster (2 CPUs) serves the
whole module: starting one takes seconds."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gladiator.cli.main import app
from gladiator.sim.ray_backend import RaySession, ray_cluster, run_batch_ray
from gladiator.sim.results_table import BatchMeta, done_indices
from gladiator.sim.resume import plan_batch
from gladiator.sim.runner import MatchSummary, run_batch
from gladiator.sim.scale_bench import results_digest, run_scale

BOTS = ["random", "greedy"]


@pytest.fixture(scope="module")
def cluster() -> Iterator[RaySession]:
    with ray_cluster(num_cpus=2) as session:
        yield session


def test_ray_batch_is_the_local_batch_match_for_match(cluster: RaySession) -> None:
    assert cluster.started and cluster.cpus == 2
    chunks: list[int] = []
    moved: list[int] = []
    on_ray = run_batch_ray(
        "quick",
        {},
        30,
        9,
        BOTS,
        workers=cluster.cpus,
        on_chunk=lambda part: chunks.append(len(part)),
        on_progress=moved.append,
    )
    local = run_batch("quick", {}, 30, 9, BOTS, jobs=1)
    assert on_ray == local  # every field of every match, in index order
    assert len(chunks) > 1 and sum(chunks) == sum(moved) == 30


def test_ray_plays_only_the_matches_not_skipped(cluster: RaySession) -> None:
    part = run_batch_ray("quick", {}, 12, 9, BOTS, workers=2, skip={0, 3, 4, 11})
    assert [s.index for s in part] == [1, 2, 5, 6, 7, 8, 9, 10]
    local = {s.index: s for s in run_batch("quick", {}, 12, 9, BOTS)}
    assert part == [local[s.index] for s in part]


class Stop(Exception):
    pass


def test_a_ray_batch_stopped_midway_resumes_to_the_uninterrupted_results(
    cluster: RaySession, tmp_path: Path
) -> None:
    meta = BatchMeta("quick", {}, BOTS, 9, 40)
    plan = plan_batch(tmp_path, meta)
    parts = 0

    def write(part: list[MatchSummary]) -> None:
        nonlocal parts
        plan.write(part)
        parts += 1
        if parts == 2:
            raise Stop

    with pytest.raises(Stop):
        run_batch_ray("quick", {}, 40, 9, BOTS, workers=2, on_chunk=write)
    kept = done_indices(tmp_path)
    assert 0 < len(kept) < 40
    plan = plan_batch(tmp_path, meta)
    run_batch_ray("quick", {}, 40, 9, BOTS, workers=2, on_chunk=plan.write, skip=plan.done)
    assert plan.results() == run_batch("quick", {}, 40, 9, BOTS)


def test_sim_ray_prints_what_local_sim_prints(cluster: RaySession, tmp_path: Path) -> None:
    """`--ray` on the cluster this process has (it is not shut down), with --out: the JSON of a
    local run, and the parts kept."""
    runner = CliRunner()
    args = ["sim", "quick", "--matches", "16", "--seed", "2", "--bots", "greedy", "--json"]
    local = runner.invoke(app, args)
    out = tmp_path / "b"
    ray = runner.invoke(app, [*args, "--ray", "--out", str(out)])
    assert local.exit_code == ray.exit_code == 0, ray.output
    assert json.loads(ray.stdout) == json.loads(local.stdout)
    assert done_indices(out) == set(range(16))


def test_scale_bench_refuses_to_start_clusters_inside_a_ray_process(cluster: RaySession) -> None:
    with pytest.raises(ValueError, match="Ray already runs"):
        run_scale("quick", 4, [1], backend="ray")


def test_scale_bench_locally_gives_one_digest_for_every_worker_count() -> None:
    result = run_scale("quick", 12, [2, 1], seed=3, bots=["random"], backend="local")
    assert [r["workers"] for r in result["runs"]] == [1, 2]
    assert result["identical_results"] is True
    assert result["digest"] == results_digest(run_batch("quick", {}, 12, 3, ["random"]))
    assert result["runs"][0]["speedup"] == 1.0
    assert result["machine"]["cpus_usable"] >= 1
    # A digest sees every field: one match changed, another digest.
    other = run_batch("quick", {}, 12, 4, ["random"])
    assert results_digest(other) != result["digest"]
