"""The words the Colosseum tables and rules share: body areas, classes, hex relations, CRT codes.

Plain `Literal` types (and the areas in their log-sheet order, §3.9) that every table schema and
most rules modules name; no table is read here.
"""

from __future__ import annotations

from typing import Literal

__all__ = [
    "AREAS",
    "CLASSES",
    "ActionCode",
    "Area",
    "Characteristic",
    "CrtCode",
    "CrtVariant",
    "GladiatorClass",
    "RelationCode",
    "StunExtra",
]

Area = Literal["head", "chest", "groin", "arms", "legs"]
GladiatorClass = Literal["light", "medium", "heavy"]
RelationCode = Literal["F", "FR", "RR", "R", "RL", "FL"]
CrtCode = Literal["F", "-", "S", "S*", "P", "P*", "H"]
CrtVariant = Literal["rules", "reference"]
Characteristic = Literal["tr", "st", "ag", "cn", "w"]
StunExtra = Literal["weapon_drop", "shield_drop", "fall_prone"]
ActionCode = Literal["F", "B", "SFL", "SFR", "SBL", "SBR", "C", "KN", "R", "RO", "S", "X"]

AREAS: tuple[Area, ...] = ("head", "chest", "groin", "arms", "legs")
CLASSES: tuple[GladiatorClass, ...] = ("light", "medium", "heavy")  # T1, T2, T3 (§3.4)
