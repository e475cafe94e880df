"""Flat-top hex geometry in axial coordinates.

Conventions shared by the whole engine:

* `Hex(q, r)` is an axial coordinate; the cube third is `s = -q - r`. Hexes are flat-topped and
  screen y grows downward.
* Directions are numbered 0..5 clockwise from north: N, NE, SE, S, SW, NW.
* A facing is the direction number of the hex-side the figure's front points through.
* `Relation` numbers a figure's six sides clockwise from its front, so the absolute direction of
  a relation is `(facing + relation) % 6`.

Everything here is pure. The small functions called in inner loops (`distance`, `neighbor`,
`direction_to`, `relation_of`, `in_cone`) avoid building lists and enum lookups.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from functools import cached_property
from typing import Any, NamedTuple

__all__ = [
    "DIRECTIONS",
    "DIRECTION_NAMES",
    "Hex",
    "HexMap",
    "Relation",
    "Wall",
    "add",
    "cone",
    "direction_to",
    "disk",
    "distance",
    "facing_toward",
    "from_offset",
    "from_pixel",
    "hexagon",
    "in_cone",
    "line",
    "lines_between",
    "neighbor",
    "neighbor_at",
    "neighbors",
    "normalise_wall",
    "opposite",
    "rectangle",
    "relation_of",
    "relative_direction",
    "ring",
    "scale",
    "sector_of",
    "sub",
    "to_offset",
    "to_pixel",
    "turn",
]


class Hex(NamedTuple):
    """A hex in axial coordinates. A plain tuple underneath: hashes fast, JSON-encodes as [q, r]."""

    q: int
    r: int

    @property
    def s(self) -> int:
        """The cube coordinate `-q - r`."""
        return -self.q - self.r


# Hex(q, r) goes through the generated Python-level __new__; calling tuple.__new__ directly is
# about twice as fast, which matters in the functions the engine and bots call millions of times.
_mk = tuple.__new__

DIRECTIONS: tuple[Hex, ...] = (
    Hex(0, -1),  # 0 N
    Hex(1, -1),  # 1 NE
    Hex(1, 0),  # 2 SE
    Hex(0, 1),  # 3 S
    Hex(-1, 1),  # 4 SW
    Hex(-1, 0),  # 5 NW
)
DIRECTION_NAMES: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")

# Keyed by plain (dq, dr) tuples: they hash and compare equal to Hex, and are cheaper to build.
_DIRECTION_INDEX: dict[tuple[int, int], int] = {d: i for i, d in enumerate(DIRECTIONS)}

_RELATION_CODES: tuple[str, ...] = ("F", "FR", "RR", "R", "RL", "FL")


class Relation(IntEnum):
    """Where something lies relative to a figure's front, numbered clockwise (to the right)."""

    FRONT = 0
    RIGHT_FRONT = 1
    RIGHT_REAR = 2
    REAR = 3
    LEFT_REAR = 4
    LEFT_FRONT = 5

    @property
    def code(self) -> str:
        """Short code: F, FR, RR, R, RL, FL."""
        return _RELATION_CODES[self]

    @classmethod
    def from_code(cls, code: str) -> Relation:
        """The relation with this short code; ValueError if there is none."""
        try:
            return _RELATION_BY_CODE[code]
        except KeyError:
            known = ", ".join(_RELATION_CODES)
            raise ValueError(f"unknown relation code {code!r} (expected one of {known})") from None


# Indexing a tuple is far cheaper than calling Relation(n) in hot paths.
_RELATIONS: tuple[Relation, ...] = tuple(Relation)
_RELATION_BY_CODE: dict[str, Relation] = {rel.code: rel for rel in Relation}


# --- basic arithmetic ---------------------------------------------------------------------------


def add(a: Hex, b: Hex) -> Hex:
    """a + b."""
    return _mk(Hex, (a[0] + b[0], a[1] + b[1]))


def sub(a: Hex, b: Hex) -> Hex:
    """a - b."""
    return _mk(Hex, (a[0] - b[0], a[1] - b[1]))


def scale(h: Hex, k: int) -> Hex:
    """h * k."""
    return _mk(Hex, (h[0] * k, h[1] * k))


def neighbor(h: Hex, direction: int) -> Hex:
    """The hex adjacent to h through side `direction` (0..5)."""
    d = DIRECTIONS[direction]
    return _mk(Hex, (h[0] + d[0], h[1] + d[1]))


def neighbors(h: Hex) -> tuple[Hex, ...]:
    """The six neighbours of h in direction order N, NE, SE, S, SW, NW."""
    q, r = h
    return (
        _mk(Hex, (q, r - 1)),
        _mk(Hex, (q + 1, r - 1)),
        _mk(Hex, (q + 1, r)),
        _mk(Hex, (q, r + 1)),
        _mk(Hex, (q - 1, r + 1)),
        _mk(Hex, (q - 1, r)),
    )


def distance(a: Hex, b: Hex) -> int:
    """Number of steps between a and b (cube distance)."""
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def direction_to(a: Hex, b: Hex) -> int | None:
    """The direction from a to b if b is adjacent to a, else None."""
    return _DIRECTION_INDEX.get((b[0] - a[0], b[1] - a[1]))


def turn(facing: int, steps: int) -> int:
    """Facing after turning `steps` hex-sides; positive is clockwise (to the right)."""
    return (facing + steps) % 6


def opposite(direction: int) -> int:
    """The direction pointing the other way."""
    return (direction + 3) % 6


# --- facing and relations -----------------------------------------------------------------------


def relative_direction(facing: int, relation: int) -> int:
    """Absolute direction of `relation` for a figure with this facing."""
    return (facing + relation) % 6


def relation_of(origin: Hex, facing: int, target: Hex) -> Relation:
    """Which of the figure's sides the ADJACENT target touches; ValueError if not adjacent."""
    d = _DIRECTION_INDEX.get((target[0] - origin[0], target[1] - origin[1]))
    if d is None:
        raise ValueError(f"{target} is not adjacent to {origin}")
    return _RELATIONS[(d - facing) % 6]


def neighbor_at(origin: Hex, facing: int, relation: int) -> Hex:
    """The hex touching the figure's `relation` side."""
    d = DIRECTIONS[(facing + relation) % 6]
    return _mk(Hex, (origin[0] + d[0], origin[1] + d[1]))


# --- areas and lines ----------------------------------------------------------------------------


def ring(center: Hex, radius: int) -> list[Hex]:
    """Hexes at exactly `radius`, clockwise from the north corner (`center + radius * N`)."""
    if radius < 0:
        raise ValueError(f"ring radius must be >= 0, got {radius}")
    if radius == 0:
        return [center]
    q = center[0]
    r = center[1] - radius
    out: list[Hex] = []
    # From the N corner the sides run SE, S, SW, NW, N, NE: direction (side + 2) % 6.
    for side in range(6):
        dq, dr = DIRECTIONS[(side + 2) % 6]
        for _ in range(radius):
            out.append(_mk(Hex, (q, r)))
            q += dq
            r += dr
    return out


def disk(center: Hex, radius: int) -> list[Hex]:
    """All hexes within `radius`: the centre, then ring 1, ring 2, ... each in ring order."""
    if radius < 0:
        raise ValueError(f"disk radius must be >= 0, got {radius}")
    out = [center]
    for k in range(1, radius + 1):
        out.extend(ring(center, k))
    return out


def _cube_round(fq: float, fr: float, fs: float) -> Hex:
    q = round(fq)
    r = round(fr)
    s = round(fs)
    dq = abs(q - fq)
    dr = abs(r - fr)
    ds = abs(s - fs)
    # Recompute the coordinate that rounded worst so that q + r + s == 0 again.
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return _mk(Hex, (q, r))


# Unequal components so the nudge is never parallel to a hex edge: a point lying exactly on an
# edge is always pushed off it, to one side by +nudge and to the other by -nudge.
_NUDGE = (1e-6, 2e-6, -3e-6)


def _nudged_line(a: Hex, b: Hex, sign: float) -> list[Hex]:
    n = distance(a, b)
    if n == 0:
        return [a]
    aq, ar = a
    dq = b[0] - aq
    dr = b[1] - ar
    ds = -dq - dr
    fq = aq + sign * _NUDGE[0]
    fr = ar + sign * _NUDGE[1]
    fs = -aq - ar + sign * _NUDGE[2]
    # (d * i) / n rather than d / n * i: exact integer product, one rounding.
    return [_cube_round(fq + dq * i / n, fr + dr * i / n, fs + ds * i / n) for i in range(n + 1)]


def line(a: Hex, b: Hex) -> list[Hex]:
    """Hexes on the straight line a..b inclusive (cube lerp, +epsilon nudge); distance + 1 long.

    The nudge is the same at both ends, so `line(b, a) == line(a, b)[::-1]`.
    """
    return _nudged_line(a, b, 1.0)


def lines_between(a: Hex, b: Hex) -> tuple[list[Hex], list[Hex]]:
    """The line a..b nudged by +epsilon and by -epsilon.

    They differ only where the true line runs exactly along a hex edge; there the two lists
    hold the hexes on either side of it. The first is `line(a, b)`.
    """
    return _nudged_line(a, b, 1.0), _nudged_line(a, b, -1.0)


# --- cones and sectors --------------------------------------------------------------------------


def _inverse_basis(u: Hex, v: Hex) -> tuple[int, int, int, int]:
    """Coefficients (aq, ar, bq, br) with x = a*u + b*v for a = aq*x.q + ar*x.r, etc."""
    det = u[0] * v[1] - u[1] * v[0]
    # Any two distinct non-opposite directions form a lattice basis, so det is +-1 and the
    # inverse is integral (1/det == det).
    if det not in (1, -1):  # pragma: no cover - guards the tables below
        raise AssertionError(f"{u} and {v} do not form a unimodular basis")
    return v[1] * det, -v[0] * det, -u[1] * det, u[0] * det


# Per facing: basis (left-front direction, right-front direction) of the frontal cone.
_CONE_BASIS: tuple[tuple[int, int, int, int], ...] = tuple(
    _inverse_basis(DIRECTIONS[(f - 1) % 6], DIRECTIONS[(f + 1) % 6]) for f in range(6)
)
# Per direction d: basis (direction d, direction d + 1) of the 60° wedge between them.
_WEDGE_BASIS: tuple[tuple[int, int, int, int], ...] = tuple(
    _inverse_basis(DIRECTIONS[d], DIRECTIONS[(d + 1) % 6]) for d in range(6)
)


def cone(origin: Hex, facing: int, radius: int) -> list[Hex]:
    """The frontal 120° cone out to `radius`: 3, 8, 15 hexes for radius 1, 2, 3.

    Hexes `origin + a*dir(facing-1) + b*dir(facing+1)`, a, b >= 0, 1 <= max(a, b) <= radius;
    ordered by distance, then clockwise from the left-front line to the right-front line.
    """
    if radius < 0:
        raise ValueError(f"cone radius must be >= 0, got {radius}")
    lq, lr = DIRECTIONS[(facing - 1) % 6]
    rq, rr = DIRECTIONS[(facing + 1) % 6]
    oq, or_ = origin
    out: list[Hex] = []
    for k in range(1, radius + 1):
        for b in range(k):
            out.append(_mk(Hex, (oq + k * lq + b * rq, or_ + k * lr + b * rr)))
        for a in range(k, -1, -1):
            out.append(_mk(Hex, (oq + a * lq + k * rq, or_ + a * lr + k * rr)))
    return out


def in_cone(origin: Hex, facing: int, target: Hex, radius: int) -> bool:
    """Whether target is in `cone(origin, facing, radius)`, without building it."""
    vq = target[0] - origin[0]
    vr = target[1] - origin[1]
    aq, ar, bq, br = _CONE_BASIS[facing]
    a = aq * vq + ar * vr
    if a < 0 or a > radius:
        return False
    b = bq * vq + br * vr
    return 0 <= b <= radius and (a > 0 or b > 0)


def _sector_index(vq: int, vr: int) -> int:
    """Absolute sector of a non-zero vector, 0..11 clockwise from the N line.

    Even k: on the line of direction k // 2. Odd k: strictly between directions k // 2 and
    k // 2 + 1. Each line is where one cube coordinate is zero; each wedge is a sign pattern.
    """
    vs = -vq - vr
    if vq == 0:
        return 0 if vr < 0 else 6
    if vr == 0:
        return 4 if vq > 0 else 10
    if vs == 0:
        return 2 if vq > 0 else 8
    if vq > 0:
        if vr < 0:
            return 1 if vs > 0 else 3
        return 5
    if vr > 0:
        return 7 if vs < 0 else 9
    return 11


def _sector_sets(facing: int) -> tuple[frozenset[Relation], ...]:
    sets: list[frozenset[Relation]] = []
    for k in range(12):
        rel = (k // 2 - facing) % 6
        if k % 2 == 0:
            sets.append(frozenset({_RELATIONS[rel]}))
        else:
            sets.append(frozenset({_RELATIONS[rel], _RELATIONS[(rel + 1) % 6]}))
    return tuple(sets)


_SECTOR_SETS: tuple[tuple[frozenset[Relation], ...], ...] = tuple(_sector_sets(f) for f in range(6))


def sector_of(origin: Hex, facing: int, target: Hex) -> frozenset[Relation]:
    """The relation(s) whose direction lines bound target, seen from a figure at origin.

    One relation if target is on a direction line (straight out through a side), else the two
    adjacent relations whose lines enclose it. ValueError if target == origin.
    """
    vq = target[0] - origin[0]
    vr = target[1] - origin[1]
    if vq == 0 and vr == 0:
        raise ValueError(f"sector_of: target {target} is the origin")
    return _SECTOR_SETS[facing][_sector_index(vq, vr)]


def facing_toward(origin: Hex, target: Hex) -> int:
    """The facing whose front points most directly at target.

    On a direction line, that direction. Between the lines of directions d and d+1 (clockwise),
    the one at the smaller angle; an exact tie (target on the bisector, e.g. Hex(1, -2) from
    Hex(0, 0)) goes to d, the counter-clockwise (left) boundary of the sector.
    ValueError if target == origin.
    """
    vq = target[0] - origin[0]
    vr = target[1] - origin[1]
    if vq == 0 and vr == 0:
        raise ValueError(f"facing_toward: target {target} is the origin")
    k = _sector_index(vq, vr)
    d = k // 2
    if k % 2 == 0:
        return d
    # v = a*dir(d) + b*dir(d+1) with a, b > 0; both are unit vectors, so the angle to dir(d)
    # is the smaller exactly when a > b.
    aq, ar, bq, br = _WEDGE_BASIS[d]
    a = aq * vq + ar * vr
    b = bq * vq + br * vr
    return d if a >= b else (d + 1) % 6


# --- rendering coordinates ----------------------------------------------------------------------

_SQRT3 = math.sqrt(3.0)


def to_offset(h: Hex) -> tuple[int, int]:
    """(col, row) in the "odd-q" layout: flat-top, odd columns shoved down half a hex."""
    q, r = h
    return q, r + (q - (q & 1)) // 2


def from_offset(col: int, row: int) -> Hex:
    """Inverse of `to_offset`."""
    return _mk(Hex, (col, row - (col - (col & 1)) // 2))


def to_pixel(h: Hex, size: float = 1.0) -> tuple[float, float]:
    """Centre of h in pixels (y down), Hex(0, 0) at the origin; `size` is the corner radius."""
    q, r = h
    return size * 1.5 * q, size * _SQRT3 * (q / 2 + r)


def from_pixel(x: float, y: float, size: float = 1.0) -> Hex:
    """The hex containing pixel (x, y); inverse of `to_pixel`."""
    fq = (2.0 / 3.0) * x / size
    fr = (-x / 3.0 + _SQRT3 / 3.0 * y) / size
    return _cube_round(fq, fr, -fq - fr)


# --- maps ---------------------------------------------------------------------------------------

Wall = tuple[Hex, int]
_Shape = tuple[str, tuple[int, ...]]


def normalise_wall(h: Hex, direction: int) -> Wall:
    """The canonical form of the hex-side (h, direction): the side's owner is the hex for which
    it is its N, NE or SE side, so (h, d) and (neighbor(h, d), opposite(d)) give the same key."""
    if isinstance(direction, bool) or not isinstance(direction, int) or not 0 <= direction < 6:
        raise ValueError(f"wall direction must be an integer 0..5, got {direction!r}")
    if direction < 3:
        return Hex(h[0], h[1]), direction
    return neighbor(h, direction), direction - 3


# A map's to_dict compares its hexes with its shape's on every scene sent (issue 13, item 5):
# the shapes are few and their hexes never change.
@functools.lru_cache(maxsize=64)
def _shape_hexes(shape: _Shape) -> frozenset[Hex]:
    kind, sizes = shape
    if kind == "hexagon":
        return frozenset(disk(Hex(0, 0), sizes[0] - 1))
    if kind == "rectangle":
        width, height = sizes
        return frozenset(from_offset(c, r) for c in range(width) for r in range(height))
    raise ValueError(f"unknown map shape {kind!r}")  # pragma: no cover - internal misuse


# Keys each shape needs, in the order `to_dict` writes them.
_SHAPE_KEYS: dict[str, tuple[str, ...]] = {
    "hexagon": ("side",),
    "rectangle": ("width", "height"),
    "hexes": ("hexes",),
}
_COMMON_KEYS = ("shape", "name", "walls")


@dataclass(frozen=True, repr=False)
class HexMap:
    """A board: the set of playable hexes plus blocked hex-sides (walls).

    Walls are stored normalised (see `normalise_wall`). `shape` remembers the generating shape
    (e.g. ("hexagon", (6,))) so `to_dict` can write the compact form; it takes no part in
    equality.
    """

    name: str
    hexes: frozenset[Hex]
    walls: frozenset[Wall] = frozenset()
    shape: _Shape | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        hexes = frozenset(Hex(h[0], h[1]) for h in self.hexes)
        walls = frozenset(normalise_wall(h, d) for h, d in self.walls)
        for h, d in walls:
            if h not in hexes and neighbor(h, d) not in hexes:
                raise ValueError(f"wall {[h.q, h.r, d]} is off the map")
        object.__setattr__(self, "hexes", hexes)
        object.__setattr__(self, "walls", walls)

    def __repr__(self) -> str:
        return f"HexMap(name={self.name!r}, hexes={len(self.hexes)}, walls={len(self.walls)})"

    def __contains__(self, h: object) -> bool:
        return h in self.hexes

    def __len__(self) -> int:
        return len(self.hexes)

    def is_edge(self, h: Hex) -> bool:
        """True if h is on the map and at least one of its neighbours is not."""
        hexes = self.hexes
        return h in hexes and any(n not in hexes for n in neighbors(h))

    def blocked(self, h: Hex, direction: int) -> bool:
        """True if a wall stands on side `direction` of h."""
        if direction < 3:
            return (h, direction) in self.walls
        return (neighbor(h, direction), direction - 3) in self.walls

    def centre(self) -> Hex:
        """The map hex nearest (Euclidean) the centroid; ties go to the smallest (q, r)."""
        return self._centre

    @cached_property
    def _centre(self) -> Hex:
        # Worked out once per map: the §7.7 shift asks for it after every movement.
        n = len(self.hexes)
        if n == 0:
            raise ValueError("centre of an empty map")
        sq = sum(h[0] for h in self.hexes)
        sr = sum(h[1] for h in self.hexes)

        # Squared pixel distance is proportional to dq² + dq·dr + dr²; scaled by n² it is exact.
        def key(h: Hex) -> tuple[int, int, int]:
            dq = n * h[0] - sq
            dr = n * h[1] - sr
            return dq * dq + dq * dr + dr * dr, h[0], h[1]

        return min(self.hexes, key=key)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form; the shape form if the map was built from one, else the hexes form."""
        d: dict[str, Any]
        if self.shape is not None and _shape_hexes(self.shape) == self.hexes:
            kind, sizes = self.shape
            d = {"shape": kind}
            d.update(zip(_SHAPE_KEYS[kind], sizes, strict=True))
        else:
            d = {"shape": "hexes", "hexes": [[q, r] for q, r in sorted(self.hexes)]}
        d["name"] = self.name
        if self.walls:
            d["walls"] = [[h.q, h.r, side] for h, side in sorted(self.walls)]
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> HexMap:
        """Build a map from `to_dict` output; ValueError with a one-line message on bad data."""
        if not isinstance(data, Mapping):
            raise ValueError(f"hex map: expected a mapping, got {type(data).__name__}")
        kind = data.get("shape")
        if not isinstance(kind, str) or kind not in _SHAPE_KEYS:
            expected = ", ".join(repr(k) for k in _SHAPE_KEYS)
            raise ValueError(f"hex map: unknown shape {_short(kind)} (expected one of {expected})")
        allowed = set(_SHAPE_KEYS[kind]) | set(_COMMON_KEYS)
        unknown = sorted(repr(k) for k in data if k not in allowed)
        if unknown:
            raise ValueError(f"hex map: unknown key(s) {', '.join(unknown)} for shape {kind!r}")
        name = data.get("name")
        if name is not None and not isinstance(name, str):
            raise ValueError(f"hex map: 'name' must be a string, got {_short(name)}")

        shape: _Shape | None
        if kind == "hexes":
            shape = None
            hexes = _parse_hexes(data.get("hexes"))
            default_name = "custom"
        else:
            sizes = tuple(_positive_int(data, key) for key in _SHAPE_KEYS[kind])
            shape = (kind, sizes)
            hexes = _shape_hexes(shape)
            default_name = f"{kind}-{'x'.join(map(str, sizes))}"

        walls = _parse_walls(data.get("walls", []), hexes)
        return cls(default_name if name is None else name, hexes, walls, shape)


def _short(value: object, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _positive_int(data: Mapping[str, object], key: str) -> int:
    if key not in data:
        raise ValueError(f"hex map: missing {key!r}")
    value = data[key]
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"hex map: {key!r} must be a positive integer, got {_short(value)}")
    return value


def _int_list(value: object, length: int) -> list[int] | None:
    if not isinstance(value, list | tuple) or len(value) != length:
        return None
    if not all(_is_int(x) for x in value):
        return None
    return [int(x) for x in value]


def _parse_hexes(raw: object) -> frozenset[Hex]:
    if not isinstance(raw, list | tuple) or not raw:
        raise ValueError(f"hex map: 'hexes' must be a non-empty list of [q, r], got {_short(raw)}")
    hexes: set[Hex] = set()
    for i, item in enumerate(raw):
        coords = _int_list(item, 2)
        if coords is None:
            raise ValueError(f"hex map: hexes[{i}] must be [q, r] integers, got {_short(item)}")
        h = Hex(coords[0], coords[1])
        if h in hexes:
            raise ValueError(f"hex map: duplicate hex {coords}")
        hexes.add(h)
    return frozenset(hexes)


def _parse_walls(raw: object, hexes: frozenset[Hex]) -> frozenset[Wall]:
    if not isinstance(raw, list | tuple):
        raise ValueError(f"hex map: 'walls' must be a list of [q, r, direction], got {_short(raw)}")
    walls: set[Wall] = set()
    for i, item in enumerate(raw):
        coords = _int_list(item, 3)
        if coords is None:
            raise ValueError(
                f"hex map: walls[{i}] must be [q, r, direction] integers, got {_short(item)}"
            )
        q, r, d = coords
        if not 0 <= d < 6:
            raise ValueError(f"hex map: walls[{i}] direction must be 0..5, got {d}")
        h = Hex(q, r)
        if h not in hexes and neighbor(h, d) not in hexes:
            raise ValueError(f"hex map: wall {coords} is off the map")
        walls.add(normalise_wall(h, d))
    return frozenset(walls)


def hexagon(side: int, name: str | None = None, walls: Iterable[Wall] = ()) -> HexMap:
    """A hexagonal map of `side` hexes per edge around Hex(0, 0): 3N(N-1)+1 hexes, 2N-1 across."""
    if not _is_int(side) or side < 1:
        raise ValueError(f"hexagon side must be a positive integer, got {side!r}")
    shape: _Shape = ("hexagon", (side,))
    label = f"hexagon-{side}" if name is None else name
    return HexMap(label, _shape_hexes(shape), frozenset(walls), shape)


def rectangle(
    width: int, height: int, name: str | None = None, walls: Iterable[Wall] = ()
) -> HexMap:
    """An odd-q offset rectangle: columns 0..width-1, rows 0..height-1."""
    for key, value in (("width", width), ("height", height)):
        if not _is_int(value) or value < 1:
            raise ValueError(f"rectangle {key} must be a positive integer, got {value!r}")
    shape: _Shape = ("rectangle", (width, height))
    label = f"rectangle-{width}x{height}" if name is None else name
    return HexMap(label, _shape_hexes(shape), frozenset(walls), shape)
