"""§29.3 "gladiators always move first" (option `solitaire`): the plot step in two stages.

A seat named in the option is run by the §29 charts (the centurion bot), whose movement depends
on where the gladiator went. So in each plot step the engine first asks every other seat for its
plot, secret as always (§5.2.1: `Match` keeps them until all of those are in); `reveal_first`
then writes them into the state and the events, and only then are the solitaire seats asked. Their
plot decision is no secret (everything it could be hidden from is already revealed). Movement is
resolved once, with every plot, exactly as in a simultaneous phase (§5.2.2, §8).

Without the option (the default), or when every seat is a solitaire seat (nobody moves first),
the plot step is the one simultaneous decision of the Basic Game.
"""

from __future__ import annotations

from collections.abc import Mapping

from gladiator.rules.colosseum.events import Event, event
from gladiator.rules.colosseum.state import ColosseumState

__all__ = ["first_stage", "plot_seats", "reveal_first", "with_first_plots"]


def _solitaire(state: ColosseumState) -> tuple[str, ...]:
    named = set(state.options.get("solitaire", ()))
    return tuple(s for s in state.gladiators if s in named)


def first_stage(state: ColosseumState) -> bool:
    """Whether this plot step asks only the seats that move first (§29.3)."""
    solo = _solitaire(state)
    return bool(solo) and len(solo) < len(state.gladiators) and not state.early_plots


def plot_seats(state: ColosseumState) -> tuple[str, ...]:
    """The seats asked for a plot now, in seat order."""
    solo = _solitaire(state)
    if not solo or len(solo) == len(state.gladiators):
        return tuple(state.gladiators)
    if state.early_plots:
        return solo
    return tuple(s for s in state.gladiators if s not in solo)


def reveal_first(state: ColosseumState, orders: Mapping[str, str], events: list[Event]) -> None:
    """§29.3: the gladiators' plots are revealed before the centurions plot."""
    for seat, text in orders.items():
        state.early_plots[seat] = text
        events.append(
            event(
                "plot_first",
                "§29.3",
                f"{seat} reveals {text} first: gladiators move before centurions",
                seat=seat,
                plot=text,
            )
        )


def with_first_plots(state: ColosseumState, orders: Mapping[str, str]) -> dict[str, str]:
    """Every plot of the phase, the early ones taken out of the state, in seat order (a beast
    writes none, §28.4)."""
    merged = {**state.early_plots, **orders}
    state.early_plots = {}
    return {s: merged[s] for s in state.gladiators if s in merged}
