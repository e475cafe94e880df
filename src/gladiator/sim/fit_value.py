"""Fit the Colosseum value function (rules/colosseum/evaluation/value.py) on simulated matches.

Matches between varied bots (tactician and centurion, either way round, and each against
itself; Basic Game and, a third of them, the Advanced Game's random styles) are played from
seeds derived from the batch seed (`derive_seed`), so a fit depends on its seed and size only,
never on the number of workers. A few positions are drawn from each match's decision points
(not all of them: positions of one match are alike, and their results are one result), each
from one seat's view, labelled with how the match ended for that seat (1 won, 0 lost, ½ drawn).

A fifth of the MATCHES (not positions) is held out. On the rest an L2-regularised logistic
regression without bias is fitted (scipy's L-BFGS on the mean log-loss), its strength chosen
by cross-validation over folds of matches. The held-out log-loss, Brier score and accuracy are
reported for the fitted model, for the old heuristic put through a logistic of its own fitted
on the same training positions (so the comparison is fair), and for a constant ½.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import minimize

from gladiator.bots import make_bot
from gladiator.core.dice import Dice
from gladiator.registry import get
from gladiator.rules.colosseum.evaluation.material_heuristic import material_heuristic
from gladiator.rules.colosseum.evaluation.value_features import FEATURE_NAMES, features
from gladiator.sim.machine import load_average, machine
from gladiator.sim.runner import derive_seed

__all__ = [
    "MATCHUPS",
    "FitConfig",
    "Positions",
    "evaluate",
    "fit_logistic",
    "fit_value",
    "play_positions",
]

FloatArray = NDArray[np.float64]

# (name, options, bots by seat): the schedule cycles through these, match i taking slot i % n.
MATCHUPS: tuple[tuple[str, dict[str, Any], tuple[str, str]], ...] = (
    ("basic tactician-tactician", {}, ("tactician", "tactician")),
    ("basic tactician-centurion", {}, ("tactician", "centurion")),
    ("basic centurion-tactician", {}, ("centurion", "tactician")),
    ("basic tactician-tactician", {}, ("tactician", "tactician")),
    ("basic centurion-centurion", {}, ("centurion", "centurion")),
    ("basic tactician-centurion", {}, ("tactician", "centurion")),
    ("advanced tactician-tactician", {"advanced": True}, ("tactician", "tactician")),
    ("advanced tactician-centurion", {"advanced": True}, ("tactician", "centurion")),
    ("advanced centurion-tactician", {"advanced": True}, ("centurion", "tactician")),
)
L2_GRID = (1e-4, 1e-3, 1e-2, 1e-1)


@dataclass(frozen=True)
class FitConfig:
    seed: int = 1
    matches: int = 1500
    per_match: int = 4  # positions drawn from each match's decision points
    holdout: float = 0.2  # the share of matches held out for testing
    folds: int = 4  # cross-validation folds (of training matches) choosing the L2 strength
    workers: int = 1

    def check(self) -> None:
        if self.matches < 5:
            raise ValueError(f"--matches must be at least 5, not {self.matches}")
        if self.per_match < 1:
            raise ValueError(f"--per-match must be at least 1, not {self.per_match}")
        if not 0.0 < self.holdout < 1.0:
            raise ValueError(f"--holdout must lie between 0 and 1, not {self.holdout}")
        if self.workers < 1:
            raise ValueError(f"--workers must be at least 1, not {self.workers}")


@dataclass(frozen=True)
class Positions:
    """Sampled positions: features X, the old heuristic h, labels y and each one's match."""

    x: FloatArray
    h: FloatArray
    y: FloatArray
    match: NDArray[np.int64]
    advanced: NDArray[np.bool_]


def _play_one(seed: int, index: int, per_match: int) -> list[tuple[list[float], float, float]]:
    """Match `index` of the batch: (features, old heuristic, label) of its sampled positions."""
    _, options, bots = MATCHUPS[index % len(MATCHUPS)]
    rules = get("colosseum")
    match_seed = derive_seed(seed, index)
    dice = Dice(match_seed, recording=False)
    state, _ = rules.initial_state(rules.normalise_options(options), dice)
    seats = rules.seats(state.options)
    players = {s: make_bot(bots[i]) for i, s in enumerate(seats)}
    rng = random.Random(derive_seed(match_seed, "bots"))
    pick = random.Random(derive_seed(match_seed, "positions"))
    seen: list[tuple[str, list[float], float]] = []
    while rules.outcome(state) is None:
        pending = rules.pending(state)
        seat = seats[pick.randrange(len(seats))]  # one seat's view of each position
        seen.append((seat, features(state, seat), material_heuristic(state, seat)))
        orders = {s: players[s].choose(rules, state, s, d, rng) for s, d in pending.items()}
        rules.apply(state, orders, dice, quiet=True)
    winners = state.winners
    chosen = sorted(pick.sample(range(len(seen)), min(per_match, len(seen))))
    out = []
    for i in chosen:
        seat, f, h = seen[i]
        label = 0.5 if not winners else (1.0 if seat in winners else 0.0)
        out.append((f, h, label))
    return out


def _play_chunk(seed: int, indices: Sequence[int], per_match: int) -> list[Any]:
    return [(i, _play_one(seed, i, per_match)) for i in indices]


def play_positions(config: FitConfig, on_match: Callable[[int], None] | None = None) -> Positions:
    """Play the batch's matches and gather their sampled positions, in match order."""
    rows: dict[int, list[tuple[list[float], float, float]]] = {}
    indices = list(range(config.matches))
    if config.workers == 1:
        for i in indices:
            rows[i] = _play_one(config.seed, i, config.per_match)
            if on_match:
                on_match(1)
    else:
        chunks = [indices[k : k + 10] for k in range(0, len(indices), 10)]
        with ProcessPoolExecutor(config.workers) as pool:
            futures = [pool.submit(_play_chunk, config.seed, c, config.per_match) for c in chunks]
            for fut in futures:
                for i, got in fut.result():
                    rows[i] = got
                    if on_match:
                        on_match(1)
    xs, hs, ys, ms, adv = [], [], [], [], []
    for i in indices:
        advanced = bool(MATCHUPS[i % len(MATCHUPS)][1].get("advanced"))
        for f, h, label in rows[i]:
            xs.append(f)
            hs.append(h)
            ys.append(label)
            ms.append(i)
            adv.append(advanced)
    return Positions(
        np.asarray(xs, dtype=np.float64).reshape(-1, len(FEATURE_NAMES)),
        np.asarray(hs, dtype=np.float64),
        np.asarray(ys, dtype=np.float64),
        np.asarray(ms, dtype=np.int64),
        np.asarray(adv, dtype=np.bool_),
    )


# --- the model ---------------------------------------------------------------------------------


def _sigmoid(z: FloatArray) -> FloatArray:
    out: FloatArray = 1.0 / (1.0 + np.exp(-np.clip(z, -30.0, 30.0)))
    return out


def fit_logistic(x: FloatArray, y: FloatArray, l2: float) -> FloatArray:
    """Weights w minimising mean log-loss of σ(x·w) against y (soft labels allowed) plus
    l2/2·|w|², with no bias (V2). Deterministic: L-BFGS from zero."""

    def loss(w: FloatArray) -> tuple[float, FloatArray]:
        z = x @ w
        # log(1 + e^z) − y·z, stably
        value = float(np.mean(np.logaddexp(0.0, z) - y * z) + 0.5 * l2 * (w @ w))
        grad = x.T @ (_sigmoid(z) - y) / len(y) + l2 * w
        return value, grad

    start = np.zeros(x.shape[1])
    res = minimize(loss, start, jac=True, method="L-BFGS-B", options={"maxiter": 2000})
    w: FloatArray = np.asarray(res.x, dtype=np.float64)
    return w


def evaluate(p: FloatArray, y: FloatArray) -> dict[str, float]:
    """Log-loss and Brier score (draws as ½), and accuracy on the decided positions."""
    q = np.clip(p, 1e-12, 1 - 1e-12)
    log_loss = float(np.mean(-(y * np.log(q) + (1 - y) * np.log(1 - q))))
    brier = float(np.mean((p - y) ** 2))
    decided = y != 0.5
    if decided.any():
        hits = np.where(p[decided] == 0.5, 0.5, (p[decided] > 0.5) == (y[decided] == 1.0))
        accuracy = float(np.mean(hits))
    else:
        accuracy = float("nan")
    return {"log_loss": log_loss, "brier": brier, "accuracy": accuracy, "positions": len(y)}


def _children_cpu() -> float:
    """CPU seconds of this process's ended children (0 where the platform cannot tell)."""
    try:
        import resource
    except ImportError:  # not on Unix
        return 0.0
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def _split(matches: int, seed: int, holdout: float) -> set[int]:
    order = list(range(matches))
    random.Random(derive_seed(seed, "holdout")).shuffle(order)
    return set(order[: max(1, round(matches * holdout))])


def _choose_l2(x: FloatArray, y: FloatArray, m: NDArray[np.int64], folds: int, seed: int) -> float:
    """The L2 strength of `L2_GRID` with the least cross-validated log-loss, folds of matches."""
    ids = sorted(set(m.tolist()))
    random.Random(derive_seed(seed, "folds")).shuffle(ids)
    fold_of = {mid: k % folds for k, mid in enumerate(ids)}
    f = np.asarray([fold_of[int(v)] for v in m])
    best, best_loss = L2_GRID[0], math.inf
    for l2 in L2_GRID:
        total = 0.0
        for k in range(folds):
            tr, te = f != k, f == k
            if not te.any() or not tr.any():
                continue
            w = fit_logistic(x[tr], y[tr], l2)
            total += evaluate(_sigmoid(x[te] @ w), y[te])["log_loss"] * int(te.sum())
        if total < best_loss:
            best, best_loss = l2, total
    return best


def fit_value(
    config: FitConfig, on_match: Callable[[int], None] | None = None
) -> tuple[list[float], dict[str, Any], dict[str, Any]]:
    """Play, fit and test: (weights in FEATURE_NAMES order, their provenance, the report)."""
    config.check()
    cpu0, wall0, kids0 = time.process_time(), time.perf_counter(), _children_cpu()
    pos = play_positions(config, on_match)
    play_cpu = time.process_time() - cpu0
    workers_cpu = _children_cpu() - kids0  # the pool's processes, once they have ended
    play_wall = time.perf_counter() - wall0
    test_ids = _split(config.matches, config.seed, config.holdout)
    test = np.isin(pos.match, sorted(test_ids))
    train = ~test
    if not train.any() or not test.any():
        raise ValueError("too few positions to hold any out: play more matches")
    x, y = pos.x, pos.y
    l2 = _choose_l2(x[train], y[train], pos.match[train], config.folds, config.seed)
    w = fit_logistic(x[train], y[train], l2)
    hx = pos.h.reshape(-1, 1)
    hw = fit_logistic(hx[train], y[train], 0.0)  # the old heuristic's own logistic, σ(a·h)
    models = {
        "value": _sigmoid(x @ w),
        "old_heuristic": _sigmoid(hx @ hw),
        "constant": np.full(len(y), 0.5),
    }
    report: dict[str, Any] = {
        "test": {k: evaluate(p[test], y[test]) for k, p in models.items()},
        "train": {k: evaluate(p[train], y[train]) for k, p in models.items()},
    }
    for part, mask in (("basic", ~pos.advanced), ("advanced", pos.advanced)):
        sel = test & mask
        if sel.any():
            report[f"test_{part}"] = {k: evaluate(p[sel], y[sel]) for k, p in models.items()}
    draws = int(np.sum(y == 0.5))
    provenance: dict[str, Any] = {
        "fit": "sim/fit_value.py",
        "seed": config.seed,
        "matches": config.matches,
        "positions_per_match": config.per_match,
        "positions": len(y),
        "holdout_matches": len(test_ids),
        "matchups": [name for name, _, _ in MATCHUPS],
        "model": "logistic on difference features, no bias (antisymmetric)",
        "l2": l2,
        "test_log_loss": round(report["test"]["value"]["log_loss"], 5),
        "test_brier": round(report["test"]["value"]["brier"], 5),
        "test_accuracy": round(report["test"]["value"]["accuracy"], 5),
        "old_heuristic_test_log_loss": round(report["test"]["old_heuristic"]["log_loss"], 5),
    }
    ranked = sorted(zip(FEATURE_NAMES, w.tolist(), strict=True), key=lambda t: -abs(t[1]))
    report.update(
        {
            "schema": "gladiator.colosseum.value-fit",
            "schema_version": 1,
            "config": {
                "seed": config.seed,
                "matches": config.matches,
                "per_match": config.per_match,
                "holdout": config.holdout,
                "folds": config.folds,
                "workers": config.workers,
                "l2_grid": list(L2_GRID),
            },
            "l2": l2,
            "old_heuristic_slope": float(hw[0]),
            "positions": {
                "total": len(y),
                "train": int(train.sum()),
                "test": int(test.sum()),
                "advanced": int(pos.advanced.sum()),
                "draws": draws,
            },
            "top_weights": [{"feature": n, "weight": round(v, 4)} for n, v in ranked[:15]],
            "seconds": {
                "play_wall": round(play_wall, 2),
                "play_cpu_main": round(play_cpu, 2),
                "play_cpu_workers": round(workers_cpu, 2),
            },
            "machine": machine(),
            "load_average": load_average(),
        }
    )
    return [float(v) for v in w], provenance, report
