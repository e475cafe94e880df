"""The end of a pack (§28, B9 for several beasts; ruling B14 of docs/rulings.md).

B14 B9 for a pack: a beast dead or unconscious is out of the fight and its counter is taken off
    the sand at once (`state.fallen`, as G7). The gladiator wins when every beast is out; the
    beasts win when he is dead or unconscious; both at once (he and the last beast) is a draw.
"""

from __future__ import annotations

from gladiator.core.protocol import Event
from gladiator.rules.colosseum.appeal import finish
from gladiator.rules.colosseum.events import event
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.teams import pack_beasts

__all__ = ["pack_over"]


def _out(x: Gladiator) -> bool:
    return not x.alive or x.sheet.unconscious


def pack_over(state: ColosseumState, events: list[Event]) -> bool:
    """B14: the beasts out of the fight leave the sand; True if that or his fall ends it."""
    if state.step == "over":
        return False
    for b in [b for b in state.gladiators.values() if b.beast is not None and _out(b)]:
        how = "dead" if not b.alive else "unconscious"
        events.append(
            event(
                "down",
                "§28",
                f"{b.seat} ({b.beast.name if b.beast else ''}) is {how}: its counter is taken "
                "off the sand (B14)",
                seat=b.seat,
            )
        )
        del state.gladiators[b.seat]
        state.fallen[b.seat] = b
        b.may_attack, b.pa, b.available, b.targets = False, 0, 0, ()
    g = state.gladiators["red"]
    left = [b for b in state.gladiators.values() if b.beast is not None]
    if _out(g):
        how = "dead" if not g.alive else "unconscious"
        events.append(event("down", "§28", f"red is {how}: {g.cause or 'out of the fight'}"))
    if _out(g) and not left:
        finish(state, (), "killed", "the gladiator and the last beast are both down", events)
        return True
    if _out(g):
        method = "killed" if not g.alive else "incapacitated"
        finish(state, tuple(pack_beasts(state.options)), method, "the beasts overcame red", events)
        return True
    if not left:
        dead = all(not b.alive for b in state.fallen.values())
        method = "killed" if dead else "incapacitated"
        finish(state, ("red",), method, "red overcame every beast (B14)", events)
        return True
    return False
