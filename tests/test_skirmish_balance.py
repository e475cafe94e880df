"""Balance of the designed skirmish tables (docs/skirmish-design.md, design goal 3): the
one-exchange move-versus-move game of `gladiator.rules.skirmish.analysis`, its equilibrium by
regret matching, and the two experiment bots of `gladiator.bots.fixed_mix`."""

from __future__ import annotations

import random
from typing import Any

import pytest

from gladiator.bots.fixed_mix import FixedBot, MixedBot
from gladiator.core.decisions import ChooseOne, Option, PickHex
from gladiator.core.hexgrid import Hex
from gladiator.registry import get
from gladiator.rules.skirmish import analysis

TOL = 1e-3


@pytest.fixture(scope="module")
def rep() -> dict[str, Any]:
    return analysis.report()


# -- the game ------------------------------------------------------------------------------------
def test_the_moves_are_those_a_fresh_standing_thracian_may_write(rep: dict[str, Any]) -> None:
    assert rep["moves"] == ["SL", "CU", "LU", "SS", "KI", "PA", "SH", "ST", "RU", "RE", "SP"]


def test_the_payoff_matrix_is_square_with_zero_diagonal(rep: dict[str, Any]) -> None:
    """The game is between two identical Thracians: a move against itself is worth nothing."""
    p = rep["payoff"]
    assert all(len(row) == len(p) for row in p)
    assert all(abs(p[i][i]) < 1e-12 for i in range(len(p)))


def test_cells_follow_the_matrix_and_the_zones(rep: dict[str, Any]) -> None:
    p = rep["payoff"]
    at = {m: i for i, m in enumerate(rep["moves"])}
    # The shield stops the slash (a miss) and deals nothing back: nothing changes hands.
    assert p[at["SH"]][at["SL"]] == 0
    # Smash and kick cannot reach a retiring man ("-"), first or second.
    assert p[at["RE"]][at["SS"]] == 0
    assert p[at["RE"]][at["KI"]] == 0
    # Guards and moves deal nothing, so among themselves nothing happens.
    for a in ("PA", "SH", "ST", "RU", "RE", "SP"):
        for b in ("PA", "SH", "ST", "RU", "RE", "SP"):
            assert p[at[a]][at[b]] == 0
    # Every attack that the matrix lets through gains against a man who only stands.
    for a in ("SL", "CU", "LU", "SS", "KI"):
        assert p[at[a]][at["ST"]] > 0


def test_result_rows_are_distributions() -> None:
    for e in "EFD":
        for s in "LMS":
            for prot in "UPAH":
                assert sum(analysis.result_distribution(e + s + prot).values()) == pytest.approx(1)


def test_first_probability() -> None:
    assert analysis.first_probability(2, 2) == pytest.approx(0.5)
    for a in range(5):
        for b in range(5):
            both = analysis.first_probability(a, b) + analysis.first_probability(b, a)
            assert both == pytest.approx(1)
    # +3 against +0: he loses only when the other's die beats his by 4 or more (3 of 36), or by
    # exactly 3 (3 of 36), where the tie goes to the higher die, the other's.
    assert analysis.first_probability(3, 0) == pytest.approx(30 / 36)
    # A higher basic initiative wins the ties (§4.2.3).
    assert analysis.first_probability(0, 0, 6, 5) > analysis.first_probability(1, 0, 5, 5)


def test_the_stun_value_is_the_value_of_the_stunned_exchange(rep: dict[str, Any]) -> None:
    assert rep["stun_value"] > 0
    assert rep["stunned"]["value"] == pytest.approx(rep["stun_value"], abs=2 * TOL)
    assert set(rep["stunned"]["stunned_mix"]) <= {"PA", "SH", "ST", "RE", "SP"}


# -- the solver ----------------------------------------------------------------------------------
def test_regret_matching_solves_rock_paper_scissors() -> None:
    rps = [[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]]
    mix, value, gap = analysis.solve(rps, iterations=5_000)
    assert mix == pytest.approx([1 / 3] * 3, abs=TOL)
    assert value == pytest.approx(0, abs=TOL)
    assert gap < TOL


def test_regret_matching_solves_a_game_with_a_value() -> None:
    # Row mixes 2/5, 3/5; the value is 1/5.
    mix, value, gap = analysis.solve([[2.0, -1.0], [-1.0, 1.0]], iterations=5_000)
    assert mix == pytest.approx([0.4, 0.6], abs=TOL)
    assert value == pytest.approx(0.2, abs=TOL)
    assert gap < TOL


def test_best_response_gap_of_a_pure_strategy() -> None:
    rps = [[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]]
    # Always rock: paper gains 1 against it, from both sides.
    assert analysis.best_response_gap(rps, [1.0, 0.0, 0.0]) == pytest.approx(2)
    assert analysis.best_response_gap(rps, [1 / 3] * 3) == pytest.approx(0)


def test_regret_matching_converges_on_the_exchange(rep: dict[str, Any]) -> None:
    assert rep["exploitability"] < TOL
    assert rep["value"] == pytest.approx(0, abs=TOL)  # a symmetric zero-sum game
    assert sum(rep["mix"].values()) == pytest.approx(1)


def test_no_pure_move_beats_the_equilibrium_mix(rep: dict[str, Any]) -> None:
    assert max(rep["against_mix"].values()) <= TOL
    for move in rep["support"]:
        assert rep["against_mix"][move] == pytest.approx(0, abs=TOL)


def test_the_equilibrium_is_broad(rep: dict[str, Any]) -> None:
    assert len(rep["support"]) >= 4
    assert max(rep["mix"].values()) <= 0.5


# -- the bots ------------------------------------------------------------------------------------
def _choice(*texts: str) -> ChooseOne:
    return ChooseOne(prompt="pick", options=tuple(Option(t) for t in texts))


RULES = get("skirmish")


def test_fixed_bot_plays_its_first_legal_preference() -> None:
    rng = random.Random(1)
    bot = FixedBot(["LU", "CU", "FIRST", "KEEP"])
    assert bot.choose(RULES, None, "red", _choice("SL", "CU", "LU", "PA"), rng) == "LU"
    assert bot.choose(RULES, None, "red", _choice("SL", "CU", "PA"), rng) == "CU"
    assert bot.choose(RULES, None, "red", _choice("FIRST", "SECOND"), rng) == "FIRST"
    # Nothing preferred is legal: the first legal order.
    assert bot.choose(RULES, None, "red", _choice("PA", "SH", "ST"), rng) == "PA"
    hexes = PickHex(prompt="where", hexes=(Hex(1, 0), Hex(0, 1)))
    assert bot.choose(RULES, None, "red", hexes, rng) == "1,0"
    assert FixedBot(["0,1"]).choose(RULES, None, "red", hexes, rng) == "0,1"


def test_mixed_bot_draws_legal_orders_by_weight() -> None:
    rng = random.Random(7)
    bot = MixedBot({"SL": 1.0, "LU": 3.0, "PA": 0.0, "XX": 5.0})
    d = _choice("SL", "CU", "LU", "PA")
    draws = [bot.choose(RULES, None, "red", d, rng) for _ in range(4000)]
    assert set(draws) == {"SL", "LU"}  # weightless orders never, unknown names ignored
    assert draws.count("LU") / len(draws) == pytest.approx(0.75, abs=0.03)
    # Only weightless orders are legal: uniform among them.
    d = _choice("CU", "PA", "SH")
    draws = [bot.choose(RULES, None, "red", d, rng) for _ in range(3000)]
    for t in ("CU", "PA", "SH"):
        assert draws.count(t) / len(draws) == pytest.approx(1 / 3, abs=0.04)
    # A decision without weights of its kind (a hex) is drawn uniformly too.
    hexes = PickHex(prompt="where", hexes=(Hex(1, 0), Hex(0, 1)))
    assert bot.choose(RULES, None, "red", hexes, rng) in {"1,0", "0,1"}


def test_mixed_bot_repeats_with_the_same_rng() -> None:
    bot = MixedBot({"SL": 1.0, "CU": 1.0, "LU": 1.0})
    d = _choice("SL", "CU", "LU")
    a = [bot.choose(RULES, None, "red", d, random.Random(3)) for _ in range(5)]
    b = [bot.choose(RULES, None, "red", d, random.Random(3)) for _ in range(5)]
    assert a == b


def test_mixed_bot_refuses_negative_weights() -> None:
    with pytest.raises(ValueError, match="negative"):
        MixedBot({"SL": -1.0})


def test_bots_give_legal_orders_in_a_skirmish_match() -> None:
    from gladiator.core.match import Match

    for seed in range(3):
        m = Match(RULES, {"start": "engaged"}, seed=seed, nonce="test")
        weights = {"SL": 1.0, "CU": 1.0, "LU": 1.0, "SS": 1.0, "KI": 1.0, "FIRST": 1.0}
        players = {
            m.seats[0]: FixedBot(["SL", "SH", "FIRST", "KEEP"]),
            m.seats[1]: MixedBot(weights),
        }
        rng = random.Random(seed)
        while not m.finished:
            pending = m.pending()
            orders = {s: players[s].choose(RULES, m.state, s, d, rng) for s, d in pending.items()}
            for s, o in orders.items():
                assert pending[s].validate(o) == o
            m.apply_step(orders)


def test_mixed_bot_with_plans_only_mixes_secret_decisions_and_carries_them_out() -> None:
    """`plans_only`: weights pick the secret written move; open decisions take the first legal
    order (perform as written, go first, keep facing)."""
    import random as _random

    from gladiator.bots.fixed_mix import MixedBot
    from gladiator.core.decisions import ChooseOne, Option

    bot = MixedBot({"B": 1.0}, plans_only=True)
    secret = ChooseOne(prompt="write", secret=True, options=(Option("A"), Option("B")))
    open_ = ChooseOne(prompt="act", options=(Option("A"), Option("B")))
    rng = _random.Random(0)
    assert {bot.choose(None, None, "red", secret, rng) for _ in range(20)} == {"B"}  # type: ignore[arg-type]
    assert {bot.choose(None, None, "red", open_, rng) for _ in range(20)} == {"A"}  # type: ignore[arg-type]
