"""The quick rules' sheet as fixed data, worked out once per size: where each step leads.

The sheet never changes during a match, so for every hex and facing the steps that stay on it
(§2.1), with their cost (§5.2.1, §5.2.2) and the option that offers them, are built once and then
only looked up by legal-move generation.
"""

from __future__ import annotations

from functools import cache

from gladiator.core import hexgrid as hg
from gladiator.core.decisions import Option
from gladiator.core.hexgrid import Hex, Relation
from gladiator.rules.common import hexagon_arena

__all__ = ["STEPS", "STEP_LABELS", "Step", "pivot_options", "step_table"]

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


@cache
def step_table(side: int, forward: int, other_step: int) -> dict[tuple[Hex, int], tuple[Step, ...]]:
    """For each (hex, facing) of a sheet of `side`, the steps that stay on it (§2.1), in the
    order of `STEPS`. A step forward costs `forward` AP (§5.2.1), any other `other_step` (§5.2.2);
    the costs are part of the key, so an edited tables file gets a table of its own."""
    arena = hexagon_arena(side)
    table: dict[tuple[Hex, int], tuple[Step, ...]] = {}
    for h in arena.hexes:
        for facing in range(6):
            row: list[Step] = []
            for code, rel in STEPS.items():
                dest = hg.neighbor_at(h, facing, rel)
                if dest in arena:
                    cost = forward if rel is Relation.FRONT else other_step
                    row.append((cost, dest, Option(code, f"{STEP_LABELS[code]} ({cost} AP)", dest)))
            table[h, facing] = tuple(row)
    return table


@cache
def pivot_options(cost: int) -> tuple[Option, Option]:
    """§5.2.3: the two pivots, each `cost` AP."""
    return Option("L", f"pivot left ({cost} AP)"), Option("R", f"pivot right ({cost} AP)")
