"""Balance tables from a batch of matches: win rates with confidence intervals, lengths, endings."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

from gladiator.sim.runner import MatchSummary, seat_bots

__all__ = ["summarise", "wilson"]


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a win rate (95% by default); `wins` may count a draw or a
    split pair as a half."""
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _rates(appearances: Counter[str], wins: Counter[str]) -> list[dict[str, Any]]:
    rows = []
    for label in sorted(appearances):
        a, w = appearances[label], wins[label]
        lo, hi = wilson(w, a)
        rows.append(
            {
                "label": label,
                "appearances": a,
                "wins": w,
                "win_rate": w / a if a else 0.0,
                "ci95": [lo, hi],
            }
        )
    return rows


def _matchups(results: Sequence[MatchSummary], key: Any) -> list[dict[str, Any]]:
    pair_games: Counter[tuple[str, str]] = Counter()
    pair_wins: Counter[tuple[str, str]] = Counter()
    for r in results:
        if len(r.labels) == 2:
            (sa, la), (sb, lb) = ((s, key(lab)) for s, lab in r.labels.items())
            for me, mine, them in ((sa, la, lb), (sb, lb, la)):
                pair_games[(mine, them)] += 1
                if me in r.winners:
                    pair_wins[(mine, them)] += 1
    return [
        {
            "label": mine,
            "against": them,
            "matches": g,
            "wins": pair_wins[(mine, them)],
            "win_rate": pair_wins[(mine, them)] / g,
        }
        for (mine, them), g in sorted(pair_games.items())
    ]


def _group(label: str) -> str:
    """A label "group/name" (a Colosseum Advanced Game seat: "light/Velite") counts for its group
    as well."""
    return label.split("/", 1)[0]


def _by_bot(
    results: Sequence[MatchSummary], bots: Sequence[str], duplicate: bool
) -> list[dict[str, Any]]:
    """Win rates by bot, seat i playing bots[i % len(bots)] as `run_batch` deals them (in the
    second match of a duplicate deal, the next bot's seats)."""
    appearances: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    for r in results:
        dealt = seat_bots(bots, r.index, duplicate)
        for i, seat in enumerate(r.labels):
            bot = dealt[i % len(dealt)]
            appearances[bot] += 1
            wins[bot] += seat in r.winners
    return [{"bot": row.pop("label"), **row} for row in _rates(appearances, wins)]


def summarise(
    results: Sequence[MatchSummary], bots: Sequence[str] | None = None, duplicate: bool = False
) -> dict[str, Any]:
    """The batch's tables; with `bots` (one per seat, repeated), also the win rate of each bot
    (when they are not all the same; `duplicate`: the bots swap seats in a deal's second match,
    runner.seat_bots). The pair scores are duplicate.py's."""
    n = len(results)
    appearances: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    for r in results:
        for seat, label in r.labels.items():
            appearances[label] += 1
            if seat in r.winners:
                wins[label] += 1
    methods = Counter(r.method for r in results)
    out: dict[str, Any] = {
        "matches": n,
        "draws": sum(1 for r in results if not r.winners),
        "by_label": _rates(appearances, wins),
        "matchups": _matchups(results, lambda label: label),
        "endings": dict(methods.most_common()),
        "mean_steps": sum(r.steps for r in results) / n if n else 0.0,
        "mean_rounds": sum(r.rounds for r in results) / n if n else 0.0,
        "mean_dice": sum(r.dice for r in results) / n if n else 0.0,
    }
    if any("/" in label for label in appearances):
        group_appearances: Counter[str] = Counter()
        group_wins: Counter[str] = Counter()
        for label, k in appearances.items():
            group_appearances[_group(label)] += k
            group_wins[_group(label)] += wins[label]
        out["by_group"] = _rates(group_appearances, group_wins)
        out["group_matchups"] = _matchups(results, _group)
    if bots and len(set(bots)) > 1:
        out["by_bot"] = _by_bot(results, bots, duplicate)
    if any(len(r.labels) > 2 for r in results):  # a team match (Colosseum §27): its sides
        sides = Counter("+".join(r.winners) if r.winners else "draw" for r in results)
        out["by_side"] = [
            {"side": side, "matches": k, "share": k / n} for side, k in sorted(sides.items())
        ]
    return out
