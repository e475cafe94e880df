"""The talents that act in the combat step (§36.3): Fast Attack (FA, §9.4.5), Weapon Mastery (MS),
Unarmed Style (SU, §23, in weapon_combat.strokes) and Find Weakness (FW, Q49) with its allocation
slots and its notation (its place in the attack rounds is combat/weakness.py's).

RULINGS (docs/rulings.md, Colosseum Campaign Game, the TL series)

TL3 §36.3 FA, §9.4.5: −1 Spd on his first attack of the phase, the first in his own order (Q25)
    that survives the halvings (E3, F10), with his weapon's Spd; the round is clamped to 1-5 as
    every Spd is (combat/sequence.py), so a lone attack already in round 1 gains nothing. In a
    team match, his first attack whatever its target.
TL4 §36.3 MS: "+3 CF with one weapon" is read as the pair's CF bonus is (§24.2, F9): +3 to his
    CFs available (§9.3.1) in every combat phase in which the mastered weapon is in his hand,
    for attack or defence alike; once, however many attacks he makes with it. A mastered
    weapon he has dropped, thrown or broken gives nothing.
TL5 §36.3 SU, §23.2: trained unarmed, his fists strike at full CF and with no +1 Spd; everything
    else of §23 (who he may reach, what a result does) stays.
TL6 §36.3 FW, Q49 (Advanced Game duel; not yet in a team match or a beast hunt): he marks one
    planned attack as given up, written `A3:chest/FW` (slot `A-CHEST-FW:3`). It is an attack
    like the others for T10 (its round, his number of attacks), for §10.3.3 and for §18.3, but
    when its turn comes nothing is rolled on the CRT: its CFs are lost, and he rolls 1D3 − 1 +
    ⌊TR/4⌋ (his TR on the sheet), which comes off the defence of the next area of the enemy he
    attacks this phase (his next attack read, a Feint's counter included), as far below 0 as it
    goes (§9.4.7). A given-up attack cut to nothing (§9.4.6) or cancelled (a fumble, §9.6)
    before its turn finds nothing; a finding with no attack of his after it is lost. One a
    phase.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from gladiator.core.decisions import Slot, SlotGroup
from gladiator.rules.colosseum.combat.cf_allocation import (
    MAX_ATTACK_CF_PER_AREA,
)
from gladiator.rules.colosseum.combat.orders import AllocationChoice
from gladiator.rules.colosseum.combat.weakness import Weakness
from gladiator.rules.colosseum.kit.talents import FIND_WEAKNESS, MASTERY_CF, has, mastered
from gladiator.rules.colosseum.setup.roster import roster_of
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.vocabulary import AREAS, Area

__all__ = [
    "Weakness",
    "fast_attack",
    "mastery_bonus",
    "weakness_choice",
    "weakness_of",
]


def fast_attack(g: Gladiator, speeds: int | tuple[int, ...]) -> int | tuple[int, ...]:
    """TL3: his first attack's Spd one less (Fast Attack)."""
    if not has(g, "FA") or isinstance(speeds, int) or not speeds:
        return speeds
    return (speeds[0] - 1, *speeds[1:])


def mastery_bonus(g: Gladiator) -> int:
    """TL4: +3 CF while the weapon he has mastered is in his hand."""
    w = mastered(g)
    return MASTERY_CF if w is not None and w in g.weapons else 0


# --- Find Weakness: the allocation (TL6) ----------------------------------------------------------


def weakness_choice(state: ColosseumState, g: Gladiator, d: AllocationChoice) -> AllocationChoice:
    """TL6: the allocation with a slot per attack box for the attack he gives up (FW):
    `A-<AREA>-FW`, or `A-<SEAT>-<AREA>-FW` where attacks name their targets."""
    if not has(g, FIND_WEAKNESS) or not g.may_attack or roster_of(state.options).beasts:
        return d
    caps = dict(zip(d.targets, d.caps, strict=True))
    aims = [(f"{t.upper()}-", min(caps[t], d.budget)) for t in d.targets] if d.named else []
    aims = aims or [("", min(MAX_ATTACK_CF_PER_AREA, d.budget))]
    slots = tuple(
        Slot(f"A-{who}{a.upper()}-FW", top, label=f"Find Weakness: give up this attack, {a}")
        for who, top in aims
        if top >= 1
        for a in AREAS
    )
    if not slots:
        return d
    attack_max = max(s.maximum for s in slots)
    groups = list(d.groups)
    for area, slot in zip(AREAS, slots, strict=False) if not d.named else ():
        plain = f"A-{area.upper()}"
        i = next(
            (k for k, gr in enumerate(groups) if plain in gr.slots and gr.max_used == 1),
            None,
        )
        if i is None:
            groups.append(
                SlotGroup(
                    (plain, slot.name), attack_max, f"§9.4.1: one attack on the {area}", "", 1
                )
            )
        else:
            groups[i] = replace(groups[i], slots=(*groups[i].slots, slot.name))
    groups.append(
        SlotGroup(
            tuple(s.name for s in slots), attack_max, "§36.3: one attack given up a phase", "", 1
        )
    )
    mark = "A-<SEAT>-<AREA>-FW" if d.named else "A-<AREA>-FW"
    return replace(
        d,
        prompt=d.prompt + f"; Find Weakness: mark one attack {mark} to give it up (§36.3)",
        slots=(*d.slots, *slots),
        groups=tuple(groups),
    )


# --- Find Weakness: the attack rounds (TL6) -------------------------------------------------------


def weakness_of(g: Gladiator, area: Area | None, order: Sequence[Area]) -> Weakness | None:
    """TL6: his given-up attack, if he has FW, marked one and it survived the halvings."""
    if area is None or not has(g, FIND_WEAKNESS) or area not in order:
        return None
    return Weakness(area, g.sheet.tr // 4)
