"""The search's judgement of a Colosseum position it stops at: the ruleset's heuristic (CF,
Stun, wounds, posture) plus who stands where he can strike the other (§9.1) and with what
positional advantage (§9.2, T11). Without the second part every plot that ends out of combat
looks alike to the search, and a plot's worth is mostly where it leaves the two men."""

from __future__ import annotations

from typing import Any

from gladiator.bots.colosseum_evaluation import engagement
from gladiator.rules.colosseum.state import ColosseumState

__all__ = ["colosseum_leaf"]

STRIKE = 3.0  # in CF: he is in my combat front and I may attack (the tactician's `engaged` / 2)
PA = 0.5  # in CF, per point of positional advantage
SCALE = 40.0  # the heuristic's CF-to-value scale (engine.heuristic)


def colosseum_leaf(ruleset: Any, state: ColosseumState, seat: str) -> float:
    base = float(ruleset.heuristic(state, seat))
    if state.step == "over" or len(state.gladiators) != 2:
        return base
    me, foe = state.figure(seat), state.opponent(seat)
    if me.beast is not None or foe.beast is not None:
        return base
    e = engagement(
        me.hex, me.facing, foe.hex, foe.facing, his_left=foe.left_handed, my_left=me.left_handed
    )
    cf = 0.0
    if e.mine:
        cf += STRIKE + PA * e.my_pa
    if e.his:
        cf -= STRIKE + PA * e.his_pa
    return base + cf / SCALE
