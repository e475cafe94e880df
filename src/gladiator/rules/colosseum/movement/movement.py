"""The Colosseum Basic Game's simultaneous movement (§5.2.2, §7.7, §8) and combat geometry (§9.1,
§9.2, T11, T40).

`resolve_movement(figures, paths, dice, board=...)` takes every gladiator's revealed path for the
phase (a list of `(hex, facing)` poses, the start first, as the phase-plot module's `path` gives
it), executes them together, finds and resolves the collisions (§8: same hex, crossing paths,
Prone opponents at mercy, Impact Factors, placement, the Stun roll and the Stumble check) and
brings everyone back onto the map (§7.7). It returns a `MovementResult`: the new positions, the
event dicts `{"type", "rule", "text", ...}` (the text ends with the rule section, e.g.
"... (§8.4.1)"), a `Collision` record per collision and the §7.7 shift. Every die goes through
`dice` with its purpose and rule section.

It is pure: the caller applies the Stun, the stumble and the Moment of Truth to its own state.
The geometry of combat is `combat_geometry.py`, the board and its §7.7 shift `board.py`, the
records this step returns `collision_records.py`; M13-M15 are written down there. The tracks
and where they meet (M1-M4) are `movement_tracks.py`, each collision's resolution (M5-M11)
`collisions.py`.

RULINGS (each choice this module makes where the rulebook leaves room; shared/rules/colosseum.md)

M12 Q36: a defender put into a hex another gladiator holds collides with him there, resolved the
    same way (cause "push"). After a pair has collided it does not roll for a crossing again. A
    runaway chain (only possible with three or more figures) stops after `2·n²` collisions and
    anyone still sharing a hex is put in the nearest free hex (proposal).

In the Advanced Game the map's edges may be walls (§7.7.1, §25): given an `arena`, tracks stop
at walls, pushes into them pin, and leaving the map rolls for a wall (walls.py, W3-W9).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from gladiator.core.hexgrid import Hex, HexMap, distance, ring
from gladiator.rules.colosseum.arena.board import BoardTooSmall, map_edge_shift
from gladiator.rules.colosseum.arena.positions import Position, hex_text
from gladiator.rules.colosseum.arena.walls import Arena, Edge, EdgeCheck, check_edges
from gladiator.rules.colosseum.events import Event, event
from gladiator.rules.colosseum.movement.collision_records import (
    FigureState,
    MovementResult,
    StumbleRule,
)
from gladiator.rules.colosseum.movement.collisions import CollisionPhase
from gladiator.rules.colosseum.movement.movement_tracks import (
    Step,
    cut_track,
    hexes_moved,
    make_track,
    pair_candidate,
    track_end,
)
from gladiator.rules.colosseum.movement.stumble_check import MovementDice

__all__ = ["resolve_movement"]


def _nearest_free(h: Hex, taken: set[Hex]) -> Hex:
    radius = 1
    while True:
        for cand in ring(h, radius):
            if cand not in taken:
                return cand
        radius += 1


def _uncrowded(
    names: Sequence[str], tracks: Mapping[str, list[Step]]
) -> tuple[dict[str, Position], list[Event]]:
    """Where the tracks end; M12: only a runaway chain of pushes can leave two in one hex."""
    positions = {n: track_end(tracks[n]) for n in names}
    events: list[Event] = []
    taken: set[Hex] = set()
    for n in names:
        if positions[n].hex in taken:
            free = _nearest_free(positions[n].hex, taken)
            events.append(
                event(
                    "crowded",
                    "Q36",
                    f"{n} cannot stay in crowded {hex_text(positions[n].hex)}; "
                    f"he moves to {hex_text(free)}",
                    figure=n,
                )
            )
            positions[n] = Position(free, positions[n].facing)
        taken.add(positions[n].hex)
    return positions, events


def _hold_at_edge(
    names: Sequence[str],
    tracks: dict[str, list[Step]],
    events: list[Event],
    walled: Collection[str] = (),
) -> None:
    """E9, §7.7: the board cannot hold everyone where the tracks end (they have run farther
    apart than it is wide). Each man whose last step took him farther from the nearest other is
    held one step short (all who moved, if none did); the caller tries the shift again. They all
    began the phase on the board, so this ends. W9: a man a wall holds (`walled`) stays there."""

    def nearest(n: str, h: Hex) -> int:
        return min((distance(h, tracks[o][-1].hex) for o in names if o != n), default=0)

    moved = [n for n in names if len(tracks[n]) > 1 and n not in walled]
    moved = moved or [n for n in names if len(tracks[n]) > 1]
    away = [n for n in moved if nearest(n, tracks[n][-1].hex) > nearest(n, tracks[n][-2].hex)]
    for n in away or moved:
        tracks[n] = cut_track(tracks[n], len(tracks[n]) - 2)
        events.append(
            event(
                "held_at_edge",
                "§7.7",
                f"{n} is held at the edge of the arena in {hex_text(tracks[n][-1].hex)}: the "
                "board cannot keep everyone on it farther apart (E9)",
                figure=n,
                hex=tracks[n][-1].hex,
            )
        )


def resolve_movement(
    figures: Mapping[str, FigureState],
    paths: Mapping[str, Sequence[Any]],
    dice: MovementDice,
    *,
    board: HexMap,
    stumble_rule: StumbleRule = "text",
    arena: Arena | None = None,
) -> MovementResult:
    """§5.2.2, §8, §7.7: reveal every path and execute them together (RULINGS M1-M13).

    `paths[name]` is the gladiator's list of `(hex, facing)` poses for this phase, his current
    position first; one who does not move gives just that. Every figure in `figures` needs a
    path and they must start in different hexes of `board`. Figures are handled in the mapping's
    order (dice are rolled in that order within each collision). With an `arena` (the Advanced
    Game's walls, §25) the walls it marks stop the tracks and leaving the map rolls for a wall
    (W3-W9); `board` must be the arena's rectangle.
    """

    if set(figures) != set(paths):
        raise ValueError(
            f"figures {sorted(figures)} and paths {sorted(paths)} must name the same gladiators"
        )
    if stumble_rule not in ("text", "reference"):
        raise ValueError(f"stumble_rule must be 'text' or 'reference', got {stumble_rule!r}")
    names = list(figures)
    tracks = {n: make_track(n, figures[n], paths[n]) for n in names}
    starts: dict[Hex, str] = {}
    for n in names:
        start = tracks[n][0].hex
        if start in starts:
            raise ValueError(f"{starts[start]} and {n} cannot start in the same hex (§8.1)")
        if start not in board:
            raise ValueError(f"{n} starts off the board at {hex_text(start)}")
        starts[start] = n
    phase = CollisionPhase(figures, tracks, dice, stumble_rule, arena)
    for n in names:
        end = track_end(tracks[n])
        steps = len(tracks[n]) - 1
        phase.events.append(
            event(
                "reveal",
                "§5.2.2",
                f"{n} plots {steps} hex{'es' if steps != 1 else ''} from "
                f"{hex_text(tracks[n][0].hex)} "
                f"to {hex_text(end.hex)} facing {end.facing}",
                figure=n,
            )
        )

    # W3: a walled edge stops him where he meets it; (index of the step, wall, track before it).
    at_wall: dict[str, tuple[int, Edge, list[Step]]] = {}
    if arena is not None:
        for n in names:
            blocked = arena.blocked_step([s.hex for s in tracks[n]])
            if blocked is not None:
                tracks[n] = tracks[n][: blocked[0]]
                at_wall[n] = (blocked[0], blocked[1], list(tracks[n]))

    def reach_walls(until: int | None) -> None:
        """W3: the wall collisions of those whose step into the wall came by step `until`."""
        for n in names:
            if n in at_wall and (until is None or at_wall[n][0] <= until):
                i, edge, before = at_wall.pop(n)
                if phase.stopped.get(n, i) >= i:  # no collision stopped him short of it
                    forward, backward = hexes_moved(before, i - 1)
                    phase.wall_hit(n, before[-1].hex, edge, forward, backward, pushed=False)

    pairs = [(names[i], names[j]) for i in range(len(names)) for j in range(i + 1, len(names))]
    rolled: set[frozenset[str]] = set()
    collided: set[frozenset[str]] = set()
    limit = 2 * len(names) ** 2
    while len(phase.collisions) < limit:
        found = [
            cand
            for order, (x, y) in enumerate(pairs)
            if (cand := pair_candidate(order, x, y, tracks, figures, rolled, collided)) is not None
        ]
        if not found:
            break
        c = min(found, key=lambda cand: cand.key)
        reach_walls(c.key[0])
        pair = frozenset((c.x, c.y))
        crossing: tuple[int, int] | None = None
        if not c.certain:
            a = dice.d(6, f"{c.x} crossing {c.y}'s path", "§8.1.1")
            b = dice.d(6, f"{c.y} crossing {c.x}'s path", "§8.1.1")
            crossing = (a, b)
            rolled.add(pair)
            verdict = "match: they collide" if a == b else "no collision"
            phase.events.append(
                event(
                    "crossing",
                    "§8.1.1",
                    f"{c.x} and {c.y} both pass through {hex_text(c.hex)}: "
                    f"1D6 {a} and {b}, {verdict}",
                    hex=c.hex,
                    dice=[a, b],
                    collide=a == b,
                )
            )
            if a != b:
                continue
        collided.add(pair)
        phase.collide(c, crossing)

    reach_walls(None)

    walled = {w.figure for w in phase.wall_hits}
    while True:
        positions, crowd_events = _uncrowded(names, tracks)
        try:
            positions, shift, shift_events = map_edge_shift(positions, board)
        except BoardTooSmall:
            _hold_at_edge(names, tracks, phase.events, walled)  # E9, W9
            continue
        phase.events.extend(crowd_events)
        break
    markers: frozenset[str] | None = None
    edge_checks: tuple[EdgeCheck, ...] = ()
    if arena is not None:  # W7: the wall check for each edge he left the map across
        # W3, W6: nobody's track ever goes into a wall (the property tests lean on this).
        assert all(arena.blocked_step([s.hex for s in tracks[n]]) is None for n in names)
        crossings = sorted(
            (i, k, n, e)
            for k, n in enumerate(names)
            for i, e in arena.crossings([s.hex for s in tracks[n]])
        )
        walls_now, edge_checks, edge_events = check_edges(
            arena, [(n, e) for _, _, n, e in crossings], dice
        )
        markers = frozenset(walls_now)
        phase.events.extend(edge_events)
    phase.events.extend(shift_events)
    for n in names:
        phase.events.append(
            event(
                "moved",
                "§5.2.2",
                f"{n} ends in {hex_text(positions[n].hex)} facing {positions[n].facing}",
                figure=n,
                hex=positions[n].hex,
                facing=positions[n].facing,
            )
        )
    moved = {n: tuple((step.hex, str(step.kind)) for step in tracks[n]) for n in names}
    return MovementResult(
        positions,
        phase.events,
        phase.collisions,
        shift,
        moved,
        tuple(phase.wall_hits),
        edge_checks,
        markers,
    )
