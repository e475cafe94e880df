"""The matrix-game solver (bots.allocation_solver) on textbook games, and the solver's entry
point on Colosseum allocation spots."""

from __future__ import annotations

import numpy as np
import pytest

from gladiator.bots.allocation_solver import allocation_game, solve_allocation, solve_matrix_game
from gladiator.registry import get
from solver_spots import spots


def test_matching_pennies() -> None:
    x, y, v = solve_matrix_game(np.array([[1.0, -1.0], [-1.0, 1.0]]))
    assert x == pytest.approx([0.5, 0.5], abs=1e-7)
    assert y == pytest.approx([0.5, 0.5], abs=1e-7)
    assert v == pytest.approx(0.0, abs=1e-9)


def test_rock_paper_scissors() -> None:
    m = np.array([[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]])
    x, y, v = solve_matrix_game(m)
    assert x == pytest.approx([1 / 3] * 3, abs=1e-7)
    assert y == pytest.approx([1 / 3] * 3, abs=1e-7)
    assert v == pytest.approx(0.0, abs=1e-9)


def test_dominated_strategy_gets_no_weight() -> None:
    # Row 3 is strictly dominated by row 1; the rest is a 2x2 game with x = (3/7, 4/7),
    # y = (2/7, 5/7), value 1/7.
    m = np.array([[3.0, -1.0], [-2.0, 1.0], [2.0, -2.0]])
    x, y, v = solve_matrix_game(m)
    assert x == pytest.approx([3 / 7, 4 / 7, 0.0], abs=1e-7)
    assert y == pytest.approx([2 / 7, 5 / 7], abs=1e-7)
    assert v == pytest.approx(1 / 7, abs=1e-9)


def test_saddle_point_is_pure() -> None:
    x, y, v = solve_matrix_game(np.array([[4.0, 2.0], [3.0, 1.0]]))
    assert x == pytest.approx([1.0, 0.0], abs=1e-7)
    assert y == pytest.approx([0.0, 1.0], abs=1e-7)
    assert v == pytest.approx(2.0)


@pytest.fixture(scope="module")
def spot():  # type: ignore[no-untyped-def]
    return spots(5, 3)[1]


def test_solve_allocation_gives_a_legal_mix(spot) -> None:  # type: ignore[no-untyped-def]
    state, seat, decision = spot
    orders, probabilities = solve_allocation(get("colosseum"), state, seat, decision)
    assert orders and len(orders) == len(probabilities)
    assert sum(probabilities) == pytest.approx(1.0)
    assert all(p > 0 for p in probabilities)
    for order in orders:
        assert decision.validate(order) == order


def test_equilibrium_holds_on_the_final_sets(spot) -> None:  # type: ignore[no-untyped-def]
    """No column of the final game gains against the row mix, nor a row against the column
    mix: the LP's optimality on the matrix the solver built."""
    state, seat, decision = spot
    game = allocation_game(get("colosseum"), state, seat, decision)
    assert (game.x @ game.matrix).min() >= game.value - 1e-7
    assert (game.matrix @ game.y).max() <= game.value + 1e-7
    assert game.rows[0] != game.rows[-1] or len(game.rows) == 1
