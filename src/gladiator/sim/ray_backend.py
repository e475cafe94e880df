"""Batches on Ray: a local cluster started for the batch, or an existing cluster joined.

The work is what `run_batch` does over local processes: the same guided chunks
(`runner.chunk_indices`), each played by `runner._chunk`, match i seeded by `derive_seed(seed, i)`,
so a batch gives the same summaries on Ray as on one core. Only the transport differs: a chunk is
one Ray task (tens of matches, so the per-task cost is paid rarely), a worker loads the ruleset and
tunes its collector once for its life, and a chunk comes back as plain tuples, which pickle far
smaller than dataclasses.

Joining an existing cluster needs `gladiator` importable on every node: install it there, or
start the driver with a runtime environment that ships it (`ray job submit --working-dir .`, or
`runtime_env=` here).
"""

from __future__ import annotations

import logging
import os
import re
import socket
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gladiator.registry import get
from gladiator.sim.gctune import tune_worker
from gladiator.sim.runner import MatchSummary, _chunk, chunk_indices, todo_indices

__all__ = [
    "RaySession",
    "RayUnavailable",
    "check_address",
    "ray_cluster",
    "ray_running",
    "run_batch_ray",
    "warm_workers",
]

# "auto" (the cluster this machine belongs to), HOST:PORT (a head's GCS) or ray://HOST:PORT
# (Ray Client, which needs `ray[client]`).
_ADDRESS = re.compile(
    r"^(?:auto|(?:ray://)?(?P<host>[A-Za-z0-9._\-]+|\[[0-9A-Fa-f:]+\]):(?P<port>\d{1,5}))$"
)
# How long to wait for a TCP answer before calling an address unreachable. Ray itself retries
# a silent GCS address for minutes.
_PROBE_SECONDS = 3.0


class RayUnavailable(ValueError):
    """No Ray cluster to run on: a malformed address, nothing listening, or Ray refusing."""


@dataclass(frozen=True)
class RaySession:
    address: str | None  # None: a local cluster started here
    started: bool  # this process started the cluster (and shuts it down)
    cpus: int  # CPUs the cluster offers: how many chunks run at once
    start_seconds: float  # starting or joining it


def check_address(address: str) -> None:
    """Refuse a malformed or silent address at once, in one line."""
    m = _ADDRESS.match(address.strip())
    if m is None:
        raise RayUnavailable(
            f"--ray-address wants auto, HOST:PORT or ray://HOST:PORT, not {address!r}"
        )
    host, port = m.group("host"), m.group("port")
    if host is None:
        return
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=_PROBE_SECONDS):
            pass
    except (OSError, ValueError) as exc:
        raise RayUnavailable(f"no Ray cluster answers at {address}: {exc}") from None


def _quiet_environment() -> None:
    # Before Ray is imported: a local cluster needs no token, and reports no usage anywhere.
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")


def ray_running() -> bool:
    """Whether this process is connected to Ray already."""
    _quiet_environment()
    import ray

    return bool(ray.is_initialized())


@contextmanager
def ray_cluster(
    address: str | None = None,
    *,
    num_cpus: int | None = None,
    runtime_env: Mapping[str, Any] | None = None,
) -> Iterator[RaySession]:
    """Ray for the block: a local cluster of `num_cpus` (None: every usable CPU), or the existing
    cluster at `address`. If this process has Ray running already, that is used and left running."""
    if address is not None:
        check_address(address)  # before importing Ray, which takes seconds
    _quiet_environment()
    import ray

    if ray.is_initialized():
        yield RaySession(None, False, _cluster_cpus(ray), 0.0)
        return
    began = time.perf_counter()
    common: dict[str, Any] = {
        "logging_level": logging.ERROR,
        "log_to_driver": False,
        "runtime_env": dict(runtime_env) if runtime_env else None,
    }
    # A new node's raylet waits a fixed 15 s for its Python agents to start (ray issue #65983),
    # which a machine busy with other work can miss: a local start is tried twice.
    for attempt in (1, 2):
        try:
            if address is None:
                ray.init(num_cpus=num_cpus, include_dashboard=False, **common)
            else:
                ray.init(address=address.strip(), **common)
            break
        except Exception as exc:  # Ray raises ConnectionError, ValueError, RuntimeError...
            ray.shutdown()  # whatever half-started processes it left
            if address is None and attempt == 1 and "timed out" in str(exc):
                continue
            where = "start a local Ray cluster" if address is None else f"join Ray at {address}"
            hint = (
                " (a busy machine: Ray's agents missed its start-up limit)"
                if address is None and "timed out" in str(exc)
                else ""
            )
            raise RayUnavailable(f"cannot {where}: {_first_line(exc)}{hint}") from None
    try:
        yield RaySession(address, True, _cluster_cpus(ray), time.perf_counter() - began)
    finally:
        ray.shutdown()


def _cluster_cpus(ray: Any) -> int:
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


# A chunk's summaries as plain tuples: (index, seed, winners, method, labels, steps, rounds,
# dice, facets), labels as (seat, label) pairs in seat order.
Packed = tuple[int, int, tuple[str, ...], str, tuple[tuple[str, str], ...], int, int, int, Any]


def _pack(s: MatchSummary) -> Packed:
    labels = tuple(s.labels.items())
    return (s.index, s.seed, s.winners, s.method, labels, s.steps, s.rounds, s.dice, s.facets)


def _unpack(t: Packed) -> MatchSummary:
    index, seed, winners, method, labels, steps, rounds, dice, facets = t
    return MatchSummary(
        index=index,
        seed=seed,
        winners=tuple(winners),
        method=method,
        labels=dict(labels),
        steps=steps,
        rounds=rounds,
        dice=dice,
        facets=facets,
    )


_READY: set[str] = set()  # rulesets this worker process has loaded


def _ready(ruleset_name: str) -> None:
    """Once per worker and ruleset: load its tables, then freeze them out of the collector."""
    if ruleset_name not in _READY:
        get(ruleset_name)
        tune_worker()
        _READY.add(ruleset_name)


def _play_chunk(
    ruleset_name: str,
    options: Mapping[str, Any],
    seed: int,
    bots: Sequence[str],
    indices: Sequence[int],
    records: str | None,
    duplicate: bool = False,
) -> list[Packed]:
    _ready(ruleset_name)
    played = _chunk(ruleset_name, options, seed, bots, indices, records, duplicate)
    return [_pack(s) for s in played]


def _warm(ruleset_name: str, hold: float) -> int:
    _ready(ruleset_name)
    time.sleep(hold)  # keep this worker busy so that the next warm task starts another
    return os.getpid()


_REMOTE: dict[str, Any] = {}


def _remote(name: str) -> Any:
    """The Ray task for `_play_chunk` / `_warm`, made once (Ray is imported only when used)."""
    if name not in _REMOTE:
        import ray

        fn: Any = {"play": _play_chunk, "warm": _warm}[name]
        _REMOTE[name] = ray.remote(num_cpus=1, max_retries=0)(fn)
    return _REMOTE[name]


def warm_workers(ruleset_name: str, workers: int, hold: float = 0.5) -> int:
    """Start `workers` worker processes with the ruleset loaded, before anything is timed.
    Returns how many distinct processes answered."""
    import ray

    task = _remote("warm")
    return len(set(ray.get([task.remote(ruleset_name, hold) for _ in range(workers)])))


def run_batch_ray(
    ruleset_name: str,
    options: Mapping[str, Any],
    matches: int,
    seed: int,
    bots: Sequence[str],
    *,
    workers: int,
    records: Path | None = None,
    on_progress: Callable[[int], None] | None = None,
    on_chunk: Callable[[list[MatchSummary]], None] | None = None,
    skip: Collection[int] = (),
    duplicate: bool = False,
) -> list[MatchSummary]:
    """`run_batch` on the Ray cluster this process is connected to (see `ray_cluster`):
    the same arguments and the same summaries; `workers` sizes the chunks as `jobs` does.
    Records, if kept, are written by the node that plays the match."""
    import ray

    get(ruleset_name).normalise_options(options)  # fail fast, here rather than on a node
    rec = None
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
        rec = str(records.resolve())
    task = _remote("play")
    opts, bot_list = dict(options), list(bots)
    chunks = chunk_indices(todo_indices(matches, skip), workers)
    pending = [
        task.remote(ruleset_name, opts, seed, bot_list, list(c), rec, duplicate) for c in chunks
    ]
    results: list[MatchSummary] = []
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                part = [_unpack(t) for t in ray.get(ref)]
                results.extend(part)
                if on_chunk:
                    on_chunk(part)
                if on_progress:
                    on_progress(len(part))
    finally:
        for ref in pending:  # an error or ^C here: drop the chunks not yet played
            ray.cancel(ref)
    results.sort(key=lambda s: s.index)
    return results
