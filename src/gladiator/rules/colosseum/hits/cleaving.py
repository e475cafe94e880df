"""The Advanced Game's cleaving (§26): a man killed by a Kill on T7's Wound row leaves Blood
counters round his body (§26.2), and whoever then enters a hex with one checks for Stumble at
once (§26.3). The numbers are data (advanced_combat.toml `[cleaving]`, T15 in items.toml).

The blood on the sand that the Basic Game keeps (`ColosseumState.blood`, the hexes where a wound
was marked) is only drawn; the Blood counters (`ColosseumState.blood_counters`) are counters of
the game, drawn as marks of their own kind and read by play.

RULINGS (docs/rulings.md, the K series)

K1  §26.2, Q17: "drop 1D3 Blood counters around the body [see 13.2]": each counter is placed as
    a dropped item is, 1D6 on T15 for the direction relative to the body's facing and 1D6 − 1
    for the distance, one counter after the other, never off the board (I8; at a wall it stops
    against it, W8). Several may lie in one hex. Only a T7 Kill cleaves: a critical K or a full
    body area kills without cleaving (§26.2 names the Wound & Stun Severity Table, Q28). Only a
    man is cleaved (B19: a beast is no gladiator); a beast's T7 Kill cleaves the man it kills.
K2  §26.3: a gladiator whose track this phase enters a hex where a Blood counter lay at the start
    of the phase (a step, a Roll or a push; not the hex he started in) checks for Stumble once
    that phase (§15.2.1, Q5, with his hexes moved backward and the Stun in effect), after the
    collisions and §15.1's check (E11), unless he has already tripped or lies Prone. In a duel a
    cleaving ends the match, so §26.3 first matters with three or more in the arena (§27, §28).
K3  §26.3, §35.5.2: the killer's +1 PR for a cleaving is the Campaign Game's; the `cleaving`
    event names him (`killer`) for it.
"""

from __future__ import annotations

from collections.abc import Mapping

from gladiator.core.dice import Dice
from gladiator.core.hexgrid import Hex, HexMap, Relation, neighbor_at
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.arena.positions import hex_text
from gladiator.rules.colosseum.events import event
from gladiator.rules.colosseum.movement.stumble_check import stumble
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.tables.advanced_tables import advanced_tables
from gladiator.rules.colosseum.tables.tables import tables

__all__ = ["blood_checks", "cleave"]


def _way(board: HexMap, start: Hex, facing: int, side: int, steps: int) -> Hex:
    """`steps` hexes from `start` through his side `side`, stopped at the board's edge (I8)."""
    last = h = start
    for _ in range(steps):
        h = neighbor_at(h, facing, side)
        if h not in board:
            break
        last = h
    return last


def cleave(
    state: ColosseumState,
    board: HexMap,
    victim: Gladiator,
    killer: Gladiator,
    dice: Dice,
    events: list[Event],
) -> None:
    """§26.2 (K1, K3): the Blood counters dropped round the body of a man cleaved by a T7 Kill."""
    spec = advanced_tables().combat.cleaving
    t15 = tables().items.t15
    count = dice.roll(spec.blood_dice, f"{victim.seat} is cleaved: Blood counters", "§26.2")
    placed: list[Hex] = []
    for k in range(1, count + 1):
        roll = dice.roll(t15.direction_dice, f"Blood counter {k}: direction (T15)", "§26.2")
        direction = t15.directions[roll].direction
        far = dice.roll(t15.distance_dice, f"Blood counter {k}: distance", "§26.2")
        steps = min(max(far + t15.distance_modifier, 0), t15.max_distance)
        side = int(Relation.from_code(direction))
        placed.append(_way(board, victim.hex, victim.facing, side, steps))
    state.blood_counters.extend(placed)
    where = ", ".join(hex_text(h) for h in placed)
    events.append(
        event(
            "cleaving",
            "§26.2",
            f"{killer.seat}'s blow cleaves {victim.seat} (T7 Kill): {count} Blood counter"
            f"{'s' if count != 1 else ''} round the body, at {where}",
            killer=killer.seat,
            victim=victim.seat,
            hexes=[[h.q, h.r] for h in placed],
        )
    )


def blood_checks(
    state: ColosseumState,
    tracks: Mapping[str, tuple[tuple[Hex, str], ...]],
    counters: set[Hex],
    dice: Dice,
    events: list[Event],
) -> None:
    """§26.3 (K2): the Stumble check of each man who entered a hex with a Blood counter."""
    if not counters:
        return
    for seat, g in state.gladiators.items():
        steps = tracks.get(seat, ())[1:]
        if g.must_stumble or not g.alive or g.posture == "prone":
            continue
        if not any(h in counters for h, _ in steps):
            continue
        back = sum(1 for _, kind in steps if kind == "backward")
        why = "after entering a hex with a Blood counter"
        stumble(g, back, dice, state.options["stumble_rule"], why, "§26.3", events)
