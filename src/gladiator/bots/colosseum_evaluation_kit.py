"""What a gladiator's kit makes of his attacks and of where he stands, for the evaluation (the
Advanced Game: §21 weapons, §23 unarmed, §24 two weapons, §25 walls, §26 Blood counters).

Every number comes from the engine's own functions: the strokes he would make this phase
(`weapon_combat.strokes`: each attack's weapon, its halvings and the swap of its results), who
reaches whom (`weapon_combat.reaches`), what he may pick up (`weapons.may_pick_up`) and where the
walls are (`walls.arena_of`). Nothing here rolls or changes a state; in the Basic Game (no style)
each function gives the Basic Game's answer (`Kit()`, no halvings, no walls).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from gladiator.bots.colosseum_evaluation import Kit, hit_value
from gladiator.core.hexgrid import Hex, to_offset
from gladiator.rules.colosseum.arena.walls import Arena, arena_of
from gladiator.rules.colosseum.combat.weapon_combat import Stroke, reaches, strokes
from gladiator.rules.colosseum.kit.weapons import may_pick_up, weapon
from gladiator.rules.colosseum.state import ColosseumState, Gladiator, GroundItem

__all__ = [
    "StrokeKit",
    "arena",
    "attack_kits",
    "blocked",
    "long_reach",
    "pickable_weapons",
    "pose_kit",
    "wall_gap",
]


@dataclass(frozen=True, slots=True)
class StrokeKit:
    """One attack as the evaluation prices it: how often it is halved (F10, rounded down each
    time) and what its weapon does to the results (`Kit`)."""

    halvings: int
    kit: Kit


def _stroke_kit(g: Gladiator, stroke: Stroke) -> StrokeKit:
    halvings = len(stroke.halvings)
    if stroke.blow.weapon is None:  # §23.2.1 (F15): a parried fist is a wound roll on his arms
        return StrokeKit(halvings, Kit(unarmed=True, parried=round(-hit_value(g, "arms", 0), 1)))
    shift = tuple(sorted(stroke.changes[1].items())) if stroke.changes else ()
    b = stroke.blow
    return StrokeKit(halvings, Kit(shift, b.wound_drm, b.hit_stun is not None))


def attack_kits(
    g: Gladiator, o: Gladiator, n: int, options: Mapping[str, Any]
) -> tuple[StrokeKit, ...]:
    """F9, F10: his first n attacks on o from where they stand now, in the order he makes them
    (a pair's weapons take turns); () in the Basic Game."""
    if not g.style or n <= 0:
        return ()
    return tuple(_stroke_kit(g, s) for s in strokes(g, o, n, options))


def pose_kit(
    g: Gladiator, o: Gladiator, end: Hex, facing: int, options: Mapping[str, Any]
) -> tuple[bool, bool, int]:
    """Were g to stand at `end` facing `facing` (o where he is): whether g reaches o, whether o
    reaches g (F8, §23.1), and how often g's first attack would be halved (F10: the scimitar at
    range 2, a two-handed weapon with a shield, the dagger, a fist)."""
    moved = replace(g, hex=end, facing=facing)
    mine, his = reaches(moved, o), reaches(o, moved)
    halvings = len(strokes(moved, o, 1, options)[0].halvings) if mine else 0
    return mine, his, halvings


def long_reach(g: Gladiator) -> int:
    """The longest reach of the weapons in his hands (1 unarmed or in the Basic Game, T19)."""
    if not g.style or not g.weapons:
        return 1
    return max(weapon(k).reach for k in g.weapons)


def pickable_weapons(state: ColosseumState, g: Gladiator) -> list[GroundItem]:
    """The weapons lying about that he may take up (§13.4; F6 in the Advanced Game)."""
    return [i for i in state.items if i.item == "weapon" and may_pick_up(g, i)]


def arena(state: ColosseumState) -> Arena | None:
    """The walls of this phase (§25), or None where none is marked (or walls are off)."""
    a = arena_of(state.options, state.arena_size, state.walls)
    return a if a is not None and a.walls else None


def wall_gap(a: Arena, h: Hex) -> int:
    """How many straight steps from `h` the nearest walled edge lies (1: the next hex beyond it
    is the wall; 0: `h` is itself beyond one)."""
    col, row = to_offset(h)
    gaps = {"north": row + 1, "south": a.height - row, "west": col + 1, "east": a.width - col}
    return max(0, min(gaps[e] for e in a.walls))


def blocked(a: Arena, origin: Hex, track: Sequence[Hex]) -> int | None:
    """W3: the index in `track` (offsets from `origin`, the start first) of the first hex beyond
    a wall: the step that would be a wall collision; None if the way meets none."""
    hexes = [Hex(origin.q + t.q, origin.r + t.r) for t in track]
    hit = a.blocked_step(hexes)
    return hit[0] if hit is not None else None
