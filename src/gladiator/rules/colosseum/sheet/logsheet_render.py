"""A gladiator's log sheet (§3) drawn for a terminal."""

from __future__ import annotations

from gladiator.rules.colosseum.kit.styles import style
from gladiator.rules.colosseum.sheet.logsheet import LogSheet
from gladiator.rules.colosseum.sheet.logsheet_boxes import AREA_NAMES, ARMOUR_TABLE
from gladiator.rules.colosseum.vocabulary import AREAS, Area

__all__ = [
    "render_text",
]


_SHIELD_NAME = {"large": "Clipeus", "small": "Parma"}  # §3.17


def _wound_track(sheet: LogSheet, area: Area) -> str:
    """Boxes 1..W left to right, grouped by CF category; marks fill from box W (§10.3)."""
    first_marked = sheet.w - sheet.wounds_in(area) + 1
    groups = [sorted(cat) for cat in reversed(sheet.wound_categories(area))]
    return " ".join(
        "".join("■" if box >= first_marked else "□" for box in group) for group in groups
    )


def render_text(sheet: LogSheet) -> str:
    """A compact terminal rendering of the log sheet."""
    kind: str = sheet.gladiator_class
    if sheet.style is not None:
        kind = f"{style(sheet.style).name} ({kind})"
    lines = [f"#{sheet.id} {sheet.name} · {kind} · move {sheet.move} · prestige {sheet.prestige}"]

    def rating(label: str, rolled: int, now: int) -> str:
        return f"{label} {rolled}" if rolled == now else f"{label} {rolled}→{now}"

    lines.append(
        "  ".join(
            (
                rating("TR", sheet.tr, sheet.tr),
                rating("ST", sheet.st, sheet.current_st),
                rating("AG", sheet.ag, sheet.current_ag),
                rating("CN", sheet.cn, sheet.cn),
                rating("W", sheet.w, sheet.w),
                rating("CF", sheet.cf, sheet.current_cf),
                rating("NF", sheet.nf, sheet.current_nf),
            )
        )
    )
    losses = [
        (f"wounds −{sheet.cf_lost_to_wounds()}", sheet.cf_lost_to_wounds()),
        (f"criticals −{sheet.cf_lost_other}", sheet.cf_lost_other),
        (f"endurance −{sheet.cf_lost_to_endurance}", sheet.cf_lost_to_endurance),
    ]
    lost = ", ".join(text for text, n in losses if n)
    status = [f"CF now {sheet.current_cf}" + (f" ({lost})" if lost else "")]
    status.append(f"stun {sheet.stun_in_effect}")
    status.append(f"available {sheet.available_cf()}")
    if sheet.killed:
        status.append("KILLED")
    elif sheet.unconscious:
        status.append("UNCONSCIOUS")
    lines.append(" · ".join(status))
    table_name = ARMOUR_TABLE[sheet.gladiator_class]
    source = f"{table_name} roll {sheet.armour_roll}" if sheet.armour_roll else table_name
    if sheet.armour_roll_2:
        source += f" and {sheet.armour_roll_2}"
    note = ", Retiarius opponent" if sheet.opponent_is_retiarius else ""
    carried = f"{sheet.shield} ({_SHIELD_NAME[sheet.shield]})" if sheet.shield else "none"
    lines.append(f"armour {source}{note} · shield {carried}")
    for number, area in enumerate(AREAS, 1):
        label = f"{number} {AREA_NAMES[area]}"
        armour = str(sheet.armour_of(area))
        n = sheet.wounds_in(area)
        cf_lost = sheet.cf_lost_to_wounds(area)
        tail = f"{n}/{sheet.w}" + (f" CF −{cf_lost}" if cf_lost else "")
        lines.append(f"  {label:<8} {armour:<3} {_wound_track(sheet, area)}  {tail}")
    if sheet.stun:
        boxes = " ".join(f"{e.total}@{e.turn}.{e.phase}" for e in sheet.stun)
        lines.append(f"stun boxes (total@turn.phase): {boxes}")
    track = " ".join(
        ("■" if i < sheet.shield_marked else "□") + str(box)
        for i, box in enumerate(sheet.shield_track)
    )
    points = sheet.shield_damage_points
    state = "useless" if sheet.shield_useless else f"damage points {points}"
    if sheet.shield is not None:
        lines.append(f"shield damage {track} · {state}")
    for turn in sheet.plot:
        orders = "  ".join(f"{i}:{o}" for i, o in enumerate(turn.phases, 1) if o)
        endurance = f"  endurance CF −{turn.endurance_cf_lost}" if turn.endurance_cf_lost else ""
        lines.append(f"turn {turn.turn}  {orders}{endurance}".rstrip())
    return "\n".join(lines)
