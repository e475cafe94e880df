"""The allocations revealed and the attack rounds (§9.4-§9.6, §27.3-§27.4), for any number of
gladiators: each order read against the decision he was given, §22's letters shown, the
halvings (halvings.py), the net's escapes and drags before the rounds (§20.5.5, N11), then
`PhaseCombat` with §10-§13 through `strike`, §22.2's special results and §23's fists.
"""

from __future__ import annotations

from collections.abc import Mapping

from gladiator.core.dice import Dice
from gladiator.core.hexgrid import distance
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.board import board_of
from gladiator.rules.colosseum.combat.allocation import allocation_choice
from gladiator.rules.colosseum.combat.engage import in_rear_hexes, named
from gladiator.rules.colosseum.combat.halvings import Aimed, halve
from gladiator.rules.colosseum.combat.rounds import PhaseCombat
from gladiator.rules.colosseum.combat.sequence import Attack, Plan
from gladiator.rules.colosseum.combat.weakness import Weakness
from gladiator.rules.colosseum.combat.written import Written
from gladiator.rules.colosseum.crt import CrtOutcome
from gladiator.rules.colosseum.events import event
from gladiator.rules.colosseum.hits import strike
from gladiator.rules.colosseum.items import lose_item
from gladiator.rules.colosseum.net_combat import resolve_escapes
from gladiator.rules.colosseum.orders import AllocationChoice
from gladiator.rules.colosseum.plots import ItemKind
from gladiator.rules.colosseum.postures import check_unconscious
from gladiator.rules.colosseum.specials import guard_results, special_events, special_hit
from gladiator.rules.colosseum.specials import specials_on as specials_played
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.talent_combat import fast_attack, weakness_of
from gladiator.rules.colosseum.unarmed import unarmed_strike
from gladiator.rules.colosseum.vocabulary import Area
from gladiator.rules.colosseum.weapon_combat import Stroke, strokes
from gladiator.rules.colosseum.wounds import ItemDrop

__all__ = ["resolve_combat"]


def _read(state: ColosseumState, g: Gladiator, order: str) -> Written:
    choice = allocation_choice(g, state)
    assert isinstance(choice, AllocationChoice)
    return choice.read(order)


def _aimed(state: ColosseumState, g: Gladiator, w: Written) -> list[Aimed]:
    """His attacks in his order, each with its target and (with a style) its weapon's stroke
    (F10; a pair's weapons turn about against each target, F9)."""
    al = w.allocation
    special = al.special_attack
    out = [
        Aimed(
            state.gladiators[w.target_of[area]] if w.target_of else state.opponent(g.seat),
            area,
            cf,
            special[1] if special is not None and special[0] == area else "",
        )
        for area, cf in al.attacks
    ]
    if not g.style:
        return out
    by_target: dict[str, list[int]] = {}
    for i, a in enumerate(out):
        by_target.setdefault(a.target.seat, []).append(i)
    for seat, where in by_target.items():
        made = strokes(g, state.gladiators[seat], len(where), state.options)
        for i, stroke in zip(where, made, strict=True):
            a = out[i]
            out[i] = Aimed(a.target, a.area, a.cf, a.special, stroke)
    return out


def resolve_combat(
    state: ColosseumState, orders: Mapping[str, str], dice: Dice, events: list[Event]
) -> None:
    """§9.4-§9.6 with §10-§13; the caller ends the phase."""
    gl = [g for g in state.gladiators.values() if g.beast is None]
    index = {g.seat: i for i, g in enumerate(gl)}
    many = named(state)
    plans: list[Plan] = []
    stroke_of: list[dict[tuple[int, Area], Stroke]] = []
    speeds: list[int | tuple[int, ...]] = []
    weakness: list[Weakness | None] = []
    nets: dict[str, dict[str, int]] = {}
    for g in gl:
        w = _read(state, g, orders[g.seat])
        al = w.allocation
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
            guards = guard_results(state)
            events.extend(special_events(g, al.special_attack, cf, al.special_defence, guards))
        nets[g.seat] = w.nets
        kept, shown = halve(g, _aimed(state, g, w), many)
        if shown is not None:
            events.append(shown)
        plans.append(
            Plan(
                tuple(Attack(index[a.target.seat], a.area, a.cf, a.special) for a in kept),
                al.defence,
                al.special_defence,
            )
        )
        stroke_of.append({(index[a.target.seat], a.area): a.stroke for a in kept if a.stroke})
        speeds.append(  # §36.3 FA (TL3)
            fast_attack(g, tuple(a.stroke.speed for a in kept if a.stroke))
            if g.style and kept
            else 0
        )
        weakness.append(weakness_of(g, w.given_up, [a.area for a in kept]))  # TL6
    advanced = bool(state.options.get("advanced"))
    if advanced and resolve_escapes(state, nets, dice, events):  # §20.5.5 (N11)
        return  # dragged down at the Retiarius's mercy: the Moment of Truth took the phase
    _rounds(state, gl, plans, stroke_of, speeds, weakness, dice, events)


def _yields(state: ColosseumState, gl: list[Gladiator], plans: list[Plan]) -> dict[int, set[int]]:
    """§27.3 (G4): a single gladiator yields to an adjacent opponent he is not attacking."""
    index = {g.seat: i for i, g in enumerate(gl)}
    engaged = {g.seat: sum(1 for x in gl if any(t == g.seat for t, _, _ in x.targets)) for g in gl}
    out: dict[int, set[int]] = {}
    for i, y in enumerate(gl):
        if engaged[y.seat] < 2:
            continue
        hit = {a.target for a in plans[i].attacks}
        out[i] = {
            index[x.seat]
            for x in state.opponents(y.seat)
            if x.seat in index
            and distance(x.hex, y.hex) == 1
            and index[x.seat] not in hit
            and plans[index[x.seat]].attacks
        }
    return out


def _rounds(
    state: ColosseumState,
    gl: list[Gladiator],
    plans: list[Plan],
    stroke_of: list[dict[tuple[int, Area], Stroke]],
    speeds: list[int | tuple[int, ...]],
    weakness: list[Weakness | None],
    dice: Dice,
    events: list[Event],
) -> None:
    """The attack rounds among them, what each result does through `on_hit`."""
    many = named(state)
    engaged = {g.seat: sum(1 for x in gl if any(t == g.seat for t, _, _ in x.targets)) for g in gl}
    combat: PhaseCombat

    def lose(g: Gladiator, item: ItemKind, drop: ItemDrop | None, cause: str) -> None:
        side = gl.index(g)
        lose_item(state, board_of(state), g, item, drop, cause, combat.events)
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
            dead = f"{d.seat} is dead" if many else "his opponent is dead"
            combat.cancel_attacks_on(side, dead, "§10.3.2")
        elif d.sheet.unconscious:
            check_unconscious(d, combat.events)
            combat.cancel_attacks(side, "he is unconscious", "§11.4")

    def on_hit(attacker: int, defender: int, area: Area, result: CrtOutcome) -> int:
        a, d = gl[attacker], gl[defender]
        stroke = stroke_of[attacker].get((defender, result.counter_of or area))  # S4: a Feint's
        blow = stroke.blow if stroke is not None else None
        special = (
            special_hit(
                state,
                a,
                d,
                area,
                result,
                dice,
                combat.events,
                lose,
                blow,
                combat,
                attacker,
                defender,
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
                combat.events,
                lose,
                lambda n: combat.charge(attacker, n),
            )
        else:
            lost = strike(state, a, d, area, result, dice, combat.events, lose, blow)
        after_hit(defender)
        if a.style:  # a parried fist can wound the attacker himself (§23.2.1)
            after_hit(attacker)
        return lost

    def no_defence(attacker: int, defender: int) -> bool:  # §27.4 (G5)
        d = gl[defender]
        return engaged[d.seat] > 1 and in_rear_hexes(gl[attacker], d)

    def shift(attacker: int, defender: int, area: Area) -> tuple[str, Mapping[str, str]] | None:
        s = stroke_of[attacker].get((defender, area))
        return s.changes if s is not None else None

    combat = PhaseCombat(
        plans,
        dice,
        on_hit,
        names=[g.seat for g in gl],
        speeds=speeds,
        has_weapon=[g.has_weapon for g in gl],
        has_shield=[g.has_shield and not g.sheet.shield_useless for g in gl],
        crt=state.options["crt"],
        # §10.3.3.1: while his CF is below 1, every attack against him subtracts it.
        # §20.5.5.1 (Q31): the Net Loss box of a man who has just escaped.
        drm=lambda a, d, area: max(0, -gl[d].sheet.current_cf) + gl[d].net_loss,
        shift=shift,
        guard_results=guard_results(state) if specials_played(state) else None,
        yields=_yields(state, gl, plans),
        no_defence=no_defence,
        weakness=weakness,
        named=many,
    )
    events.extend(combat.run())
