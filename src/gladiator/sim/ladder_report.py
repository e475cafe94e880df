"""The ladder's results as plain versioned data: one record per pairing (enough to resume a
ladder and to fit the ratings again), the ratings with their intervals, CPU time per bot."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gladiator.sim.cputime import CpuTimes
from gladiator.sim.elo import bootstrap, fit
from gladiator.sim.ladder import PairingResult
from gladiator.sim.machine import load_average, machine
from gladiator.sim.report import wilson

__all__ = ["SCHEMA", "pairing_key", "pairing_record", "report", "reusable"]

SCHEMA = "gladiator.ladder/1"
BOOTSTRAP_SAMPLES = 1000
PRIOR_DRAWS = 1.0  # ruling LD1
_MARK = {1.0: "W", 0.0: "L", 0.5: "D"}
_SCORE = {v: k for k, v in _MARK.items()}


def pairing_key(setup: Mapping[str, Any], a: str, b: str, matches: int) -> dict[str, Any]:
    """What a pairing's games depend on: a cached pairing is reused only when all of it is
    the same."""
    keys = ("ruleset", "ruleset_version", "options", "seed", "budget")
    return {**{k: setup[k] for k in keys}, "a": a, "b": b, "matches": matches}


def pairing_record(setup: Mapping[str, Any], res: PairingResult) -> dict[str, Any]:
    wins, losses, draws = res.counts()
    n = len(res.games)
    lo, hi = wilson(wins, n)
    return {
        "key": pairing_key(setup, res.a, res.b, n),
        "a": res.a,
        "b": res.b,
        "matches": n,
        "a_wins": wins,
        "b_wins": losses,
        "draws": draws,
        "a_win_rate": wins / n if n else 0.0,
        "ci95": [lo, hi],
        "a_score": (wins + draws / 2) / n if n else 0.0,
        # a's result in game g (W, L or D); games 2k and 2k+1 share a seed, seats swapped.
        "games": "".join(_MARK[s] for s in res.scores),
        "endings": res.endings(),
        "mean_steps": res.mean_steps(),
        "cpu": {bot: t.to_dict() for bot, t in res.cpu().items()},
        "duplicate": _duplicate(res.scores),
    }


def _duplicate(scores: list[float]) -> dict[str, Any]:
    """DM2: a's score by deal (games 2k and 2k + 1 share a seed, seats swapped): 1 won both,
    1/2 split, 0 lost both, with Wilson's interval over the pairs; a split of a win and a loss
    is a deal the seat decided."""
    pairs = [(scores[i] + scores[i + 1]) / 2 for i in range(0, len(scores) - 1, 2)]
    n = len(pairs)
    total = sum(pairs)
    lo, hi = wilson(total, n)
    split_by_seat = sum(
        1 for i in range(0, len(scores) - 1, 2) if {scores[i], scores[i + 1]} == {0.0, 1.0}
    )
    return {
        "pairs": n,
        "a_score": total / n if n else 0.0,
        "ci95": [lo, hi],
        "a_won_both": sum(1 for x in pairs if x == 1.0),
        "split": sum(1 for x in pairs if x == 0.5),
        "a_lost_both": sum(1 for x in pairs if x == 0.0),
        "decided_by_the_deal": split_by_seat,
    }


def reusable(
    old: Mapping[str, Any] | None,
    setup: Mapping[str, Any],
    planned: Mapping[tuple[str, str], int],
) -> dict[tuple[str, str], Any]:
    """The finished pairings of an earlier report that this ladder would play the same."""
    if not old or old.get("schema") != SCHEMA:
        return {}
    out = {}
    for p in old.get("pairings", []):
        if not isinstance(p, dict):
            continue
        pair = (str(p.get("a")), str(p.get("b")))
        if pair in planned and p.get("key") == pairing_key(setup, *pair, planned[pair]):
            out[pair] = p
    return out


def _pairs_of(record: Mapping[str, Any]) -> list[tuple[float, float]]:
    scores = [_SCORE[c] for c in record["games"]]
    return [(scores[i], scores[i + 1]) for i in range(0, len(scores) - 1, 2)]


def report(
    setup: Mapping[str, Any],
    bots: Sequence[str],
    pairings: Sequence[Mapping[str, Any]],
    *,
    with_intervals: bool = True,
) -> dict[str, Any]:
    anchor = "random" if "random" in bots else None
    points = {(p["a"], p["b"]): (p["a_wins"] + p["draws"] / 2, p["matches"]) for p in pairings}
    ratings = fit(bots, points, anchor=anchor, prior=PRIOR_DRAWS)
    intervals: dict[str, tuple[float, float]] = {}
    if with_intervals:
        intervals = bootstrap(
            bots,
            {(p["a"], p["b"]): _pairs_of(p) for p in pairings},
            anchor=anchor,
            prior=PRIOR_DRAWS,
            samples=BOOTSTRAP_SAMPLES,
            seed=int(setup["seed"]),
        )
    cpu = {b: CpuTimes() for b in bots}
    games = dict.fromkeys(bots, 0)
    score = dict.fromkeys(bots, 0.0)
    for p in pairings:
        for bot, data in p["cpu"].items():
            cpu[bot].merge(CpuTimes.from_dict(data))
        games[p["a"]] += p["matches"]
        games[p["b"]] += p["matches"]
        score[p["a"]] += p["a_score"] * p["matches"]
        score[p["b"]] += (1 - p["a_score"]) * p["matches"]
    rows: list[dict[str, Any]] = [
        {
            "bot": b,
            "elo": ratings[b],
            "ci95": list(intervals[b]) if b in intervals else None,
            "games": games[b],
            "score": score[b] / games[b] if games[b] else 0.0,
        }
        for b in bots
    ]
    rows.sort(key=lambda r: -r["elo"])
    return {
        "schema": SCHEMA,
        **setup,
        "bots": list(bots),
        "rating_model": {
            "model": "Bradley-Terry maximum likelihood on the Elo scale, draws half points",
            "anchor": anchor or "mean 0",
            "prior_draws_per_pairing": PRIOR_DRAWS,
            "ci": f"95% percentile bootstrap over seed pairs, {BOOTSTRAP_SAMPLES} samples",
        },
        "ratings": rows,
        "pairings": sorted(pairings, key=lambda p: (p["a"], p["b"])),
        "cpu_per_decision": {
            b: {k: v for k, v in cpu[b].to_dict().items() if k != "bins"} for b in bots
        },
        "machine": machine(),
        "load_average": load_average(),
    }
