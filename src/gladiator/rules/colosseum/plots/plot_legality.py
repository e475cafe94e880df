"""Which phase plots a gladiator may write this phase: his `PlotStatus` (move rate, movement
phases used, posture, a forced Stumble, an item in reach, unconsciousness, LMP, last turn's
excess, the Sprinting talent), the posture a plot leaves him in, and `legal_plots(status)`,
every plot he may write in a fixed order. The plot itself, its notation and its path are
plots.py's (its `uses_movement_phase` is R6; its `exceeds_rate` applies R7, below).

RULINGS (shared/rules/colosseum.md; numbered with plots.py's R series)

R7  §3.5, §5.2.1, §10.5 (LMP), §17.3, Q3: he may move in `moves_allowed` = max(0, move rate -
    LMP results - 2 if he exceeded his rate last turn) phases, and in one phase more (§17.3).
    `legal_plots` offers that excess phase too (see `exceeds_rate`; it costs +1 on this turn's
    endurance check and the -2 next turn, which the engine records). Once the excess is used,
    only the free plots remain.
R8  §15.1, §15.3, Q3: S is only ever the forced action of the phase after a trip; it is never
    offered otherwise. A gladiator who must stumble may write nothing but S, rotating one
    hex-side only if he still has a movement phase (normal or excess) and his facing is free.
    §15.3 ("whether or not he could move in that phase") puts the forced S before posture: it is
    also what a Kneeling or Prone gladiator writes after tripping (§16.4 forbids a *voluntary*
    Pause, not a forced Stumble).
R9  §16.4, Q3: a Prone gladiator writes KN or RO-FL/RO-FR/RO-BL/RO-BR, and may not Pause. Both use
    a movement phase; with none left he is "unable to move" (§16.3.1, Q3) and his only plot is the
    empty one.
R10 §16.4.1, §11.4: an unconscious gladiator takes no action: his only plot is the empty one.
R11 §14, §14.3, Q24: a Kneeling gladiator may write whatever a standing one may (a movement
    action, C or a rotating X stands him up; KN or a non-rotating X keeps him kneeling), and a
    standing gladiator may KN to take the defensive stance. Their plot lists are the same.
R12 §7.4 (R), §13.4: R is offered only when `can_recover` says an item he may pick up lies in his
    own or an adjacent hex; the two-item limit and the Retiarius's shield (§13.4 NOTE) are the
    caller's to fold into that flag.
R13 §7.2.2: a bare rotation (`(R)`, no action) has no action to belong to, and turning in place
    is what X is for; the value and the notation can hold one (a log sheet may show it), it uses
    a movement phase (R6), but `legal_plots` never offers it (X(R) does the same).
R14 §5.2.1, R9, R10: the empty plot `-` ("" reads the same) is offered only when nothing else is
    legal; a standing or kneeling gladiator who does not move writes a non-rotating X.
R16 §20.5.4 (Advanced Game): `facing_free=False` (an ensnared gladiator "may move but may not
    rotate") drops every plot that rotates.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Literal

from gladiator.rules.colosseum.plots.plot_actions import SPRINT_ACTIONS, SPRINT_LENGTH, action_specs
from gladiator.rules.colosseum.plots.plots import (
    EMPTY,
    PhasePlot,
    PlotError,
    Posture,
    uses_movement_phase,
)
from gladiator.rules.colosseum.tables.tables import tables

__all__ = ["PlotStatus", "exceeds_rate", "legal_plots", "posture_after"]

_POSTURES: tuple[Posture, ...] = ("standing", "kneeling", "prone")
# Gap values tried when listing plots: none, (L), (R), (2L), (2R), (3R).
_GAP_VALUES = (0, -1, 1, -2, 2, 3)


# --- status -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlotStatus:
    """What decides a gladiator's legal plots this phase.

    move_rate           §3.5 / T37: phases per turn he may move (light 6, medium 5, heavy 4).
    moves_used          phases of this turn already plotted that used a movement phase (R6).
    posture             standing, kneeling (§14) or prone (§16).
    must_stumble        he tripped last phase and must write S now (§15.1, §15.3).
    can_recover         an item he may pick up lies in his own or an adjacent hex (§7.4 R, R12).
    unconscious         Stun above CF (§11.4): no action at all (§16.4.1).
    lmp                 LMP critical results (§10.5): each takes a movement phase a turn.
    exceeded_last_turn  he used the §17.3 extra phase last turn: two fewer phases this turn.
    sprint              he has the Sprinting talent (§36.3 SP, Q48, R20): the sprints too.
    """

    move_rate: int
    moves_used: int = 0
    posture: Posture = "standing"
    must_stumble: bool = False
    can_recover: bool = False
    unconscious: bool = False
    lmp: int = 0
    exceeded_last_turn: bool = False
    sprint: bool = False

    def __post_init__(self) -> None:
        for name in ("move_rate", "moves_used", "lmp"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"plot status {name} must be an integer >= 0, got {value!r}")
        if self.posture not in _POSTURES:
            raise ValueError(
                f"plot status posture must be one of {_POSTURES}, not {self.posture!r}"
            )

    @property
    def moves_allowed(self) -> int:
        """§3.5, §7.1, §10.5, §17.3 (R7): phases he may move this turn before exceeding his rate."""
        penalty = tables().turn_end.endurance.exceeded_next_turn_penalty
        return max(0, self.move_rate - self.lmp - (penalty if self.exceeded_last_turn else 0))

    @property
    def moves_left(self) -> int:
        """Movement phases left this turn within his rate (not counting the §17.3 extra one)."""
        return max(0, self.moves_allowed - self.moves_used)

    @property
    def can_move(self) -> bool:
        """Whether a plot that uses a movement phase is allowed: within the rate, or the one
        extra phase of §17.3."""
        extra = tables().turn_end.endurance.exceeded_extra_phases
        return self.moves_used < self.moves_allowed + extra


def posture_after(plot: PhasePlot, posture: Posture) -> Posture:
    """§14.1, R11 (Q24): his posture once the plot is done. KN kneels (from Prone or standing); a
    Kneeling gladiator who plots a movement action, C or a rotating X stands up; a Prone one stays
    Prone unless he kneels (a Roll leaves him Prone, §7.4)."""
    acts = plot.actions
    if posture == "prone":
        return "kneeling" if acts == ("KN",) else "prone"
    if posture == "kneeling":
        stays = not acts or acts in (("KN",), ("S",)) or (acts == ("X",) and not plot.rotates)
        return "kneeling" if stays else "standing"
    return "kneeling" if acts == ("KN",) else "standing"


# --- legal plots --------------------------------------------------------------------------------


def _variants(actions: tuple[str, ...]) -> list[PhasePlot]:
    """Every well-formed rotation of these actions, in the _GAP_VALUES order, once each."""
    out: dict[PhasePlot, None] = {}
    for turns in itertools.product(_GAP_VALUES, repeat=len(actions) + 1):
        try:
            out[PhasePlot(actions, turns)] = None
        except PlotError:
            continue
    return list(out)


@cache
def _candidates(
    kind: Literal["upright", "prone", "stumble", "sprint"],
) -> tuple[PhasePlot, ...]:
    """Before status filters: the plots of a standing/kneeling, a prone or a stumbling man, and
    the sprints (R20)."""
    specs = action_specs()
    if kind == "sprint":
        triples = itertools.product(SPRINT_ACTIONS, repeat=SPRINT_LENGTH)
        return tuple(p for actions in triples for p in _variants(actions))
    if kind == "stumble":
        return tuple(_variants(("S",)))
    if kind == "prone":
        codes = ["KN", *(c for c, s in specs.items() if s.prone_only)]
        return tuple(p for c in codes for p in _variants((c,)))
    movement = [c for c, s in specs.items() if s.movement]
    plots: list[PhasePlot] = []
    for code in movement:
        plots.extend(_variants((code,)))
    for first in movement:
        for second in movement:
            plots.extend(_variants((first, second)))
    for code, spec in specs.items():
        if not spec.movement and not spec.prone_only and code != "S":
            plots.extend(_variants((code,)))
    return tuple(plots)


@lru_cache(maxsize=1024)
def _legal(status: PlotStatus, facing_free: bool) -> tuple[PhasePlot, ...]:
    if status.unconscious:
        return (EMPTY,)
    if status.must_stumble:
        candidates = _candidates("stumble")
    elif status.posture == "prone":
        candidates = _candidates("prone")
    else:
        candidates = _candidates("upright")
        if status.sprint:  # R20: after the ordinary plots, so their order is unchanged
            candidates = (*candidates, *_candidates("sprint"))
    can_move = status.can_move
    out = tuple(
        p
        for p in candidates
        if (facing_free or not p.rotates)
        and (can_move or not uses_movement_phase(p))
        and (status.can_recover or p.actions != ("R",))
    )
    return out or (EMPTY,)


def legal_plots(status: PlotStatus, *, facing_free: bool = True) -> list[PhasePlot]:
    """Every plot this gladiator may write this phase, in a fixed order (R6-R16).

    Order: single movement actions, then pairs (both in T39 order), then special actions. For
    each list of actions, its rotations run through the gaps (first gap slowest), each gap taking
    none, (L), (R), (2L), (2R), (3R): F, F(L), F(R), (L)F, (R)F.
    `facing_free=False` is for a gladiator who may not rotate (ensnared, §20.5.4).
    """
    return list(_legal(status, facing_free))


def exceeds_rate(status: PlotStatus, plot: PhasePlot) -> bool:
    """Whether this plot would be the §17.3 extra movement phase (R7)."""
    return uses_movement_phase(plot) and status.moves_used >= status.moves_allowed
