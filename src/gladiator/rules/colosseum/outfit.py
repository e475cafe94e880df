"""The gladiators of an Advanced Game match (§4.3, §19): each seat's style settled (styles.py,
F1), his log sheet rolled for it (§3, F4) and his kit put in his hands (F2, F3); and the one
habit of a style the phase has to watch, the Crupellarius's Fall Prone check on kneeling
(§19.4.4).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gladiator.core.dice import Dice
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.campaign_entrants import seat_sheet
from gladiator.rules.colosseum.events import event
from gladiator.rules.colosseum.logsheet import LogSheet
from gladiator.rules.colosseum.positions import Position
from gladiator.rules.colosseum.postures import FALL_PRONE_BELOW, fall_prone
from gladiator.rules.colosseum.state import Gladiator
from gladiator.rules.colosseum.styles import Kit, choose_styles, kit, parse_weapons, style
from gladiator.rules.colosseum.talent_setup import with_talents

__all__ = ["kitted_gladiator", "kneel_check", "styled_gladiators"]


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


def styled_gladiators(
    options: Mapping[str, Any],
    seats: Sequence[str],
    starts: Sequence[Position],
    dice: Dice,
    counter: Callable[[str, Mapping[str, Gladiator]], int],
    events: list[Event],
    *,
    foes: Callable[[int], Sequence[int]] | None = None,
) -> dict[str, Gladiator]:
    """§4.3, §19, F1-F4: the styles, then each seat's sheet and kit, in seat order. `counter`
    gives the log sheet's ID (§2.3.1, §3.2); `foes` the indices of a seat's opponents (a team
    match, §27; by default the duel's other seat)."""
    keys = choose_styles(seats, options["gladiators"], options["styles"], dice)
    gladiators: dict[str, Gladiator] = {}
    for i, seat in enumerate(seats):
        key = keys[i]
        against = [keys[j] for j in (foes(i) if foes is not None else (1 - i,))]
        s = style(key)
        outfit = kit(key, parse_weapons(options["weapons"][i]))
        sheet = seat_sheet(  # rolled, or a campaign entrant's (§30, X1)
            options,
            i,
            events,
            dice,
            s.gladiator_class,
            id=counter(s.gladiator_class, gladiators),
            name=seat,
            opponent_is_retiarius="retiarius" in against,  # §3.10.2
            style=key,
            shield=outfit.shield,
        )
        pos = starts[i]
        g = kitted_gladiator(seat, sheet, pos, key, outfit, bool(options["left_handed"][i]))
        with_talents(g, options, i)  # §36 (Campaign Game)
        gladiators[seat] = g
        arms = " and ".join(outfit.weapons)
        carried = Counter(outfit.spare)
        extra = (
            ", carrying " + ", ".join(f"{n} more {k}s" if n > 1 else k for k, n in carried.items())
            if carried
            else ""
        )
        shield = "a hook" if g.hook else f"a {sheet.shield} shield" if sheet.shield else "no shield"
        events.append(
            event(
                "gladiator",
                "§19",
                f"{seat}: {s.name} ({s.gladiator_class}), TR {sheet.tr} ST {sheet.st} AG "
                f"{sheet.ag} CN {sheet.cn} W {sheet.w}, CF {sheet.cf}, move {sheet.move}; "
                f"{'net and ' if outfit.net else ''}{arms}{extra}; {shield}",
                seat=seat,
                gladiator_class=s.gladiator_class,
                style=key,
                cf=sheet.cf,
            )
        )
    return gladiators


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
