"""The Colosseum's first heuristic, kept as it was: CF less Stun, less two per wound, less a
posture penalty, his minus his opponent's, over 40 and clipped to [-1, 1].

`ColosseumRules.heuristic` plays by the fitted value function (value.py) in a duel; this score
stays for team matches and beast hunts, which the value function was not fitted on (V4), and as
the baseline the value fit is measured against (sim/fit_value.py).
"""

from __future__ import annotations

from gladiator.rules.colosseum.state import ColosseumState, Gladiator

__all__ = ["material_heuristic"]


def _score(g: Gladiator) -> float:
    s = g.sheet
    posture = {"standing": 0.0, "kneeling": -2.0, "prone": -6.0}[g.posture]
    return s.current_cf - s.stun_in_effect - 2.0 * sum(s.wounds) + posture


def material_heuristic(state: ColosseumState, seat: str) -> float:
    """The score of a position for `seat` in [-1, 1]; ±1 and 0 exactly once the match is over."""
    if state.step == "over":
        if not state.winners:
            return 0.0
        return 1.0 if seat in state.winners else -1.0
    me = state.figure(seat)
    other = state.opponent(seat)  # a team match: the nearest (G6)
    return max(-1.0, min(1.0, (_score(me) - _score(other)) / 40.0))
