"""The weapons in a gladiator's hands in the Advanced Game (§19, §21, §24, T19): what he holds,
what a lost weapon leaves him with, what he may pick up, the pair he fights with and a thrown
weapon's values. In the Basic Game (no style) every weapon is a sword and `Gladiator.has_weapon`
is all there is: each function here then does exactly what the Basic Game did.

RULINGS (docs/rulings.md, the F series)

F5  §13.2, §13.3, §21.6, F3: a weapon that leaves his hand (dropped, thrown, broken) is replaced at
    once by the next he carries (a Velite's next javelin, a Hoplomachus's sword, a Retiarius's
    dagger); a pair loses the weapon of his second hand. As in the Basic Game (E4) his attacks
    still to come this phase are cancelled; the weapon drawn parries at once (§9.6) and strikes
    from the next phase.
F6  §13.4, I9, §24.1: he may pick up a weapon while a hand is free (a shield, the net and each
    weapon take one; he has two); a second weapon makes a pair only as §24 allows (a Dimachaeri
    any weapon neither two-handed nor a flail, anyone else one identical to his, §24.2.2,
    §24.4); a javelin goes into a Velite's stock (up to six, A17) whatever his hands hold. He
    takes up a shield only if he began the match with one (a style without a shield never
    does, F4) and a hand is free. A weapon picked up is used as T19 says, trained or not (the
    engine plays no talents, §21.1.1).
F7  §20.9.3.1, §20.9.3.2, §21.6.1.2: a broken trident "causes a dropped weapon result": it falls
    as §13.2 places it when the 1D6 shows 5-6 (the piece works at 1-hex range for whoever
    takes it up), and on 1-4 it is useless and lies nowhere; a broken javelin is useless.
"""

from __future__ import annotations

from functools import cache
from typing import Literal

from gladiator.rules.colosseum.state import Gladiator, GroundItem
from gladiator.rules.colosseum.tables.advanced_combat_tables import PairBonus
from gladiator.rules.colosseum.tables.advanced_tables import advanced_tables
from gladiator.rules.colosseum.tables.weapon_tables import Weapon

__all__ = [
    "BROKEN",
    "BROKEN_TRIDENT",
    "HANDS",
    "hands_used",
    "may_pick_up",
    "pair_bonus",
    "pick_up",
    "release",
    "thrown_values",
    "weapon",
]

BROKEN_TRIDENT = "broken_trident"  # F7: the piece of a trident that still works
BROKEN = "broken"  # F7: what is left of a weapon broken useless: it lies nowhere
HANDS = 2


@cache
def weapon(key: str) -> Weapon:
    """A T19 weapon by key; the broken trident is the trident at 1-hex reach (§20.9.3.2)."""
    t19 = advanced_tables().weapons.t19
    if key == BROKEN_TRIDENT:
        trident = t19.weapon("trident")
        return trident.model_copy(
            update={"name": "Broken trident", "reach": 1, "breaks": None, "section": "§20.9.3.2"}
        )
    return t19.weapon(key)


def _sync(g: Gladiator) -> None:
    g.has_weapon = bool(g.weapons)


def release(g: Gladiator) -> str:
    """F5: the weapon in his (second) hand leaves it; the next he carries comes to hand. Returns
    its key ('' in the Basic Game, where he simply has no weapon now)."""
    if not g.style:
        g.has_weapon = False
        return ""
    if not g.weapons:
        return ""
    kind = g.weapons[-1]
    g.weapons = g.weapons[:-1]
    if not g.weapons and g.spare:
        g.weapons, g.spare = g.spare[:1], g.spare[1:]
    _sync(g)
    return kind


def hands_used(g: Gladiator) -> int:
    """F6: a shield, the net and each weapon in hand take a hand."""
    return len(g.weapons) + int(g.has_shield) + int(g.net)


def _pairs_with(g: Gladiator, key: str) -> bool:
    """§24.2, §24.4 (A23): whether `key` may be the second weapon of a pair with his."""
    rule = advanced_tables().combat.two_weapon
    if g.has_shield or g.net or len(g.weapons) != 1:  # §24.1: a weapon in each hand, no shield
        return False
    for k in (key, g.weapons[0]):
        w = weapon(k)
        if (rule.never_paired.two_handed and w.two_handed) or k in rule.never_paired.weapons:
            return False
        if w.shield is not None:
            return False
    return g.style == rule.trained_style or key == g.weapons[0]


def _stock_room(g: Gladiator, key: str) -> bool:
    """§21.6, A17: a javelin joins his stock while it holds fewer than the most he carries."""
    w = weapon(key)
    if w.carried is None or key not in (*g.weapons, *g.spare):
        return False
    return (g.weapons + g.spare).count(key) < w.carried.max


def may_pick_up(g: Gladiator, item: GroundItem) -> bool:
    """§13.4, F6 (the Basic Game's I9 when he has no style)."""
    if item.item == "net":  # §20.8.2 (N9): a free hand, and no net already
        return not g.net and hands_used(g) < HANDS
    if not g.style:
        return not g.has_weapon if item.item == "weapon" else not g.has_shield
    if item.item == "shield":
        return not g.has_shield and g.sheet.shield is not None and hands_used(g) < HANDS
    key = item.kind or "sword"
    if _stock_room(g, key):
        return True
    if not g.weapons:
        return hands_used(g) < HANDS
    return _pairs_with(g, key)


def pick_up(g: Gladiator, item: GroundItem) -> None:
    """§13.4.1: he has it (a javelin to his stock if one is in hand, F6)."""
    if item.item == "net":
        g.net = True
        return
    if item.item == "shield":
        g.has_shield = True
        g.hook = item.kind == "hook"
        return
    if not g.style:
        g.has_weapon = True
        return
    key = item.kind or "sword"
    if g.weapons and _stock_room(g, key) and not _pairs_with(g, key):
        g.spare = (key, *g.spare)
    else:
        g.weapons = (*g.weapons, key)
    _sync(g)


def thrown_values(g: Gladiator, item: Literal["weapon", "shield"]) -> tuple[int, int] | None:
    """§13.3, T19 (A9): the Thr and CRT of what he throws: the weapon in his (second) hand, or
    the hook; None for the Basic Game's sword and shield (items.toml)."""
    if not g.style:
        return None
    if item == "weapon" and g.weapons:
        w = weapon(g.weapons[-1])
        return (w.thr, w.crt)
    if item == "shield" and g.hook:
        w = weapon("hook")
        return (w.thr, w.crt)
    return None


def pair_bonus(g: Gladiator) -> tuple[PairBonus, str] | None:
    """§24.1, §24.2: the pair he fights with (two weapons in hand, no shield) and its rule, or
    None."""
    if not g.style or len(g.weapons) != 2 or g.has_shield:
        return None
    rule = advanced_tables().combat.two_weapon
    same = g.weapons[0] == g.weapons[1]
    if g.style == rule.trained_style:
        return (rule.trained_same, "§24.2.1") if same else (rule.trained_different, "§24.2.1")
    return rule.untrained, "§24.2.2"
