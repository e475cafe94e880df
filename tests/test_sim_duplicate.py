"""Duplicate matches (sim/duplicate.py, issue 38): each deal played twice with the bots swapping
seats and scored as a pair; the Colosseum's mirror option (DM1) makes the two sides twins."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from gladiator.cli.main import app
from gladiator.core.dice import Dice
from gladiator.registry import get
from gladiator.sim.duplicate import pair_scores
from gladiator.sim.runner import MatchSummary, match_seed, run_batch, seat_bots, seat_options


def _summary(index: int, winners: tuple[str, ...]) -> MatchSummary:
    labels = {"red": "medium", "blue": "heavy"}
    return MatchSummary(index, 7, winners, "killed", labels, 10, 2, 40)


def test_a_deal_is_two_matches_on_one_seed_with_the_bots_swapped() -> None:
    assert match_seed(3, 0, True) == match_seed(3, 1, True) != match_seed(3, 2, True)
    assert match_seed(3, 0) != match_seed(3, 1)  # without duplicate, a seed per match
    assert seat_bots(["a", "b"], 0, True) == ["a", "b"]
    assert seat_bots(["a", "b"], 1, True) == ["b", "a"]
    assert seat_bots(["a", "b"], 1) == ["a", "b"]


def test_a_pair_scores_1_for_both_a_half_for_a_split_0_for_neither() -> None:
    """Deal 0: red won both (a's red, then b's red): a split the sheets decided. Deal 1: a won
    both (red, then blue). Deal 2: a red draw, then b won as red: a took 1/4."""
    results = [
        _summary(0, ("red",)),
        _summary(1, ("red",)),
        _summary(2, ("red",)),
        _summary(3, ("blue",)),
        _summary(4, ()),
        _summary(5, ("red",)),
    ]
    a, b = pair_scores(results, ["a", "b"])
    assert (a.bot, a.pairs, a.both, a.split, a.lost, a.decided) == ("a", 3, 1, 1, 0, 1)
    assert a.score == (0.5 + 1.0 + 0.25) / 3
    assert abs(b.score - (1 - a.score)) < 1e-12 and b.lost == 1
    lo, hi = a.ci95
    assert lo < a.score < hi


def test_a_half_played_deal_is_left_out_of_the_pairs() -> None:
    (a, _) = pair_scores([_summary(0, ("red",)), _summary(1, ("blue",)), _summary(2, ())], "ab")
    assert a.pairs == 1 and a.score == 1.0


def test_a_centurions_solitaire_seat_follows_it_to_the_other_side() -> None:
    """§29: the centurion plots after the others; swapped to red, red is the solitaire seat."""
    opts = {"solitaire": ["blue"]}
    seats = ["red", "blue"]
    assert seat_options(opts, seats, ["tactician", "centurion"], 0, True)["solitaire"] == ["blue"]
    assert seat_options(opts, seats, ["tactician", "centurion"], 1, True)["solitaire"] == ["red"]


def test_a_duplicate_batch_plays_each_sheet_from_both_seats() -> None:
    """The two matches of a deal roll the same log sheets (the same labels by seat)."""
    results = run_batch("colosseum", {}, 4, 5, ["random", "tactician"], duplicate=True)
    assert [r.seed for r in results[:2]] == [results[0].seed] * 2
    assert results[0].labels == results[1].labels
    assert results[2].seed != results[0].seed


def test_sim_duplicate_prints_the_pair_scores_and_refuses_an_odd_batch() -> None:
    runner = CliRunner()
    args = ["sim", "colosseum", "--matches", "4", "--bots", "random,tactician", "--json"]
    out = runner.invoke(app, [*args, "--duplicate"])
    assert out.exit_code == 0, out.output
    pairs = json.loads(out.output)["pairs"]
    assert [p["bot"] for p in pairs] == ["random", "tactician"] and pairs[0]["pairs"] == 2
    odd = runner.invoke(app, ["sim", "colosseum", "--matches", "3", "--duplicate"])
    assert odd.exit_code != 0 and "even --matches" in odd.output
    assert "Traceback" not in odd.output


def test_dm1_mirror_makes_the_second_side_the_first_sides_twins() -> None:
    rules = get("colosseum")
    for extra in ({}, {"advanced": True}, {"advanced": True, "teams": "red+green:blue+gold"}):
        state, _ = rules.initial_state(rules.normalise_options({"mirror": True, **extra}), Dice(5))
        g = state.gladiators
        pairs = [("red", "blue")] + ([("green", "gold")] if "teams" in extra else [])
        for one, twin in pairs:
            a, b = g[one], g[twin]
            assert a.sheet.model_dump(exclude={"id", "name"}) == b.sheet.model_dump(
                exclude={"id", "name"}
            )
            assert (a.style, a.weapons, a.net) == (b.style, b.weapons, b.net)
            assert a.hex != b.hex and a.sheet.id != b.sheet.id


def test_dm1_mirror_is_refused_with_beasts() -> None:
    rules = get("colosseum")
    try:
        rules.normalise_options({"advanced": True, "beasts": "blue:lion", "mirror": True})
    except ValueError as exc:
        assert "DM1" in str(exc)
    else:
        raise AssertionError("mirror with a beast was accepted")


def test_dm2_a_ladder_pairing_is_scored_by_deal_too() -> None:
    """The ladder's games 2k and 2k + 1 share a seed with the seats swapped: a won then lost
    (the seat decided), won twice, drew twice."""
    from gladiator.sim.ladder_report import _duplicate

    d = _duplicate([1.0, 0.0, 1.0, 1.0, 0.5, 0.5])
    assert (d["pairs"], d["a_won_both"], d["split"], d["a_lost_both"]) == (3, 1, 2, 0)
    assert d["decided_by_the_deal"] == 1 and d["a_score"] == 2 / 3
