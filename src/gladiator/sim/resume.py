"""A batch kept in a folder (`sim.results_table`): start it, or pick up what is left of it.

The runners know nothing of files: they skip the indices a folder has already and hand each
finished chunk to `PlannedBatch.write`, which makes it one atomic part. A batch killed at any
moment so loses only the chunks in flight, and the same command run again plays the rest.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gladiator.sim.results_table import (
    BatchMeta,
    done_indices,
    open_batch,
    read_results,
    write_part,
)
from gladiator.sim.runner import MatchSummary

__all__ = ["PlannedBatch", "plan_batch"]


@dataclass(frozen=True)
class PlannedBatch:
    folder: Path
    meta: BatchMeta  # as kept in the folder: `matches` is the larger of asked and kept
    done: frozenset[int]  # indices below meta.matches found in the folder

    @property
    def remaining(self) -> int:
        return self.meta.matches - len(self.done)

    def write(self, part: list[MatchSummary]) -> None:
        if part:
            write_part(self.folder, part, self.meta)

    def results(self) -> list[MatchSummary]:
        """The whole batch as read back from the folder, by index."""
        _, results = read_results(self.folder)
        return [s for s in results if s.index < self.meta.matches]


def plan_batch(folder: Path, meta: BatchMeta) -> PlannedBatch:
    """Open (or create) the batch in `folder` and find what is left to play. A folder of another
    batch raises `BatchMismatch`; asking for more matches than kept extends the batch, asking
    for fewer completes it at the size kept (a batch never shrinks)."""
    kept = open_batch(folder, meta)
    done = frozenset(i for i in done_indices(folder) if i < kept.matches)
    return PlannedBatch(folder, kept, done)
