"""The combat step of a team match (§27 on §9): who may attack whom, the forced turns (§9.1.2,
§27.2), PA per attacker and defender (§9.2), the CFs available (§9.3.1), the allocation with a
target per attack box (§27.3.1, team_allocation.py) and the attack rounds among everyone
(team_attacks.py, §27.3, §27.4).

A "single gladiator" (§27.1) is one whom two or more opponents may attack this phase.

RULINGS (the G series of docs/rulings.md)

G3  §27.2, §9.1.2: the forced turns are worked out together from where everyone stands after
    movement and made at once. A man whom one opponent may attack turns as in a duel (E1, M14).
    A single gladiator turns to the facing that puts every such opponent in his combat front,
    the fewest hex-sides from his own (his own if it does); if none does, to the one that gives
    them the smallest total PA (T11 and §9.2.1, measured after the turn), then the fewest
    hex-sides turned, then the lowest facing. Who may attack whom is then worked out again from
    the new facings. A man turned to face an opponent gets no PA against him (§9.2); the lone
    attacker of a duel-like turn keeps his PA from before it (E1); the opponents of a single
    gladiator have theirs from after his turn, which is what §27.2 minimises.
G4  §27.3: a single gladiator yields to an adjacent opponent he makes no attack on: in a round in
    which both attack, all his attacks of that round come after every other attack of it (his
    allies' too), whatever the CFs; otherwise the round goes by CF (§9.4.4).
G5  §27.4: the defence a single gladiator put on an area counts in full against every attack on
    that area, except an attack from one of his three rear hexes (RL, R, RR: the adjacent hexes
    two, three and four hex-sides from his front), which meets none; a defence driven below 0
    (§9.4.7, a fumble) still counts against it. A man attacked by one opponent only is a duel's
    defender (§9.1.2 has turned him to face him).
G6  §27 and the duel's code: `state.opponent(seat)` is, in a team match, the nearest opponent
    still in the fight. What the rules ask of "the opponent" outside combat reads that one (a
    throw's target, §13.3, the nearest when it flies after movement; the item-recovery DRMs,
    T14); §18.2's helpless man is at the mercy of any opponent who has him in his front. The
    tactician and the centurion bots aim at the nearest opponent they may attack.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from gladiator.core.decisions import Decision, SlotGroup
from gladiator.core.dice import Dice
from gladiator.core.hexgrid import direction_to, distance
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.board import board_of
from gladiator.rules.colosseum.cf_allocation import MAX_ATTACK_CF_PER_AREA
from gladiator.rules.colosseum.combat.rounds import PhaseCombat
from gladiator.rules.colosseum.combat.sequence import Attack, Plan
from gladiator.rules.colosseum.combat_geometry import forced_rotation, in_front
from gladiator.rules.colosseum.combat_step import _able, _pa, cfs_available
from gladiator.rules.colosseum.crt import CrtOutcome
from gladiator.rules.colosseum.events import event
from gladiator.rules.colosseum.hits import strike
from gladiator.rules.colosseum.items import lose_item
from gladiator.rules.colosseum.plots import ItemKind
from gladiator.rules.colosseum.postures import check_unconscious
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.talent_combat import fast_attack
from gladiator.rules.colosseum.team_allocation import TeamAllocationChoice, team_slots
from gladiator.rules.colosseum.unarmed import unarmed_strike
from gladiator.rules.colosseum.vocabulary import Area
from gladiator.rules.colosseum.weapon_combat import Stroke, front_region, strokes
from gladiator.rules.colosseum.wounds import ItemDrop

__all__ = [
    "best_facing",
    "in_rear_hexes",
    "team_allocation_choice",
    "team_prepare",
    "team_resolve",
]

REAR = (2, 3, 4)  # §27.4: RL, R, RR, in hex-sides from his facing


def in_rear_hexes(attacker: Gladiator, defender: Gladiator) -> bool:
    """§27.4 (G5): the attacker stands in one of the defender's three rear hexes."""
    d = direction_to(defender.hex, attacker.hex)
    return d is not None and (d - defender.facing) % 6 in REAR


def _pa_facing(x: Gladiator, y: Gladiator, facing: int) -> int:
    return _pa(x, replace(y, facing=facing))


def best_facing(y: Gladiator, attackers: list[Gladiator]) -> int:
    """§27.2 (G3): the facing a single gladiator must turn to."""
    region = front_region(y)

    def turned(f: int) -> int:
        return min((f - y.facing) % 6, (y.facing - f) % 6)

    covering = [
        f for f in range(6) if all(in_front((y.hex, f), x.pose, region=region) for x in attackers)
    ]
    if covering:
        return min(covering, key=lambda f: (turned(f), f))
    return min(range(6), key=lambda f: (sum(_pa_facing(x, y, f) for x in attackers), turned(f), f))


def team_prepare(state: ColosseumState, events: list[Event]) -> bool:
    """§5.2.6.1, §9.1-§9.3.1 with §27.1, §27.2, §27.5: who may attack whom, the forced turns,
    PA per pair and the CFs available. False: nobody may attack anybody."""
    gl = list(state.gladiators.values())
    for g in gl:
        g.may_attack, g.pa, g.available, g.targets = False, 0, 0, ()
    before = {y.seat: [x for x in state.opponents(y.seat) if _able(x, y)] for y in gl}
    if not any(before.values()):
        return False
    facing: dict[str, int] = {}
    kept_pa: dict[tuple[str, str], int] = {}  # E1: a duel-like turn's attacker's PA
    no_pa: set[tuple[str, str]] = set()  # (turned man, the one he was turned to face): §9.2
    for y in gl:
        xs = before[y.seat]
        if len(xs) == 1:  # §9.1.2 as in a duel (G3)
            x = xs[0]
            rot = forced_rotation(
                x.pose,
                y.pose,
                region=front_region(x),
                defender_region=front_region(y),
                left_handed=y.left_handed,
                stumbling=y.stumbling,
                prone=y.posture == "prone",
            )
            kept_pa[(x.seat, y.seat)] = rot.attacker_pa
            if not rot.defender_pa_allowed:
                no_pa.add((y.seat, x.seat))
            if rot.turns:
                facing[y.seat] = rot.facing
        elif len(xs) > 1:  # §27.2
            f = best_facing(y, xs)
            if f != y.facing:
                facing[y.seat] = f
                region = front_region(y)
                for x in xs:
                    if not in_front(y.pose, x.pose, region=region):
                        no_pa.add((y.seat, x.seat))
    for seat, f in facing.items():
        y = state.gladiators[seat]
        y.facing = f
        why = "§27.2" if len(before[seat]) > 1 else "§9.1.2"
        faced = ", ".join(x.seat for x in before[seat])
        events.append(
            event(
                "forced_rotation",
                why,
                f"{seat} turns to facing {f} to meet {faced}",
                seat=seat,
                facing=f,
            )
        )
    attackers: dict[str, list[Gladiator]] = {
        y.seat: [x for x in state.opponents(y.seat) if _able(x, y)] for y in gl
    }
    for x in gl:
        targets: list[tuple[str, int, int]] = []
        for y in state.opponents(x.seat):
            if x not in attackers[y.seat]:
                continue
            pa = 0 if (x.seat, y.seat) in no_pa else kept_pa.get((x.seat, y.seat), _pa(x, y))
            cap = MAX_ATTACK_CF_PER_AREA
            single = len(attackers[y.seat]) > 1
            if single and pa > 0 and not in_front(y.pose, x.pose, region=front_region(y)):
                cap += pa  # §27.5 (G10)
            targets.append((y.seat, pa, cap))
        x.targets = tuple(targets)
        x.may_attack = bool(targets)
        x.pa = max((pa for _, pa, _ in targets), default=0)
        _available(x, events, [state.gladiators[t] for t, _, _ in targets])  # X4: PB
    return True


def _available(g: Gladiator, events: list[Event], foes: list[Gladiator]) -> None:
    """§9.3.1 as in the duel (E2), with his largest PA over the opponents he may attack (`foes`;
    his PB with one of them in his front, X4)."""
    avail, notes = cfs_available(g, foes)  # no net attack in a team match (G14): no net cost
    g.available = avail
    aims = "; may attack " + ", ".join(
        f"{t} (PA {pa:+d}{f', one attack up to {cap} CF (§27.5)' if cap > 8 else ''})"
        for t, pa, cap in g.targets
    )
    events.append(
        event(
            "available",
            "§9.3.1",
            f"{g.seat}: {', '.join(notes)} → {avail} CF available"
            + (aims if g.may_attack else "; he may not attack"),
            seat=g.seat,
            available=avail,
            may_attack=g.may_attack,
            targets=[t for t, _, _ in g.targets],
        )
    )


def team_allocation_choice(g: Gladiator) -> Decision:
    """§9.3, §27.3.1 (G9, G10): his CFs over attacks on each opponent he may attack and his
    defences; none of his PA to defence (§10.3.3)."""
    budget = max(g.available, 0)
    defence_cap = max(0, g.available - g.pa) if g.pa > 0 else None
    slots = team_slots(tuple((t, cap) for t, _, cap in g.targets), budget, g.may_attack)
    groups: tuple[SlotGroup, ...] = ()
    if defence_cap is not None:
        defences = tuple(s.name for s in slots if s.name.startswith("D-"))
        why = "§10.3.3: CFs from positional advantage must be used for attack"
        groups = (SlotGroup(defences, defence_cap, why, "defence"),)
    aims = ", ".join(t for t, _, _ in g.targets)
    return TeamAllocationChoice(
        prompt=f"{g.seat}: allocate up to {budget} CF to attack and defence (§9.3)"
        + (f"; each attack names its target: {aims} (§27.3.1)" if aims else "")
        + ("" if g.may_attack else "; you may not attack this phase (§9.1)"),
        secret=True,
        budget=budget,
        slots=slots,
        groups=groups,
        targets=tuple(t for t, _, _ in g.targets),
        caps=tuple(cap for _, _, cap in g.targets),
    )


def team_resolve(
    state: ColosseumState, orders: Mapping[str, str], dice: Dice, events: list[Event]
) -> None:
    """§9.4-§9.6 among everyone (§27.3, §27.4), with §10-§13 through `strike`."""
    gl = list(state.gladiators.values())
    index = {g.seat: i for i, g in enumerate(gl)}
    attacks: list[list[tuple[int, Area, int]]] = []
    defences: list[tuple[int, ...]] = []
    plans: list[dict[tuple[int, Area], Stroke]] = []
    speeds: list[int | tuple[int, ...]] = []
    for g in gl:
        choice = team_allocation_choice(g)
        assert isinstance(choice, TeamAllocationChoice)
        al = choice.read(orders[g.seat])
        g.last_allocation = orders[g.seat]
        g.attack_used += al.attack_total  # §18.3, Q7
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
        mine: list[tuple[int, Area, int]] = []
        plan: dict[tuple[int, Area], Stroke] = {}
        if g.style:  # §20.9.2, §21, §23.2 (F10): each attack's weapon, per target
            for t in dict.fromkeys(t for t, _, _ in al.attacks):
                areas = [a for tt, a, _ in al.attacks if tt == t]
                for a, s in zip(
                    areas, strokes(g, state.gladiators[t], len(areas), state.options), strict=True
                ):
                    plan[(index[t], a)] = s
        halved: list[str] = []
        for t, area, cf in al.attacks:
            target = state.gladiators[t]
            why = [
                w
                for w, on in (
                    ("kneeling (§14.3)", g.posture == "kneeling"),
                    ("a weapon just recovered (§13.4.2)", g.recovered_weapon),
                    (
                        f"legs of a kneeling {t} (§14.2)",
                        area == "legs" and target.posture == "kneeling",
                    ),
                )
                if on
            ]
            stroke = plan.get((index[t], area))
            why += [f"{w} ({rule})" for rule, w in (stroke.halvings if stroke else ())]
            for _ in why:
                cf //= 2
            if why:
                halved.append(f"{t}'s {area} {cf} ({'; '.join(why)})")
            if cf > 0:
                mine.append((index[t], area, cf))
        if halved:
            events.append(
                event(
                    "half_cf",
                    "§14.3",
                    f"{g.seat}'s attacks at half CF: " + ", ".join(halved),
                    seat=g.seat,
                )
            )
        attacks.append(mine)
        defences.append(al.defence)
        plans.append(plan)
        speeds.append(  # §36.3 FA (TL3)
            fast_attack(g, tuple(plan[(t, a)].speed for t, a, _ in mine)) if g.style else 0
        )
    # §27.3 (G4): a single gladiator yields to an adjacent opponent he is not attacking.
    engaged = {g.seat: sum(1 for x in gl if any(t == g.seat for t, _, _ in x.targets)) for g in gl}
    yields: dict[int, set[int]] = {}
    for i, y in enumerate(gl):
        if engaged[y.seat] < 2:
            continue
        hit = {t for t, _, _ in attacks[i]}
        yields[i] = {
            index[x.seat]
            for x in state.opponents(y.seat)
            if distance(x.hex, y.hex) == 1 and index[x.seat] not in hit and attacks[index[x.seat]]
        }
    combat: PhaseCombat

    def lose(g: Gladiator, item: ItemKind, drop: ItemDrop | None, cause: str) -> None:
        side = index[g.seat]
        lose_item(state, board_of(state), g, item, drop, cause, combat.events)
        combat.set_equipment(side, **{item: g.has_weapon if item == "weapon" else False})
        if item == "weapon":  # E4, F5
            combat.cancel_attacks(side, "weapon dropped", "§13.1")

    def after_hit(side: int) -> None:
        d = gl[side]
        if d.alive and (d.sheet.killed or d.crits.killed):
            d.alive = False
            d.cause = "killed in combat"
            combat.cancel_attacks(side, "he is dead", "§10.3.2")
            combat.cancel_attacks_on(side, f"{d.seat} is dead", "§10.3.2")
        elif d.sheet.unconscious:
            check_unconscious(d, combat.events)
            combat.cancel_attacks(side, "he is unconscious", "§11.4")

    def on_hit(attacker: int, defender: int, area: Area, result: CrtOutcome) -> int:
        a, d = gl[attacker], gl[defender]
        stroke = plans[attacker].get((defender, area))
        if stroke is not None and stroke.blow.weapon is None:  # §23 (F15, F16)
            lost = unarmed_strike(
                state,
                a,
                d,
                area,
                result,
                dice,
                combat.events,
                lose,
                lambda n: combat.charge(attacker, n),
            )
        else:
            blow = stroke.blow if stroke is not None else None
            lost = strike(state, a, d, area, result, dice, combat.events, lose, blow)
        after_hit(defender)
        if a.style:  # a parried fist can wound the attacker himself (§23.2.1)
            after_hit(attacker)
        return lost

    def no_defence(attacker: int, defender: int) -> bool:  # §27.4 (G5)
        d = gl[defender]
        return engaged[d.seat] > 1 and in_rear_hexes(gl[attacker], d)

    def shift(attacker: int, defender: int, area: Area) -> tuple[str, Mapping[str, str]] | None:
        s = plans[attacker].get((defender, area))
        return s.changes if s is not None else None

    combat = PhaseCombat(
        [
            Plan(tuple(Attack(t, a, cf) for t, a, cf in mine), tuple(defence))
            for mine, defence in zip(attacks, defences, strict=True)
        ],
        dice,
        on_hit,
        names=[g.seat for g in gl],
        speeds=speeds,
        has_weapon=[g.has_weapon for g in gl],
        has_shield=[g.has_shield and not g.sheet.shield_useless for g in gl],
        crt=state.options["crt"],
        yields=yields,
        no_defence=no_defence,
        drm=lambda a, d, area: max(0, -gl[d].sheet.current_cf),  # §10.3.3.1
        shift=shift,
    )
    events.extend(combat.run())
