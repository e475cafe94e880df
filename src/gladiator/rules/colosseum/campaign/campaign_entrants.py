"""Campaign entrants (§30-§35, Advanced Game, option `entrants`): a seat filled by a campaign's
gladiator instead of a newly rolled one.

`entrants` is one dict per seat in table order (`{}`: roll him as usual), each with the career's
`name`, `tr st ag cn w` (after XP and injuries, so maybe off T4's columns: Q43, X1), `prestige`
(§35, may be negative), an optional `carry` (a Consecutive match's next fight, §30.2.1.1, X5)
and an optional `armour` + `shield` bought piece by piece (§34, X3). The style is still the
match's (`styles`, §30.2.3.1), and so are the armour rolls unless he bought his armour.

RULINGS (the X series of docs/rulings.md)

X1  §30, Q43: an entrant's log sheet takes his career's TR ST AG CN W as given, no 3D6 on T4; CF
    and NF are TR + ST + AG and TR + AG of them (§3.11.2). His ratings may lie off T4's columns
    (the sheet says so: `career`), but TR must be 1-99, ST and AG -99-99 (T4 has them negative),
    CN 0-99 and W 1-99. His armour and shield are rolled for his style as for anyone (§3.10,
    §19), the rolls in the same order.
X2  §35.2, §35.3: his prestige is written on the sheet (§3.6) and so added to his §18.3 missus
    roll, as any sheet's is.
X3  §34.1: bought armour is five codes (areas 1-5, "B4", "A", "-") and a shield ("large",
    "small" or "none"); only a standard style's man may buy his (Myrmillo, Secutor, Gallus, or
    `standard`): the seat's style must be one of those, not "random". The sesterces (§34.2) are
    the campaign's to check. A style's kit that leaves the shield behind (F2) still does, and a
    Retiarius's opponent still carries a small one (§3.10.2).
X5  §30.2.1.1 "each new fight starts as soon as the last one ends": `carry` puts the last fight's
    marks on the new sheet: wounds per area, CF lost besides wounds (the old fight's endurance
    losses are folded into it by the report, since the plot record starts afresh), ST and AG
    lost. Stun, severed arteries, a lost helmet and dropped items do not carry: he is given his
    kit again and the bleeding is bound between fights. A carried wound count of W or more is
    refused (he is dead).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from gladiator.core.protocol import Event
from gladiator.rules.colosseum.events import event
from gladiator.rules.colosseum.kit.styles import style
from gladiator.rules.colosseum.sheet.logsheet import LogSheet
from gladiator.rules.colosseum.sheet.logsheet_boxes import CAREER_MAX, CHARACTERISTICS
from gladiator.rules.colosseum.sheet.logsheet_roll import DiceLike, roll_log_sheet
from gladiator.rules.colosseum.tables.sheet_tables import Armour
from gladiator.rules.colosseum.vocabulary import AREAS, GladiatorClass

__all__ = [
    "Carry",
    "Entrant",
    "check_entrant_seats",
    "entrant_of",
    "has_entrants",
    "parse_entrants",
    "seat_sheet",
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Carry(_Strict):
    """X5: the marks a Consecutive match's last fight left on him."""

    wounds: list[int] = Field(default_factory=lambda: [0, 0, 0, 0, 0], min_length=5, max_length=5)
    cf_lost_other: int = Field(default=0, ge=0)
    st_lost: int = Field(default=0, ge=0)
    ag_lost: int = Field(default=0, ge=0)

    @field_validator("wounds")
    @classmethod
    def _counts(cls, value: list[int]) -> list[int]:
        for area, n in zip(AREAS, value, strict=True):
            if n < 0:
                raise ValueError(f"carry wounds {area} {n} is below 0")
        return value


class Entrant(_Strict):
    """One seat's campaign gladiator (X1-X5)."""

    name: str = Field(min_length=1)
    tr: int = Field(ge=1, le=CAREER_MAX)
    st: int = Field(ge=-CAREER_MAX, le=CAREER_MAX)
    ag: int = Field(ge=-CAREER_MAX, le=CAREER_MAX)
    cn: int = Field(ge=0, le=CAREER_MAX)
    w: int = Field(ge=1, le=CAREER_MAX)
    prestige: int = Field(ge=-CAREER_MAX, le=CAREER_MAX)
    carry: Carry | None = None
    armour: list[str] | None = Field(default=None, min_length=5, max_length=5)
    shield: Literal["large", "small", "none"] | None = None

    @field_validator("armour")
    @classmethod
    def _codes(cls, value: list[str] | None) -> list[str] | None:
        for code in value or ():
            Armour.model_validate(code)  # "B4", "A", "-" (§3.10.1)
        return value

    @model_validator(mode="after")
    def _whole(self) -> Entrant:
        if (self.armour is None) != (self.shield is None):
            raise ValueError("custom armour (§34) needs both armour (5 codes) and shield")
        if self.carry is not None:
            for area, n in zip(AREAS, self.carry.wounds, strict=True):
                if n >= self.w:
                    raise ValueError(
                        f"carry wounds {area} {n} fill W {self.w}: he is dead (§10.3.2, X5)"
                    )
        return self

    def ratings(self) -> dict[str, int]:
        return {c: int(getattr(self, c)) for c in CHARACTERISTICS}

    def summary(self) -> str:
        return (
            f"{self.name}, TR {self.tr} ST {self.st} AG {self.ag} CN {self.cn} W {self.w}, "
            f"PR {self.prestige:+d}"
        )


def _one_line(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first["loc"])
    msg = " ".join(str(first["msg"]).removeprefix("Value error, ").split())
    return f"{where}: {msg}" if where else msg


def parse_entrants(value: Any) -> list[dict[str, Any]]:
    """The option's value checked (a list of dicts, or its JSON text), each entry as the plain
    dict it normalises to; ValueError with one line naming the entry."""
    if isinstance(value, str):
        try:
            value = json.loads(value) if value.strip() else []
        except json.JSONDecodeError as exc:
            raise ValueError(f"entrants is not JSON: {exc.msg} (column {exc.colno})") from None
    if not isinstance(value, list):
        raise ValueError("entrants: one dict per seat, {} to roll him as usual (X1)")
    out: list[dict[str, Any]] = []
    for i, raw in enumerate(value):
        if not isinstance(raw, dict):
            raise ValueError(f"entrant {i + 1}: a dict, not {type(raw).__name__}")
        if not raw:
            out.append({})
            continue
        try:
            e = Entrant.model_validate(raw)
        except ValidationError as exc:
            raise ValueError(f"entrant {i + 1}: {_one_line(exc)}") from None
        out.append(e.model_dump(exclude_none=True))
    return out


def check_entrant_seats(
    entrants: Sequence[Mapping[str, Any]],
    seats: Sequence[str],
    styles: Sequence[str],
    beast_seats: set[str],
) -> None:
    """One entry per seat; a beast has none; bought armour only for a standard style (X3)."""
    if not entrants:
        return
    if len(entrants) != len(seats):
        raise ValueError(f"entrants: one per seat ({len(seats)}), not {len(entrants)}")
    for seat, raw, key in zip(seats, entrants, styles, strict=True):
        if raw and seat in beast_seats:
            raise ValueError(f"entrants: {seat} is a beast (option beasts), not a gladiator")
        bought = raw.get("armour") is not None
        if bought and key != "standard" and (key == "random" or not style(key).standard):
            raise ValueError(
                f"entrants: {seat}'s bought armour (§34.1) needs a standard style "
                f"(myrmillo, secutor, gallus or standard), not {key}"
            )


def has_entrants(options: Mapping[str, Any]) -> bool:
    return any(options.get("entrants") or ())


def entrant_of(options: Mapping[str, Any], index: int) -> Entrant | None:
    """The entrant of the seat at `index` (table order), None to roll as usual."""
    entrants = options.get("entrants") or ()
    if index >= len(entrants) or not entrants[index]:
        return None
    return Entrant.model_validate(entrants[index])


def seat_sheet(
    options: Mapping[str, Any],
    index: int,
    events: list[Event],
    dice: DiceLike,
    gladiator_class: GladiatorClass,
    *,
    id: int,
    name: str,
    style: str,
    opponent_is_retiarius: bool = False,
    shield: bool = True,
) -> LogSheet:
    """The seat's log sheet (`name`: the seat): rolled (§3, §19), or an entrant's (X1-X5)."""
    e = entrant_of(options, index)
    if e is None:
        return roll_log_sheet(
            dice,
            gladiator_class,
            id=id,
            name=name,
            opponent_is_retiarius=opponent_is_retiarius,
            style=style,
            shield=shield,
        )
    if e.armour is not None:  # §34 (X3): no armour roll
        bought = None if e.shield == "none" or not shield else e.shield
        sheet = LogSheet.model_validate(
            {
                "id": id,
                "name": e.name,
                "gladiator_class": gladiator_class,
                "prestige": e.prestige,
                **e.ratings(),
                "career": True,
                "armour": tuple(e.armour),
                "shield": "small" if bought and opponent_is_retiarius else bought,  # §3.10.2
                "opponent_is_retiarius": opponent_is_retiarius,
                "style": style,
                "custom_armour": True,
            }
        )
    else:
        sheet = roll_log_sheet(
            dice,
            gladiator_class,
            id=id,
            name=e.name,
            opponent_is_retiarius=opponent_is_retiarius,
            prestige=e.prestige,
            style=style,
            shield=shield,
            ratings=e.ratings(),
        )
    carried = ""
    if e.carry is not None:  # X5: the last fight's marks
        c = e.carry
        sheet = sheet.model_copy(
            update={
                "wounds": tuple(c.wounds),
                "cf_lost_other": c.cf_lost_other,
                "st_lost": c.st_lost,
                "ag_lost": c.ag_lost,
            }
        )
        carried = (
            f"; from his last fight: wounds {'/'.join(map(str, c.wounds))}, CF −"
            f"{c.cf_lost_other} besides, ST −{c.st_lost}, AG −{c.ag_lost}: CF now "
            f"{sheet.current_cf}"
        )
    seat = name  # the callers name a rolled sheet after its seat
    events.append(
        event(
            "entrant",
            "§30",
            f"{seat} is {e.summary()}: his career's ratings (X1)"
            + ("; bought armour (§34)" if e.armour is not None else "")
            + carried,
            seat=seat,
            name=e.name,
            prestige=e.prestige,
            cf=sheet.current_cf,
        )
    )
    return sheet
