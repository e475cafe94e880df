"""The combat step of a phase (§5.2.6, §9): who may attack, the forced rotation, positional
advantage and the CFs available (§9.1-§9.3.1), the secret allocation (§9.3) and the five attack
rounds (§9.4-§9.6) with §10-§13 through `hits.strike`.

RULINGS (engine level, the E series of docs/rulings.md)

E1  §9.1.2: the defender is turned to face an opponent who *may* attack him, before allocation,
    since the allocation is written with the facings it is made for. The attacker's PA is worked
    out before the turn; the one turned gets no PA (§9.2).
E2  §9.3.1, §15.5, §16.3: CFs available = current CF + PA − Stun, −2 while performing a Stumble;
    a Prone gladiator (who cannot attack, §16.3) defends with half of it, fractions dropped.
E3  §14.2, §14.3: a Kneeling gladiator's attacks, and attacks on a Kneeling gladiator's legs, are
    made at half the CF allocated (fractions dropped; an attack halved to 0 is none). The CF
    allocated still count for §18.3.
E4  A gladiator without a weapon may not attack (in the Advanced Game he may, unarmed, §23:
    weapon_combat.py F8, unarmed.py F15-F16). After
    movement he tries to pick up what he lacks when it lies within one hex (§13.4: always tries,
    since trying costs nothing; R, offered then, is the careful −6 try; a battered shield is
    left). Kicks (§13.5) and throws (§13.3) are written with the plot: items.py, I1-I9.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from gladiator.core.decisions import Distribute, SlotGroup
from gladiator.core.dice import Dice
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.board import board_of
from gladiator.rules.colosseum.campaign_prestige import prestige_bonus
from gladiator.rules.colosseum.cf_allocation import (
    Allocation,
    allocation_decision,
    parse_allocation,
)
from gladiator.rules.colosseum.combat.rounds import PhaseCombat
from gladiator.rules.colosseum.combat.sequence import duel_plans
from gladiator.rules.colosseum.combat_geometry import (
    forced_rotation,
    may_attack,
    positional_advantage,
)
from gladiator.rules.colosseum.crt import CrtOutcome
from gladiator.rules.colosseum.events import event
from gladiator.rules.colosseum.hits import strike
from gladiator.rules.colosseum.items import (
    lose_item,
)
from gladiator.rules.colosseum.net_combat import (
    net_allocation,
    net_step,
    resolve_escapes,
    split_net_allocation,
)
from gladiator.rules.colosseum.options import SEAT_NAMES
from gladiator.rules.colosseum.orders import AllocationChoice
from gladiator.rules.colosseum.plots import (
    ItemKind,
)
from gladiator.rules.colosseum.postures import check_unconscious
from gladiator.rules.colosseum.specials import (
    guard_results as guards,
)
from gladiator.rules.colosseum.specials import (
    special_events,
    special_hit,
    special_offer,
    specials_on,
)
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.talent_combat import (
    fast_attack,
    mastery_bonus,
    split_weakness,
    weakness_choice,
    weakness_of,
)
from gladiator.rules.colosseum.unarmed import unarmed_strike
from gladiator.rules.colosseum.vocabulary import AREAS, Area
from gladiator.rules.colosseum.weapon_combat import Stroke, cf_bonus, front_region, reaches, strokes
from gladiator.rules.colosseum.wounds import (
    ItemDrop,
)

STUMBLE_CF_PENALTY = 2  # §15.5


def _able(x: Gladiator, y: Gladiator) -> bool:
    """§9.1, §16.3, E4: x may attack y now (his weapons' reach, or unarmed: F8)."""
    return (
        x.alive
        and y.alive
        and not x.sheet.unconscious
        and may_attack(x.pose, y.pose, region=front_region(x), attacker_prone=x.posture == "prone")
        and reaches(x, y)
    )


def _pa(x: Gladiator, y: Gladiator) -> int:
    """§9.2, T11, §9.2.1: x's PA attacking y."""
    return positional_advantage(
        x.pose,
        y.pose,
        left_handed=y.left_handed,
        stumbling=y.stumbling,
        prone=y.posture == "prone",
        ensnared=bool(y.ensnared),  # §9.2.1.3
    )


def prepare_combat(state: ColosseumState, events: list[Event]) -> bool:
    """§5.2.6.1, §9.1-§9.3.1: who may attack, forced rotation, PA and the CFs available."""
    a, b = state.gladiators[SEAT_NAMES[0]], state.gladiators[SEAT_NAMES[1]]
    for g in (a, b):
        g.may_attack, g.pa, g.available = False, 0, 0
    ca, cb = _able(a, b), _able(b, a)
    if not ca and not cb and not net_step(state):  # N10: an ensnared man may try to escape
        return False
    if ca and cb:  # §9.1.3: each in the other's front, nobody turns
        a.pa, b.pa = _pa(a, b), _pa(b, a)
    elif ca or cb:
        x, y = (a, b) if ca else (b, a)
        rot = forced_rotation(
            x.pose,
            y.pose,
            region=front_region(x),  # F8
            defender_region=front_region(y),
            left_handed=y.left_handed,
            stumbling=y.stumbling,
            prone=y.posture == "prone",
            ensnared=bool(y.ensnared),  # §9.2.1.3
        )
        x.pa = rot.attacker_pa
        if rot.turns:  # §9.1.2 (E1)
            y.facing = rot.facing
            events.append(
                event(
                    "forced_rotation",
                    "§9.1.2",
                    f"{y.seat} turns to face {x.seat} (facing {y.facing}); {x.seat} keeps "
                    f"his PA {x.pa}",
                    seat=y.seat,
                    facing=y.facing,
                )
            )
        if _able(y, x):
            y.pa = _pa(y, x) if rot.defender_pa_allowed else 0
    for g, o in ((a, b), (b, a)):
        g.may_attack = _able(g, o)
        avail, notes = cfs_available(g, (o,))
        g.available = avail
        events.append(
            event(
                "available",
                "§9.3.1",
                f"{g.seat}: {', '.join(notes)} → {avail} CF available"
                + ("" if g.may_attack else "; he may not attack"),
                seat=g.seat,
                available=avail,
                may_attack=g.may_attack,
            )
        )
    return True


def cfs_available(g: Gladiator, foes: Sequence[Gladiator] = ()) -> tuple[int, list[str]]:
    """§9.3.1 (E2): his CFs available with his PA as set, and how they were reached: plus his PB
    with one of `foes` in his combat front (§35.4.2, X4), less 2 for a Stumble (§15.5), plus a
    pair's bonus (§24.2, F9), less a net attack's cost (§20.3.2, §9.3.2.2), halved if Prone
    (§16.3)."""
    avail = g.sheet.available_cf(g.pa)
    notes = [f"CF {g.sheet.current_cf}", f"PA {g.pa:+d}", f"Stun −{g.sheet.stun_in_effect}"]
    pb = prestige_bonus(g, foes)  # §35.4.2 (X4): 0 but in the Campaign Game
    if pb:
        avail += pb
        notes.append(f"PB +{pb} (§35.4.2)")
    if g.stumbling:  # §15.5
        avail -= STUMBLE_CF_PENALTY
        notes.append("stumbling −2 (§15.5)")
    bonus, rule = cf_bonus(g)  # §24.2 (F9)
    if bonus:
        avail += bonus
        notes.append(f"two weapons +{bonus} ({rule})")
    mastery = mastery_bonus(g)  # §36.3 MS (TL4)
    if mastery:
        avail += mastery
        notes.append(f"Weapon Mastery +{mastery} (§36.3)")
    if g.net_cf:  # §20.3.2, §9.3.2.2: the net attack made this phase
        avail -= g.net_cf
        notes.append(f"net attack −{g.net_cf} (§20.3.2)")
    if g.posture == "prone":  # §16.3 (E2)
        avail = max(avail, 0) // 2
        notes.append("Prone: half, defence only (§16.3)")
    return avail, notes


# -- the allocation decision (§9.3) ---------------------------------------------------------------
def allocation_choice(g: Gladiator, state: ColosseumState | None = None) -> Distribute:
    """§9.3: his CFs available over attacks and defences; none to attacks if he may not attack
    (§9.1), and none of his PA to defence (§10.3.3); in the Advanced Game, with `state`, his
    special attacks and defences (§22, specials.py) and the net's escape and drag slots
    (§20.5.5, net_combat.py)."""
    # §10.3.3: "CFs awarded for positional advantage must be used for attack".
    defence_cap = max(0, g.available - g.pa) if g.pa > 0 else None
    d = allocation_decision(
        g.available,
        prompt=f"{g.seat}: allocate up to {max(g.available, 0)} CF to attack and defence (§9.3)"
        + ("" if g.may_attack else "; you may not attack this phase (§9.1)")
        + ("" if defence_cap is None else f"; at most {defence_cap} to defence (§10.3.3)"),
    )
    slots = d.slots
    if not g.may_attack:
        slots = tuple(replace(s, maximum=0) if s.name.startswith("A-") else s for s in slots)
    groups: tuple[SlotGroup, ...] = ()
    refused: tuple[tuple[str, str], ...] = ()
    if state is not None and specials_on(state):  # §22
        offer = special_offer(
            g, state.opponent(g.seat), d.budget, d.budget if defence_cap is None else defence_cap
        )
        slots = (*slots, *offer.slots)
        groups = tuple(offer.groups)
        refused = tuple(offer.refused)
    if defence_cap is not None:
        defences = tuple(s.name for s in slots if s.name.startswith("D-"))
        why = "§10.3.3: CFs from positional advantage must be used for attack"
        groups = (SlotGroup(defences, defence_cap, why, "defence"), *groups)
    choice = AllocationChoice(
        prompt=d.prompt,
        secret=True,
        budget=d.budget,
        slots=slots,
        exact=d.exact,
        max_used=d.max_used,
        groups=groups,
        refused=refused,
    )
    if state is not None and state.options.get("advanced"):
        return weakness_choice(state, g, net_allocation(state, g, choice))  # §36.3 FW (TL6)
    return choice


def resolve_allocations(
    state: ColosseumState, orders: Mapping[str, str], dice: Dice, events: list[Event]
) -> None:
    """§9.4-§9.6 with §10-§13 through `on_hit`; the caller ends the phase."""
    gl = [state.gladiators[s] for s in SEAT_NAMES]
    allocs: list[Allocation] = []
    plans: list[dict[Area, Stroke]] = [{}, {}]  # each attack's weapon (Advanced Game, F9)
    nets: dict[str, dict[str, int]] = {}  # §20.5.5: ESCAPE and DRAG CFs (net_combat.py)
    given_up: list[Area | None] = [None, None]  # §36.3 FW (TL6): the attack he gives up
    for i, g in enumerate(gl):
        written = orders[g.seat]
        if state.options.get("advanced"):
            written, nets[g.seat] = split_net_allocation(written)
            if g.talents:
                written, given_up[i] = split_weakness(written)
        al = parse_allocation(written, g.available)
        g.last_allocation = orders[g.seat]
        g.attack_used += sum(al.attack)  # §18.3, Q7
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
        if al.special_attack is not None or al.special_defence is not None:  # §22
            cf = al.attack_on(al.special_attack[0]) if al.special_attack else 0
            events.extend(
                special_events(g, al.special_attack, cf, al.special_defence, guards(state))
            )
        other = gl[1 - i]
        attack = list(al.attack)
        # §14.3 (E3), §13.4.2, §14.2; several halvings multiply (Q26: a kneeling man's first
        # phase with a recovered weapon strikes at a quarter).
        halvings = [
            (rule, why)
            for rule, why, on in (
                ("§14.3", "kneeling", g.posture == "kneeling"),
                ("§13.4.2", "a weapon just recovered", g.recovered_weapon),
            )
            if on
        ]
        for _ in halvings:
            attack = [v // 2 for v in attack]
        legs = AREAS.index("legs")
        if other.posture == "kneeling":  # §14.2
            attack[legs] //= 2
            halvings.append(("§14.2", f"legs of a kneeling {other.seat}"))
        if g.style:  # §20.9.2, §21, §23.2 (F10): each attack's own weapon halves it
            plan = strokes(g, other, len(al.order), state.options)
            plans[i] = dict(zip(al.order, plan, strict=True))
            for area, stroke in plans[i].items():
                for why in stroke.halvings:
                    attack[AREAS.index(area)] //= 2
                    if why not in halvings:
                        halvings.append(why)
        if tuple(attack) != al.attack:
            events.append(
                event(
                    "half_cf",
                    ", ".join(rule for rule, _ in halvings),
                    f"{g.seat}'s attacks at half CF ({'; '.join(why for _, why in halvings)}): "
                    + " ".join(f"{a}:{v}" for a, v in zip(AREAS, attack, strict=True) if v),
                    seat=g.seat,
                )
            )
            # The Basic Game lists the halved attacks by area; a style keeps his order (Q25).
            order = tuple(a for a in al.order if attack[AREAS.index(a)]) if g.style else ()
            special = al.special_attack  # §22.2: a special halved to nothing is no attack
            if special is not None and not attack[AREAS.index(special[0])]:
                special = None
            al = Allocation(
                al.available,
                tuple(attack),
                al.defence,
                order,
                special_attack=special,
                special_defence=al.special_defence,
            )
        allocs.append(al)
    if nets and resolve_escapes(state, nets, dice, events):  # §20.5.5 (N11)
        return  # dragged down at the Retiarius's mercy: the Moment of Truth took the phase
    combat: PhaseCombat

    def lose(g: Gladiator, item: ItemKind, drop: ItemDrop | None, cause: str) -> None:
        side = gl.index(g)
        lose_item(state, board_of(state), g, item, drop, cause, events_sink)
        # A carried weapon may come to hand at once (F5): he parries with it.
        combat.set_equipment(side, **{item: g.has_weapon if item == "weapon" else False})
        if item == "weapon":  # E4, F5: no more attacks this phase
            combat.cancel_attacks(side, "weapon dropped", "§13.1")

    def after_hit(side: int) -> None:
        d = gl[side]
        if d.alive and (d.sheet.killed or d.crits.killed):
            d.alive = False
            d.cause = "killed in combat"
            combat.cancel_attacks(side, "he is dead", "§10.3.2")
            combat.cancel_attacks(1 - side, "his opponent is dead", "§10.3.2")
        elif d.sheet.unconscious:
            check_unconscious(d, events_sink)
            combat.cancel_attacks(side, "he is unconscious", "§11.4")

    def on_hit(attacker: int, defender: int, area: Area, result: CrtOutcome) -> int:
        a, d = gl[attacker], gl[defender]
        stroke = plans[attacker].get(result.counter_of or area)  # S4: a counter, the Feint's
        blow = stroke.blow if stroke is not None else None
        special = (
            special_hit(
                state, a, d, area, result, dice, events_sink, lose, blow, combat, attacker, defender
            )
            if result.special
            else None
        )
        if special is not None:  # §22.2
            lost = special
        elif stroke is not None and stroke.blow.weapon is None:  # §23 (F15, F16)
            lost = unarmed_strike(
                state,
                a,
                d,
                area,
                result,
                dice,
                events_sink,
                lose,
                lambda n: combat.charge(attacker, n),
            )
        else:
            lost = strike(state, a, d, area, result, dice, events_sink, lose, blow)
        after_hit(defender)
        if a.style:  # a parried fist can wound the attacker himself (§23.2.1)
            after_hit(attacker)
        return lost

    combat = PhaseCombat(
        duel_plans(allocs),
        dice,
        on_hit,
        speeds=[
            fast_attack(g, tuple(p[a].speed for a in al.order)) if p else 0  # §36.3 FA (TL3)
            for g, p, al in zip(gl, plans, allocs, strict=True)
        ],
        shift=lambda side, _, area: s.changes if (s := plans[side].get(area)) else None,
        names=SEAT_NAMES,
        has_weapon=(gl[0].has_weapon, gl[1].has_weapon),
        has_shield=(
            gl[0].has_shield and not gl[0].sheet.shield_useless,
            gl[1].has_shield and not gl[1].sheet.shield_useless,
        ),
        crt=state.options["crt"],
        # §10.3.3.1: while his CF is below 1, every attack against him subtracts it.
        # §20.5.5.1 (Q31): the Net Loss box of a man who has just escaped.
        drm=lambda a, d, area: max(0, -gl[d].sheet.current_cf) + gl[d].net_loss,
        guard_results=guards(state) if specials_on(state) else None,
        weakness=[weakness_of(g, given_up[i], allocs[i].order) for i, g in enumerate(gl)],
    )
    # What a hit does goes into the phase's event stream at the point it happens.
    events_sink = combat.events
    events.extend(combat.run())
