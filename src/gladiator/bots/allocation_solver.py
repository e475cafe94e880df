"""The Colosseum allocation (§9.3) as a zero-sum matrix game, solved exactly.

`solve_matrix_game(M)` finds optimal mixed strategies of both players of the payoff matrix M
(row player maximises) by two linear programmes (scipy's HiGHS): milliseconds for the few dozen
strategies a side has here. `solve_allocation(ruleset, state, seat, decision)` is the entry
point for other bots (the SM-MCTS search): the compact strategy sets of both seats
(`allocation_strategies`, with the tactician's own choices in), the payoff matrix of the exact
model (`allocation_payoff`), and the seat's equilibrium mix as (orders, probabilities).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.optimize import linprog

from gladiator.bots.allocation_payoff import PhaseModel, Prepared
from gladiator.bots.allocation_strategies import Limits, basic_slots, neighbours, strategy_set
from gladiator.bots.position_value import DEFAULT_VALUE, PositionValue
from gladiator.bots.tactician.bot import TacticianBot
from gladiator.core.decisions import Decision, Distribute
from gladiator.core.protocol import Ruleset
from gladiator.rules.colosseum.state import ColosseumState

__all__ = [
    "AllocationGame",
    "allocation_game",
    "best_reply",
    "modelled",
    "opponent_decision",
    "solve_allocation",
    "solve_matrix_game",
]

_TACTICIAN_SEED = 0x5EED  # the tactician's own choice in the set: a fixed draw of its noise
_ORACLE_SEED = 0x0AC1E  # the double oracle's pool of further orders: a fixed draw
ORACLE_ROUNDS = 3
ORACLE_POOL = 200
ORACLE_STEPS = 4
ORACLE_TOLERANCE = 1e-4  # position value; a CF is 0.025


def solve_matrix_game(m: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """Optimal mixes (x for the rows, y for the columns) and the value of the zero-sum game
    with row payoffs `m`: max_x min_y x'My."""
    m = np.asarray(m, dtype=float)
    rows, cols = m.shape
    shift = m.min()
    a = m - shift + 1.0  # all positive: the value is positive, the LPs are bounded
    # Rows: min sum(u) s.t. A' u >= 1, u >= 0; x = u / sum(u), value = 1 / sum(u).
    rx = linprog(np.ones(rows), A_ub=-a.T, b_ub=-np.ones(cols), bounds=(0, None), method="highs")
    ry = linprog(-np.ones(cols), A_ub=a, b_ub=np.ones(rows), bounds=(0, None), method="highs")
    if rx.status != 0 or ry.status != 0:
        raise RuntimeError(f"matrix game LP failed: {rx.message}; {ry.message}")
    x = np.maximum(rx.x, 0.0)
    y = np.maximum(ry.x, 0.0)
    value = 1.0 / x.sum() + shift - 1.0
    return x / x.sum(), y / y.sum(), float(value)


def modelled(ruleset: Ruleset[Any], state: Any, seat: str, decision: Decision) -> bool:
    """The spots the solver plays (RULING AS3): a two-man Colosseum Basic Game allocation with
    the ten §9.3 slots; anything else (styles, specials, nets, teams, beasts, talents) is the
    tactician's."""
    if not isinstance(state, ColosseumState) or not isinstance(decision, Distribute):
        return False
    if len(state.gladiators) != 2 or seat not in state.gladiators or not basic_slots(decision):
        return False
    if any(g.style or g.beast is not None or g.talents for g in state.gladiators.values()):
        return False
    if decision.groups and any(g.label != "defence" for g in decision.groups):
        return False
    return state.step == "allocate"


@dataclass(frozen=True, slots=True)
class AllocationGame:
    """One allocation spot as a matrix game: side 0 is `seat`."""

    model: PhaseModel
    rows: list[str]
    cols: list[str]
    matrix: np.ndarray
    x: np.ndarray
    y: np.ndarray
    value: float


def opponent_decision(ruleset: Ruleset[Any], state: ColosseumState, other: str) -> Distribute:
    got = ruleset.pending(state).get(other)
    if isinstance(got, Distribute):
        return got
    return Distribute(prompt="no allocation", secret=True, budget=0, slots=())


def best_reply(
    model: PhaseModel,
    side: int,
    mix: np.ndarray,
    against: list[Prepared],
    pool: list[Prepared],
    limits: Limits,
    steps: int,
) -> tuple[Prepared, float]:
    """`side`'s best order against the other side's `mix` over `against`: the best of `pool`,
    then up to `steps` steps of hill climbing one CF at a time (`neighbours`); with what it
    gets in side 0's payoff (which side 1 minimises)."""
    support = [(against[i], float(p)) for i, p in enumerate(mix) if p > 1e-9]
    sign = 1.0 if side == 0 else -1.0

    def score(cand: Prepared) -> float:
        if side == 0:
            return sign * float(sum(p * model.payoff(cand, c) for c, p in support))
        return sign * float(sum(p * model.payoff(r, cand) for r, p in support))

    best = max(pool, key=score)
    best_s = score(best)
    split = _split(best)
    for _ in range(steps):
        step = None
        for attack, defence in neighbours(limits, *split):
            cand = model.prepare_split(side, attack, defence)
            s = score(cand)
            if s > best_s + 1e-12:
                step, best, best_s = (attack, defence), cand, s
        if step is None:
            break
        split = step
    return best, sign * best_s


def _split(p: Prepared) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """CF per area of a prepared order as written (before halvings: the climb works on what
    he writes)."""
    return p.written, p.defence


def allocation_game(
    ruleset: Ruleset[Any],
    state: ColosseumState,
    seat: str,
    decision: Distribute,
    *,
    value: PositionValue = DEFAULT_VALUE,
    oracle_rounds: int = ORACLE_ROUNDS,
    oracle_pool: int = ORACLE_POOL,
    oracle_steps: int = ORACLE_STEPS,
) -> AllocationGame:
    """Build and solve the matrix game of this spot: the compact sets, then up to
    `oracle_rounds` rounds of double oracle (RULING AS5): each side's best reply to the other's
    mix (the best of his set and `oracle_pool` further legal orders, a fixed seeded draw, then
    `oracle_steps` steps of hill climbing one CF at a time) joins his set and the
    game is solved again, until neither reply gains more than `ORACLE_TOLERANCE`."""
    other = state.opponent(seat).seat
    theirs = opponent_decision(ruleset, state, other)
    tactician = TacticianBot()

    def own(s: str, d: Distribute) -> list[str]:
        if not d.slots:
            return []
        return [tactician.choose(ruleset, state, s, d, random.Random(_TACTICIAN_SEED))]

    model = PhaseModel(state, seat, value)
    rows = [model.prepare(0, t) for t in strategy_set(decision, own(seat, decision))]
    col_texts = strategy_set(theirs, own(other, theirs)) if theirs.slots else ["-"]
    cols = [model.prepare(1, t) for t in col_texts]
    m = model.matrix(rows, cols)
    x, y, v = solve_matrix_game(m)
    pools: list[list[Prepared]] = []
    for side, d, mine in ((0, decision, rows), (1, theirs, cols)):
        texts = d.candidates(random.Random(_ORACLE_SEED), oracle_pool) if d.slots else []
        pools.append([*mine, *(model.prepare(side, t) for t in texts)])
    limits = (Limits.of(decision), Limits.of(theirs))
    for _ in range(oracle_rounds):
        grew = False
        if pools[1]:
            b, u = best_reply(model, 1, x, rows, pools[1], limits[1], oracle_steps)
            if u < v - ORACLE_TOLERANCE and b.text not in {c.text for c in cols}:
                cols.append(b)
                m = np.hstack([m, np.array([[model.payoff(r, b)] for r in rows])])
                grew = True
        if pools[0]:
            a, u = best_reply(model, 0, y, cols, pools[0], limits[0], oracle_steps)
            if u > v + ORACLE_TOLERANCE and a.text not in {r.text for r in rows}:
                rows.append(a)
                m = np.vstack([m, np.array([[model.payoff(a, c) for c in cols]])])
                grew = True
        if not grew:
            break
        x, y, v = solve_matrix_game(m)
    return AllocationGame(model, [r.text for r in rows], [c.text for c in cols], m, x, y, v)


def solve_allocation(
    ruleset: Ruleset[Any],
    state: ColosseumState,
    seat: str,
    decision: Distribute,
    *,
    value: PositionValue = DEFAULT_VALUE,
) -> tuple[list[str], list[float]]:
    """The seat's equilibrium mix for this allocation: legal orders and their probabilities
    (those above 1e-9, summing to 1)."""
    game = allocation_game(ruleset, state, seat, decision, value=value)
    keep = [(t, float(p)) for t, p in zip(game.rows, game.x, strict=True) if p > 1e-9]
    total = sum(p for _, p in keep)
    return [t for t, _ in keep], [p / total for _, p in keep]
