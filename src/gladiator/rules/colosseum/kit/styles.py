"""The Advanced Game's fighting styles (§19, T37): which style each seat fights in, what a style
does to the log sheet (armour, shield, move rate: §19.2-§19.4) and what he carries into the arena
(§19, §21, §24), and the one-line refusal of a style or weapon choice a match cannot have.

Pure functions of the tables (`advanced_tables()`, styles.toml and weapons.toml); the log sheet
(logsheet_roll.py) applies `styled_armour` when it is made and logsheet_boxes.py checks a styled
sheet with `check_styled_sheet`; outfit.py puts the style's kit in his hands.

RULINGS (docs/rulings.md, Colosseum Advanced Game, the F series)

F1  §19, option `styles`: one entry per seat, a T37 style, "standard" (the standard style of his
    class, §19.2/§19.3/§19.4) or "random" (default). A style fixes the class (§19); an option
    `gladiators` class that disagrees is refused, "random" there accepts any style. "random"
    first settles the class as the Basic Game does (the option `gladiators`, 1D3 when that is
    random, §3.4), then rolls one die over that class's styles in chart order (`style_roll`).
    Fixed and standard seats are settled before random ones; a random seat rolls the
    Contra-Retiarius only against a Retiarius already settled (§19.2.3), and a chosen
    Contra-Retiarius is refused unless the other seat is a chosen Retiarius.
F2  §19, §21.1.1, §21.3.1, §19.3.4, option `weapons`: one list per seat, empty for the chart's
    weapons (T37). Only three kinds of style choose: the Dimachaeri any pair that §24.4 allows
    (not two-handed, not the flail); the Retiarius the trident with or without a dagger (the
    net is always his, §20); a style the chart arms with the sword one T19 weapon instead (the
    WS talent, §21.1.1, taken as granted by the choice; not the hook, a shield, nor the
    Retiarius's trident). Every other style's weapons are fixed by the chart. A sword style
    that takes a two-handed weapon leaves his rolled shield behind (§21.8.2, §21.9.1, §21.10.1:
    "the gladiator may not use a shield"); the Contra-Retiarius, whose hook is his style, may not
    take one.
F3  §19, T37: the first weapon the chart (or the option) names is in his hand, the others carried
    for later; both of a Dimachaeri's are in his hands. A Velite carries six javelins (A17), one
    in hand. So a Hoplomachus fights with the spear (half CF with his small shield, §21.10.1)
    and draws the sword once the spear is gone; a Retiarius's dagger (§21.3.1) is drawn once the
    trident is.
F4  §19.2.1, §19.3.1, §19.3.2, §19.4.4, A19: the style's armour is applied to the armour roll: a
    Velite rolls none and wears none; a Retiarius's head armour is struck off; a Provocator's
    chest is A whatever he rolled; a Crupellarius rolls twice (1D6 each) and keeps per area
    the armour with the larger expected reduction (T8 DRM × coverage/6), the first roll's on a
    tie. The shield: "any" is the rolled one (small against a Retiarius, §3.10.2), "small" and
    "hook" (which works as a small shield, §21.5) a small one, "none" none.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal, Protocol

from gladiator.rules.colosseum.tables.advanced_tables import advanced_tables
from gladiator.rules.colosseum.tables.sheet_tables import Armour, ArmourRow
from gladiator.rules.colosseum.tables.style_tables import Style
from gladiator.rules.colosseum.tables.tables import tables
from gladiator.rules.colosseum.tables.weapon_tables import Weapon
from gladiator.rules.colosseum.vocabulary import AREAS, GladiatorClass

__all__ = [
    "CLASS_ROLL",
    "NO_ARMOUR",
    "Kit",
    "armour_value",
    "check_choices",
    "check_styled_sheet",
    "choose_styles",
    "kit",
    "never_paired",
    "parse_weapons",
    "rolls_needed",
    "standard_style",
    "style",
    "style_keys",
    "style_roll",
    "styled_armour",
    "weapons_problem",
]

Shield = Literal["large", "small"]
_CLASSES: tuple[GladiatorClass, ...] = ("light", "medium", "heavy")
CLASS_ROLL = ("1D3", "§3.4")  # the Basic Game's random class
NO_ARMOUR = Armour.model_validate("-")


class _Dice(Protocol):
    def d(self, sides: int, purpose: str, rule: str) -> int: ...

    def roll(self, notation: str, purpose: str, rule: str) -> int: ...


@cache
def style_keys() -> tuple[str, ...]:
    """The Gladiator chart's styles, in its order (T37); the beast fighters are §28's."""
    return tuple(advanced_tables().styles.t37.styles)


def style(key: str) -> Style:
    """A T37 style (or a §28.2 beast fighter) by its key."""
    return advanced_tables().styles.style(key)


def _weapon(key: str) -> Weapon:
    return advanced_tables().weapons.t19.weapon(key)


def standard_style(cls: GladiatorClass) -> str:
    """The standard style of a class: Myrmillo, Secutor, Gallus (§19.2, §19.3, §19.4)."""
    t37 = advanced_tables().styles.t37.styles
    return next(k for k, s in t37.items() if s.standard and s.gladiator_class == cls)


# --- choosing the styles (§19, F1) ---------------------------------------------------------------


def check_choices(
    classes: Sequence[str],
    styles: Sequence[str],
    weapons: Sequence[Sequence[str]],
    *,
    pairings: bool = True,
) -> None:
    """F1, F2: refuse, in one line naming the rule, a choice of styles and weapons that cannot
    be played. Entries are by seat (red, blue). `pairings` off (a team match, G1): a style that
    fights only certain styles is not held to them, as in a Battle (§30.2.1.1)."""
    for i, (cls, key) in enumerate(zip(classes, styles, strict=True)):
        if key in ("standard", "random"):
            continue
        s = style(key)
        if cls != "random" and s.gladiator_class != cls:
            raise ValueError(
                f"styles[{i}]: a {s.name} is a {s.gladiator_class} gladiator, but gladiators[{i}] "
                f"is {cls} (§19)"
            )
        other = styles[1 - i]
        if pairings and s.opponents and other not in s.opponents:
            names = " or ".join(style(o).name for o in s.opponents)
            raise ValueError(
                f"styles[{i}]: a {s.name} fights only a {names} ({s.section}); give the other "
                f"seat {' or '.join(s.opponents)}"
            )
    for i, chosen in enumerate(weapons):
        if not chosen:
            continue
        key = styles[i]
        if key == "standard":  # every standard style is armed with the sword (T37)
            cls = classes[i]
            key = (
                standard_style(next(c for c in _CLASSES if c == cls))
                if cls in _CLASSES
                else (standard_style("light"))
            )
        _check_weapons(i, key, tuple(chosen))


def weapons_problem(key: str, chosen: tuple[str, ...]) -> str:
    """F2: why a T37 style may not carry these weapons (the refusal's line), or ''."""
    try:
        _check_weapons(0, key, chosen)
    except ValueError as exc:
        return str(exc)
    return ""


def _check_weapons(i: int, key: str, chosen: tuple[str, ...]) -> None:
    where = f"weapons[{i}]"
    if key == "random":
        raise ValueError(f"{where}: choose a style (styles[{i}]) to choose his weapons (§19)")
    s = style(key)
    for w in chosen:
        if w not in advanced_tables().weapons.t19.weapons:
            raise ValueError(f"{where}: {w!r} is not a T19 weapon (§21)")
    if s.any_pair:  # §19.3.4, §24.4 (A23)
        if len(chosen) != 2:
            raise ValueError(
                f"{where}: a {s.name} fights with two weapons, not {len(chosen)} (§24)"
            )
        for w in chosen:
            why = never_paired(w)
            if why:
                raise ValueError(f"{where}: a {s.name} cannot pair a {w}: {why} (§24.4)")
        return
    if "net" in s.weapons:  # §19.3.2, §21.3.1
        if chosen not in (("trident",), ("trident", *s.optional_weapons)):
            extra = " or ".join(s.optional_weapons)
            raise ValueError(
                f"{where}: a {s.name} carries the trident, and may add a {extra} (§19.3.2, §21.3.1)"
            )
        return
    if s.weapons != ("sword",):
        raise ValueError(
            f"{where}: a {s.name}'s weapons are fixed by his style ({' and '.join(s.weapons)}, "
            "T37); only the Dimachaeri, the Retiarius and the sword-armed styles choose (§19)"
        )
    if len(chosen) != 1:
        raise ValueError(f"{where}: a {s.name} takes one weapon in place of his sword (§21.1.1)")
    arm = _weapon(chosen[0])
    if arm.shield is not None or (arm.users and key not in arm.users):
        users = " and ".join(style(u).name for u in arm.users) or "nobody"
        why = "it is a shield (§21.5)" if arm.shield else f"only the {users} uses it"
        raise ValueError(f"{where}: a {s.name} cannot take the {arm.name.lower()}: {why}")
    if arm.two_handed and s.shield == "hook":
        raise ValueError(
            f"{where}: a {s.name} fights with his hook ({s.section}); a two-handed "
            f"{arm.name.lower()} would leave it (§21.8.2, §21.9.1, §21.10.1)"
        )


def parse_weapons(text: str) -> tuple[str, ...]:
    """The option `weapons`' entry for one seat: T19 names separated by commas ("sword, Axe"),
    lower-cased; "" is the chart's weapons (F2)."""
    return tuple(w.strip().lower() for w in text.split(",") if w.strip())


def never_paired(key: str) -> str:
    """§24.4 (A23): why this weapon cannot be one of a pair, or ''."""
    rule = advanced_tables().combat.two_weapon.never_paired
    w = _weapon(key)
    if rule.two_handed and w.two_handed:
        return "two-handed weapons cannot be used in a pair"
    if key in rule.weapons:
        return f"the {w.name.lower()} cannot be used in a pair"
    if w.shield is not None:
        return f"the {w.name.lower()} is a shield (§21.5)"
    return ""


def style_roll(cls: GladiatorClass, against: str | None) -> tuple[str, ...]:
    """F1: the styles a random roll for this class chooses among, in chart order (the
    Contra-Retiarius only against a Retiarius, §19.2.3)."""
    return tuple(
        k
        for k, s in advanced_tables().styles.t37.styles.items()
        if s.gladiator_class == cls and (not s.opponents or against in s.opponents)
    )


def choose_styles(
    seats: Sequence[str], classes: Sequence[str], styles: Sequence[str], dice: _Dice
) -> list[str]:
    """F1, §19, §3.4: each seat's style key, rolling what is random (fixed seats first)."""
    chosen: list[str | None] = [None] * len(seats)
    order = sorted(range(len(seats)), key=lambda i: styles[i] == "random")
    for i in order:
        want, cls = styles[i], classes[i]
        if want not in ("standard", "random"):
            chosen[i] = want
            continue
        if cls == "random":
            notation, rule = CLASS_ROLL
            n = dice.roll(notation, f"{seats[i]}'s class (1 light, 2 medium, 3 heavy)", rule)
            cls = _CLASSES[n - 1]
        klass: GladiatorClass = next(c for c in _CLASSES if c == cls)
        if want == "standard":
            chosen[i] = standard_style(klass)
            continue
        others = [c for j, c in enumerate(chosen) if j != i and c is not None]
        pool = style_roll(klass, others[0] if others else None)
        names = ", ".join(f"{n} {style(k).name}" for n, k in enumerate(pool, 1))
        roll = dice.d(len(pool), f"{seats[i]}'s {klass} style ({names})", "§19.1")
        chosen[i] = pool[roll - 1]
    return [c for c in chosen if c is not None]


# --- the style on the log sheet (§19, F4) -------------------------------------------------------


def armour_value(armour: Armour) -> float:
    """A19: the expected reduction of a wound roll by this armour (−T8 DRM × coverage/6)."""
    if armour.letter is None:
        return 0.0
    drm: int = getattr(tables().wounds.t8.drm, armour.letter)
    share = 1.0 if armour.coverage is None else armour.coverage / 6
    return -drm * share


def rolls_needed(key: str) -> int:
    """How many armour rolls (1D6, §3.10) the style makes: 0, 1 or 2 (§19.2.1, §19.4.4)."""
    return {"none": 0, "rolled": 1, "rolled_twice": 2}[style(key).armour]


def styled_armour(
    key: str,
    rows: Sequence[ArmourRow],
    *,
    opponent_is_retiarius: bool = False,
    shield: bool = True,
) -> tuple[tuple[Armour, ...], Shield | None]:
    """F4: the armour per area (1-5) and the shield of a style from its armour rows (one per
    roll); `shield` False: he leaves it behind (F2)."""
    s = style(key)
    if len(rows) != rolls_needed(key):
        raise ValueError(f"a {s.name} makes {rolls_needed(key)} armour rolls, not {len(rows)}")
    if not rows:
        armour = [NO_ARMOUR] * len(AREAS)
    else:
        armour = [rows[0].area(a) for a in AREAS]
        for row in rows[1:]:  # §19.4.4, A19: the better of the two, per area
            for n, a in enumerate(AREAS):
                if armour_value(row.area(a)) > armour_value(armour[n]):
                    armour[n] = row.area(a)
    if not s.helmet:  # §19.3.2
        armour[0] = NO_ARMOUR
    for area, fixed in s.fixed_armour.items():  # §19.3.1
        armour[AREAS.index(area)] = fixed
    carried: Shield | None
    if s.shield == "none" or not shield:  # §19.3.2, §19.3.4, §19.4.3: never a shield
        carried = None
    elif s.shield == "any":
        carried = "small" if opponent_is_retiarius or not rows else rows[0].shield  # §3.10.2
    else:  # §19.2.2, §19.4.1 "always a small shield"; the hook works as one (§19.2.3, §21.5)
        carried = "small" if s.shield == "hook" else s.shield
    return tuple(armour), carried


def check_styled_sheet(
    key: str,
    gladiator_class: GladiatorClass,
    armour: Sequence[Armour],
    shield: Shield | None,
    rolls: Sequence[int | None],
    *,
    opponent_is_retiarius: bool,
) -> None:
    """F4: a styled log sheet's class, armour and shield agree with its style and rolls; a
    one-line ValueError otherwise."""
    try:
        s = style(key)
    except ValueError:
        raise ValueError(f"style {key!r} is not on the Gladiator chart (T37, §19)") from None
    if s.gladiator_class != gladiator_class:
        raise ValueError(f"a {s.name} is a {s.gladiator_class} gladiator, not {gladiator_class}")
    needed = rolls_needed(key)
    given = [r for r in rolls if r is not None]
    table = tables().armour.table(gladiator_class)
    if len(given) == needed:
        want, want_shield = styled_armour(
            key, [table.row(r) for r in given], opponent_is_retiarius=opponent_is_retiarius
        )
        for area, got, ok in zip(AREAS, armour, want, strict=True):
            if got != ok:
                raise ValueError(
                    f"armour {area} {got} is not a {s.name}'s {ok} for rolls "
                    f"{', '.join(map(str, given)) or 'none'} ({s.section})"
                )
        if shield not in (want_shield, None):
            raise ValueError(f"shield {shield} is not a {s.name}'s {want_shield} ({s.section})")
    elif given:
        raise ValueError(f"a {s.name} makes {needed} armour roll(s), not {len(given)} (§19)")
    if s.armour == "none" and any(a != NO_ARMOUR for a in armour):
        raise ValueError(f"a {s.name} wears no armour ({s.section})")
    if not s.helmet and armour[0] != NO_ARMOUR:
        raise ValueError(f"a {s.name} has no helmet ({s.section})")
    for area, fixed in s.fixed_armour.items():
        if armour[AREAS.index(area)] != fixed:
            raise ValueError(f"a {s.name}'s {area} armour is {fixed} ({s.section})")
    if s.shield == "none" and shield is not None:
        raise ValueError(f"a {s.name} carries no shield ({s.section})")
    if s.shield in ("small", "hook") and shield not in ("small", None):
        raise ValueError(f"a {s.name} carries a small shield ({s.section})")


# --- what he carries (F2, F3) -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Kit:
    """What a style carries into the arena: the weapons in his hands, those carried for later,
    the net (§20) and his shield (none, the rolled/style one, the hook)."""

    weapons: tuple[str, ...]
    spare: tuple[str, ...]
    net: bool
    shield: bool
    hook: bool


def kit(key: str, chosen: Sequence[str] = ()) -> Kit:
    """F2, F3: his kit from his style and the option `weapons` (checked by `check_choices`): the
    chart's weapons, such as the Thracian's scimitar (§19.2.2), the Hoplomachus's spear and
    gladius (§19.4.1) and the Cataphractarius's pike (§19.4.3)."""
    s = style(key)
    listed = tuple(w for w in s.weapons if w != "net")
    carried = tuple(chosen) or listed
    hands: tuple[str, ...]
    spare: tuple[str, ...]
    if s.any_pair:
        hands, spare = carried, ()
    else:
        hands, spare = carried[:1], carried[1:]
    first = _weapon(hands[0])
    if first.carried is not None:  # §21.6, A17: the javelins beyond the one in hand
        spare = (*((hands[0],) * (first.carried.default - 1)), *spare)
    two_handed_choice = bool(chosen) and not s.any_pair and first.two_handed
    return Kit(
        weapons=hands,
        spare=spare,
        net="net" in s.weapons,
        shield=s.shield != "none" and not (two_handed_choice and s.shield == "any"),
        hook=s.shield == "hook",
    )
