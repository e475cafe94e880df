"""The numbers of a balance report: win rates by facet and matchup, lengths, endings, first seat.

Everything here is computed from the match summaries alone and comes out as plain, sorted,
rounded data (the report's JSON), so a batch gives the same report whether it was just played
or read back from Parquet, and the plots and the HTML draw only from these numbers.

A seat's facets are what `Ruleset.seat_facets` said about it at the start of its match (its
class, style, weapons...); summaries kept before facets were read fall back to the seat's label.
A match where every seat has the same value of a facet is a mirror match for that facet: it says
nothing about that value against the others, so it is left out of the value's win rate and sits
on the heatmap's diagonal, counted once (BR1-BR3 in docs/rulings.md).
"""

from __future__ import annotations

import hashlib
import json
import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

from gladiator.sim.report import wilson
from gladiator.sim.runner import MatchSummary

__all__ = [
    "MIN_CELL",
    "SCHEMA_NAME",
    "SCHEMA_VERSION",
    "BatchInfo",
    "build_report",
    "data_digest",
    "facets_of",
]

SCHEMA_NAME = "gladiator.balance_report"
SCHEMA_VERSION = 1
# BR2: a heatmap cell with fewer matches than this is greyed out (its rate is shown, not coloured).
MIN_CELL = 10
_NONE = "(none)"  # a seat without this facet (a batch mixing rulesets' kinds of seat)


@dataclass(frozen=True)
class BatchInfo:
    """What the batch was: shown at the top of the report."""

    ruleset: str
    options: dict[str, Any]
    bots: list[str]
    seed: int | None
    matches: int  # asked for; the report counts those it has
    ruleset_version: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def _r(x: float) -> float:
    """Rounded, so the JSON's bytes do not depend on float noise from summation order."""
    return round(x, 6)


def _ci(wins: int, n: int) -> list[float]:
    lo, hi = wilson(wins, n)
    return [_r(lo), _r(hi)]


def _rate(k: int, n: int) -> float:
    return _r(k / n) if n else 0.0


def facets_of(s: MatchSummary) -> dict[str, dict[str, str]]:
    """Seat -> facets, in seat order; the label alone where the summary kept no facets."""
    if s.facets:
        return {seat: dict(s.facets.get(seat, {})) for seat in s.labels}
    return {seat: {"label": label} for seat, label in s.labels.items()}


def data_digest(results: Sequence[MatchSummary]) -> str:
    """SHA-256 of the batch's rows in a canonical form: two reports of one batch share it."""
    h = hashlib.sha256()
    for s in sorted(results, key=lambda r: r.index):
        row = [
            s.index,
            s.seed,
            list(s.labels.items()),
            facets_of(s),
            list(s.winners),
            s.method,
            s.steps,
            s.rounds,
            s.dice,
        ]
        h.update(json.dumps(row, sort_keys=True, separators=(",", ":")).encode())
        h.update(b"\n")
    return h.hexdigest()


def _version() -> str:
    try:
        return metadata.version("gladiator")
    except metadata.PackageNotFoundError:  # pragma: no cover - run from a bare source tree
        return "unknown"


def _values(results: Sequence[MatchSummary], name: str) -> list[list[str]]:
    """Per match, the facet's value for each seat, in seat order."""
    return [[f.get(name, _NONE) for f in facets_of(s).values()] for s in results]


def _overall(results: Sequence[MatchSummary], vals: list[list[str]]) -> list[dict[str, Any]]:
    """BR1: each value's win rate over its seats in matches that are not mirrors for it."""
    n: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    draws: Counter[str] = Counter()
    mirrors: Counter[str] = Counter()
    for s, vs in zip(results, vals, strict=True):
        if len(set(vs)) == 1:
            mirrors[vs[0]] += 1
            continue
        for seat, v in zip(s.labels, vs, strict=True):
            n[v] += 1
            wins[v] += seat in s.winners
            draws[v] += not s.winners
    rows = []
    for v in sorted(set(n) | set(mirrors)):
        rows.append(
            {
                "value": v,
                "matches": n[v],
                "wins": wins[v],
                "draws": draws[v],
                "losses": n[v] - wins[v] - draws[v],
                "win_rate": _rate(wins[v], n[v]),
                "ci95": _ci(wins[v], n[v]),
                "draw_rate": _rate(draws[v], n[v]),
                "mirror_matches": mirrors[v],
            }
        )
    return rows


def _matchups(results: Sequence[MatchSummary], vals: list[list[str]]) -> dict[str, Any]:
    """BR1, BR2: the row value's win rate against the column value, duels only."""
    n: Counter[tuple[str, str]] = Counter()
    wins: Counter[tuple[str, str]] = Counter()
    draws: Counter[tuple[str, str]] = Counter()
    seen: set[str] = set()
    left_out = 0
    for s, vs in zip(results, vals, strict=True):
        if len(vs) != 2:
            left_out += 1
            continue
        (s1, s2), (a, b) = list(s.labels), vs
        seen.update(vs)
        if a == b:  # a mirror: once on the diagonal
            n[(a, a)] += 1
            draws[(a, a)] += not s.winners
            continue
        for me, row, col in ((s1, a, b), (s2, b, a)):
            n[(row, col)] += 1
            wins[(row, col)] += me in s.winners
            draws[(row, col)] += not s.winners
    values = sorted(seen)
    cells = []
    for row in values:
        for col in values:
            k, w, d = n[(row, col)], wins[(row, col)], draws[(row, col)]
            mirror = row == col
            cells.append(
                {
                    "row": row,
                    "col": col,
                    "matches": k,
                    "wins": None if mirror else w,
                    "draws": d,
                    "win_rate": None if mirror or not k else _rate(w, k),
                    "ci95": None if mirror or not k else _ci(w, k),
                    "draw_rate": _rate(d, k),
                    "mirror": mirror,
                    "sparse": k < MIN_CELL,
                }
            )
    return {"values": values, "cells": cells, "matches_left_out": left_out}


def _lopsided(cells: list[dict[str, Any]], top: int = 5) -> list[dict[str, Any]]:
    """The most one-sided matchups with enough matches: highest row win rate first (its
    column's loss); ties by the lower CI bound, then by name, so the order is fixed."""
    ok = [c for c in cells if not c["mirror"] and not c["sparse"]]
    ok.sort(key=lambda c: (-c["win_rate"], -c["ci95"][0], c["row"], c["col"]))
    return ok[:top]


def _quantiles(xs: list[int]) -> dict[str, float]:
    if not xs:
        return {"mean": 0.0, "min": 0, "p10": 0.0, "p25": 0.0, "median": 0.0}
    qs = statistics.quantiles(xs, n=20, method="inclusive") if len(xs) > 1 else [xs[0]] * 19
    return {
        "mean": _r(statistics.fmean(xs)),
        "min": min(xs),
        "p10": _r(qs[1]),
        "p25": _r(qs[4]),
        "median": _r(statistics.median(xs)),
        "p75": _r(qs[14]),
        "p90": _r(qs[17]),
        "max": max(xs),
    }


def _histogram(xs: list[int], bins: int) -> list[list[int]]:
    """[low, high, count] over whole numbers, low inclusive and high exclusive: one bin per
    value while they are few, else `bins` bins of equal integer width."""
    if not xs:
        return []
    lo, hi = min(xs), max(xs) + 1
    width = max(1, -(-(hi - lo) // bins))
    counts = Counter((x - lo) // width for x in xs)
    edges = range(lo, hi, width)
    return [[e, e + width, counts[i]] for i, e in enumerate(edges)]


def _by_value(
    results: Sequence[MatchSummary], vals: list[list[str]]
) -> dict[str, list[MatchSummary]]:
    """The matches each value took part in, once per match however many seats held it."""
    out: dict[str, list[MatchSummary]] = defaultdict(list)
    for s, vs in zip(results, vals, strict=True):
        for v in sorted(set(vs)):
            out[v].append(s)
    return out


def _endings(results: Sequence[MatchSummary]) -> list[dict[str, Any]]:
    counts = Counter(r.method for r in results)
    order = sorted(counts, key=lambda m: (-counts[m], m))
    return [
        {"method": m, "matches": counts[m], "share": _rate(counts[m], len(results))} for m in order
    ]


def _facet(results: Sequence[MatchSummary], name: str, methods: list[str]) -> dict[str, Any]:
    vals = _values(results, name)
    matchups = _matchups(results, vals)
    by_value = _by_value(results, vals)
    lengths = []
    endings = []
    for v in sorted(by_value):
        ms = by_value[v]
        lengths.append(
            {
                "value": v,
                "matches": len(ms),
                "rounds": _quantiles([m.rounds for m in ms]),
                "decisions": _quantiles([m.steps for m in ms]),
            }
        )
        c = Counter(m.method for m in ms)
        endings.append(
            {
                "value": v,
                "matches": len(ms),
                "counts": {m: c[m] for m in methods},
                "shares": {m: _rate(c[m], len(ms)) for m in methods},
            }
        )
    return {
        "name": name,
        "overall": _overall(results, vals),
        "matchups": matchups,
        "lopsided": _lopsided(matchups["cells"]),
        "lengths": lengths,
        "endings": endings,
    }


def _seats(results: Sequence[MatchSummary]) -> list[dict[str, Any]]:
    """Each seat position's win rate (first seat: the first the ruleset lists), and its share
    of the decisive matches (0.5 when the seat gives no edge)."""
    n: Counter[int] = Counter()
    wins: Counter[int] = Counter()
    decisive: Counter[int] = Counter()
    for s in results:
        for i, seat in enumerate(s.labels):
            n[i] += 1
            wins[i] += seat in s.winners
            decisive[i] += bool(s.winners)
    return [
        {
            "position": i + 1,
            "matches": n[i],
            "wins": wins[i],
            "win_rate": _rate(wins[i], n[i]),
            "ci95": _ci(wins[i], n[i]),
            "decisive_matches": decisive[i],
            "decisive_win_rate": _rate(wins[i], decisive[i]),
            "decisive_ci95": _ci(wins[i], decisive[i]),
        }
        for i in sorted(n)
    ]


def build_report(results: Sequence[MatchSummary], batch: BatchInfo) -> dict[str, Any]:
    """The whole report's numbers, as JSON-ready data (BR1-BR3)."""
    results = sorted(results, key=lambda r: r.index)
    if not results:
        raise ValueError("no matches to report on")
    names = sorted({k for s in results for f in facets_of(s).values() for k in f})
    endings = _endings(results)
    methods = [e["method"] for e in endings]
    draws = sum(1 for r in results if not r.winners)
    rounds = [r.rounds for r in results]
    steps = [r.steps for r in results]
    return {
        "schema": SCHEMA_NAME,
        "schema_version": SCHEMA_VERSION,
        "batch": {
            "ruleset": batch.ruleset,
            "ruleset_version": batch.ruleset_version,
            "options": batch.options,
            "bots": list(batch.bots),
            "seed": batch.seed,
            "matches_asked": batch.matches,
            "matches": len(results),
            "gladiator_version": _version(),
            "data_digest": data_digest(results),
            **({"extra": batch.extra} if batch.extra else {}),
        },
        "min_cell": MIN_CELL,
        "facet_names": names,
        "draws": {
            "matches": draws,
            "share": _rate(draws, len(results)),
            "ci95": _ci(draws, len(results)),
        },
        "seats": _seats(results),
        "lengths": {
            "rounds": _quantiles(rounds),
            "decisions": _quantiles(steps),
            "rounds_histogram": _histogram(rounds, 30),
            "decisions_histogram": _histogram(steps, 30),
        },
        "endings": endings,
        "facets": [_facet(results, name, methods) for name in names],
    }
