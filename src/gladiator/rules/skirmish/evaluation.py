"""A heuristic score of a skirmish position for one seat, for look-ahead bots (strategy, not
rules): hit points and wound levels, being on one's feet and free, and standing where one can
strike the opponent from his rear zones."""

from __future__ import annotations

from gladiator.core import hexgrid as hg
from gladiator.rules.skirmish import combat
from gladiator.rules.skirmish.state import Fighter, SkirmishState

__all__ = ["evaluate"]


def _health(f: Fighter) -> float:
    if not f.alive:
        return -100.0
    return (
        2.0 * f.hp
        - 3.0 * f.wounds
        - 1.0 * f.cuts
        - 1.5 * f.stun_bank
        - 4.0 * f.floored
        - 5.0 * f.entangled
        + 2.0 * f.has_net
    )


def evaluate(state: SkirmishState, seat: str) -> float:
    me = state.fighters[seat]
    if state.phase == "over":
        if seat in state.winners:
            return 1000.0
        if state.winners or not me.alive:
            return -1000.0
        return 0.0
    score = _health(me)
    foes = [f for f in state.fighters.values() if f.seat != seat]
    for f in foes:
        score -= _health(f)
    live = [f for f in foes if f.alive]
    if me.alive and live:
        foe = min(live, key=lambda f: hg.distance(me.hex, f.hex))
        d = hg.distance(me.hex, foe.hex)
        score -= 0.5 * max(0, d - 1)
        if combat.zone_of(me, foe.hex) in ("A", "B", "C"):
            score += 1.0
        if combat.is_behind(me, foe):
            score += 2.0
        if combat.is_behind(foe, me):
            score -= 2.0
    return score
