"""The Colosseum engine's options for each fight of a bout (the contract's campaign options),
and the carry from one Consecutive fight to the next (§30.2.1.1).

Every campaign fight is an Advanced Game match (`advanced: true`) with the styles the campaign
rolled, each gladiator's talents (§36), his career as an entrant (ratings, PR: §35.3 crowd favour
and §35.4 intimidation are the engine's, from the entrant's `prestige`), §30.2.2's sine missione,
and the munus's arena size (Q22: rolled once per munus). Seats alternate between the sides (red
for the gladiator who found the match, blue for his first opponent), so a duel is red v blue.
"""

from __future__ import annotations

import copy
from typing import Any

from gladiator.campaign.state import Bout, CampaignState, Career
from gladiator.rules.colosseum.kit.styles import weapons_problem
from gladiator.rules.colosseum.kit.talents import chart_weapons
from gladiator.rules.colosseum.teams import ALL_SEATS

__all__ = [
    "BEAST",
    "SEATS",
    "build_fight",
    "fight_lanistas",
    "next_fight",
    "refresh_entrants",
    "seat_order",
]

SEATS = ALL_SEATS  # G1: the engine's table order of seats
BEAST = "beast:"


def seat_order(a: list[str], b: list[str]) -> dict[str, str]:
    """Seat -> member: side A and side B in turn while both have men, then the rest."""
    order: list[str] = []
    for i in range(max(len(a), len(b))):
        order += [x[i] for x in (a, b) if i < len(x)]
    if len(order) > len(SEATS):
        raise ValueError(f"a fight of {len(order)} has more men than the {len(SEATS)} seats")
    return dict(zip(SEATS, order, strict=False))


# §19.5, §36.3: the styles whose training is a talent (SR, SD).
STYLE_TALENTS = {"retiarius": "SR", "dimachaeri": "SD"}


def fighting_talents(career: Career, style: str) -> list[str]:
    """His talents as the engine is given them. A man matched in a style that needs a talent he
    was not rolled (a house challenger of category IV, L2; one bought as a Retiarius, L8) was
    trained in it: the engine's §36 check (TL2) is given the talent the style implies."""
    needed = STYLE_TALENTS.get(style)
    if needed is None or career.has(needed):
        return list(career.talents)
    return [*career.talents, needed]


def skilled_weapon(career: Career, style: str) -> str:
    """§36.3 WS, L7: a man skilled in an optional weapon fights with it instead of a sword
    style's sword (the first of his WS weapons the style may carry, F2); "" is the chart's."""
    if chart_weapons(style) != ("sword",):
        return ""
    for talent in career.talents:
        code, _, weapon = talent.partition(":")
        if code == "WS" and weapon and not weapons_problem(style, (weapon,)):
            return weapon
    return ""


def _entrant(career: Career, armour: dict[str, Any] | None) -> dict[str, Any]:
    entrant: dict[str, Any] = {
        "name": career.name,
        "tr": career.tr,
        "st": career.st,
        "ag": career.ag,
        "cn": career.cn,
        "w": career.w,
        "prestige": career.prestige,
    }
    if armour:
        entrant["armour"] = list(armour["pieces"])
        entrant["shield"] = armour["shield"]
    return entrant


def build_fight(
    state: CampaignState, bout: Bout, a: list[str], b: list[str], arena_size: int
) -> tuple[dict[str, str], dict[str, Any]]:
    """(seat -> gladiator id or "beast:<kind>", the engine options) for one fight."""
    seats = seat_order(a, b)
    styles: list[str] = []
    weapons: list[str] = []
    talents: list[str] = []
    entrants: list[dict[str, Any]] = []
    for member in seats.values():
        if member.startswith(BEAST):
            styles.append("random")
            weapons.append("")
            talents.append("")
            entrants.append({})
            continue
        career = state.gladiators[member]
        style = bout.styles[member]
        styles.append(style)
        weapons.append(skilled_weapon(career, style))
        talents.append(",".join(fighting_talents(career, style)))
        entrants.append(_entrant(career, bout.armour.get(member)))
    options: dict[str, Any] = {
        "advanced": True,
        "styles": styles,
        "weapons": weapons,
        "talents": talents,
        "talent_prerequisites": True,
        "entrants": entrants,
        "sine_missione": bout.sine_missione,
        "arena_size": arena_size,
    }
    beasts = [(s, m.removeprefix(BEAST)) for s, m in seats.items() if m.startswith(BEAST)]
    if beasts:
        options["beasts"] = ",".join(f"{s}:{kind}" for s, kind in beasts)
    elif len(seats) > 2:
        side_a = [s for s, m in seats.items() if m in a]
        side_b = [s for s, m in seats.items() if m in b]
        options["teams"] = "+".join(side_a) + ":" + "+".join(side_b)
    return seats, options


def refresh_entrants(state: CampaignState, bout: Bout) -> None:
    """Write the bout's armour purchases (§34) into its fights' entrants."""
    for seats, fight in zip(bout.seats, bout.fights, strict=True):
        # The per-seat option lists are in table order (red, blue, green, ...), whatever order
        # the mapping was written or read back in.
        ordered = [seats[seat] for seat in SEATS if seat in seats]
        for i, member in enumerate(ordered):
            if not member.startswith(BEAST):
                fight["entrants"][i] = _entrant(state.gladiators[member], bout.armour.get(member))


def fight_lanistas(state: CampaignState, bout: Bout, index: int = 0) -> dict[str, str | None]:
    """Seat -> the lanista who plays it (None: the house, a beast or a challenger)."""
    out: dict[str, str | None] = {}
    for seat, member in bout.seats[index].items():
        career = None if member.startswith(BEAST) else state.gladiators[member]
        out[seat] = career.lanista if career is not None else None
    return out


def next_fight(bout: Bout, reports: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The engine options of the bout's next fight after `reports` (one per fight played), or
    None when the bout is over. §30.2.1.1: a Consecutive fight starts as soon as the last one
    ends, so the gladiator (red) carries his wounds and losses into it; the run ends when he
    does not win a fight."""
    k = len(reports)
    if k == 0:
        return copy.deepcopy(bout.fights[0])
    if bout.type != "consecutive" or k >= len(bout.fights):
        return None
    last = reports[-1].get("red", {})
    if last.get("result") != "victory" or not last.get("alive", False):
        return None
    fight = copy.deepcopy(bout.fights[k])
    if last.get("carry"):
        fight["entrants"][0]["carry"] = copy.deepcopy(last["carry"])
    return fight
