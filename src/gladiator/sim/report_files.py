"""Writing a balance report's files: report.json (the numbers), report.html (self-contained) and
report.pdf (matplotlib's PdfPages: a page of description, then one page per figure)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure

from gladiator.sim.report_html import render_html
from gladiator.sim.report_plots import Plot, figures, svg_of

__all__ = ["report_json", "write_report"]


def report_json(report: dict[str, Any]) -> str:
    return json.dumps(report, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def _cover(report: dict[str, Any], generated: str) -> Figure:
    b = report["batch"]
    lines = [
        f"Balance report: {b['ruleset']} (rules version {b['ruleset_version'] or '?'})",
        "",
        f"matches: {b['matches']} (asked {b['matches_asked']}), batch seed {b['seed']}",
        f"bots by seat: {', '.join(b['bots'])}",
        f"gladiator {b['gladiator_version']}",
        f"data digest: {b['data_digest']}",
        f"generated {generated}",
        "",
        "options:",
        *textwrap.wrap(json.dumps(b["options"], sort_keys=True), 95),
        "",
        "How to read the heatmaps: a cell is the row's win rate against the column, with its",
        "95% Wilson interval and n; draws count as no win. Light grey: too few matches",
        f"(under {report['min_cell']}); dark grey diagonal: mirror matches, counted once.",
        "Facets are read at the start of each match. The HTML report says more.",
    ]
    fig = Figure(figsize=(8.27, 11.69))  # A4
    fig.text(0.06, 0.95, "\n".join(lines), va="top", family="monospace", fontsize=8)
    return fig


def write_report(
    report: dict[str, Any], out: Path, *, generated: str, pdf: bool = True
) -> list[Path]:
    """Write the report's files into `out` (made if missing); the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    plots: list[Plot] = figures(report)
    written = []
    path = out / "report.json"
    path.write_text(report_json(report), encoding="utf-8")
    written.append(path)
    path = out / "report.html"
    svgs = {p.key: svg_of(p) for p in plots}
    path.write_text(render_html(report, svgs, generated), encoding="utf-8")
    written.append(path)
    if pdf:
        path = out / "report.pdf"
        meta = {"Creator": "gladiator report", "CreationDate": None, "ModDate": None}
        with PdfPages(path, metadata=meta) as pages:
            pages.savefig(_cover(report, generated))
            for p in plots:
                pages.savefig(p.figure)
        written.append(path)
    return written
