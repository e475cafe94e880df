"""A beast's movement (§28.4) and its collisions (§28.5), after the gladiators have moved.

Each phase the beast rolls 2D6 on T22 (A1: 10-11 turn right, 12 Pause); a bear rolling 2 Pauses
and rears up instead (§28.4.2). It moves every phase and never tires (NOTE §28.4). Its moves are
made one action at a time: a turn pivots the counter on its head, a step moves the whole counter
one hex. Whenever one of its hexes enters a gladiator's hex the collision is automatic (§28.5) and
is resolved as §8.4 with T23 for the beast (A12, Q37).

RULINGS (docs/rulings.md, Colosseum §28, the B series)

B3  §28.4, T22: "toward the closest gladiator" turns the head to face him (the facing that points
    most nearly at him) before each step; "forward and turn" steps, then turns; a turn pivots on
    the head, so a two-hex beast's body swings, and the hex it swings into is entered (§28.5).
    A step or turn that would take either hex off the map is not made and the move ends (B2).
    Each LMP (T25) makes each of its moves a hex shorter (it has no move rate to lose, §17.1).
B13 §28.4, §28.5 (several beasts, B11): the gladiator moves first, every beast's counter blocking
    him (B2); then each beast moves in table order, rolling its own T22. A beast's step or turn
    that would put one of its hexes on another beast's counter is not made and its move ends, as
    at the edge (B2): beasts never collide with each other. A gladiator pushed by a beast (B5) is
    pushed to a hex no beast covers.
B5  §28.5, T23, §8.4: the beast's IF is 1D6 + its kind's DRM + 2 per hex it moved this phase,
    the hex of the collision included; the gladiator's is T12's (the steps of his plot this phase
    forward and backward; no PA: the beast comes into his own hex). The winner is the attacker
    (§8.4.1): a beast that wins stays and pushes him one hex on, away from the counter (the
    nearest free hex on the map if that one is not), keeping his facing; a gladiator who wins
    holds his hex and the beast goes back to where it was before the action. On a tie both are
    defenders (Q36): the beast goes back, he stays. Each defender rolls 2D6 + (Atk IF − Def IF)
    on T7's Stun row; a gladiator takes the column's extra too and checks for Stumble (§8.4.4), a
    beast takes only the Stun (it drops nothing and does not fall). Either way the beast's move
    ends (§8.2).
"""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise

from gladiator.core.dice import Dice
from gladiator.core.hexgrid import (
    DIRECTIONS,
    Hex,
    add,
    distance,
    facing_toward,
    opposite,
    relation_of,
    sub,
)
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.arena.board import board_of
from gladiator.rules.colosseum.arena.positions import Position, hex_text
from gladiator.rules.colosseum.beasts.beasts import counter_hexes, gladiator_of
from gladiator.rules.colosseum.events import event, sheet_events
from gladiator.rules.colosseum.hits.hits import stun_hit
from gladiator.rules.colosseum.hits.items import lose_item
from gladiator.rules.colosseum.hits.wounds import ItemDrop, stun_check
from gladiator.rules.colosseum.kit.nets import split_net
from gladiator.rules.colosseum.movement.stumble_check import HOLD_GROUND_IF, stumble
from gladiator.rules.colosseum.plots.plots import ItemKind, parse_plot, path
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.tables.advanced_tables import advanced_tables
from gladiator.rules.colosseum.tables.tables import tables

__all__ = ["STANDS", "beast_moves", "beasts_hexes", "gladiator_if_drms", "steps_moved"]

STANDS = "-"  # a beast's plot while the gladiators move: it stands (§28.4)

Action = tuple[str, int]  # ("turn", new facing) or ("step", direction)


def steps_moved(text: str, g_hex: Hex, facing: int) -> tuple[int, int]:
    """B5: T12's hexes moved forward and backward by the gladiator's plot."""
    plot_text, _ = split_net(text)  # a net order is no step (in a hunt only a drop, B17)
    poses = path(parse_plot(plot_text).bare(), g_hex, facing)
    forward = backward = 0
    for a, b in pairwise(poses):
        if a.hex != b.hex:
            if relation_of(a.hex, a.facing, b.hex) in (0, 1, 5):
                forward += 1
            else:
                backward += 1
    return forward, backward


def beasts_hexes(state: ColosseumState, but: Gladiator | None = None) -> set[Hex]:
    """Every hex a beast's counter covers (B2, B13), leaving out `but`'s."""
    return {
        h
        for b in state.gladiators.values()
        if b.beast is not None and b is not but
        for h in counter_hexes(b)
    }


def _actions(b: Gladiator, target: Hex, move: str, hexes: int, turn: str | None) -> list[Action]:
    """B3: T22's row as turns and steps, worked out one at a time (toward needs the head)."""
    out: list[Action] = []
    f = b.facing
    if move == "backward":
        out += [("step", opposite(f))] * hexes
    elif move == "forward":
        out += [("step", f)] * hexes
    elif move == "toward":
        out += [("toward", 0)] * hexes
    if turn is not None:
        out.append(("turn", -1 if turn == "left" else 1))
    return out


def gladiator_if_drms(g: Gladiator, forward: int, backward: int) -> list[tuple[str, int]]:
    """T12 for the gladiator in a beast collision (B5): no PA."""
    t = tables().collision.t12.drms
    s = g.sheet
    parts = [
        ("heavy", t.heavy.drm, s.gladiator_class == "heavy"),
        ("medium", t.medium.drm, s.gladiator_class == "medium"),
        ("large shield", t.large_shield.drm, g.has_shield and s.shield == "large"),
        ("no shield", t.no_shield.drm, not g.has_shield or s.shield is None),
        ("moved forward", forward * t.moved_forward.drm, forward > 0),
        ("moved backward", backward * t.moved_backward.drm, backward > 0),
        ("kneeling/stumbling", t.kneeling_or_stumbling.drm, g.posture == "kneeling" or g.stumbling),
        ("recover", t.attempted_recover.drm, g.last_plot.strip().upper() == "R"),
        ("stun", s.stun_in_effect * t.stun.drm, s.stun_in_effect > 0),
        ("ST", s.current_st * t.strength.drm, True),
        ("AG", s.current_ag * t.agility.drm, True),
        ("hold ground", HOLD_GROUND_IF, "HG" in g.talents),  # §36.3 HG
    ]
    return [(name, v) for name, v, on in parts if on and v]


def beast_moves(
    state: ColosseumState,
    b: Gladiator,
    moved: tuple[int, int],
    dice: Dice,
    events: list[Event],
) -> None:
    """§28.4, §28.5: the beast's T22 roll and move; `moved` is the gladiator's forward and
    backward steps this phase (T12)."""
    assert b.beast is not None
    beast = replace(b.beast, reared=False, moved=0)
    b.beast = beast
    if not b.alive or b.sheet.unconscious:
        return
    data = advanced_tables().beasts
    t22 = data.t22
    roll = dice.roll(t22.dice, f"{b.seat}'s movement (T22)", "§28.4.1")
    row = t22.row(roll)
    if beast.kind == "bear" and roll in t22.bear_rears_on:
        b.beast = replace(beast, reared=True, last_move="rears up")
        events.append(
            event(
                "beast_move",
                "§28.4.2",
                f"{b.seat} ({beast.name}) rolls {roll}: it Pauses and rears up on its hind legs "
                "this phase (+4 CF, areas 1, 2, 4 only, §28.6.1)",
                seat=b.seat,
                roll=roll,
                reared=True,
            )
        )
        return
    hexes = max(0, row.hexes - b.crits.lmp)  # B3
    b.beast = replace(beast, last_move=row.text)
    events.append(
        event(
            "beast_move",
            "§28.4.1",
            f"{b.seat} ({beast.name}) rolls {roll} on T22: {row.text}"
            + (f" (lamed: {hexes} hex{'es' * (hexes != 1)})" if hexes != row.hexes else ""),
            seat=b.seat,
            roll=roll,
        )
    )
    if row.pause:
        return
    g = gladiator_of(state)
    board = board_of(state)
    others = beasts_hexes(state, but=b)
    for kind, value in _actions(b, g.hex, row.move, hexes, row.turn):
        before = Position(b.hex, b.facing)
        head, facing = b.hex, b.facing
        if kind == "toward":
            facing = facing_toward(head, g.hex) if g.hex != head else facing
            kind, value = "step", facing
            if facing != b.facing and _fits(b, head, facing, board, g, others):
                b.facing = facing  # it turns toward him first (B3)
                if _entered(state, b, before, g, dice, events, moved, stepped=False):
                    return
                before = Position(b.hex, b.facing)
        if kind == "turn":
            facing = (b.facing + value) % 6
        else:
            head = add(b.hex, DIRECTIONS[value])
        if not _fits(b, head, facing, board, g, others):
            events.append(
                event(
                    "beast_edge",
                    "§28.4",
                    f"{b.seat} stops at the edge of the arena (B2)",
                    seat=b.seat,
                )
            )
            return
        b.hex, b.facing = head, facing
        if kind == "step":
            b.beast = replace(b.beast, moved=b.beast.moved + 1)
        if _entered(state, b, before, g, dice, events, moved, stepped=kind == "step"):
            return


def _fits(
    b: Gladiator, head: Hex, facing: int, board: object, g: Gladiator, others: set[Hex]
) -> bool:
    # B13: nor onto another beast's counter (a pack; `others` is empty against one beast).
    return all(
        h in board and h not in others  # type: ignore[operator]
        for h in counter_hexes(b, head, facing)
    )


def _entered(
    state: ColosseumState,
    b: Gladiator,
    before: Position,
    g: Gladiator,
    dice: Dice,
    events: list[Event],
    moved: tuple[int, int],
    *,
    stepped: bool,
) -> bool:
    """§28.5: a collision when the counter has just entered his hex; True if there was one."""
    now = counter_hexes(b)
    if not g.alive or g.hex not in now or g.hex in counter_hexes(b, *before):
        return False
    _collide(state, b, g, before, moved, dice, events)
    return True


def _push_hex(state: ColosseumState, b: Gladiator, at: Hex) -> Hex:
    """B5: one hex on from the counter's hex next to him, else the nearest free hex."""
    board = board_of(state)
    body = counter_hexes(b)
    near = min((h for h in body if h != at), key=lambda h: distance(h, at), default=None)
    if near is None:  # a wolf: away from where it came from
        near = add(at, DIRECTIONS[opposite(b.facing)])
    beyond = add(at, sub(at, near))
    taken = set(body) | beasts_hexes(state, but=b)  # B13: no beast's hex in a pack
    if beyond in board and beyond not in taken:
        return beyond
    for r in range(1, 8):
        ring = [h for h in board.hexes if distance(h, at) == r and h not in taken]
        if ring:
            return min(ring, key=lambda h: (distance(h, beyond), h))
    return at


def _collide(
    state: ColosseumState,
    b: Gladiator,
    g: Gladiator,
    before: Position,
    moved: tuple[int, int],
    dice: Dice,
    events: list[Event],
) -> None:
    assert b.beast is not None
    t23 = advanced_tables().beasts.t23
    kind = b.beast.kind
    die_b = dice.roll(t23.dice, f"{b.seat}'s impact factor (T23)", "§28.5.1")
    beast_if = die_b + t23.beast[kind] + t23.moved.drm * b.beast.moved
    die_g = dice.roll(tables().collision.t12.dice, f"{g.seat}'s impact factor (T12)", "§8.4")
    drms = gladiator_if_drms(g, *moved)
    glad_if = die_g + sum(v for _, v in drms)
    at = g.hex
    events.append(
        event(
            "beast_collision",
            "§28.5",
            f"{b.seat} ({b.beast.name}) runs into {g.seat} at {hex_text(at)}: a collision, "
            f"automatic. {b.seat} IF 1D6 {die_b} + {t23.beast[kind]} ({b.beast.name}) + "
            f"{t23.moved.drm}×{b.beast.moved} hexes = {beast_if}; {g.seat} IF 1D6 {die_g} "
            + "".join(f" {v:+d} {n}" for n, v in drms)
            + f" = {glad_if}",
            seat=b.seat,
            beast_if=beast_if,
            gladiator_if=glad_if,
        )
    )
    board = board_of(state)

    def lose(x: Gladiator, item: ItemKind, drop: ItemDrop | None, cause: str) -> None:
        lose_item(state, board, x, item, drop, cause, events)

    if beast_if > glad_if:
        g.hex = _push_hex(state, b, at)
        events.append(
            event(
                "pushed",
                "§8.4.1",
                f"{b.seat} wins: it holds {hex_text(at)} and {g.seat} is pushed to "
                f"{hex_text(g.hex)}",
                seat=g.seat,
            )
        )
    else:
        b.hex, b.facing = before.hex, before.facing
        b.beast = replace(b.beast, moved=max(0, b.beast.moved - 1))
        events.append(
            event(
                "pushed",
                "§8.4.2" if beast_if == glad_if else "§8.4.1",
                f"{'a tie' if beast_if == glad_if else f'{g.seat} wins'}: {g.seat} holds "
                f"{hex_text(at)} and {b.seat} goes back",
                seat=b.seat,
            )
        )
    if beast_if >= glad_if:  # the gladiator is a defender
        stun_hit(
            state,
            g,
            beast_if - glad_if,
            dice,
            events,
            lose,
            purpose="collision with the beast",
            rule="§28.5",
        )
        rule = state.options["stumble_rule"]
        why = "after losing a collision with the beast"
        stumble(g, moved[1], dice, rule, why, "§8.4.4", events, tell=False)
    if glad_if >= beast_if:  # the beast is a defender: the Stun alone (B5)
        n, _extra = stun_check(
            dice, glad_if - beast_if, purpose=f"{b.seat}'s collision", rule="§28.5"
        )
        b.sheet, evs = b.sheet.with_stun(n, turn=state.turn, phase=state.phase)
        events.append(event("stun", "§28.5", f"{b.seat}: Stun {n}", seat=b.seat, stun=n))
        events.extend(sheet_events(b.seat, evs))
