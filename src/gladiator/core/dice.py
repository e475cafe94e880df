"""Seeded dice with a complete, replayable log of every roll.

One `Dice` object per match. Each roll is recorded with what it was for and the rule section that
asked for it, so a match record shows `§9.5 CRT 3D6 = 11` for every die that was thrown.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

__all__ = ["Dice", "DiceExpr", "Roll", "parse_dice"]


class Roll(NamedTuple):
    """One recorded throw: the notation, the faces as they fell, and why it was thrown."""

    n: int
    notation: str
    faces: tuple[int, ...]
    total: int
    purpose: str
    rule: str
    colours: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "n": self.n,
            "dice": self.notation,
            "faces": list(self.faces),
            "total": self.total,
            "for": self.purpose,
            "rule": self.rule,
        }
        if self.colours:
            d["colours"] = list(self.colours)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Roll:
        return cls(
            int(d["n"]),
            str(d["dice"]),
            tuple(int(f) for f in d["faces"]),
            int(d["total"]),
            str(d["for"]),
            str(d["rule"]),
            tuple(str(c) for c in d.get("colours", ())),
        )

    def __str__(self) -> str:
        faces = ",".join(map(str, self.faces))
        return f"{self.rule} {self.purpose}: {self.notation} [{faces}] = {self.total}"


_NOTATION = re.compile(r"^\s*(\d*)\s*D\s*(66|\d+)\s*(?:([+-])\s*(\d+))?\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class DiceExpr:
    """A parsed dice expression: `count` dice of `sides` plus `modifier`.

    `sides == 3` means the board-game D3: a D6 halved and rounded up (§2.5 of the Colosseum
    Edition), so the faces recorded are the D6 faces actually thrown. `sides == 66` is D66:
    a red tens die and a white units die, read as a two-digit number 11..66.
    """

    count: int
    sides: int
    modifier: int = 0

    def __str__(self) -> str:
        if self.sides == 66:
            return "D66"
        mod = f"{self.modifier:+d}" if self.modifier else ""
        return f"{self.count}D{self.sides}{mod}"

    @property
    def minimum(self) -> int:
        if self.sides == 66:
            return 11
        return self.count + self.modifier

    @property
    def maximum(self) -> int:
        if self.sides == 66:
            return 66
        return self.count * self.sides + self.modifier


def parse_dice(notation: str) -> DiceExpr:
    """Parse `nDm±k`, `Dm`, `1D3`, `2D3-1`, `D66`, `D20`. Raises ValueError on anything else."""
    m = _NOTATION.match(notation)
    if m is None:
        raise ValueError(
            f"not a dice expression: {notation!r} (expected e.g. 2D6, 1D3, 2D3-1, D66)"
        )
    count = int(m.group(1)) if m.group(1) else 1
    sides = int(m.group(2))
    modifier = int(m.group(4)) if m.group(4) else 0
    if m.group(3) == "-":
        modifier = -modifier
    if sides == 66:
        if count != 1 or modifier:
            raise ValueError(f"D66 is read as one two-digit number: {notation!r}")
        return DiceExpr(1, 66, 0)
    if count < 1 or count > 100:
        raise ValueError(f"dice count must be 1..100: {notation!r}")
    if sides < 2 or sides > 1000:
        raise ValueError(f"a die must have 2..1000 sides: {notation!r}")
    return DiceExpr(count, sides, modifier)


class Dice:
    """The match's only source of chance: a seeded generator plus the log of every roll."""

    __slots__ = ("_gen", "_random", "log", "recording", "seed", "thrown")

    def __init__(self, seed: int, *, recording: bool = True) -> None:
        self.seed = seed
        self._gen = random.Random(seed)
        self._random = self._gen.random
        self.log: list[Roll] = []
        # Search bots roll through throwaway copies; they need no log.
        self.recording = recording
        # Individual dice thrown (5D6 is five), kept even when not recording: the benchmark
        # divides engine time by it, and one integer add per throw costs next to nothing.
        self.thrown = 0

    # -- the fast path ---------------------------------------------------------------------
    def d(self, sides: int, purpose: str, rule: str) -> int:
        """One die of `sides` faces (1..sides)."""
        face = int(self._random() * sides) + 1
        self.thrown += 1
        if self.recording:
            self.log.append(Roll(len(self.log), f"1D{sides}", (face,), face, purpose, rule))
        return face

    def pair(self, purpose: str, rule: str) -> tuple[int, int]:
        """Two D6 thrown together and read separately (for doubles)."""
        rnd = self._random
        a = int(rnd() * 6) + 1
        b = int(rnd() * 6) + 1
        self.thrown += 2
        if self.recording:
            self.log.append(Roll(len(self.log), "2D6", (a, b), a + b, purpose, rule))
        return a, b

    # -- general notation ------------------------------------------------------------------
    def roll(self, notation: str | DiceExpr, purpose: str, rule: str) -> int:
        """Throw a dice expression and return its total."""
        return self.roll_detail(notation, purpose, rule).total

    def roll_detail(self, notation: str | DiceExpr, purpose: str, rule: str) -> Roll:
        expr = parse_dice(notation) if isinstance(notation, str) else notation
        rnd = self._random
        if expr.sides == 66:
            red = int(rnd() * 6) + 1
            white = int(rnd() * 6) + 1
            faces: tuple[int, ...] = (red, white)
            total = red * 10 + white
            colours: tuple[str, ...] = ("red", "white")
        elif expr.sides == 3:
            faces = tuple(int(rnd() * 6) + 1 for _ in range(expr.count))
            total = sum((f + 1) // 2 for f in faces) + expr.modifier
            colours = ()
        else:
            faces = tuple(int(rnd() * expr.sides) + 1 for _ in range(expr.count))
            total = sum(faces) + expr.modifier
            colours = ()
        self.thrown += len(faces)
        r = Roll(len(self.log), str(expr), faces, total, purpose, rule, colours)
        if self.recording:
            self.log.append(r)
        return r

    def coloured(self, colours: Sequence[str], purpose: str, rule: str) -> dict[str, list[int]]:
        """Throw one D6 per colour at once; faces are returned grouped by colour, in order.

        The Colosseum wound roll (§10.1) throws three white, one black and one red together and
        reads them separately.
        """
        rnd = self._random
        faces = tuple(int(rnd() * 6) + 1 for _ in colours)
        self.thrown += len(faces)
        if self.recording:
            self.log.append(
                Roll(
                    len(self.log),
                    f"{len(colours)}D6",
                    faces,
                    sum(faces),
                    purpose,
                    rule,
                    tuple(colours),
                )
            )
        out: dict[str, list[int]] = {}
        for colour, face in zip(colours, faces, strict=True):
            out.setdefault(colour, []).append(face)
        return out

    # -- state -----------------------------------------------------------------------------
    def fork(self, *, recording: bool = False) -> Dice:
        """An independent copy continuing the same stream (for look-ahead search)."""
        twin = Dice.__new__(Dice)
        twin.seed = self.seed
        twin._gen = random.Random()
        twin._gen.setstate(self._gen.getstate())
        twin._random = twin._gen.random
        twin.log = list(self.log) if recording else []
        twin.recording = recording
        twin.thrown = self.thrown
        return twin

    @property
    def count(self) -> int:
        """Rolls logged (a 5D6 wound roll is one); see `thrown` for individual dice."""
        return len(self.log)
