"""The phase and turn clock (§5.1-§5.4): the start of a phase (§18.2's helpless man), its end
(§5.2.7: severed arteries bleed, the dead are buried), and the end of a turn (§17.2 endurance,
§5.4.1 stans missus).

RULINGS (engine level, the E series of docs/rulings.md)

E5  §18.2 is checked at the start of each phase: a Prone gladiator in the combat front of an
    armed, able opponent goes to the Moment of Truth if he is unconscious or has no movement
    phase left (so he cannot KN or RO, §16.3.1).
"""

from __future__ import annotations

from gladiator.core.dice import Dice
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.arena.combat_geometry import (
    in_front,
)
from gladiator.rules.colosseum.end.appeal import moment_of_truth
from gladiator.rules.colosseum.end.match_end import fight_over, finish, time_up
from gladiator.rules.colosseum.events import event, sheet_events
from gladiator.rules.colosseum.hits.wounds import (
    severed_artery_bleeding,
)
from gladiator.rules.colosseum.movement.postures import check_unconscious
from gladiator.rules.colosseum.plots.plot_decision import plot_status
from gladiator.rules.colosseum.state import ColosseumState
from gladiator.rules.colosseum.tables.tables import tables
from gladiator.rules.colosseum.teams import is_over
from gladiator.rules.colosseum.vocabulary import AREAS, Area

PHASES_PER_TURN = 8  # §5.1


# -- the phase ------------------------------------------------------------------------------------
def start_phase(state: ColosseumState, dice: Dice, events: list[Event]) -> None:
    state.step = "plot"
    events.append(
        {
            "type": "phase",
            "turn": state.turn,
            "phase": state.phase,
            "text": f"Turn {state.turn}, phase {state.phase} (§5.2)",
        }
    )
    # §18.2, E5: a Prone gladiator starting a phase helpless in an armed opponent's front
    # (in a team match, G7: each such man, and the first opponent of his who has him so).
    for seat, g in list(state.gladiators.items()):
        if g.posture != "prone" or seat not in state.gladiators:
            continue
        o = next(
            (
                o
                for o in state.opponents(seat)
                if o.beast is None  # B9: no appeal to a beast
                and o.alive
                and o.has_weapon
                and o.posture != "prone"
                and not o.sheet.unconscious
                and in_front(o.pose, g.pose)
            ),
            None,
        )
        if o is None:
            continue
        # §18.2: ensnared (§20) is helpless too.
        helpless = g.sheet.unconscious or not plot_status(state, g).can_move or bool(g.ensnared)
        if helpless:
            why = (
                "unconscious"
                if g.sheet.unconscious
                else "ensnared"
                if g.ensnared
                else "unable to move"
            )
            events.append(
                event(
                    "moment_of_truth",
                    "§18.2",
                    f"{seat} starts the phase Prone and {why} in {o.seat}'s combat front: "
                    "the Moment of Truth",
                )
            )
            whole = f"this whole phase (turn {state.turn}, phase {state.phase})"
            moment_of_truth(state, [seat], o.seat, dice, events, whole)
            if is_over(state):  # a duel's appeal ends it; a team's goes on (G7)
                return


def _as_area(name: str) -> Area:
    return AREAS[AREAS.index(name)]


def end_phase(state: ColosseumState, dice: Dice, events: list[Event]) -> None:
    """§5.2.7, §10.5 SA, §10.3.2; then the next phase or the end of the turn (§5.4)."""
    t, ph = state.turn, state.phase
    for g in state.gladiators.values():
        g.recovered_weapon = False  # §13.4.2 lasts the phase of the recovery
        if not g.alive:
            continue
        bleeding: list[Area] = [_as_area(a) for a, tt, pp in g.arteries if (tt, pp) < (t, ph)]
        if bleeding:
            g.sheet, evs = severed_artery_bleeding(g.sheet, bleeding)
            events.extend(evs)
            state.bleed(g)
        if g.sheet.killed or g.crits.killed:
            g.alive = False
            g.cause = g.cause or ("bled to death (§10.5 SA)" if bleeding else "killed in combat")
        check_unconscious(g, events)
    if fight_over(state, events):  # §10.3.2, G7, B9, B14
        return
    for g in state.gladiators.values():
        g.stumbling = False
        g.may_attack, g.pa, g.available = False, 0, 0
    if state.phase < PHASES_PER_TURN:  # §5.3: the next phase, until one side is beaten
        state.phase += 1
    else:
        end_turn(state, dice, events)
        if state.step == "over" or fight_over(state, events):  # B9: endurance
            return
    start_phase(state, dice, events)


def end_turn(state: ColosseumState, dice: Dice, events: list[Event]) -> None:
    """§5.4: endurance (§17.2, §17.3) and, from turn 3, stans missus (§5.4.1)."""
    t = state.turn
    end = tables().turn_end
    const = (
        end.endurance.constant
        if state.options["endurance"] == "rules"
        else end.endurance.reference_sheet_constant
    )
    for seat, g in state.gladiators.items():
        if g.beast is not None:  # NOTE §28.4: a beast never loses CF to endurance
            continue
        die = dice.roll(end.endurance.dice, f"{seat}'s endurance 1D6 + turn", "§17.2")
        bonus = end.endurance.exceeded_turn_bonus if g.exceeded_this_turn else 0
        value = (g.sheet.cn + g.sheet.move + const) - (die + t + bonus)
        text = (
            f"{seat}: (CN {g.sheet.cn} + move {g.sheet.move} {const:+d}) − (1D6 {die} + turn {t}"
            + (f" + {bonus} (§17.3)" if bonus else "")
            + f") = {value}"
        )
        if value < 0:
            g.sheet, evs = g.sheet.with_endurance_loss(t, -value)
            events.append(
                event("endurance", "§17.2", f"{text}: loses {-value} CF", seat=seat, lost=-value)
            )
            events.extend(sheet_events(seat, evs))
            check_unconscious(g, events)
        else:
            events.append(event("endurance", "§17.2", f"{text}: no loss", seat=seat, lost=0))
    sm = end.stans_missus
    # B9: a beast is fought out; §30.2.2 (X6): a death match has no stans missus.
    fought_out = any(g.beast is not None for g in state.gladiators.values())
    stops = not fought_out and not state.options.get("sine_missione")
    if t >= sm.first_turn and stops:
        roll = dice.roll(sm.dice, "stans missus 1D6 + turn", "§5.4.1")
        stopped = roll + t > sm.stopped_if_above
        events.append(
            event(
                "stans_missus_roll",
                "§5.4.1",
                f"1D6 {roll} + turn {t} = {roll + t}"
                + (": stans missus, the match is stopped" if stopped else ": the fight goes on"),
                stopped=stopped,
            )
        )
        if stopped:
            after = f"a phase of its own after turn {t}"
            moment_of_truth(state, list(state.gladiators), None, dice, events, after)
            return
    for g in state.gladiators.values():
        g.moves_used = 0
        g.exceeded_last_turn = g.exceeded_this_turn
        g.exceeded_this_turn = False
    if time_up(state, events):  # §27.7.1 (G8)
        return
    if state.turn >= int(state.options["max_turns"]):
        finish(
            state,
            (),
            "time",
            f"no result after {state.options['max_turns']} turns: a draw (max_turns)",
            events,
        )
        return
    state.turn += 1
    state.phase = 1
