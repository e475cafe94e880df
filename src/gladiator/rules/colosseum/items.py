"""Weapons and shields off the hand (§13): dropped (§13.2), picked up (§13.4), thrown (§13.3) and
kicked (§13.5). The engine calls these at their steps of the phase (§5.2.4.1 recovery, §5.2.4.2
kicks, then the throws at the start of the combat step, Q10); every die goes through the match's
dice with its purpose and section, and every step appends an event `{"type", "rule", "text"}`.

A throw or a kick is written with the phase plot (`X +TW-HEAD`, `F +KS-FL`; plots.py's notation);
which plots may carry one is decided here (`may_throw`, `may_kick_with`), the engine lists them.

RULINGS (each choice made where §13 leaves room; shared/rules/colosseum.md, docs/rulings.md)

I1  §13.3 "at any time", Q10: a throw is written with the phase plot, as a Retiarius writes his
    net attack (§5.2.1.1), and with a Pause only (`X +TW-…`): he stands and throws. It is
    resolved after movement, recovery and kicks, at the start of the combat step (Q10), at the
    opponent (the only target of a duel) where he stands then. It costs no CF and no movement
    phase (the Pause is the free non-rotating X).
I2  §13.3, §16.3, §15.3, §11.4: he may throw while standing or Kneeling (his attack then at half
    CF, §14.3), not while Prone (a Prone man "may not attack in any manner"), not while he must
    Stumble (S is all he may write, §15.3) and not while unconscious. A battered shield is never
    held (the engine drops it at once, §12.3), so it is never thrown.
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
I8  Q17 ("stopping before a wall"): no item leaves the arena. A dropped, thrown or kicked item
    that would land off the board lies on the last board hex of its way.
I9  §13.4: the two-item limit: nobody holds more than one weapon and one shield, so he tries only
    for the kind he lacks (R1 of the engine: he always tries; a battered shield is left).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from gladiator.core.dice import Dice
from gladiator.core.hexgrid import Hex, HexMap, Relation, add, distance, line, neighbor_at, scale
from gladiator.core.hexgrid import sub as hex_sub
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.crt import CrtOutcome, read_crt
from gladiator.rules.colosseum.plots import (
    KICK_DIRECTIONS,
    ItemKind,
    Kick,
    PhasePlot,
    Posture,
    Throw,
    posture_after,
)
from gladiator.rules.colosseum.state import ColosseumState, Gladiator, GroundItem
from gladiator.rules.colosseum.tables import tables
from gladiator.rules.colosseum.talents import THROWING_BONUS
from gladiator.rules.colosseum.vocabulary import AREAS, Area, CrtVariant
from gladiator.rules.colosseum.weapons import BROKEN, may_pick_up, pick_up, release, thrown_values
from gladiator.rules.colosseum.wounds import ItemDrop, drop_location

__all__ = [
    "THROWN",
    "Strike",
    "Thrown",
    "along",
    "drop_item",
    "holds",
    "lose_item",
    "may_kick_with",
    "may_throw",
    "recover_items",
    "recoverable",
    "resolve_kicks",
    "resolve_throws",
    "throw_crt",
    "wants",
]

_BACKWARD = frozenset({"B", "SBL", "SBR"})  # §7.3: the movement actions that step backward
_OWN_STEPS = frozenset({"forward", "backward", "roll"})  # movement.py's step kinds, not a push


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


def _event(kind: str, rule: str, text: str, **extra: Any) -> Event:
    return {"type": kind, "rule": rule, "text": f"{text} ({rule})", **extra}


def _h(h: Hex) -> str:
    return f"{h.q},{h.r}"


def _other(state: ColosseumState, seat: str) -> Gladiator:
    return state.opponent(seat)  # a team match: the nearest opponent (G6)


# --- where items go ------------------------------------------------------------------------------


def _walk(board: HexMap, hexes: Iterable[Hex], start: Hex) -> Hex:
    """I8: the last hex of the way that is still on the board."""
    last = start
    for h in hexes:
        if h not in board:
            break
        last = h
    return last


def along(board: HexMap, start: Hex, toward: Hex, steps: int) -> Hex:
    """§13.3.2: the hex `steps` hexes from `start` on the line through `toward` (and beyond it),
    stopped at the board's edge (I8)."""
    if steps <= 0 or start == toward:
        return start
    far = add(start, scale(hex_sub(toward, start), steps))  # the line, long enough
    return _walk(board, line(start, far)[1 : steps + 1], start)


def _straight(board: HexMap, start: Hex, facing: int, relation: int, steps: int) -> Hex:
    """`steps` hexes from `start` through his side `relation`, stopped at the board's edge."""
    way: list[Hex] = []
    h = start
    for _ in range(steps):
        h = neighbor_at(h, facing, relation)
        way.append(h)
    return _walk(board, way, start)


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
        where = _straight(board, g.hex, g.facing, side, drop.distance)
    if kind == BROKEN:
        events.append(
            _event("item_lost", cause, f"{g.seat}'s weapon is broken", seat=g.seat, item=item)
        )
        return
    battered = item == "shield" and g.sheet.shield_useless
    state.items.append(GroundItem(item, g.seat, where, battered=battered, kind=kind))
    events.append(
        _event(
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


def holds(g: Gladiator, item: ItemKind) -> bool:
    """Whether he has the item in hand and it is any use (a battered shield is not, §12.3)."""
    if item == "weapon":
        return g.has_weapon
    return g.has_shield and not g.sheet.shield_useless


def wants(g: Gladiator, item: ItemKind) -> bool:
    """§13.4, I9: he may pick up what he lacks, never more than two items (a weapon and a
    shield)."""
    return not g.has_weapon if item == "weapon" else not g.has_shield


def recoverable(state: ColosseumState, g: Gladiator) -> list[GroundItem]:
    """Items within one hex of him that he could pick up (§13.4; in the Advanced Game what his
    free hands allow, F6). A beast picks nothing up (§28)."""
    if g.beast is not None:
        return []
    return [i for i in state.items if distance(i.hex, g.hex) <= 1 and may_pick_up(g, i)]


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
    tries; a battered shield is not worth picking up)."""
    t14 = tables().items.t14
    d = t14.drms
    for seat, g in state.gladiators.items():
        if not g.alive or g.posture == "prone" or g.sheet.unconscious:
            continue
        for item in recoverable(state, g):
            if item.battered:
                continue
            other = _other(state, seat)
            # T14 "+1 per hex moved": the hexes he stepped or rolled into (not a push, not the
            # hexes of his plot a collision cut off).
            moved = sum(1 for _, kind in tracks.get(seat, ())[1:] if kind in _OWN_STEPS)
            used_r = plots[seat].actions == ("R",) and seat not in collided
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
                _event(
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


def may_kick_with(plot: PhasePlot, posture: Posture) -> bool:
    """§13.5, I6: whether a kick may be written with this plot (no backward step, no Stumble, and
    he is on his feet when it is done)."""
    acts = set(plot.actions)
    return not acts & _BACKWARD and "S" not in acts and posture_after(plot, posture) == "standing"


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
                _event("kick", "§13.5", f"{seat} cannot kick: {why}", seat=seat, kicked=False)
            )
            continue
        moved = sum(1 for _, kind in steps if kind in _OWN_STEPS)
        roll = dice.roll("1D6", f"{seat} kicks the {kick.item}", "§13.5.1")
        total = roll - moved
        side = KICK_DIRECTIONS[kick.direction]
        head = f"{seat} kicks the {kick.item} {side}: 1D6 {roll} − {moved} moved = {total}"
        if total <= 0:
            events.append(
                _event("kick", "§13.5.1", f"{head}: it does not move", seat=seat, kicked=False)
            )
            continue
        to = _straight(board, g.hex, g.facing, kick.direction, roll)
        state.items[state.items.index(lying)] = GroundItem(
            lying.item, lying.owner, to, lying.battered
        )
        here = [o.seat for o in state.gladiators.values() if o.hex == to and o.seat != seat]
        landing = f"it lands at {_h(to)}" + (
            f", in {here[0]}'s hex, hitting nobody (§13.3.2)" if here else ""
        )
        events.append(
            _event("kick", "§13.5.1", f"{head}: {landing}", seat=seat, kicked=True, hex=to)
        )


# --- throws (§13.3) ------------------------------------------------------------------------------


def may_throw(g: Gladiator, target: Gladiator, item: ItemKind) -> bool:
    """§13.3, I2: whether he may write a throw of this item now."""
    return (
        g.alive
        and target.alive
        and not g.sheet.unconscious
        and g.posture != "prone"
        and not g.must_stumble
        and holds(g, item)
    )


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
                _event(
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
                _event(
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
            _event(
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
            _event(
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
