"""What the Campaign Game reads off a match besides the log sheets (§31.2, §35.5): which attacks
wounded which body area, who killed whom, when and how (§31.2.4), who appealed and how it went
(§18.3, §31.2.2, §31.2.3), who cleaved (§26.2, §35.5.2). Kept for every match in
`ColosseumState.tally` (plain frozen records, so a copy of the state shares them); play never
reads it, and no record shows it. campaign_report.py turns it into the match report.

RULINGS (the X series of docs/rulings.md)

X7  §31.2.4 slow or quick. A "wounding attack" is one attack (a blow in the combat step, a thrown
    item, a fist) that marked wounds on an area or killed outright (T7 Kill); a severed artery's
    bleeding is no attack. Each death is put down to one deciding attack: the one that killed
    him (an area full, a critical K, a T7 Kill); at the Moment of Truth, the last wounding attack
    he took (it laid him at the victor's mercy); for a mortal wound (§10.5 M), the attack that
    dealt it. The kill is **quick** when that attack was the first to wound its area, and
    **slow** when the area had been wounded before (destroyed "bit by bit over two or more
    attacks"). A death with no deciding attack (bled out from a severed artery, a Moment of
    Truth never wounded, an area filled by bleeding or a wall) is **slow**: he was worn down.
    The killer is the deciding attack's attacker; at the Moment of Truth the victor; with no
    deciding attack, the last man who wounded him, else (a duel) his opponent. A man refused
    after *stans missus* (§5.4.1) is put to death on the crowd's word, not beaten: no one is
    credited with his kill. The kill's turn is the turn he died in.
X8  §31.2.2, §31.2.3, Q42: `missus` is a beaten man's successful appeal (§18.3.1); `stans_missus`
    a man spared after a *stans missus* stop (his record's S); `opponent_missus` that a man he
    beat was spared. `cleaved` (§35.5.2): a T7 Kill of his cleaved an opponent (§26.2, K3).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from gladiator.rules.colosseum.campaign.campaign_record import Blow, Death, SeatTally
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.vocabulary import AREAS, Area

if TYPE_CHECKING:
    from gladiator.rules.colosseum.hits.body_hits import HitOutcome

__all__ = ["Blow", "Death", "SeatTally", "note_appeals", "note_hit", "note_wounds", "sweep"]


def _tally(state: ColosseumState, seat: str) -> SeatTally:
    return state.tally.get(seat) or SeatTally()


def note_wounds(
    state: ColosseumState,
    att: Gladiator,
    d: Gladiator,
    area: Area,
    *,
    killed: bool = False,
    mortal: bool = False,
) -> None:
    """One wounding attack of `att` on `d`'s `area` (X7)."""
    t = _tally(state, d.seat)
    i = AREAS.index(area)
    hits = list(t.area_hits)
    hits[i] += 1
    blow = Blow(att.seat, i, hits[i] == 1, state.turn)
    state.tally[d.seat] = replace(
        t,
        area_hits=(hits[0], hits[1], hits[2], hits[3], hits[4]),
        last_blow=blow,
        killing_blow=t.killing_blow or (blow if killed else None),
        mortal_blow=t.mortal_blow or (blow if mortal else None),
    )


def note_hit(state: ColosseumState, att: Gladiator, d: Gladiator, hit: HitOutcome) -> None:
    """A body hit through `hits.strike` (X7, X8); called before its effects are applied."""
    if hit.cleaving and d.alive and d.beast is None and state.options.get("advanced"):  # K3, B19
        state.tally[att.seat] = replace(_tally(state, att.seat), cleaved=True)
    if hit.wounds_marked or hit.wound_kill:
        note_wounds(state, att, d, hit.area, killed=hit.killed, mortal=hit.mortal)


def note_appeals(state: ColosseumState, spared: dict[str, bool], victor: str | None) -> None:
    """§18.3 (X8): how each appeal went."""
    for seat, ok in spared.items():
        t = _tally(state, seat)
        if victor is None:
            state.tally[seat] = replace(t, appeal="stans_missus" if ok else "refused")
            continue
        state.tally[seat] = replace(t, appeal="missus" if ok else "refused", executed_by=victor)
        if ok:
            v = _tally(state, victor)
            state.tally[victor] = replace(v, spared_foes=(*v.spared_foes, seat))
    sweep(state)


def sweep(state: ColosseumState) -> None:
    """Each man newly dead gets his Death (X7); called wherever the engine buries men."""
    for g in (*state.gladiators.values(), *state.fallen.values()):
        t = state.tally.get(g.seat)
        if g.alive or (t is not None and t.death is not None):
            continue
        t = t or SeatTally()
        state.tally[g.seat] = replace(t, death=_death(state, g, t))


def _death(state: ColosseumState, g: Gladiator, t: SeatTally) -> Death:
    if t.appeal == "refused" and t.executed_by is None:  # after stans missus: nobody's kill
        return Death(None, state.turn, "slow")
    if t.executed_by is not None:  # the Moment of Truth
        blow = t.last_blow
        return Death(t.executed_by, state.turn, "quick" if blow and blow.first else "slow")
    deciding = t.killing_blow or (t.mortal_blow if g.crits.mortal else None)
    if deciding is not None:
        return Death(deciding.attacker, state.turn, "quick" if deciding.first else "slow")
    killer = t.last_blow.attacker if t.last_blow is not None else None
    if killer is None and not state.options.get("teams"):
        killer = next((s for s in state.gladiators if s != g.seat), None)
    return Death(killer, state.turn, "slow")
