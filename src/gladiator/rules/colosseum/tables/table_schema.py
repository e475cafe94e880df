"""The building blocks of every Colosseum table file (data/*.toml), Basic and Advanced.

A table model is strict (unknown keys are errors) and frozen; every table says which section it
comes from and how sure the reference is of it (`Table`); every file carries its schema version
(`TableFile`). The helpers check what several tables share: dice notation, die-roll rows covering
their dice, hex distances in a gladiator's own frame, and the one-line message a broken file gets.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal, Self

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
    model_validator,
)

__all__ = [
    "Confidence",
    "Dice",
    "Drm",
    "FrontName",
    "Modifier",
    "Strict",
    "Table",
    "TableFile",
    "TableHex",
    "check_dice",
    "check_runs",
    "dice_faces",
    "hex_range",
    "one_line",
]

Confidence = Literal["exact", "reconstructed", "ambiguous", "conflict", "missing-proposal"]
Dice = StrictStr
FrontName = Literal["one_hex", "two_hex", "three_hex"]
Per = Literal[
    "hex_moved_forward",
    "hex_moved_backward",
    "hex_moved",
    "hexside_rotated",
    "cf_lost_legs",
    "cf_lost_arms",
    "stun",
    "three_stun",
    "three_hexes_range",
    "pause_remaining",
    "phase_number",
]
Rating = Literal["ST", "AG", "PA", "FS", "NF_difference"]

_DICE_RE = re.compile(r"^[1-9]D[36]$")


def check_dice(*dice: str) -> None:
    for d in dice:
        if not _DICE_RE.match(d):
            raise ValueError(f"dice {d!r} should read like '1D6', '2D6' or '2D3'")


def dice_faces(dice: str) -> range:
    """Every total `dice` can roll: nD6 is n..6n, nD3 is n..3n (§2.5)."""
    check_dice(dice)
    n, sides = int(dice[0]), int(dice[2])
    return range(n, n * sides + 1)


def check_runs(what: str, spans: Sequence[tuple[int, int]], faces: range) -> None:
    """Rows lo..hi must cover exactly `faces`, in order, without a gap or an overlap."""
    expected = faces.start
    for lo, hi in spans:
        if hi < lo:
            raise ValueError(f"{what} row {lo}-{hi} is empty")
        if lo < expected:
            raise ValueError(f"{what} rows overlap: {lo}-{hi} starts before {expected}")
        if lo > expected:
            raise ValueError(f"{what} rows leave a gap: nothing for {expected}-{lo - 1}")
        expected = hi + 1
    if expected != faces.stop:
        raise ValueError(f"{what} rows must end at {faces.stop - 1}, got {expected - 1}")


def hex_range(fl: int, fr: int) -> int:
    """Hex distance of fl·FL + fr·FR (FL and FR are 120° apart, so FL + FR = F)."""
    return (abs(fl) + abs(fr) + abs(fl - fr)) // 2


def one_line(exc: ValidationError) -> str:
    """The first of a file's validation errors, where it stands, as one line."""
    errors = exc.errors()
    first = errors[0]
    where = ".".join(str(part) for part in first["loc"]) or "(top level)"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    message = str(first["msg"]).removeprefix("Value error, ")
    return " ".join(f"{where}: {message}{more}".split())


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Table(Strict):
    """What every table says about itself."""

    section: StrictStr = Field(min_length=1)
    confidence: tuple[Confidence, ...] = Field(min_length=1)
    source_note: StrictStr | None = None
    proposal: StrictBool = False

    @model_validator(mode="after")
    def _marks_agree(self) -> Self:
        if self.proposal != ("missing-proposal" in self.confidence):
            raise ValueError("proposal = true goes exactly with confidence 'missing-proposal'")
        undecided = {"ambiguous", "conflict", "missing-proposal"} & set(self.confidence)
        if undecided and not self.source_note:
            raise ValueError(f"a table marked {sorted(undecided)} needs a source_note")
        return self


class TableFile(Strict):
    schema_version: Literal[1]

    def named_tables(self) -> dict[str, Table]:
        """The tables of this file by their key in it (t1, t5, endurance, ...)."""
        out: dict[str, Table] = {}
        for name in type(self).model_fields:
            value = getattr(self, name)
            if isinstance(value, Table):
                out[name] = value
        return out


class TableHex(Strict):
    """A hex of a chart in a figure's own frame: fl·FL + fr·FR."""

    fl: StrictInt
    fr: StrictInt

    @property
    def at(self) -> tuple[int, int]:
        return (self.fl, self.fr)


# --- the Basic Game's DRM -------------------------------------------------------------------------


class Drm(Strict):
    """A Basic Game table's die-roll modifier (T12, T14): `drm` once, or times the count `per`,
    or times the `rating`."""

    drm: StrictInt
    condition: StrictStr
    per: StrictStr | None = None
    rating: Literal["ST", "AG", "PA"] | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> Self:
        if self.per is not None and self.rating is not None:
            raise ValueError("a DRM is per a count or times a rating, not both")
        return self


# --- the Advanced Game's common DRM ---------------------------------------------------------------


class Modifier(Strict):
    """A die-roll modifier: `drm` once, or times the count `per`, or times the rating `rating`."""

    drm: StrictInt
    condition: StrictStr = Field(min_length=1)
    per: Per | None = None
    rating: Rating | None = None
    not_for_retiarius: StrictBool = False

    @model_validator(mode="after")
    def _one_kind(self) -> Self:
        if self.per is not None and self.rating is not None:
            raise ValueError("a DRM is per a count or times a rating, not both")
        return self

    def total(self, times: int = 1) -> int:
        """The DRM for `times` of its count or rating (1 for a plain DRM that applies)."""
        return self.drm * times
