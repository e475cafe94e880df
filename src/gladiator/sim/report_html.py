"""The balance report as one self-contained HTML page: inline SVG figures, HTML tables, no
scripts, no fonts or styles fetched from anywhere. The same report and timestamp give the same
bytes; the timestamp is the page's only line that changes between two runs of one batch."""

from __future__ import annotations

import json
from collections.abc import Mapping
from html import escape
from typing import Any

__all__ = ["render_html"]

_STYLE = """
body{font-family:system-ui,sans-serif;max-width:70em;margin:1em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1em;font-size:.9em}
th,td{border:1px solid #ccc;padding:.2em .5em;text-align:right}
th{background:#f0f0f0}td.l,th.l{text-align:left}
figure{margin:1em 0}figure svg{max-width:100%;height:auto}
code,pre{font-size:.85em}pre{white-space:pre-wrap;background:#f7f7f7;padding:.5em}
.muted{color:#666}
"""


def _how_to_read(min_cell: int) -> str:
    items = [
        "Every number comes from the bots' matches listed below, not from human play: a strong "
        "or weak value may be the bots' blind spot as much as the rules'.",
        "A seat's <b>facets</b> (class, style, weapon...) are read at the <b>start</b> of its "
        "match, so a man who lost his weapon still counts with the weapon he came in with.",
        "<b>Heatmap</b>: a cell is the row's win rate against the column over all their matches, "
        "whichever seat each sat in, with its 95% Wilson interval and its number of matches "
        "<i>n</i>. A draw is no win, so row-against-column plus column-against-row plus their "
        "draw share make 1. Blue: the row wins more than half; red: less; white: even "
        "(ColorBrewer RdBu, centred on 0.5).",
        f"Light grey cells have fewer than {min_cell} matches: their rate is written but not "
        "coloured. The dark grey diagonal holds the mirror matches (both seats the same value), "
        "counted once each: by symmetry each side wins (1 − draws)/2 of them, so only their "
        "number is shown.",
        "<b>Win rate by value</b>: the value's share of wins over all its seats in matches that "
        "are not mirrors for that facet (a mirror tells nothing about the value against others); "
        "the bar is the 95% interval, the cross the share of those matches drawn.",
        "An interval that leaves out 0.5 is unlikely to be chance, one at a time; but among many "
        "cells about one in twenty will do so by chance alone.",
        "<b>Length</b>: rounds are turns as the ruleset counts them; decisions are steps of the "
        "match (one set of orders each, several seats' orders at once counting once).",
        "<b>Endings</b>: how each match ended, in the ruleset's own words; by facet, over the "
        "matches the value took part in (once per match).",
        "<b>Seat advantage</b>: the win rate of each seat position (seat 1 is the first the "
        "ruleset lists), over all matches and over the decisive ones only (0.5 there: no edge).",
    ]
    return "<ul>" + "".join(f"<li>{i}</li>" for i in items) + "</ul>"


def _table(head: list[str], rows: list[list[Any]], left: int = 1) -> str:
    def cells(tag: str, values: list[Any]) -> str:
        return "".join(
            f'<{tag} class="l">{escape(str(v))}</{tag}>'
            if i < left
            else f"<{tag}>{escape(str(v))}</{tag}>"
            for i, v in enumerate(values)
        )

    body = "".join(f"<tr>{cells('td', r)}</tr>" for r in rows)
    return f"<table><tr>{cells('th', head)}</tr>{body}</table>"


def _ci(ci: list[float] | None) -> str:
    return "" if ci is None else f"{ci[0]:.3f}–{ci[1]:.3f}"


def _batch(report: dict[str, Any], generated: str) -> str:
    b = report["batch"]
    rows = [
        ["ruleset", f"{b['ruleset']} (rules version {b['ruleset_version'] or '?'})"],
        ["bots (by seat, repeated)", ", ".join(b["bots"])],
        ["batch seed", "" if b["seed"] is None else b["seed"]],
        ["matches", f"{b['matches']} (asked: {b['matches_asked']})"],
        ["gladiator version", b["gladiator_version"]],
        ["data digest (SHA-256 of the matches)", b["data_digest"]],
    ]
    opts = json.dumps(b["options"], sort_keys=True, indent=1)
    return (
        _table(["", ""], rows, left=2)
        + f"<p>Options:</p><pre>{escape(opts)}</pre>"
        + f'<p class="muted">Generated {escape(generated)}.</p>'
    )


def _figure(svgs: Mapping[str, str], key: str) -> str:
    svg = svgs.get(key)
    return f"<figure>{svg}</figure>" if svg else ""


def _summary(report: dict[str, Any]) -> str:
    d, ln = report["draws"], report["lengths"]
    rows = [
        ["matches", report["batch"]["matches"]],
        ["draws", f"{d['matches']} ({d['share']:.1%}, 95% {_ci(d['ci95'])})"],
        ["mean rounds", f"{ln['rounds']['mean']:.2f} (median {ln['rounds']['median']:g})"],
        ["mean decisions", f"{ln['decisions']['mean']:.1f} (median {ln['decisions']['median']:g})"],
    ]
    for s in report["seats"]:
        rows.append(
            [
                f"seat {s['position']} win rate",
                f"{s['win_rate']:.3f} ({_ci(s['ci95'])}); of decisive matches "
                f"{s['decisive_win_rate']:.3f} ({_ci(s['decisive_ci95'])})",
            ]
        )
    return _table(["", ""], rows, left=2)


def _endings(report: dict[str, Any]) -> str:
    rows = [[e["method"], e["matches"], f"{e['share']:.1%}"] for e in report["endings"]]
    return _table(["ending", "matches", "share"], rows)


def _facet(facet: dict[str, Any], svgs: Mapping[str, str], methods: list[str]) -> str:
    name = escape(facet["name"])
    parts = [f"<h2>By {name}</h2>", _figure(svgs, f"heatmap-{facet['name']}")]
    left_out = facet["matchups"]["matches_left_out"]
    if left_out:
        parts.append(f"<p>{left_out} matches of more than two seats are not in the heatmap.</p>")
    if facet["lopsided"]:
        parts.append("<h3>Most one-sided matchups</h3>")
        rows = [
            [c["row"], c["col"], c["matches"], f"{c['win_rate']:.3f}", _ci(c["ci95"])]
            for c in facet["lopsided"]
        ]
        parts.append(_table([name, "against", "matches", "win rate", "95% CI"], rows, left=2))
    parts.append(_figure(svgs, f"winrate-{facet['name']}"))
    rows = [
        [
            r["value"],
            r["matches"],
            r["wins"],
            r["draws"],
            r["losses"],
            f"{r['win_rate']:.3f}",
            _ci(r["ci95"]),
            r["mirror_matches"],
        ]
        for r in facet["overall"]
    ]
    head = [name, "matches", "wins", "draws", "losses", "win rate", "95% CI", "mirror matches"]
    parts.append(_table(head, rows))
    parts.append(_figure(svgs, f"lengths-{facet['name']}"))
    rows = [
        [
            r["value"],
            r["matches"],
            f"{r['rounds']['mean']:.2f}",
            f"{r['rounds']['median']:g}",
            f"{r['decisions']['mean']:.1f}",
        ]
        for r in facet["lengths"]
    ]
    parts.append(_table([name, "matches", "mean rounds", "median", "mean decisions"], rows))
    parts.append(_figure(svgs, f"endings-{facet['name']}"))
    rows = [
        [r["value"], r["matches"], *(f"{r['shares'][m]:.1%}" for m in methods)]
        for r in facet["endings"]
    ]
    parts.append(_table([name, "matches", *methods], rows))
    return "\n".join(parts)


def render_html(report: dict[str, Any], svgs: Mapping[str, str], generated: str) -> str:
    """The page; `svgs` maps a figure's key to its inline `<svg>` (report_plots.svg_of)."""
    b = report["batch"]
    methods = [e["method"] for e in report["endings"]]
    title = f"Balance report: {b['ruleset']}, {b['matches']} matches"
    body = [
        f"<h1>{escape(title)}</h1>",
        _batch(report, generated),
        "<h2>How to read this</h2>",
        _how_to_read(report["min_cell"]),
        "<h2>Summary</h2>",
        _summary(report),
        _figure(svgs, "seats"),
        "<h2>Match length</h2>",
        _figure(svgs, "lengths"),
        "<h2>Endings</h2>",
        _figure(svgs, "endings"),
        _endings(report),
        *(_facet(f, svgs, methods) for f in report["facets"]),
        f'<p class="muted">Numbers: report.json ({escape(report["schema"])} '
        f"v{report['schema_version']}).</p>",
    ]
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )
