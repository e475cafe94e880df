"""The quick rules' sheet as fixed data, worked out once per size: where each step leads.

The sheet never changes during a match, so for every hex and facing the steps that stay on it
(§2.1), with their cost (§5.2.1, §5.2.2) and the option that offers them, are built once and then
only looked up by legal-move generation. A board also keeps the decisions of a gladiator with
nobody near enough to matter (see `engine.pending`): they depend on nothing but his seat, hex,
facing and action points, and decisions are immutable, so each is built once.
"""

from __future__ import annotations

from functools import cache

from gladiator.core import hexgrid as hg
from gladiator.core.decisions import ChooseOne, Option
from gladiator.core.hexgrid import Hex, HexMap, Relation
from gladiator.rules.common import hexagon_arena
from gladiator.rules.quick.tables import QuickTables, tables

__all__ = ["STEPS", "STEP_LABELS", "Board", "Move", "Step", "board", "hexes_between"]

# Step orders by the relation of the destination hex to the mover's facing (§5.2.1, §5.2.2).
STEPS: dict[str, Relation] = {
    "F": Relation.FRONT,
    "SFR": Relation.RIGHT_FRONT,
    "SBR": Relation.RIGHT_REAR,
    "B": Relation.REAR,
    "SBL": Relation.LEFT_REAR,
    "SFL": Relation.LEFT_FRONT,
}
STEP_LABELS = {
    "F": "step forward",
    "SFR": "sidestep forward right",
    "SBR": "sidestep backward right",
    "B": "step back",
    "SBL": "sidestep backward left",
    "SFL": "sidestep forward left",
}

Step = tuple[int, Hex, Option]
"""One step open from a hex and facing: its cost in AP, the hex it leads to, the option."""
Move = tuple[int, Hex, str]
"""One step taken: its cost in AP, the hex it leads to, the text of its event after the seat."""


class Board:
    """A hexagon sheet of `side` hexes a side (QR1) under the action costs of these tables."""

    __slots__ = (
        "adjacent",
        "alone",
        "arena",
        "costs",
        "end",
        "moves",
        "pivots",
        "steps",
        "tables",
        "two_away",
    )

    def __init__(self, side: int, t: QuickTables) -> None:
        self.tables = t
        self.arena: HexMap = hexagon_arena(side)
        self.costs = costs = t.action_costs
        # For each (hex, facing), the steps that stay on the sheet (§2.1), in the order of STEPS;
        # a step forward costs `forward` AP (§5.2.1), any other `other_step` (§5.2.2).
        self.steps: dict[tuple[Hex, int], tuple[Step, ...]] = {}
        # The same by order: each step's cost, where it leads, and how the move event tells it.
        self.moves: dict[tuple[Hex, int], dict[str, Move]] = {}
        # The hexes next to each hex, and those two away: a figure there may bear on legality.
        self.adjacent: dict[Hex, frozenset[Hex]] = {}
        self.two_away: dict[Hex, frozenset[Hex]] = {}
        for h in self.arena.hexes:
            self.adjacent[h] = frozenset(hg.ring(h, 1))
            self.two_away[h] = frozenset(hg.ring(h, 2))
            for facing in range(6):
                row: list[Step] = []
                moves: dict[str, Move] = {}
                for code, rel in STEPS.items():
                    dest = hg.neighbor_at(h, facing, rel)
                    if dest not in self.arena:
                        continue
                    cost = costs.forward if rel is Relation.FRONT else costs.other_step
                    what = STEP_LABELS[code]
                    row.append((cost, dest, Option(code, f"{what} ({cost} AP)", dest)))
                    told = f"{what} to {dest.q},{dest.r} ({cost} AP, quick §5.2)"
                    moves[code] = (cost, dest, told)
                self.steps[h, facing] = tuple(row)
                self.moves[h, facing] = moves
        # §5.2.3
        self.pivots = (
            Option("L", f"pivot left ({costs.pivot} AP)"),
            Option("R", f"pivot right ({costs.pivot} AP)"),
        )
        self.end = Option("E", "end the turn")
        # The decision of a gladiator alone, by (seat, action points, hex, facing).
        self.alone: dict[tuple[str, int, Hex, int], ChooseOne] = {}


_BOARDS: dict[int, Board] = {}


def board(side: int) -> Board:
    """The board of a sheet of `side`, built on first use and again if the tables change."""
    t = tables()
    b = _BOARDS.get(side)
    if b is None or b.tables is not t:
        b = _BOARDS[side] = Board(side, t)
    return b


@cache
def hexes_between(a: Hex, b: Hex) -> tuple[Hex, ...]:
    """The hex between `a` and `b` two hexes apart on each way from one to the other: one hex,
    or the two either side of a line that runs along a hexside (QR7's ways for a net cast)."""
    return tuple(way[1] for way in hg.lines_between(a, b))
