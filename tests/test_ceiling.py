"""The clairvoyant's ceiling (issue #12, sim/ceiling.py): its reply to a known §9.3 allocation,
the study's tallies, and the command's refusal of an opponent it does not play."""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

from gladiator.bots.colosseum_tactician import TacticianBot
from gladiator.cli.main import app
from gladiator.registry import get
from gladiator.sim.ceiling import clairvoyant_reply, run
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


def test_the_study_tallies_both_arms_and_every_seed() -> None:
    result = run(2, 5, "tactician")
    for arm in ("baseline", "clairvoyant"):
        a = result[arm]
        assert a["matches"] == 4
        assert a["wins"] + a["losses"] + a["draws"] == 4
        assert a["win_rate_wilson95"][0] <= a["win_rate"] <= a["win_rate_wilson95"][1]
    assert sum(result["baseline_seeds"].values()) == 2
    assert 0 <= result["splits_named_by_opening_value"] <= result["baseline_seeds"]["split"]
    assert result["clairvoyant_gain"] == pytest.approx(
        result["clairvoyant"]["win_rate"] - result["baseline"]["win_rate"]
    )


def test_the_command_refuses_an_opponent_it_does_not_play() -> None:
    result = CliRunner().invoke(app, ["ceiling", "--pairs", "1", "--against", "lion"])
    assert result.exit_code == 2
    assert "give centurion or tactician" in result.output
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
