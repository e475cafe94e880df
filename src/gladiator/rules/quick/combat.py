"""Swordplay (§7–§9) and the net (§10) of the quick rules.

The resolvers append their events to `events`; given None (a quiet apply) they build none, and
play and throw exactly the same.
"""

from __future__ import annotations

from gladiator.core import hexgrid as hg
from gladiator.core.dice import Dice
from gladiator.core.hexgrid import Relation
from gladiator.core.protocol import Event
from gladiator.rules.quick.fate import begin_fate
from gladiator.rules.quick.state import Fighter, QuickState
from gladiator.rules.quick.tables import tables

__all__ = ["cast_net", "side_struck", "strike", "strike_modifier"]


def has_net(f: Fighter) -> bool:
    """Whether his off hand is a net (the Retiarius) rather than a shield."""
    return tables().kit(f.cls).off_hand == "net"


def side_struck(defender: Fighter, attacker: Fighter) -> str:
    """Which of the defender's hexsides the attack comes through, as it counts for §8.

    §2.3: right-front is the sword side, left-front the shield (or net) side, the other three the
    back. §10.4: the net side counts like the sword side. §9.2.3 and §9.6.2: a side whose shield,
    net or weapon is lost counts as the rear.
    """
    rel = hg.relation_of(defender.hex, defender.facing, attacker.hex)
    if rel is Relation.FRONT:
        return "front"
    if rel is Relation.RIGHT_FRONT:
        return "sword" if defender.has_weapon else "back"
    if rel is Relation.LEFT_FRONT:
        if not defender.has_off_hand and not defender.net_cast:
            return "back"
        return "sword" if has_net(defender) else "shield"
    return "back"


def strike_modifier(attacker: Fighter, defender: Fighter) -> tuple[int, list[str]]:
    """The §8 modifiers (and §9.6.1's knuckle sandwich) with the reasons, for the event text."""
    m = tables().side_modifiers
    side = side_struck(defender, attacker)
    value = {"front": m.front, "shield": m.shield, "sword": m.sword, "back": m.back}[side]
    parts = [f"{side} side {value:+d}"] if value else []
    if defender.ensnared:  # §8.2
        value += m.ensnared
        parts.append(f"ensnared {m.ensnared:+d}")
    if not attacker.has_weapon:  # §9.6.1
        value += m.knuckle_sandwich
        parts.append(f"knuckle sandwich {m.knuckle_sandwich:+d}")
    return value, parts


def strike(
    state: QuickState,
    attacker: Fighter,
    defender: Fighter,
    dice: Dice,
    events: list[Event] | None,
) -> None:
    """§7: both roll 1D6; a double is a special event, otherwise modified difference, save, loss."""
    a = dice.d(6, f"{attacker.seat}'s strike", "quick §7.1")
    d = dice.d(6, f"{defender.seat}'s defence", "quick §7.1")
    head = f"{attacker.seat} strikes {defender.seat}: {a} vs {d}"
    if a == d:  # §7.2
        _special_event(state, attacker, defender, a, dice, events, head)
        return
    mod, parts = strike_modifier(attacker, defender)
    diff = a + mod - d  # §7.3
    detail = f" ({', '.join(parts)})" if parts else ""
    if diff <= 0:
        if events is not None:
            events.append(
                {
                    "type": "strike",
                    "seat": attacker.seat,
                    "target": defender.seat,
                    "result": "miss",
                    "text": f"{head}{detail}: {diff:+d}, no harm (quick §7.3)",
                }
            )
        return
    save_on = _save_target(defender)
    if save_on:  # §7.4
        save = dice.d(6, f"{defender.seat}'s saving throw", "quick §7.4")
        if save >= save_on:
            if events is not None:
                events.append(
                    {
                        "type": "strike",
                        "seat": attacker.seat,
                        "target": defender.seat,
                        "result": "saved",
                        "text": f"{head}{detail}: {diff:+d}, saved by the armour "
                        f"({save} on {save_on}+, quick §7.4)",
                    }
                )
            return
    defender.strength -= diff  # §7.5
    if events is not None:
        events.append(
            {
                "type": "strike",
                "seat": attacker.seat,
                "target": defender.seat,
                "result": "wound",
                "damage": diff,
                "strength": defender.strength,
                "text": f"{head}{detail}: {defender.seat} loses {diff} strength, "
                f"now {defender.strength} "
                "(quick §7.5)",
            }
        )
    _check_helpless(state, attacker, defender, dice, events)


def _save_target(defender: Fighter) -> int:
    """§7.4, §9.2.2: the saving-throw target, or 0 for none."""
    row = tables().kit(defender.cls)
    return row.save_on if defender.has_off_hand else row.save_on_without_shield


def _check_helpless(
    state: QuickState,
    attacker: Fighter,
    defender: Fighter,
    dice: Dice,
    events: list[Event] | None,
) -> None:
    h = tables().helpless
    if defender.strength < h.dead_below:  # §7.7
        defender.status = "dead"
        if events is not None:
            events.append(
                {
                    "type": "dead",
                    "seat": defender.seat,
                    "text": f"{defender.seat} is dead (quick §7.7)",
                }
            )
    elif defender.strength <= h.helpless_at_or_below:  # §7.6
        defender.status = "helpless"
        if events is not None:
            events.append(
                {
                    "type": "helpless",
                    "seat": defender.seat,
                    "text": f"{defender.seat} is helpless, awaiting the thumbs (quick §7.6)",
                }
            )
        begin_fate(state, defender, attacker, dice, events)


def _special_event(
    state: QuickState,
    attacker: Fighter,
    defender: Fighter,
    face: int,
    dice: Dice,
    events: list[Event] | None,
    head: str,
) -> None:
    """§9: the special event table, read from the data file (the effect, and who suffers it)."""
    row = tables().special(face)
    ev: Event = {
        "type": "special",
        "seat": attacker.seat,
        "target": defender.seat,
        "double": face,
        "effect": row.effect,
    }
    cite = f"(quick {row.section})"
    victim, other = (attacker, defender) if row.who == "attacker" else (defender, attacker)
    what = f"double {face}"
    if row.who == "roll":  # §9.6: 1-3 the defender, 4-6 the attacker
        purpose = "whose weapon breaks" if row.effect == "weapon_breaks" else f"who: {what}"
        roll = dice.d(6, purpose, f"quick {row.section}")
        if roll not in row.defender_on:
            victim, other = attacker, defender
        what += f", {roll} on the die:"
    else:
        what += ","
    if row.effect == "killed":
        victim.status = "killed"
        ev["text"] = f"{head}: {what} {victim.seat} is killed outright {cite}"
    elif row.effect == "loses_off_hand":
        item = "net" if has_net(victim) else "shield"
        if victim.has_off_hand and not victim.net_cast:
            victim.has_off_hand = False
            ev["text"] = f"{head}: {what} {victim.seat} loses his {item} {cite}"
        else:  # QR10: a net already lying on its victim is not his to lose
            ev["text"] = f"{head}: {what} but {victim.seat} has no {item} left {cite}"
    elif row.effect == "off_balance":
        victim.off_balance = True
        ev["text"] = f"{head}: {what} {victim.seat} is off balance next turn {cite}"
    elif row.effect == "decked":
        victim.status = "helpless"
        ev["text"] = f"{head}: {what} {victim.seat} is decked and helpless {cite}"
        if events is not None:
            events.append(ev)
        begin_fate(state, victim, other, dice, events)
        return
    else:  # weapon_breaks
        if victim.has_weapon:
            victim.has_weapon = False
            ev["text"] = (
                f"{head}: {what} {victim.seat}'s weapon breaks, knuckle sandwich from now on {cite}"
            )
        else:
            ev["text"] = f"{head}: {what} {victim.seat} has no weapon left to break {cite}"
        ev["broken"] = victim.seat
    if events is not None:
        events.append(ev)


def cast_net(
    state: QuickState,
    caster: Fighter,
    target: Fighter,
    dice: Dice,
    events: list[Event] | None,
) -> None:
    """§10.2: 1D6, ensnaring on 5-6 across a one-hex gap and on 6 when adjacent."""
    t = tables().net_cast
    gap = hg.distance(caster.hex, target.hex) == 2
    need = t.gap_target if gap else t.adjacent_target
    roll = dice.d(6, f"{caster.seat}'s net cast", "quick §10.2")
    ensnared = roll >= need
    if ensnared:
        target.ensnared = True  # §10.5: for good
        caster.net_cast = True  # QR10: the net stays on him
    if events is None:
        return
    where = "across a one-hex gap" if gap else "adjacent"
    if ensnared:
        events.append(
            {
                "type": "net",
                "seat": caster.seat,
                "target": target.seat,
                "result": "ensnared",
                "text": f"{caster.seat} casts the net {where}: {roll} on {need}+, {target.seat} is "
                "ensnared for good (quick §10.2, §10.5)",
            }
        )
    else:
        events.append(
            {
                "type": "net",
                "seat": caster.seat,
                "target": target.seat,
                "result": "miss",
                "text": f"{caster.seat} casts the net {where}: {roll} on {need}+, missed; he draws "
                "it back (quick §10.2, QR10)",
            }
        )
