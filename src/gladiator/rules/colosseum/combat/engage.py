"""Engagement, the first part of the combat step (§5.2.6.1, §9.1-§9.3.1, §27.1-§27.2, §27.5):
who may attack whom, the forced turns, the PA of each attacker on each man he may attack, and
the CFs available, for any number of gladiators.

RULINGS (docs/rulings.md, the E and G series)

E1  §9.1.2: the defender is turned to face an opponent who *may* attack him, before allocation,
    since the allocation is written with the facings it is made for. The attacker's PA is worked
    out before the turn; the one turned gets no PA against him (§9.2).
E2  §9.3.1, §15.5, §16.3: CFs available = current CF + PA − Stun, −2 while performing a Stumble;
    a Prone gladiator (who cannot attack, §16.3) defends with half of it, fractions dropped.
E4  A gladiator without a weapon may not attack (in the Advanced Game he may, unarmed, §23:
    weapon_combat.py F8, unarmed.py F15-F16). After movement he tries to pick up what he lacks
    when it lies within one hex (§13.4, items.py I1-I9).
G3  §27.2, §9.1.2: the forced turns are worked out together from where everyone stands after
    movement and made at once. A man whom one opponent may attack turns as in a duel (E1). A
    single gladiator (§27.1: two or more opponents may attack him) turns to the facing that puts
    every such opponent in his combat front, the fewest hex-sides from his own (his own if it
    does); if none does, to the one that gives them the smallest total PA (T11 and §9.2.1,
    measured after the turn), then the fewest hex-sides turned, then the lowest facing. Who may
    attack whom is then worked out again from the new facings. The lone attacker of a duel-like
    turn keeps his PA from before it (E1); the opponents of a single gladiator have theirs from
    after his turn, which is what §27.2 minimises.
G10 §27.5, §9.3.2: an opponent who stands outside a single gladiator's combat front may put his
    whole PA on one attack on him over the 8-CF cap.
S10 §22.2 (option `sand_reach`, "own"): Sand flies 2 hexes whatever he holds, so a man in his
    2-hex front is one he may attack (with Sand alone where his weapon does not reach him), and
    that 2-hex front is his combat front for the forced turns and PA (§9.1.2, §27.2, §27.5).

Where the match has more than two figures each man's `targets` lists whom he may attack, with
his PA and largest attack on each, and the log names them; a duel's one opponent is implied.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from gladiator.core.hexgrid import direction_to, facing_toward
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.arena.combat_geometry import (
    FrontRegion,
    forced_rotation,
    in_front,
    may_attack,
    positional_advantage,
)
from gladiator.rules.colosseum.beasts.beast_combat import beast_may, gladiator_may, pa_on_beast
from gladiator.rules.colosseum.combat.available import settle
from gladiator.rules.colosseum.combat.cf_allocation import MAX_ATTACK_CF_PER_AREA
from gladiator.rules.colosseum.combat.net_combat import net_step
from gladiator.rules.colosseum.combat.specials import sand_reach_own, throws_sand
from gladiator.rules.colosseum.combat.weapon_combat import front_region, reaches
from gladiator.rules.colosseum.events import event
from gladiator.rules.colosseum.state import ColosseumState, Gladiator

__all__ = [
    "able",
    "armed",
    "best_facing",
    "engage",
    "in_rear_hexes",
    "may",
    "named",
    "pa_of",
]

REAR = (2, 3, 4)  # §27.4: RL, R, RR, in hex-sides from his facing


def named(state: ColosseumState) -> bool:
    """Whether the match has more than two figures, so that an attack names its target."""
    return len(state.gladiators) + len(state.fallen) > 2


def able(x: Gladiator, y: Gladiator) -> bool:
    """§9.1, §16.3, E4: x may attack y now (his weapons' reach, or unarmed: F8)."""
    return (
        x.alive
        and y.alive
        and not x.sheet.unconscious
        and may_attack(x.pose, y.pose, region=front_region(x), attacker_prone=x.posture == "prone")
        and reaches(x, y)
    )


def armed(x: Gladiator, y: Gladiator) -> bool:
    """Whether x's weapon (or fist) reaches y now: a man by §9.1, a beast by B6."""
    return gladiator_may(x, y) if y.beast is not None else able(x, y)


def _front(state: ColosseumState, g: Gladiator) -> FrontRegion:
    """His combat front: his weapons' (F8), at least Sand's 2-hex front where he may throw it at
    men (S10)."""
    region = front_region(g)
    if region == "one_hex" and g.beast is None and g.style and sand_reach_own(state):
        return "two_hex"
    return region


def pa_of(x: Gladiator, y: Gladiator) -> int:
    """§9.2, T11, §9.2.1: x's PA attacking y."""
    return positional_advantage(
        x.pose,
        y.pose,
        left_handed=y.left_handed,
        stumbling=y.stumbling,
        prone=y.posture == "prone",
        ensnared=bool(y.ensnared),  # §9.2.1.3
    )


def in_rear_hexes(attacker: Gladiator, defender: Gladiator) -> bool:
    """§27.4 (G5): the attacker stands in one of the defender's three rear hexes."""
    d = direction_to(defender.hex, attacker.hex)
    return d is not None and (d - defender.facing) % 6 in REAR


def best_facing(
    y: Gladiator, attackers: Sequence[Gladiator], region: FrontRegion | None = None
) -> int:
    """§27.2 (G3): the facing a single gladiator must turn to (`region`: his combat front,
    his weapons' by default)."""
    region = region or front_region(y)

    def turned(f: int) -> int:
        return min((f - y.facing) % 6, (y.facing - f) % 6)

    covering = [
        f for f in range(6) if all(in_front((y.hex, f), x.pose, region=region) for x in attackers)
    ]
    if covering:
        return min(covering, key=lambda f: (turned(f), f))
    return min(
        range(6),
        key=lambda f: (sum(pa_of(x, replace(y, facing=f)) for x in attackers), turned(f), f),
    )


def may(state: ColosseumState, x: Gladiator, y: Gladiator) -> bool:
    """§9.1 between men, with Sand's own reach (S10); §28.6.2 and B6 between a man and a beast
    (beasts never fight beasts)."""
    if x.beast is not None:
        return y.beast is None and beast_may(x, y)
    return armed(x, y) or throws_sand(state, x, y)


def engage(state: ColosseumState, events: list[Event]) -> bool:
    """§5.2.6.1, §9.1-§9.3.1 with §27.1, §27.2, §27.5 and §28.6: who may attack whom, the forced
    turns, PA per pair and the CFs available. False: nobody may attack anybody and no net asks
    for a combat step (N10)."""
    figures = list(state.gladiators.values())
    for f in figures:
        f.may_attack, f.pa, f.available, f.targets = False, 0, 0, ()
    before = {y.seat: [x for x in state.opponents(y.seat) if may(state, x, y)] for y in figures}
    if not any(before.values()) and not net_step(state):  # N10
        return False
    kept_pa: dict[tuple[str, str], int] = {}  # E1: a duel-like turn's attacker keeps his PA
    no_pa: set[tuple[str, str]] = set()  # (turned man, the one he was turned to face): §9.2
    turns: list[tuple[Gladiator, int, Event]] = []  # G3: worked out first, made at once
    for y in figures:
        xs = before[y.seat]
        if y.beast is not None or not xs:
            continue  # §28.6.2: a beast never turns
        if all(x.beast is not None for x in xs):  # B6, B15
            turns += _turn_to_beasts(state, y, xs, kept_pa, no_pa)
        elif len(xs) == 1:  # §9.1.2, as in a duel (E1, G3)
            turns += _turn_to_face(state, xs[0], y, kept_pa, no_pa)
        else:  # §27.2 (G3)
            turns += _turn_to_meet(y, xs, _front(state, y), no_pa)
    for y, facing, e in turns:
        y.facing = facing
        events.append(e)
    attackers = {y.seat: [x for x in state.opponents(y.seat) if may(state, x, y)] for y in figures}
    for x in figures:
        targets = [
            _aim(x, y, _front(state, y), len(attackers[y.seat]) > 1, kept_pa, no_pa)
            for y in state.opponents(x.seat)
            if x in attackers[y.seat]
        ]
        x.may_attack = bool(targets)
        x.pa = max((pa for _, pa, _ in targets), default=0)
        x.targets = tuple(targets) if named(state) and x.beast is None else ()
    events.extend(settle(state, named(state)))
    return True


def _aim(
    x: Gladiator,
    y: Gladiator,
    front: FrontRegion,
    single: bool,
    kept_pa: dict[tuple[str, str], int],
    no_pa: set[tuple[str, str]],
) -> tuple[str, int, int]:
    """(whom, PA, largest attack) of an attacker on a man he may attack (§9.2, §27.5, B6)."""
    if (x.seat, y.seat) in no_pa:
        pa = 0
    elif (x.seat, y.seat) in kept_pa:
        pa = kept_pa[(x.seat, y.seat)]
    else:
        pa = pa_on_beast(x, y) if y.beast is not None else pa_of(x, y)
    cap = MAX_ATTACK_CF_PER_AREA
    men = y.beast is None and x.beast is None
    if men and single and pa > 0 and not in_front(y.pose, x.pose, region=front):
        cap += pa  # §27.5 (G10)
    return y.seat, pa, cap


def _turn_to_beasts(
    state: ColosseumState,
    g: Gladiator,
    beasts: list[Gladiator],
    kept_pa: dict[tuple[str, str], int],
    no_pa: set[tuple[str, str]],
) -> list[tuple[Gladiator, int, Event]]:
    """B6, B15: a man on his feet or knees bitten by one beast turns to face its head if it is
    outside his front; bitten by two or more, as a single gladiator (§27.2, G3). The beast of a
    duel-like turn keeps its PA from before it (E1); he gets none on a beast that was not in his
    front before he turned."""
    if len(beasts) == 1:
        kept_pa[(beasts[0].seat, g.seat)] = pa_of(beasts[0], g)  # E1
    if g.posture == "prone":
        return []
    one = beasts[0]
    if len(beasts) > 1:
        facing = best_facing(g, beasts)  # §27.2 (G3)
    elif in_front(g.pose, one.pose):
        facing = g.facing
    else:
        facing = facing_toward(g.hex, one.hex)  # B6 (E1)
    if facing == g.facing:
        return []
    no_pa |= {(g.seat, o.seat) for o in state.opponents(g.seat) if not in_front(g.pose, o.pose)}
    faced = ", ".join(b.seat for b in beasts)
    why = "§27.2" if len(beasts) > 1 else "§9.1.2"
    if named(state):
        text = f"{g.seat} turns to facing {facing} to meet {faced}"
    else:
        text = f"{g.seat} turns to face {faced} (facing {facing})"
    return [(g, facing, event("forced_rotation", why, text, seat=g.seat, facing=facing))]


def _turn_to_face(
    state: ColosseumState,
    x: Gladiator,
    y: Gladiator,
    kept_pa: dict[tuple[str, str], int],
    no_pa: set[tuple[str, str]],
) -> list[tuple[Gladiator, int, Event]]:
    """§9.1.2 (E1): y turns to face his one attacker x if x is outside his front."""
    rot = forced_rotation(
        x.pose,
        y.pose,
        region=_front(state, x),  # F8, S10
        defender_region=_front(state, y),
        left_handed=y.left_handed,
        stumbling=y.stumbling,
        prone=y.posture == "prone",
        ensnared=bool(y.ensnared),  # §9.2.1.3
    )
    kept_pa[(x.seat, y.seat)] = rot.attacker_pa
    if not rot.defender_pa_allowed:
        no_pa.add((y.seat, x.seat))
    if not rot.turns:
        return []
    f = rot.facing
    if named(state):
        text = f"{y.seat} turns to facing {f} to meet {x.seat}"
    else:
        text = (
            f"{y.seat} turns to face {x.seat} (facing {f}); {x.seat} keeps his PA {rot.attacker_pa}"
        )
    return [(y, f, event("forced_rotation", "§9.1.2", text, seat=y.seat, facing=f))]


def _turn_to_meet(
    y: Gladiator, xs: list[Gladiator], region: FrontRegion, no_pa: set[tuple[str, str]]
) -> list[tuple[Gladiator, int, Event]]:
    """§27.2 (G3): a single gladiator turns to meet every opponent who may attack him."""
    f = best_facing(y, xs, region)
    if f == y.facing:
        return []
    for x in xs:
        if not in_front(y.pose, x.pose, region=region):  # turned to face him: no PA (§9.2)
            no_pa.add((y.seat, x.seat))
    faced = ", ".join(x.seat for x in xs)
    text = f"{y.seat} turns to facing {f} to meet {faced}"
    return [(y, f, event("forced_rotation", "§27.2", text, seat=y.seat, facing=f))]
