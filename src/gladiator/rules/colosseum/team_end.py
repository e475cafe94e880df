"""The end of a team match (§18, §27.7): the men out of the fight and the last side standing.

RULINGS (the G series of docs/rulings.md)

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
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from gladiator.core.protocol import Event
from gladiator.rules.colosseum.events import event
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.teams import sides_of

__all__ = ["Finish", "side_standing", "take_off", "team_deaths", "team_spared", "team_time_up"]


class Finish(Protocol):
    """appeal.finish: the match is over (passed in, since appeal.py reads this module)."""

    def __call__(
        self,
        state: ColosseumState,
        winners: tuple[str, ...],
        method: str,
        summary: str,
        events: list[Event],
    ) -> None: ...


def take_off(state: ColosseumState, g: Gladiator, events: list[Event]) -> None:
    """G7: a beaten man leaves the fight and the sand."""
    if g.seat not in state.gladiators:
        return
    del state.gladiators[g.seat]
    state.fallen[g.seat] = g
    g.may_attack, g.pa, g.available, g.targets = False, 0, 0, ()
    how = "his body is carried off" if not g.alive else "he leaves the arena alive"
    events.append(event("fallen", "§27", f"{g.seat} is out of the fight: {how}", seat=g.seat))


def side_standing(state: ColosseumState) -> list[int]:
    """How many men of each side are still in the fight."""
    counts = [0, 0]
    for seat in state.gladiators:
        counts[state.side(seat)] += 1
    return counts


def _side_seats(state: ColosseumState, k: int) -> tuple[str, ...]:
    return sides_of(state.options)[k]


def _finish_if_one_side(
    state: ColosseumState, how: str, events: list[Event], finish: Finish
) -> bool:
    counts = side_standing(state)
    if all(counts):
        return False
    if not any(counts):
        finish(state, (), how, "nobody is left standing: a draw (§27.7.2)", events)
        return True
    k = 0 if counts[0] else 1
    winners = _side_seats(state, k)
    finish(
        state,
        winners,
        how,
        f"{'+'.join(winners)} are the last side standing (§27.7.2)",
        events,
    )
    return True


def team_deaths(state: ColosseumState, events: list[Event], finish: Finish) -> bool:
    """§10.3.2, G7: the dead of this phase leave the sand; True if that ends the match."""
    dead = [g for g in state.gladiators.values() if not g.alive]
    for g in dead:
        events.append(event("dead", "§10.3.2", f"{g.seat} is dead: {g.cause}", seat=g.seat))
        take_off(state, g, events)
    return bool(dead) and _finish_if_one_side(state, "killed", events, finish)


def team_spared(
    state: ColosseumState,
    appellants: list[str],
    victor: str | None,
    spared: Mapping[str, bool],
    events: list[Event],
    finish: Finish,
) -> None:
    """G7: the appeal's result in a team match."""
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
            k = 0 if counts[0] > counts[1] else 1
            winners = _side_seats(state, k)
            finish(
                state,
                winners,
                "stans missus",
                f"stans missus: {'+'.join(winners)} have more men spared ({max(counts)} to "
                f"{min(counts)})",
                events,
            )
        return
    beaten = state.gladiators[appellants[0]]
    take_off(state, beaten, events)
    _finish_if_one_side(state, "missus" if spared[beaten.seat] else "mercy", events, finish)


def team_time_up(state: ColosseumState, events: list[Event], finish: Finish) -> bool:
    """§27.7.1 (G8): with `team_end = "time"`, the end of turn `team_turns` ends the match."""
    if state.options.get("team_end") != "time" or state.turn < int(state.options["team_turns"]):
        return False
    counts = side_standing(state)
    text = f"time is up after {state.turn} turns: {counts[0]} standing to {counts[1]}"
    if counts[0] == counts[1]:
        finish(state, (), "time", f"{text}, a draw (§27.7.1)", events)
    else:
        k = 0 if counts[0] > counts[1] else 1
        winners = _side_seats(state, k)
        finish(state, winners, "time", f"{text}: {'+'.join(winners)} win (§27.7.1)", events)
    return True
