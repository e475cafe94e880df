"""Reading a log sheet entered by hand or saved with `LogSheet.to_dict` (§3), checked, with a
one-line message for every problem.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from gladiator.rules.colosseum.kit.styles import rolls_needed, styled_armour
from gladiator.rules.colosseum.sheet.logsheet import SCHEMA, SCHEMA_VERSION, LogSheet
from gladiator.rules.colosseum.sheet.logsheet_boxes import CHARACTERISTICS, row_armour
from gladiator.rules.colosseum.tables.sheet_tables import Armour
from gladiator.rules.colosseum.tables.tables import tables
from gladiator.rules.colosseum.vocabulary import AREAS, CLASSES, Area, GladiatorClass

__all__ = [
    "log_sheet_from_dict",
]


_KEYS = frozenset(
    {
        "schema",
        "schema_version",
        "id",
        "name",
        "class",
        "move",
        "prestige",
        *CHARACTERISTICS,
        "cf",
        "nf",
        "armour_roll",
        "armour",
        "shield",
        "opponent_is_retiarius",
        "wounds",
        "cf_lost_other",
        "st_lost",
        "ag_lost",
        "stun",
        "shield_marked",
        "plot",
        "style",
        "armour_roll_2",
        "career",
        "custom_armour",
        "pb",
    }
)


def _one_line(exc: ValidationError) -> str:
    errors = exc.errors()
    first = errors[0]
    where = ".".join(str(part) for part in first["loc"])
    if where == "gladiator_class":
        where = "class"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    if first["type"] == "missing":
        message = f"{where} is missing"
    else:
        message = str(first["msg"]).removeprefix("Value error, ")
        if where:
            message = f"{where}: {message}, got {first['input']!r}"
    return " ".join(f"log sheet: {message}{more}".split())


def _by_area(field: str, value: Any) -> dict[Area, Any]:
    if not isinstance(value, Mapping):
        raise ValueError(f"log sheet: {field} must map each body area to a value")
    unknown = sorted(str(k) for k in value if k not in AREAS)
    missing = [a for a in AREAS if a not in value]
    if unknown or missing:
        raise ValueError(
            f"log sheet: {field} needs exactly the areas {', '.join(AREAS)}"
            + (f"; unknown {', '.join(unknown)}" if unknown else "")
            + (f"; missing {', '.join(missing)}" if missing else "")
        )
    return {a: value[a] for a in AREAS}


def _parse_armour(area: Area, text: Any) -> Armour:
    if isinstance(text, str):
        try:
            return Armour.model_validate(text)
        except ValidationError:
            pass
    raise ValueError(
        f"log sheet: armour {area} {text!r} is not '-' or A, B or C with an optional "
        "coverage 1-5 (§3.10.1)"
    )


def _styled_from_rolls(data: Mapping[str, Any], gladiator_class: GladiatorClass) -> dict[str, Any]:
    key = data["style"]
    try:
        needed = rolls_needed(key) if isinstance(key, str) else -1
    except ValueError:
        raise ValueError(
            f"log sheet: style {key!r} is not on the Gladiator chart (T37, §19)"
        ) from None
    rolls = [data.get(k) for k in ("armour_roll", "armour_roll_2")][:needed]
    if needed < 0 or not all(isinstance(r, int) and 1 <= r <= 6 for r in rolls):
        return {}
    table = tables().armour.table(gladiator_class)
    armour, shield = styled_armour(
        key,
        [table.row(r) for r in rolls if isinstance(r, int)],
        opponent_is_retiarius=data.get("opponent_is_retiarius") is True,
    )
    return {"armour": armour, **({} if "shield" in data else {"shield": shield})}


def log_sheet_from_dict(data: Mapping[str, Any]) -> LogSheet:
    """Check and read a sheet entered by hand or written by `LogSheet.to_dict`.

    schema and schema_version may be left out by hand; move, cf and nf may be left out and are
    checked when given. With armour_roll and no armour, the armour (and the shield, if left out)
    are read from the class's table. Every problem is a ValueError with a one-line message.
    """
    if not isinstance(data, Mapping):
        raise ValueError(f"log sheet: must be a JSON object, not {type(data).__name__}")
    unknown = sorted(str(k) for k in data if k not in _KEYS)
    if unknown:
        raise ValueError(f"log sheet: unknown field {unknown[0]!r}")
    schema = data.get("schema", SCHEMA)
    if schema != SCHEMA:
        raise ValueError(f"log sheet: schema {schema!r} is not {SCHEMA!r}")
    version = data.get("schema_version", SCHEMA_VERSION)
    if version != SCHEMA_VERSION or isinstance(version, bool):
        raise ValueError(
            f"log sheet: schema_version {version!r} is not supported (this build reads "
            f"{SCHEMA_VERSION})"
        )
    gladiator_class = data.get("class")
    if gladiator_class not in CLASSES:
        what = "is missing" if gladiator_class is None else f"{gladiator_class!r} is not"
        raise ValueError(f"log sheet: class {what} light, medium or heavy (§3.4)")
    fields: dict[str, Any] = {
        k: v
        for k, v in data.items()
        if k not in ("schema", "schema_version", "class", "move", "cf", "nf", "armour", "wounds")
    }
    fields["gladiator_class"] = gladiator_class
    if "armour" in data:
        armour = _by_area("armour", data["armour"])
        fields["armour"] = tuple(_parse_armour(a, armour[a]) for a in AREAS)
    elif "style" in data:  # §19, F4: a styled sheet's armour from its rolls, if given
        fields.update(_styled_from_rolls(data, gladiator_class))
    elif isinstance(data.get("armour_roll"), int) and 1 <= data["armour_roll"] <= 6:
        row = tables().armour.table(gladiator_class).row(data["armour_roll"])
        fields["armour"] = row_armour(row)
        if "shield" not in data:
            fields["shield"] = "small" if data.get("opponent_is_retiarius") is True else row.shield
    if "wounds" in data:
        fields["wounds"] = tuple(_by_area("wounds", data["wounds"]).values())
    try:
        sheet = LogSheet.model_validate(fields)
    except ValidationError as exc:
        raise ValueError(_one_line(exc)) from None
    checks = (
        (
            "move",
            sheet.move,
            f"the {sheet.style or gladiator_class} rate {sheet.move} "
            + ("(§19)" if sheet.style else "(§3.5)"),
        ),
        ("cf", sheet.cf, f"TR + ST + AG = {sheet.cf} (§3.11.2)"),
        ("nf", sheet.nf, f"TR + AG = {sheet.nf} (§3.11.2)"),
    )
    for key, value, wanted in checks:
        if key in data and (type(data[key]) is not int or data[key] != value):
            label = key if key == "move" else key.upper()
            raise ValueError(f"log sheet: {label} {data[key]!r} is not {wanted}")
    return sheet
