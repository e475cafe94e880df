"""The clairvoyant's ceiling (issue #12, sim/ceiling.py): its reply to a known §9.3 allocation,
the study's tallies, and the command's refusal of an opponent it does not play."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gladiator.bots.tactician.bot import TacticianBot
from gladiator.cli.main import app
from gladiator.registry import get
from gladiator.sim.ceiling import _sign_test, clairvoyant_reply, pattern, play, run
from solver_spots import spots

_SPOTS = [s for seed in (1, 2, 3) for s in spots(seed, 2)]


@pytest.mark.parametrize("index", range(len(_SPOTS)))
def test_the_reply_to_a_known_allocation_beats_the_tacticians_order(index: int) -> None:
    """§9.3: against the allocation he really wrote, the clairvoyant's order is legal and worth
    at least what the tactician's own order is worth against it (it is in the reply's pool)."""
    rules = get("colosseum")
    state, seat, decision = _SPOTS[index]
    other = state.opponent(seat).seat
    theirs = rules.pending(state)[other]
    tactician = TacticianBot()
    written = tactician.choose(rules, state, other, theirs, random.Random(1))
    mine = tactician.choose(rules, state, seat, decision, random.Random(2))
    reply, gain, baseline = clairvoyant_reply(state, seat, decision, written, mine)
    assert decision.validate(reply) == reply
    assert gain >= baseline - 1e-12


@pytest.mark.parametrize(
    ("red", "blue", "kind", "sheet"),
    [
        ("win", "win", "won_both", None),
        ("loss", "loss", "lost_both", None),
        # Won as red, lost as blue: the red sheet won both matches, whoever ran it.
        ("win", "loss", "split", "red"),
        ("loss", "win", "split", "blue"),
        ("draw", "win", "with_a_draw", None),
        ("loss", "draw", "with_a_draw", None),
    ],
)
def test_a_seeds_pattern_names_the_sheet_that_won_both(
    red: str, blue: str, kind: str, sheet: str | None
) -> None:
    assert pattern(red, blue) == (kind, sheet)


def test_the_sign_test() -> None:
    assert _sign_test(0, 0) == 1.0
    assert _sign_test(5, 5) == 1.0
    assert _sign_test(10, 0) == pytest.approx(2 / 2**10)
    assert _sign_test(9, 1) == pytest.approx(2 * 11 / 2**10)


def test_the_clairvoyant_acts_and_the_baseline_does_not() -> None:
    seed = 11
    plain = play(seed, "red", "tactician", clairvoyant=False)
    seeing = play(seed, "red", "tactician", clairvoyant=True)
    assert (plain.replies, plain.changed) == (0, 0)
    assert seeing.replies > 0
    assert 0 < seeing.changed <= seeing.replies


def test_the_study_tallies_both_arms_and_every_seed() -> None:
    result = run(3, 5, "tactician")
    for arm in ("baseline", "clairvoyant"):
        a = result[arm]
        assert a["matches"] == 6
        assert a["wins"] + a["losses"] + a["draws"] == 6
        assert a["win_rate_wilson95"][0] <= a["win_rate"] <= a["win_rate_wilson95"][1]
        assert sum(a["seeds"].values()) == 3
        split = a["seeds"]["split"]
        assert a["splits_named_by_opening_value"] + a["splits_with_an_even_opening"] <= split
    assert result["baseline"]["replies"] == 0 < result["clairvoyant"]["replies"]
    paired = result["paired"]
    assert paired["turned_to_win"] + paired["turned_from_win"] <= paired["results_moved"] <= 6
    assert result["clairvoyant_gain"] == pytest.approx(
        result["clairvoyant"]["win_rate"] - result["baseline"]["win_rate"], abs=1e-4
    )


def test_the_command_refuses_an_opponent_it_does_not_play() -> None:
    result = CliRunner().invoke(app, ["ceiling", "--pairs", "1", "--against", "lion"])
    assert result.exit_code == 2
    words = " ".join(w for w in result.output.split() if w != "│")
    assert "'lion' is not one of 'centurion', 'tactician'" in words
    assert "Traceback" not in result.output


def test_seeing_his_allocation_is_worth_something_somewhere() -> None:
    """Over the spots, the reply gains on the tactician's order at least once (else the study
    would measure nothing)."""
    rules = get("colosseum")
    tactician = TacticianBot()
    gains = []
    for state, seat, decision in _SPOTS:
        other = state.opponent(seat).seat
        written = tactician.choose(
            rules, state, other, rules.pending(state)[other], random.Random(1)
        )
        mine = tactician.choose(rules, state, seat, decision, random.Random(2))
        _, gain, baseline = clairvoyant_reply(state, seat, decision, written, mine)
        gains.append(gain - baseline)
    assert max(gains) > 1e-6


def test_the_command_refuses_a_folder_for_out_before_playing(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["ceiling", "--pairs", "10000", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "that is a folder" in result.output
