"""The body of `gladiator sim`: where a batch runs (local processes or Ray) and where it is kept
(nowhere, or a resumable Parquet folder). Every mistake is a `ValueError` with one line."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.progress import Progress

if TYPE_CHECKING:
    from gladiator.sim.resume import PlannedBatch
    from gladiator.sim.runner import MatchSummary

# Parquet, Ray and the runner are imported when a batch runs: `gladiator --help` stays quick.

__all__ = ["SimPlace", "play_sim"]

RAY_HELP = (
    "Run the batch on Ray: a local cluster of --jobs CPUs (default: every usable CPU). "
    "Results are the same as without it."
)
RAY_ADDRESS_HELP = (
    "Join an existing Ray cluster instead (implies --ray): auto, HOST:PORT or ray://HOST:PORT "
    "(Ray Client needs ray[client]). Every node must have gladiator installed, or start this "
    "command through `ray job submit --working-dir . -- gladiator sim ... --ray-address auto`."
)
DUPLICATE_HELP = (
    "Duplicate matches: each deal (the seed: both log sheets, styles and dice) played twice, "
    "the bots swapping seats, each bot scored by the pair (1 won both, 1/2 split, 0 lost "
    "both). With -o mirror=true (Colosseum) the sides are twins as well."
)
OUT_HELP = (
    "Keep the batch in this folder as Parquet parts, written as chunks finish; the same "
    "command again plays only the matches missing (a larger --matches extends the batch)."
)


@dataclass(frozen=True)
class SimPlace:
    """Where the batch runs and where it is kept, as the options gave it."""

    jobs: int | None = None
    ray: bool = False
    ray_address: str | None = None
    out: Path | None = None
    records: Path | None = None
    duplicate: bool = False  # each deal twice, the bots swapped (sim/duplicate.py)

    def check(self) -> None:
        if self.ray_address is not None:
            from gladiator.sim.ray_backend import check_address

            check_address(self.ray_address)
        if self.ray_address is not None and self.jobs is not None:
            raise ValueError("--jobs sizes a local cluster; a joined cluster has its own CPUs")
        if self.ray_address is not None and self.records is not None:
            raise ValueError("--records is written where a match is played: not with --ray-address")
        for name, path in (("--records", self.records), ("--out", self.out)):
            if path is not None and path.exists() and not path.is_dir():
                raise ValueError(f"{name} {path}: that is a file, not a folder")


def play_sim(
    ruleset: str,
    options: dict[str, Any],
    matches: int,
    seed: int,
    bots: Sequence[str],
    place: SimPlace,
    make_progress: Callable[[], Progress],
    note: Callable[[str], None],
) -> list[MatchSummary]:
    """Play the batch (or what is left of it) and return all of its matches, by index."""
    from gladiator.sim.machine import usable_cpus
    from gladiator.sim.runner import run_batch

    place.check()
    plan: PlannedBatch | None = None
    total, done = matches, 0
    if place.out is not None:
        from gladiator.sim.results_table import BatchMeta
        from gladiator.sim.resume import plan_batch

        meta = BatchMeta(ruleset, options, list(bots), seed, matches, duplicate=place.duplicate)
        plan = plan_batch(place.out, meta)
        total, done = plan.meta.matches, len(plan.done)
        if done:
            left = f"playing the {total - done} left" if total > done else "nothing left to play"
            note(f"{place.out}: {done} of {total} matches kept; {left}")
    with make_progress() as progress:
        task = progress.add_task(f"{ruleset} matches", total=total, completed=done)
        kwargs: dict[str, Any] = {
            "records": place.records,
            "on_progress": lambda k: progress.advance(task, k),
            "on_chunk": plan.write if plan is not None else None,
            "skip": plan.done if plan is not None else (),
            "duplicate": place.duplicate,
        }
        if place.ray or place.ray_address is not None:
            from gladiator.sim.ray_backend import ray_cluster, run_batch_ray

            cpus = place.jobs if place.jobs is not None else usable_cpus()
            with ray_cluster(place.ray_address, num_cpus=cpus) as session:
                results = run_batch_ray(
                    ruleset, options, total, seed, bots, workers=session.cpus, **kwargs
                )
        else:
            jobs = place.jobs or 1
            results = run_batch(ruleset, options, total, seed, bots, jobs=jobs, **kwargs)
    return plan.results() if plan is not None else results
