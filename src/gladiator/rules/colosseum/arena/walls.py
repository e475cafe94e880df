"""The Advanced Game's arena walls (§25, §7.7.1, T13, T38): the arena's size, the wall markers on
the map's edges, the wall check when a gladiator leaves the map and the collision with a wall.

The board is the odd-q rectangle of the match options (columns 0..width-1, rows 0..height-1, as
`hexgrid.rectangle`). Its four edges are lines: a hex lies beyond the **north** edge if its row
is below 0, beyond the **south** edge if its row is height or more, beyond the **west** edge if
its column is below 0 and beyond the **east** edge if its column is width or more (offset
coordinates, `hexgrid.to_offset`). A corner hex off the board may lie beyond two edges. A wall
marker (the wall counters of §2.3.2) on an edge makes every hex beyond that line a wall; drawn,
it is every hex-side between a board hex and such a hex (`wall_sides`).

This module is pure: the movement module (movement.py) asks an `Arena` where its tracks meet a
wall and calls `wall_stun` and `check_edges`; the engine rolls the size once (`setup_arena`) and
keeps the markers on the state (`ColosseumState.walls`). Every die goes through the match's dice
with its purpose and section.

RULINGS (docs/rulings.md, the W series)

W1  §25.2, §4.4, Q22: the size is 2D3 − 1 (T38), rolled when the match is set up, after the log
    sheets (§4.3-§4.5), unless the match option `arena_size` fixes it (1..5: a series of matches,
    or a campaign, carries its size from match to match that way). §4.4's "roll 2D6 on the Arena
    Table" names a table the book does not print, so there is no 2D6 variant to offer.
W2  §25.2.2: a Fighting Pit (size 5) has all four edges walled from the start and never rolls.
W3  §25.4, §8.2: a gladiator whose next hex lies beyond a walled edge does not enter it: he stops
    in the last hex he reached (any movement left is cancelled, keeping the facing he had there)
    and suffers the wall collision. His track is cut before the collisions between gladiators are
    looked for (the wall is there all phase); if a collision stops him before he reaches the wall
    he never hits it, and one that happens later than his step into the wall comes after it.
W4  T13: 2D6 + 2 per hex moved forward this phase (his own steps before the wall: SFL and SFR are
    forward, as T12's M6; the step into the wall is not a hex moved) + 4 if a collision pushed
    him into it − his AG, read on T7's Stun row (Q2: at least 1 Stun), with the column's extra
    (weapon drop, shield drop, fall prone) as a collision's.
W5  §25.4 "suffers a collision [see 8]": he then checks for Stumble as a collision's defender
    does (§8.4.4, §15.2.1 with his hexes moved backward and the Stun in effect). Match option
    `wall_stumble = false` reads T13 alone (a Stun roll, no check).
W6  §8.4.1, Q36: a defender whose push would take him beyond a walled edge is pinned against the
    wall: he stays in the contested hex and suffers the wall collision (+4) after the
    collision's Stun, before its one Stumble check (Q36's "positional penalty"); the attacker,
    who cannot stand in the defender's hex, stops in his hex of entry.
W7  §25.3, §25.3.1, T38: each gladiator who leaves the map across an unmarked edge (a push
    included) rolls 1D6 + size once per edge and phase, in the order the steps happened; above 5
    that edge is marked. If the opposite edge is marked, he does not roll and that marker goes
    (the fight has moved away from it). Then the map is shifted as normal (§7.7, M13), so a
    marker placed this phase blocks from the next phase on; Q45's alternative (the roll made
    before the step, a wall found stopping it at once) contradicts "adjust the map as normal"
    and is not offered.
W8  I8: a dropped, thrown or kicked item, or a Blood counter (§26.2), never leaves the board, so
    at a walled edge it stops at the wall exactly as it stops at an unmarked one; no item rolls
    for a wall (§25.3 speaks of gladiators).
W9  §7.7, E9: with walls on, a man held by a wall (W3, W6) is not held a further step by E9;
    with walls off (option `walls = false`) or in the Basic Game M13 and E9 play as before.
W10 §13.4.1 T14: a wall collision is a collision (§25.4): +4 on his recovery roll and no
    Recover action after it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from gladiator.core.hexgrid import Hex, Wall, neighbor, normalise_wall, rectangle, to_offset
from gladiator.rules.colosseum.arena.positions import hex_text
from gladiator.rules.colosseum.events import Event, event
from gladiator.rules.colosseum.movement.collision_records import (
    Edge,
    EdgeCheck,
    StunRoll,
    WallCollision,
)
from gladiator.rules.colosseum.tables.advanced_tables import advanced_tables
from gladiator.rules.colosseum.tables.tables import stun_result, tables

__all__ = [
    "EDGES",
    "OPPOSITE_EDGE",
    "Arena",
    "Edge",
    "EdgeCheck",
    "WallCollision",
    "arena_of",
    "check_edges",
    "edges_beyond",
    "in_edge_order",
    "setup_arena",
    "wall_sides",
    "wall_stun",
]

EDGES: tuple[Edge, ...] = ("north", "east", "south", "west")
OPPOSITE_EDGE: dict[Edge, Edge] = {
    "north": "south",
    "south": "north",
    "east": "west",
    "west": "east",
}


class WallDice(Protocol):
    """What this module needs of `gladiator.core.dice.Dice`."""

    def d(self, sides: int, purpose: str, rule: str) -> int: ...

    def roll(self, notation: str, purpose: str, rule: str) -> int: ...


def edges_beyond(h: Hex, width: int, height: int) -> tuple[Edge, ...]:
    """The edge lines of the width × height odd-q board that `h` lies beyond (none: on it)."""
    col, row = to_offset(h)
    out: list[Edge] = []
    if row < 0:
        out.append("north")
    if col >= width:
        out.append("east")
    if row >= height:
        out.append("south")
    if col < 0:
        out.append("west")
    return tuple(out)


def in_edge_order(edges: Iterable[str]) -> tuple[Edge, ...]:
    """Edge names in the order north, east, south, west; ValueError on an unknown one."""
    given = set(edges)
    unknown = given - set(EDGES)
    if unknown:
        raise ValueError(f"unknown map edges {sorted(unknown)}: the edges are {list(EDGES)}")
    return tuple(e for e in EDGES if e in given)


@dataclass(frozen=True, slots=True)
class Arena:
    """§25: the arena of this phase: the board's size, the Arena Size (T38) and the walled edges;
    `stumble` is W5's Stumble check after a wall collision."""

    width: int
    height: int
    size: int
    walls: frozenset[Edge] = frozenset()
    stumble: bool = True

    def wall_beyond(self, h: Hex) -> Edge | None:
        """The walled edge `h` lies beyond (north, east, south, west first), if any."""
        return next((e for e in edges_beyond(h, self.width, self.height) if e in self.walls), None)

    def blocked_step(self, hexes: Sequence[Hex]) -> tuple[int, Edge] | None:
        """W3: the index in `hexes` (a track, his start first) of the first hex beyond a wall,
        and that wall; None if the way meets none."""
        for i, h in enumerate(hexes):
            wall = self.wall_beyond(h)
            if wall is not None:
                return i, wall
        return None

    def crossings(self, hexes: Sequence[Hex]) -> list[tuple[int, Edge]]:
        """W7: (index, edge) for each edge line the track first goes beyond, in step order."""
        out: list[tuple[int, Edge]] = []
        seen: set[Edge] = set()
        for i, h in enumerate(hexes):
            for e in edges_beyond(h, self.width, self.height):
                if e not in seen:
                    seen.add(e)
                    out.append((i, e))
        return out


def wall_sides(width: int, height: int, walls: Iterable[str]) -> list[Wall]:
    """The hex-sides a front end draws for the marked edges: each side between a board hex and a
    hex beyond a walled edge line, normalised as `HexMap` keeps walls."""
    marked = set(in_edge_order(walls))
    if not marked:
        return []
    board = rectangle(width, height)
    sides: set[Wall] = set()
    for h in board.hexes:
        for d in range(6):
            n = neighbor(h, d)
            if n not in board and marked & set(edges_beyond(n, width, height)):
                sides.add(normalise_wall(h, d))
    return sorted(sides)


# --- the arena at the start of a match (§25.2) --------------------------------------------------


def setup_arena(
    options: Mapping[str, Any], dice: WallDice
) -> tuple[int | None, tuple[Edge, ...], list[Event]]:
    """§25.2, T38 (W1, W2): the Arena Size and the walls the match starts with; (None, (), [])
    outside the Advanced Game or with walls off."""
    if not options.get("advanced") or not options.get("walls", True):
        return None, (), []
    t38 = tables().arena.t38
    chosen = options.get("arena_size", "roll")
    events: list[Event] = []
    if chosen == "roll":
        notation = f"{t38.dice}{t38.modifier:+d}"
        size = dice.roll(notation, f"Arena Size ({notation}, T38)", "§25.2")
        how = f"{notation} rolls {size}"
    else:
        size = int(chosen)
        how = f"the match option sets {size}"
    if size == t38.colosseum:
        what = "the Colosseum in Rome"
    elif size == t38.fighting_pit:
        what = "a Fighting Pit: every edge of the map is a wall"
    else:
        what = "an arena whose walls are found as the fight reaches them"
    events.append(
        event("arena", "§25.2", f"Arena Size {size} ({how}): {what}", size=size, rolled=chosen)
    )
    walls: tuple[Edge, ...] = EDGES if size == t38.fighting_pit else ()
    return size, walls, events


def arena_of(options: Mapping[str, Any], size: int | None, walls: Iterable[str]) -> Arena | None:
    """The arena movement plays this phase; None where there are no walls (Basic Game, or walls
    off), so the board's edge is §7.7's alone."""
    if size is None or not options.get("advanced") or not options.get("walls", True):
        return None
    return Arena(
        int(options["board_width"]),
        int(options["board_height"]),
        size,
        frozenset(in_edge_order(walls)),
        stumble=bool(options.get("wall_stumble", True)),
    )


# --- the collision with a wall (§25.4, T13) ------------------------------------------------------


def wall_stun(
    figure: str,
    where: Hex,
    edge: Edge,
    *,
    ag: int,
    forward: int,
    pushed: bool,
    dice: WallDice,
) -> tuple[WallCollision, Event]:
    """§25.4, T13 (W4): 2D6 + the T13 DRMs that apply, on T7's Stun row."""
    t13 = advanced_tables().wall_collision.t13
    d = t13.drms
    drms: list[tuple[str, int]] = []
    if forward:
        drms.append(("moved_forward", d.moved_forward.total(forward)))
    if pushed:
        drms.append(("pushed", d.pushed.total()))
    if ag:
        drms.append(("agility", d.agility.total(ag)))
    roll = dice.roll(t13.dice, f"{figure} collides with the {edge} wall (T13)", "§25.4")
    modifier = sum(v for _, v in drms)
    points, extra = stun_result(roll + modifier)
    stun = StunRoll(figure, roll, modifier, roll + modifier, points, extra)
    detail = "".join(f" {v:+d} {name}" for name, v in drms)
    more = f" and {extra.replace('_', ' ')}" if extra else ""
    how = "is pushed into" if pushed else "runs into"
    ev = event(
        "wall_collision",
        "§25.4",
        f"{figure} {how} the {edge} wall at {hex_text(where)}: 2D6 {roll}{detail} = "
        f"{roll + modifier}: {points} Stun{more}",
        figure=figure,
        edge=edge,
        stun=points,
        extra=extra,
        pushed=pushed,
    )
    return WallCollision(figure, where, edge, pushed, forward, tuple(drms), stun), ev


# --- the wall check at the map's edge (§25.3) ----------------------------------------------------


def check_edges(
    arena: Arena, crossings: Sequence[tuple[str, Edge]], dice: WallDice
) -> tuple[frozenset[Edge], tuple[EdgeCheck, ...], list[Event]]:
    """§25.3, §25.3.1 (W7): the wall check for each (gladiator, edge) he left the map across, in
    order; the walled edges after them, the checks and the events."""
    t38 = tables().arena.t38
    walls = set(arena.walls)
    checks: list[EdgeCheck] = []
    events: list[Event] = []
    for figure, edge in crossings:
        if edge in walls:  # marked by an earlier check this phase (W7)
            continue
        far = OPPOSITE_EDGE[edge]
        if far in walls:
            walls.discard(far)
            checks.append(EdgeCheck(figure, edge, None, None, False, removed=far))
            events.append(
                event(
                    "wall_removed",
                    "§25.3.1",
                    f"{figure} leaves the map across the {edge} edge; the {far} edge is a wall, "
                    f"so no wall roll: the {far} wall marker is removed",
                    figure=figure,
                    edge=edge,
                    removed=far,
                )
            )
            continue
        roll = dice.roll(t38.wall_dice, f"wall check: {figure} leaves the {edge} edge", "§25.3")
        total = roll + arena.size
        placed = total > t38.wall_if_above
        if placed:
            walls.add(edge)
        verdict = (
            f"above {t38.wall_if_above}: the fight has reached a wall, the {edge} edge is marked"
            if placed
            else f"not above {t38.wall_if_above}: no wall there"
        )
        checks.append(EdgeCheck(figure, edge, roll, total, placed))
        events.append(
            event(
                "wall_check",
                "§25.3",
                f"{figure} leaves the map across the {edge} edge: 1D6 {roll} + size "
                f"{arena.size} = {total}, {verdict}",
                figure=figure,
                edge=edge,
                total=total,
                placed=placed,
            )
        )
    return frozenset(walls), tuple(checks), events
