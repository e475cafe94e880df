"""How his weapons fight this phase (§9.1, §9.4.5, §20.9, §21, §23, §24): who he may attack from
where, each attack's weapon with its Spd and halvings, the two-weapon CF bonus, a P*'s break
check, and what a blow does beyond the Basic Game's (a `Blow` for hits.strike). With no style
(the Basic Game) he fights with the sword in his 1-hex front, as before.

RULINGS (docs/rulings.md, the F series)

F8  §6.2, §9.1, §20.9.1, §21.7-§21.9, T40: his combat front is the largest front of the weapons in
    his hands (1-hex for Rch 1, the 2-hex front for Rch 2, the 15-hex front for the pike; the
    broken trident 1-hex). He may attack an opponent in it at a range (hex distance) that some
    weapon in hand reaches, and no nearer than its minimum (the pike not at range 1, §21.9).
    Forced rotation (§9.1.2) asks whether the attacker stands in the *defender's* combat front,
    which his own weapons set the same way: a pikeman need not turn to a swordsman beside him,
    though he cannot strike him (§21.9 EXAMPLE: "may defend as normal"), and a swordsman struck
    by a spear from two hexes ahead keeps his facing but gets no PA. Unarmed (§23.1): an
    adjacent opponent in his 1-hex front.
F9  §24, Q44: a pair's attacks take its weapons in turn (his first attack the first weapon, the
    second the second, and so on), among those that reach the opponent's range, each at its own
    Spd (A15). The pair's CF bonus (§24.2.1, §24.2.2) is added to his CFs available in every
    combat phase in which he holds the pair, and a trained identical pair's −1 Spd to every
    attack. Both are fixed for the phase when the attacks are revealed (§9.4.6: the sequence is
    not recalculated), even if he loses one of the pair during it.
F10 §20.9.2, §21.3, §21.6, §21.7, §21.8.2, §21.9.1, §21.10.1, §23.2: the halvings of an attack
    (rounded down; an attack halved to 0 is none, E3): the dagger's and the javelin's always,
    the scimitar's at range 2, a two-handed weapon's held one-handed (with a shield in the
    other hand, or the trident with the net: one halving even with both), and an unarmed
    attack's. They multiply with §14.3's and §13.4.2's (Q26).
F11 §24.3, option `two_weapon_results`: "When fighting two-handed, S/S* become P and P* becomes
    H." Read as his *defence* ("defence", default): a man with no shield takes exactly these
    conversions by §9.6 already, and the engine gives him those. "attack": the results of his
    attacks are shifted so before the defender's kit converts them (as the flail's, F12).
F12 §21.4, Q41: the flail shifts the CRT result read (two steps up T6's ladder, P* to H) before
    the defender's kit converts it (§9.6): against a shield an S is a P (a weapon-drop roll and
    no shield damage), an S* a P*; against a man with no weapon that P is then an H.
F13 §21.8, §21.8.1, §21.2, §21.9: the maul's +3 ST is his ST in his own attacks (the shield
    damage roll §12.2, the weapon and shield drop rolls §13.1.1, a defender's break check) and
    not in collisions; any H struck with it (the CRT's, not a shield box's) also makes the
    defender roll 2D6 on T7's Stun row after the wound roll, with that column's extra. The
    axe's +2 is on every wound roll its blow causes, a shield box's H included; the pike's +6
    on the shield damage roll.
F14 A10, §9.6: a P* against a man whose weapon in hand can break (javelin, trident) is checked
    for the break first (2D6 + the attacker's ST, the maul's included); a weapon that breaks is
    not also rolled for a drop. A non-Dimachaeri's pair adds −2 to his weapon drop rolls
    (§24.2.2).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from gladiator.core.hexgrid import distance
from gladiator.rules.colosseum.arena.combat_geometry import FrontRegion, in_front
from gladiator.rules.colosseum.kit.weapons import BROKEN, BROKEN_TRIDENT, pair_bonus, weapon
from gladiator.rules.colosseum.state import Gladiator
from gladiator.rules.colosseum.tables.advanced_tables import advanced_tables
from gladiator.rules.colosseum.tables.tables import tables

__all__ = [
    "Blow",
    "Stroke",
    "break_check",
    "cf_bonus",
    "drop_drm",
    "front_region",
    "reaches",
    "strokes",
]

_REGIONS: dict[int, FrontRegion] = {1: "one_hex", 2: "two_hex", 3: "three_hex"}


@dataclass(frozen=True, slots=True)
class Blow:
    """What one attack's weapon adds to what a result does (F13); unarmed: §23 instead."""

    weapon: str | None  # a T19 key; None: unarmed (§23)
    wound_drm: int = 0  # §21.2
    st_bonus: int = 0  # §21.8
    hit_stun: str | None = None  # §21.8.1
    shield_damage_drm: int = 0  # §21.9


@dataclass(frozen=True, slots=True)
class Stroke:
    """One of his attacks this phase: its weapon, Spd, halvings and the shift of its results."""

    blow: Blow
    speed: int
    halvings: tuple[tuple[str, str], ...] = ()  # (rule, why)
    changes: tuple[str, Mapping[str, str]] | None = None  # (rule, CRT code -> code)


def front_region(g: Gladiator) -> FrontRegion:
    """F8: the combat front his weapons give him (the 1-hex front unarmed or in the Basic
    Game)."""
    if not g.style or not g.weapons:
        return "one_hex"
    return _REGIONS[min(max(weapon(w).reach for w in g.weapons), 3)]


def _reaching(g: Gladiator, o: Gladiator) -> tuple[str, ...]:
    """The weapons in his hands that reach o from where they stand (F8)."""
    rng = distance(g.hex, o.hex)
    out = []
    for key in g.weapons:
        w = weapon(key)
        region = _REGIONS[min(w.reach, 3)]
        if in_front(g.pose, o.pose, region=region) and rng >= (w.min_range or 1):
            out.append(key)
    return tuple(out)


def reaches(g: Gladiator, o: Gladiator) -> bool:
    """§9.1, F8, §23.1: whether his weapons (or, unarmed, his fists) reach o now."""
    if not g.style:
        return g.has_weapon and in_front(g.pose, o.pose)
    if g.weapons:
        return bool(_reaching(g, o))
    return distance(g.hex, o.hex) == 1 and in_front(g.pose, o.pose)


def cf_bonus(g: Gladiator) -> tuple[int, str]:
    """§24.2.1, §24.2.2 (F9): the CF bonus of the pair he holds, and its rule."""
    pair = pair_bonus(g)
    if pair is None or not pair[0].cf:
        return 0, ""
    return pair[0].cf, pair[1]


def drop_drm(d: Gladiator) -> int:
    """§24.2.2 (F14): a non-Dimachaeri's pair makes his weapon drop rolls worse."""
    pair = pair_bonus(d)
    return pair[0].weapon_drop_drm if pair is not None else 0


def _conversion(name: str) -> Mapping[str, str]:
    return {str(k): str(v) for k, v in tables().results.t6.conversions[name].changes.items()}


def strokes(g: Gladiator, o: Gladiator, n: int, options: Mapping[str, Any]) -> tuple[Stroke, ...]:
    """F9, F10, F11, F12: his n attacks this phase against o, in the order he makes them."""
    if not g.weapons:  # §23.2
        u = advanced_tables().combat.unarmed
        trained = "SU" in g.talents  # §36.3 SU (TL5): full CF, no +1 Spd
        halving = (("§23.2", "unarmed"),) if u.half_cf and not trained else ()
        return tuple(Stroke(Blow(None), 0 if trained else u.spd, halving) for _ in range(n))
    ws = _reaching(g, o) or g.weapons
    pair = pair_bonus(g)
    pair_spd = pair[0].spd if pair is not None else 0
    rng = distance(g.hex, o.hex)
    out: list[Stroke] = []
    for k in range(n):
        key = ws[k % len(ws)]
        w = weapon(key)
        name = w.name.lower()
        halvings: list[tuple[str, str]] = []
        if "always" in w.half_cf:
            halvings.append((w.section, f"the {name}"))
        if "at_range_2" in w.half_cf and rng == 2:
            halvings.append((w.section, f"the {name} at range 2"))
        if "with_net" in w.half_cf and g.net:
            halvings.append(("§20.9.2", f"the {name} one-handed, with the net"))
        elif "with_shield" in w.half_cf and g.has_shield:
            halvings.append((w.section, f"the {name} one-handed, with a shield"))
        changes = None
        if w.conversion is not None:
            changes = (w.section, _conversion(w.conversion))
        elif pair is not None and options.get("two_weapon_results") == "attack":
            changes = ("§24.3", _conversion(advanced_tables().combat.two_weapon.conversion))
        blow = Blow(
            key,
            wound_drm=w.wound_drm,
            st_bonus=w.st_bonus,
            hit_stun=w.hit_stun,
            shield_damage_drm=w.shield_damage_drm,
        )
        # T19's Spd: +1 the axe, flail, scimitar and pike (§21.2, §21.4, §21.7, §21.9.2), +2 the
        # maul (§21.8.3), -1 the dagger and javelin (§21.3, §21.6); a pair's on top (§24.2.1).
        out.append(Stroke(blow, w.spd + pair_spd, tuple(halvings), changes))
    return tuple(out)


class _Dice(Protocol):
    def roll(self, notation: str, purpose: str, rule: str) -> int: ...


def break_check(
    d: Gladiator, attacker_st: int, dice: _Dice, events: list[dict[str, Any]]
) -> tuple[str, bool] | None:
    """§20.9.3, §21.6.1 (A10, F7, F14): after a P* against d, does the weapon in his hand break?
    None if it holds (or cannot break); else (what is left: BROKEN or BROKEN_TRIDENT, whether it
    falls as a dropped weapon)."""
    if not d.style or not d.weapons:
        return None
    key = d.weapons[-1]
    w = weapon(key)
    if w.breaks is None:
        return None
    b = w.breaks
    roll = dice.roll(b.dice, f"{d.seat}'s {w.name.lower()} break check", w.section)
    total = roll + attacker_st
    broke = total > b.above  # the trident's above 11 (§20.9.3.1), the javelin's above 5 (§21.6.1.1)
    text = (
        f"{d.seat}'s {w.name.lower()} parried a P*: {b.dice} {roll} + attacker ST {attacker_st} "
        f"= {total}" + (f" > {b.above}: it breaks" if broke else f", not above {b.above}: it holds")
    )
    events.append({"type": "break_check", "rule": w.section, "text": f"{text} ({w.section})"})
    if not broke:
        return None
    if b.fragment_dice is None:
        return BROKEN, False
    face = dice.roll(b.fragment_dice, f"{d.seat}'s broken {w.name.lower()}: usable?", "§20.9.3.2")
    usable = face in b.fragment_usable_on
    events.append(
        {
            "type": "broken_piece",
            "rule": "§20.9.3.2",
            "text": f"1D6 {face}: the broken {w.name.lower()} "
            + ("still works at 1-hex range" if usable else "is useless")
            + " (§20.9.3.2)",
        }
    )
    return (BROKEN_TRIDENT, b.dropped) if usable else (BROKEN, False)
