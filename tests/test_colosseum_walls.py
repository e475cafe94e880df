"""The Advanced Game's arena walls (§25, §7.7.1, T13, T38) and cleaving (§26), by section.

The rulings are W1-W10 (walls.py) and K1-K3 (cleaving.py), in docs/rulings.md. Dice are
scripted: `ScriptedDice` fails on a throw under another rule or one more than scripted, and
`RiggedDice` fixes only the throws of the rules a test names.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from colosseum_helpers import (
    RULES,
    RiggedDice,
    ScriptedDice,
    duel,
    face_off,
    of_type,
    place,
    play,
)
from gladiator.bots import make_bot
from gladiator.core.dice import Dice
from gladiator.core.hexgrid import (
    Hex,
    Relation,
    from_offset,
    neighbor,
    neighbor_at,
    normalise_wall,
    rectangle,
    to_offset,
)
from gladiator.core.match import Match
from gladiator.rules.colosseum.arena.board import board_of
from gladiator.rules.colosseum.arena.walls import (
    EDGES,
    Arena,
    Edge,
    arena_of,
    edges_beyond,
    setup_arena,
    wall_sides,
)
from gladiator.rules.colosseum.hits.cleaving import cleave
from gladiator.rules.colosseum.movement.collision_records import FigureState, MovementResult
from gladiator.rules.colosseum.movement.movement import resolve_movement
from gladiator.rules.colosseum.presentation.presentation import render, scene

N, NE, SE, S, SW, NW = range(6)
W, H = 12, 12
BOARD = rectangle(W, H)
MEDIUM = FigureState(gladiator_class="medium", shield="small", st=0, ag=1)
FAR = from_offset(6, 8)  # a bystander well inside the board


def line(start: Hex, facing: int, *moves: int) -> list[tuple[Hex, int]]:
    """A path from `start` facing `facing`, stepping in the given absolute directions."""
    out = [(start, facing)]
    h = start
    for d in moves:
        h = neighbor(h, d)
        out.append((h, facing))
    return out


def arena(*walls: Edge, size: int = 3, stumble: bool = True) -> Arena:
    return Arena(W, H, size, frozenset(walls), stumble=stumble)


def run(
    paths: dict[str, list[tuple[Hex, int]]],
    *script: tuple[str, Any],
    walls: Arena | None,
    figures: dict[str, FigureState] | None = None,
) -> MovementResult:
    dice = ScriptedDice(*script)
    figs = figures or {n: MEDIUM for n in paths}
    result = resolve_movement(figs, paths, dice, board=BOARD, arena=walls)
    assert dice.done(), f"scripted dice left over: {dice.script}"
    for ev in result.events:
        assert ev["text"].endswith(f"({ev['rule']})"), ev
    return result


# --- the board's edges ---------------------------------------------------------------------------


def test_s7_7_1_s2_3_2_edges_are_the_lines_of_the_odd_q_rectangle() -> None:
    """§7.7.1, §2.3.2: the map's edges may be walls, marked by wall counters. The four edges: a
    hex is beyond north if its row is below 0, south if it is the height or more, west if its
    column is below 0, east if it is the width or more; on the board, none."""
    assert all(edges_beyond(h, W, H) == () for h in BOARD.hexes)
    assert edges_beyond(from_offset(5, -1), W, H) == ("north",)
    assert edges_beyond(from_offset(5, H), W, H) == ("south",)
    assert edges_beyond(from_offset(-1, 4), W, H) == ("west",)
    assert edges_beyond(from_offset(W, 4), W, H) == ("east",)
    assert edges_beyond(from_offset(-1, -1), W, H) == ("north", "west")
    # Odd columns are shoved down half a hex: the north neighbours of (1, 0) are off north only
    # straight ahead; its NE and NW neighbours are in row 0.
    odd = from_offset(1, 0)
    assert [edges_beyond(neighbor(odd, d), W, H) for d in (N, NE, NW)] == [("north",), (), ()]


# --- §25.2 the arena's size ----------------------------------------------------------------------


def test_s25_2_the_arena_size_is_2d3_minus_1_rolled_at_setup_and_recorded() -> None:
    """§4.4, §25.2, T38, Q22, W1: 2D3 − 1 when the match is set up, after the log sheets; D3
    faces 5 and 3 are 3 + 2, so size 4; the state and its record keep it; no walls yet."""
    options = RULES.normalise_options({"advanced": True, "gladiators": ["medium", "heavy"]})
    dice = RiggedDice(1, {"§25.2": [(5, 3)]})
    state, events = RULES.initial_state(options, dice)
    assert state.arena_size == 4 and state.walls == ()
    (arena_event,) = of_type(events, "arena")
    assert arena_event["size"] == 4 and "2D3-1" in arena_event["text"]
    rules = [r.rule for r in dice.log]
    assert rules.count("§25.2") == 1 and rules[-1] == "§25.2"  # after both log sheets (§4.3, §4.4)
    assert state.to_dict()["arena"] == {"size": 4, "walls": []}


def test_s25_2_a_fixed_arena_size_rolls_nothing() -> None:
    """W1: the option `arena_size` fixes the size (a series carries it from match to match)."""
    dice = Dice(3)
    state, events = RULES.initial_state(
        RULES.normalise_options({"advanced": True, "arena_size": 2}), dice
    )
    assert state.arena_size == 2 and "§25.2" not in [r.rule for r in dice.log]
    assert "the match option sets 2" in of_type(events, "arena")[0]["text"]


def test_s25_2_1_size_1_is_the_colosseum_in_rome() -> None:
    size, walls, events = setup_arena({"advanced": True, "arena_size": 1}, Dice(1))
    assert (size, walls) == (1, ()) and "Colosseum in Rome" in events[0]["text"]


def test_s25_2_2_a_fighting_pit_has_every_edge_walled_from_the_start() -> None:
    """§25.2.2, W2: size 5, all four edges walls, no wall rolls."""
    state = duel(advanced=True, arena_size=5)
    assert state.arena_size == 5 and state.walls == EDGES
    assert "Fighting Pit" in render(state, None)


@pytest.mark.parametrize(
    ("options", "expected"),
    [({}, None), ({"advanced": True, "walls": False}, None)],
)
def test_s25_no_arena_in_the_basic_game_or_with_walls_off(
    options: dict[str, Any], expected: None
) -> None:
    """The Basic Game (and the Advanced Game with `walls = false`) rolls no size, keeps no walls
    and writes no arena into its record or its text."""
    dice = Dice(5)
    state, events = RULES.initial_state(RULES.normalise_options(options), dice)
    assert state.arena_size is expected and state.walls == ()
    assert "§25.2" not in [r.rule for r in dice.log] and not of_type(events, "arena")
    assert arena_of(state.options, state.arena_size, state.walls) is None
    assert "arena size" not in render(state, None)
    if not options:
        assert "arena" not in state.to_dict() and "blood_counters" not in state.to_dict()


@pytest.mark.parametrize("bad", [True, 0, 6, "3", "big"])
def test_s25_2_a_bad_arena_size_is_refused_in_one_line(bad: object) -> None:
    with pytest.raises(ValueError, match="arena_size") as err:
        RULES.normalise_options({"advanced": True, "arena_size": bad})
    assert "\n" not in str(err.value)


# --- §25.3 the wall check at the map's edge ------------------------------------------------------


def test_s25_3_leaving_the_map_marks_a_wall_when_1d6_plus_size_is_above_5() -> None:
    """§25.3, W7: A steps off the north edge; 1D6 3 + size 3 = 6 > 5: the north edge is marked,
    and the map is shifted as normal (§7.7): both back on the board, 3 hexes toward the centre."""
    start = from_offset(5, 0)
    result = run({"A": line(start, N, N), "B": [(FAR, N)]}, ("§25.3", 3), walls=arena(size=3))
    assert result.wall_markers == frozenset({"north"})
    (check,) = result.edge_checks
    assert (check.figure, check.edge, check.roll, check.total, check.placed) == (
        "A",
        "north",
        3,
        6,
        True,
    )
    assert result.shift != Hex(0, 0) and all(p.hex in BOARD for p in result.positions.values())
    kinds = [e["type"] for e in result.events]
    assert kinds.index("wall_check") < kinds.index("map_edge")
    assert not result.walls  # he left the map: the wall is for the next time (W7)


def test_s25_3_no_wall_when_1d6_plus_size_is_5_or_less() -> None:
    """§25.3: 1D6 2 + size 3 = 5 is not above 5: no wall, the shift as in the Basic Game."""
    start = from_offset(5, 0)
    result = run({"A": line(start, N, N), "B": [(FAR, N)]}, ("§25.3", 2), walls=arena(size=3))
    assert result.wall_markers == frozenset()
    assert result.edge_checks[0].placed is False and result.shift != Hex(0, 0)


def test_s25_3_size_1_needs_a_5_and_size_4_a_2() -> None:
    """T38: 1D6 + size > 5: a 4 is no wall in the Colosseum (size 1), a 2 is one at size 4."""
    start = from_offset(5, 0)
    paths = {"A": line(start, N, N), "B": [(FAR, N)]}
    assert run(paths, ("§25.3", 4), walls=arena(size=1)).wall_markers == frozenset()
    assert run(paths, ("§25.3", 2), walls=arena(size=4)).wall_markers == {"north"}


def test_s25_3_1_leaving_across_an_edge_whose_opposite_is_walled_removes_that_marker() -> None:
    """§25.3.1: the south edge is a wall; A leaves across the north edge: no roll (the script
    has none), the south marker is removed, and the map is shifted."""
    start = from_offset(5, 0)
    result = run({"A": line(start, N, N), "B": [(FAR, N)]}, walls=arena("south", "east"))
    assert result.wall_markers == frozenset({"east"})
    (check,) = result.edge_checks
    assert check.roll is None and check.removed == "south" and not check.placed
    assert of_type(result.events, "wall_removed")[0]["rule"] == "§25.3.1"
    assert result.shift != Hex(0, 0)


def test_s25_3_a_corner_step_checks_both_edges_in_order() -> None:
    """W7: a step off the north-west corner leaves across two edges: north, then west."""
    corner = from_offset(0, 0)
    result = run(
        {"A": line(corner, NW, NW), "B": [(FAR, N)]},
        ("§25.3", 6),
        ("§25.3", 1),
        walls=arena(size=2),
    )
    assert [(c.edge, c.placed) for c in result.edge_checks] == [("north", True), ("west", False)]
    assert result.wall_markers == {"north"}


def test_s25_3_a_wall_found_blocks_from_the_next_phase_on() -> None:
    """§25.3, W7 through the engine: red steps off the north edge, 1D6 6 + 3: the north edge is a
    wall (the state keeps it, the scene draws it); the next phase he walks into it there."""
    state = duel(advanced=True, arena_size=3)
    top = from_offset(9, 0)
    place(state, red=(top, N))
    play(state, RiggedDice(1, {"§25.3": [6]}), red="F")
    assert state.walls == ("north",)
    assert all(g.hex in board_of(state) for g in state.gladiators.values())
    drawn = [[h.q, h.r, d] for h, d in wall_sides(20, 16, ["north"])]
    assert drawn and scene(state, None)["walls"] == drawn
    assert state.step == "plot"
    place(state, red=(top, N))
    events = play(state, RiggedDice(2, {"§25.4": [(1, 1)], "§15.2.1": [6]}), red="F")
    assert of_type(events, "wall_collision") and not of_type(events, "map_edge")
    assert state.gladiators["red"].hex == top


# --- §25.4 the collision with a wall -------------------------------------------------------------


def test_s25_4_running_into_a_wall_stops_him_and_rolls_t13_stun() -> None:
    """§25.4, T13, W3-W5: A walks two hexes north toward the north wall from row 1: he stops in
    row 0; 2D6 8 + 2 (one hex moved forward) − AG 1 = 9: 2 Stun (T7), then a Stumble check
    1D6 2 − 2 Stun = 0, below 1: he tripped. Nobody left the map: no shift, no wall roll."""
    start = from_offset(5, 1)
    result = run(
        {"A": line(start, N, N, N), "B": [(FAR, N)]},
        ("§25.4", (4, 4)),
        ("§15.2.1", 2),
        walls=arena("north"),
    )
    assert result.positions["A"].hex == from_offset(5, 0) and result.shift == Hex(0, 0)
    (hit,) = result.walls
    assert (hit.figure, hit.edge, hit.pushed, hit.forward) == ("A", "north", False, 1)
    assert dict(hit.drms) == {"moved_forward": 2, "agility": -1}
    assert (hit.stun_roll.total, hit.stun_roll.stun, hit.stun_roll.extra) == (9, 2, None)
    assert hit.stumble_check is not None and hit.stumble_check.stumbled
    assert hit.stumble_check.stun == 2
    assert [len(result.tracks["A"]) - 1] == [1]  # he moved one hex of his three
    assert not result.edge_checks and result.wall_markers == {"north"}


def test_s25_4_a_step_straight_into_the_wall_is_no_hex_moved() -> None:
    """W4: from the wall's hex, F into it: no forward DRM; 2D6 6 − AG 1 = 5: 1 Stun (Q2)."""
    start = from_offset(5, 0)
    result = run(
        {"A": line(start, N, N), "B": [(FAR, N)]},
        ("§25.4", (3, 3)),
        ("§15.2.1", 6),
        walls=arena("north"),
    )
    (hit,) = result.walls
    assert dict(hit.drms) == {"agility": -1} and hit.stun_roll.stun == 1
    assert result.positions["A"].hex == start


def test_s25_4_option_wall_stumble_off_reads_t13_alone() -> None:
    """W5: `wall_stumble = false`: the Stun roll only (the script has no Stumble die)."""
    start = from_offset(5, 1)
    result = run(
        {"A": line(start, N, N, N), "B": [(FAR, N)]},
        ("§25.4", (4, 4)),
        walls=arena("north", stumble=False),
    )
    assert result.walls[0].stumble_check is None


def test_s25_4_a_pushed_defender_is_pinned_against_the_wall_with_plus_4() -> None:
    """§25.4, T13 +4, W6, Q36: B holds his hex in row 0 by the north wall; A walks two hexes
    into it from the south and wins the impact (IF 6 + 1 medium + 2 forward = 9 against 1 + 1
    = 2). B cannot be pushed through: he is pinned in the contested hex, A stops in his hex of
    entry. B's collision Stun is 2D6 6 + 7 = 13 (4 Stun), then the wall: 2D6 4 + 4 pushed − AG
    0 = 8 (1 Stun), and one Stumble check with both: 1D6 6 − 5 = 1, not below 1."""
    wall_hex = from_offset(5, 0)
    below = from_offset(5, 1)
    a_start = from_offset(5, 2)
    still = FigureState(gladiator_class="medium", shield="small", st=0, ag=0)
    result = run(
        {"A": line(a_start, N, N, N), "B": [(wall_hex, S)]},
        ("§8.4", 6),
        ("§8.4", 1),
        ("§8.4.3", (3, 3)),
        ("§25.4", (2, 2)),
        ("§15.2.1", 6),
        walls=arena("north"),
        figures={"A": still, "B": still},
    )
    assert result.positions["A"].hex == below and result.positions["B"].hex == wall_hex
    (c,) = result.collisions
    assert c.attacker == "A" and c.stun_rolls[0].stun == 4
    (hit,) = result.walls
    assert (hit.figure, hit.pushed, dict(hit.drms)) == ("B", True, {"pushed": 4})
    assert hit.stun_roll.stun == 1 and hit.stumble_check is None
    assert c.stumble_checks[0].stun == 5 and not c.stumble_checks[0].stumbled


def test_s25_4_a_collision_short_of_the_wall_means_he_never_reaches_it() -> None:
    """W3: A's run would take him into the north wall at his third step, but B holds row 0 in
    his way: the collision at his second step stops him (§8.2), so no wall collision for A (B,
    pushed toward the wall, is pinned: the only wall roll is his)."""
    still = FigureState(gladiator_class="medium", shield="small", st=0, ag=0)
    result = run(
        {"A": line(from_offset(5, 2), N, N, N, N), "B": [(from_offset(5, 0), S)]},
        ("§8.4", 6),
        ("§8.4", 1),
        ("§8.4.3", (3, 3)),
        ("§25.4", (2, 2)),
        ("§15.2.1", 6),
        walls=arena("north"),
        figures={"A": still, "B": still},
    )
    assert [w.figure for w in result.walls] == ["B"]


def test_s25_4_the_engine_applies_the_wall_stun_and_its_column() -> None:
    """§25.4 through the engine, a Fighting Pit: red charges (C) north from row 2: two hexes,
    then the wall: 2D6 12 + 4 − AG 1 = 15, T7's 15 column: 5 Stun on his sheet; he keeps his
    feet (1D6 6)."""
    state = duel(advanced=True, arena_size=5)
    face_off(state)
    start = from_offset(9, 2)
    place(state, red=(start, N), blue=(from_offset(9, 10), N))
    events = play(state, RiggedDice(1, {"§25.4": [(6, 6)], "§15.2.1": [6]}), red="C")
    red = state.gladiators["red"]
    assert red.hex == from_offset(9, 0) and red.sheet.stun_in_effect == 5
    (hit,) = of_type(events, "wall_collision")
    assert hit["stun"] == 5 and not red.must_stumble


def test_s25_4_a_wall_stun_column_drops_the_shield() -> None:
    """§25.4, T13, T7: 2D6 12 + 4 pushed + 2 (one hex forward) = 18: "8 & Shield Drop"."""
    from gladiator.rules.colosseum.arena.walls import wall_stun

    hit, ev = wall_stun(
        "A", Hex(0, 0), "north", ag=0, forward=1, pushed=True, dice=ScriptedDice(("§25.4", (6, 6)))
    )
    assert hit.stun_roll.total == 18 and hit.stun_roll.extra == "shield_drop"
    assert "shield drop" in ev["text"]


def test_s25_2_2_a_fighting_pit_never_shifts_and_never_rolls() -> None:
    """§25.2.2: in a pit nobody can leave the map, so there is no §7.7 shift and no wall roll."""
    corner = from_offset(0, 0)
    result = run(
        {"A": line(corner, NW, NW, N), "B": [(FAR, N)]},
        ("§25.4", (1, 1)),
        ("§15.2.1", 6),
        walls=arena(*EDGES, size=5),
    )
    assert result.shift == Hex(0, 0) and not result.edge_checks
    assert result.positions["A"].hex == corner


# --- §7.7 with walls off, and E9 with walls on ---------------------------------------------------


def _run_apart() -> dict[str, list[tuple[Hex, int]]]:
    west, east = from_offset(2, 6), from_offset(9, 6)
    return {"A": line(west, SW, SW, SW, SW), "B": line(east, NE, NE, NE, NE)}


def test_s7_7_e9_still_holds_runaways_with_walls_off() -> None:
    """E9, W9: without an arena (walls off) two men running apart wider than the board are held
    at its edge as in the Basic Game, with no wall roll and no wall collision."""
    result = run(_run_apart(), walls=None)
    held = of_type(result.events, "held_at_edge")
    assert {e["figure"] for e in held} == {"A", "B"}
    assert not result.walls and result.wall_markers is None
    assert all(p.hex in BOARD for p in result.positions.values())


def test_s7_7_advanced_walls_off_plays_the_edge_as_the_basic_game() -> None:
    """The engine with `advanced = true, walls = false` passes no arena: the same step off the
    edge shifts the map as in the Basic Game, with no wall roll."""
    outcomes = []
    for options in ({}, {"advanced": True, "walls": False}):
        state = duel(seed=4, gladiators=["medium", "medium"], **options)
        place(state, red=(from_offset(9, 0), N))
        dice = Dice(11)
        events = play(state, dice, red="F")
        assert "§25.3" not in [r.rule for r in dice.log]
        assert not of_type(events, "wall_check") and not of_type(events, "wall_collision")
        outcomes.append((of_type(events, "map_edge"), [g.hex for g in state.gladiators.values()]))
    assert outcomes[0] == outcomes[1] and outcomes[0][0]


def test_w9_a_man_at_a_wall_is_not_held_again_by_e9() -> None:
    """W9: the west edge is a wall; A runs into it, B runs off the east edge of the 12-wide
    board. The board cannot hold them both, so E9 holds B at the edge, step by step; A stays
    against the wall he hit."""
    west, east = from_offset(1, 6), from_offset(10, 6)
    paths = {"A": line(west, NW, NW, NW), "B": line(east, NE, NE, NE, NE)}
    result = run(paths, ("§25.4", (3, 3)), ("§15.2.1", 6), walls=arena("west"))
    assert to_offset(result.positions["A"].hex)[0] == 0
    held = of_type(result.events, "held_at_edge")
    assert held and {e["figure"] for e in held} == {"B"}
    assert all(p.hex in BOARD for p in result.positions.values())


# --- scenes and text ------------------------------------------------------------------------------


def test_s25_scene_draws_a_marked_edge_as_walls_along_it() -> None:
    """Each hex-side between a board hex and a hex beyond the marked line is a wall, as `HexMap`
    keeps walls; the text render names the walled edges."""
    state = duel(advanced=True, arena_size=3)
    assert scene(state, None)["walls"] == []
    state.walls = ("north", "west")
    board = board_of(state)
    expected = sorted(
        normalise_wall(h, d)
        for h in board.hexes
        for d in range(6)
        if neighbor(h, d) not in board
        and set(edges_beyond(neighbor(h, d), 20, 16)) & {"north", "west"}
    )
    drawn = scene(state, None)["walls"]
    assert drawn == [[h.q, h.r, d] for h, d in expected]
    assert len(drawn) > 20 + 16  # every hex of both edges has one side or more on them
    assert "walls: north, west" in render(state, None)


# --- §26 cleaving --------------------------------------------------------------------------------


def test_s26_2_a_t7_kill_drops_1d3_blood_counters_round_the_body() -> None:
    """§26.2, K1: the §5.3 kill (WHITE 18 + H+1 on the bare groin, 19: T7 Kill) in the
    Advanced Game: 1D3 (face 5: 3) counters, each by T15 from blue's hex and facing: F 2 hexes,
    R 1, RL 0 (in his hex)."""
    state = duel(advanced=True, arena_size=3)
    face_off(state)
    play(state, Dice(1))
    blue = state.gladiators["blue"]
    body, facing = blue.hex, blue.facing
    dice = RiggedDice(
        1,
        {
            "§9.5.1": [(6, 6, 5)],
            "§10.1": [(6, 6, 6, 1, 1)],
            "§26.2": [(5,), (1,), (3,), (4,), (2,), (3,), (1,)],
        },
    )
    events = play(state, dice, red="A4:groin D9:chest", blue="D13:chest")
    assert state.winners == ("red",)
    front2 = neighbor_at(neighbor_at(body, facing, 0), facing, 0)
    right = neighbor_at(body, facing, int(Relation.from_code("R")))
    assert state.blood_counters == [front2, right, body]
    (ev,) = of_type(events, "cleaving")
    assert ev["killer"] == "red" and ev["victim"] == "blue"
    marks = [m for m in scene(state, None)["marks"] if m["kind"] == "blood_counter"]
    assert [m["hex"] for m in marks] == [[h.q, h.r] for h in (front2, right, body)]
    assert state.to_dict()["blood_counters"] == [[h.q, h.r] for h in (front2, right, body)]


def test_s26_2_the_basic_game_does_not_cleave() -> None:
    """The same kill in the Basic Game drops nothing and throws no §26.2 die."""
    state = duel()
    face_off(state)
    play(state, Dice(1))
    dice = RiggedDice(1, {"§9.5.1": [(6, 6, 5)], "§10.1": [(6, 6, 6, 1, 1)]})
    events = play(state, dice, red="A4:groin D9:chest", blue="D13:chest")
    assert state.winners == ("red",) and state.blood_counters == []
    assert "§26.2" not in dice.rules() and not of_type(events, "cleaving")


def test_s26_2_blood_counters_never_leave_the_board() -> None:
    """K1, I8, W8: a body in the corner; every counter thrown 5 hexes outward stops on the
    board's last hex of its way."""
    state = duel(advanced=True, arena_size=5)
    blue = state.gladiators["blue"]
    blue.hex, blue.facing = from_offset(0, 0), N
    script = [("§26.2", 6)] + [("§26.2", f) for d in (1, 2, 6) for f in (d, 6)]
    events: list[dict[str, Any]] = []
    cleave(state, board_of(state), blue, state.gladiators["red"], ScriptedDice(*script), events)
    assert len(state.blood_counters) == 3
    assert all(h in board_of(state) for h in state.blood_counters)


def test_s26_3_entering_a_hex_with_a_blood_counter_checks_for_stumble() -> None:
    """§26.3, K2: red steps backward into a hex with a Blood counter: 1D6 1 − 1 backward = 0,
    below 1: he tripped; blue, who starts on a counter and stays, does not check."""
    state = duel(advanced=True, arena_size=3)
    red, blue = state.gladiators["red"], state.gladiators["blue"]
    behind = neighbor_at(red.hex, red.facing, int(Relation.from_code("R")))
    state.blood_counters = [behind, blue.hex]
    dice = RiggedDice(1, {"§15.2.1": [1]})
    events = play(state, dice, red="B")
    checks = [e for e in of_type(events, "stumble_check") if e["rule"] == "§26.3"]
    assert [e["figure"] for e in checks] == ["red"] and checks[0]["stumbled"]
    assert red.must_stumble and not blue.must_stumble


def test_s26_3_no_blood_check_in_the_basic_game() -> None:
    state = duel()
    red = state.gladiators["red"]
    state.blood_counters = [neighbor_at(red.hex, red.facing, int(Relation.from_code("R")))]
    dice = RiggedDice(1, {})
    events = play(state, dice, red="B")
    assert not [e for e in of_type(events, "stumble_check") if e["rule"] == "§26.3"]


# --- whole matches -------------------------------------------------------------------------------


@settings(deadline=None, max_examples=6)
@given(seed=st.integers(0, 2**32), size=st.sampled_from([1, 2, 3, 4, 5, "roll"]))
def test_property_advanced_matches_with_walls_end_and_nobody_leaves_the_board_or_enters_a_wall(
    seed: int, size: int | str
) -> None:
    """§25 under random legal play on the smallest board: every match ends; after every step
    both gladiators stand on the board; no wall roll is made for an edge already walled when the
    step began, nobody leaves the map of a Fighting Pit, and the record replays exactly."""
    options = {
        "advanced": True,
        "arena_size": size,
        "board_width": 12,
        "board_height": 12,
        "max_turns": 5,
    }
    m = Match(RULES, options, seed=seed, nonce="")
    bot, rng = make_bot("random"), random.Random(seed)
    board = board_of(m.state)
    pit = m.state.arena_size == 5
    steps = 0
    while not m.finished:
        walled = set(m.state.walls)
        events = m.apply_step(
            {s: bot.choose(RULES, m.state, s, d, rng) for s, d in m.pending().items()}
        )
        assert all(g.hex in board for g in m.state.gladiators.values())
        assert not [e for e in of_type(events, "wall_check") if e["edge"] in walled]
        if pit:
            assert not of_type(events, "map_edge") and m.state.walls == EDGES
        steps += 1
        assert steps < 5000
    again = Match.replay(m.record(), RULES)
    assert RULES.state_hash(again.state) == RULES.state_hash(m.state)
