"""The tracks of simultaneous movement (§5.2.2, §8.1, §8.2): the hexes each gladiator's revealed
path takes him through, step by step, where two tracks may collide, and how a collision cuts a
track. `movement.py` walks the phase with them; `collisions.py` resolves each collision found.

RULINGS (shared/rules/colosseum.md; numbered with movement.py's M series)

M1  §5.2.2, §8.1.1: movement is executed step by step, one step per hex entered (rotations take
    no time). A path's poses in one hex are one step; the figure's track is the hexes he occupies,
    his start hex included, so a gladiator standing still occupies his hex all phase.
M2  §8.1: two gladiators whose tracks end in the same hex collide there, always. This includes
    ending in the hex of a gladiator who does not move.
M3  §8.1, §8.1.1: a gladiator who stays in his hex all phase (he may turn in it) occupies it, so
    anyone entering it collides with him there, always, with no dice (cause "occupied"). Two
    gladiators whose tracks share any other hex (crossing, swapping places, entering the hex the
    other has just left, or will leave) each roll 1D6 once for the pair;
    equal rolls are a collision in the first hex they share. Steps are ordered by
    (the later of the two arrivals, the earlier one); unequal rolls let both paths run on, and
    the pair does not roll again this phase.
M4  §8.2: a collision cuts both tracks at the contested hex. A gladiator who enters it keeps the
    facing he entered with (rotations after it are movement left, cancelled); one who started in
    it keeps the last facing he had there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from gladiator.core.hexgrid import Hex, direction_to, relation_of
from gladiator.rules.colosseum.arena.positions import Position, as_position, hex_text
from gladiator.rules.colosseum.movement.collision_records import CollisionCause, FigureState

__all__ = [
    "Candidate",
    "Step",
    "StepKind",
    "cut_track",
    "hexes_moved",
    "make_track",
    "pair_candidate",
    "track_end",
]

StepKind = Literal["start", "forward", "backward", "roll", "push"]


# --- tracks (M1) ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Step:
    """One hex of a track: the facing he had on entering it and the last one he had in it."""

    hex: Hex
    entry_facing: int
    last_facing: int
    kind: StepKind


def make_track(name: str, figure: FigureState, poses: Sequence[Any]) -> list[Step]:
    if len(poses) == 0:
        raise ValueError(f"{name}: a path needs at least its starting position")
    positions = [as_position(p) for p in poses]
    first = positions[0]
    steps = [Step(first.hex, first.facing, first.facing, "start")]
    for pos in positions[1:]:
        last = steps[-1]
        if pos.hex == last.hex:
            steps[-1] = Step(last.hex, last.entry_facing, pos.facing, last.kind)
            continue
        if direction_to(last.hex, pos.hex) is None:
            raise ValueError(
                f"{name}: a path moves one hex at a time, {hex_text(last.hex)} to "
                f"{hex_text(pos.hex)} is not"
            )
        kind: StepKind
        if figure.rolling:
            kind = "roll"
        else:
            rel = relation_of(last.hex, last.last_facing, pos.hex)
            kind = "forward" if rel in (0, 1, 5) else "backward"
        steps.append(Step(pos.hex, pos.facing, pos.facing, kind))
    if figure.holds_hex and len(steps) > 1:
        raise ValueError(f"{name}: a Prone gladiator who does not Roll cannot move (§16.4)")
    return steps


def cut_track(track: list[Step], i: int) -> list[Step]:
    """M4: the track stopped at its i-th step, facing as he was when the collision happened."""
    step = track[i]
    facing = step.entry_facing if i > 0 else step.last_facing
    return [*track[:i], Step(step.hex, step.entry_facing, facing, step.kind)]


def track_end(track: list[Step]) -> Position:
    return Position(track[-1].hex, track[-1].last_facing)


def _first_index(track: list[Step]) -> dict[Hex, int]:
    out: dict[Hex, int] = {}
    for i, step in enumerate(track):
        out.setdefault(step.hex, i)
    return out


class Candidate(NamedTuple):
    key: tuple[int, int, int]
    x: str
    y: str
    hex: Hex
    ix: int
    iy: int
    cause: CollisionCause
    certain: bool


def pair_candidate(
    order: int,
    x: str,
    y: str,
    tracks: Mapping[str, list[Step]],
    figures: Mapping[str, FigureState],
    rolled: set[frozenset[str]],
    collided: set[frozenset[str]],
) -> Candidate | None:
    tx, ty = tracks[x], tracks[y]
    pair = frozenset((x, y))
    best: Candidate | None = None

    def consider(h: Hex, ix: int, iy: int, cause: CollisionCause, certain: bool) -> None:
        nonlocal best
        cand = Candidate((max(ix, iy), min(ix, iy), order), x, y, h, ix, iy, cause, certain)
        if best is None or cand.key < best.key:
            best = cand

    end = tx[-1].hex if tx[-1].hex == ty[-1].hex else None
    if end is not None:  # M2
        ix, iy = len(tx) - 1, len(ty) - 1
        pushed = tx[ix].kind == "push" or ty[iy].kind == "push"
        holds = figures[x].holds_hex or figures[y].holds_hex
        cause: CollisionCause = "push" if pushed else "prone" if holds else "same_hex"
        consider(end, ix, iy, cause, True)
    if pair not in collided:
        first_x, first_y = _first_index(tx), _first_index(ty)
        for h, ix in first_x.items():
            iy_ = first_y.get(h)
            if iy_ is None or h == end:
                continue
            if figures[x].holds_hex or figures[y].holds_hex:  # M5
                consider(h, ix, iy_, "prone", True)
            elif len(tx) == 1 or len(ty) == 1:  # M3: one of them holds his hex all phase
                consider(h, ix, iy_, "occupied", True)
            elif pair not in rolled:  # M3
                consider(h, ix, iy_, "crossing", False)
    return best


def hexes_moved(track: list[Step], i: int) -> tuple[int, int]:
    """Hexes he moved forward and backward by his own plot up to his i-th step (M6)."""
    kinds = [s.kind for s in track[1 : i + 1]]
    return kinds.count("forward"), kinds.count("backward")
