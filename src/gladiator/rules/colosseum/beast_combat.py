"""Combat against a beast (§28.6): who may attack, PA and the CFs available, the gladiator's
allocation (only the areas T24 lets him strike), the beast's 1D3 attacks, and what results do
to a beast (S-type → H, P-type → a paws wound and his weapon-drop check, T25 criticals).

The attack rounds are the phase's `PhaseCombat` (§9.4-§9.6); the beast's side is an
allocation the engine writes (§28.6.1.1) and never defends.

RULINGS (docs/rulings.md, Colosseum §28, the B series)

B6  §28.6, T24, §9.1.2: the gladiator may attack the beast when either hex of its counter is in
    his front and his weapon reaches it; the beast attacks a gladiator in its head's three-hex
    front (§28.6.2) and never turns. A gladiator the beast may attack who cannot attack it turns
    to face its head (§9.1.2, E1). His PA and the areas he may strike are T24's for his hex (A13;
    none if he was turned, E1); against a reared bear T11's and every area (§28.6.1: it "counts
    as a gladiator"). The beast's PA is T11's, its head against his facing (with §9.2.1's
    status bonuses); a reared bear adds +4 CF.
B7  §28.6.1.1, Q38: the beast's 1D3 attacks at 1D6 areas (re-roll 6; a reared bear also
    re-rolls 3 and 5), its CFs available split evenly, the remainder to the earliest; two
    attacks at one area are one attack of both shares. §9.3.2's 8 CF a area is a gladiator's
    limit and does not bind a beast. T24 from farther than a touching hex (a spear): the
    touching hex nearest him, the least PA on a tie.
B8  §28.6.1.2-3, A11: against a beast S and S* are H; P and P* make the beast roll a wound on
    its paws (area 4) as an H+0, and the gladiator checks for weapon drop (§13.1.1) with the
    beast's ST as the attacker's and no modified CF (3D6 − beast ST − his arm losses < 1): a
    wolf never tears a weapon away, a tiger often. Beast wounds are read on T25 instead of T9
    (§28.6.3), and a beast has no armour.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from gladiator.core.decisions import Distribute
from gladiator.core.dice import Dice
from gladiator.core.hexgrid import distance, facing_toward
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.advanced_tables import advanced_tables
from gladiator.rules.colosseum.beasts import (
    beast_of,
    counter_hexes,
    gladiator_of,
    t24_entry,
    t25_critical,
)
from gladiator.rules.colosseum.board import board_of
from gladiator.rules.colosseum.cf_allocation import (
    MAX_ATTACK_CF_PER_AREA,
    Allocation,
    parse_allocation,
)
from gladiator.rules.colosseum.combat.allocation import allocation_choice
from gladiator.rules.colosseum.combat.engage import cfs_available
from gladiator.rules.colosseum.combat.rounds import PhaseCombat
from gladiator.rules.colosseum.combat.sequence import duel_plans
from gladiator.rules.colosseum.combat_geometry import in_front, positional_advantage
from gladiator.rules.colosseum.crt import CrtOutcome
from gladiator.rules.colosseum.events import event
from gladiator.rules.colosseum.hits import Lose, apply_body_hit, strike
from gladiator.rules.colosseum.items import lose_item
from gladiator.rules.colosseum.options import SEAT_NAMES
from gladiator.rules.colosseum.plots import ItemKind
from gladiator.rules.colosseum.postures import check_unconscious
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.talent_combat import fast_attack
from gladiator.rules.colosseum.vocabulary import AREAS, Area
from gladiator.rules.colosseum.weapon_combat import Stroke, reaches, strokes
from gladiator.rules.colosseum.wounds import ItemDrop, body_hit, drop_check, drop_location

__all__ = [
    "beast_allocation_choice",
    "beast_attacks",
    "gladiator_areas",
    "prepare_beast_combat",
    "resolve_beast_combat",
]


def _target(b: Gladiator, g: Gladiator) -> Gladiator:
    """The beast as the hex of its counter nearest him (the head on a tie), for reach (B6)."""
    near = min(counter_hexes(b), key=lambda h: distance(h, g.hex))
    return replace(b, hex=near)


def _gladiator_may(g: Gladiator, b: Gladiator) -> bool:
    if not (g.alive and b.alive) or g.sheet.unconscious or g.posture == "prone":
        return False
    return any(reaches(g, replace(b, hex=h)) for h in counter_hexes(b))


def _beast_may(b: Gladiator, g: Gladiator) -> bool:
    return (
        b.alive and g.alive and not b.sheet.unconscious and in_front(b.pose, g.pose)
    )  # §28.6.2: its head's three-hex front


def gladiator_areas(state: ColosseumState, g: Gladiator) -> tuple[Area, ...]:
    """§28.6, T24 (B6): the beast's body areas he may strike from where he stands."""
    b = beast_of(state)
    assert b is not None and b.beast is not None
    if b.beast.reared:
        return AREAS
    return tuple(AREAS[n - 1] for n in t24_entry(b, g.hex).areas)


def prepare_beast_combat(state: ColosseumState, events: list[Event]) -> bool:
    """§5.2.6.1, §28.6 (B6): who may attack, the gladiator's forced turn, PA and CFs."""
    b, g = beast_of(state), gladiator_of(state)
    assert b is not None and b.beast is not None
    for x in (b, g):
        x.may_attack, x.pa, x.available = False, 0, 0
    beast_may, glad_may = _beast_may(b, g), _gladiator_may(g, b)
    if not beast_may and not glad_may:
        return False
    if beast_may:
        b.pa = positional_advantage(
            b.pose,
            g.pose,
            left_handed=g.left_handed,
            stumbling=g.stumbling,
            prone=g.posture == "prone",
        )
    turned = False
    if beast_may and not in_front(g.pose, b.pose) and g.posture != "prone":
        facing = facing_toward(g.hex, b.hex)
        if facing != g.facing:  # §9.1.2 (E1); the beast itself never turns (§28.6.2)
            g.facing, turned = facing, True
            events.append(
                event(
                    "forced_rotation",
                    "§9.1.2",
                    f"{g.seat} turns to face {b.seat} (facing {g.facing})",
                    seat=g.seat,
                    facing=g.facing,
                )
            )
            glad_may = _gladiator_may(g, b)
    if glad_may and not turned:
        if b.beast.reared:  # §28.6.1: a reared bear counts as a gladiator for PA
            g.pa = positional_advantage(g.pose, b.pose)
        else:
            g.pa = t24_entry(b, g.hex).pa
    b.may_attack, g.may_attack = beast_may, glad_may
    bonus = advanced_tables().beasts.combat.reared_bear.cf_bonus if b.beast.reared else 0
    b.available = b.sheet.available_cf(b.pa) + bonus
    avail, _ = cfs_available(g)  # a beast fighter throws no net: no net cost
    g.available = avail
    areas = " ".join(str(AREAS.index(a) + 1) for a in gladiator_areas(state, g))
    events.append(
        event(
            "available",
            "§28.6",
            f"{b.seat} ({b.beast.name}): CF {b.sheet.current_cf}, PA {b.pa:+d}, Stun "
            f"−{b.sheet.stun_in_effect}"
            + (f", reared +{bonus}" if bonus else "")
            + f" → {b.available} CF"
            + ("" if beast_may else "; it cannot reach him")
            + f". {g.seat}: {avail} CF available, PA {g.pa:+d}"
            + (f", may strike areas {areas} (T24)" if glad_may else "; he may not attack"),
            seat=g.seat,
            available=avail,
            may_attack=glad_may,
        )
    )
    return True


def beast_allocation_choice(state: ColosseumState, g: Gladiator) -> Distribute:
    """§9.3 with §28.6 (T24): only the areas he may strike take attack CFs."""
    d = allocation_choice(g, state)
    allowed = {f"A-{a.upper()}" for a in gladiator_areas(state, g)} if g.may_attack else set()
    slots = tuple(
        replace(s, maximum=0) if s.name.startswith("A-") and s.name not in allowed else s
        for s in d.slots
    )
    return replace(d, slots=slots, prompt=d.prompt + " (against the beast: T24's areas)")


def beast_attacks(b: Gladiator, dice: Dice, events: list[Event]) -> Allocation:
    """§28.6.1.1 (B7): the beast's attacks this phase; no defence."""
    assert b.beast is not None
    c = advanced_tables().beasts.combat
    total = max(b.available, 0)
    n = dice.roll(c.attacks_dice, f"{b.seat}'s number of attacks", "§28.6.1.1")
    reroll = set(c.area_reroll)
    if b.beast.reared:  # §28.6.1, Q38: areas 1, 2, 4 only
        reroll |= {a for a in range(1, 6) if a not in c.reared_bear.areas}
    attack = [0, 0, 0, 0, 0]
    for k in range(n):
        while (roll := dice.roll(c.area_dice, f"{b.seat}'s attack {k + 1} area", "§28.6.1.1")) in (
            reroll
        ):
            pass
        attack[roll - 1] += total // n + (1 if k < total % n else 0)
    areas = [a for a, v in zip(AREAS, attack, strict=True) if v]
    capped = [min(v, MAX_ATTACK_CF_PER_AREA) for v in attack]
    al = Allocation(total, tuple(capped), (0, 0, 0, 0, 0), tuple(areas))
    object.__setattr__(al, "attack", tuple(attack))  # B7: no 8 CF limit for a beast
    events.append(
        event(
            "beast_attacks",
            "§28.6.1.1",
            f"{b.seat} makes {n} attack{'s' * (n != 1)} with its {total} CF: "
            + (" ".join(f"{a}:{v}" for a, v in zip(AREAS, attack, strict=True) if v) or "none"),
            seat=b.seat,
        )
    )
    return al


def resolve_beast_combat(
    state: ColosseumState, orders: Mapping[str, str], dice: Dice, events: list[Event]
) -> None:
    """§9.4-§9.6 with §28.6: the gladiator's allocation, the beast's attacks, the rounds."""
    b, g = beast_of(state), gladiator_of(state)
    assert b is not None and b.beast is not None
    al = parse_allocation(orders[g.seat], g.available)
    g.last_allocation = orders[g.seat]
    g.attack_used += sum(al.attack)
    g.defence_used += sum(al.defence)
    events.append(
        event(
            "allocation",
            "§9.4.1",
            f"{g.seat} reveals {orders[g.seat]}",
            seat=g.seat,
            allocation=orders[g.seat],
        )
    )
    attack = list(al.attack)
    halve = int(g.posture == "kneeling") + int(g.recovered_weapon)  # §14.3, §13.4.2
    plan: dict[Area, Stroke] = {}
    if al.order:
        plan = dict(
            zip(al.order, strokes(g, _target(b, g), len(al.order), state.options), strict=True)
        )
    for area in al.order:
        for _ in range(halve + len(plan[area].halvings)):
            attack[AREAS.index(area)] //= 2
    if tuple(attack) != al.attack:
        events.append(
            event(
                "half_cf",
                "§14.3",
                f"{g.seat}'s attacks at half CF: "
                + " ".join(f"{a}:{v}" for a, v in zip(AREAS, attack, strict=True) if v),
                seat=g.seat,
            )
        )
        al = Allocation(
            al.available,
            tuple(attack),
            al.defence,
            tuple(a for a in al.order if attack[AREAS.index(a)]),
        )
    beast_al = beast_attacks(b, dice, events) if b.may_attack else Allocation(b.available)
    side = {s: i for i, s in enumerate(SEAT_NAMES)}
    gi, bi = side[g.seat], side[b.seat]
    allocs = [al, beast_al] if gi == 0 else [beast_al, al]
    beast_changes: dict[str, str] = {
        str(k): str(v) for k, v in advanced_tables().beasts.combat.changes.items()
    }
    combat: PhaseCombat
    board = board_of(state)

    def lose(x: Gladiator, item: ItemKind, drop: ItemDrop | None, cause: str) -> None:
        lose_item(state, board, x, item, drop, cause, sink)
        combat.set_equipment(gi, **{item: x.has_weapon if item == "weapon" else False})
        if item == "weapon":
            combat.cancel_attacks(gi, "weapon dropped", "§13.1")

    def down(x: Gladiator, i: int) -> None:
        if x.alive and (x.sheet.killed or x.crits.killed):
            x.alive = False
            x.cause = "killed in combat"
            combat.cancel_attacks(i, "dead", "§10.3.2")
            combat.cancel_attacks(1 - i, "the other is dead", "§10.3.2")
        elif x.sheet.unconscious:
            check_unconscious(x, sink)
            combat.cancel_attacks(i, "unconscious", "§11.4")

    def on_hit(attacker: int, defender: int, area: Area, result: CrtOutcome) -> int:
        if attacker == bi:  # the beast's claws and teeth: the Basic Game's results
            lost = strike(state, b, g, area, result, dice, sink, lose)
            down(g, gi)
            return lost
        lost = _hit_beast(state, g, b, area, result, plan.get(area), dice, sink, lose)
        down(b, bi)
        return lost

    def shift(s: int, _: int, area: Area) -> tuple[str, Mapping[str, str]] | None:
        if s != gi:
            return None
        stroke = plan.get(area)
        own = dict(stroke.changes[1]) if stroke is not None and stroke.changes else {}
        merged = {k: beast_changes.get(v, v) for k, v in own.items()}
        merged.update({k: v for k, v in beast_changes.items() if k not in merged})
        return ("§28.6.1.2", merged)

    combat = PhaseCombat(
        duel_plans(allocs),
        dice,
        on_hit,
        speeds=[  # §36.3 FA (TL3)
            fast_attack(g, tuple(plan[a].speed for a in al.order)) if i == gi and plan else 0
            for i in (0, 1)
        ],
        shift=shift,
        names=SEAT_NAMES,
        # B8: the beast "parries" with its paws, so a P or P* against it stays one.
        has_weapon=tuple(True if i == bi else g.has_weapon for i in (0, 1)),
        has_shield=tuple(
            True if i == bi else g.has_shield and not g.sheet.shield_useless for i in (0, 1)
        ),
        crt=state.options["crt"],
        drm=lambda a, d, area: max(0, -state.gladiators[SEAT_NAMES[d]].sheet.current_cf),
    )
    sink = combat.events
    events.extend(combat.run())


def _hit_beast(
    state: ColosseumState,
    g: Gladiator,
    b: Gladiator,
    area: Area,
    result: CrtOutcome,
    stroke: Stroke | None,
    dice: Dice,
    events: list[Event],
    lose: Lose,
) -> int:
    """§28.6.1.2-§28.6.3 (B8): a result against the beast; the CF it loses at once."""
    code = result.code
    c = advanced_tables().beasts.combat
    drm = stroke.blow.wound_drm if stroke is not None else 0
    modifier = result.result.modifier
    if code in c.paws_wound_on:
        events.append(
            event("paws", "§28.6.1.3", f"{code} against {b.seat}: a wound roll on its paws")
        )
        area, modifier = "arms", 0
    elif code != "H":
        return 0
    b.sheet, hit = body_hit(
        b.sheet,
        area,
        modifier,
        dice,
        weapon_modifier=drm,
        turn=state.turn,
        phase=state.phase,
        has_weapon=False,
        has_shield=False,
        critical=t25_critical,
    )
    events.extend(hit.events)
    if hit.wounds_marked:
        state.bleed(b)
    lost = apply_body_hit(state, b, hit, lose)
    if code in c.weapon_drop_on and g.has_weapon:
        arms = g.sheet.cf_lost_to_wounds("arms")
        dropped = drop_check(code, 0, b.sheet.current_st, arms, dice)
        events.append(
            event(
                "drop_roll",
                "§28.6.1.3",
                f"{g.seat}'s weapon drop roll after {code} against the beast (ST "
                f"{b.sheet.current_st}): " + ("he drops his weapon" if dropped else "he keeps it"),
                seat=g.seat,
            )
        )
        if dropped:
            drop, ev = drop_location(dice, "weapon", f"§28.6.1.3 {code}")
            events.append(ev)
            lose(g, "weapon", drop, f"§28.6.1.3 {code}")
    return lost
