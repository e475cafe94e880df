"""Helpers for the Colosseum worked-example and section tests: scripted dice, hand-made log
sheets and duels set up by hand.

`ScriptedDice` answers every throw from a script of (rule, faces) and fails when a die is thrown
under another rule or one more than scripted, for the pure rule modules (attacks, wounds,
logsheet). `RiggedDice` is the match's own seeded dice, except that throws under the rules named
in its script take the scripted faces: engine tests fix exactly the dice the rule under test
reads and stay indifferent to any other die the engine throws.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gladiator.core.dice import Dice, DiceExpr, Roll, parse_dice
from gladiator.core.hexgrid import Hex, neighbor
from gladiator.rules.colosseum.engine import ColosseumRules
from gladiator.rules.colosseum.sheet.logsheet import LogSheet
from gladiator.rules.colosseum.sheet.logsheet_input import log_sheet_from_dict
from gladiator.rules.colosseum.state import ColosseumState

RULES = ColosseumRules()
Faces = int | tuple[int, ...]


def _faces(value: Faces) -> tuple[int, ...]:
    return (value,) if isinstance(value, int) else tuple(value)


def _total(expr: DiceExpr, faces: tuple[int, ...]) -> int:
    assert len(faces) == expr.count, f"{expr} needs {expr.count} faces, scripted {faces}"
    assert all(1 <= f <= (6 if expr.sides == 3 else expr.sides) for f in faces), faces
    if expr.sides == 3:  # §2.5: a D3 is a D6 halved, rounding up
        return sum((f + 1) // 2 for f in faces) + expr.modifier
    return sum(faces) + expr.modifier


class ScriptedDice:
    """`d`, `roll` and `coloured` of `Dice`; every throw pops the next (rule, faces) entry."""

    def __init__(self, *script: tuple[str, Faces]) -> None:
        self.script = [(rule, _faces(v)) for rule, v in script]
        self.log: list[Roll] = []

    def _next(self, rule: str, what: str) -> tuple[int, ...]:
        assert self.script, f"unscripted {what} thrown under {rule}"
        want, faces = self.script.pop(0)
        assert rule == want, f"{what} thrown under {rule}, the script expected {want}"
        return faces

    def d(self, sides: int, purpose: str, rule: str) -> int:
        (face,) = self._next(rule, f"1D{sides} ({purpose})")
        self.log.append(Roll(len(self.log), f"1D{sides}", (face,), face, purpose, rule))
        return face

    def roll(self, notation: str, purpose: str, rule: str) -> int:
        expr = parse_dice(notation)
        faces = self._next(rule, f"{notation} ({purpose})")
        total = _total(expr, faces)
        self.log.append(Roll(len(self.log), str(expr), faces, total, purpose, rule))
        return total

    def coloured(self, colours: Sequence[str], purpose: str, rule: str) -> dict[str, list[int]]:
        faces = self._next(rule, f"{len(colours)}D6 ({purpose})")
        assert len(faces) == len(colours), f"{len(colours)} coloured dice, scripted {faces}"
        self.log.append(
            Roll(
                len(self.log), f"{len(colours)}D6", faces, sum(faces), purpose, rule, tuple(colours)
            )
        )
        out: dict[str, list[int]] = {}
        for colour, face in zip(colours, faces, strict=True):
            out.setdefault(colour, []).append(face)
        return out

    def done(self) -> bool:
        return not self.script


class RiggedDice(Dice):
    """A match's seeded dice whose throws under the rules in `script` take the scripted faces."""

    def __init__(self, seed: int, script: Mapping[str, Sequence[Faces]]) -> None:
        super().__init__(seed)
        self.script = {rule: [_faces(v) for v in values] for rule, values in script.items()}

    def _take(self, rule: str) -> tuple[int, ...] | None:
        queue = self.script.get(rule)
        return queue.pop(0) if queue else None

    def d(self, sides: int, purpose: str, rule: str) -> int:
        faces = self._take(rule)
        if faces is None:
            return super().d(sides, purpose, rule)
        (face,) = faces
        self.log.append(Roll(len(self.log), f"1D{sides}", faces, face, purpose, rule))
        return face

    def roll_detail(self, notation: str | DiceExpr, purpose: str, rule: str) -> Roll:
        faces = self._take(rule)
        if faces is None:
            return super().roll_detail(notation, purpose, rule)
        expr = parse_dice(notation) if isinstance(notation, str) else notation
        r = Roll(len(self.log), str(expr), faces, _total(expr, faces), purpose, rule)
        self.log.append(r)
        return r

    def coloured(self, colours: Sequence[str], purpose: str, rule: str) -> dict[str, list[int]]:
        faces = self._take(rule)
        if faces is None:
            return super().coloured(colours, purpose, rule)
        assert len(faces) == len(colours), f"{len(colours)} coloured dice, scripted {faces}"
        self.log.append(
            Roll(
                len(self.log), f"{len(colours)}D6", faces, sum(faces), purpose, rule, tuple(colours)
            )
        )
        out: dict[str, list[int]] = {}
        for colour, face in zip(colours, faces, strict=True):
            out.setdefault(colour, []).append(face)
        return out

    def spent(self) -> bool:
        """Every scripted throw was asked for."""
        return not any(self.script.values())

    def rules(self) -> list[str]:
        return [r.rule for r in self.log]


def sheet(**changes: Any) -> LogSheet:
    """TR 10, ST 2, AG 1 (CF 13, NF 11), CN 4, W 12; medium, T2 roll 2: head A5, chest B4,
    groin -, arms B4, legs A3, large shield. `name=None` style changes drop a field."""
    data: dict[str, Any] = {
        "id": 5,
        "name": "Spiculus",
        "class": "medium",
        "tr": 10,
        "st": 2,
        "ag": 1,
        "cn": 4,
        "w": 12,
        "armour_roll": 2,
    }
    data.update(changes)
    return log_sheet_from_dict({k: v for k, v in data.items() if v is not None})


def duel(seed: int = 1, **options: Any) -> ColosseumState:
    """A fresh Basic Game duel (red and blue set up by §4), waiting for the first plots."""
    state, _events = RULES.initial_state(RULES.normalise_options(options), Dice(seed))
    return state


def place(state: ColosseumState, **poses: tuple[Hex, int]) -> None:
    """Put gladiators where a test wants them: seat=(hex, facing)."""
    for seat, (h, facing) in poses.items():
        g = state.gladiators[seat]
        g.hex, g.facing = h, facing


def play(
    state: ColosseumState, dice: Dice, red: str = "X", blue: str = "X"
) -> list[dict[str, Any]]:
    """One step of the engine with these orders (plots or allocations, as the state asks)."""
    return RULES.apply(state, {"red": red, "blue": blue}, dice)


def pause(
    state: ColosseumState, turns: int, script: Mapping[str, Sequence[Faces]], seed: int = 9
) -> tuple[RiggedDice, list[dict[str, Any]]]:
    """Both gladiators Pause for `turns` turns (to the end of that turn, or until the match
    ends); the dice (rigged by `script`) and the events."""
    dice = RiggedDice(seed, script)
    events: list[dict[str, Any]] = []
    for _ in range(8 * turns):
        if state.step == "over":
            break
        events += play(state, dice)
    return dice, events


def face_off(state: ColosseumState, *, hand: bool = True) -> None:
    """Red and blue toe to toe, each in the other's front (no PA either way, §9.1.3); with
    `hand`, both carry the hand-made sheet of `sheet()` (red #1, blue #2)."""
    here = Hex(8, 6)
    place(state, red=(here, 0), blue=(neighbor(here, 0), 3))
    if hand:
        for i, seat in enumerate(("red", "blue"), 1):
            state.gladiators[seat].sheet = sheet(id=i, name=seat)


def of_type(events: Sequence[Mapping[str, Any]], kind: str) -> list[Mapping[str, Any]]:
    return [e for e in events if e.get("type") == kind]
