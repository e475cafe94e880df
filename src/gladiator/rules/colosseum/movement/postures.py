"""Changes of posture the engine applies (§11.4, §14.1, §14.1.1, §16.1, §16.2): kneeling, getting
up, falling Prone and falling unconscious.

RULINGS (engine level, the E series of docs/rulings.md)

E8  §14.1.1, §16.2, Q24: a Prone gladiator who kneels rolls 1D6: on 1-4 he kneels in his own
    (torso) hex, on 5-6 in his legs hex, which is his rear neighbour if he lies face down and his
    front neighbour if face up (a man who falls forward has his legs behind him; one who falls
    backward, in front), or his own hex if that one is held by the opponent or off the board. He
    keeps the facing he lay with (and KN's own rotation). Face up/down is all §16.2 changes.
E10 §16.2: he lies face up if his last step of his own (F, SFL, SFR, C forward; B, SBL, SBR
    backward) went backward, face down otherwise (and before his first step); a Roll or a push
    is no step of his. Set whenever he falls Prone (§15.4, T7, §11.4).
"""

from __future__ import annotations

from gladiator.core.dice import Dice
from gladiator.core.hexgrid import Relation, neighbor_at
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.arena.board import board_of
from gladiator.rules.colosseum.events import event
from gladiator.rules.colosseum.plots.plot_legality import posture_after
from gladiator.rules.colosseum.plots.plots import PhasePlot
from gladiator.rules.colosseum.state import ColosseumState, Gladiator

FALL_PRONE_BELOW = 7  # §15.4: a Stumbling man falls Prone on 2D6 + AG below 7


def posture_after_plot(
    state: ColosseumState,
    g: Gladiator,
    plot: PhasePlot,
    lay: int,
    may_rise: bool,
    dice: Dice,
    events: list[Event],
) -> None:
    """§14.1, R11 (Q24): KN kneels (from Prone or standing); a Kneeling gladiator who plots a
    movement action, C or a rotating X stands up. §14.1.1 (E8): a Prone one who kneels rolls
    for where his KN counter goes (not when the match has just gone to the Moment of Truth)."""
    after = posture_after(plot, g.posture)
    if after == g.posture or (g.posture == "prone" and not may_rise):
        return
    if g.posture == "prone":
        kneel_from_prone(state, g, lay, dice, events)
    elif after == "kneeling":
        g.posture = "kneeling"
        events.append(event("posture", "§14.3", f"{g.seat} kneels", seat=g.seat))
    else:
        g.posture = "standing"
        events.append(event("posture", "§14", f"{g.seat} stands up", seat=g.seat))


def kneel_from_prone(
    state: ColosseumState, g: Gladiator, lay: int, dice: Dice, events: list[Event]
) -> None:
    """§14.1, §14.1.1, §16.2 (E8): 1-4 his torso hex, 5-6 his legs hex."""
    roll = dice.roll("1D6", f"{g.seat}'s KN counter: torso (1-4) or legs (5-6)", "§14.1.1")
    face = g.prone_face or "down"
    where = "his own hex (torso)"
    if roll >= 5:
        legs = neighbor_at(g.hex, lay, Relation.REAR if face == "down" else Relation.FRONT)
        held = any(o.hex == legs for o in state.gladiators.values() if o is not g)
        if legs in board_of(state) and not held:
            g.hex = legs
            where = f"his legs hex {legs.q},{legs.r} (face {face})"
        else:
            where = "his own hex (his legs hex is " + ("taken" if held else "off the board") + ")"
    g.posture = "kneeling"
    g.prone_face = None
    events.append(
        event(
            "posture",
            "§14.1.1",
            f"{g.seat} rises to his knees: 1D6 {roll}, the KN counter goes in {where}",
            seat=g.seat,
            hex=g.hex,
        )
    )


def fall_prone(g: Gladiator) -> None:
    """§16.1, §16.2 (E10): laid flat in his hex, face up after a backward step, else face down."""
    if g.posture != "prone":
        g.posture = "prone"
        g.prone_face = "up" if g.last_move == "backward" else "down"


def check_unconscious(g: Gladiator, events: list[Event]) -> None:
    if g.alive and g.sheet.unconscious and g.posture != "prone":  # §11.4
        fall_prone(g)
        events.append(
            event(
                "unconscious",
                "§11.4",
                f"{g.seat} falls unconscious and is laid Prone in his hex",
                seat=g.seat,
            )
        )
