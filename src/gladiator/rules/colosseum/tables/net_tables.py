"""The schema of nets.toml: the net attacks and their tables T16-T18, T17b, Repel Net and the
ensnared gladiator's rolls (§20).
"""

from __future__ import annotations

from typing import Literal, Self

from pydantic import Field, StrictBool, StrictInt, StrictStr, model_validator

from gladiator.rules.colosseum.tables.arena_tables import Action
from gladiator.rules.colosseum.tables.table_schema import (
    Dice,
    FrontName,
    Modifier,
    Strict,
    Table,
    TableFile,
    TableHex,
    check_dice,
)
from gladiator.rules.colosseum.vocabulary import CrtCode

NetCode = Literal["TN", "SN", "LN"]
NetEffect = Literal["ensnare", "stumble", "stumble_check", "net_grabbed"]


class NetAttack(Strict):
    name: StrictStr = Field(min_length=1)
    section: StrictStr = Field(min_length=1)
    cf: StrictInt = Field(ge=1)
    front: FrontName
    blocked_phases: StrictInt = Field(ge=0, le=7)
    target: Literal["opponent", "first_figure", "moved_through"]
    table: Literal["t16", "t17", "t18"]
    results: dict[CrtCode, NetEffect] = Field(min_length=1)
    no_effect_on: tuple[Literal["kneeling", "prone"], ...] = ()
    hexes: dict[int, TableHex] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _hexes(self) -> Self:
        if (self.target == "moved_through") != bool(self.hexes):
            raise ValueError(f"{self.name}: plotted hexes go with a moved_through target")
        if self.hexes and sorted(self.hexes) != list(range(1, len(self.hexes) + 1)):
            raise ValueError(f"{self.name}: plotted hexes must be numbered 1, 2, 3...")
        return self


class NetAttacksTable(Table):
    per_phase: StrictInt = Field(ge=1)
    crt_column: StrictInt = Field(le=8)
    dice: Dice
    attacks: dict[NetCode, NetAttack]

    @model_validator(mode="after")
    def _all(self) -> Self:
        check_dice(self.dice)
        if set(self.attacks) != {"TN", "SN", "LN"}:
            raise ValueError(f"the net attacks must be TN, SN and LN, got {sorted(self.attacks)}")
        if len({a.table for a in self.attacks.values()}) != len(self.attacks):
            raise ValueError("each net attack has a table of its own")
        return self


class TossDrms(Strict):
    target_heavy: Modifier
    target_light: Modifier
    target_adjacent: Modifier
    target_two_hexes: Modifier
    target_moved_backward: Modifier
    target_paused: Modifier
    target_kneeling: Modifier
    repel_net: Modifier
    target_legs_cf_lost: Modifier
    retiarius_arms_cf_lost: Modifier
    nf_difference: Modifier
    positional_advantage: Modifier
    non_retiarius: Modifier


class SwingDrms(Strict):
    target_heavy: Modifier
    target_light: Modifier
    target_adjacent: Modifier
    target_moved_backward: Modifier
    target_moved_forward: Modifier
    target_rotated: Modifier
    repel_net: Modifier
    target_legs_cf_lost: Modifier
    retiarius_arms_cf_lost: Modifier
    nf_difference: Modifier
    positional_advantage: Modifier
    non_retiarius: Modifier


class LayDrms(Strict):
    target_heavy: Modifier
    target_light: Modifier
    target_moved_backward: Modifier
    target_moved_forward: Modifier
    repel_net: Modifier
    target_legs_cf_lost: Modifier
    retiarius_arms_cf_lost: Modifier
    nf_difference: Modifier
    positional_advantage: Modifier
    non_retiarius: Modifier


class NetTossTable(Table):
    drms: TossDrms


class NetSwingTable(Table):
    drms: SwingDrms


class NetLayTable(Table):
    drms: LayDrms


class SwingHex(TableHex):
    name: StrictStr = Field(min_length=1)


class SwingOrderTable(Table):
    order: tuple[SwingHex, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _distinct(self) -> Self:
        if len({h.at for h in self.order}) != len(self.order):
            raise ValueError("T17b lists a hex twice")
        if len({h.name for h in self.order}) != len(self.order):
            raise ValueError("T17b names a hex twice")
        return self

    @property
    def hexes(self) -> tuple[tuple[int, int], ...]:
        """The hexes in the order the swing meets them (1st first)."""
        return tuple(h.at for h in self.order)


class RepelNetTable(Table):
    code: Literal["RN"]
    name: StrictStr
    kind: Literal["special"]
    hexes: Literal[0]
    rotation: StrictInt = Field(ge=0, le=3)

    @property
    def action(self) -> Action:
        """RN as a T39 action (§7.4): a special action that neither moves nor turns him."""
        return Action(name=self.name, kind=self.kind, hexes=self.hexes, rotation=self.rotation)


class EscapeRoll(Strict):
    dice: Dice
    escapes_below: StrictInt
    result_added_to_attacks: StrictBool


class DragRoll(Strict):
    dice: Dice
    dragged_if_above: StrictInt
    needs_cf: StrictInt = Field(ge=0)


class StruggleRoll(Strict):
    dice: Dice
    tie_to_retiarius: StrictBool


class EnsnareTable(Table):
    escape: EscapeRoll
    drag: DragRoll
    struggle: StruggleRoll
    non_retiarius_needs_free_hand: StrictBool

    @model_validator(mode="after")
    def _dice(self) -> Self:
        check_dice(self.escape.dice, self.drag.dice, self.struggle.dice)
        return self


class NetsFile(TableFile):
    schema_: Literal["gladiator.colosseum.nets"] = Field(alias="schema")
    net_attacks: NetAttacksTable
    t16: NetTossTable
    t17: NetSwingTable
    t17b: SwingOrderTable
    t18: NetLayTable
    repel_net: RepelNetTable
    ensnare: EnsnareTable

    def attack(self, code: NetCode) -> NetAttack:
        return self.net_attacks.attacks[code]
