"""The balance report's figures, drawn with matplotlib from the report's numbers alone.

Figures are `matplotlib.figure.Figure` objects, not pyplot's: no GUI backend, no global figure
list, nothing left behind between reports. SVG comes out byte-for-byte the same for the same
numbers (a fixed hash salt per figure, no date, text kept as text).
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import Any

import matplotlib
from matplotlib.cm import ScalarMappable
from matplotlib.colors import Normalize
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

__all__ = ["CMAP", "Plot", "figures", "svg_of"]

# ColorBrewer's RdBu: diverging and safe for the common colour blindnesses; 0.5 is its white
# middle, so an even matchup is pale and a lopsided one deep red (row loses) or blue (row wins).
CMAP = "RdBu"
SPARSE = "#bdbdbd"  # BR2: too few matches to colour
MIRROR = "#8c8c8c"  # BR1: a mirror match; no win rate of its own
_NORM = Normalize(vmin=0.0, vmax=1.0)


@dataclass(frozen=True)
class Plot:
    key: str  # a file-name-safe name, also the SVG's hash salt
    title: str
    figure: Figure


def _cell_text(c: dict[str, Any]) -> str:
    if c["mirror"]:
        return f"mirror\nn={c['matches']}"
    if not c["matches"]:
        return ""
    lo, hi = c["ci95"]
    return f"{c['win_rate']:.2f}\n{lo:.2f}–{hi:.2f}\nn={c['matches']}"


def _heatmap(facet: dict[str, Any], min_cell: int) -> Plot | None:
    m = facet["matchups"]
    values: list[str] = m["values"]
    if len(values) < 2:
        return None
    k = len(values)
    size = max(4.0, 0.85 * k + 2.0)
    fig = Figure(figsize=(size + 1.2, size))
    ax = fig.add_subplot()
    cmap = matplotlib.colormaps[CMAP]
    cells = {(c["row"], c["col"]): c for c in m["cells"]}
    font = 7 if k <= 8 else 5.5
    for i, row in enumerate(values):
        for j, col in enumerate(values):
            c = cells[(row, col)]
            if c["mirror"]:
                colour: Any = MIRROR
            elif c["sparse"]:
                colour = SPARSE
            else:
                colour = cmap(_NORM(c["win_rate"]))
            ax.add_patch(Rectangle((j, i), 1, 1, color=colour, lw=0))
            dark = not c["mirror"] and not c["sparse"] and abs(c["win_rate"] - 0.5) > 0.3
            ax.text(
                j + 0.5,
                i + 0.5,
                _cell_text(c),
                ha="center",
                va="center",
                fontsize=font,
                color="white" if dark or c["mirror"] else "black",
            )
    ax.set_xlim(0, k)
    ax.set_ylim(k, 0)
    ticks = [t + 0.5 for t in range(k)]
    ax.set_xticks(ticks, values, rotation=45, ha="right", fontsize=8)
    ax.set_yticks(ticks, values, fontsize=8)
    ax.set_xlabel(f"opponent's {facet['name']}")
    ax.set_ylabel(f"{facet['name']} (row wins this share)")
    ax.set_aspect("equal")
    mappable = ScalarMappable(norm=_NORM, cmap=cmap)
    fig.colorbar(mappable, ax=ax, fraction=0.04, label="row's win rate")
    ax.set_title(
        f"Win rate by {facet['name']} matchup (grey: under {min_cell} matches; dark grey: mirror)",
        fontsize=9,
    )
    fig.tight_layout()
    return Plot(f"heatmap-{facet['name']}", f"Matchups by {facet['name']}", fig)


def _forest(facet: dict[str, Any]) -> Plot:
    rows = facet["overall"]
    k = len(rows)
    fig = Figure(figsize=(7.0, max(2.0, 0.35 * k + 1.2)))
    ax = fig.add_subplot()
    ys = list(range(k))
    rates = [r["win_rate"] for r in rows]
    lows = [r["win_rate"] - r["ci95"][0] for r in rows]
    highs = [r["ci95"][1] - r["win_rate"] for r in rows]
    ax.errorbar(rates, ys, xerr=[lows, highs], fmt="o", color="#2166ac", capsize=3, label="win")
    ax.plot([r["draw_rate"] for r in rows], ys, "x", color="#b2182b", label="draw")
    ax.axvline(0.5, color="#444444", lw=0.8, ls="--")
    ax.set_yticks(ys, [f"{r['value']} (n={r['matches']})" for r in rows], fontsize=8)
    ax.set_ylim(k - 0.5, -0.5)
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of his matches (95% Wilson interval); mirror matches left out")
    ax.legend(fontsize=7, loc="lower right")
    ax.set_title(f"Win rate by {facet['name']}", fontsize=9)
    fig.tight_layout()
    return Plot(f"winrate-{facet['name']}", f"Win rate by {facet['name']}", fig)


def _bars(ax: Any, hist: list[list[int]], colour: str, label: str) -> None:
    if hist:
        ax.bar(
            [lo for lo, _, _ in hist],
            [c for _, _, c in hist],
            width=[hi - lo for lo, hi, _ in hist],
            align="edge",
            color=colour,
            edgecolor="white",
            lw=0.5,
        )
    ax.set_xlabel(label)
    ax.set_ylabel("matches")


def _lengths(report: dict[str, Any]) -> Plot:
    ln = report["lengths"]
    fig = Figure(figsize=(9.0, 3.2))
    a, b = fig.subplots(1, 2)
    _bars(a, ln["rounds_histogram"], "#4393c3", "rounds (turns)")
    a.set_title(f"Rounds: mean {ln['rounds']['mean']:.2f}", fontsize=9)
    _bars(b, ln["decisions_histogram"], "#92c5de", "decisions (steps)")
    b.set_title(f"Decisions: mean {ln['decisions']['mean']:.1f}", fontsize=9)
    fig.tight_layout()
    return Plot("lengths", "Match length", fig)


def _lengths_by(facet: dict[str, Any]) -> Plot:
    rows = facet["lengths"]
    k = len(rows)
    fig = Figure(figsize=(7.0, max(2.0, 0.35 * k + 1.2)))
    ax = fig.add_subplot()
    for y, r in enumerate(rows):
        q = r["rounds"]
        ax.plot([q["p10"], q["p90"]], [y, y], color="#92c5de", lw=1.5)
        ax.plot([q["p25"], q["p75"]], [y, y], color="#2166ac", lw=5, solid_capstyle="butt")
        ax.plot([q["median"]], [y], "|", color="black", ms=10)
        ax.plot([q["mean"]], [y], "D", color="#b2182b", ms=4)
    ax.set_yticks(range(k), [f"{r['value']} (n={r['matches']})" for r in rows], fontsize=8)
    ax.set_ylim(k - 0.5, -0.5)
    ax.set_xlabel("rounds: 10-90% (thin), 25-75% (thick), median (|), mean (◆)")
    ax.set_title(f"Match length by {facet['name']}", fontsize=9)
    fig.tight_layout()
    return Plot(f"lengths-{facet['name']}", f"Match length by {facet['name']}", fig)


def _method_colours(methods: list[str]) -> dict[str, Any]:
    cmap = matplotlib.colormaps["tab10"]  # distinct hues, in the endings' fixed order
    return {m: cmap(i % 10) for i, m in enumerate(methods)}


def _endings(report: dict[str, Any]) -> Plot:
    rows = report["endings"]
    colours = _method_colours([r["method"] for r in rows])
    fig = Figure(figsize=(6.0, max(2.0, 0.4 * len(rows) + 1.0)))
    ax = fig.add_subplot()
    ys = list(range(len(rows)))
    ax.barh(ys, [r["share"] for r in rows], color=[colours[r["method"]] for r in rows])
    for y, r in zip(ys, rows, strict=True):
        ax.text(r["share"] + 0.01, y, f"{r['share']:.1%} ({r['matches']})", va="center", fontsize=7)
    ax.set_yticks(ys, [r["method"] for r in rows], fontsize=8)
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlim(0, 1.15)
    ax.set_xlabel("share of matches")
    ax.set_title("How matches ended", fontsize=9)
    fig.tight_layout()
    return Plot("endings", "Endings", fig)


def _endings_by(facet: dict[str, Any], methods: list[str]) -> Plot:
    rows = facet["endings"]
    colours = _method_colours(methods)
    k = len(rows)
    fig = Figure(figsize=(7.5, max(2.0, 0.35 * k + 1.4)))
    ax = fig.add_subplot()
    left = [0.0] * k
    for m in methods:
        shares = [r["shares"][m] for r in rows]
        ax.barh(range(k), shares, left=left, color=colours[m], label=m)
        left = [a + b for a, b in zip(left, shares, strict=True)]
    ax.set_yticks(range(k), [f"{r['value']} (n={r['matches']})" for r in rows], fontsize=8)
    ax.set_ylim(k - 0.5, -0.5)
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of the matches he took part in")
    ax.legend(
        fontsize=7, ncols=min(len(methods), 5), loc="upper center", bbox_to_anchor=(0.5, -0.25)
    )
    ax.set_title(f"Endings by {facet['name']}", fontsize=9)
    fig.tight_layout()
    return Plot(f"endings-{facet['name']}", f"Endings by {facet['name']}", fig)


def _seats(report: dict[str, Any]) -> Plot:
    rows = report["seats"]
    fig = Figure(figsize=(6.0, max(2.0, 0.5 * len(rows) + 1.2)))
    ax = fig.add_subplot()
    for offset, rate, ci, colour, label in (
        (-0.12, "win_rate", "ci95", "#2166ac", "all matches"),
        (0.12, "decisive_win_rate", "decisive_ci95", "#b2182b", "decisive matches only"),
    ):
        ys = [i + offset for i in range(len(rows))]
        xs = [r[rate] for r in rows]
        err = [[r[rate] - r[ci][0] for r in rows], [r[ci][1] - r[rate] for r in rows]]
        ax.errorbar(xs, ys, xerr=err, fmt="o", capsize=3, color=colour, label=label)
    ax.axvline(0.5, color="#444444", lw=0.8, ls="--")
    ax.set_yticks(range(len(rows)), [f"seat {r['position']}" for r in rows], fontsize=8)
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate (95% Wilson interval)")
    ax.legend(fontsize=7, loc="lower right")
    ax.set_title("Seat advantage (seat 1: the first seat the ruleset lists)", fontsize=9)
    fig.tight_layout()
    return Plot("seats", "Seat advantage", fig)


def figures(report: dict[str, Any]) -> list[Plot]:
    """Every figure of the report, in the order the report shows them."""
    methods = [e["method"] for e in report["endings"]]
    out = [_seats(report), _lengths(report), _endings(report)]
    for facet in report["facets"]:
        heat = _heatmap(facet, report["min_cell"])
        out.extend([p for p in (heat,) if p is not None])
        out.append(_forest(facet))
        out.append(_lengths_by(facet))
        out.append(_endings_by(facet, methods))
    return out


# No date (the same bytes each time) and no creator line (it carries matplotlib's web address).
_NO_METADATA = {"Date": None, "Creator": None, "Format": None, "Type": None}
_PROLOG = re.compile(r"\A.*?(?=<svg)", re.S)
_XMLNS = re.compile(r'\s+xmlns(:\w+)?="[^"]*"')


def svg_of(plot: Plot) -> str:
    """The figure as an `<svg>` element to inline in HTML: no XML prolog, no namespace URLs
    (HTML's parser supplies them), the same bytes for the same figure."""
    buf = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": plot.key, "svg.fonttype": "none"}):
        plot.figure.savefig(buf, format="svg", metadata=_NO_METADATA)
    text = _PROLOG.sub("", buf.getvalue(), count=1)
    head, _, body = text.partition(">")
    return _XMLNS.sub("", head) + ">" + body
