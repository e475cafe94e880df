"""Setting up a match against a beast (§28, §4.3-§4.5, option `beasts`): the gladiator's style,
sheet and kit (§19, §28.2: typically a Bestiarius or a Venator), and the beast's seat with its
T21 sheet, its head on the seat's §4.5 starting hex facing the gladiator (B1, B2).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gladiator.core.dice import Dice
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.advanced_tables import advanced_tables
from gladiator.rules.colosseum.beast_record import Beast
from gladiator.rules.colosseum.beasts import beast_seats, beast_sheet, counter_hexes, random_kind
from gladiator.rules.colosseum.campaign_entrants import seat_sheet
from gladiator.rules.colosseum.events import event
from gladiator.rules.colosseum.outfit import kitted_gladiator
from gladiator.rules.colosseum.positions import Position, hex_text
from gladiator.rules.colosseum.state import Gladiator
from gladiator.rules.colosseum.styles import choose_styles, kit, parse_weapons, style
from gladiator.rules.colosseum.talent_setup import with_talents

__all__ = ["beast_gladiators"]


def _fighter_style(seat: str, cls: str, want: str, dice: Dice) -> str:
    """B1: "random" rolls 1D2 over the §28.2 beast fighters; anything else as §19 (F1)."""
    if want != "random":
        return choose_styles([seat], [cls], [want], dice)[0]
    pool = tuple(advanced_tables().styles.beast_fighters.styles)
    names = ", ".join(f"{n} {style(k).name}" for n, k in enumerate(pool, 1))
    return pool[dice.d(len(pool), f"{seat}'s beast fighter style ({names})", "§28.2") - 1]


def beast_gladiators(
    options: Mapping[str, Any],
    seats: Sequence[str],
    starts: Sequence[Position],
    dice: Dice,
    counter: Callable[[str, Mapping[str, Gladiator]], int],
    events: list[Event],
) -> dict[str, Gladiator]:
    """§28: the gladiator (styled, §19) and the beast, in seat order."""
    beasts = beast_seats(options, tuple(seats))
    out: dict[str, Gladiator] = {}
    for i, seat in enumerate(seats):
        pos = starts[i]
        if seat in beasts:
            kind = beasts[seat]
            if kind == "random":
                kind = random_kind(seat, dice)
            sheet = beast_sheet(kind, seat)
            b = Gladiator(
                seat,
                sheet,
                pos.hex,
                pos.facing,
                has_weapon=False,
                has_shield=False,
                beast=Beast(kind),
            )
            out[seat] = b
            t21 = advanced_tables().beasts.beast(kind)
            where = " and ".join(hex_text(h) for h in counter_hexes(b))
            events.append(
                event(
                    "beast",
                    "§28.3",
                    f"{seat}: a {t21.name}, ST {t21.st} AG {t21.ag} CN {t21.cn} W {t21.w}, "
                    f"CF {t21.cf}; its counter covers {where} (head first)",
                    seat=seat,
                    beast=kind,
                    cf=t21.cf,
                )
            )
            continue
        key = _fighter_style(seat, options["gladiators"][i], options["styles"][i], dice)
        s = style(key)
        outfit = kit(key, parse_weapons(options["weapons"][i]))
        sheet = seat_sheet(  # rolled, or a campaign entrant's (§30, X1)
            options,
            i,
            events,
            dice,
            s.gladiator_class,
            id=counter(s.gladiator_class, out),
            name=seat,
            style=key,
            shield=outfit.shield,
        )
        g = kitted_gladiator(seat, sheet, pos, key, outfit, bool(options["left_handed"][i]))
        with_talents(g, options, i)  # §36 (Campaign Game)
        out[seat] = g
        shield = f"a {sheet.shield} shield" if sheet.shield else "no shield"
        events.append(
            event(
                "gladiator",
                "§19",
                f"{seat}: {s.name} ({s.gladiator_class}), TR {sheet.tr} ST {sheet.st} AG "
                f"{sheet.ag} CN {sheet.cn} W {sheet.w}, CF {sheet.cf}, move {sheet.move}; "
                f"{' and '.join(outfit.weapons) or 'unarmed'}; {shield}",
                seat=seat,
                gladiator_class=s.gladiator_class,
                style=key,
                cf=sheet.cf,
            )
        )
    return out
