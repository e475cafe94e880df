"""The state of a skirmish match: plain mutable records, cheap to copy for search."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from gladiator.core.hexgrid import Hex

__all__ = ["Fighter", "SkirmishState"]

Phase = Literal["write", "first", "act", "hex", "target", "facing", "over"]


@dataclass(slots=True)
class Fighter:
    seat: str
    sheet: str
    hp: int
    max_hp: int
    hex: Hex
    facing: int
    alive: bool = True
    floored: bool = False
    entangled: bool = False
    # §5.2: stuns carried forward; one is spent at the start of each turn it applies to.
    stun_bank: int = 0
    stunned: bool = False
    nicks: int = 0
    cuts: int = 0
    wounds: int = 0
    # The move written this turn (secret until he performs it or it is read against an attack),
    # the move performed, and the moves barred next turn (§2.5.7).
    written: str = ""
    performed: str = ""
    converted: bool = False
    revealed: bool = False
    prohibited: tuple[str, ...] = ()
    last_performed: str = ""
    has_net: bool = False
    nets_reclaimed: int = 0
    initiative: int = 0
    cause: str = ""

    def to_dict(self, *, hide_written: bool = False) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "sheet": self.sheet,
            "hp": self.hp,
            "max_hp": self.max_hp,
            "hex": [self.hex.q, self.hex.r],
            "facing": self.facing,
            "alive": self.alive,
            "floored": self.floored,
            "entangled": self.entangled,
            "stun_bank": self.stun_bank,
            "stunned": self.stunned,
            "nicks": self.nicks,
            "cuts": self.cuts,
            "wounds": self.wounds,
            "written": None if hide_written else self.written,
            "performed": self.performed,
            "converted": self.converted,
            "prohibited": list(self.prohibited),
            "last_performed": self.last_performed,
            "has_net": self.has_net,
            "nets_reclaimed": self.nets_reclaimed,
            "initiative": self.initiative,
            "cause": self.cause,
        }


@dataclass(slots=True)
class SkirmishState:
    options: dict[str, Any]
    fighters: dict[str, Fighter]
    turn: int = 1
    phase: Phase = "write"
    order: list[str] = field(default_factory=list)
    index: int = 0
    # The seat that decides now in the act/hex/target/facing/first phases.
    chooser: str = ""
    # Hexes offered in the hex and target phases, facings in the facing phase.
    offered: list[Hex] = field(default_factory=list)
    nets: list[Hex] = field(default_factory=list)
    winners: tuple[str, ...] = ()
    end_method: str = ""
    end_summary: str = ""

    def clone(self) -> SkirmishState:
        return replace(
            self,
            fighters={s: replace(f) for s, f in self.fighters.items()},
            order=list(self.order),
            offered=list(self.offered),
            nets=list(self.nets),
        )

    def to_dict(self, viewer: str | None = "*") -> dict[str, Any]:
        """The state; `viewer` other than "*" hides every other seat's unrevealed written move."""

        def hide(f: Fighter) -> bool:
            return viewer != "*" and f.seat != viewer and not f.revealed

        return {
            "schema": "gladiator.skirmish-state",
            "schema_version": 1,
            "options": copy.deepcopy(self.options),
            "fighters": [f.to_dict(hide_written=hide(f)) for f in self.fighters.values()],
            "turn": self.turn,
            "phase": self.phase,
            "order": list(self.order),
            "index": self.index,
            "chooser": self.chooser,
            "offered": [[h.q, h.r] for h in self.offered],
            "nets": [[h.q, h.r] for h in self.nets],
            "winners": list(self.winners),
            "end_method": self.end_method,
        }
