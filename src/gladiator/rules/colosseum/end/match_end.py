"""The end of the fight for any roster (§10.3.2, §18, §27.7, §28): who is out of it, who leaves
the sand so that the rest fight on, and the match's end once a side has nobody left. The shape
shows only in the log's words, each shape's as its records were played: a duel's and a lone
beast's deaths, a team's last side standing, a pack's beasts taken off (B14).

RULINGS (docs/rulings.md: the G series, §27; the B series, §28)

G7  §18, §27.7: every beaten man appeals on his own (§18.3: a Prone man helpless in an
    opponent's front at the start of a phase, §18.2; one whose hex an opponent enters, §8.3).
    Spared (missus) or killed, he leaves the fight, as does a man killed in combat: at the end
    of the phase he fell in, his figure is taken off the sand (`state.fallen`), so no one
    collides with his body or fights him again, and play goes on among the rest. An appeal at
    the start of a phase takes no phase from the others; one after a collision (§8.3) ends that
    phase's movement step for everyone (no recovery, throw or combat follows), as in a duel
    (E12). The §5.4.1 stans missus roll stops a team match as it stops a duel: everyone still
    standing appeals, and the side with more men spared wins (equal: a draw).
G8  §27.7.1, §27.7.2, Q35: by default (`team_end = "last_standing"`) the match goes on until
    one side has nobody left in the fight (§27.7.2), and `max_turns` stays the safety net. With
    `team_end = "time"` it ends after `team_turns` turns (Q35: 5), at the end of that turn,
    and the side with the most gladiators still standing wins (§27.7.1); equal numbers are a
    draw. The winners of a team match are every seat of the winning side, the fallen too.
B9  The match ends when the beast or the gladiator is dead or incapacitated (unconscious): a
    beast knows no appeal, so the Moment of Truth (§18) never comes, and nor does stans missus
    (§5.4.1): a beast hunt is fought out (max_turns still stops it as a draw).
B14 B9 for a pack: a beast dead or unconscious is out of the fight and its counter is taken off
    the sand at once (`state.fallen`, as G7). The gladiator wins when every beast is out; the
    beasts win when he is dead or unconscious; both at once (he and the last beast) is a draw.
"""

from __future__ import annotations

from collections.abc import Mapping

from gladiator.core.protocol import Event
from gladiator.rules.colosseum.campaign.campaign_tally import sweep
from gladiator.rules.colosseum.events import event
from gladiator.rules.colosseum.setup.roster import Roster, roster_of
from gladiator.rules.colosseum.state import ColosseumState, Gladiator

__all__ = ["after_appeal", "fight_over", "finish", "side_standing", "take_off", "time_up"]


def fight_over(state: ColosseumState, events: list[Event]) -> bool:
    """§10.3.2 (the dead), B9 and B14 (the incapacitated where a beast fights, which knows no
    appeal): the figures out of the fight leave it; True if that ends the match. Asked at the
    end of each phase and after whatever can put a figure out outside combat (a beast's move,
    endurance)."""
    if state.step == "over":
        return False
    sweep(state)  # X7: the match report's deaths, before the dead leave
    roster = roster_of(state.options)
    if roster.pack:
        return _pack_out(state, roster, events)
    return _dead(state, roster, events) or (bool(roster.beasts) and _down(state, events))


def _dead(state: ColosseumState, roster: Roster, events: list[Event]) -> bool:
    """§10.3.2: the dead are buried; a team's leave the sand (G7)."""
    dead = [g for g in state.gladiators.values() if not g.alive]
    for g in dead:
        events.append(event("dead", "§10.3.2", f"{g.seat} is dead: {g.cause}", seat=g.seat))
        if _many(roster):
            take_off(state, g, events)
    if not dead:
        return False
    return _last_side(state, roster, "killed", events, f"killed {dead[0].seat} in combat")


def _down(state: ColosseumState, events: list[Event]) -> bool:
    """B9: a lone beast or its gladiator unconscious (or dead) ends the hunt."""
    men_first = sorted(state.gladiators.values(), key=lambda x: x.beast is not None)
    down = [x for x in men_first if _out(x)]
    if not down:
        return False
    for x in down:
        how = "dead" if not x.alive else "unconscious"
        events.append(event("down", "§28", f"{x.seat} is {how}: {x.cause or 'out of the fight'}"))
    if len(down) == 2:
        finish(state, (), "killed", "the gladiator and the beast are both down", events)
        return True
    up = next(x for x in state.gladiators.values() if x is not down[0])
    method = "killed" if not down[0].alive else "incapacitated"
    what = "killed" if not down[0].alive else "overcame"
    finish(state, (up.seat,), method, f"{up.seat} {what} {down[0].seat}", events)
    return True


def _pack_out(state: ColosseumState, roster: Roster, events: list[Event]) -> bool:
    """B14: the beasts out of the fight leave the sand; True if that or his fall ends it."""
    for b in [b for b in state.gladiators.values() if b.beast is not None and _out(b)]:
        how = "dead" if not b.alive else "unconscious"
        events.append(
            event(
                "down",
                "§28",
                f"{b.seat} ({b.beast.name if b.beast else ''}) is {how}: its counter is taken "
                "off the sand (B14)",
                seat=b.seat,
            )
        )
        _leave(state, b)
    man = next(g for g in state.gladiators.values() if g.beast is None)
    beasts = next(side for side in roster.sides if man.seat not in side)
    left = [b for b in state.gladiators.values() if b.beast is not None]
    if _out(man):
        how = "dead" if not man.alive else "unconscious"
        cause = man.cause or "out of the fight"
        events.append(event("down", "§28", f"{man.seat} is {how}: {cause}"))
        if not left:
            finish(state, (), "killed", "the gladiator and the last beast are both down", events)
        else:
            method = "killed" if not man.alive else "incapacitated"
            finish(state, beasts, method, f"the beasts overcame {man.seat}", events)
        return True
    if left:
        return False
    method = "killed" if all(not b.alive for b in state.fallen.values()) else "incapacitated"
    finish(state, (man.seat,), method, f"{man.seat} overcame every beast (B14)", events)
    return True


def _out(x: Gladiator) -> bool:
    return not x.alive or x.sheet.unconscious


def _many(roster: Roster) -> bool:
    """G7: with more than one a side the beaten leave the sand and the rest fight on."""
    return any(len(side) > 1 for side in roster.sides)


def take_off(state: ColosseumState, g: Gladiator, events: list[Event]) -> None:
    """G7: a beaten man leaves the fight and the sand."""
    if g.seat not in state.gladiators:
        return
    _leave(state, g)
    how = "his body is carried off" if not g.alive else "he leaves the arena alive"
    events.append(event("fallen", "§27", f"{g.seat} is out of the fight: {how}", seat=g.seat))


def _leave(state: ColosseumState, g: Gladiator) -> None:
    del state.gladiators[g.seat]
    state.fallen[g.seat] = g
    g.may_attack, g.pa, g.available, g.targets = False, 0, 0, ()


def side_standing(state: ColosseumState) -> list[int]:
    """How many figures of each side are still in the fight."""
    counts = [0, 0]
    for seat, g in state.gladiators.items():
        counts[state.side(seat)] += g.alive
    return counts


def _last_side(
    state: ColosseumState, roster: Roster, how: str, events: list[Event], duel_words: str
) -> bool:
    """§27.7.2: the match ends when a side has nobody left standing (a duel: one is dead)."""
    counts = side_standing(state)
    if all(counts):
        return False
    duel = not _many(roster)
    if not any(counts):
        words = "both gladiators died" if duel else "nobody is left standing: a draw (§27.7.2)"
        finish(state, (), how, words, events)
        return True
    winners = roster.sides[0 if counts[0] else 1]
    if duel:
        finish(state, winners, how, f"{winners[0]} {duel_words}", events)
    else:
        finish(
            state, winners, how, f"{'+'.join(winners)} are the last side standing (§27.7.2)", events
        )
    return True


def after_appeal(
    state: ColosseumState,
    appellants: list[str],
    victor: str | None,
    spared: Mapping[str, bool],
    events: list[Event],
) -> bool:
    """G7: in a match of more than one a side the appellants leave the sand and the fight goes
    on while both sides have men; True if this settled it (a duel's appeal is appeal.py's)."""
    roster = roster_of(state.options)
    if not _many(roster):
        return False
    if victor is None:  # §5.4.1 stans missus: the side with more men spared wins
        counts = [0, 0]
        for s in appellants:
            counts[state.side(s)] += spared[s]
        for s in appellants:
            take_off(state, state.gladiators[s], events)
        if counts[0] == counts[1]:
            finish(
                state,
                (),
                "stans missus",
                f"stans missus: {counts[0]} spared a side, a draw",
                events,
            )
        else:
            winners = roster.sides[0 if counts[0] > counts[1] else 1]
            finish(
                state,
                winners,
                "stans missus",
                f"stans missus: {'+'.join(winners)} have more men spared ({max(counts)} to "
                f"{min(counts)})",
                events,
            )
        return True
    beaten = state.gladiators[appellants[0]]
    take_off(state, beaten, events)
    how = "missus" if spared[beaten.seat] else "mercy"
    _last_side(state, roster, how, events, "")
    return True


def time_up(state: ColosseumState, events: list[Event]) -> bool:
    """§27.7.1 (G8): with `team_end = "time"`, the end of turn `team_turns` ends the match."""
    if state.options.get("team_end") != "time" or state.turn < int(state.options["team_turns"]):
        return False
    roster = roster_of(state.options)
    counts = side_standing(state)
    text = f"time is up after {state.turn} turns: {counts[0]} standing to {counts[1]}"
    if counts[0] == counts[1]:
        finish(state, (), "time", f"{text}, a draw (§27.7.1)", events)
    else:
        winners = roster.sides[0 if counts[0] > counts[1] else 1]
        finish(state, winners, "time", f"{text}: {'+'.join(winners)} win (§27.7.1)", events)
    return True


def finish(
    state: ColosseumState,
    winners: tuple[str, ...],
    method: str,
    summary: str,
    events: list[Event],
) -> None:
    """The match is over (§10.5 M: a mortal wound kills its bearer now)."""
    for g in state.gladiators.values():
        if g.alive and g.crits.mortal:  # §10.5 M: he fights on but dies at the end of the match
            g.alive = False
            g.cause = "a mortal wound (§10.5 M)"
            events.append(
                event("mortal", "§10.5", f"{g.seat} dies of his mortal wound", seat=g.seat)
            )
            summary += f"; {g.seat} dies of a mortal wound"
    sweep(state)  # X7: the match report's deaths
    state.step = "over"
    state.winners = winners
    state.end_method = method
    state.end_summary = summary
    events.append({"type": "end", "winners": list(winners), "method": method, "text": summary})
