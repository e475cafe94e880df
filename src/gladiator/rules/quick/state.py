"""The state of a quick-rules match: plain mutable records, cheap to copy for search."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Literal

from gladiator.core.hexgrid import Hex

__all__ = ["Fate", "Fighter", "QuickState", "Status"]

Status = Literal["fighting", "helpless", "killed", "dead", "slain", "spared"]
Phase = Literal["act", "fate", "over"]

OUT_OF_FIGHT: frozenset[str] = frozenset({"killed", "dead", "slain", "spared"})


@dataclass(slots=True)
class Fighter:
    seat: str
    cls: str
    strength: int
    max_strength: int
    hex: Hex
    facing: int
    has_weapon: bool = True
    # Shield for the sword-and-shield classes, net for the Retiarius.
    has_off_hand: bool = True
    # §10.2: a net that has ensnared someone stays on him (QR10).
    net_cast: bool = False
    ensnared: bool = False
    off_balance: bool = False
    status: Status = "fighting"

    def copy(self) -> Fighter:
        return Fighter(
            self.seat,
            self.cls,
            self.strength,
            self.max_strength,
            self.hex,
            self.facing,
            self.has_weapon,
            self.has_off_hand,
            self.net_cast,
            self.ensnared,
            self.off_balance,
            self.status,
        )

    @property
    def fighting(self) -> bool:
        return self.status == "fighting"

    @property
    def on_board(self) -> bool:
        return self.status in ("fighting", "helpless")

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "class": self.cls,
            "strength": self.strength,
            "max_strength": self.max_strength,
            "hex": [self.hex.q, self.hex.r],
            "facing": self.facing,
            "has_weapon": self.has_weapon,
            "has_off_hand": self.has_off_hand,
            "net_cast": self.net_cast,
            "ensnared": self.ensnared,
            "off_balance": self.off_balance,
            "status": self.status,
        }


@dataclass(slots=True)
class Fate:
    """A helpless gladiator awaiting the thumbs (§7.6, §9.5)."""

    helpless: str
    victor: str
    deciders: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"helpless": self.helpless, "victor": self.victor, "deciders": list(self.deciders)}


@dataclass(slots=True)
class QuickState:
    options: dict[str, Any]
    fighters: dict[str, Fighter]
    order: list[str]
    turn_index: int = 0
    round: int = 1
    ap: int = 0
    strikes: int = 0
    casts: int = 0
    phase: Phase = "act"
    fate: Fate | None = None
    winners: tuple[str, ...] = ()
    end_method: str = ""
    end_summary: str = ""

    @property
    def active(self) -> str:
        return self.order[self.turn_index]

    def clone(self) -> QuickState:
        # Spelled out rather than dataclasses.replace (several times slower; look-ahead bots clone
        # on every trial); tests check that a clone equals its original field for field.
        return QuickState(
            self.options,  # never changed during a match
            {s: f.copy() for s, f in self.fighters.items()},
            list(self.order),
            self.turn_index,
            self.round,
            self.ap,
            self.strikes,
            self.casts,
            self.phase,
            self.fate,  # replaced, never changed in place
            self.winners,
            self.end_method,
            self.end_summary,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": "gladiator.quick-state",
            "schema_version": 1,
            "options": copy.deepcopy(self.options),
            "fighters": [self.fighters[s].to_dict() for s in self.fighters],
            "order": list(self.order),
            "active": self.active if self.phase != "over" else None,
            "round": self.round,
            "ap": self.ap,
            "strikes": self.strikes,
            "casts": self.casts,
            "phase": self.phase,
            "fate": self.fate.to_dict() if self.fate else None,
            "winners": list(self.winners),
            "end_method": self.end_method,
        }
