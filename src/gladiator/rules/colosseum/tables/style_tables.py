"""The schema of styles.toml: T37's fighting styles (§19) and the §28.2 beast fighters.

A style's weapons are checked against T19 where the whole set is loaded (advanced_tables.py).
"""

from __future__ import annotations

from typing import Literal, Self

from pydantic import Field, StrictBool, StrictInt, StrictStr, model_validator

from gladiator.rules.colosseum.tables.sheet_tables import Armour
from gladiator.rules.colosseum.tables.table_schema import Strict, Table, TableFile
from gladiator.rules.colosseum.vocabulary import Area, GladiatorClass


class Style(Strict):
    name: StrictStr = Field(min_length=1)
    section: StrictStr = Field(min_length=1)
    gladiator_class: GladiatorClass = Field(alias="class")
    standard: StrictBool = False
    cost: StrictInt | None = Field(default=None, ge=0)
    category: Literal["I", "II", "III", "IV", "V"] | None = None
    armour: Literal["rolled", "none", "rolled_twice"]
    helmet: StrictBool = True
    fixed_armour: dict[Area, Armour] = Field(default_factory=dict)
    shield: Literal["any", "small", "large", "hook", "none"]
    weapons: tuple[StrictStr, ...] = Field(min_length=1)
    optional_weapons: tuple[StrictStr, ...] = ()
    any_pair: StrictBool = False
    move: StrictInt = Field(ge=0, le=8)
    kneel_fall_prone: StrictBool = False
    opponents: tuple[StrictStr, ...] = ()
    fixed_style: StrictBool = False

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.armour == "none" and (self.fixed_armour or not self.helmet):
            raise ValueError(f"{self.name} wears no armour, so no fixed_armour or helmet entry")
        if self.any_pair and (len(self.weapons) != 2 or self.shield != "none"):
            raise ValueError(f"{self.name}: any_pair needs two weapons and no shield (§24.1)")
        if len(self.weapons) > 2:
            raise ValueError(f"{self.name} carries {len(self.weapons)} weapons; two hands, two")
        return self


class StyleTable(Table):
    styles: dict[StrictStr, Style] = Field(min_length=1)


class StylesFile(TableFile):
    schema_: Literal["gladiator.colosseum.styles"] = Field(alias="schema")
    t37: StyleTable
    beast_fighters: StyleTable

    @model_validator(mode="after")
    def _references(self) -> Self:
        both = set(self.t37.styles) & set(self.beast_fighters.styles)
        if both:
            raise ValueError(f"styles listed in T37 and among the beast fighters: {sorted(both)}")
        known = self.all_styles()
        for key, style in known.items():
            unknown = [o for o in style.opponents if o not in known]
            if unknown:
                raise ValueError(f"style {key} fights unknown styles {unknown}")
        standard = sorted(s.gladiator_class for s in self.t37.styles.values() if s.standard)
        if standard != ["heavy", "light", "medium"]:
            raise ValueError(f"T37 needs one standard style per class, got {standard}")
        if any(s.standard for s in self.beast_fighters.styles.values()):
            raise ValueError("the standard styles are T37's (§19.2, §19.3, §19.4)")
        return self

    def all_styles(self) -> dict[str, Style]:
        return {**self.t37.styles, **self.beast_fighters.styles}

    def style(self, key: str) -> Style:
        try:
            return self.all_styles()[key]
        except KeyError:
            raise ValueError(f"unknown fighting style {key!r}") from None
