"""Each seat's figure (§4.3, §19, §28.3), in table order: a Basic Game gladiator of his class
(§3), an Advanced Game gladiator of his style with his kit in hand (§19, F1-F5), or a beast on
its T21 stand-in sheet (§28.3, B1)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from gladiator.core.dice import Dice
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.arena.positions import Position, hex_text
from gladiator.rules.colosseum.beasts.beast_record import Beast
from gladiator.rules.colosseum.beasts.beasts import beast_sheet, counter_hexes, random_kind
from gladiator.rules.colosseum.campaign.campaign_entrants import seat_sheet
from gladiator.rules.colosseum.events import event
from gladiator.rules.colosseum.kit.styles import choose_styles, kit, parse_weapons, style
from gladiator.rules.colosseum.setup.outfit import kitted_gladiator
from gladiator.rules.colosseum.setup.roster import Roster
from gladiator.rules.colosseum.setup.talent_setup import with_talents
from gladiator.rules.colosseum.sheet.logsheet_roll import roll_log_sheet
from gladiator.rules.colosseum.state import Gladiator
from gladiator.rules.colosseum.tables.advanced_tables import advanced_tables
from gladiator.rules.colosseum.vocabulary import GladiatorClass

__all__ = ["counter_number", "figures"]

CLASSES: tuple[GladiatorClass, ...] = ("light", "medium", "heavy")  # §3.4's 1D3


def counter_number(cls: str, taken: Mapping[str, Gladiator]) -> int:
    """§2.3.1, §3.2: the log sheet's ID is the counter's number, and counters 1-4 are light,
    5-8 medium, 9-12 heavy: the first of his class's counters not yet in the arena."""
    first = {"light": 1, "medium": 5, "heavy": 9}[cls]
    used = {g.sheet.id for g in taken.values()}
    # G16: a big team match (§30.2.1.1) may field more than four of a class; the extras get
    # the numbers after the box's twelve counters.
    spare = next(n for n in range(13, 13 + len(taken) + 1) if n not in used)
    return next((n for n in range(first, first + 4) if n not in used), spare)


def figures(
    options: Mapping[str, Any],
    roster: Roster,
    starts: Mapping[str, Position],
    dice: Dice,
    events: list[Event],
) -> dict[str, Gladiator]:
    """Every seat's figure in table order. The styles are settled together when the first
    gladiator's turn comes (F1 rolls the random ones after the fixed), so the dice fall in the
    order of the seats' sheets."""
    out: dict[str, Gladiator] = {}
    keys: dict[str, str] = {}
    for i, seat in enumerate(roster.seats):
        kind = roster.beast_kind(seat)
        if kind is not None:
            out[seat] = _beast(seat, kind, starts[seat], dice, events)
        elif not options.get("advanced"):
            out[seat] = _basic(options, i, seat, starts[seat], dice, out, events)
        else:
            keys = keys or _styles(options, roster, dice)
            if options.get("mirror"):  # DM1: a twin has his twin's style, who faces it too
                keys.update(zip(roster.sides[1], (keys[t] for t in roster.sides[0]), strict=False))
            against = [keys[s] for s in roster.opponents(seat) if s in keys]
            key = keys[seat]
            out[seat] = _styled(options, i, seat, key, against, starts[seat], dice, out, events)
    if options.get("mirror"):
        _twins(out, roster, starts, events)
    return out


def _twins(
    out: dict[str, Gladiator],
    roster: Roster,
    starts: Mapping[str, Position],
    events: list[Event],
) -> None:
    """DM1: each man of the second side becomes the twin of the first side's man in the same
    place in his line (class or style, sheet, kit, talents), at his own place and counter."""
    first, second = roster.sides[0], roster.sides[1]
    for seat, twin in zip(second, first, strict=False):
        model = out[twin]
        taken = {s: g for s, g in out.items() if s != seat}
        cls = model.sheet.gladiator_class
        sheet = model.sheet.model_copy(update={"id": counter_number(cls, taken), "name": seat})
        pos = starts[seat]
        out[seat] = replace(
            model,
            seat=seat,
            sheet=sheet,
            hex=pos.hex,
            facing=pos.facing,
            left_handed=out[seat].left_handed,
        )
        events.append(
            event(
                "gladiator",
                "§4.3",
                f"{seat} is {twin}'s twin: the same sheet and kit (DM1)",
                seat=seat,
                twin=twin,
            )
        )


def _styles(options: Mapping[str, Any], roster: Roster, dice: Dice) -> dict[str, str]:
    """F1, §19: each gladiator's style; against beasts B1's roll over the beast fighters."""
    index = {s: i for i, s in enumerate(roster.seats)}
    men = [s for s in roster.seats if roster.beast_kind(s) is None]
    classes = [options["gladiators"][index[s]] for s in men]
    wants = [options["styles"][index[s]] for s in men]
    if roster.beasts:
        return {
            s: _fighter_style(s, c, w, dice) for s, c, w in zip(men, classes, wants, strict=True)
        }
    return dict(zip(men, choose_styles(men, classes, wants, dice), strict=True))


def _fighter_style(seat: str, cls: str, want: str, dice: Dice) -> str:
    """B1: "random" rolls 1D2 over the §28.2 beast fighters; anything else as §19 (F1)."""
    if want != "random":
        return choose_styles([seat], [cls], [want], dice)[0]
    pool = tuple(advanced_tables().styles.beast_fighters.styles)
    names = ", ".join(f"{n} {style(k).name}" for n, k in enumerate(pool, 1))
    return pool[dice.d(len(pool), f"{seat}'s beast fighter style ({names})", "§28.2") - 1]


def _basic(
    options: Mapping[str, Any],
    i: int,
    seat: str,
    pos: Position,
    dice: Dice,
    taken: Mapping[str, Gladiator],
    events: list[Event],
) -> Gladiator:
    """§3, §4.3: the Basic Game's gladiator of the class chosen or rolled (§3.4)."""
    choice = options["gladiators"][i]
    if choice == "random":
        n = dice.roll("1D3", f"{seat}'s class (1 light, 2 medium, 3 heavy)", "§3.4")
        cls = CLASSES[n - 1]
    else:
        cls = choice
    sheet = roll_log_sheet(dice, cls, id=counter_number(cls, taken), name=seat)
    g = Gladiator(seat, sheet, pos.hex, pos.facing, left_handed=bool(options["left_handed"][i]))
    events.append(
        event(
            "gladiator",
            "§4.3",
            f"{seat}: {cls} gladiator, TR {sheet.tr} ST {sheet.st} AG {sheet.ag} "
            f"CN {sheet.cn} W {sheet.w}, CF {sheet.cf}, move {sheet.move}, "
            f"{sheet.shield} shield",
            seat=seat,
            gladiator_class=cls,
            cf=sheet.cf,
        )
    )
    return g


def _styled(
    options: Mapping[str, Any],
    i: int,
    seat: str,
    key: str,
    against: list[str],
    pos: Position,
    dice: Dice,
    taken: Mapping[str, Gladiator],
    events: list[Event],
) -> Gladiator:
    """§19, F2-F4: his sheet rolled for his style (or a campaign entrant's, X1) and his kit."""
    s = style(key)
    outfit = kit(key, parse_weapons(options["weapons"][i]))
    sheet = seat_sheet(
        options,
        i,
        events,
        dice,
        s.gladiator_class,
        id=counter_number(s.gladiator_class, taken),
        name=seat,
        opponent_is_retiarius="retiarius" in against,  # §3.10.2
        style=key,
        shield=outfit.shield,
    )
    g = kitted_gladiator(seat, sheet, pos, key, outfit, bool(options["left_handed"][i]))
    with_talents(g, options, i)  # §36 (Campaign Game)
    arms = " and ".join(outfit.weapons) or "unarmed"
    carried = Counter(outfit.spare)
    extra = ", carrying " + ", ".join(f"{n} more {k}s" if n > 1 else k for k, n in carried.items())
    shield = "a hook" if g.hook else f"a {sheet.shield} shield" if sheet.shield else "no shield"
    events.append(
        event(
            "gladiator",
            "§19",
            f"{seat}: {s.name} ({s.gladiator_class}), TR {sheet.tr} ST {sheet.st} AG "
            f"{sheet.ag} CN {sheet.cn} W {sheet.w}, CF {sheet.cf}, move {sheet.move}; "
            f"{'net and ' if outfit.net else ''}{arms}{extra if carried else ''}; {shield}",
            seat=seat,
            gladiator_class=s.gladiator_class,
            style=key,
            cf=sheet.cf,
        )
    )
    return g


def _beast(seat: str, kind: str, pos: Position, dice: Dice, events: list[Event]) -> Gladiator:
    """§28.3, B1, B2: the beast (P3 rolls a "random" one) on its T21 sheet, its head on the
    seat's starting hex."""
    if kind == "random":
        kind = random_kind(seat, dice)
    b = Gladiator(
        seat,
        beast_sheet(kind, seat),
        pos.hex,
        pos.facing,
        has_weapon=False,
        has_shield=False,
        beast=Beast(kind),
    )
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
    return b
