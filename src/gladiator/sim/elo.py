"""Elo ratings from a round robin: the Bradley–Terry maximum-likelihood fit, draws as half
points, and bootstrap confidence intervals over paired games. Pure: numbers in, numbers out.

P(i beats j) = 1 / (1 + 10^((R_j - R_i) / 400)). A bot that won or lost every game has no
finite maximum-likelihood rating, so each pairing that was played gets `prior` virtual draws
(ruling LD1 in docs/rulings.md); `prior=0` is the plain fit.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence

import numpy as np

__all__ = ["ELO_PER_NATURAL", "bootstrap", "expected_score", "fit"]

ELO_PER_NATURAL = 400 / math.log(10)  # Elo points per unit of the logistic scale

# (bot a, bot b) -> a's score in each pair of games of one seed (seats swapped): (s1, s2),
# each 1, 0.5 or 0.
Pairs = Mapping[tuple[str, str], Sequence[tuple[float, float]]]


def expected_score(diff: float) -> float:
    """The expected score of a bot rated `diff` Elo above its opponent."""
    return 1 / (1 + 10 ** (-diff / 400))


def fit(
    bots: Sequence[str],
    points: Mapping[tuple[str, str], tuple[float, int]],
    *,
    anchor: str | None = None,
    prior: float = 1.0,
) -> dict[str, float]:
    """Ratings from (a, b) -> (a's points, games). `anchor` is rated 0; without one the mean
    is 0. Newton's method on the concave log-likelihood, one rating held fixed."""
    index = {b: i for i, b in enumerate(bots)}
    k = len(bots)
    wins = np.zeros((k, k))  # wins[i, j]: i's points against j
    games = np.zeros((k, k))
    for (a, b), (pts, n) in points.items():
        i, j = index[a], index[b]
        if n <= 0:
            continue
        wins[i, j] += pts + prior / 2
        wins[j, i] += n - pts + prior / 2
        games[i, j] += n + prior
        games[j, i] += n + prior
    theta = _newton(wins, games)
    ref = theta[index[anchor]] if anchor in index else float(np.mean(theta))
    return {b: float((theta[index[b]] - ref) * ELO_PER_NATURAL) for b in bots}


def _newton(wins: np.ndarray, games: np.ndarray, steps: int = 100) -> np.ndarray:
    k = len(wins)
    theta = np.zeros(k)
    score = wins.sum(axis=1)
    for _ in range(steps):
        p = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))  # p[i, j]: i beats j
        grad = score - (games * p).sum(axis=1)
        w = games * p * p.T
        hess = w - np.diag(w.sum(axis=1))
        # Rating 0 is held at 0 (the scale has one free offset); a bot that played nobody
        # keeps 0 through the tiny ridge.
        step = np.zeros(k)
        if k > 1:
            sub = hess[1:, 1:] - 1e-12 * np.eye(k - 1)
            step[1:] = np.linalg.solve(sub, -grad[1:])
        theta += step
        if float(np.max(np.abs(step), initial=0.0)) < 1e-12:
            break
    return theta


def bootstrap(
    bots: Sequence[str],
    pairs: Pairs,
    *,
    anchor: str | None = None,
    prior: float = 1.0,
    samples: int = 1000,
    seed: int = 0,
    level: float = 0.95,
) -> dict[str, tuple[float, float]]:
    """A percentile interval per rating: each pairing's seed pairs drawn again with
    replacement (a pair keeps its two games together, so the seat swap still cancels), the
    ratings fitted again. The same seed gives the same intervals."""
    rng = random.Random(seed)
    draws: dict[str, list[float]] = {b: [] for b in bots}
    keys = sorted(pairs)
    for _ in range(samples):
        points: dict[tuple[str, str], tuple[float, int]] = {}
        for key in keys:
            games = pairs[key]
            if not games:
                continue
            picked = [games[rng.randrange(len(games))] for _ in games]
            points[key] = (sum(s1 + s2 for s1, s2 in picked), 2 * len(picked))
        for b, r in fit(bots, points, anchor=anchor, prior=prior).items():
            draws[b].append(r)
    tail = (1 - level) / 2
    return {b: (_quantile(v, tail), _quantile(v, 1 - tail)) for b, v in draws.items()}


def _quantile(values: Sequence[float], q: float) -> float:
    return float(np.quantile(np.asarray(values), q)) if values else 0.0
