"""What a CRT result that touches the defender does (§9.6): shield hits (§12), weapon drops
(§13.1), body hits with wounds and criticals (§10), for a blow in the combat step and for a thrown
item (§13.3.1.1).
"""

from __future__ import annotations

from collections.abc import Callable

from gladiator.core.dice import Dice
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.attacks import (
    CrtOutcome,
)
from gladiator.rules.colosseum.board import board_of
from gladiator.rules.colosseum.cleaving import cleave
from gladiator.rules.colosseum.events import event
from gladiator.rules.colosseum.items import (
    lose_item,
)
from gladiator.rules.colosseum.plots import (
    ItemKind,
)
from gladiator.rules.colosseum.postures import check_unconscious
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.tables import Area
from gladiator.rules.colosseum.wounds import (
    HitOutcome,
    ItemDrop,
    body_hit,
    drop_check,
    drop_location,
    shield_hit,
)

Lose = Callable[[Gladiator, ItemKind, ItemDrop | None, str], None]


def strike(
    state: ColosseumState,
    att: Gladiator,
    d: Gladiator,
    area: Area,
    outcome: CrtOutcome,
    dice: Dice,
    events: list[Event],
    lose: Lose,
) -> int:
    """§9.6: what a result that touches the defender does (S, S* §12; P, P* §13.1; H §10), for an
    attack in the combat step and for a thrown item (§13.3.1.1); the CF he loses at once."""
    t, ph = state.turn, state.phase

    def apply_hit(hit: HitOutcome) -> int:
        d.crits = d.crits.after(hit)
        if hit.cleaving and d.alive and state.options.get("advanced"):  # §26.2 (K1)
            cleave(state, board_of(state), d, att, dice, events)
        if hit.severed_artery:
            d.arteries = (*d.arteries, (hit.area, t, ph))
        if hit.weapon_drop is not None and d.has_weapon:
            lose(d, "weapon", hit.weapon_drop, "§10.5 WD")
        if hit.shield_drop is not None and d.has_shield:
            lose(d, "shield", hit.shield_drop, "§10.5 SD")
        return hit.cf_lost + hit.stun  # §9.4.6, §11.3

    code = outcome.code
    lost = 0
    if code == "H":
        d.sheet, hit = body_hit(
            d.sheet,
            area,
            outcome.result.modifier,
            dice,
            turn=t,
            phase=ph,
            helmet_lost=d.crits.helmet_lost,
            has_weapon=d.has_weapon,
            has_shield=d.has_shield,
        )
        events.extend(hit.events)
        if hit.wounds_marked:
            state.bleed(d)
        lost = apply_hit(hit)
    elif code in ("S", "S*"):
        d.sheet, so = shield_hit(
            d.sheet,
            outcome.result,
            att.sheet.current_st,
            outcome.unweakened_cf,
            dice,
            drop_modified_cf=outcome.modified_cf,
            has_weapon=d.has_weapon,
            area=area,
            turn=t,
            phase=ph,
            helmet_lost=d.crits.helmet_lost,
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
        arms = d.sheet.cf_lost_to_wounds("arms")
        dropped = drop_check(outcome.result, outcome.modified_cf, att.sheet.current_st, arms, dice)
        events.append(
            event(
                "drop_roll",
                "§13.1.1",
                f"{d.seat}'s weapon drop roll after {code}: "
                + ("he drops his weapon" if dropped else "he keeps it"),
                seat=d.seat,
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
