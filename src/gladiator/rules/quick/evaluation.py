"""A heuristic score of a quick-rules position for one seat, used by look-ahead bots.

Not rules: strategy. Strength matters most; then being able to strike (an opponent adjacent in
one's front) from his weak side (§8: back, then sword, then shield) while not being in his front.
"""

from __future__ import annotations

from gladiator.core import hexgrid as hg
from gladiator.rules.quick.combat import has_net, side_struck
from gladiator.rules.quick.state import Fighter, QuickState

__all__ = ["evaluate"]

_SIDE_VALUE = {"front": 0.0, "shield": 1.0, "sword": 2.0, "back": 3.0}


def evaluate(state: QuickState, seat: str) -> float:
    me = state.fighters[seat]
    if state.phase == "over":
        if seat in state.winners:
            return 1000.0
        if not state.winners:
            return 0.0
    if not me.fighting:
        return -1000.0
    foes = [f for f in state.fighters.values() if f.seat != seat and f.on_board]
    score = 4.0 * me.strength + _kit(me)
    for f in foes:
        if not f.fighting:
            score += 200.0
            continue
        score -= 4.0 * f.strength + _kit(f)
    live = [f for f in foes if f.fighting]
    if live:
        near = min(live, key=lambda f: hg.distance(me.hex, f.hex))
        score += _position(me, near)
    if state.phase == "act" and state.active == seat:
        score += 0.01 * state.ap
    return score


def _kit(f: Fighter) -> float:
    v = 0.0
    v += 3.0 if f.has_weapon else 0.0
    v += 2.0 if f.has_off_hand and not f.net_cast else 0.0
    v -= 6.0 if f.ensnared else 0.0
    v -= 2.0 if f.off_balance else 0.0
    return v


def _position(me: Fighter, foe: Fighter) -> float:
    d = hg.distance(me.hex, foe.hex)
    score = -1.0 * d
    if d == 1:
        if hg.in_cone(me.hex, me.facing, foe.hex, 1):
            score += 2.0 + _SIDE_VALUE[side_struck(foe, me)]
        if hg.in_cone(foe.hex, foe.facing, me.hex, 1):
            score -= 1.0 + _SIDE_VALUE[side_struck(me, foe)]
    else:
        # Face him, so as to be ready.
        score += 0.5 if hg.in_cone(me.hex, me.facing, foe.hex, d) else 0.0
    if has_net(me) and me.has_off_hand and not me.net_cast and d == 2:
        score += 1.5 if hg.in_cone(me.hex, me.facing, foe.hex, 2) else 0.0
    return score
