"""The schema of attack_sequence.toml, positional_advantage.toml and combat_front.toml: the attack
sequence T10 (§9.4), positional advantage T11 with the §9.2.1 status bonuses (§9.2), and the
combat front T40 (§9.1).
"""

from __future__ import annotations

from typing import Any, Literal, Self

from pydantic import Field, PrivateAttr, StrictInt, StrictStr, model_validator

from gladiator.rules.colosseum.tables.table_schema import (
    Strict,
    Table,
    TableFile,
    hex_range,
)

# --- T10 attack sequence --------------------------------------------------------------------------


class AttackSequenceTable(Table):
    rounds_per_phase: StrictInt = Field(ge=1)
    rounds: dict[int, tuple[StrictInt, ...]]

    @model_validator(mode="after")
    def _shape(self) -> Self:
        if sorted(self.rounds) != [1, 2, 3, 4, 5]:
            raise ValueError(f"T10 needs rows for 1-5 attacks, got {sorted(self.rounds)}")
        for n, rounds in self.rounds.items():
            ok = len(rounds) == n and list(rounds) == sorted(set(rounds))
            if not ok or rounds[0] < 1 or rounds[-1] > self.rounds_per_phase:
                raise ValueError(f"T10 row {n} must list {n} distinct rounds in order, in range")
        return self


class AttackSequenceFile(TableFile):
    schema_: Literal["gladiator.colosseum.attack-sequence"] = Field(alias="schema")
    t10: AttackSequenceTable


# --- T11 positional advantage, §9.2.1 status bonuses ----------------------------------------------


class PaHex(Strict):
    fl: StrictInt
    fr: StrictInt
    pa: StrictInt


class PaRegions(Strict):
    centre_front: StrictInt
    cone_right: StrictInt
    cone_left: StrictInt
    outside_right: StrictInt
    outside_left: StrictInt
    centre_rear: StrictInt

    def value(self, fl: int, fr: int) -> int:
        if fl == fr:
            return self.centre_front if fl > 0 else self.centre_rear
        if fl >= 0 and fr >= 0:
            return self.cone_right if fr > fl else self.cone_left
        return self.outside_right if fr > fl else self.outside_left


class PositionalAdvantageTable(Table):
    plus_1_and_3_on: Literal["right", "left"]
    left_handed_swaps: tuple[tuple[StrictInt, StrictInt], ...]
    hexes: tuple[PaHex, ...]
    regions: PaRegions
    _index: dict[tuple[int, int], int] = PrivateAttr(default_factory=dict)

    def model_post_init(self, context: Any, /) -> None:
        self._index.update({(h.fl, h.fr): h.pa for h in self.hexes})

    @model_validator(mode="after")
    def _covers_ranges(self) -> Self:
        seen = {(h.fl, h.fr) for h in self.hexes}
        if len(seen) != len(self.hexes):
            raise ValueError("T11 lists a hex twice")
        top = max((hex_range(fl, fr) for fl, fr in seen), default=0)
        wanted = {
            (fl, fr)
            for fl in range(-top, top + 1)
            for fr in range(-top, top + 1)
            if 1 <= hex_range(fl, fr) <= top
        }
        if seen != wanted:
            raise ValueError(f"T11 must list every hex at range 1-{top} and no other")
        return self

    @property
    def max_range(self) -> int:
        return max(hex_range(h.fl, h.fr) for h in self.hexes)

    def bonus(self, fl: int, fr: int, *, left_handed: bool = False) -> int:
        """PA of an attacker at fl·FL + fr·FR from the defender (T11, §9.2 NOTE)."""
        if (fl, fr) == (0, 0):
            raise ValueError("the attacker cannot stand in the defender's hex")
        if self.plus_1_and_3_on == "left":
            fl, fr = fr, fl
        value = self._index.get((fl, fr))
        if value is None:
            value = self.regions.value(fl, fr)
        if left_handed:
            for a, b in self.left_handed_swaps:
                if value in (a, b):
                    return b if value == a else a
        return value


class StatusBonus(Table):
    stumbling: StrictInt  # §9.2.1.1, §15.6
    prone: StrictInt  # §9.2.1.2, §16.3; replaces the Stumble bonus
    ensnared: StrictInt  # §9.2.1.3 (Advanced Game nets)


class PositionalAdvantageFile(TableFile):
    schema_: Literal["gladiator.colosseum.positional-advantage"] = Field(alias="schema")
    t11: PositionalAdvantageTable
    status_bonus: StatusBonus


class FrontRegion(Strict):
    max_range: StrictInt = Field(ge=1)
    hexes: StrictInt = Field(ge=1)
    used_by: tuple[StrictStr, ...] = ()


def _cone_count(max_range: int) -> int:
    return sum(
        1
        for fl in range(max_range + 1)
        for fr in range(max_range + 1)
        if 1 <= max(fl, fr) <= max_range
    )


class CombatFrontTable(Table):
    regions: dict[Literal["one_hex", "two_hex", "three_hex"], FrontRegion]

    @model_validator(mode="after")
    def _counts(self) -> Self:
        for name, region in self.regions.items():
            if _cone_count(region.max_range) != region.hexes:
                raise ValueError(
                    f"T40 {name}: the cone to range {region.max_range} holds "
                    f"{_cone_count(region.max_range)} hexes, not {region.hexes}"
                )
        return self

    def in_front(
        self, region: Literal["one_hex", "two_hex", "three_hex"], fl: int, fr: int
    ) -> bool:
        """Whether fl·FL + fr·FR lies in that region of the combat front."""
        return fl >= 0 and fr >= 0 and 1 <= max(fl, fr) <= self.regions[region].max_range


class CombatFrontFile(TableFile):
    schema_: Literal["gladiator.colosseum.combat-front"] = Field(alias="schema")
    t40: CombatFrontTable
