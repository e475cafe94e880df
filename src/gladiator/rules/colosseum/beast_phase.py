"""A phase against a beast (§28.4, §28.6): the gladiator's plot is executed with the beast
standing (its counter blocks him, B2), then the beast moves (beast_movement.py); and how such a
match ends.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import pairwise

from gladiator.core.dice import Dice
from gladiator.core.hexgrid import relation_of
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.beast_movement import beast_moves
from gladiator.rules.colosseum.beast_pack import beasts_hexes
from gladiator.rules.colosseum.beast_pack_end import pack_over
from gladiator.rules.colosseum.beasts import beast_match_over, beast_of, counter_hexes, gladiator_of
from gladiator.rules.colosseum.movement_step import AfterMovement, resolve_plots
from gladiator.rules.colosseum.nets import split_net
from gladiator.rules.colosseum.plots import parse_plot, path
from gladiator.rules.colosseum.state import ColosseumState
from gladiator.rules.colosseum.teams import is_pack

__all__ = ["STANDS", "beast_match_over", "resolve_beast_plots"]

STANDS = "-"  # the beast's plot while the gladiators move: it stands (§28.4)


def _steps(text: str, g_hex: object, facing: int) -> tuple[int, int]:
    """T12's hexes moved forward and backward by his plot (B5)."""
    plot_text, _ = split_net(text)  # a net order is no step (B17 offers none; records may)
    poses = path(parse_plot(plot_text).bare(), g_hex, facing)  # type: ignore[arg-type]
    forward = backward = 0
    for a, b in pairwise(poses):
        if a.hex != b.hex:
            if relation_of(a.hex, a.facing, b.hex) in (0, 1, 5):
                forward += 1
            else:
                backward += 1
    return forward, backward


def resolve_beast_plots(
    state: ColosseumState, orders: Mapping[str, str], dice: Dice, events: list[Event]
) -> AfterMovement:
    """§28.4: the gladiators move first, then the beast."""
    if is_pack(state.options):  # B13: then each beast of a pack in turn
        return _pack_plots(state, orders, dice, events)
    b = beast_of(state)
    assert b is not None
    g = gladiator_of(state)
    moved = _steps(orders[g.seat], g.hex, g.facing)
    full = {s: orders.get(s, STANDS) for s in state.gladiators}
    after = resolve_plots(state, full, dice, events, blocked=counter_hexes(b))
    if after != "combat":
        return after
    beast_moves(state, b, moved, dice, events)
    return "over" if beast_match_over(state, events) else "combat"


def _pack_plots(
    state: ColosseumState, orders: Mapping[str, str], dice: Dice, events: list[Event]
) -> AfterMovement:
    """B13: he moves with every beast standing, then the beasts in table order."""
    g = gladiator_of(state)
    moved = _steps(orders[g.seat], g.hex, g.facing)
    full = {s: orders.get(s, STANDS) for s in state.gladiators}
    after = resolve_plots(state, full, dice, events, blocked=beasts_hexes(state))
    if after != "combat":
        return after
    for b in [x for x in state.gladiators.values() if x.beast is not None]:
        beast_moves(state, b, moved, dice, events)
    return "over" if pack_over(state, events) else "combat"
