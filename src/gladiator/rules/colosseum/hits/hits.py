"""What a CRT result that touches the defender does (§9.6): shield hits (§12), weapon drops
(§13.1), body hits with wounds and criticals (§10), for a blow in the combat step and for a thrown
item (§13.3.1.1).
"""

from __future__ import annotations

from collections.abc import Callable

from gladiator.core.dice import Dice
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.arena.board import board_of
from gladiator.rules.colosseum.beasts.beasts import t25_critical
from gladiator.rules.colosseum.campaign.campaign_tally import note_hit
from gladiator.rules.colosseum.combat.crt import CrtOutcome
from gladiator.rules.colosseum.combat.weapon_combat import Blow, break_check, drop_drm
from gladiator.rules.colosseum.events import event, sheet_events
from gladiator.rules.colosseum.hits.body_hits import HitOutcome, body_hit
from gladiator.rules.colosseum.hits.cleaving import cleave
from gladiator.rules.colosseum.hits.items import (
    lose_item,
)
from gladiator.rules.colosseum.hits.shield_hits import shield_hit
from gladiator.rules.colosseum.hits.wounds import ItemDrop, drop_check, drop_location, stun_check
from gladiator.rules.colosseum.kit.weapons import BROKEN, weapon
from gladiator.rules.colosseum.movement.postures import check_unconscious, fall_prone
from gladiator.rules.colosseum.plots.plots import (
    ItemKind,
)
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.vocabulary import Area

Lose = Callable[[Gladiator, ItemKind, ItemDrop | None, str], None]


def stun_hit(
    state: ColosseumState,
    d: Gladiator,
    drm: int,
    dice: Dice,
    events: list[Event],
    lose: Lose,
    *,
    purpose: str,
    rule: str,
) -> int:
    """A roll on T7's Stun row that a blow calls for (§21.8.1 the maul, §23.2.3 unarmed):
    2D6 + `drm`, the Stun marked (§11.2) with its column's extra (§8.4.3's fall, weapon or
    shield drop); the Stun it caused, which is also the CF he loses at once (§11.3)."""
    n, extra = stun_check(dice, drm, purpose=purpose, rule=rule)
    if d.beast is not None:  # B5, B9: a beast takes the Stun alone (no fall, nothing to drop)
        extra = None
    d.sheet, evs = d.sheet.with_stun(n, turn=state.turn, phase=state.phase)
    events.append(event("stun", rule, f"{d.seat}: {purpose}: Stun {n}", seat=d.seat, stun=n))
    events.extend(sheet_events(d.seat, evs))
    if extra == "fall_prone":
        fall_prone(d)
        events.append(event("fall_prone", rule, f"{d.seat} falls Prone (T7)", seat=d.seat))
    elif extra in ("weapon_drop", "shield_drop"):
        item: ItemKind = "weapon" if extra == "weapon_drop" else "shield"
        if d.has_weapon if item == "weapon" else d.has_shield:
            drop, ev = drop_location(dice, item, f"{rule} T7")
            events.append(ev)
            lose(d, item, drop, f"{rule} T7")
    return n


def apply_body_hit(state: ColosseumState, d: Gladiator, hit: HitOutcome, lose: Lose) -> int:
    """What a body hit leaves beyond the sheet (§10.5: criticals, arteries, drops); the CF he
    loses at once."""
    d.crits = d.crits.after(hit)
    if hit.severed_artery:
        d.arteries = (*d.arteries, (hit.area, state.turn, state.phase))
    if hit.weapon_drop is not None and d.has_weapon:
        lose(d, "weapon", hit.weapon_drop, "§10.5 WD")
    if hit.shield_drop is not None and d.has_shield:
        lose(d, "shield", hit.shield_drop, "§10.5 SD")
    return hit.cf_lost + hit.stun  # §9.4.6, §11.3


def strike(
    state: ColosseumState,
    att: Gladiator,
    d: Gladiator,
    area: Area,
    outcome: CrtOutcome,
    dice: Dice,
    events: list[Event],
    lose: Lose,
    blow: Blow | None = None,
    *,
    half_damage: bool = False,
    drop_drm_extra: int = 0,
) -> int:
    """§9.6: what a result that touches the defender does (S, S* §12; P, P* §13.1; H §10), for an
    attack in the combat step and for a thrown item (§13.3.1.1); the CF he loses at once. A
    `blow` (Advanced Game) adds its weapon's effects (F13, F14); a special attack (§22.2) may
    halve the wounds of an H or add a DRM to the weapon-drop roll of a P."""
    t, ph = state.turn, state.phase

    def apply_hit(hit: HitOutcome) -> int:
        note_hit(state, att, d, hit)  # §31.2.4, §35.5.2 (X7, X8): for the match report
        lost = apply_body_hit(state, d, hit, lose)
        advanced = state.options.get("advanced")
        if hit.cleaving and d.alive and d.beast is None and advanced:  # §26.2 (K1; B19)
            cleave(state, board_of(state), d, att, dice, events)
        return lost

    st = att.sheet.current_st + (blow.st_bonus if blow is not None else 0)  # §21.8
    wound_drm = blow.wound_drm if blow is not None else 0  # §21.2

    code = outcome.code
    if d.beast is not None and code in ("S", "S*"):  # §28.6.1.2 (a thrown item, B8)
        code = "H"
    lost = 0
    if code == "H":
        d.sheet, hit = body_hit(
            d.sheet,
            area,
            outcome.result.modifier,
            dice,
            weapon_modifier=wound_drm,
            turn=t,
            phase=ph,
            helmet_lost=d.crits.helmet_lost,
            has_weapon=d.has_weapon,
            has_shield=d.has_shield,
            critical=t25_critical if d.beast is not None else None,  # §28.6.3
            half=half_damage,
        )
        events.extend(hit.events)
        if hit.wounds_marked:
            state.bleed(d)
        lost = apply_hit(hit)
        if blow is not None and blow.hit_stun is not None and not hit.killed:  # §21.8.1
            name = weapon(blow.weapon or "").name.lower()
            lost += stun_hit(
                state, d, 0, dice, events, lose, purpose=f"hit by the {name}", rule="§21.8.1"
            )
    elif code in ("S", "S*"):
        d.sheet, so = shield_hit(
            d.sheet,
            outcome.result,
            st,
            outcome.unweakened_cf,
            dice,
            drop_modified_cf=outcome.modified_cf,
            has_weapon=d.has_weapon,
            area=area,
            turn=t,
            phase=ph,
            helmet_lost=d.crits.helmet_lost,
            weapon_modifier=wound_drm,
            damage_drm=blow.shield_damage_drm if blow is not None else 0,
        )
        events.extend(so.events)
        if so.shield_drop is not None:
            lose(d, "shield", so.shield_drop, "§12.3" if so.shield_useless else "S*")
        elif so.shield_useless:
            # §12.3 "must be dropped or thrown away [see 13.1]": it falls where §13.2 says (I2:
            # he drops it at once rather than keep a useless shield for a later throw).
            drop, ev = drop_location(dice, "shield", "§12.3")
            events.append(ev)
            lose(d, "shield", drop, "§12.3")
        if so.weapon_drop is not None and d.has_weapon:
            lose(d, "weapon", so.weapon_drop, "§12.3.1 P box")
        if so.body_hit is not None:
            lost = apply_hit(so.body_hit)
    elif code in ("P", "P*"):
        broken = break_check(d, st, dice, events) if code == "P*" else None  # F14
        if broken is not None:  # F7: the broken piece falls, or is useless and lies nowhere
            left, falls = broken
            rule = weapon(d.weapons[-1]).section
            d.weapons = (*d.weapons[:-1], left)
            fallen: ItemDrop | None = None
            if falls:
                fallen, ev = drop_location(dice, "weapon", rule)
                events.append(ev)
            lose(d, "weapon", fallen, f"{rule} {'useless' if left == BROKEN else 'broken'}")
            return lost
        arms = d.sheet.cf_lost_to_wounds("arms")
        drm = drop_drm(d) + drop_drm_extra
        dropped = drop_check(outcome.result, outcome.modified_cf, st, arms, dice, drm=drm)
        events.append(
            event(
                "drop_roll",
                "§13.1.1",
                f"{d.seat}'s weapon drop roll after {code}"
                + (f" (Disarm DRM {drop_drm_extra:+d})" if drop_drm_extra else "")
                + ": "
                + ("he drops his weapon" if dropped else "he keeps it"),
                seat=d.seat,
                **({"drm": drm} if drop_drm_extra else {}),
            )
        )
        if dropped and d.has_weapon:
            drop, ev = drop_location(dice, "weapon", f"§13.1.1 {code}")
            events.append(ev)
            lose(d, "weapon", drop, f"§13.1.1 {code}")
    return lost


def thrown_hit(
    state: ColosseumState,
    att: Gladiator,
    d: Gladiator,
    area: Area,
    outcome: CrtOutcome,
    dice: Dice,
    events: list[Event],
) -> None:
    """§13.3.1.1: a thrown item's CRT result, before any CF is allocated (I4)."""
    board = board_of(state)

    def lose(g: Gladiator, item: ItemKind, drop: ItemDrop | None, cause: str) -> None:
        lose_item(state, board, g, item, drop, cause, events)

    strike(state, att, d, area, outcome, dice, events, lose)
    if d.alive and (d.sheet.killed or d.crits.killed):
        d.alive = False
        d.cause = f"killed by {att.seat}'s thrown item"
    check_unconscious(d, events)
