"""Unarmed combat (§23, Advanced Game): what a CRT result of an attack with no weapon does. Who
may attack unarmed (an adjacent opponent, §23.1) and its half CF and +1 Spd (§23.2) are
weapon_combat's; the numbers are advanced_combat.toml's [unarmed].

RULINGS (docs/rulings.md, the F series)

F15 §23.2.1, A14: the defender's kit converts the result first, as for any attack (§9.6), and
    §23 then says what it does: against a man with no shield an S is parried (P), so it wounds
    the attacker's own arms (A14: a wound roll as from an H+0, armour and criticals, on his area
    4) rather than being ignored; a parry makes the defender roll no weapon drop. The CF the
    attacker loses comes off his own attacks still to come (§9.4.6).
F16 §23.2.3, §23.3: an H does no wound: the defender rolls 2D6 + the attacker's ST + 2 × the H
    bonus on T7's Stun row (with that column's extra, as a collision's), then RED + BLACK + 1 per
    point of that Stun on T9 for the area struck. Its results act as in §10.5 on a hit of no
    wounds ("1" gives one wound, which 2x and 3x multiply: Q28's order), except H, M, K and SA,
    which do nothing themselves and make the defender take one Fall Prone check (2D6 + AG − 2,
    below 7 he falls, §15.4) however many of them the cell holds.

RULINGS (docs/rulings.md, the B series)

B21 §23 against a beast (§28.6.1.2, §28.6.1.3, §28.6.3): bare hands fight a beast as they fight
    a man. The beast's S-type results become H first (§28.6.1.2), and an H stuns instead of
    wounding (§23.2.3): the beast rolls 2D6 + his ST + 2 × the H bonus on T7's Stun row and takes
    the Stun alone (B5, B9: no fall, nothing to drop), then the critical roll with +1 per point
    of that Stun on T25 (§28.6.3) instead of T9; H, M, K and SA do nothing (§23.3.1) and the
    Fall Prone check they call for does not touch a beast, which is never Prone (B9). A P-type
    result is §23.2.1's: the claws tear his own arms (a wound roll as from an H+0), not §28.6.1.3's
    paws wound and weapon drop, which need a weapon.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace

from gladiator.core.dice import Dice
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.beasts.beasts import t25_critical
from gladiator.rules.colosseum.campaign.campaign_tally import note_wounds
from gladiator.rules.colosseum.combat.crt import CrtOutcome
from gladiator.rules.colosseum.events import event, sheet_events
from gladiator.rules.colosseum.hits.body_hits import body_hit
from gladiator.rules.colosseum.hits.hits import Lose, apply_body_hit, stun_hit
from gladiator.rules.colosseum.hits.wounds import drop_location
from gladiator.rules.colosseum.movement.postures import FALL_PRONE_BELOW, fall_prone
from gladiator.rules.colosseum.plots.plots import ItemKind
from gladiator.rules.colosseum.sheet.logsheet_boxes import AREA_NAMES
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.tables.advanced_tables import advanced_tables
from gladiator.rules.colosseum.tables.tables import critical_result
from gladiator.rules.colosseum.vocabulary import Area

__all__ = ["unarmed_strike"]


def unarmed_strike(
    state: ColosseumState,
    att: Gladiator,
    d: Gladiator,
    area: Area,
    outcome: CrtOutcome,
    dice: Dice,
    events: list[Event],
    lose: Lose,
    charge: Callable[[int], None],
) -> int:
    """§23.2.1-§23.3.2 (F15, F16; B21 against a beast): an unarmed attack's result (S, S*, P, P*
    or H after the defender's kit, §9.6); the CF the defender loses at once. `charge` takes the
    attacker's own loss (a parried fist)."""
    u = advanced_tables().combat.unarmed
    code = outcome.code
    if code in u.changes:  # §23.2.1: shield hits are ignored
        events.append(event("unarmed", "§23.2.1", f"{att.seat}'s fist meets the shield: no effect"))
        return 0
    if code in u.parry_wounds_attacker.codes:  # §23.2.1, A14
        events.append(
            event(
                "unarmed",
                "§23.2.1",
                (
                    f"{d.seat}'s claws meet {att.seat}'s bare hand (B21)"
                    if d.beast is not None
                    else f"{d.seat} parries {att.seat}'s bare hand"
                )
                + f": {att.seat} rolls for wounds to his own {u.parry_wounds_attacker.area} "
                "(H+0, A14)",
                seat=att.seat,
            )
        )
        att.sheet, hit = body_hit(
            att.sheet,
            u.parry_wounds_attacker.area,
            0,
            dice,
            turn=state.turn,
            phase=state.phase,
            helmet_lost=att.crits.helmet_lost,
            has_weapon=att.has_weapon,
            has_shield=att.has_shield,
        )
        events.extend(hit.events)
        if hit.wounds_marked:
            state.bleed(att)
        charge(apply_body_hit(state, att, hit, lose))
        return 0
    # §23.2.3: an H stuns instead of wounding.
    drm = att.sheet.current_st + u.hit_stun.per_h_bonus * outcome.result.modifier
    stun = stun_hit(
        state,
        d,
        drm,
        dice,
        events,
        lose,
        purpose=f"{att.seat}'s unarmed blow, {u.hit_stun.dice} + ST + 2 × H bonus = {drm:+d}",
        rule="§23.2.3",
    )
    before = d.sheet.wounds_in(area)
    lost = stun + _critical(state, d, area, stun, dice, events, lose)
    if d.sheet.wounds_in(area) > before:  # §31.2.4 (X7): a wounding attack, for the report
        note_wounds(state, att, d, area, killed=d.sheet.killed)
    return lost


def _critical(
    state: ColosseumState,
    d: Gladiator,
    area: Area,
    stun: int,
    dice: Dice,
    events: list[Event],
    lose: Lose,
) -> int:
    """§23.3 (F16): the critical roll of an unarmed H; the CF (and Stun) it costs him at once."""
    u = advanced_tables().combat.unarmed
    faces = dice.coloured(("black", "red"), f"unarmed critical roll, {AREA_NAMES[area]}", "§23.3")
    black, red = faces["black"][0], faces["red"][0]
    total = red + black + u.critical_per_stun * stun
    cell = t25_critical(area, total) if d.beast is not None else critical_result(area, total)
    codes = [c for c in cell if c != "-"]
    events.append(
        event(
            "critical_roll",
            "§23.3",
            f"{'T25 ' if d.beast is not None else ''}critical roll RED {red} + BLACK {black} + "
            f"Stun {stun} = {total} on "
            f"{AREA_NAMES[area]}: {'+'.join(cell)}",
            codes=list(cell),
        )
    )
    before = d.sheet.current_cf
    stun_before = d.sheet.stun_in_effect
    count = Counter(codes)
    wounds = count["1"] * 2 ** count["2x"] * 3 ** count["3x"]  # Q28 on a hit of no wounds
    if wounds:
        d.sheet, evs = d.sheet.with_wounds(area, wounds)
        events.extend(sheet_events(d.seat, evs))
        state.bleed(d)
    for code in codes:
        if code == "V":
            d.sheet, evs = d.sheet.with_cf_loss(1, "§10.5")
            events.extend(sheet_events(d.seat, evs))
        elif code in ("ST", "AG"):
            d.sheet, evs = d.sheet.with_characteristic_loss(code, 1)
            events.extend(sheet_events(d.seat, evs))
        elif code == "S":  # §10.5 S: Stun = 2D6 − CN, at least 1
            roll = dice.roll("2D6", "critical S: Stun 2D6 − CN", "§10.5")
            d.sheet, evs = d.sheet.with_stun(
                max(roll - d.sheet.cn, 1), turn=state.turn, phase=state.phase
            )
            events.extend(sheet_events(d.seat, evs))
        elif code in ("WD", "SD"):
            item: ItemKind = "weapon" if code == "WD" else "shield"
            if d.has_weapon if item == "weapon" else d.has_shield:
                drop, ev = drop_location(dice, item, f"§10.5 {code}")
                events.append(ev)
                lose(d, item, drop, f"§10.5 {code}")
        elif code in ("LMP", "STU"):
            d.crits = replace(
                d.crits,
                lmp=d.crits.lmp + (code == "LMP"),
                stu=d.crits.stu + (code == "STU"),
            )
            events.append(event("critical", "§10.5", f"{d.seat}: {code}", seat=d.seat))
    _ignored(d, [c for c in codes if c in u.critical_ignored], dice, events)
    return (before - d.sheet.current_cf) + max(d.sheet.stun_in_effect - stun_before, 0)


def _ignored(d: Gladiator, ignored: list[str], dice: Dice, events: list[Event]) -> None:
    """§23.3.1, §23.3.2: H, M, K and SA from bare hands do nothing but call for one Fall Prone
    check with −2; a beast never falls Prone (B9, B21)."""
    u = advanced_tables().combat.unarmed
    if ignored and d.beast is not None:  # B21: §23.3.2's fall does not touch a beast (B9)
        events.append(
            event(
                "unarmed",
                "§23.3.1",
                f"{'+'.join(ignored)} from bare hands: no damage, and a beast never falls Prone",
                seat=d.seat,
            )
        )
    elif ignored and d.posture != "prone":  # §23.3.1, §23.3.2
        roll = dice.roll("2D6", f"{d.seat}'s Fall Prone check 2D6 + AG − 2", "§23.3.2")
        total = roll + d.sheet.current_ag + u.critical_fall_prone_drm
        falls = total < FALL_PRONE_BELOW
        events.append(
            event(
                "fall_prone_check",
                "§23.3.2",
                f"{'+'.join(ignored)} from bare hands: no damage, but 2D6 {roll} + AG "
                f"{d.sheet.current_ag} {u.critical_fall_prone_drm:+d} = {total}"
                + (": below 7, he falls Prone" if falls else ": he keeps his feet"),
                seat=d.seat,
            )
        )
        if falls:
            fall_prone(d)
