"""The match report the Campaign Game reads (§31.2 experience, §32.2 injuries, §35.5 prestige,
§30.2.1.1 the next Consecutive fight): per seat of a finished match, plain JSON.

RULINGS (the X series of docs/rulings.md)

X9  `result` is "victory" for a seat among the match's winners, "draw" when there are none (a
    stans missus with both spared, time, both dead), else "defeat". `attack_cf` and `defense_cf`
    are the CFs he allocated to attack and to defence over the match (§31.2.1), counted as each
    allocation is revealed (before any halving, as §18.3 counts them, E3). `wounds` are the
    marks per area at the end (§32.2), `turns` the turn the match ended in, `opponents` every
    seat of the other side. `carry` (X5) is what his next Consecutive fight starts with: his
    wounds, the CF lost besides wounds plus the CF lost to endurance (the plot record starts
    afresh), ST and AG lost.
"""

from __future__ import annotations

from typing import Any

from gladiator.rules.colosseum.campaign.campaign_record import SeatTally
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.teams import seats_of

__all__ = ["campaign_report"]


def campaign_report(state: ColosseumState) -> dict[str, dict[str, Any]]:
    """Per seat, the contract's report of a finished match (X7-X9); ValueError before the end."""
    if state.step != "over":
        raise ValueError("the match is not over: no campaign report yet (X9)")
    seats = list(seats_of(state.options))  # a pack's beasts too (B11)
    deaths = {s: t.death for s, t in state.tally.items() if t.death is not None}
    out: dict[str, dict[str, Any]] = {}
    for seat in seats:
        g = state.figure(seat)
        t = state.tally.get(seat) or SeatTally()
        mine = state.side(seat)
        kills = [
            {"victim": v, "turn": d.turn, "kind": d.kind}
            for v, d in sorted(deaths.items(), key=lambda kv: (kv[1].turn, seats.index(kv[0])))
            if d.killer == seat and state.side(v) != mine
        ]
        result = "draw" if not state.winners else "victory" if seat in state.winners else "defeat"
        out[seat] = {
            "seat": seat,
            "name": g.sheet.name,
            "result": result,
            "alive": g.alive,
            "mortal": g.crits.mortal,
            "missus": t.appeal == "missus",
            "opponent_missus": bool(t.spared_foes),
            "stans_missus": t.appeal == "stans_missus",
            "attack_cf": g.attack_used,
            "defense_cf": g.defence_used,
            "kills": kills,
            "wounds": list(g.sheet.wounds),
            "cleaved": t.cleaved,
            "turns": state.turn,
            "opponents": [s for s in seats if state.side(s) != mine],
            "carry": carry(g),
        }
    return out


def carry(g: Gladiator) -> dict[str, Any]:
    """X5, X9: the marks his next Consecutive fight starts with."""
    s = g.sheet
    return {
        "wounds": list(s.wounds),
        "cf_lost_other": s.cf_lost_other + s.cf_lost_to_endurance,
        "st_lost": s.st_lost,
        "ag_lost": s.ag_lost,
    }
