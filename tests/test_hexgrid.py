"""Tests for gladiator.core.hexgrid.

Several checks use an independent oracle: the screen angle of a hex centre (via `to_pixel`),
measured clockwise from north, so the axial arithmetic is compared against plain geometry.
"""

from __future__ import annotations

import itertools
import json
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gladiator.core.hexgrid import (
    DIRECTION_NAMES,
    DIRECTIONS,
    Hex,
    HexMap,
    Relation,
    add,
    cone,
    direction_to,
    disk,
    distance,
    facing_toward,
    from_offset,
    from_pixel,
    hexagon,
    in_cone,
    line,
    lines_between,
    neighbor,
    neighbor_at,
    neighbors,
    normalise_wall,
    opposite,
    rectangle,
    relation_of,
    relative_direction,
    ring,
    scale,
    sector_of,
    sub,
    to_offset,
    to_pixel,
    turn,
)

ORIGIN = Hex(0, 0)
FACINGS = range(6)
RELATIONS = list(Relation)

coords = st.integers(min_value=-40, max_value=40)
hexes = st.builds(Hex, coords, coords)
facings = st.integers(min_value=0, max_value=5)


def screen_angle(v: Hex) -> float:
    """Angle of v's pixel centre, degrees clockwise from north (screen y grows down)."""
    x, y = to_pixel(v)
    return math.degrees(math.atan2(x, -y)) % 360.0


def angle_between(a: float, b: float) -> float:
    """Smallest absolute difference between two angles in degrees."""
    d = abs(a - b) % 360.0
    return min(d, 360.0 - d)


# --- directions ---------------------------------------------------------------------------------


def test_directions_are_clockwise_from_north_60_degrees_apart() -> None:
    assert [round(screen_angle(d)) for d in DIRECTIONS] == [0, 60, 120, 180, 240, 300]
    assert DIRECTION_NAMES == ("N", "NE", "SE", "S", "SW", "NW")
    expected = (Hex(0, -1), Hex(1, -1), Hex(1, 0), Hex(0, 1), Hex(-1, 1), Hex(-1, 0))
    assert expected == DIRECTIONS


def test_directions_sum_to_zero_and_opposites_cancel() -> None:
    assert sum(d.q for d in DIRECTIONS) == 0
    assert sum(d.r for d in DIRECTIONS) == 0
    for i, d in enumerate(DIRECTIONS):
        assert add(d, DIRECTIONS[opposite(i)]) == ORIGIN


def test_hex_is_a_hashable_tuple_with_cube_s_and_json_list() -> None:
    h = Hex(2, -5)
    assert h.s == 3
    assert h == (2, -5)
    assert hash(h) == hash((2, -5))
    assert json.loads(json.dumps(h)) == [2, -5]
    assert {h: 1}[Hex(2, -5)] == 1


def test_add_sub_scale() -> None:
    assert add(Hex(1, 2), Hex(-3, 5)) == Hex(-2, 7)
    assert sub(Hex(1, 2), Hex(-3, 5)) == Hex(4, -3)
    assert scale(Hex(1, -2), 3) == Hex(3, -6)


def test_neighbor_and_neighbors_follow_direction_order() -> None:
    h = Hex(3, -1)
    assert neighbors(h) == tuple(add(h, d) for d in DIRECTIONS)
    assert [neighbor(h, i) for i in range(6)] == list(neighbors(h))


def test_direction_to_finds_adjacent_directions_only() -> None:
    h = Hex(-2, 4)
    for i in range(6):
        assert direction_to(h, neighbor(h, i)) == i
    assert direction_to(h, h) is None
    assert direction_to(h, add(h, Hex(2, -1))) is None
    assert direction_to(h, add(h, scale(DIRECTIONS[0], 2))) is None


def test_turn_is_modular_and_positive_is_clockwise() -> None:
    assert turn(0, 1) == 1
    assert turn(5, 1) == 0
    assert turn(0, -1) == 5
    assert turn(2, 9) == 5
    assert [opposite(d) for d in range(6)] == [3, 4, 5, 0, 1, 2]
    # Turning right moves the front 60° clockwise on screen.
    for f in FACINGS:
        right = screen_angle(DIRECTIONS[turn(f, 1)])
        assert angle_between(right, screen_angle(DIRECTIONS[f]) + 60) < 1e-9


# --- relations ----------------------------------------------------------------------------------


def test_relation_values_codes_and_from_code() -> None:
    assert [int(r) for r in Relation] == [0, 1, 2, 3, 4, 5]
    assert [r.code for r in Relation] == ["F", "FR", "RR", "R", "RL", "FL"]
    for r in Relation:
        assert Relation.from_code(r.code) is r
    with pytest.raises(ValueError, match="unknown relation code 'X'"):
        Relation.from_code("X")


def test_relations_for_facing_north_explicit_table() -> None:
    table = {
        Relation.FRONT: (0, Hex(0, -1)),
        Relation.RIGHT_FRONT: (1, Hex(1, -1)),
        Relation.RIGHT_REAR: (2, Hex(1, 0)),
        Relation.REAR: (3, Hex(0, 1)),
        Relation.LEFT_REAR: (4, Hex(-1, 1)),
        Relation.LEFT_FRONT: (5, Hex(-1, 0)),
    }
    for rel, (direction, hex_) in table.items():
        assert relative_direction(0, rel) == direction
        assert neighbor_at(ORIGIN, 0, rel) == hex_
        assert relation_of(ORIGIN, 0, hex_) is rel


def test_relations_for_facing_southeast_example() -> None:
    h = Hex(4, 2)
    assert neighbor_at(h, 2, Relation.FRONT) == neighbor(h, 2)  # SE
    assert neighbor_at(h, 2, Relation.RIGHT_FRONT) == neighbor(h, 3)  # S
    assert neighbor_at(h, 2, Relation.RIGHT_REAR) == neighbor(h, 4)  # SW
    assert neighbor_at(h, 2, Relation.REAR) == neighbor(h, 5)  # NW
    assert neighbor_at(h, 2, Relation.LEFT_REAR) == neighbor(h, 0)  # N
    assert neighbor_at(h, 2, Relation.LEFT_FRONT) == neighbor(h, 1)  # NE


# Written out by hand (not computed) for every facing: names of F, FR, RR, R, RL, FL.
EXPECTED_RELATION_DIRECTIONS = {
    0: ("N", "NE", "SE", "S", "SW", "NW"),
    1: ("NE", "SE", "S", "SW", "NW", "N"),
    2: ("SE", "S", "SW", "NW", "N", "NE"),
    3: ("S", "SW", "NW", "N", "NE", "SE"),
    4: ("SW", "NW", "N", "NE", "SE", "S"),
    5: ("NW", "N", "NE", "SE", "S", "SW"),
}


@pytest.mark.parametrize("facing", FACINGS)
@pytest.mark.parametrize("relation", RELATIONS)
def test_relation_maps_to_expected_absolute_direction_and_neighbor(
    facing: int, relation: Relation
) -> None:
    expected_name = EXPECTED_RELATION_DIRECTIONS[facing][relation]
    direction = DIRECTION_NAMES.index(expected_name)
    origin = Hex(3, -7)
    assert relative_direction(facing, relation) == direction
    assert neighbor_at(origin, facing, relation) == neighbor(origin, direction)
    assert relation_of(origin, facing, neighbor(origin, direction)) is relation
    # Geometric check: the relation's side sits 60° * relation clockwise of the front.
    front = screen_angle(DIRECTIONS[facing])
    side = screen_angle(sub(neighbor_at(origin, facing, relation), origin))
    assert angle_between(side, front + 60 * relation) < 1e-9


@given(origin=hexes, facing=facings, relation=st.sampled_from(RELATIONS))
def test_relation_of_inverts_neighbor_at(origin: Hex, facing: int, relation: Relation) -> None:
    assert relation_of(origin, facing, neighbor_at(origin, facing, relation)) is relation


@pytest.mark.parametrize("target", [Hex(0, 0), Hex(0, -2), Hex(2, -1), Hex(5, 5)])
def test_relation_of_rejects_non_adjacent_target(target: Hex) -> None:
    with pytest.raises(ValueError, match="not adjacent"):
        relation_of(ORIGIN, 0, target)


# --- distance -----------------------------------------------------------------------------------


def test_distance_basics() -> None:
    assert distance(ORIGIN, ORIGIN) == 0
    assert distance(ORIGIN, Hex(0, -3)) == 3
    assert distance(ORIGIN, Hex(2, -1)) == 2
    assert distance(ORIGIN, Hex(3, 3)) == 6
    assert distance(Hex(1, 1), Hex(-2, 4)) == 3


@given(a=hexes, b=hexes)
def test_distance_is_symmetric_and_matches_cube_max(a: Hex, b: Hex) -> None:
    d = distance(a, b)
    assert d == distance(b, a)
    assert d == max(abs(a.q - b.q), abs(a.r - b.r), abs(a.s - b.s))
    assert (d == 0) == (a == b)


@given(a=hexes, b=hexes, c=hexes)
def test_distance_triangle_inequality(a: Hex, b: Hex, c: Hex) -> None:
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@given(h=hexes)
def test_distance_to_each_neighbor_is_one(h: Hex) -> None:
    assert all(distance(h, n) == 1 for n in neighbors(h))


# --- rings and disks ----------------------------------------------------------------------------


@pytest.mark.parametrize("radius", range(1, 8))
def test_ring_has_6r_hexes_at_radius_in_clockwise_order(radius: int) -> None:
    centre = Hex(2, -3)
    hs = ring(centre, radius)
    assert len(hs) == 6 * radius
    assert len(set(hs)) == len(hs)
    assert all(distance(centre, h) == radius for h in hs)
    assert hs[0] == add(centre, scale(DIRECTIONS[0], radius))
    for a, b in zip(hs, hs[1:] + hs[:1], strict=True):
        assert distance(a, b) == 1
    # Clockwise: the screen angle around the centre never decreases over one turn.
    angles = [screen_angle(sub(h, centre)) for h in hs]
    assert angles == sorted(angles)


def test_ring_zero_is_centre_and_negative_radius_raises() -> None:
    assert ring(Hex(1, 1), 0) == [Hex(1, 1)]
    with pytest.raises(ValueError):
        ring(ORIGIN, -1)
    with pytest.raises(ValueError):
        disk(ORIGIN, -1)


@pytest.mark.parametrize("radius", range(7))
def test_disk_size_is_3r_r_plus_1_plus_1_ordered_by_ring(radius: int) -> None:
    centre = Hex(-1, 4)
    hs = disk(centre, radius)
    assert len(hs) == 3 * radius * (radius + 1) + 1
    assert len(set(hs)) == len(hs)
    expected = [h for k in range(radius + 1) for h in ring(centre, k)]
    assert hs == expected


# --- lines --------------------------------------------------------------------------------------


def assert_is_line(hs: list[Hex], a: Hex, b: Hex) -> None:
    n = distance(a, b)
    assert len(hs) == n + 1
    assert hs[0] == a
    assert hs[-1] == b
    for i, h in enumerate(hs):
        assert distance(a, h) == i
        assert distance(h, b) == n - i


@given(a=hexes, b=hexes)
def test_line_length_endpoints_and_consecutive_adjacency(a: Hex, b: Hex) -> None:
    hs = line(a, b)
    assert_is_line(hs, a, b)
    assert all(distance(x, y) == 1 for x, y in itertools.pairwise(hs))


@given(a=hexes, b=hexes)
def test_line_reversed_is_line_of_reversed_endpoints(a: Hex, b: Hex) -> None:
    assert line(b, a) == line(a, b)[::-1]


@given(a=hexes, b=hexes)
def test_lines_between_are_both_lines_and_differ_only_by_adjacent_hexes(a: Hex, b: Hex) -> None:
    plus, minus = lines_between(a, b)
    assert plus == line(a, b)
    assert_is_line(minus, a, b)
    for x, y in zip(plus, minus, strict=True):
        assert x == y or distance(x, y) == 1


def test_line_along_a_direction_is_straight_and_unambiguous() -> None:
    for d in range(6):
        end = scale(DIRECTIONS[d], 4)
        expected = [scale(DIRECTIONS[d], k) for k in range(5)]
        assert line(ORIGIN, end) == expected
        assert lines_between(ORIGIN, end) == (expected, expected)


@pytest.mark.parametrize(
    ("end", "middles"),
    [
        (Hex(1, 1), {Hex(1, 0), Hex(0, 1)}),
        (Hex(2, -1), {Hex(1, 0), Hex(1, -1)}),
        (Hex(-1, 2), {Hex(0, 1), Hex(-1, 1)}),
        (Hex(-1, -1), {Hex(-1, 0), Hex(0, -1)}),
    ],
)
def test_lines_between_split_when_line_runs_along_hex_edges(end: Hex, middles: set[Hex]) -> None:
    plus, minus = lines_between(ORIGIN, end)
    assert plus[0] == minus[0] == ORIGIN
    assert plus[2] == minus[2] == end
    assert {plus[1], minus[1]} == middles


def test_line_of_a_single_hex() -> None:
    assert line(Hex(3, 3), Hex(3, 3)) == [Hex(3, 3)]
    assert lines_between(Hex(3, 3), Hex(3, 3)) == ([Hex(3, 3)], [Hex(3, 3)])


# --- cones --------------------------------------------------------------------------------------


@pytest.mark.parametrize("facing", FACINGS)
@pytest.mark.parametrize(("radius", "size"), [(0, 0), (1, 3), (2, 8), (3, 15), (4, 24)])
def test_cone_sizes_for_every_facing(facing: int, radius: int, size: int) -> None:
    hs = cone(Hex(5, -2), facing, radius)
    assert len(hs) == size
    assert len(set(hs)) == size


@pytest.mark.parametrize("facing", FACINGS)
def test_cone_radius_one_is_left_front_front_right_front(facing: int) -> None:
    origin = Hex(-3, 1)
    assert cone(origin, facing, 1) == [
        neighbor_at(origin, facing, Relation.LEFT_FRONT),
        neighbor_at(origin, facing, Relation.FRONT),
        neighbor_at(origin, facing, Relation.RIGHT_FRONT),
    ]


@pytest.mark.parametrize("facing", FACINGS)
def test_cone_is_the_frontal_120_degrees_within_radius(facing: int) -> None:
    front = screen_angle(DIRECTIONS[facing])
    inside = set(cone(ORIGIN, facing, 3))
    for h in disk(ORIGIN, 5)[1:]:
        expected = distance(ORIGIN, h) <= 3 and angle_between(screen_angle(h), front) <= 60 + 1e-9
        assert (h in inside) == expected, h


@pytest.mark.parametrize("facing", FACINGS)
@pytest.mark.parametrize("radius", range(5))
def test_in_cone_agrees_with_cone_exhaustively(facing: int, radius: int) -> None:
    origin = Hex(2, 7)
    inside = set(cone(origin, facing, radius))
    for h in disk(origin, radius + 2):
        assert in_cone(origin, facing, h, radius) == (h in inside), h


@given(
    origin=hexes,
    facing=facings,
    radius=st.integers(min_value=0, max_value=6),
    offset=st.builds(Hex, st.integers(-9, 9), st.integers(-9, 9)),
)
def test_in_cone_agrees_with_cone(origin: Hex, facing: int, radius: int, offset: Hex) -> None:
    target = add(origin, offset)
    assert in_cone(origin, facing, target, radius) == (target in cone(origin, facing, radius))


def test_cone_negative_radius_raises() -> None:
    with pytest.raises(ValueError):
        cone(ORIGIN, 0, -1)


# --- sectors and facing toward ------------------------------------------------------------------


@pytest.mark.parametrize("facing", FACINGS)
@pytest.mark.parametrize("relation", RELATIONS)
def test_sector_of_on_a_direction_line_is_that_relation(facing: int, relation: Relation) -> None:
    origin = Hex(1, -4)
    direction = relative_direction(facing, relation)
    for k in range(1, 6):
        target = add(origin, scale(DIRECTIONS[direction], k))
        assert sector_of(origin, facing, target) == {relation}


@pytest.mark.parametrize("facing", FACINGS)
@pytest.mark.parametrize("relation", RELATIONS)
def test_sector_of_between_two_lines_is_both_relations(facing: int, relation: Relation) -> None:
    origin = Hex(-2, 0)
    left = DIRECTIONS[relative_direction(facing, relation)]
    right = DIRECTIONS[relative_direction(facing, relation + 1)]
    expected = {relation, Relation((relation + 1) % 6)}
    for a in range(1, 4):
        for b in range(1, 4):
            target = add(origin, add(scale(left, a), scale(right, b)))
            assert sector_of(origin, facing, target) == expected


def test_sector_of_examples_facing_north() -> None:
    assert sector_of(ORIGIN, 0, Hex(0, -3)) == {Relation.FRONT}
    assert sector_of(ORIGIN, 0, Hex(1, -3)) == {Relation.FRONT, Relation.RIGHT_FRONT}
    assert sector_of(ORIGIN, 0, Hex(-1, -1)) == {Relation.LEFT_FRONT, Relation.FRONT}
    assert sector_of(ORIGIN, 0, Hex(0, 2)) == {Relation.REAR}
    assert sector_of(ORIGIN, 3, Hex(0, 2)) == {Relation.FRONT}


@pytest.mark.parametrize("facing", FACINGS)
def test_sector_of_agrees_with_screen_angles(facing: int) -> None:
    front = screen_angle(DIRECTIONS[facing])
    for h in disk(ORIGIN, 7)[1:]:
        rel = ((screen_angle(h) - front) % 360.0) / 60.0
        nearest = round(rel)
        if abs(rel - nearest) < 1e-9:
            expected = {Relation(nearest % 6)}
        else:
            low = math.floor(rel)
            expected = {Relation(low % 6), Relation((low + 1) % 6)}
        assert sector_of(ORIGIN, facing, h) == expected, h


@given(origin=hexes, facing=facings, direction=st.integers(0, 5))
def test_sector_of_adjacent_equals_relation_of(origin: Hex, facing: int, direction: int) -> None:
    target = neighbor(origin, direction)
    assert sector_of(origin, facing, target) == {relation_of(origin, facing, target)}


def test_sector_of_and_facing_toward_reject_the_origin() -> None:
    with pytest.raises(ValueError):
        sector_of(Hex(1, 1), 0, Hex(1, 1))
    with pytest.raises(ValueError):
        facing_toward(Hex(1, 1), Hex(1, 1))


def test_facing_toward_direction_lines_and_nearest_line() -> None:
    for d in range(6):
        assert facing_toward(Hex(4, 4), add(Hex(4, 4), scale(DIRECTIONS[d], 3))) == d
    assert facing_toward(ORIGIN, Hex(1, -3)) == 0  # 2*N + 1*NE: nearer N
    assert facing_toward(ORIGIN, Hex(2, -3)) == 1  # 1*N + 2*NE: nearer NE
    assert facing_toward(ORIGIN, Hex(-3, 1)) == 5  # between SW and NW, nearer NW


def test_facing_toward_exact_tie_goes_to_counter_clockwise_boundary() -> None:
    # Targets on the bisector between directions d and d+1 choose d.
    for d in range(6):
        target = add(DIRECTIONS[d], DIRECTIONS[(d + 1) % 6])
        assert facing_toward(ORIGIN, target) == d
        assert facing_toward(ORIGIN, scale(target, 3)) == d
    assert facing_toward(ORIGIN, Hex(1, -2)) == 0  # N/NE
    assert facing_toward(ORIGIN, Hex(-1, -1)) == 5  # NW/N


def test_facing_toward_minimises_angle_to_target() -> None:
    for h in disk(ORIGIN, 8)[1:]:
        target = screen_angle(h)
        chosen = angle_between(screen_angle(DIRECTIONS[facing_toward(ORIGIN, h)]), target)
        best = min(angle_between(screen_angle(d), target) for d in DIRECTIONS)
        assert chosen == pytest.approx(best, abs=1e-9), h


@given(origin=hexes, target=hexes)
def test_facing_toward_target_is_in_that_sector(origin: Hex, target: Hex) -> None:
    if origin == target:
        return
    facing = facing_toward(origin, target)
    assert Relation.FRONT in sector_of(origin, facing, target)


# --- offsets and pixels -------------------------------------------------------------------------


@given(h=hexes)
def test_offset_round_trip(h: Hex) -> None:
    assert from_offset(*to_offset(h)) == h


@given(col=coords, row=coords)
def test_offset_round_trip_from_offset_side(col: int, row: int) -> None:
    assert to_offset(from_offset(col, row)) == (col, row)


def test_odd_q_layout_shoves_odd_columns_down() -> None:
    assert from_offset(0, 0) == Hex(0, 0)
    assert from_offset(1, 0) == Hex(1, 0)
    assert from_offset(2, 0) == Hex(2, -1)
    assert from_offset(3, 0) == Hex(3, -1)
    assert from_offset(3, 2) == Hex(3, 1)
    half = math.sqrt(3) / 2
    for row in range(3):
        for col in range(-3, 4):
            x, y = to_pixel(from_offset(col, row))
            assert x == pytest.approx(1.5 * col)
            assert y == pytest.approx(math.sqrt(3) * row + (half if col % 2 else 0.0))


def test_to_pixel_flat_top_centres() -> None:
    assert to_pixel(ORIGIN, 10.0) == (0.0, 0.0)
    x, y = to_pixel(Hex(0, -1), 10.0)
    assert x == 0.0
    assert y == pytest.approx(-10 * math.sqrt(3))
    for n in neighbors(ORIGIN):
        assert math.hypot(*to_pixel(n, 2.0)) == pytest.approx(2.0 * math.sqrt(3))


@given(h=hexes, size=st.floats(min_value=0.5, max_value=100.0))
def test_from_pixel_inverts_to_pixel(h: Hex, size: float) -> None:
    assert from_pixel(*to_pixel(h, size), size) == h


# --- maps ---------------------------------------------------------------------------------------


def test_hexagon_side_6_has_91_hexes_and_is_11_across() -> None:
    m = hexagon(6)
    assert len(m.hexes) == 91
    for values in ([h.q for h in m.hexes], [h.r for h in m.hexes], [h.s for h in m.hexes]):
        assert max(values) - min(values) + 1 == 11
    assert set(m.hexes) == set(disk(ORIGIN, 5))
    assert m.centre() == ORIGIN
    assert ORIGIN in m
    assert Hex(0, -6) not in m
    assert m.name == "hexagon-6"


@pytest.mark.parametrize("side", range(1, 9))
def test_hexagon_size_formula(side: int) -> None:
    assert len(hexagon(side).hexes) == 3 * side * (side - 1) + 1


def test_is_edge_marks_the_outer_ring() -> None:
    m = hexagon(6)
    edges = {h for h in m.hexes if m.is_edge(h)}
    assert edges == set(ring(ORIGIN, 5))
    assert not m.is_edge(Hex(0, -7))  # off the map entirely


def test_rectangle_is_odd_q_offset_block() -> None:
    m = rectangle(8, 5)
    assert len(m.hexes) == 40
    assert {to_offset(h) for h in m.hexes} == {(c, r) for c in range(8) for r in range(5)}
    assert m.name == "rectangle-8x5"


def test_centre_is_nearest_to_centroid_with_deterministic_tie_break() -> None:
    assert rectangle(3, 3).centre() == from_offset(1, 1)
    # 2x2 block: (0, 1) and (1, 0) are equally near the centroid; the smaller (q, r) wins.
    assert rectangle(2, 2).centre() == Hex(0, 1)
    shifted = HexMap("shifted", frozenset(add(h, Hex(10, -4)) for h in hexagon(3).hexes))
    assert shifted.centre() == Hex(10, -4)
    with pytest.raises(ValueError):
        HexMap("empty", frozenset()).centre()


def test_to_dict_keeps_shape_form() -> None:
    assert hexagon(6).to_dict() == {"shape": "hexagon", "side": 6, "name": "hexagon-6"}
    assert rectangle(4, 3, name="pit").to_dict() == {
        "shape": "rectangle",
        "width": 4,
        "height": 3,
        "name": "pit",
    }


def test_to_dict_falls_back_to_hexes_form_when_hexes_differ_from_shape() -> None:
    m = hexagon(2)
    trimmed = HexMap(m.name, m.hexes - {Hex(0, -1)}, shape=m.shape)
    d = trimmed.to_dict()
    assert d["shape"] == "hexes"
    assert len(d["hexes"]) == 6
    assert HexMap.from_dict(d) == trimmed


MAP_DICTS: list[dict[str, Any]] = [
    {"shape": "hexagon", "side": 6},
    {"shape": "hexagon", "side": 3, "name": "small", "walls": [[0, 0, 0], [1, -1, 4]]},
    {"shape": "rectangle", "width": 7, "height": 4, "walls": [[2, 1, 5]]},
    {"shape": "hexes", "hexes": [[0, 0], [1, 0], [1, -1]], "name": "tri"},
    {"shape": "hexes", "hexes": [[0, 0], [0, 1]], "walls": [[0, 1, 0]]},
]


@pytest.mark.parametrize("data", MAP_DICTS)
def test_hexmap_from_dict_to_dict_round_trip(data: dict[str, Any]) -> None:
    m = HexMap.from_dict(data)
    d = m.to_dict()
    assert d["shape"] == data["shape"]
    again = HexMap.from_dict(json.loads(json.dumps(d)))
    assert again == m
    assert again.to_dict() == d
    if "name" in data:
        assert m.name == data["name"]


def test_hexmap_from_dict_builds_expected_hexes_and_walls() -> None:
    m = HexMap.from_dict({"shape": "hexes", "hexes": [[0, 0], [0, 1]], "walls": [[0, 1, 0]]})
    assert m.hexes == {Hex(0, 0), Hex(0, 1)}
    assert m.walls == {(Hex(0, 0), 3)} or m.walls == {(Hex(0, 1), 0)}
    assert m.blocked(Hex(0, 0), 3)
    assert m.blocked(Hex(0, 1), 0)
    assert m.name == "custom"


def test_walls_are_normalised() -> None:
    h = Hex(1, -1)
    for d in range(6):
        n = neighbor(h, d)
        assert normalise_wall(h, d) == normalise_wall(n, opposite(d))
        assert normalise_wall(h, d)[1] in (0, 1, 2)
        a = hexagon(4, walls=[(h, d)])
        b = hexagon(4, walls=[(n, opposite(d))])
        assert a == b
        assert a.walls == b.walls
        assert len(a.walls) == 1
        assert a.blocked(h, d)
        assert a.blocked(n, opposite(d))
        assert not any(a.blocked(h, other) for other in range(6) if other != d)
        assert all(side in (0, 1, 2) for _q, _r, side in a.to_dict()["walls"])


def test_equivalent_wall_spellings_in_dicts_give_equal_maps() -> None:
    a = HexMap.from_dict({"shape": "hexagon", "side": 3, "walls": [[0, 0, 4]]})
    b = HexMap.from_dict({"shape": "hexagon", "side": 3, "walls": [[-1, 1, 1]]})
    assert a == b
    assert a.to_dict() == b.to_dict()


def test_walls_between_map_and_outside_are_allowed_but_fully_off_map_walls_raise() -> None:
    m = hexagon(2, walls=[(Hex(0, -1), 0)])
    assert m.blocked(Hex(0, -1), 0)
    with pytest.raises(ValueError, match="off the map"):
        hexagon(2, walls=[(Hex(5, 5), 0)])
    with pytest.raises(ValueError, match="direction"):
        normalise_wall(ORIGIN, 6)


def test_shape_factories_reject_non_positive_sizes() -> None:
    with pytest.raises(ValueError, match="side"):
        hexagon(0)
    with pytest.raises(ValueError, match="width"):
        rectangle(0, 3)
    with pytest.raises(ValueError, match="height"):
        rectangle(3, -1)


BAD_MAP_DICTS: list[tuple[Any, str]] = [
    ([1, 2], "expected a mapping"),
    ({}, "unknown shape None"),
    ({"shape": "circle", "radius": 3}, "unknown shape 'circle'"),
    ({"shape": "hexagon"}, "missing 'side'"),
    ({"shape": "hexagon", "side": 0}, "'side' must be a positive integer, got 0"),
    ({"shape": "hexagon", "side": -2}, "'side' must be a positive integer"),
    ({"shape": "hexagon", "side": "6"}, "'side' must be a positive integer, got '6'"),
    ({"shape": "hexagon", "side": 6.0}, "'side' must be a positive integer"),
    ({"shape": "hexagon", "side": True}, "'side' must be a positive integer"),
    ({"shape": "hexagon", "side": 3, "sides": 3}, "unknown key"),
    ({"shape": "hexagon", "side": 3, "name": 7}, "'name' must be a string"),
    ({"shape": "rectangle", "width": 0, "height": 3}, "'width' must be a positive integer"),
    ({"shape": "rectangle", "width": 3}, "missing 'height'"),
    ({"shape": "hexes"}, "'hexes' must be a non-empty list"),
    ({"shape": "hexes", "hexes": []}, "'hexes' must be a non-empty list"),
    ({"shape": "hexes", "hexes": "0,0"}, "'hexes' must be a non-empty list"),
    ({"shape": "hexes", "hexes": [[0, 0], [1]]}, r"hexes\[1\] must be \[q, r\]"),
    ({"shape": "hexes", "hexes": [[0, "1"]]}, r"hexes\[0\] must be \[q, r\]"),
    ({"shape": "hexes", "hexes": [[0, 0], [0, 0]]}, "duplicate hex"),
    ({"shape": "hexagon", "side": 2, "walls": "none"}, "'walls' must be a list"),
    ({"shape": "hexagon", "side": 2, "walls": [[0, 0]]}, r"walls\[0\] must be \[q, r, direction\]"),
    ({"shape": "hexagon", "side": 2, "walls": [[0, 0, 6]]}, r"walls\[0\] direction must be 0..5"),
    ({"shape": "hexagon", "side": 2, "walls": [[9, 9, 0]]}, r"wall \[9, 9, 0\] is off the map"),
]


@pytest.mark.parametrize(("data", "message"), BAD_MAP_DICTS)
def test_bad_map_dicts_raise_value_error_with_one_line_message(data: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message) as info:
        HexMap.from_dict(data)
    text = str(info.value)
    assert text.startswith("hex map: ")
    assert "\n" not in text


def test_long_bad_values_are_abbreviated_in_messages() -> None:
    with pytest.raises(ValueError) as info:
        HexMap.from_dict({"shape": "hexes", "hexes": [list(range(100))]})
    assert len(str(info.value)) < 120
