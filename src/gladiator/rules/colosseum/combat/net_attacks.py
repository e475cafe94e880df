"""The net attacks of a phase (§5.2.5, §20.3-§20.8; Advanced Game), after movement, recovery and
kicks and before the combat step: Toss (§20.5, T16), Swing (§20.6, T17, T17b) and Lay (§20.7,
T18) read on the CRT's "0" column, their results (ensnared, Stumble, a Stumble check, the net
grabbed and fought over, §20.8.1), a net let go (§20.5.6) or dropped (§20.8.2).

RULINGS (docs/rulings.md, the N series)

N5  §20.5.3, §20.6.4, §20.7.3: a net attack is 3D6 + its table's DRMs on column 1 with −1 (the
    "0" column, §9.5.3); the result is the cell as read, with no §9.6 conversion for a target
    lacking a shield or weapon (the net is not parried). The DRMs are measured after movement:
    range, T11's PA of the Retiarius on the target (§9.2.1's status bonuses included), the hexes
    the target stepped forward and backward this phase (his own steps, not a push), the
    hex-sides he turned without leaving his hex. A Repel Net is no Pause (T16's +2).
N6  §20.5.3, §20.6.4, §20.7.3, §15.2.1: "check for Stumble" is §15.2.1's check (option
    `stumble_rule`), less the hexes he moved backward this phase; "Stumble" is a trip: he must
    write S next phase (§15.3). Neither touches a man already Prone.
N7  §20.6.1 (Q18): the swing meets the hexes of the 2-hex front in T17b's order and stops at the
    first figure, friend or foe; if that figure is Kneeling, Prone or a friend nothing happens.
    §20.7, §20.7.2: the Lay Net hex is one of the Retiarius's 1-hex front after his movement; it
    catches each opponent whose track this phase entered it, and nobody who stood there still.
N8  §20.8, §20.8.1, §21.5.1: on F (a hook, §21.5: also S) the target grabs the net: 1D6 + ST each
    (the hook +1), a tie to the Retiarius. A target who wins takes it in a free hand, or lets it
    fall in his hex if he has none.
N9  §20.8.2, §20.5.6, T14: a net dropped on purpose lies in the adjacent hex chosen (in his own
    if that one is off the board) as a ground item: it cannot be kicked or thrown, trips like any
    item (§15.1, E11) and is picked up with T14's −3 by anyone with a free hand and no net. A
    net let go stays on its victim; when he escapes it falls in his hex.
N13 §9.3.3, §20.3.1, §20.4: no defence CF meets a net attack: it is read here, before anyone
    allocates, with no defence in the column; RN's −6 is the way to repel it.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

from gladiator.core.dice import Dice
from gladiator.core.hexgrid import DIRECTIONS, Hex, add, distance, neighbor_at, scale
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.arena.board import board_of
from gladiator.rules.colosseum.arena.combat_geometry import in_front, positional_advantage
from gladiator.rules.colosseum.combat.crt import read_crt
from gladiator.rules.colosseum.events import event
from gladiator.rules.colosseum.kit.nets import (
    LOOSE,
    RETIARIUS,
    NetOrder,
    attack_spec,
    phase_number,
    victim_of,
)
from gladiator.rules.colosseum.kit.weapons import HANDS, hands_used, weapon
from gladiator.rules.colosseum.movement.stumble_check import stumble_check
from gladiator.rules.colosseum.plots.plots import KICK_DIRECTIONS, Pose
from gladiator.rules.colosseum.state import ColosseumState, Gladiator, GroundItem
from gladiator.rules.colosseum.tables.advanced_tables import advanced_tables
from gladiator.rules.colosseum.tables.net_tables import NetAttack
from gladiator.rules.colosseum.tables.table_schema import Modifier

__all__ = ["front_hex", "lay_hex", "net_drms", "resolve_net_orders", "struggle", "swing_target"]

Track = tuple[tuple[Hex, str], ...]


def front_hex(origin: Hex, facing: int, fl: int, fr: int) -> Hex:
    """The hex fl·FL + fr·FR from origin in the frame of a figure facing `facing`."""
    left, right = DIRECTIONS[(facing - 1) % 6], DIRECTIONS[(facing + 1) % 6]
    return add(origin, add(scale(left, fl), scale(right, fr)))


def lay_hex(g: Gladiator, n: int) -> Hex:
    """§20.7, N7: LN1 left-front, LN2 front, LN3 right-front, after his movement."""
    h = advanced_tables().nets.attack("LN").hexes[n]
    return front_hex(g.hex, g.facing, h.fl, h.fr)


def swing_target(g: Gladiator, figures: Sequence[Gladiator]) -> Gladiator | None:
    """§20.6.1, T17b (N7): the first figure the swing meets, in T17b's order."""
    where = {f.hex: f for f in figures if f.alive and f.seat != g.seat}
    for fl, fr in advanced_tables().nets.t17b.hexes:
        hit = where.get(front_hex(g.hex, g.facing, fl, fr))
        if hit is not None:
            return hit
    return None


def _steps(track: Track, kind: str) -> int:
    return sum(1 for _, k in track[1:] if k == kind)


def _turned_in_place(poses: Sequence[Pose]) -> int:
    total = 0
    for a, b in itertools.pairwise(poses):
        if a.hex == b.hex and a.facing != b.facing:
            d = (b.facing - a.facing) % 6
            total += min(d, 6 - d)
    return total


def net_drms(
    spec: NetAttack,
    g: Gladiator,
    t: Gladiator,
    track: Track,
    poses: Sequence[Pose],
    paused: bool,
) -> list[tuple[int, str]]:
    """T16/T17/T18 (N5): each DRM of the attack's table that applies, with its condition."""
    drms: Mapping[str, Modifier] = dict(getattr(advanced_tables().nets, spec.table).drms)
    rng = distance(g.hex, t.hex)
    counts: dict[str, int] = {
        "target_heavy": int(t.sheet.gladiator_class == "heavy"),
        "target_light": int(t.sheet.gladiator_class == "light"),
        "target_adjacent": int(rng == 1),
        "target_two_hexes": int(rng == 2),
        "target_moved_backward": _steps(track, "backward"),
        "target_moved_forward": _steps(track, "forward"),
        "target_rotated": _turned_in_place(poses),
        "target_paused": int(paused and t.net_order != "RN"),
        "target_kneeling": int(t.posture == "kneeling"),
        "repel_net": int(t.net_order == "RN"),
        "target_legs_cf_lost": t.sheet.cf_lost_to_wounds("legs"),
        "retiarius_arms_cf_lost": g.sheet.cf_lost_to_wounds("arms"),
        "nf_difference": g.sheet.current_nf - t.sheet.current_nf,
        "positional_advantage": positional_advantage(
            g.pose,
            t.pose,
            left_handed=t.left_handed,
            stumbling=t.stumbling,
            prone=t.posture == "prone",
            ensnared=bool(t.ensnared),
        ),
        "non_retiarius": int(g.style != RETIARIUS),
    }
    out: list[tuple[int, str]] = []
    for name, mod in drms.items():
        n = counts[name]
        if n:
            out.append((mod.total(n), mod.condition))
    return out


def struggle(
    state: ColosseumState, g: Gladiator, t: Gladiator, dice: Dice, events: list[Event]
) -> None:
    """§20.8.1 (N8): the target has grabbed the net; the higher 1D6 + ST holds it."""
    rule = advanced_tables().nets.ensnare.struggle
    mine = dice.roll(rule.dice, f"{g.seat} fights for his net, 1D6 + ST", "§20.8.1")
    theirs = dice.roll(rule.dice, f"{t.seat} fights for the net, 1D6 + ST", "§20.8.1")
    hook = weapon("hook").net_struggle_drm if t.hook else 0
    a, b = mine + g.sheet.current_st, theirs + t.sheet.current_st + hook
    kept = a >= b if rule.tie_to_retiarius else a > b
    text = (
        f"{t.seat} grabs the net: {g.seat} 1D6 {mine} + ST {g.sheet.current_st} = {a}, {t.seat} "
        f"1D6 {theirs} + ST {t.sheet.current_st}" + (f" + hook {hook}" if hook else "") + f" = {b}"
    )
    if kept:
        events.append(event("net_struggle", "§20.8.1", f"{text}: {g.seat} keeps it", seat=g.seat))
        return
    g.net = False
    if not t.net and hands_used(t) < HANDS:
        t.net = True
        events.append(event("net_struggle", "§20.8.1", f"{text}: {t.seat} takes it", seat=t.seat))
        return
    state.items.append(GroundItem("net", g.seat, t.hex))
    events.append(
        event(
            "net_struggle",
            "§20.8.1",
            f"{text}: {t.seat} tears it away, and with no hand free lets it fall",
            seat=t.seat,
        )
    )


def _stumble(
    state: ColosseumState,
    t: Gladiator,
    checked: bool,
    track: Track,
    spec: NetAttack,
    dice: Dice,
    events: list[Event],
) -> None:
    """N6: a trip (he must Stumble next phase) or §15.2.1's check for one."""
    if t.posture == "prone" or not t.alive:
        events.append(event("net_effect", spec.section, f"{t.seat} is down already: no effect"))
        return
    if checked:
        check, ev = stumble_check(
            t.seat,
            _steps(track, "backward"),
            t.sheet.stun_in_effect,
            dice,
            state.options["stumble_rule"],
            f"from the {spec.name.lower()}",
            spec.section,
        )
        events.append(ev)
        if not check.stumbled:
            return
    t.must_stumble = True
    events.append(
        event("tripped", spec.section, f"{t.seat} tripped: he must write S next phase", seat=t.seat)
    )


def _attack(
    state: ColosseumState,
    g: Gladiator,
    order: NetOrder,
    tracks: Mapping[str, Track],
    paths: Mapping[str, Sequence[Pose]],
    paused: Mapping[str, bool],
    dice: Dice,
    events: list[Event],
) -> None:
    spec = attack_spec(order)
    now = phase_number(state)
    if spec.blocked_phases:  # §20.5.1, §20.6.2 (N2): counted even with nobody to hit
        ready = now + spec.blocked_phases + 1
        if order.code == "TN":
            g.toss_ready = ready
        else:
            g.swing_ready = ready
        if state.options.get("net_reuse", "net") == "net":  # N2: the whole net waits
            g.net_ready = max(g.net_ready, ready)
    g.net_cf = spec.cf  # §20.3.2: out of his CFs available this phase
    others = [o for o in state.gladiators.values() if o.seat != g.seat and o.alive]
    foes = [o for o in state.opponents(g.seat) if o.alive]  # G19: never cast at a friend
    targets: list[Gladiator]
    if order.code == "TN":  # G19: at the nearest opponent in his three-hex front
        near = [o for o in foes if in_front(g.pose, o.pose, region="three_hex")]
        targets = sorted(near, key=lambda o: distance(g.hex, o.hex))[:1]
    elif order.code == "SN":
        first = swing_target(g, others)
        friend = first is not None and first not in foes  # N7: a friend is not caught
        if first is not None and (friend or first.posture in spec.no_effect_on):
            why = "his friend" if friend else first.posture
            events.append(
                event(
                    "net_attack",
                    spec.section,
                    f"{g.seat}'s net swing meets {first.seat}, {why}: no effect",
                    seat=g.seat,
                    net=order.text,
                )
            )
            return
        targets = [first] if first is not None else []
    else:
        h = lay_hex(g, order.where)
        targets = [o for o in foes if any(x == h for x, _ in tracks.get(o.seat, ())[1:])]
    if not targets:
        if spec.blocked_phases:  # §20.5.1.1, §20.6.3 (N12): cast at nobody, it rests
            g.net_ready = now + spec.blocked_phases + 1
        events.append(
            event(
                "net_attack",
                spec.section,
                f"{g.seat} {spec.name.lower()}s ({order.text}): nobody there; the net is used "
                f"all the same ({spec.cf} CF)",
                seat=g.seat,
                net=order.text,
            )
        )
        return
    for t in targets:
        drms = net_drms(spec, g, t, tracks.get(t.seat, ()), paths.get(t.seat, ()), paused[t.seat])
        drm = sum(v for v, _ in drms)
        outcome, _ = read_crt(
            dice,
            advanced_tables().nets.net_attacks.crt_column,
            'the "0" column',
            attack_cf=0,
            defence_cf=0,
            unweakened_cf=0,
            drm=drm,
            crt=state.options["crt"],
            label=f"{spec.name} at {t.seat}",
            defender=t.seat,
            rule=spec.section,
        )
        code = outcome.crt.code
        effect = spec.results.get(code)
        hook = weapon("hook")
        if t.hook and t.has_shield and code in hook.grabs_net_on:  # §21.5
            effect = "net_grabbed"
        shown = "; ".join(f"{v:+d} {why}" for v, why in drms) or "no DRM"
        events.append(
            event(
                "net_attack",
                spec.section,
                f"{g.seat} {spec.name.lower()}s at {t.seat} ({order.text}): 3D6 {outcome.roll}, "
                f'DRMs {shown}, on the "0" column: {outcome.crt}'
                + ("" if effect else " (no effect)"),
                seat=g.seat,
                target=t.seat,
                net=order.text,
                result=str(outcome.crt),
            )
        )
        if effect == "ensnare":
            t.ensnared = g.seat
            events.append(
                event(
                    "ensnared",
                    "§20.5.4",
                    f"{t.seat} is ensnared: he may not turn, and allocates only to defence and "
                    "escape; attackers get +4 PA (§9.2.1.3)",
                    seat=t.seat,
                )
            )
        elif effect in ("stumble", "stumble_check"):
            track = tracks.get(t.seat, ())
            _stumble(state, t, effect == "stumble_check", track, spec, dice, events)
        elif effect == "net_grabbed":
            struggle(state, g, t, dice, events)


def _drop(state: ColosseumState, g: Gladiator, side: int, events: list[Event]) -> None:
    """§20.8.2 (N9): the net into the adjacent hex on his side `side`."""
    to = neighbor_at(g.hex, g.facing, side)
    if to not in board_of(state):
        to = g.hex
    g.net = False
    state.items.append(GroundItem("net", g.seat, to))
    events.append(
        event(
            "net_dropped",
            "§20.8.2",
            f"{g.seat} drops his net {KICK_DIRECTIONS[side]}, at {to.q},{to.r}",
            seat=g.seat,
        )
    )


def resolve_net_orders(
    state: ColosseumState,
    orders: Mapping[str, NetOrder],
    tracks: Mapping[str, Track],
    paths: Mapping[str, Sequence[Pose]],
    paused: Mapping[str, bool],
    collided: set[str],
    dice: Dice,
    events: list[Event],
) -> None:
    """§5.2.5, §20.3-§20.8: each net order of the phase, in seat order."""
    for seat, order in orders.items():
        g = state.gladiators[seat]
        if order.code == "LG":
            victim = victim_of(state, g)
            if victim is not None and g.net:
                g.net = False
                victim.ensnared = LOOSE
                events.append(
                    event(
                        "net_let_go",
                        "§20.5.6",
                        f"{seat} lets go of his net; {victim.seat} stays ensnared",
                        seat=seat,
                    )
                )
        elif order.code == "DN":
            if g.net and victim_of(state, g) is None:
                _drop(state, g, order.where, events)
        elif order.attack:
            if seat in collided:  # §20.3.3 (N2): never made
                events.append(
                    event(
                        "net_cancelled",
                        "§20.3.3",
                        f"{seat} was in a collision: his {order.text} is cancelled",
                        seat=seat,
                    )
                )
                continue
            if not g.alive or g.sheet.unconscious or g.posture == "prone" or not g.net:
                events.append(
                    event(
                        "net_cancelled",
                        "§20.2",
                        f"{seat} is in no state to use the net: his {order.text} is not made",
                        seat=seat,
                    )
                )
                continue
            _attack(state, g, order, tracks, paths, paused, dice, events)
