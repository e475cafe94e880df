"""The secret allocation decision (§5.2.6.2, §9.3), one for every gladiator whatever the match:
his CFs available over attack and defence boxes, with §22's special boxes, the net's ESCAPE and
DRAG (§20.5.5, net_combat.py) and Find Weakness (§36.3, talent_combat.py) where he may use them.

In a duel his attacks need no target. Where the match has more than two figures every attack
box names one of the men he may attack (§27.3.1), `A-<SEAT>-<AREA>`, with that man's specials
(a special's reach is measured to him, §22.2); the decision describes every limit it keeps:

G9  §9.4.1, §27.3.1: one attack box per body area, whatever its target (a group per area:
    at most one of its slots used).
G10 §27.5: at most one attack over 8 CF (a group over his attack slots: at most one used above
    8), each at most that target's cap.
"""

from __future__ import annotations

from dataclasses import replace

from gladiator.core.decisions import Distribute, Slot, SlotGroup
from gladiator.rules.colosseum.beasts.beast_combat import strikable
from gladiator.rules.colosseum.combat.cf_allocation import (
    MAX_ATTACK_CF_PER_AREA,
    allocation_decision,
)
from gladiator.rules.colosseum.combat.engage import armed, named
from gladiator.rules.colosseum.combat.net_combat import net_allocation
from gladiator.rules.colosseum.combat.orders import AllocationChoice
from gladiator.rules.colosseum.combat.specials import (
    attack_offer,
    defence_offer,
    special_offer,
    specials_on,
)
from gladiator.rules.colosseum.combat.talent_combat import weakness_choice
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.vocabulary import AREAS, Area

__all__ = ["allocation_choice"]

_PA_TO_ATTACK = "§10.3.3: CFs from positional advantage must be used for attack"


def allocation_choice(g: Gladiator, state: ColosseumState | None = None) -> Distribute:
    """§9.3: his CFs available over attacks and defences; none to attacks if he may not attack
    (§9.1), and none of his PA to defence (§10.3.3); in the Advanced Game, with `state`, his
    special attacks and defences (§22), the net's slots (§20.5.5) and Find Weakness (§36.3)."""
    choice = _one_target(g, state) if state is None or not named(state) else _named(g, state)
    if state is None or not state.options.get("advanced"):
        return choice
    netted = net_allocation(state, g, choice)  # §20.5.5
    assert isinstance(netted, AllocationChoice)
    choice = weakness_choice(state, g, netted)  # §36.3 FW (TL6)
    return _aim_groups(choice) if choice.named else choice


def _defence_cap(g: Gladiator) -> int | None:
    return max(0, g.available - g.pa) if g.pa > 0 else None  # §10.3.3


def _prompt(g: Gladiator, budget: int, aims: str = "") -> str:
    cap = _defence_cap(g)
    return (
        f"{g.seat}: allocate up to {budget} CF to attack and defence (§9.3)"
        + (f"; each attack names its target: {aims} (§27.3.1)" if aims else "")
        + ("" if g.may_attack else "; you may not attack this phase (§9.1)")
        + ("" if cap is None else f"; at most {cap} to defence (§10.3.3)")
    )


def _defence_group(slots: tuple[Slot, ...], g: Gladiator) -> tuple[SlotGroup, ...]:
    cap = _defence_cap(g)
    if cap is None:
        return ()
    defences = tuple(s.name for s in slots if s.name.startswith("D-"))
    return (SlotGroup(defences, cap, _PA_TO_ATTACK, "defence"),)


def _one_target(g: Gladiator, state: ColosseumState | None) -> AllocationChoice:
    """The duel's decision: one opponent, so no target is named."""
    d = allocation_decision(g.available, prompt=_prompt(g, max(g.available, 0)))
    foe = None if state is None else state.opponent(g.seat)
    hand = foe is None or armed(g, foe)  # S10: else only Sand reaches him
    open_ = {a.upper() for a in _areas(g, foe)} if g.may_attack and hand else set()
    slots = tuple(
        replace(s, maximum=0) if s.name.startswith("A-") and s.name[2:] not in open_ else s
        for s in d.slots
    )
    groups: tuple[SlotGroup, ...] = ()
    refused: tuple[tuple[str, str], ...] = ()
    if state is not None and specials_on(state):  # §22
        cap = _defence_cap(g)
        room = d.budget if cap is None else cap
        offer = special_offer(g, state.opponent(g.seat), d.budget, room, hand)
        slots = (*slots, *offer.slots)
        groups = tuple(offer.groups)
        refused = tuple(offer.refused)
    return AllocationChoice(
        prompt=d.prompt + _beasts_note(foe),
        secret=True,
        budget=d.budget,
        slots=slots,
        exact=d.exact,
        max_used=d.max_used,
        groups=(*_defence_group(slots, g), *groups),
        refused=refused,
    )


def _named(g: Gladiator, state: ColosseumState) -> AllocationChoice:
    """§27.3.1: an attack box per (man he may attack, area), each up to that man's cap (G10),
    with his specials against each (§22.2's reach is measured to him)."""
    budget = max(g.available, 0)
    hand = {t: armed(g, state.gladiators[t]) for t, _, _ in g.targets}  # S10: else Sand only
    open_ = {t: _areas(g, state.gladiators[t]) if hand[t] else () for t, _, _ in g.targets}
    slots = [
        Slot(f"A-{t.upper()}-{a.upper()}", min(cap, budget) if a in open_[t] else 0)
        for t, _, cap in g.targets
        for a in AREAS
    ]
    slots += [Slot(f"D-{a.upper()}", budget) for a in AREAS]
    groups: list[SlotGroup] = []
    refused: list[tuple[str, str]] = []
    if specials_on(state):  # §22
        cap = _defence_cap(g)
        room = budget if cap is None else cap
        guard = defence_offer(g, budget, room)  # whoever comes at him
        slots += guard.slots
        refused += guard.refused
        groups += guard.groups
        specials: list[str] = []
        for t, _, _ in g.targets:
            offer = attack_offer(g, state.gladiators[t], budget, hand[t])
            aimed = [replace(s, name=_aimed(s.name, t)) for s in offer.slots]
            slots += aimed
            specials += [s.name for s in aimed]
            refused += [(_aimed(n, t), why) for n, why in offer.refused]
        if len(specials) > 1:
            groups.append(
                SlotGroup(tuple(specials), budget, "§22.1: one special attack", max_used=1)
            )
    aims = ", ".join(t for t, _, _ in g.targets)
    beasts = [state.gladiators[t] for t, _, _ in g.targets]
    return AllocationChoice(
        prompt=_prompt(g, budget, aims) + _beasts_note(*beasts),
        secret=True,
        budget=budget,
        slots=tuple(slots),
        groups=(*_defence_group(tuple(slots), g), *groups),
        refused=tuple(refused),
        named=True,
        targets=tuple(t for t, _, _ in g.targets),
        caps=tuple(cap for _, _, cap in g.targets),
    )


def _areas(g: Gladiator, foe: Gladiator | None) -> tuple[Area, ...]:
    """The areas he may strike on him: any on a man, T24's on a beast (§28.6, B6)."""
    return AREAS if foe is None or foe.beast is None else strikable(foe, g)


def _beasts_note(*foes: Gladiator | None) -> str:
    if not any(f is not None and f.beast is not None for f in foes):
        return ""
    return " (against a beast: T24's areas)"


def _aimed(slot: str, target: str) -> str:
    """`A-HEAD-FEINT` aimed at blue: `A-BLUE-HEAD-FEINT` (a defence slot stays as it is)."""
    return f"A-{target.upper()}-{slot[2:]}" if slot.startswith("A-") else slot


def _aim_groups(d: AllocationChoice) -> AllocationChoice:
    """G9 and G10 as groups over every attack slot, whatever its target (the module's
    docstring)."""
    attacks = [s for s in d.slots if s.name.startswith("A-")]
    groups = [g for g in d.groups if not g.why.startswith("§9.4.1")]
    for area in AREAS:
        here = tuple(s.name for s in attacks if s.name.split("-")[2] == area.upper())
        if len(here) > 1:
            groups.append(SlotGroup(here, d.budget, f"§9.4.1: one attack on the {area}", "", 1))
    over = tuple(s.name for s in attacks if s.maximum > MAX_ATTACK_CF_PER_AREA)
    if len(over) > 1:
        why = "§27.5: only one attack may exceed 8 CF"
        groups.append(SlotGroup(over, d.budget, why, "", 1, above=MAX_ATTACK_CF_PER_AREA))
    return replace(d, groups=tuple(groups))
