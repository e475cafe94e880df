"""§36.3 SP, Sprinting (Q48): the check that follows a sprint. The sprint itself is a plot
(plot_actions.py R20, offered by `legal_plots` to a gladiator whose `PlotStatus.sprint` is set).

RULINGS (docs/rulings.md, Colosseum Campaign Game, the TL series)

TL7 §36.3 SP, Q48, §15.2.1: a sprint is a plot of exactly three movement actions, each F, SFL or
    SFR, each with its own one hex-side of rotation (R1); it uses one movement phase (§5.2.1)
    and may be the §17.3 extra phase. Two actions are an ordinary plot, not a sprint. After
    movement and collisions (with §15.1's checks) every gladiator who sprinted and has not
    already tripped this phase makes a Stumble check by §15.2.1 (1D6 − 0 hexes backward − Stun
    in effect, below 1; option `stumble_rule` as everywhere): if he stumbles he must write S
    next phase (§15.3). A plot cut short by a collision was still a sprint.
"""

from __future__ import annotations

from collections.abc import Mapping

from gladiator.core.dice import Dice
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.movement.stumble_check import stumble
from gladiator.rules.colosseum.plots.plot_actions import is_sprint
from gladiator.rules.colosseum.plots.plots import PhasePlot
from gladiator.rules.colosseum.state import ColosseumState

__all__ = ["sprint_checks"]


def sprint_checks(
    state: ColosseumState, plots: Mapping[str, PhasePlot], dice: Dice, events: list[Event]
) -> None:
    """TL7: the Stumble check of each gladiator who sprinted this phase."""
    for seat, g in state.gladiators.items():
        plot = plots.get(seat)
        if plot is None or not is_sprint(plot.actions) or g.must_stumble or not g.alive:
            continue
        stumble(g, 0, dice, state.options["stumble_rule"], "after sprinting", "§36.3", events)
