"""Where one figure's CF losses of a phase went (§9.4.6-§9.4.8)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CfAccount"]


@dataclass(slots=True)
class CfAccount:
    lost: int = 0
    off_attacks: int = 0
    off_defence: int = 0
    no_effect: int = 0
    waiting: int = 0  # still to come off the next area attacked (§9.4.7)
