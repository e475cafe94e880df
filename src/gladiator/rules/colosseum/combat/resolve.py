"""The allocations revealed and the attack rounds (§9.4-§9.6, §27.3-§27.4, §28.6), for every
figure of the match: each man's order read against the decision he was given, §22's letters
shown, the halvings (halvings.py); each beast's attacks rolled by the §28 tables (B7); the
net's escapes and drags before the rounds (§20.5.5, N11); then the rounds (strikes.py).
"""

from __future__ import annotations

from collections.abc import Mapping

from gladiator.core.dice import Dice
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.beasts.beast_combat import beast_attacks, nearest_part
from gladiator.rules.colosseum.combat.allocation import allocation_choice
from gladiator.rules.colosseum.combat.engage import armed, named
from gladiator.rules.colosseum.combat.halvings import Aimed, halve
from gladiator.rules.colosseum.combat.net_combat import resolve_escapes
from gladiator.rules.colosseum.combat.orders import AllocationChoice
from gladiator.rules.colosseum.combat.sequence import Attack, Plan
from gladiator.rules.colosseum.combat.specials import guard_results, special_events
from gladiator.rules.colosseum.combat.strikes import run_rounds
from gladiator.rules.colosseum.combat.talent_combat import fast_attack, weakness_of
from gladiator.rules.colosseum.combat.weakness import Weakness
from gladiator.rules.colosseum.combat.weapon_combat import Blow, Stroke, strokes
from gladiator.rules.colosseum.combat.written import Written
from gladiator.rules.colosseum.events import event
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.vocabulary import Area

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
        foe = state.gladiators[seat]
        reached = nearest_part(foe, g) if foe.beast is not None else foe  # B6
        made = strokes(g, reached, len(where), state.options)
        hand = armed(g, foe)
        for i, stroke in zip(where, made, strict=True):
            a = out[i]
            if not hand:  # S10: only Sand flies where his weapon does not reach, from his hand
                stroke = Stroke(Blow(None), 0)
            out[i] = Aimed(a.target, a.area, a.cf, a.special, stroke)
    return out


def resolve_combat(
    state: ColosseumState, orders: Mapping[str, str], dice: Dice, events: list[Event]
) -> None:
    """§9.4-§9.6 with §10-§13 and §28.6: each man's allocation revealed, then each beast's
    attacks rolled (B7), the net's escapes and drags, the rounds; the caller ends the phase."""
    figures = list(state.gladiators.values())
    index = {f.seat: i for i, f in enumerate(figures)}
    plans = [Plan() for _ in figures]
    stroke_of: list[dict[tuple[int, Area], Stroke]] = [{} for _ in figures]
    speeds: list[int | tuple[int, ...]] = [0 for _ in figures]
    weakness: list[Weakness | None] = [None for _ in figures]
    nets: dict[str, dict[str, int]] = {}
    for i, g in enumerate(figures):
        if g.beast is not None:
            continue
        w = _reveal(state, g, orders[g.seat], events)
        nets[g.seat] = w.nets
        kept, shown = halve(g, _aimed(state, g, w), named(state))
        if shown is not None:
            events.append(shown)
        plans[i] = Plan(
            tuple(Attack(index[a.target.seat], a.area, a.cf, a.special) for a in kept),
            w.allocation.defence,
            w.allocation.special_defence,
        )
        stroke_of[i] = {(index[a.target.seat], a.area): a.stroke for a in kept if a.stroke}
        if g.style and kept:  # §36.3 FA (TL3)
            speeds[i] = fast_attack(g, tuple(a.stroke.speed for a in kept if a.stroke))
        weakness[i] = weakness_of(g, w.given_up, [a.area for a in kept])  # TL6
    for i, b in enumerate(figures):
        if b.beast is not None and b.may_attack:  # B7: every attack at the man it bites
            man = next(index[m.seat] for m in state.opponents(b.seat))
            plans[i] = Plan(tuple(Attack(man, a, cf) for a, cf in beast_attacks(b, dice, events)))
    advanced = bool(state.options.get("advanced"))
    if advanced and resolve_escapes(state, nets, dice, events):  # §20.5.5 (N11)
        return  # dragged down at the Retiarius's mercy: the Moment of Truth took the phase
    run_rounds(state, figures, plans, stroke_of, speeds, weakness, dice, events)


def _reveal(state: ColosseumState, g: Gladiator, order: str, events: list[Event]) -> Written:
    """§9.4.1: his allocation revealed, its §22 letters shown; what he used counts (§18.3)."""
    w = _read(state, g, order)
    al = w.allocation
    g.last_allocation = order
    g.attack_used += sum(al.attack)  # §18.3, Q7
    g.defence_used += sum(al.defence)
    events.append(
        event("allocation", "§9.4.1", f"{g.seat} reveals {order}", seat=g.seat, allocation=order)
    )
    if al.special_attack is not None or al.special_defence is not None:  # §22
        cf = al.attack_on(al.special_attack[0]) if al.special_attack else 0
        guards = guard_results(state)
        events.extend(special_events(g, al.special_attack, cf, al.special_defence, guards))
    return w
