"""The Colosseum Basic Game's phase plot (§7.2): notation, legal plots, movement phases, paths.

Each test names the rule section (shared/rules/colosseum.md Part 2 §5.2, §7, §14-§17, T39) or
question (Part 5: Q3, Q24) it checks; the RULINGS in plots.py's, plot_legality.py's and
plot_actions.py's docstrings are cited as R1...R18.
The plot counts are kept like chess perft, with the arithmetic beside each number.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gladiator.core.hexgrid import Hex, Relation, neighbor_at, turn
from gladiator.rules.colosseum.plots.plot_actions import action_codes
from gladiator.rules.colosseum.plots.plot_legality import PlotStatus, exceeds_rate, legal_plots
from gladiator.rules.colosseum.plots.plots import (
    EMPTY,
    PhasePlot,
    PlotError,
    Pose,
    format_plot,
    parse_plot,
    path,
    uses_movement_phase,
)

ORIGIN = Hex(3, -2)
MOVEMENT = ("F", "B", "SFL", "SFR", "SBL", "SBR")

statuses = st.builds(
    PlotStatus,
    move_rate=st.integers(0, 8),
    moves_used=st.integers(0, 9),
    posture=st.sampled_from(("standing", "kneeling", "prone")),
    must_stumble=st.booleans(),
    can_recover=st.booleans(),
    unconscious=st.booleans(),
    lmp=st.integers(0, 3),
    exceeded_last_turn=st.booleans(),
)


def texts(plots: list[PhasePlot]) -> list[str]:
    return [format_plot(p) for p in plots]


# --- §7.2, §7.2.2: the notation -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical", "actions", "turns"),
    [
        ("F F(R)", "F F(R)", ("F", "F"), (0, 0, 1)),
        ("(L)SFL", "(L)SFL", ("SFL",), (-1, 0)),
        ("F(R) F", "F(R) F", ("F", "F"), (0, 1, 0)),
        ("F (R)F", "F(R) F", ("F", "F"), (0, 1, 0)),  # R2: a gap goes to the earlier action
        ("ff(r)", "F F(R)", ("F", "F"), (0, 0, 1)),  # case-insensitive, spaces optional
        ("F(2R)F", "F(R) (R)F", ("F", "F"), (0, 2, 0)),  # R1: each F turns one hex-side
        ("(L)F (R)F", "(L)F (R)F", ("F", "F"), (-1, 1, 0)),
        ("B(R)F", "B (R)F", ("B", "F"), (0, 1, 0)),  # B cannot turn, so the gap is F's
        ("sblsbr", "SBL SBR", ("SBL", "SBR"), (0, 0, 0)),
        ("C", "C", ("C",), (0, 0)),
        ("KN", "KN", ("KN",), (0, 0)),
        ("(R)KN", "KN(R)", ("KN",), (0, 1)),  # R5
        ("r(l)", "R(L)", ("R",), (0, -1)),
        ("RO-FL", "RO-FL", ("RO-FL",), (0, 0)),
        ("robr", "RO-BR", ("RO-BR",), (0, 0)),
        ("S(L)", "S(L)", ("S",), (0, -1)),
        ("X(3R)", "X(3R)", ("X",), (0, 3)),
        ("X(3L)", "X(3R)", ("X",), (0, 3)),  # R4: the same about-face
        ("(2L)X", "X(2L)", ("X",), (0, -2)),
        ("X(R)(R)", "X(2R)", ("X",), (0, 2)),
        ("-", "-", (), (0,)),
        ("", "-", (), (0,)),
        ("(R)", "(R)", (), (1,)),  # R13: representable, never offered
    ],
)
def test_7_2_notation_examples(
    text: str, canonical: str, actions: tuple[str, ...], turns: tuple[int, ...]
) -> None:
    plot = parse_plot(text)
    assert (plot.actions, plot.turns) == (actions, turns)
    assert format_plot(plot) == str(plot) == canonical
    assert parse_plot(canonical) == plot


@settings(max_examples=60, deadline=None)
@given(status=statuses, facing_free=st.booleans())
def test_7_2_round_trip_every_legal_plot(status: PlotStatus, facing_free: bool) -> None:
    plots = legal_plots(status, facing_free=facing_free)
    assert plots, "there is always something to write"
    assert len(set(plots)) == len(plots)
    assert len(set(texts(plots))) == len(plots)
    for plot in plots:
        text = format_plot(plot)
        assert parse_plot(text) == plot
        assert parse_plot(text.lower().replace(" ", "")) == plot
        assert parse_plot(f"  {text.lower()}  ") == plot


@pytest.mark.parametrize(
    "text",
    [
        "Q",
        "F F B",  # §7.2: at most two movement actions (three F/SFL/SFR are a sprint, R20)
        "F F F F",
        "F C",  # §7.2: a special action is written alone
        "KN KN",
        "S F",
        "B(R)",  # T39: B does not rotate
        "C(L)",
        "RO-BR(L)",
        "F(R)(R)",  # T39: F turns one hex-side
        "(L)F(R)",  # R2: before or after, not both
        "F(3R)F",  # R1: two Fs turn at most two hex-sides between them
        "(L)F(R)F(R)",
        "KN(2R)",
        "(L)KN(R)",
        "RO",
        "RO-XX",
        "F(",
        "F(R",
        "X(4R)",
        "(0R)",
        "(L)(R)F",
        "F, F",
        "FORWARD",
    ],
)
def test_7_6_malformed_plots_raise_one_line(text: str) -> None:
    with pytest.raises(PlotError) as info:
        parse_plot(text)
    message = str(info.value)
    assert isinstance(info.value, ValueError)
    assert "\n" not in message
    assert repr(text) in message


def test_T39_the_value_checks_itself_and_stores_the_canonical_form() -> None:
    assert PhasePlot(("KN",), (1, 0)) == PhasePlot(("KN",), (0, 1))  # R5
    assert PhasePlot(("X",), (-1, -2)) == PhasePlot(("X",), (0, 3))  # R4
    assert PhasePlot(("X",), (0, 7)).turns == (0, 1)
    assert PhasePlot() is not EMPTY and PhasePlot() == EMPTY
    for actions, turns in [
        (("B",), (1, 0)),
        (("F", "F", "B"), (0, 0, 0, 0)),  # three F/SFL/SFR are a sprint (R20)
        (("F",), (0,)),
        (("C", "F"), (0, 0, 0)),
        (("Z",), (0, 0)),
        (("F", "B"), (0, 0, 1)),
    ]:
        with pytest.raises(PlotError):
            PhasePlot(actions, turns)


def test_T39_action_codes_come_from_the_table() -> None:
    assert action_codes() == (
        *MOVEMENT,
        "C",
        "KN",
        "R",
        "RO-FL",
        "RO-FR",
        "RO-BL",
        "RO-BR",
        "S",
        "X",
    )


def test_7_2_2_allocation_charges_each_action_its_own_rotation() -> None:
    assert parse_plot("F(R) (R)F").allocation() == ((0, 1), (1, 0))
    assert parse_plot("(L)F (R)F").allocation() == ((-1, 0), (1, 0))
    assert parse_plot("B (R)F").allocation() == ((0, 0), (1, 0))
    assert parse_plot("F F(L)").allocation() == ((0, 0), (0, -1))
    assert parse_plot("X(2L)").allocation() == ((0, -2),)
    assert EMPTY.allocation() == ()


# --- §5.2.1, §7.1, §14-§17, Q3: legal plots and their counts ------------------------------------


def test_7_2_count_standing_with_movement_left() -> None:
    # One movement action: F, SFL, SFR each 5 ways (none, (L)x, (R)x, x(L), x(R)); B, SBL, SBR
    # 1 way each: 3*5 + 3*1 = 18.
    # Two movement actions (36 ordered pairs), counting the rotations in the three gaps:
    #   turning + turning (9 pairs): before 0 and after 0: between -2..2 = 5; one end turned
    #     (2 ends x 2 ways) leaves between -1..1: 4*3 = 12; both ends turned: 2*2 = 4 -> 21;
    #     9 * 21 = 189.
    #   turning + fixed (9), fixed + turning (9): the turning action's 5 ways -> 45 + 45.
    #   fixed + fixed (9): 1 way each -> 9.
    #   189 + 45 + 45 + 9 = 288.
    # Special: C 1, KN 3 (KN, KN(L), KN(R)), R 0 (nothing in reach), RO 0 (prone only),
    #   S 0 (forced only, R8), X 6 (X, (L), (R), (2L), (2R), (3R)) -> 10.
    # 18 + 288 + 10 = 316.
    plots = legal_plots(PlotStatus(move_rate=5))
    assert len(plots) == 316
    assert sum(len(p.actions) == 1 and not p.is_special for p in plots) == 18
    assert sum(len(p.actions) == 2 for p in plots) == 288
    assert sum(p.is_special for p in plots) == 10


def test_7_4_count_recover_adds_three() -> None:
    # R, R(L), R(R): 316 + 3 = 319 (R12).
    plots = legal_plots(PlotStatus(move_rate=5, can_recover=True))
    assert len(plots) == 319
    assert [t for t in texts(plots) if t.startswith("R") and not t.startswith("RO")] == [
        "R",
        "R(L)",
        "R(R)",
    ]


def test_14_count_kneeling_is_the_same_as_standing() -> None:
    # R11 (Q24): a kneeling gladiator may write everything a standing one may: 316.
    assert legal_plots(PlotStatus(move_rate=4, posture="kneeling")) == legal_plots(
        PlotStatus(move_rate=4)
    )


def test_16_4_count_prone() -> None:
    # KN 3 (KN, KN(L), KN(R)) + RO-FL, RO-FR, RO-BL, RO-BR 4 = 7; no X (§16.4).
    plots = legal_plots(PlotStatus(move_rate=5, posture="prone"))
    assert texts(plots) == ["KN", "KN(L)", "KN(R)", "RO-FL", "RO-FR", "RO-BL", "RO-BR"]


def test_16_3_1_prone_and_unable_to_move_writes_nothing() -> None:
    # R9: with no movement phase left, even the §17.3 one used, KN and RO are gone: 1 (the empty
    # plot). With the §17.3 extra phase still free he may get up or roll: 7.
    assert legal_plots(PlotStatus(move_rate=5, moves_used=6, posture="prone")) == [EMPTY]
    assert len(legal_plots(PlotStatus(move_rate=5, moves_used=5, posture="prone"))) == 7


def test_15_3_count_stumbling() -> None:
    # R8: S, S(L), S(R) = 3; whatever his posture (§15.3 "whether or not he could move").
    for posture in ("standing", "kneeling", "prone"):
        status = PlotStatus(move_rate=5, must_stumble=True, posture=posture)
        assert texts(legal_plots(status)) == ["S", "S(L)", "S(R)"]
    # §15.3, Q3: with no movement phase left he still writes S, without rotating: 1.
    exhausted = PlotStatus(move_rate=5, moves_used=6, must_stumble=True)
    assert texts(legal_plots(exhausted)) == ["S"]


def test_17_3_count_exhausted_moves() -> None:
    # R7: rate 5 used up: the §17.3 extra phase still allows all 316, each of which except the
    # free X exceeds the rate.
    at_rate = PlotStatus(move_rate=5, moves_used=5)
    plots = legal_plots(at_rate)
    assert len(plots) == 316
    assert [p for p in plots if not exceeds_rate(at_rate, p)] == [parse_plot("X")]
    # Extra phase used too: only the free Pause is left: 1 (Q3).
    assert texts(legal_plots(PlotStatus(move_rate=5, moves_used=6))) == ["X"]
    assert texts(legal_plots(PlotStatus(move_rate=5, moves_used=6, can_recover=True))) == ["X"]


def test_17_3_and_lmp_reduce_the_rate() -> None:
    # §10.5 LMP -1 each, §17.3 -2 after exceeding: 5 - 1 - 2 = 2 phases, then one extra.
    status = PlotStatus(move_rate=5, lmp=1, exceeded_last_turn=True)
    assert status.moves_allowed == 2
    assert status.moves_left == 2
    assert PlotStatus(move_rate=5, moves_used=1, lmp=1, exceeded_last_turn=True).moves_left == 1
    assert not exceeds_rate(status, parse_plot("F"))
    used_up = PlotStatus(move_rate=5, moves_used=2, lmp=1, exceeded_last_turn=True)
    assert used_up.moves_left == 0 and used_up.can_move
    assert exceeds_rate(used_up, parse_plot("F"))
    assert not exceeds_rate(used_up, parse_plot("X"))
    done = PlotStatus(move_rate=5, moves_used=3, lmp=1, exceeded_last_turn=True)
    assert not done.can_move and texts(legal_plots(done)) == ["X"]
    # Q3: a rate never drops below 0, and the one extra phase is still there.
    crippled = PlotStatus(move_rate=4, lmp=3, exceeded_last_turn=True)
    assert crippled.moves_allowed == 0 and crippled.can_move
    assert len(legal_plots(crippled)) == 316


def test_16_4_1_unconscious_takes_no_action() -> None:
    # R10: 1.
    for posture in ("standing", "kneeling", "prone"):
        status = PlotStatus(move_rate=6, posture=posture, unconscious=True, must_stumble=True)
        assert legal_plots(status) == [EMPTY]


def test_20_5_4_no_rotation_when_facing_is_not_free() -> None:
    # R16: one movement action 6, two 6*6 = 36, C + KN + X = 3: 45; R adds 1 if in reach.
    assert len(legal_plots(PlotStatus(move_rate=5), facing_free=False)) == 45
    assert len(legal_plots(PlotStatus(move_rate=5, can_recover=True), facing_free=False)) == 46
    prone = PlotStatus(move_rate=5, posture="prone")
    assert texts(legal_plots(prone, facing_free=False)) == [
        "KN",
        "RO-FL",
        "RO-FR",
        "RO-BL",
        "RO-BR",
    ]


def test_7_2_legal_plots_have_a_fixed_order_and_a_fresh_list() -> None:
    status = PlotStatus(move_rate=6)
    first = legal_plots(status)
    assert texts(first[:6]) == ["F", "F(L)", "F(R)", "(L)F", "(R)F", "B"]
    assert texts(first[-6:]) == ["X", "X(L)", "X(R)", "X(2L)", "X(2R)", "X(3R)"]
    first.clear()
    assert legal_plots(status) == legal_plots(PlotStatus(move_rate=6)) != []


def test_7_2_every_well_formed_standing_plot_is_offered() -> None:
    # Brute force over every action list and every rotation of -3..3 in each gap: the plots the
    # constructor accepts are exactly those offered, less what R8 (S), R9 (RO), R13 (bare
    # rotation) and R14 (the empty plot) keep off a standing man's list.
    codes = action_codes()
    built: set[PhasePlot] = set()
    lists = [(c,) for c in codes] + list(itertools.product(MOVEMENT, repeat=2))
    for actions in lists:
        for turns in itertools.product(range(-3, 4), repeat=len(actions) + 1):
            try:
                built.add(PhasePlot(tuple(actions), turns))
            except PlotError:
                continue
    offered = {
        p for p in built if p.actions and p.actions[0] != "S" and not p.actions[0].startswith("RO")
    }
    assert offered == set(legal_plots(PlotStatus(move_rate=5, can_recover=True)))


@settings(max_examples=80, deadline=None)
@given(status=statuses, facing_free=st.booleans())
def test_5_2_1_legal_plots_keep_the_status_rules(status: PlotStatus, facing_free: bool) -> None:
    plots = legal_plots(status, facing_free=facing_free)
    if status.unconscious:
        assert plots == [EMPTY]
        return
    for plot in plots:
        assert plot.actions or plot == EMPTY  # R13: never a bare rotation
        if not facing_free:
            assert not plot.rotates
        if not status.can_move:
            assert not uses_movement_phase(plot)
        if plot.actions == ("R",):
            assert status.can_recover
        if status.must_stumble:
            assert plot.actions == ("S",)
        else:
            assert "S" not in plot.actions
            if status.posture == "prone":
                assert plot == EMPTY or plot.actions[0] in (
                    "KN",
                    "RO-FL",
                    "RO-FR",
                    "RO-BL",
                    "RO-BR",
                )
            else:
                assert not any(a.startswith("RO") for a in plot.actions)
    if EMPTY in plots:
        assert plots == [EMPTY]
        assert status.posture == "prone" and not status.can_move


# --- §7.4 NOTE, §15.6 (2nd), Q3: movement phases -------------------------------------------------


@pytest.mark.parametrize(
    ("text", "uses"),
    [
        ("S", False),
        ("X", False),
        ("-", False),
        ("S(R)", True),
        ("X(3R)", True),
        ("X(L)", True),
        ("(R)", True),
        ("F", True),
        ("B", True),
        ("SBL SBR", True),
        ("C", True),
        ("KN", True),
        ("R", True),
        ("RO-FL", True),
    ],
)
def test_7_4_note_stumble_and_pause_without_rotation_are_free(text: str, uses: bool) -> None:
    assert uses_movement_phase(parse_plot(text)) is uses


def test_15_3_1_forced_stumble_does_not_spend_a_phase() -> None:
    status = PlotStatus(move_rate=5, moves_used=5, must_stumble=True)
    assert not exceeds_rate(status, parse_plot("S"))
    assert exceeds_rate(status, parse_plot("S(R)"))


# --- §7.2.2, §7.3, §7.4, Q24: paths ---------------------------------------------------------------


@pytest.mark.parametrize("facing", range(6))
def test_7_3_path_f_f(facing: int) -> None:
    one = neighbor_at(ORIGIN, facing, Relation.FRONT)
    two = neighbor_at(one, facing, Relation.FRONT)
    assert path(parse_plot("F F"), ORIGIN, facing) == [
        Pose(ORIGIN, facing),
        Pose(one, facing),
        Pose(two, facing),
    ]


@pytest.mark.parametrize("facing", range(6))
def test_7_3_path_sbl(facing: int) -> None:
    assert path(parse_plot("SBL"), ORIGIN, facing) == [
        Pose(ORIGIN, facing),
        Pose(neighbor_at(ORIGIN, facing, Relation.LEFT_REAR), facing),
    ]


@pytest.mark.parametrize("facing", range(6))
def test_7_4_path_charge_three_hexes_forward(facing: int) -> None:
    hexes = [ORIGIN]
    for _ in range(3):
        hexes.append(neighbor_at(hexes[-1], facing, Relation.FRONT))
    assert path(parse_plot("C"), ORIGIN, facing) == [Pose(h, facing) for h in hexes]


@pytest.mark.parametrize("facing", range(6))
def test_Q24_path_roll_one_hex_facing_unchanged(facing: int) -> None:
    for text, relation in [
        ("RO-FR", Relation.RIGHT_FRONT),
        ("RO-FL", Relation.LEFT_FRONT),
        ("RO-BL", Relation.LEFT_REAR),
        ("RO-BR", Relation.RIGHT_REAR),
    ]:
        assert path(parse_plot(text), ORIGIN, facing) == [
            Pose(ORIGIN, facing),
            Pose(neighbor_at(ORIGIN, facing, relation), facing),
        ]


@pytest.mark.parametrize("facing", range(6))
def test_7_2_2_rotation_written_first_changes_the_direction(facing: int) -> None:
    right = turn(facing, 1)
    assert path(parse_plot("(R)F"), ORIGIN, facing) == [
        Pose(ORIGIN, facing),
        Pose(ORIGIN, right),
        Pose(neighbor_at(ORIGIN, right, Relation.FRONT), right),
    ]
    assert path(parse_plot("F(R)"), ORIGIN, facing) == [
        Pose(ORIGIN, facing),
        Pose(neighbor_at(ORIGIN, facing, Relation.FRONT), facing),
        Pose(neighbor_at(ORIGIN, facing, Relation.FRONT), right),
    ]
    left = turn(facing, -1)
    end = neighbor_at(ORIGIN, left, Relation.LEFT_FRONT)
    assert path(parse_plot("(L)SFL"), ORIGIN, facing)[-1] == Pose(end, left)


@pytest.mark.parametrize("facing", range(6))
def test_7_2_2_rotation_between_two_actions(facing: int) -> None:
    # F(R) (R)F: forward, two hex-sides right one at a time, forward in the new direction.
    one = neighbor_at(ORIGIN, facing, Relation.FRONT)
    new = turn(facing, 2)
    assert path(parse_plot("F(R) (R)F"), ORIGIN, facing) == [
        Pose(ORIGIN, facing),
        Pose(one, facing),
        Pose(one, turn(facing, 1)),
        Pose(one, new),
        Pose(neighbor_at(one, new, Relation.FRONT), new),
    ]


def test_7_4_path_pause_and_stay_in_place() -> None:
    assert path(parse_plot("X(3R)"), ORIGIN, 0) == [Pose(ORIGIN, f) for f in (0, 1, 2, 3)]
    assert path(parse_plot("X(2L)"), ORIGIN, 1) == [Pose(ORIGIN, f) for f in (1, 0, 5)]
    for text in ("X", "S", "KN", "R", "-"):
        assert path(parse_plot(text), ORIGIN, 4) == [Pose(ORIGIN, 4)]


@settings(max_examples=30, deadline=None)
@given(facing=st.integers(0, 5), status=statuses)
def test_8_1_1_every_path_moves_one_hex_or_one_hex_side_at_a_time(
    facing: int, status: PlotStatus
) -> None:
    for plot in legal_plots(status):
        poses = path(plot, ORIGIN, facing)
        assert poses[0] == Pose(ORIGIN, facing)
        for a, b in itertools.pairwise(poses):
            moved = a.hex != b.hex
            turned = a.facing != b.facing
            assert moved != turned
            if moved:
                assert b.hex in [neighbor_at(a.hex, a.facing, r) for r in range(6)]
            else:
                assert (b.facing - a.facing) % 6 in (1, 5)
