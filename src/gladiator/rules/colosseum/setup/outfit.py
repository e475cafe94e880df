"""A gladiator of an Advanced Game style with his kit in his hands (§19, F2, F3, F5; the style
and sheet are settled in setup/figures.py); and the one habit of a style the phase has to watch,
the Crupellarius's Fall Prone check on kneeling (§19.4.4).
"""

from __future__ import annotations

from gladiator.core.dice import Dice
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.arena.positions import Position
from gladiator.rules.colosseum.events import event
from gladiator.rules.colosseum.kit.styles import Kit, style
from gladiator.rules.colosseum.movement.postures import FALL_PRONE_BELOW, fall_prone
from gladiator.rules.colosseum.sheet.logsheet import LogSheet
from gladiator.rules.colosseum.state import Gladiator

__all__ = ["kitted_gladiator", "kneel_check"]


def kitted_gladiator(
    seat: str, sheet: LogSheet, pos: Position, key: str, outfit: Kit, left_handed: bool
) -> Gladiator:
    """§19 (F2, F3, F5): a gladiator of style `key` on his sheet, with his kit in hand."""
    return Gladiator(
        seat,
        sheet,
        pos.hex,
        pos.facing,
        left_handed=left_handed,
        has_weapon=bool(outfit.weapons),
        has_shield=sheet.shield is not None,
        style=key,
        weapons=outfit.weapons,
        spare=outfit.spare,
        net=outfit.net,
        hook=outfit.hook and sheet.shield is not None,
    )


def kneel_check(g: Gladiator, dice: Dice, events: list[Event]) -> bool:
    """§19.4.4: a Crupellarius who performs a KN action also takes the Fall Prone check (§15.4);
    True if he fell (he lies Prone, his KN undone)."""
    if not g.style or not style(g.style).kneel_fall_prone:
        return False
    roll = dice.roll("2D6", f"{g.seat}'s Fall Prone check 2D6 + AG (KN)", "§19.4.4")
    total = roll + g.sheet.current_ag
    falls = total < FALL_PRONE_BELOW
    events.append(
        event(
            "fall_prone_check",
            "§19.4.4",
            f"{g.seat} kneels in heavy armour: 2D6 {roll} + AG {g.sheet.current_ag} = {total}"
            + (": below 7, he falls Prone" if falls else ": he keeps his balance"),
            seat=g.seat,
        )
    )
    if falls:
        fall_prone(g)
    return falls
