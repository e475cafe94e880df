"""The plots the tactician can read: each offered plot's geometry from the origin (where it ends,
what it enters, whether it moves, the posture after it), cached, and the texts it cannot read
(plot codes it has no model of: they get the generic fallback)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from gladiator.core.hexgrid import Hex
from gladiator.rules.colosseum.plots.plot_legality import posture_after
from gladiator.rules.colosseum.plots.plots import (
    Kick,
    PhasePlot,
    PlotError,
    Throw,
    parse_plot,
    path,
    uses_movement_phase,
)

__all__ = ["PlotShape", "plot_info", "readable_plots"]


@dataclass(frozen=True, slots=True)
class PlotShape:
    text: str
    end: Hex  # offset from the start hex
    facing: int
    entered: frozenset[Hex]  # offsets of the hexes entered on the way (the end included)
    moves: bool  # uses a movement phase (§5.2.1, R6)
    plot: PhasePlot
    after: dict[str, str]  # his posture once it is done, by posture before (§14.1, R11)
    track: tuple[Hex, ...]  # the hexes passed through in order, the start first (W3)


# The T39 actions (§7.4) and the extras (§13.3, §13.5) it has a model of; a plot with any other
# (§20's net attacks, §22's specials, written after it) is one it cannot read.
_KNOWN_ACTIONS = frozenset({"F", "B", "SFL", "SFR", "SBL", "SBR", "C", "KN", "R", "RO", "S", "X"})


@lru_cache(maxsize=16384)
def plot_info(text: str, facing: int) -> PlotShape:
    """A plot's geometry from the origin in this facing (paths are the same from every hex)."""
    plot = parse_plot(text)
    if any(a.split("-")[0] not in _KNOWN_ACTIONS for a in plot.actions) or not (
        plot.extra is None or isinstance(plot.extra, Kick | Throw)
    ):
        raise ValueError(f"a plot it has no model of: {text}")
    poses = path(plot, Hex(0, 0), facing)
    return PlotShape(
        text,
        poses[-1].hex,
        poses[-1].facing,
        frozenset(p.hex for p in poses[1:] if p.hex != Hex(0, 0)),
        uses_movement_phase(plot),
        plot,
        {before: posture_after(plot, before) for before in ("standing", "kneeling", "prone")},
        tuple(dict.fromkeys(p.hex for p in poses)),
    )


@lru_cache(maxsize=256)
def readable_plots(
    texts: tuple[str, ...], facing: int
) -> tuple[tuple[PlotShape, ...], tuple[str, ...]]:
    """The plots it can read, and the texts of those it cannot (plot codes added to the rules
    after it was written: they get the generic fallback)."""
    known: list[PlotShape] = []
    unknown: list[str] = []
    for text in texts:
        try:
            known.append(plot_info(text, facing))
        except (PlotError, ValueError, KeyError):
            unknown.append(text)
    return tuple(known), tuple(unknown)
