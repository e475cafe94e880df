"""The Stumble check (§15.1, §15.2.1, Q5, M11): asked for by a lost collision (§8.4.4), a step
backward onto an item (§15.1), a wall (§25.4), a sprint (§36.3 SP), a Blood counter (§26.3) or a
net (§20); and the Hold Ground talent's impact factor (§8.4, §36)."""

from __future__ import annotations

from typing import Protocol

from gladiator.rules.colosseum.events import Event, event
from gladiator.rules.colosseum.movement.collision_records import StumbleCheck, StumbleRule
from gladiator.rules.colosseum.state import Gladiator

__all__ = ["HOLD_GROUND_IF", "MovementDice", "stumble", "stumble_check"]

HOLD_GROUND_IF = 3  # §8.4, §36: the Hold Ground talent's IF bonus (not printed in T12)


class MovementDice(Protocol):
    """What this module needs of `gladiator.core.dice.Dice`."""

    def d(self, sides: int, purpose: str, rule: str) -> int: ...

    def roll(self, notation: str, purpose: str, rule: str) -> int: ...


def stumble_check(
    n: str,
    backward: int,
    stun: int,
    dice: MovementDice,
    rule: StumbleRule = "text",
    why: str = "after losing a collision",
    section: str = "§8.4.4",
) -> tuple[StumbleCheck, Event]:
    """§15.1, §15.2.1 (Q5, M11): 1D6 - hexes moved backward - Stun in effect, below 1 he has
    stumbled (`rule="reference"`: 2D6 - Stun - backward, below 7). `section` names the rule that
    asked for the check (§8.4.4 a lost collision, §15.1 stepping back onto an item)."""
    if rule == "text":
        roll = dice.d(6, f"{n} Stumble check {why}", "§15.2.1")
        total = roll - backward - stun
        stumbled = total < 1
        formula = f"1D6 {roll} - {backward} backward - {stun} Stun = {total}, below 1"
    else:
        roll = dice.roll("2D6", f"{n} Stumble check {why}", "§15.2.1")
        total = roll - stun - backward
        stumbled = total < 7
        formula = f"2D6 {roll} - {stun} Stun - {backward} backward = {total}, below 7"
    verdict = "he stumbles and must Stumble next phase" if stumbled else "he keeps his feet"
    ev = event(
        "stumble_check",
        section,
        f"{n} Stumble check (§15.2.1): {formula}? {verdict}",
        figure=n,
        stumbled=stumbled,
    )
    return StumbleCheck(n, rule, roll, backward, stun, total, stumbled), ev


def stumble(
    g: Gladiator,
    backward: int,
    dice: MovementDice,
    rule: StumbleRule,
    why: str,
    section: str,
    events: list[Event],
    *,
    tell: bool = True,
) -> bool:
    """§15.2.1: `g`'s Stumble check, which `section` asked for; if he stumbled he must write S
    next phase (§15.3), and with `tell` the log says so. True if he stumbled."""
    check, ev = stumble_check(g.seat, backward, g.sheet.stun_in_effect, dice, rule, why, section)
    events.append(ev)
    if check.stumbled:
        g.must_stumble = True
        if tell:
            events.append(
                event(
                    "tripped",
                    section,
                    f"{g.seat} tripped: he must write S next phase",
                    seat=g.seat,
                )
            )
    return check.stumbled
