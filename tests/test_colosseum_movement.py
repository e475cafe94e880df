"""The Colosseum Basic Game's simultaneous movement (§5.2.2, §7.7, §8) and combat geometry (§4.5,
§6.2, §9.1, §9.2, T11, T12, T40).

Each test names the rule section (shared/rules/colosseum.md Part 2), table (Part 3), worked case
(Part 4: R-8.4-collision, R-T11-pa, R-4.5-setup, NOTE-9.2-left-handed) or question (Part 5: Q5,
Q11, Q24, Q36, Q45) it checks; the RULINGS in movement.py's docstring (and in the modules it
names: movement_tracks.py, collisions.py, board.py...) are cited as M1...M15.
Dice are scripted: each throw names the rule it must be thrown under.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gladiator.core.dice import Dice
from gladiator.core.hexgrid import (
    DIRECTIONS,
    Hex,
    Relation,
    add,
    direction_to,
    disk,
    distance,
    facing_toward,
    in_cone,
    neighbor,
    neighbor_at,
    opposite,
    rectangle,
    scale,
    sub,
)
from gladiator.rules.colosseum.arena.board import EDGE_SHIFT, map_edge_shift, starting_positions
from gladiator.rules.colosseum.arena.combat_geometry import (
    forced_rotation,
    front_coords,
    in_front,
    may_attack,
    positional_advantage,
)
from gladiator.rules.colosseum.arena.positions import Position
from gladiator.rules.colosseum.movement.collision_records import FigureState, MovementResult
from gladiator.rules.colosseum.movement.movement import resolve_movement
from gladiator.rules.colosseum.tables.tables import stun_result, tables

BOARD = rectangle(16, 12)
C = BOARD.centre()
N, NE, SE, S, SW, NW = range(6)


def at(*steps: int, origin: Hex = C) -> Hex:
    """The hex reached from `origin` by stepping in these directions."""
    h = origin
    for d in steps:
        h = neighbor(h, d)
    return h


class DiceExhausted(AssertionError):
    """The module asked for more dice than the test scripted."""


class ScriptedDice:
    """`d` and `roll` of `gladiator.core.dice.Dice`; each throw pops (rule, value) and checks
    that the module threw it under that rule."""

    def __init__(self, script: Sequence[tuple[str, int]]) -> None:
        self.script = list(script)
        self.log: list[tuple[str, str, str, int]] = []

    def _next(self, notation: str, purpose: str, rule: str) -> int:
        if not self.script:
            raise DiceExhausted(f"unscripted {notation} for {purpose!r} ({rule})")
        want, value = self.script.pop(0)
        assert rule == want, f"{notation} for {purpose!r} thrown under {rule}, expected {want}"
        self.log.append((notation, purpose, rule, value))
        return value

    def d(self, sides: int, purpose: str, rule: str) -> int:
        return self._next(f"1D{sides}", purpose, rule)

    def roll(self, notation: str, purpose: str, rule: str) -> int:
        return self._next(notation, purpose, rule)

    def done(self) -> None:
        assert not self.script, f"dice scripted but never thrown: {self.script}"


# Rule strings of each throw.
CROSS = "§8.1.1"
IF = "§8.4"
STUN = "§8.4.3"
STUMBLE = "§15.2.1"


def line(start: Hex, facing: int, *moves: int) -> list[tuple[Hex, int]]:
    """A path from `start` facing `facing`, stepping in the given absolute directions."""
    out = [(start, facing)]
    h = start
    for d in moves:
        h = neighbor(h, d)
        out.append((h, facing))
    return out


def run(
    figures: dict[str, FigureState],
    paths: dict[str, list[tuple[Hex, int]]],
    script: Sequence[tuple[str, int]],
    **kw: Any,
) -> MovementResult:
    dice = ScriptedDice(script)
    result = resolve_movement(figures, paths, dice, board=kw.pop("board", BOARD), **kw)
    dice.done()
    for ev in result.events:
        assert ev["text"].endswith(f"({ev['rule']})"), ev
    return result


MEDIUM = FigureState()  # medium, small shield, nothing else


# --- §8.1: ending in the same hex ----------------------------------------------------------------


def test_8_1_same_hex_collision_needs_no_crossing_dice() -> None:
    paths = {"A": line(at(S), N, N), "B": line(at(N), S, S)}
    result = run({"A": MEDIUM, "B": MEDIUM}, paths, [(IF, 5), (IF, 2), (STUN, 6), (STUMBLE, 4)])
    [col] = result.collisions
    assert col.cause == "same_hex"
    assert col.hex == C
    assert col.crossing_dice is None
    # A: 5 + medium 1 + 1 hex forward = 7; B: 2 + 1 + 1 = 4; each straight ahead of the other.
    assert [i.total for i in col.impacts] == [7, 4]
    assert [i.pa for i in col.impacts] == [0, 0]
    assert col.attacker == "A"
    assert col.defenders == ("B",)
    # §8.4.1: B is pushed straight on, away from A's hex of entry (south of C).
    assert result.positions == {"A": Position(C, N), "B": Position(at(N), S)}
    assert any(e["type"] == "collision" and e["rule"] == "§8.1" for e in result.events)


def test_8_1_ending_in_the_hex_of_one_who_stands_still_is_a_collision() -> None:
    """M2: A stands in C; B walks two hexes into it."""
    paths = {"A": [(C, N)], "B": line(at(N, N), S, S, S)}
    result = run({"A": MEDIUM, "B": MEDIUM}, paths, [(IF, 3), (IF, 3), (STUN, 7), (STUMBLE, 6)])
    [col] = result.collisions
    assert col.cause == "same_hex" and col.hex == C
    # A 3 + 1 = 4; B 3 + 1 + 2 forward = 6: B attacks and pushes A on southwards.
    assert col.attacker == "B"
    assert result.positions == {"A": Position(at(S), N), "B": Position(C, S)}


def test_8_1_no_shared_hex_no_dice() -> None:
    paths = {"A": line(at(S, S), N, N), "B": line(at(N, N), S, S)}
    result = run({"A": MEDIUM, "B": MEDIUM}, paths, [])
    assert result.collisions == []
    assert result.positions == {"A": Position(at(S), N), "B": Position(at(N), S)}


# --- §8.1.1: crossing paths ----------------------------------------------------------------------

# A walks north through C, B south-east through C: their paths share C only.
CROSSING = {"A": line(at(S), N, N, N), "B": line(at(NW), SE, SE, SE)}


def test_8_1_1_crossing_paths_with_unequal_dice_do_not_collide() -> None:
    result = run({"A": MEDIUM, "B": MEDIUM}, CROSSING, [(CROSS, 2), (CROSS, 5)])
    assert result.collisions == []
    assert result.positions == {"A": Position(at(N), N), "B": Position(at(SE), SE)}
    [ev] = [e for e in result.events if e["type"] == "crossing"]
    assert ev["hex"] == C and ev["dice"] == [2, 5] and ev["collide"] is False


@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
def test_8_1_1_crossing_paths_with_equal_dice_collide_in_the_shared_hex(face: int) -> None:
    result = run(
        {"A": MEDIUM, "B": MEDIUM},
        CROSSING,
        [(CROSS, face), (CROSS, face), (IF, 6), (IF, 1), (STUN, 2), (STUMBLE, 6)],
    )
    [col] = result.collisions
    assert col.cause == "crossing"
    assert col.crossing_dice == (face, face)
    assert col.hex == C
    # M7: A came from B's right-front cone (T11 +1), B from A's left-front cone (+2).
    assert [i.pa for i in col.impacts] == [1, 2]
    assert [i.total for i in col.impacts] == [6 + 1 + 1 + 1, 1 + 1 + 1 + 2]
    assert col.attacker == "A"
    # A entered C from the south, so B goes on north of it, keeping his facing.
    assert result.positions == {"A": Position(C, N), "B": Position(at(N), SE)}


def test_8_1_1_swapping_places_is_a_crossing() -> None:
    """M3: both tracks hold both hexes; one roll for the pair."""
    paths = {"A": line(C, N, N), "B": line(at(N), S, S)}
    result = run({"A": MEDIUM, "B": MEDIUM}, paths, [(CROSS, 1), (CROSS, 4)])
    assert result.collisions == []
    assert result.positions == {"A": Position(at(N), N), "B": Position(C, S)}


def test_8_1_a_man_who_stands_still_holds_his_hex_passing_through_it_is_a_collision() -> None:
    """M3 (issue #10): a man who stays in his hex occupies it all phase (§8.1); the §8.1.1
    crossing roll is for two men who both pass through a hex. B's charge through A's hex stops
    there: no crossing dice, a collision, Impact Factors rolled."""
    paths = {"A": [(C, NE)], "B": line(at(S), N, N, N)}
    result = run(
        {"A": MEDIUM, "B": MEDIUM},
        paths,
        [(IF, 2), (IF, 5), (STUN, 4), (STUMBLE, 6)],
    )
    [col] = result.collisions
    assert col.cause == "occupied" and col.hex == C and col.crossing_dice is None
    assert [e["rule"] for e in result.events if e["type"] == "collision"] == ["§8.1"]
    assert not any(e["type"] == "crossing" for e in result.events)
    # B entered from the south and won (5 + forward 1 against 2): he takes the hex, A is pushed on
    # to the north, keeping his facing.
    assert col.attacker == "B"
    assert result.positions == {"A": Position(at(N), NE), "B": Position(C, N)}


def test_8_1_a_man_who_turns_in_place_still_holds_his_hex() -> None:
    """M3: rotations take no time and leave him in his hex all phase."""
    paths = {"A": [(C, NE), (C, N), (C, NW)], "B": line(at(S), N, N, N)}
    result = run({"A": MEDIUM, "B": MEDIUM}, paths, [(IF, 1), (IF, 6), (STUN, 4), (STUMBLE, 6)])
    [col] = result.collisions
    assert col.cause == "occupied" and col.hex == C


def test_8_1_1_entering_the_hex_a_man_has_left_is_still_a_crossing() -> None:
    """M3: a man who leaves his hex does not hold it; the two paths share it, so they roll."""
    paths = {"A": line(C, N, N), "B": line(at(S), N, N)}
    result = run({"A": MEDIUM, "B": MEDIUM}, paths, [(CROSS, 3), (CROSS, 4)])
    assert result.collisions == []
    assert result.positions == {"A": Position(at(N), N), "B": Position(C, N)}


def test_8_1_1_a_pair_rolls_once_even_when_its_paths_share_several_hexes() -> None:
    # A walks north through C and C+N; B steps into C from the north-west, then into C+N.
    paths = {"A": line(at(S, S), N, N, N, N, N), "B": line(at(NW), SE, SE, N)}
    result = run({"A": MEDIUM, "B": MEDIUM}, paths, [(CROSS, 1), (CROSS, 2)])
    assert result.collisions == []
    assert [e["type"] for e in result.events].count("crossing") == 1
    assert result.positions == {"A": Position(at(N, N), N), "B": Position(at(N), SE)}


# --- §8.2: movement stops at the collision -------------------------------------------------------


def test_8_2_a_charge_stops_where_it_collides() -> None:
    """A charges three hexes north; B crosses his first hex. The rest of both moves is cancelled."""
    contested = at(S, S)
    paths = {"A": line(at(S, S, S), N, N, N, N), "B": line(at(S, S, NW), SE, SE, SE)}
    result = run(
        {"A": MEDIUM, "B": MEDIUM},
        paths,
        [(CROSS, 4), (CROSS, 4), (IF, 1), (IF, 6), (STUN, 5), (STUMBLE, 6)],
    )
    [col] = result.collisions
    assert col.hex == contested
    a_imp = col.impacts[0]
    assert a_imp.forward == 1  # the hex moved before the collision, not the charge's three
    assert dict(a_imp.drms)["moved_forward"] == 1
    assert col.attacker == "B"
    # B entered from the north-west of the contested hex: A is pushed on to its south-east.
    assert result.positions == {
        "A": Position(neighbor(contested, SE), N),
        "B": Position(contested, SE),
    }
    assert any(e["type"] == "stop" and e["rule"] == "§8.2" for e in result.events)


# --- §8.4, T12: Impact Factor ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("state", "drms"),
    [
        (FigureState(gladiator_class="light"), {"moved_forward": 1}),
        (
            FigureState(gladiator_class="heavy", shield="large"),
            {"heavy": 2, "large_shield": 2, "moved_forward": 1},
        ),
        (FigureState(shield=None), {"medium": 1, "no_shield": -2, "moved_forward": 1}),
        (
            FigureState(kneeling=True),
            {"medium": 1, "moved_forward": 1, "kneeling_or_stumbling": -2},
        ),
        (
            FigureState(stumbling=True),
            {"medium": 1, "moved_forward": 1, "kneeling_or_stumbling": -2},
        ),
        (
            FigureState(kneeling=True, stumbling=True),
            {"medium": 1, "moved_forward": 1, "kneeling_or_stumbling": -2},
        ),
        (FigureState(ensnared=True), {"medium": 1, "moved_forward": 1, "ensnared": -3}),
        (FigureState(recovering=True), {"medium": 1, "moved_forward": 1, "attempted_recover": -3}),
        (FigureState(stun=2), {"medium": 1, "moved_forward": 1, "stun": -2}),
        (
            FigureState(st=2, ag=1),
            {"medium": 1, "moved_forward": 1, "strength": 2, "agility": 1},
        ),
        (FigureState(hold_ground=True), {"medium": 1, "moved_forward": 1, "hold_ground": 3}),
        (FigureState(prone=True, rolling=True), {"medium": 1, "rolled": 4}),
    ],
)
def test_8_4_impact_factor_drms(state: FigureState, drms: dict[str, int]) -> None:
    """T12, M6: A steps one hex north into C as B steps into it from the north."""
    paths = {"A": line(at(S), N, N), "B": line(at(N), S, S)}
    result = resolve_movement({"A": state, "B": MEDIUM}, paths, Dice(7), board=BOARD)
    a_imp = result.collisions[0].impacts[0]
    assert dict(a_imp.drms) == drms
    assert a_imp.total == a_imp.die + sum(drms.values())
    assert 1 <= a_imp.die <= 6


def test_8_4_moving_backward_and_sidesteps() -> None:
    """T12 note, M6: SFL/SFR count as forward, B/SBL/SBR as backward."""
    # A faces south and steps backward (north) into C; B sidesteps forward-left into C.
    paths = {"A": line(at(S), S, N), "B": line(at(NE), S, SW)}
    result = resolve_movement({"A": MEDIUM, "B": MEDIUM}, paths, Dice(3), board=BOARD)
    a_imp, b_imp = result.collisions[0].impacts
    assert (a_imp.forward, a_imp.backward) == (0, 1)
    assert dict(a_imp.drms)["moved_backward"] == -1
    assert (b_imp.forward, b_imp.backward) == (1, 0)


def test_r_8_4_collision_worked_numbers() -> None:
    """R-8.4-collision: heavy (+2), large shield (+2), 2 hexes forward (+2), ST 1, AG 0, 1D6 3 ->
    IF 10; the other IF 6; the defender rolls 2D6 + 4, and a 6 gives 10 -> Stun 2."""
    heavy = FigureState(gladiator_class="heavy", shield="large", st=1, ag=0)
    light = FigureState(gladiator_class="light")
    paths = {"A": line(at(S, S), N, N, N), "B": [(C, S)]}
    result = run({"A": heavy, "B": light}, paths, [(IF, 3), (IF, 6), (STUN, 6), (STUMBLE, 2)])
    [col] = result.collisions
    assert [i.total for i in col.impacts] == [10, 6]
    [stun] = col.stun_rolls
    assert (stun.figure, stun.roll, stun.modifier, stun.total, stun.stun) == ("B", 6, 4, 10, 2)
    [check] = col.stumble_checks
    # §15.2.1: 1D6 2 - 0 backward - 2 Stun = 0, below 1.
    assert (check.roll, check.stun, check.total, check.stumbled) == (2, 2, 0, True)
    assert result.positions == {"A": Position(C, N), "B": Position(at(N), S)}


# --- §8.4.1: placement ---------------------------------------------------------------------------


def test_8_4_1_defender_goes_back_to_his_last_hex_when_the_attacker_did_not_move() -> None:
    paths = {"A": [(C, N)], "B": line(at(N, N, N), S, S, S, S)}
    result = run({"A": MEDIUM, "B": MEDIUM}, paths, [(IF, 6), (IF, 1), (STUN, 5), (STUMBLE, 6)])
    [col] = result.collisions
    # A 6 + 1 = 7, B 1 + 1 + 3 forward = 5.
    assert col.attacker == "A"
    # Back to C+N, the last hex before the collision (not his starting hex), still facing south.
    assert result.positions == {"A": Position(C, N), "B": Position(at(N), S)}
    assert col.placement("B") == Position(at(N), S)
    assert any("did not move" in e["text"] for e in result.events)


def test_8_4_1_defender_is_pushed_straight_through_the_contested_hex() -> None:
    # A sidesteps forward-right (north-east) into C; B stands in C facing north-west.
    paths = {"A": line(at(SW), N, NE), "B": [(C, NW)]}
    result = run({"A": MEDIUM, "B": MEDIUM}, paths, [(IF, 6), (IF, 1), (STUN, 2), (STUMBLE, 6)])
    [col] = result.collisions
    assert col.attacker == "A"
    assert result.positions == {"A": Position(C, N), "B": Position(at(NE), NW)}


# --- §8.4.2: ties --------------------------------------------------------------------------------


def test_8_4_2_tie_both_go_back_facing_the_contested_hex() -> None:
    """Q36: both are defenders, each rolls 2D6 + 0 for Stun and checks for Stumble."""
    # A sidesteps forward-left (north-west) into C facing north; B steps south into C. Each came
    # from the other's left-front cone: PA +2 both, IF = die + 1 + 1 + 2.
    paths = {"A": line(at(SE), N, NW), "B": line(at(N), S, S)}
    result = run(
        {"A": MEDIUM, "B": MEDIUM},
        paths,
        [(IF, 4), (IF, 4), (STUN, 9), (STUMBLE, 2), (STUN, 5), (STUMBLE, 5)],
    )
    [col] = result.collisions
    assert [i.pa for i in col.impacts] == [2, 2]
    assert [i.total for i in col.impacts] == [8, 8]
    assert col.attacker is None
    assert col.defenders == ("A", "B")
    assert [(s.modifier, s.total, s.stun) for s in col.stun_rolls] == [(0, 9, 2), (0, 5, 1)]
    assert [c.stumbled for c in col.stumble_checks] == [True, False]
    # Each back in his last hex, turned to face C: A from the south-east now faces north-west.
    assert direction_to(at(SE), C) == NW
    assert result.positions == {"A": Position(at(SE), NW), "B": Position(at(N), S)}


def test_8_4_2_tie_one_who_started_in_the_contested_hex_stays() -> None:
    paths = {"A": [(C, N)], "B": line(at(N), S, S)}
    result = run(
        {"A": MEDIUM, "B": MEDIUM},
        paths,
        [(IF, 4), (IF, 3), (STUN, 6), (STUMBLE, 6), (STUN, 6), (STUMBLE, 6)],
    )
    [col] = result.collisions
    assert col.attacker is None
    assert result.positions == {"A": Position(C, N), "B": Position(at(N), S)}


# --- §8.4.3, §8.4.4: Stun and Stumble ------------------------------------------------------------


@pytest.mark.parametrize(("a_die", "b_die", "roll"), [(6, 1, 2), (4, 3, 8), (6, 1, 9), (6, 1, 12)])
def test_8_4_3_stun_roll_is_2d6_plus_the_if_difference_on_t7(
    a_die: int, b_die: int, roll: int
) -> None:
    paths = {"A": line(at(S), N, N), "B": line(at(N), S, S)}
    result = run(
        {"A": MEDIUM, "B": MEDIUM},
        paths,
        [(IF, a_die), (IF, b_die), (STUN, roll), (STUMBLE, 6)],
    )
    [col] = result.collisions
    [stun] = col.stun_rolls
    assert stun.modifier == a_die - b_die
    assert stun.total == roll + a_die - b_die
    assert (stun.stun, stun.extra) == stun_result(stun.total)
    [check] = col.stumble_checks
    assert check.stun == stun.stun
    assert check.stumbled == (6 - stun.stun < 1)


def test_8_4_3_stun_extra_comes_with_its_column() -> None:
    """T7, Q2: a Stun roll of 17 also drops the weapon."""
    paths = {"A": line(at(S), N, N), "B": line(at(N), S, S)}
    result = run({"A": MEDIUM, "B": MEDIUM}, paths, [(IF, 6), (IF, 1), (STUN, 12), (STUMBLE, 6)])
    [stun] = result.collisions[0].stun_rolls
    assert (stun.total, stun.stun, stun.extra) == (17, 7, "weapon_drop")


# B faces north and steps backward into C with 1 Stun in effect; A walks into C from B's rear (+6).
BACKWARD = {"A": line(at(S), N, N), "B": line(at(N), N, S)}


@pytest.mark.parametrize(("die", "stumbled"), [(3, True), (4, False)])
def test_8_4_4_stumble_check_text_formula(die: int, stumbled: bool) -> None:
    """§15.2.1, Q5: 1D6 - hexes moved backward - Stun in effect (the collision's included) < 1."""
    result = run(
        {"A": MEDIUM, "B": FigureState(stun=1)},
        BACKWARD,
        [(IF, 1), (IF, 6), (STUN, 2), (STUMBLE, die)],
    )
    [col] = result.collisions
    a_imp, b_imp = col.impacts
    assert a_imp.pa == 6  # straight behind B
    assert a_imp.total == 1 + 1 + 1 + 6
    assert b_imp.total == 6 + 1 - 1 - 1  # backward -1, Stun -1
    [stun] = col.stun_rolls
    assert stun.stun == 1  # 2 + 4 = 6 -> 1
    [check] = col.stumble_checks
    assert (check.rule, check.backward, check.stun) == ("text", 1, 2)
    assert check.total == die - 1 - 2
    assert check.stumbled is stumbled


@pytest.mark.parametrize(("roll", "stumbled"), [(9, True), (10, False)])
def test_8_4_4_stumble_check_reference_option(roll: int, stumbled: bool) -> None:
    """Q5 option: 2D6 - Stun - hexes moved backward < 7."""
    result = run(
        {"A": MEDIUM, "B": FigureState(stun=1)},
        BACKWARD,
        [(IF, 1), (IF, 6), (STUN, 2), (STUMBLE, roll)],
        stumble_rule="reference",
    )
    [check] = result.collisions[0].stumble_checks
    assert check.rule == "reference"
    assert check.total == roll - 2 - 1
    assert check.stumbled is stumbled


# --- §8.3: a Prone opponent who is not rolling ---------------------------------------------------


PRONE = FigureState(prone=True)


@pytest.mark.parametrize("through", [False, True])
def test_8_3_standing_gladiator_has_a_prone_non_roller_at_his_mercy(through: bool) -> None:
    """M5, Q24, §18.2.1: no dice; he stops in the hex he came from; Moment of Truth."""
    moves = (N, N, N) if through else (N, N)
    paths = {"A": line(at(S, S), N, *moves), "P": [(C, SE)]}
    result = run({"A": MEDIUM, "P": PRONE}, paths, [])
    [col] = result.collisions
    assert col.cause == "prone"
    assert col.mercy == "P"
    assert col.moment_of_truth and result.moment_of_truth
    assert col.impacts == ()
    assert result.positions == {"A": Position(at(S), N), "P": Position(C, SE)}
    assert any(e["type"] == "moment_of_truth" for e in result.events)


def test_8_3_a_rolling_prone_gladiator_collides_normally() -> None:
    roller = FigureState(prone=True, rolling=True)
    paths = {"A": line(at(S), N, N), "P": line(at(NE), S, SW)}
    result = run({"A": MEDIUM, "P": roller}, paths, [(IF, 1), (IF, 6), (STUN, 4), (STUMBLE, 6)])
    [col] = result.collisions
    assert col.mercy is None and not result.moment_of_truth
    assert dict(col.impacts[1].drms)["rolled"] == 4
    assert col.attacker == "P"


def test_8_3_a_prone_roller_into_a_prone_non_roller_is_no_mercy() -> None:
    roller = FigureState(prone=True, rolling=True)
    paths = {"R": line(at(S), N, N), "P": [(C, N)]}
    result = run({"R": roller, "P": PRONE}, paths, [(IF, 6), (IF, 1), (STUN, 4), (STUMBLE, 6)])
    [col] = result.collisions
    assert col.cause == "prone" and col.mercy is None and col.attacker == "R"


# --- Q36: pushed into an occupied hex ------------------------------------------------------------


def test_q36_a_push_into_an_occupied_hex_is_a_new_collision() -> None:
    # A walks into C from B's rear; B (facing north) is pushed into D's hex and collides with D.
    paths = {"A": line(at(S), N, N), "B": [(C, N)], "D": [(at(N), S)]}
    script = [
        (IF, 6), (IF, 1), (STUN, 2), (STUMBLE, 6),  # A 6+1+1+6 = 14 vs B 1+1 = 2: B Stun 4
        (IF, 6), (IF, 1), (STUN, 3), (STUMBLE, 6),  # B 6+1-4 = 3 vs D 1+1 = 2
    ]  # fmt: skip
    result = run({"A": MEDIUM, "B": MEDIUM, "D": MEDIUM}, paths, script)
    first, second = result.collisions
    assert first.attacker == "A" and first.stun_rolls[0].stun == 4
    assert second.cause == "push" and second.figures == ("B", "D")
    b_imp = second.impacts[0]
    assert dict(b_imp.drms) == {"medium": 1, "stun": -4}  # the push is not a hex he moved
    assert second.attacker == "B"
    assert result.positions == {
        "A": Position(C, N),
        "B": Position(at(N), N),
        "D": Position(at(N, N), S),
    }


# --- §7.7: map edges -----------------------------------------------------------------------------


def test_7_7_moving_off_the_map_shifts_everyone_three_hexes_toward_the_centre() -> None:
    board = rectangle(10, 8)
    from gladiator.core.hexgrid import from_offset

    edge = from_offset(4, 0)
    assert neighbor(edge, N) not in board
    other = board.centre()
    paths = {"A": line(edge, N, N), "B": [(other, S)]}
    result = run({"A": MEDIUM, "B": MEDIUM}, paths, [], board=board)
    assert distance(result.shift, Hex(0, 0)) == EDGE_SHIFT
    assert result.shift == scale(DIRECTIONS[S], 3)
    assert all(p.hex in board for p in result.positions.values())
    assert sub(result.positions["A"].hex, result.positions["B"].hex) == sub(
        neighbor(edge, N), other
    )
    kinds = [e["type"] for e in result.events]
    assert kinds.index("map_edge") < kinds.index("moved")


def test_7_7_nobody_off_the_board_no_shift() -> None:
    positions = {"A": Position(C, N), "B": Position(at(N, N), S)}
    moved, shift, events = map_edge_shift(positions, BOARD)
    assert moved == positions and shift == Hex(0, 0) and events == []


def test_7_7_two_running_apart_wider_than_the_board_are_held_at_its_edge() -> None:
    """§7.7, E9 (issue #10): A and B stand near the two ends of a 12-hex-wide board and both run
    three hexes outward. No 3-hex shift can bring both back on, so each is held at the edge: his
    run stops, a step at a time, until the §7.7 shift can keep both on the board; their relative
    positions after that are kept exactly."""
    from gladiator.core.hexgrid import from_offset

    board = rectangle(12, 12)
    west, east = from_offset(2, 6), from_offset(9, 6)
    paths = {"A": line(west, SW, SW, SW, SW), "B": line(east, NE, NE, NE, NE)}
    result = run({"A": MEDIUM, "B": MEDIUM}, paths, [], board=board)
    assert all(p.hex in board for p in result.positions.values())
    held = [e for e in result.events if e["type"] == "held_at_edge"]
    assert held and all(e["rule"] == "§7.7" for e in held)
    assert {e["figure"] for e in held} == {"A", "B"}
    # Each stopped short of his plot, and the tracks say where (for §15.1, §16.2).
    assert 1 <= len(result.tracks["A"]) - 1 < 3 and 1 <= len(result.tracks["B"]) - 1 < 3
    a_end, b_end = result.tracks["A"][-1][0], result.tracks["B"][-1][0]
    assert sub(result.positions["A"].hex, result.positions["B"].hex) == sub(a_end, b_end)


SHIFT_BOARD = rectangle(14, 10)
_EDGES = sorted(
    (h, d)
    for h in SHIFT_BOARD.hexes
    for d in range(6)
    if SHIFT_BOARD.is_edge(h) and neighbor(h, d) not in SHIFT_BOARD
)


@st.composite
def edge_scenes(draw: st.DrawFn) -> dict[str, Position]:
    """One gladiator up to 3 hexes off an edge, one or two others on the board near him."""
    edge, d = draw(st.sampled_from(_EDGES))
    k = draw(st.integers(1, 3))
    off = add(edge, scale(DIRECTIONS[d], k))
    near = sorted(h for h in disk(edge, 4) if h in SHIFT_BOARD)
    others = draw(st.lists(st.sampled_from(near), min_size=1, max_size=2, unique=True))
    facings = draw(st.lists(st.integers(0, 5), min_size=3, max_size=3))
    scene = {"off": Position(off, facings[0])}
    for i, h in enumerate(others):
        scene[f"g{i}"] = Position(h, facings[i + 1])
    return scene


@settings(max_examples=150, deadline=None)
@given(edge_scenes())
def test_7_7_shift_keeps_relative_positions(scene: dict[str, Position]) -> None:
    """§7.7, Q45, M13: everyone moves by the same vector, made of 3-hex steps toward the centre,
    facings kept, and all end on the board."""
    moved, shift, events = map_edge_shift(scene, SHIFT_BOARD)
    assert set(moved) == set(scene)
    for name, pos in scene.items():
        assert moved[name].hex == add(pos.hex, shift)
        assert moved[name].facing == pos.facing
        assert moved[name].hex in SHIFT_BOARD
    for a in scene:
        for b in scene:
            assert sub(moved[a].hex, moved[b].hex) == sub(scene[a].hex, scene[b].hex)
    assert events and all(e["rule"] == "§7.7" for e in events)
    assert all(distance(e["shift"], Hex(0, 0)) == EDGE_SHIFT for e in events)
    total = Hex(0, 0)
    for e in events:
        total = add(total, e["shift"])
    assert total == shift
    centre = SHIFT_BOARD.centre()
    assert distance(moved["off"].hex, centre) < distance(scene["off"].hex, centre)


# --- §4.5, §6.2, §9.1: starting positions and the combat front -----------------------------------


@pytest.mark.parametrize("axis", range(6))
def test_4_5_starting_positions_are_out_of_each_others_front(axis: int) -> None:
    """R-4.5-setup, §9.1.1: distance 5, facing each other, neither may attack."""
    a, b = starting_positions(BOARD, axis=axis)
    assert distance(a.hex, b.hex) == 5
    assert a.facing == facing_toward(a.hex, b.hex) and b.facing == facing_toward(b.hex, a.hex)
    assert b.facing == opposite(a.facing)
    for region in ("one_hex", "two_hex", "three_hex"):
        assert not in_front(a, b, region=region) and not in_front(b, a, region=region)
    assert not may_attack(a, b) and not may_attack(b, a)
    # Straight ahead beyond T11's range 3: the regions' rule gives 0 (T11).
    assert positional_advantage(a, b) == 0 and positional_advantage(b, a) == 0


def test_4_5_board_too_small() -> None:
    with pytest.raises(ValueError, match="too small"):
        starting_positions(rectangle(3, 3))


@pytest.mark.parametrize("facing", range(6))
@pytest.mark.parametrize(("region", "radius"), [("one_hex", 1), ("two_hex", 2), ("three_hex", 3)])
def test_6_2_t40_front_is_the_frontal_cone(facing: int, region: Any, radius: int) -> None:
    for h in disk(C, 4)[1:]:
        assert in_front((C, facing), (h, 0), region=region) == in_cone(C, facing, h, radius)


def test_9_1_front_hexes_and_prone_attackers() -> None:
    me = Position(C, N)
    front = {
        neighbor_at(C, N, r) for r in (Relation.FRONT, Relation.LEFT_FRONT, Relation.RIGHT_FRONT)
    }
    for h in disk(C, 1)[1:]:
        assert may_attack(me, (h, S)) == (h in front)
    assert not may_attack(me, (at(N), S), attacker_prone=True)


@pytest.mark.parametrize("facing", range(6))
def test_front_coords_round_trip(facing: int) -> None:
    fl_dir = DIRECTIONS[(facing - 1) % 6]
    fr_dir = DIRECTIONS[(facing + 1) % 6]
    for fl in range(-4, 5):
        for fr in range(-4, 5):
            h = add(C, add(scale(fl_dir, fl), scale(fr_dir, fr)))
            assert front_coords(C, facing, h) == (fl, fr)


# --- §9.2, T11: positional advantage -------------------------------------------------------------

# R-T11-pa: by the side of the defender the attacker touches (right-handed, recommended side).
RING1_PA = {
    Relation.FRONT: 0,
    Relation.RIGHT_FRONT: 1,
    Relation.LEFT_FRONT: 2,
    Relation.RIGHT_REAR: 3,
    Relation.LEFT_REAR: 4,
    Relation.REAR: 6,
}
# NOTE-9.2-left-handed: +1 <-> +2, +3 <-> +4; 0 and +6 stay.
LEFT_HANDED = {0: 0, 1: 2, 2: 1, 3: 4, 4: 3, 6: 6}


@pytest.mark.parametrize("facing", range(6))
def test_r_t11_pa_ring_one_from_every_facing(facing: int) -> None:
    defender = Position(C, facing)
    for rel, pa in RING1_PA.items():
        attacker = (neighbor_at(C, facing, rel), 0)
        assert positional_advantage(attacker, defender) == pa
        assert positional_advantage(attacker, defender, left_handed=True) == LEFT_HANDED[pa]


@pytest.mark.parametrize("facing", range(6))
def test_r_t11_pa_centre_lines_at_every_range(facing: int) -> None:
    defender = Position(C, facing)
    for k in (1, 2, 3, 4):
        ahead = add(C, scale(DIRECTIONS[facing], k))
        behind = add(C, scale(DIRECTIONS[opposite(facing)], k))
        assert positional_advantage((ahead, 0), defender) == 0
        assert positional_advantage((behind, 0), defender) == 6


@pytest.mark.parametrize("facing", range(6))
def test_t11_pa_matches_the_angle_rule_from_every_facing(facing: int) -> None:
    """T11's angle form, computed independently in pixels: theta = 0 -> 0; 0 < |theta| <= 60° ->
    +1 right / +2 left; 60° < |theta| < 180° -> +3 right / +4 left; 180° -> +6 (to range 5)."""
    import math

    from gladiator.core.hexgrid import to_pixel

    fx, fy = to_pixel(DIRECTIONS[facing])
    for h in disk(C, 5)[1:]:
        vx, vy = to_pixel(sub(h, C))
        theta = math.degrees(math.atan2(fx * vy - fy * vx, fx * vx + fy * vy))  # + = clockwise
        if abs(theta) < 1e-9:
            want = 0
        elif abs(abs(theta) - 180) < 1e-9:
            want = 6
        elif abs(theta) <= 60 + 1e-9:
            want = 1 if theta > 0 else 2
        else:
            want = 3 if theta > 0 else 4
        assert positional_advantage((h, 0), (C, facing)) == want, (h, facing, theta)


def test_t11_every_listed_hex_from_every_facing() -> None:
    t11 = tables().positional_advantage.t11
    for facing in range(6):
        fl_dir = DIRECTIONS[(facing - 1) % 6]
        fr_dir = DIRECTIONS[(facing + 1) % 6]
        for cell in t11.hexes:
            h = add(C, add(scale(fl_dir, cell.fl), scale(fr_dir, cell.fr)))
            assert positional_advantage((h, 3), (C, facing)) == cell.pa


def test_9_2_1_status_bonuses() -> None:
    """§9.2.1, §15.6: Stumbling +2, Prone +4 replacing it, Ensnared +4 on top."""
    defender = Position(C, N)
    rear = (at(S), N)
    front = (at(N), S)
    assert positional_advantage(rear, defender, stumbling=True) == 8
    assert positional_advantage(rear, defender, prone=True) == 10
    assert positional_advantage(rear, defender, prone=True, stumbling=True) == 10
    assert positional_advantage(rear, defender, ensnared=True) == 10
    assert positional_advantage(rear, defender, prone=True, ensnared=True) == 14
    assert positional_advantage(front, defender, stumbling=True) == 2
    assert positional_advantage(front, defender, stumbling=True, ensnared=True) == 6


# --- §9.1.2, §9.1.3: forced rotation -------------------------------------------------------------


@pytest.mark.parametrize("facing", range(6))
@pytest.mark.parametrize("rel", list(Relation))
@pytest.mark.parametrize("left_handed", [False, True])
def test_9_1_2_forced_rotation_from_every_side_and_facing(
    facing: int, rel: Relation, left_handed: bool
) -> None:
    """The attacker faces the defender. In the defender's front (§9.1.3) nobody turns; otherwise
    the defender turns to face him, and the attacker's PA is the one before the turn."""
    a_hex = neighbor_at(C, facing, rel)
    attacker = Position(a_hex, facing_toward(a_hex, C))
    result = forced_rotation(attacker, (C, facing), left_handed=left_handed)
    must_turn = rel not in (Relation.FRONT, Relation.LEFT_FRONT, Relation.RIGHT_FRONT)
    assert result.turns is must_turn
    assert result.facing == (direction_to(C, a_hex) if must_turn else facing)
    pa = RING1_PA[rel]
    assert result.attacker_pa == (LEFT_HANDED[pa] if left_handed else pa)
    assert result.defender_pa_allowed is not must_turn
    assert in_front((C, result.facing), attacker)


def test_9_1_2_pa_is_worked_out_before_the_turn_with_status() -> None:
    result = forced_rotation((at(S), N), (C, N), ensnared=True)
    assert result.turns and result.facing == S
    assert result.attacker_pa == 6 + 4  # from the rear, + ensnared; after the turn it would be 0
    assert positional_advantage((at(S), N), (C, result.facing)) == 0


def test_9_1_2_long_front_turns_toward_the_attacker() -> None:
    attacker = Position(at(S, S), N)
    result = forced_rotation(attacker, (C, N), region="two_hex")
    assert result.turns and result.facing == S and result.attacker_pa == 6
    # An attacker straight ahead beyond the defender's 1-hex front: he already faces him, so
    # nothing turns, but he has been made to face his attacker and gets no PA (§9.1.2).
    ahead = forced_rotation(Position(at(N, N), S), (C, N), region="two_hex")
    assert (ahead.turns, ahead.facing, ahead.attacker_pa, ahead.defender_pa_allowed) == (
        False,
        N,
        0,
        False,
    )
    # One whose own long front reaches the attacker is not made to face him (§9.1.3).
    assert forced_rotation(
        Position(at(N, N), S), (C, S), region="two_hex", defender_region="two_hex"
    ).turns
    assert not forced_rotation(
        Position(at(N, N), S), (C, N), region="two_hex", defender_region="two_hex"
    ).turns


def test_9_1_no_attack_outside_the_attackers_front() -> None:
    with pytest.raises(ValueError, match="combat front"):
        forced_rotation((at(S), S), (C, N))
    with pytest.raises(ValueError, match="share a hex"):
        forced_rotation((C, S), (C, N))


# --- every die and every event -------------------------------------------------------------------


RULES = {"§8.1.1", "§8.4", "§8.4.3", "§15.2.1"}
_NEAR = sorted(h for h in disk(C, 3))


@st.composite
def phases(draw: st.DrawFn) -> tuple[dict[str, FigureState], dict[str, list[tuple[Hex, int]]]]:
    """Two or three gladiators near the centre with random walks of up to three hexes."""
    n = draw(st.integers(2, 3))
    starts = draw(st.lists(st.sampled_from(_NEAR), min_size=n, max_size=n, unique=True))
    figures: dict[str, FigureState] = {}
    paths: dict[str, list[tuple[Hex, int]]] = {}
    for i, start in enumerate(starts):
        name = "ABC"[i]
        facing = draw(st.integers(0, 5))
        moves = draw(st.lists(st.integers(0, 5), max_size=3))
        figures[name] = FigureState(
            gladiator_class=draw(st.sampled_from(("light", "medium", "heavy"))),
            shield=draw(st.sampled_from(("large", "small", None))),
            st=draw(st.integers(-1, 3)),
            stun=draw(st.integers(0, 3)),
            left_handed=draw(st.booleans()),
        )
        paths[name] = line(start, facing, *moves)
    return figures, paths


@settings(max_examples=200, deadline=None)
@given(phases(), st.integers(0, 2**32))
def test_movement_invariants_with_real_dice(
    phase: tuple[dict[str, FigureState], dict[str, list[tuple[Hex, int]]]], seed: int
) -> None:
    """Everyone ends on the board in his own hex; each die is thrown under its rule; every event
    cites its section."""
    figures, paths = phase
    dice = Dice(seed)
    result = resolve_movement(figures, paths, dice, board=BOARD)
    hexes = [p.hex for p in result.positions.values()]
    assert len(set(hexes)) == len(hexes)
    assert all(h in BOARD for h in hexes)
    assert all(r.rule in RULES and r.purpose for r in dice.log)
    for ev in result.events:
        assert ev["text"].endswith(f"({ev['rule']})")
    for col in result.collisions:
        assert set(col.figures) <= set(figures)
        if col.attacker is not None:
            assert col.placement(col.attacker).hex == col.hex
        col.to_dict()


def test_every_die_names_its_rule() -> None:
    dice = Dice(11)
    resolve_movement({"A": MEDIUM, "B": MEDIUM}, CROSSING, dice, board=BOARD)
    assert dice.log and all(r.rule in RULES for r in dice.log)


# --- bad input -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("figures", "paths", "match"),
    [
        ({"A": MEDIUM}, {"B": [(C, N)]}, "same gladiators"),
        ({"A": MEDIUM, "B": MEDIUM}, {"A": [(C, N)], "B": [(C, S)]}, "same hex"),
        ({"A": MEDIUM}, {"A": [(C, N), (at(N, N), N)]}, "one hex at a time"),
        ({"A": PRONE}, {"A": [(C, N), (at(N), N)]}, "Prone"),
        ({"A": MEDIUM}, {"A": [(Hex(-20, 0), N)]}, "off the board"),
        ({"A": MEDIUM}, {"A": [(C, 6)]}, "facing"),
        ({"A": MEDIUM}, {"A": []}, "starting position"),
    ],
)
def test_bad_input(figures: dict[str, FigureState], paths: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        resolve_movement(figures, paths, Dice(0), board=BOARD)


def test_figure_state_checks() -> None:
    with pytest.raises(ValueError, match="Prone"):
        FigureState(rolling=True)
    with pytest.raises(ValueError, match="class"):
        FigureState(gladiator_class="giant")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="Stun"):
        FigureState(stun=-1)
