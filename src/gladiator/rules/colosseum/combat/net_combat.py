"""The net in the combat step (§20.3.2, §20.5.4-§20.5.6; Advanced Game): the net attack's CFs out
of his CFs available, the ensnared man's allocation (defence and escape only), the Retiarius's
drag, and before the attack rounds the escape (Net Free, §3.15) and the drag (§20.5.5), whose
escape result is added to every attack on him this phase (Net Loss, §3.16, Q31).

The escape and drag CFs are written in the secret allocation as two more slots, `ESCAPE:n` and
`DRAG:n`, after the attacks and defences (`D3:chest ESCAPE:4`).

RULINGS (docs/rulings.md, the N series)

N10 §20.5.4, §5.2.6.1: while anyone is ensnared there is a combat step every phase (his escape
    and the drag are written in it) even if nobody may attack. The ensnared man's attack slots
    are closed; the Retiarius may write DRAG only while his net ensnares him (and he still holds
    it), the victim ESCAPE only while ensnared. Neither counts as attack or defence for §18.3.
N11 §20.5.5, §20.5.5.1, Q31: the escape is rolled first: 3D6 − escape CFs, below 7 he is free and
    max(result, 0) is added to every attack on him this phase; the net goes back to the hand that
    holds it, or falls in his hex if it was let go (N9). Written with no escape CF, no roll is
    made. If he is still ensnared and DRAG CFs were written, 3D6 + the Retiarius's ST + drag CFs
    above 17 drags him Prone; he is then at the Retiarius's mercy (§18, the Moment of Truth at
    once, in place of this phase's combat) if the Retiarius has a weapon in hand and a current
    CF of at least 1.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from gladiator.core.decisions import Distribute, Slot
from gladiator.core.dice import Dice
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.end.appeal import moment_of_truth
from gladiator.rules.colosseum.events import event
from gladiator.rules.colosseum.kit.nets import LOOSE, victim_of
from gladiator.rules.colosseum.movement.postures import fall_prone
from gladiator.rules.colosseum.state import ColosseumState, Gladiator, GroundItem
from gladiator.rules.colosseum.tables.advanced_tables import advanced_tables

__all__ = [
    "DRAG",
    "ESCAPE",
    "net_allocation",
    "net_step",
    "resolve_escapes",
    "split_net_allocation",
]

ESCAPE = "ESCAPE"  # the centurion bot's name for it too (C11)
DRAG = "DRAG"
_TOKEN = re.compile(rf"^({ESCAPE}|{DRAG})[:=](\d+)$", re.IGNORECASE)


def split_net_allocation(text: str) -> tuple[str, dict[str, int]]:
    """The A/D part of an allocation and its ESCAPE and DRAG CFs."""
    rest: list[str] = []
    net: dict[str, int] = {}
    for word in text.replace(",", " ").split():
        m = _TOKEN.match(word)
        if m is None:
            rest.append(word)
        else:
            net[m.group(1).upper()] = net.get(m.group(1).upper(), 0) + int(m.group(2))
    return " ".join(rest) or "-", net


def net_step(state: ColosseumState) -> bool:
    """N10: whether the net asks for a combat step even if nobody may attack."""
    return bool(state.options.get("advanced")) and any(
        g.ensnared and g.alive for g in state.gladiators.values()
    )


def net_allocation(state: ColosseumState, g: Gladiator, d: Distribute) -> Distribute:
    """§20.5.4, §20.5.5 (N10): the allocation decision with the net's slots."""
    slots = d.slots
    extra: list[Slot] = []
    notes: list[str] = []
    if g.ensnared:
        slots = tuple(replace(s, maximum=0) if s.name.startswith("A-") else s for s in slots)
        extra.append(Slot(ESCAPE, d.budget))
        notes.append("ensnared: defence and ESCAPE only (§20.5.4)")
    victim = victim_of(state, g)
    if victim is not None and g.net:
        extra.append(Slot(DRAG, d.budget))
        notes.append(f"DRAG to pull {victim.seat} down if he does not escape (§20.5.5)")
    if not extra and not notes:
        return d
    prompt = d.prompt + "".join(f"; {n}" for n in notes)
    return replace(d, prompt=prompt, slots=(*slots, *extra))


def _free(state: ColosseumState, v: Gladiator, events: list[Event]) -> None:
    holder = state.gladiators.get(v.ensnared)
    if holder is None or v.ensnared == LOOSE or not holder.net:
        state.items.append(GroundItem("net", holder.seat if holder else v.seat, v.hex))
        events.append(event("net_free", "§20.5.5", f"the net falls at {v.hex.q},{v.hex.r}"))
    v.ensnared = ""


def resolve_escapes(
    state: ColosseumState, nets: Mapping[str, Mapping[str, int]], dice: Dice, events: list[Event]
) -> bool:
    """§20.5.5, §5.2.5.1 (N11): escapes, then drags. True if a drag has brought the Moment of
    Truth."""
    rules = advanced_tables().nets.ensnare
    for g in state.gladiators.values():
        g.net_loss = 0
    for v in state.gladiators.values():
        if not v.ensnared or not v.alive:
            continue
        esc = nets.get(v.seat, {}).get(ESCAPE, 0)
        if esc:
            roll = dice.roll(rules.escape.dice, f"{v.seat} tries to escape the net", "§20.5.5.1")
            r = roll - esc
            free = r < rules.escape.escapes_below
            text = f"{v.seat} struggles in the net: 3D6 {roll} − {esc} escape CF = {r}"
            if free:
                v.net_loss = max(r, 0)
                events.append(
                    event(
                        "net_escape",
                        "§20.5.5.1",
                        f"{text}, below {rules.escape.escapes_below}: he is free, and every "
                        f"attack on him this phase gets +{v.net_loss} (Net Loss, Q31)",
                        seat=v.seat,
                        escaped=True,
                    )
                )
                _free(state, v, events)
                continue
            events.append(
                event(
                    "net_escape",
                    "§20.5.5.1",
                    f"{text}: he is still ensnared",
                    seat=v.seat,
                    escaped=False,
                )
            )
        # §20.5.5 (2nd): he has not escaped, so the Retiarius may drag him; §20.5.5.1 (2nd):
        # 3D6 + ST + drag CFs above 17 drags him Prone, at the mercy of an armed Retiarius.
        holder = state.gladiators.get(v.ensnared)
        drag = nets.get(holder.seat, {}).get(DRAG, 0) if holder is not None else 0
        if holder is None or not drag or not holder.net:
            continue
        roll = dice.roll(rules.drag.dice, f"{holder.seat} drags {v.seat}", "§20.5.5.1")
        st = holder.sheet.current_st
        total = roll + st + drag
        text = f"{holder.seat} drags at the net: 3D6 {roll} + ST {st} + {drag} drag CF = {total}"
        if total <= rules.drag.dragged_if_above:
            events.append(event("net_drag", "§20.5.5.1", f"{text}: {v.seat} keeps his feet"))
            continue
        fall_prone(v)
        events.append(
            event("net_drag", "§20.5.5.1", f"{text}: {v.seat} is dragged Prone", seat=v.seat)
        )
        if holder.has_weapon and holder.sheet.current_cf >= rules.drag.needs_cf:
            here = f"the rest of this phase (turn {state.turn}, phase {state.phase})"
            moment_of_truth(state, [v.seat], holder.seat, dice, events, here)
            return True
    return False
