"""The attacks revealed at half CF (§14.3, §13.4.2, §14.2; §20.9.2, §21, §23.2 F10): each
attack's own halvings, several of which multiply (Q26: a kneeling man's first phase with a
recovered weapon strikes at a quarter); an attack halved to nothing is none, and a special
attack halved to nothing is no special (§22.2).

E3  §14.2, §14.3: a Kneeling gladiator's attacks, and attacks on a Kneeling gladiator's legs, are
    made at half the CF allocated (fractions dropped; an attack halved to 0 is none). The CF
    allocated still count for §18.3.

A one-target match's log (a duel, a one-beast hunt) lists the halved attacks by area with every
reason once; where attacks name their targets (teams, a pack) it lists each halved attack with
its own reasons. Either way the event's rule is every rule of its reasons, each once.
"""

from __future__ import annotations

from dataclasses import dataclass

from gladiator.core.protocol import Event
from gladiator.rules.colosseum.combat.weapon_combat import Stroke
from gladiator.rules.colosseum.events import event
from gladiator.rules.colosseum.state import Gladiator
from gladiator.rules.colosseum.vocabulary import AREAS, Area

__all__ = ["Aimed", "halve"]

Why = tuple[str, str]  # (rule, why)


@dataclass(frozen=True, slots=True)
class Aimed:
    """One attack as written: at whom, where, with how many CF, its §22.2 letter, its stroke."""

    target: Gladiator
    area: Area
    cf: int
    special: str = ""
    stroke: Stroke | None = None


def halve(g: Gladiator, attacks: list[Aimed], named: bool) -> tuple[list[Aimed], Event | None]:
    """His attacks after the halvings, in his order (those halved to nothing left out; the
    Basic Game's by area), and the event that shows them, if any was halved."""
    reasons: list[list[Why]] = []
    for a in attacks:
        why: list[Why] = [
            (rule, text)
            for rule, text, on in (
                ("§14.3", "kneeling", g.posture == "kneeling"),
                ("§13.4.2", "a weapon just recovered", g.recovered_weapon),
                (
                    "§14.2",
                    f"legs of a kneeling {a.target.seat}",
                    a.area == "legs" and a.target.posture == "kneeling",
                ),
            )
            if on
        ]
        why += list(a.stroke.halvings) if a.stroke is not None else []
        reasons.append(why)
    halved = [_halved(a, len(why)) for a, why in zip(attacks, reasons, strict=True)]
    kept = [a for a in halved if a.cf > 0]
    changed = any(a.cf != h.cf for a, h in zip(attacks, halved, strict=True))
    if changed and not g.style:  # the Basic Game lists halved attacks by area; a style keeps
        kept.sort(key=_by_area)  # his order (Q25)
    if named:
        return kept, _named_event(g, halved, reasons)
    return kept, _duel_event(g, attacks, halved, reasons)


def _halved(a: Aimed, times: int) -> Aimed:
    cf = a.cf >> times
    return Aimed(a.target, a.area, cf, a.special if cf else "", a.stroke)


def _duel_event(
    g: Gladiator, attacks: list[Aimed], halved: list[Aimed], reasons: list[list[Why]]
) -> Event | None:
    if all(a.cf == h.cf for a, h in zip(attacks, halved, strict=True)):
        return None
    union: list[Why] = [w for w in reasons[0] if w[0] in ("§14.3", "§13.4.2")] if reasons else []
    kneeling = next((a.target for a in attacks), None)
    if kneeling is not None and kneeling.posture == "kneeling":
        union.append(("§14.2", f"legs of a kneeling {kneeling.seat}"))
    for why in reasons:
        union += [w for w in why if w not in union]
    shown = " ".join(f"{h.area}:{h.cf}" for h in sorted(halved, key=_by_area) if h.cf)
    return event(
        "half_cf",
        ", ".join(rule for rule, _ in union),
        f"{g.seat}'s attacks at half CF ({'; '.join(why for _, why in union)}): {shown}",
        seat=g.seat,
    )


def _by_area(a: Aimed) -> int:
    return AREAS.index(a.area)


def _named_event(g: Gladiator, halved: list[Aimed], reasons: list[list[Why]]) -> Event | None:
    shown = [
        f"{h.target.seat}'s {h.area} {h.cf} ({'; '.join(f'{w} ({rule})' for rule, w in why)})"
        for h, why in zip(halved, reasons, strict=True)
        if why
    ]
    if not shown:
        return None
    rules = list(dict.fromkeys(rule for why in reasons for rule, _ in why))
    return event(
        "half_cf",
        ", ".join(rules),
        f"{g.seat}'s attacks at half CF: " + ", ".join(shown),
        seat=g.seat,
    )
