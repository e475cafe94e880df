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

Where the match has more than two figures each man's `targets` lists whom he may attack, with
his PA and largest attack on each, and the log names them; a duel's one opponent is implied.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from gladiator.core.hexgrid import direction_to
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.campaign_prestige import prestige_bonus
from gladiator.rules.colosseum.cf_allocation import MAX_ATTACK_CF_PER_AREA
from gladiator.rules.colosseum.combat_geometry import (
    forced_rotation,
    in_front,
    may_attack,
    positional_advantage,
)
from gladiator.rules.colosseum.events import event
from gladiator.rules.colosseum.net_combat import net_step
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.talent_combat import mastery_bonus
from gladiator.rules.colosseum.weapon_combat import cf_bonus, front_region, reaches

__all__ = [
    "able",
    "best_facing",
    "cfs_available",
    "engage",
    "in_rear_hexes",
    "named",
    "pa_of",
]

STUMBLE_CF_PENALTY = 2  # §15.5
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


def best_facing(y: Gladiator, attackers: Sequence[Gladiator]) -> int:
    """§27.2 (G3): the facing a single gladiator must turn to."""
    region = front_region(y)

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


def engage(state: ColosseumState, events: list[Event]) -> bool:
    """§5.2.6.1, §9.1-§9.3.1 with §27.1, §27.2, §27.5: who may attack whom, the forced turns,
    PA per pair and the CFs available. False: nobody may attack anybody and no net asks for a
    combat step (N10)."""
    gl = [g for g in state.gladiators.values() if g.beast is None]
    for g in gl:
        g.may_attack, g.pa, g.available, g.targets = False, 0, 0, ()
    before = {y.seat: [x for x in state.opponents(y.seat) if able(x, y)] for y in gl}
    if not any(before.values()) and not net_step(state):  # N10
        return False
    kept_pa: dict[tuple[str, str], int] = {}  # E1: a duel-like turn's attacker keeps his PA
    no_pa: set[tuple[str, str]] = set()  # (turned man, the one he was turned to face): §9.2
    turns: list[tuple[Gladiator, int, Event]] = []  # G3: worked out first, made at once
    for y in gl:
        xs = before[y.seat]
        if len(xs) == 1:  # §9.1.2, as in a duel (E1, G3)
            turns += _turn_to_face(state, xs[0], y, kept_pa, no_pa)
        elif len(xs) > 1:  # §27.2 (G3)
            turns += _turn_to_meet(y, xs, no_pa)
    for y, facing, e in turns:
        y.facing = facing
        events.append(e)
    attackers = {y.seat: [x for x in state.opponents(y.seat) if able(x, y)] for y in gl}
    for x in gl:
        targets: list[tuple[str, int, int]] = []
        for y in state.opponents(x.seat):
            if x not in attackers[y.seat]:
                continue
            pa = 0 if (x.seat, y.seat) in no_pa else kept_pa.get((x.seat, y.seat), pa_of(x, y))
            cap = MAX_ATTACK_CF_PER_AREA
            single = len(attackers[y.seat]) > 1
            if single and pa > 0 and not in_front(y.pose, x.pose, region=front_region(y)):
                cap += pa  # §27.5 (G10)
            targets.append((y.seat, pa, cap))
        x.may_attack = bool(targets)
        x.pa = max((pa for _, pa, _ in targets), default=0)
        _available(state, x, [state.gladiators[t] for t, _, _ in targets], targets, events)
        x.targets = tuple(targets) if named(state) else ()
    return True


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
        region=front_region(x),  # F8
        defender_region=front_region(y),
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
    y: Gladiator, xs: list[Gladiator], no_pa: set[tuple[str, str]]
) -> list[tuple[Gladiator, int, Event]]:
    """§27.2 (G3): a single gladiator turns to meet every opponent who may attack him."""
    f = best_facing(y, xs)
    if f == y.facing:
        return []
    region = front_region(y)
    for x in xs:
        if not in_front(y.pose, x.pose, region=region):  # turned to face him: no PA (§9.2)
            no_pa.add((y.seat, x.seat))
    faced = ", ".join(x.seat for x in xs)
    text = f"{y.seat} turns to facing {f} to meet {faced}"
    return [(y, f, event("forced_rotation", "§27.2", text, seat=y.seat, facing=f))]


def cfs_available(g: Gladiator, foes: Sequence[Gladiator] = ()) -> tuple[int, list[str]]:
    """§9.3.1 (E2): his CFs available with his PA as set, and how they were reached: plus his PB
    with one of `foes` in his combat front (§35.4.2, X4), less 2 for a Stumble (§15.5), plus a
    pair's bonus (§24.2, F9), less a net attack's cost (§20.3.2, §9.3.2.2), halved if Prone
    (§16.3)."""
    avail = g.sheet.available_cf(g.pa)
    notes = [f"CF {g.sheet.current_cf}", f"PA {g.pa:+d}", f"Stun −{g.sheet.stun_in_effect}"]
    pb = prestige_bonus(g, foes)  # §35.4.2 (X4): 0 but in the Campaign Game
    if pb:
        avail += pb
        notes.append(f"PB +{pb} (§35.4.2)")
    if g.stumbling:  # §15.5
        avail -= STUMBLE_CF_PENALTY
        notes.append("stumbling −2 (§15.5)")
    bonus, rule = cf_bonus(g)  # §24.2 (F9)
    if bonus:
        avail += bonus
        notes.append(f"two weapons +{bonus} ({rule})")
    mastery = mastery_bonus(g)  # §36.3 MS (TL4)
    if mastery:
        avail += mastery
        notes.append(f"Weapon Mastery +{mastery} (§36.3)")
    if g.net_cf:  # §20.3.2, §9.3.2.2: the net attack made this phase
        avail -= g.net_cf
        notes.append(f"net attack −{g.net_cf} (§20.3.2)")
    if g.posture == "prone":  # §16.3 (E2)
        avail = max(avail, 0) // 2
        notes.append("Prone: half, defence only (§16.3)")
    return avail, notes


def _available(
    state: ColosseumState,
    g: Gladiator,
    foes: Sequence[Gladiator],
    targets: Sequence[tuple[str, int, int]],
    events: list[Event],
) -> None:
    """§9.3.1 (E2) with his largest PA over the men he may attack and his PB against the
    opponents he allocates against (X4: those he may attack; a duel's one opponent)."""
    if not named(state):
        foes = [state.opponent(g.seat)]
    avail, notes = cfs_available(g, foes)
    g.available = avail
    extra: dict[str, object] = {}
    if named(state):
        aims = "; may attack " + ", ".join(
            f"{t} (PA {pa:+d}{f', one attack up to {cap} CF (§27.5)' if cap > 8 else ''})"
            for t, pa, cap in targets
        )
        tail = aims if g.may_attack else "; he may not attack"
        extra["targets"] = [t for t, _, _ in targets]
    else:
        tail = "" if g.may_attack else "; he may not attack"
    events.append(
        event(
            "available",
            "§9.3.1",
            f"{g.seat}: {', '.join(notes)} → {avail} CF available{tail}",
            seat=g.seat,
            available=avail,
            may_attack=g.may_attack,
            **extra,
        )
    )
