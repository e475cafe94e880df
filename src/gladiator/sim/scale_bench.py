"""The scaling benchmark: one batch played with 1, 2, ... workers, on Ray or local processes.

For each worker count the batch's own wall time is measured apart from what comes before it:
starting the Ray cluster (`cluster_start_seconds`) and starting its workers with the ruleset
loaded (`warmup_seconds`), costs a long-lived cluster pays once, not per batch. The speedup is
batch seconds with the fewest workers over batch seconds with each count. Every run's results
are digested (every field of every match, in index order): the digests must all be equal, and
`identical_results` says whether they are. The load average before and after each run tells how
much else the machine was doing; a speedup measured on a busy machine says little.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from gladiator.sim.machine import load_average, machine
from gladiator.sim.runner import MatchSummary, default_bots, run_batch

__all__ = ["BACKENDS", "SCHEMA_VERSION", "TARGET", "results_digest", "run_scale"]

SCHEMA_VERSION = 1
BACKENDS = ("ray", "local")
# The aim of issue #15: Ray with 2 workers at least 1.8 times as fast as with one.
TARGET = {"workers": 2, "speedup": 1.8, "matches": 10_000, "ruleset": "quick"}


def results_digest(results: Sequence[MatchSummary]) -> str:
    """SHA-256 over every field of every match, in index order."""
    h = hashlib.sha256()
    for s in sorted(results, key=lambda s: s.index):
        row = [s.index, s.seed, list(s.winners), s.method, s.labels, s.steps, s.rounds, s.dice]
        h.update(json.dumps([*row, s.facets], sort_keys=True).encode())
        h.update(b"\n")
    return h.hexdigest()


def run_scale(
    ruleset: str,
    matches: int,
    workers: Sequence[int],
    *,
    seed: int = 1,
    bots: Sequence[str] | None = None,
    backend: str = "ray",
    on_run: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    counts = sorted(set(workers))
    if not counts or counts[0] < 1:
        raise ValueError("worker counts must be whole numbers of at least 1")
    bot_names = list(bots) if bots else default_bots(ruleset)
    started = datetime.now(UTC).isoformat(timespec="seconds")
    runs = []
    for w in counts:
        if on_run:
            on_run(w)
        play = _ray_run if backend == "ray" else _local_run
        runs.append({"workers": w, **play(ruleset, matches, seed, bot_names, w)})
    base = runs[0]["batch_seconds"]
    for r in runs:
        r["speedup"] = round(base / r["batch_seconds"], 3) if r["batch_seconds"] else None
    digests = {r["digest"] for r in runs}
    return {
        "schema": "gladiator.bench.scale",
        "schema_version": SCHEMA_VERSION,
        "created": started,
        "ruleset": ruleset,
        "matches": matches,
        "seed": seed,
        "bots": bot_names,
        "backend": backend,
        "speedup_against_workers": counts[0],
        "identical_results": len(digests) == 1,
        "digest": digests.pop() if len(digests) == 1 else None,
        "runs": runs,
        "target": TARGET,
        "machine": machine(),
        "method": (
            "wall seconds of the batch alone (perf_counter around the runner), after the "
            "cluster and its workers are started; speedup = batch seconds with the fewest "
            "workers / batch seconds with this many"
        ),
    }


def _timed(
    play: Callable[[], list[MatchSummary]], matches: int
) -> tuple[dict[str, Any], list[MatchSummary]]:
    load_before = load_average()
    began = time.perf_counter()
    results = play()
    seconds = time.perf_counter() - began
    return {
        "batch_seconds": round(seconds, 3),
        "matches_per_second": round(matches / seconds, 2) if seconds else None,
        "load_average_before": load_before,
        "load_average_after": load_average(),
    }, results


def _local_run(ruleset: str, matches: int, seed: int, bots: list[str], w: int) -> dict[str, Any]:
    row, results = _timed(lambda: run_batch(ruleset, {}, matches, seed, bots, jobs=w), matches)
    return {"cluster_start_seconds": None, "warmup_seconds": None, **row, **_check(results)}


def _ray_run(ruleset: str, matches: int, seed: int, bots: list[str], w: int) -> dict[str, Any]:
    from gladiator.sim.ray_backend import ray_cluster, ray_running, run_batch_ray, warm_workers

    if ray_running():
        raise ValueError("Ray already runs in this process; the benchmark starts its own clusters")
    with ray_cluster(None, num_cpus=w) as session:
        began = time.perf_counter()
        warmed = warm_workers(ruleset, w)
        warmup = time.perf_counter() - began
        row, results = _timed(
            lambda: run_batch_ray(ruleset, {}, matches, seed, bots, workers=w), matches
        )
    return {
        "cluster_start_seconds": round(session.start_seconds, 3),
        "warmup_seconds": round(warmup, 3),
        "workers_warmed": warmed,
        **row,
        **_check(results),
    }


def _check(results: list[MatchSummary]) -> dict[str, Any]:
    return {"digest": results_digest(results), "matches_played": len(results)}
