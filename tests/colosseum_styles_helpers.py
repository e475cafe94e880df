"""Helpers for the Advanced Game's styles and weapons tests (§19-§24): a duel of two styles set up
by hand, with hand-made styled log sheets (fixed ratings, a known armour roll) so scripted dice
decide every result under test."""

from __future__ import annotations

from typing import Any

from colosseum_helpers import duel, place, play
from gladiator.core.dice import Dice
from gladiator.core.hexgrid import Hex, neighbor
from gladiator.rules.colosseum.kit.styles import rolls_needed, style
from gladiator.rules.colosseum.sheet.logsheet import LogSheet
from gladiator.rules.colosseum.sheet.logsheet_input import log_sheet_from_dict
from gladiator.rules.colosseum.state import ColosseumState

# An armour roll per class whose row is easy to read: T1 4 is bare all over with a large shield,
# T2 2 is A5 B4 - B4 A3 (large), T3 2 is A B5 C B4 B4 (large).
ROLL = {"light": 4, "medium": 2, "heavy": 2}
HERE = Hex(8, 6)


def styled(key: str, **changes: Any) -> LogSheet:
    """TR 10, ST 2, AG 1 (CF 13), CN 4, W 12, the style's armour from the class's ROLL (twice for
    a Crupellarius; none for a Velite). `shield=None`: he carries none."""
    cls = style(key).gladiator_class
    data: dict[str, Any] = {
        "id": 5,
        "name": "x",
        "class": cls,
        "tr": 10,
        "st": 2,
        "ag": 1,
        "cn": 4,
        "w": 12,
        "style": key,
    }
    n = rolls_needed(key)
    if n:
        data["armour_roll"] = ROLL[cls]
    if n > 1:
        data["armour_roll_2"] = ROLL[cls]
    data.update(changes)
    return log_sheet_from_dict(data)


def arena(
    red: str,
    blue: str,
    *,
    weapons: tuple[str, str] = ("", ""),
    gap: int = 1,
    seed: int = 1,
    **options: Any,
) -> ColosseumState:
    """An Advanced Game duel of these styles: red at HERE facing 0, blue `gap` hexes straight
    ahead facing him; both on hand-made sheets (red #1, blue #2, his kit's shield or none)."""
    state = duel(seed, advanced=True, styles=[red, blue], weapons=list(weapons), **options)
    there = HERE
    for _ in range(gap):
        there = neighbor(there, 0)
    place(state, red=(HERE, 0), blue=(there, 3))
    for i, (seat, key) in enumerate((("red", red), ("blue", blue)), 1):
        g = state.gladiators[seat]
        extra = {} if g.sheet.shield is not None else {"shield": None}
        retiarius = state.opponent(seat).style == "retiarius" and style(key).shield == "any"
        if retiarius:
            extra["opponent_is_retiarius"] = True
        g.sheet = styled(key, id=i, name=seat, **extra)
        g.has_shield = g.sheet.shield is not None
    return state


def to_combat(state: ColosseumState) -> list[dict[str, Any]]:
    """Both Pause: the phase goes to the allocation (§5.2.6.1) if anyone may attack."""
    return play(state, Dice(1))
