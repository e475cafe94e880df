"""Weapons and shields off the hand (§13): dropped (§13.2), picked up (§13.4), thrown (§13.3) and
kicked (§13.5). The engine calls these at their steps of the phase (§5.2.4.1 recovery, §5.2.4.2
kicks, then the throws at the start of the combat step, Q10); every die goes through the match's
dice with its purpose and section, and every step appends an event `{"type", "rule", "text"}`.

A throw or a kick is written with the phase plot (`X +TW-HEAD`, `F +KS-FL`; plots.py's notation);
which plots may carry one is item_choices.py's (`may_throw`, `may_kick_with`; I2, I9), the
engine lists them; where an item comes to rest is item_landing.py's (I8).

RULINGS (each choice made where §13 leaves room; shared/rules/colosseum.md, docs/rulings.md)

I1  §13.3 "at any time", Q10: a throw is written with the phase plot, as a Retiarius writes his
    net attack (§5.2.1.1), and with a Pause only (`X +TW-…`): he stands and throws. It is
    resolved after movement, recovery and kicks, at the start of the combat step (Q10), at the
    opponent (the only target of a duel) where he stands then. It costs no CF and no movement
    phase (the Pause is the free non-rotating X).
I3  Q10: throw distance = 1D6 + Thr (Thr 3 for a sword and for a shield, NOTE-13.3); the match
    option `throw_thr = "text"` subtracts it, as the rules text and the reference sheet print.
    It hits if the distance is greater than the range (§13.3.1).
I4  §13.3.1.1, Q10: a hit is read on the CRT at the item's CRT value (sword 3, shield 0, so a
    shield is column 1 with −1, §9.5.3) against no defence, since no CF has been allocated yet.
    The area is 1D6 (1 head … 5 legs); on a 6 it is the area written with the throw. §14.2/§14.3
    halve the value (rounded down) for a kneeling thrower and for the legs of a kneeling target;
    §10.3.3.1 adds the target's negative CF. A thrown item always strikes once it hits, even at
    0. S, S*, P, P* and H act as in combat (§9.6); F is no more than "–" (he has no further
    attacks to cancel and is not swinging at anyone).
I5  §13.3, §13.3.2: thrown items land in the target's hex on a hit; a miss lands at the
    unmodified 1D6 along the line from thrower to target (and on beyond him), hitting nobody,
    even in an occupied hex. Two throws in one phase fly together: both items leave the hands
    before either is resolved (in seat order). A throw written is made unless he is down (dead,
    unconscious, Prone) or has lost the item by then; a trip in this phase's collision is for the
    next phase (§15.3) and does not stop it.
I6  §13.5: a kick is written with any plot that leaves him standing and has no backward step
    (B, SBL, SBR) and no Stumble (§15.3: the Stumble is all he does); it names the item kind and
    one of six directions (Q17: the kicker chooses). It is offered only with plots that end in a
    hex holding such an item now; it is void if, after movement, no such item lies in his hex or
    he is no longer on his feet.
I7  §13.5.1: 1D6 − 1 per hex he entered this phase by his own movement (not a push), above 0
    succeeds; the item travels the unmodified roll in hexes, hitting nobody (§13.3.2).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from gladiator.core.dice import Dice
from gladiator.core.hexgrid import Hex, HexMap, Relation, distance
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.combat.crt import CrtOutcome, read_crt
from gladiator.rules.colosseum.events import event
from gladiator.rules.colosseum.hits.item_choices import holds, recoverable
from gladiator.rules.colosseum.hits.item_landing import along, straight
from gladiator.rules.colosseum.hits.wounds import ItemDrop, drop_location
from gladiator.rules.colosseum.kit.talents import THROWING_BONUS
from gladiator.rules.colosseum.kit.weapons import BROKEN, pick_up, release, thrown_values
from gladiator.rules.colosseum.plots.plots import KICK_DIRECTIONS, ItemKind, Kick, PhasePlot, Throw
from gladiator.rules.colosseum.state import ColosseumState, Gladiator, GroundItem
from gladiator.rules.colosseum.tables.tables import tables
from gladiator.rules.colosseum.vocabulary import AREAS, Area, CrtVariant

__all__ = [
    "THROWN",
    "Strike",
    "Thrown",
    "drop_item",
    "lose_item",
    "recover_items",
    "resolve_kicks",
    "resolve_throws",
    "throw_crt",
]

_OWN_STEPS = frozenset({"forward", "backward", "roll"})  # movement_tracks' step kinds, not a push


@dataclass(frozen=True, slots=True)
class Thrown:
    """A thrown item's Thr (added to the 1D6 throw distance, Q10) and CRT value (§13.3.1.1)."""

    thr: int
    crt: int


# NOTE-13.3, kept as data in items.toml [thrown] (the optional weapons' values are T19, §21).
_THROWN = tables().items.thrown
THROWN: dict[ItemKind, Thrown] = {
    "weapon": Thrown(_THROWN.weapon.thr, _THROWN.weapon.crt),
    "shield": Thrown(_THROWN.shield.thr, _THROWN.shield.crt),
}

# What a thrown item's CRT result does to its target (the engine's §9.6, shared with combat).
Strike = Callable[[Gladiator, Gladiator, Area, CrtOutcome, list[Event]], None]


def _h(h: Hex) -> str:
    return f"{h.q},{h.r}"


def _other(state: ColosseumState, seat: str) -> Gladiator:
    return state.opponent(seat)  # a team match: the nearest opponent (G6)


# --- where items go ------------------------------------------------------------------------------


def lose_item(
    state: ColosseumState,
    board: HexMap,
    g: Gladiator,
    item: ItemKind,
    drop: ItemDrop | None,
    cause: str,
    events: list[Event],
) -> None:
    """§13.2: the item leaves his hand and lies where it landed (§13.2.3: a battered shield
    battered side up), in his own hex when no drop was rolled, never off the board (I8). In the
    Advanced Game the next weapon he carries comes to hand (F5) and a weapon broken useless lies
    nowhere (F7)."""
    if item == "weapon":
        kind = release(g)
    else:
        g.has_shield = False
        kind = "hook" if g.hook else ""
        g.hook = False
    where = g.hex
    if drop is not None:
        side = int(Relation.from_code(drop.direction))
        where = straight(board, g.hex, g.facing, side, drop.distance)
    if kind == BROKEN:
        events.append(
            event("item_lost", cause, f"{g.seat}'s weapon is broken", seat=g.seat, item=item)
        )
        return
    battered = item == "shield" and g.sheet.shield_useless
    state.items.append(GroundItem(item, g.seat, where, battered=battered, kind=kind))
    events.append(
        event(
            "item_lost",
            "§13.2.3",
            f"{g.seat}'s {item} lies at {_h(where)} ({cause})",
            seat=g.seat,
            item=item,
        )
    )


def drop_item(
    state: ColosseumState,
    board: HexMap,
    g: Gladiator,
    item: ItemKind,
    dice: Dice,
    cause: str,
    events: list[Event],
) -> None:
    """§13.2.1, §13.2.2: roll where it falls (T15), then drop it there."""
    drop, ev = drop_location(dice, item, cause)
    events.append(ev)
    lose_item(state, board, g, item, drop, cause, events)


# --- recovery (§13.4) ----------------------------------------------------------------------------


def recover_items(
    state: ColosseumState,
    plots: Mapping[str, PhasePlot],
    tracks: Mapping[str, tuple[tuple[Hex, str], ...]],
    collided: set[str],
    dice: Dice,
    events: list[Event],
) -> None:
    """§5.2.4.1, §13.4.1: after movement, each gladiator within one hex of an item he lacks tries
    to pick it up: 1D6 + the T14 DRMs, recovered below 1 (R1: trying costs nothing, so he always
    tries; a battered shield is not worth picking up). A net is tried for only by a man who
    wrote R this phase (N14: holding it halves his trident, §20.9.2)."""
    t14 = tables().items.t14
    d = t14.drms
    for seat, g in state.gladiators.items():
        if not g.alive or g.posture == "prone" or g.sheet.unconscious:
            continue
        for item in recoverable(state, g):
            used_r = plots[seat].actions == ("R",) and seat not in collided
            if item.battered or (item.item == "net" and not used_r):  # N14: a net only by R
                continue
            other = _other(state, seat)
            # T14 "+1 per hex moved": the hexes he stepped or rolled into (not a push, not the
            # hexes of his plot a collision cut off).
            moved = sum(1 for _, kind in tracks.get(seat, ())[1:] if kind in _OWN_STEPS)
            parts = [
                (d.heavy.drm, g.sheet.gladiator_class == "heavy"),
                (d.light.drm, g.sheet.gladiator_class == "light"),
                (d.opponent_in_item_hex.drm, other.alive and other.hex == item.hex),
                (
                    d.opponent_adjacent_to_item.drm,
                    other.alive and distance(other.hex, item.hex) == 1,
                ),
                (d.item_in_adjacent_hex.drm, item.hex != g.hex),
                (d.moved.drm * moved, moved > 0),
                (d.used_recover_action.drm, used_r),
                (d.collided.drm, seat in collided),
                (d.kneeling.drm, g.posture == "kneeling"),
                # §15.3: "is Stumbling" is the man performing his Stumble this phase; one who
                # has only just tripped stumbles next phase.
                (d.stumbling.drm, g.stumbling),
                (d.stun.drm * g.sheet.stun_in_effect, g.sheet.stun_in_effect > 0),
                (d.agility.drm * g.sheet.current_ag, True),
                (d.item_is_net.drm, item.item == "net"),  # §20.8.2 (Advanced Game)
                (d.ensnared.drm, bool(g.ensnared)),
            ]
            drm = sum(v for v, on in parts if on)
            roll = dice.roll(t14.dice, f"{seat} tries to pick up his {item.item}", "§13.4.1")
            got = roll + drm < t14.succeeds_below
            events.append(
                event(
                    "recovery",
                    "§13.4.1",
                    f"{seat} tries to pick up the {item.item}: {roll} {drm:+d} = {roll + drm}: "
                    + ("recovered" if got else "fumbled"),
                    seat=seat,
                    item=item.item,
                )
            )
            if got:
                state.items.remove(item)
                pick_up(g, item)
                if item.item == "weapon":
                    g.recovered_weapon = True  # §13.4.2: half CF on attacks this phase
                break


# --- kicks (§13.5) -------------------------------------------------------------------------------


def resolve_kicks(
    state: ColosseumState,
    kicks: Mapping[str, Kick],
    tracks: Mapping[str, tuple[tuple[Hex, str], ...]],
    board: HexMap,
    dice: Dice,
    events: list[Event],
) -> None:
    """§5.2.4.2, §13.5, §13.5.1 (I6, I7): each kick written, in seat order."""
    for seat, kick in kicks.items():
        g = state.gladiators[seat]
        steps = tracks.get(seat, ())[1:]
        if not g.alive or g.sheet.unconscious or g.posture != "standing":
            why = "he is not on his feet"
        elif any(kind == "backward" for _, kind in steps):
            why = "he moved backward this phase"
        else:
            why = ""
        lying = next((i for i in state.items if i.hex == g.hex and i.item == kick.item), None)
        if lying is None and not why:
            why = f"no {kick.item} lies in his hex"
        if lying is None or why:
            events.append(
                event("kick", "§13.5", f"{seat} cannot kick: {why}", seat=seat, kicked=False)
            )
            continue
        moved = sum(1 for _, kind in steps if kind in _OWN_STEPS)
        roll = dice.roll("1D6", f"{seat} kicks the {kick.item}", "§13.5.1")
        total = roll - moved
        side = KICK_DIRECTIONS[kick.direction]
        head = f"{seat} kicks the {kick.item} {side}: 1D6 {roll} − {moved} moved = {total}"
        if total <= 0:
            events.append(
                event("kick", "§13.5.1", f"{head}: it does not move", seat=seat, kicked=False)
            )
            continue
        to = straight(board, g.hex, g.facing, kick.direction, roll)
        state.items[state.items.index(lying)] = GroundItem(
            lying.item, lying.owner, to, lying.battered
        )
        here = [o.seat for o in state.gladiators.values() if o.hex == to and o.seat != seat]
        landing = f"it lands at {_h(to)}" + (
            f", in {here[0]}'s hex, hitting nobody (§13.3.2)" if here else ""
        )
        events.append(
            event("kick", "§13.5.1", f"{head}: {landing}", seat=seat, kicked=True, hex=to)
        )


# --- throws (§13.3) ------------------------------------------------------------------------------


def throw_crt(
    dice: Dice,
    value: int,
    *,
    drm: int = 0,
    has_weapon: bool = True,
    has_shield: bool = True,
    crt: CrtVariant = "rules",
    label: str = "thrown item",
    defender: str = "the target",
) -> tuple[CrtOutcome, list[Event]]:
    """§13.3.1.1 (I4): a thrown item's hit on the CRT at its CRT value, against no defence; a
    value below 1 is column 1 with its shortfall as a DRM (§9.5.3)."""
    return read_crt(
        dice,
        value,
        f"CRT value {value}",
        attack_cf=value,
        defence_cf=0,
        unweakened_cf=value,
        drm=drm,
        has_weapon=has_weapon,
        has_shield=has_shield,
        crt=crt,
        label=label,
        defender=defender,
        rule="§13.3.1.1",
    )


@dataclass(frozen=True, slots=True)
class _Flight:
    thrower: Gladiator
    target: Gladiator
    throw: Throw
    roll: int
    reach: int
    range_: int  # hexes from thrower to target
    thrown: Thrown
    kind: str  # the T19 weapon (or hook) thrown in the Advanced Game, "" in the Basic Game
    trained: int = 0  # §36.3 TH: the Throwing talent's bonus


def resolve_throws(
    state: ColosseumState,
    throws: Mapping[str, Throw],
    board: HexMap,
    dice: Dice,
    events: list[Event],
    strike: Strike,
) -> None:
    """§13.3-§13.3.2 (I1-I5): every throw written this phase, at the start of the combat step."""
    thr_sign = -1 if state.options.get("throw_thr") == "text" else 1
    flights: list[_Flight] = []
    for seat, throw in throws.items():
        g, o = state.gladiators[seat], _other(state, seat)
        # A trip in this phase's collision is for the next phase (§15.3), so only what has
        # happened to him or his item since he wrote it can stop the throw.
        why = (
            "he is down"
            if not g.alive or g.sheet.unconscious or g.posture == "prone"
            else "his target is dead"
            if not o.alive
            else f"he no longer holds his {throw.item}"
            if not holds(g, throw.item)
            else ""
        )
        if why:
            events.append(
                event(
                    "throw",
                    "§13.3",
                    f"{seat} cannot throw his {throw.item}: {why}",
                    seat=seat,
                    thrown=False,
                )
            )
            continue
        values = thrown_values(g, throw.item)  # T19 in the Advanced Game (A9)
        spec = THROWN[throw.item] if values is None else Thrown(*values)
        if throw.item == "weapon":  # it leaves his hand: no attack without it (E4, F5)
            kind = release(g)
        else:
            g.has_shield = False
            kind = "hook" if g.hook else ""
            g.hook = False
        roll = dice.roll("1D6", f"{seat} throws his {throw.item}: distance", "§13.3")
        trained = THROWING_BONUS if "TH" in g.talents else 0  # §36.3 TH
        reach = roll + thr_sign * spec.thr + trained
        flights.append(
            _Flight(g, o, throw, roll, reach, distance(g.hex, o.hex), spec, kind, trained)
        )
    for f in flights:
        g, o, item = f.thrower, f.target, f.throw.item
        hit = o.alive and f.reach > f.range_
        sign = "+" if thr_sign > 0 else "−"
        head = (
            f"{g.seat} throws his {item} at {o.seat}, {f.range_} hex(es) away: 1D6 {f.roll} "
            f"{sign} Thr {f.thrown.thr}"
            + (f" + {f.trained} Throwing (§36.3)" if f.trained else "")
            + f" = {f.reach}"
        )
        if not hit:
            to = along(board, g.hex, o.hex, f.roll)
            where = "in his hex, hitting nobody" if to == o.hex else f"at {_h(to)}"
            events.append(
                event(
                    "throw",
                    "§13.3.2",
                    f"{head}, not more than the range: it misses and lands {where}",
                    seat=g.seat,
                    thrown=True,
                    hit=False,
                )
            )
            state.items.append(GroundItem(item, g.seat, to, kind=f.kind))
            continue
        events.append(
            event(
                "throw",
                "§13.3.1",
                f"{head}, more than the range: it hits",
                seat=g.seat,
                thrown=True,
                hit=True,
            )
        )
        n = dice.roll("1D6", f"{g.seat}'s thrown {item}: body area", "§13.3.1.1")
        area: Area = AREAS[n - 1] if n <= len(AREAS) else f.throw.area
        value = f.thrown.crt
        halved = []
        if g.posture == "kneeling":  # §14.3
            value //= 2
            halved.append("a kneeling thrower §14.3")
        if o.posture == "kneeling" and area == "legs":  # §14.2
            value //= 2
            halved.append("a kneeling target's legs §14.2")
        events.append(
            event(
                "throw_area",
                "§13.3.1.1",
                f"area 1D6 {n}"
                + (f" (his choice): {area}" if n > len(AREAS) else f": {area}")
                + (f"; CRT value halved for {' and '.join(halved)}" if halved else ""),
                seat=g.seat,
                area=area,
            )
        )
        outcome, evs = throw_crt(
            dice,
            value,
            drm=max(0, -o.sheet.current_cf),  # §10.3.3.1
            has_weapon=o.has_weapon,
            has_shield=holds(o, "shield"),
            crt=state.options["crt"],
            label=f"{g.seat}'s thrown {item} at {o.seat}'s {area}",
            defender=o.seat,
        )
        events.extend(evs)
        state.items.append(GroundItem(item, g.seat, o.hex, kind=f.kind))
        strike(g, o, area, outcome, events)
