"""§27 team combat with big sides (§30.2.1.1: Three Pairs, Battle's 2D3 a side; rulings G1,
G15-G17): twelve seats, the starting lines, counters past twelve, map letters and colours, and
whole 3 v 3 and 6 v 6 matches played to the end by bots that replay exactly."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from colosseum_helpers import RULES
from gladiator.bots.random_legal import RandomBot
from gladiator.core.dice import Dice
from gladiator.core.hexgrid import distance, rectangle
from gladiator.core.match import Match
from gladiator.core.record import MatchRecord
from gladiator.rules.colosseum.arena.board import board_of
from gladiator.rules.colosseum.combat.orders import AllocationChoice
from gladiator.rules.colosseum.presentation.team_presentation import letter
from gladiator.rules.colosseum.state import ColosseumState
from gladiator.rules.colosseum.teams import ALL_SEATS, parse_teams, team_starting_positions
from gladiator.sim.runner import play_match

THREES = "red+green+white:blue+gold+black"
SIXES = "red+green+white+purple+orange+grey:blue+gold+black+silver+brown+pink"
STATIC = Path(__file__).resolve().parents[1] / "src" / "gladiator" / "web" / "static"


def _state(teams: str, seed: int = 1, **extra: Any) -> ColosseumState:
    opts = RULES.normalise_options({"advanced": True, "teams": teams, **extra})
    state, _ = RULES.initial_state(opts, Dice(seed))
    return state


# -- G1: the option ------------------------------------------------------------------------------
def test_s30_2_1_1_three_pairs_and_a_battle_of_six_a_side_are_accepted() -> None:
    opts = RULES.normalise_options({"advanced": True, "teams": SIXES})
    assert RULES.seats(opts) == ALL_SEATS
    assert len(opts["styles"]) == len(opts["gladiators"]) == 12
    three = RULES.normalise_options({"advanced": True, "teams": THREES})
    assert RULES.seats(three) == ("red", "blue", "green", "gold", "white", "black")
    # The first four keep their table order, so every recorded 3- and 4-seat match replays.
    assert ALL_SEATS[:4] == ("red", "blue", "green", "gold")


@pytest.mark.parametrize(
    ("teams", "want"),
    [
        ("red+green+gold+white+black+purple+silver:blue", "at most 6 gladiators a side"),
        ("red+green+white:blue+gold+purple", "uses the seats red, blue, green, gold, white, black"),
        ("red+green+white:blue+gold+violet", "no seat 'violet'"),
        ("red+green+white+white:blue+gold", "each seat on one side, once"),
    ],
)
def test_s30_2_1_1_bad_big_teams_are_refused_in_one_line(teams: str, want: str) -> None:
    with pytest.raises(ValueError, match=want) as exc:
        RULES.normalise_options({"advanced": True, "teams": teams})
    assert "\n" not in str(exc.value)


def test_s27_uneven_sides_two_on_one_and_five_on_three() -> None:
    assert parse_teams("red:blue+green") == (("red",), ("blue", "green"))
    state = _state("red+green+white+purple+silver:blue+gold+black")
    assert len(state.gladiators) == 8
    assert [len(s.split("+")) for s in str(state.options["teams"]).split(":")] == [5, 3]


# -- G2, G15: the starting lines -----------------------------------------------------------------
def test_s4_5_six_a_side_lines_face_each_other_and_keep_the_first_places() -> None:
    state = _state(SIXES)
    g = state.gladiators
    board = board_of(state)
    sides = parse_teams(SIXES)
    assert all(x.hex in board for x in g.values())
    assert len({x.hex for x in g.values()}) == 12
    for mine, theirs in zip(sides[0], sides[1], strict=True):
        assert g[mine].facing == 0 and g[theirs].facing == 3
        assert distance(g[mine].hex, g[theirs].hex) == 5  # straight across, four empty between
    for side in sides:  # teammates two hexes apart along the line, never touching
        hexes = [g[s].hex for s in side]
        assert min(distance(a, b) for i, a in enumerate(hexes) for b in hexes[i + 1 :]) == 2
    # G15 probe: the first three men of a side stand exactly where a 2- or 3-man side stood.
    small = _state("red+green:blue+gold").gladiators
    three = _state(THREES).gladiators
    for seat in ("red", "green", "blue", "gold"):
        assert g[seat].pose == small[seat].pose == three[seat].pose
    assert g["white"].pose == three["white"].pose


def test_s4_5_a_board_too_small_for_the_lines_is_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="too small for the team's starting lines") as exc:
        team_starting_positions(rectangle(8, 8), parse_teams(SIXES))
    assert "\n" not in str(exc.value)
    # The smallest board the options allow still holds six a side (G15).
    state = _state(SIXES, board_width=12, board_height=12)
    assert all(x.hex in board_of(state) for x in state.gladiators.values())


# -- G16: counters ------------------------------------------------------------------------------
def test_s3_2_more_than_four_of_a_class_get_numbers_past_twelve() -> None:
    state = _state(SIXES, gladiators=["heavy"] * 12, styles=["standard"] * 12)
    ids = [x.sheet.id for x in state.gladiators.values()]
    assert ids[:4] == [9, 10, 11, 12]  # the box's heavy counters first (§3.2)
    assert ids[4:] == list(range(13, 21))
    assert len(set(ids)) == 12


# -- G17: presentation ---------------------------------------------------------------------------
def test_s27_twelve_seats_have_twelve_map_letters_and_colours() -> None:
    letters = [letter(s) for s in ALL_SEATS]
    assert len(set(letters)) == 12
    assert not set(letters) & {"w", "n", "o"}  # a weapon, a net, another item on the map
    assert letters[:4] == ["r", "b", "g", "y"]  # as ever
    state = _state(SIXES)
    text = RULES.render_text(state, None)
    board_text = text.split("\n\n")[1]
    for seat in ALL_SEATS:
        assert letter(seat).upper() in board_text
    assert f"sides: {SIXES.replace(':', ' v ')}" in text
    scene = RULES.scene(state, "pink")
    assert {f["seat"] for f in scene["figures"]} == set(ALL_SEATS)
    json.dumps(scene)
    palette = (STATIC / "hexsvg.js").read_text("utf-8")
    colours = dict(re.findall(r'^\s+(\w+): "(#[0-9a-f]{6})",$', palette, re.M))
    assert set(ALL_SEATS) <= set(colours)
    assert len({colours[s] for s in ALL_SEATS}) == 12


# -- whole matches (§27.7) -----------------------------------------------------------------------
def _check(state: ColosseumState, pending: dict[str, Any]) -> None:
    """What no state of a team match may break."""
    board = board_of(state)
    standing = [g for g in state.gladiators.values() if g.alive]
    assert all(g.hex in board for g in standing)
    assert len({g.hex for g in standing}) == len(standing)  # one man a hex (§8)
    assert not set(state.gladiators) & set(state.fallen)
    for seat, d in pending.items():
        assert seat in state.gladiators
        if (
            isinstance(d, AllocationChoice) and d.named
        ):  # G9: targets are opponents, never teammates
            assert all(state.side(t) != state.side(seat) for t in d.targets)
            assert set(d.targets) <= set(state.gladiators)


def _play(teams: str, seed: int, **extra: Any) -> Match:
    m = Match(RULES, {"advanced": True, "teams": teams, **extra}, seed=seed, nonce="n")
    bot, rng = RandomBot(), random.Random(seed)
    while not m.finished:
        pending = dict(m.pending())
        _check(m.state, pending)
        m.apply_step({s: bot.choose(RULES, m.state, s, d, rng) for s, d in pending.items()})
    return m


def _ended_and_replays(m: Match, teams: str) -> None:
    outcome = m.outcome
    assert outcome is not None
    sides = [tuple(s.split("+")) for s in teams.split(":")]
    assert outcome.winners in ((), *sides)
    if outcome.method not in ("stans missus", "time") and outcome.winners:
        loser = sides[1] if outcome.winners == sides[0] else sides[0]
        assert all(s in m.state.fallen for s in loser)  # §27.7.2: nobody of his side is left
    again = Match.replay(MatchRecord.from_json(m.record().to_json()), RULES)
    assert RULES.state_hash(again.state) == RULES.state_hash(m.state)


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_s27_7_2_three_a_side_played_to_the_end_replays(seed: int) -> None:
    m = _play(THREES, seed, max_turns=8)
    _ended_and_replays(m, THREES)


@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_s30_2_1_1_battle_six_a_side_played_to_the_end_replays(seed: int) -> None:
    m = _play(SIXES, seed, max_turns=6)
    _ended_and_replays(m, SIXES)


def test_s27_7_1_a_battle_on_time_counts_the_men_standing() -> None:
    m = _play(SIXES, 3, team_end="time", team_turns=1)
    assert m.outcome is not None and m.state.turn == 1


@pytest.mark.parametrize("bot", ["tactician", "centurion"])
def test_s27_one_opponent_bots_fight_a_battle(bot: str) -> None:
    summary = play_match(
        "colosseum", {"advanced": True, "teams": SIXES, "max_turns": 2}, 5, [bot], checked=True
    )
    assert summary.method
