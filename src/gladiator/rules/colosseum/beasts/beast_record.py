"""The record a beast's seat keeps beside its stand-in log sheet (§28): its T21 kind and the
state of its phase. Kept apart from beasts.py so that state.py can hold it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gladiator.rules.colosseum.tables.advanced_tables import advanced_tables

__all__ = ["Beast"]


@dataclass(frozen=True, slots=True)
class Beast:
    """A beast's own state: its T21 kind, whether a bear rears up this phase (§28.4.2), the
    hexes it moved this phase (T23) and its last T22 move (for people)."""

    kind: str
    reared: bool = False
    moved: int = 0
    last_move: str = ""

    @property
    def name(self) -> str:
        return advanced_tables().beasts.beast(self.kind).name

    @property
    def size(self) -> int:
        return advanced_tables().beasts.beast(self.kind).hexes

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "reared": self.reared,
            "moved": self.moved,
            "last_move": self.last_move,
        }
