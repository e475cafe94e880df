"""Garbage-collector settings for simulation and benchmark processes.

A batch allocates many short-lived containers per decision (orders, option lists, plot
candidates) but frees nearly all of them by reference counting, so CPython's default gen-0
threshold (700 allocations) runs the cyclic collector thousands of times a second for almost
nothing, and every full collection walks the loaded tables and caches again. Raising the
threshold and freezing what exists after imports and warm-up removes that work. It cannot change a
result: the collector only decides when unreachable cycles are freed, never what the engine
computes. Frozen objects are also left alone by collections in forked workers, which then do not
write to (and so copy) the parent's pages.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["GEN0", "gc_settings", "tune_worker", "tuned_gc"]

# Measured with `gladiator bench --gc default|tuned`, whose `gc_seconds` times the collections
# themselves: a Colosseum tactician run spent ~14% of its time collecting by default (a full
# pass over the loaded tables and caches costs ~80 ms here), ~1.5% tuned; the quick rules ~1%,
# then none. Higher thresholds gained nothing more measurable and let each young pass grow.
GEN0 = 50_000


def gc_settings() -> dict[str, Any]:
    """The collector's settings now, for a benchmark's JSON."""
    return {
        "enabled": gc.isenabled(),
        "threshold": list(gc.get_threshold()),
        "frozen_objects": gc.get_freeze_count(),
    }


def _tune(gen0: int) -> None:
    # Collect first, so that start-up garbage is freed rather than frozen for good.
    gc.collect()
    gc.freeze()
    _, gen1, gen2 = gc.get_threshold()
    gc.set_threshold(gen0, gen1, gen2)


@contextmanager
def tuned_gc(gen0: int = GEN0, *, enabled: bool = True) -> Iterator[dict[str, Any]]:
    """Within the block, the tuned collector (or, with `enabled=False`, the default one, so that
    a benchmark can show the difference). Yields the settings; restores the old ones after."""
    before = gc.get_threshold()
    # Objects someone froze before us stay frozen: unfreezing cannot tell theirs from ours.
    ours = enabled and gc.get_freeze_count() == 0
    if enabled:
        _tune(gen0)
    try:
        yield gc_settings()
    finally:
        if enabled:
            gc.set_threshold(*before)
            if ours:
                gc.unfreeze()


def tune_worker(gen0: int = GEN0) -> None:
    """Pool initializer: a worker process keeps the tuned collector for its whole life. (A forked
    worker inherits the parent's settings anyway; a spawned one needs this.)"""
    _tune(gen0)
