"""A campaign over time: each lanista's stable, deaths, levels and money after every munus,
as a table (Rich) and as a plot (matplotlib, written to a PNG or SVG file).

The rows are plain dicts so a JSON summary, the table and the plot read the same numbers:
`munus`, `lanista`, `stable` (living gladiators he owns), `deaths` (his gladiators killed so
far), `level` (the mean XP his living men earned over their careers: the book has no levels,
rulings L16), `victories` (his men's victories so far) and `purse` (sesterces).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.table import Table

__all__ = ["SERIES", "plot_timeline", "timeline_table"]

# (row key, axis title) for each panel of the plot, in reading order.
SERIES: tuple[tuple[str, str], ...] = (
    ("stable", "living gladiators in the stable"),
    ("deaths", "gladiators killed (cumulative)"),
    ("level", "mean career XP of the living (level, L16)"),
    ("purse", "sesterces"),
)


def timeline_table(rows: Sequence[dict[str, Any]], *, every: int = 5) -> Table:
    """One line per lanista per `every`-th munus (and the last)."""
    table = Table(title="Campaign over time")
    for name in ("munus", "lanista", "stable", "deaths", "level", "victories", "purse"):
        table.add_column(name, justify="left" if name == "lanista" else "right")
    last = max((r["munus"] for r in rows), default=0)
    for r in rows:
        if r["munus"] % every and r["munus"] != last:
            continue
        table.add_row(
            str(r["munus"]),
            str(r["lanista"]),
            str(r["stable"]),
            str(r["deaths"]),
            f"{r['level']:.1f}",
            str(r["victories"]),
            f"{r['purse']:,}",
        )
    return table


def plot_timeline(rows: Sequence[dict[str, Any]], path: Path, *, title: str = "") -> None:
    """Four panels (stable, deaths, level, money), one line per lanista, munus on the x axis."""
    import matplotlib

    matplotlib.use("Agg")  # no display here, and no GUI toolkit wanted
    import matplotlib.pyplot as plt

    lanistas = sorted({str(r["lanista"]) for r in rows})
    fig, axes = plt.subplots(2, 2, figsize=(11, 7.5), sharex=True)
    for ax, (key, label) in zip(axes.flat, SERIES, strict=True):
        for name in lanistas:
            mine = sorted((r for r in rows if str(r["lanista"]) == name), key=lambda r: r["munus"])
            ax.plot([r["munus"] for r in mine], [r[key] for r in mine], label=name, linewidth=1.6)
        ax.set_title(label, fontsize=10)
        ax.grid(alpha=0.3)
    for ax in axes[1]:
        ax.set_xlabel("munus")
    axes[0][0].legend(fontsize=8, loc="best")
    fig.suptitle(title or "GLADIATOR Colosseum Campaign: four lanistas", fontsize=12)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
