"""The records of the Campaign Game's tally (campaign_tally.py, X7, X8): plain frozen values
kept per seat in `ColosseumState.tally`, so a copy of the state shares them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["Blow", "Death", "Kind", "SeatTally"]

Kind = Literal["slow", "quick"]


@dataclass(frozen=True, slots=True)
class Blow:
    """One wounding attack on him (X7)."""

    attacker: str
    area: int  # 0-4, §3.9
    first: bool  # the first attack to wound that area
    turn: int


@dataclass(frozen=True, slots=True)
class Death:
    killer: str | None
    turn: int
    kind: Kind


@dataclass(frozen=True, slots=True)
class SeatTally:
    area_hits: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)
    last_blow: Blow | None = None
    killing_blow: Blow | None = None
    mortal_blow: Blow | None = None
    executed_by: str | None = None  # the victor at a Moment of Truth he lost
    appeal: Literal["", "missus", "refused", "stans_missus"] = ""
    spared_foes: tuple[str, ...] = ()
    cleaved: bool = False
    death: Death | None = None
