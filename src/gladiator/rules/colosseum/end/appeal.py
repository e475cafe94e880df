"""The Moment of Truth (§18.2-§18.4); the end of the match is match_end.py's.

RULINGS (engine level, the E series of docs/rulings.md)

E6  §18.3, Q7: the performance value is the attack CF minus the defence CF allocated over the
    match, divided by 10 toward zero (option `performance = "raw"` for the text's unscaled one).
    Methods: "killed" (died in combat), "missus" (beaten and spared), "mercy" (beaten, refused
    missus and killed), "stans missus" (§5.4.1 draw, both appeal), "time" (max_turns reached).
E12 §18.4: in a duel the appeal settles the match, so the phase it takes is the phase in which
    the Moment of Truth comes (§18.2 at its start: nobody plots or allocates in it; §8.3 after the
    collision: no recovery, kick, throw or combat follows; §5.4.1 after the eighth phase: a phase
    of its own). The victor must allow it (he has no other opponent), may neither attack nor be
    attacked, and neither side does anything else in it; no wound bleeds in it (§10.5 SA).
X6  §30.2.2 (the Campaign Game's X series): in a match `sine_missione` there is no appeal: the
    beaten man is killed at once, no die thrown (method "sine missione"); phase.py throws no
    stans missus roll (§5.4.1) in it either.
"""

from __future__ import annotations

from gladiator.core.dice import Dice
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.campaign.campaign_tally import note_appeals
from gladiator.rules.colosseum.end.match_end import after_appeal, finish
from gladiator.rules.colosseum.events import event
from gladiator.rules.colosseum.state import ColosseumState

MISSUS_ABOVE = 9  # §18.3.1


def moment_of_truth(
    state: ColosseumState,
    appellants: list[str],
    victor: str | None,
    dice: Dice,
    events: list[Event],
    when: str,
) -> None:
    """§18.3: each appellant rolls 2D6 + performance value + Prestige; above 9 is missus. §18.4
    (E12): the appeal takes the phase `when` names, in which nobody does anything else."""
    sine_missione = bool(state.options.get("sine_missione"))  # §30.2.2 (X6)
    if victor is None:
        doing = "both appeal; neither moves nor fights"
    elif sine_missione:
        doing = f"sine missione, {appellants[0]} may not appeal: {victor} kills him (§30.2.2)"
    else:
        doing = (
            f"{appellants[0]} appeals for missus and {victor} must allow it; {victor} may neither "
            "attack nor be attacked, and neither moves"
        )
    events.append(
        event(
            "appeal_phase",
            "§18.4",
            f"the appeal takes {when}: {doing}",
        )
    )
    spared: dict[str, bool] = {}
    for seat in appellants:
        g = state.gladiators[seat]
        if sine_missione:  # §30.2.2 (X6): a death match has no missus
            spared[seat] = False
            g.alive = False
            g.cause = "killed at the Moment of Truth (sine missione)"
            continue
        raw = g.attack_used - g.defence_used
        pv = int(raw / 10) if state.options["performance"] == "tenths" else raw  # Q7
        roll = dice.roll("2D6", f"{seat}'s appeal for missus", "§18.3")
        total = roll + pv + g.sheet.prestige
        spared[seat] = total > MISSUS_ABOVE
        events.append(
            event(
                "appeal",
                "§18.3.1" if spared[seat] else "§18.3.2",
                f"{seat} appeals: 2D6 {roll} + performance {pv} (attack {g.attack_used} − "
                f"defence {g.defence_used}) + prestige {g.sheet.prestige} = {total}: "
                + ("missus, he leaves the arena alive" if spared[seat] else "he is killed"),
                seat=seat,
                total=total,
                spared=spared[seat],
            )
        )
        if not spared[seat]:
            g.alive = False
            g.cause = "killed at the Moment of Truth"
    note_appeals(state, spared, victor)  # §31.2.2, §31.2.3 (X8): for the match report
    if after_appeal(state, appellants, victor, spared, events):  # §27 (G7): the others fight on
        return
    if victor is None:  # §5.4.1 stans missus
        alive = [s for s in appellants if spared[s]]
        winners = tuple(alive) if len(alive) == 1 else ()
        if len(alive) == 2:
            summary = "stans missus: both are spared, a draw"
        elif alive:
            summary = f"stans missus: only {alive[0]} is spared"
        else:
            summary = "stans missus: both are refused and killed"
        finish(state, winners, "stans missus", summary, events)
        return
    beaten = appellants[0]
    if spared[beaten]:
        finish(state, (victor,), "missus", f"{victor} beat {beaten}, who is spared", events)
    else:
        method = "sine missione" if sine_missione else "mercy"  # §30.2.2 (X6)
        finish(state, (victor,), method, f"{victor} beat {beaten} and killed him", events)
