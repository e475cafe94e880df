"""How a quick-rules match looks: in text (the hex map with facings and a status line per figure)
and as a scene for graphical front ends (docs/web.md)."""

from __future__ import annotations

from typing import Any

from gladiator.core import hexgrid as hg
from gladiator.core.protocol import empty_scene
from gladiator.core.textmap import ARROWS, draw
from gladiator.rules.quick.arena import arena_of
from gladiator.rules.quick.state import Fighter, QuickState
from gladiator.rules.quick.tables import tables

__all__ = ["render_board", "scene", "status_line"]


def _arena(state: QuickState) -> hg.HexMap:
    return arena_of(state)


def render_board(state: QuickState, marks: dict[hg.Hex, str] | None = None) -> str:
    """The arena as a text hex map.

    A figure shows as its seat's initial (lower case when helpless) and an arrow for its facing;
    `marks` puts a character on other hexes (legal destinations, say).
    """
    figures = {f.hex: f for f in state.fighters.values() if f.on_board}

    def cell(h: hg.Hex) -> str:
        if h in figures:
            f = figures[h]
            return (f.seat[0].upper() if f.fighting else f.seat[0]) + ARROWS[f.facing]
        if marks and h in marks:
            return marks[h]
        return "·"

    return draw(_arena(state).hexes, cell)


def status_line(f: Fighter) -> str:
    kit = tables().kit(f.cls)
    gear = [kit.weapon if f.has_weapon else f"no {kit.weapon}"]
    gear.append(kit.off_hand if f.has_off_hand and not f.net_cast else f"no {kit.off_hand}")
    flags = [x for x, on in (("ensnared", f.ensnared), ("off balance", f.off_balance)) if on]
    return (
        f"{f.seat:<7} {f.cls:<9} strength {f.strength:>3}/{f.max_strength:<3} "
        f"at {f.hex.q},{f.hex.r} facing {hg.DIRECTION_NAMES[f.facing]:<2} "
        f"{', '.join(gear)}{'; ' + ', '.join(flags) if flags else ''}  [{f.status}]"
    )


# Statuses after which the figure lies dead on the sand (§7.6, §9.1, §9.5).
_DEAD = frozenset({"killed", "dead", "slain"})


def scene(state: QuickState, seat: str | None) -> dict[str, Any]:
    """The common scene (docs/web.md). Nothing in a quick-rules state is secret (fate votes wait
    inside the Match), so every seat and the spectator see the same scene."""
    out = empty_scene()
    out["caption"] = _caption(state)
    out["hexes"] = [[h.q, h.r] for h in sorted(_arena(state).hexes)]
    out["walls"] = [[h.q, h.r, side] for h, side in sorted(_arena(state).walls)]
    out["figures"] = [_figure(f) for f in state.fighters.values()]
    out["items"] = _items(state)
    # The state keeps no record of where blows landed, so no blood marks.
    out["panels"] = [_panel(state, f) for f in state.fighters.values()]
    return out


def _caption(state: QuickState) -> str:
    if state.phase == "over":
        return f"Round {state.round}: the match is over. {state.end_summary}"
    if state.phase == "fate" and state.fate is not None:
        deciders = ", ".join(state.fate.deciders)
        return f"Round {state.round}: {state.fate.helpless}'s fate, decided by {deciders} (§7.6)"
    return f"Round {state.round}: {state.active} to act, {state.ap} AP left (§5.1)"


def _states(f: Fighter) -> list[str]:
    out: list[str] = []
    if f.status != "fighting":
        out.append(f.status)  # helpless, killed, dead, slain or spared
    if f.ensnared:
        out.append("ensnared")  # §10.5
    if f.off_balance:
        out.append("off-balance")  # §9.3, §9.4
    if not f.has_weapon:
        out.append("unarmed")  # §9.6: broken weapon, knuckle sandwich
    kit = tables().kit(f.cls)
    if not f.has_off_hand:
        out.append(f"no {kit.off_hand}")  # §9.2
    return out


def _figure(f: Fighter) -> dict[str, Any]:
    return {
        "id": f.seat,
        "seat": f.seat,
        "label": f.cls.capitalize(),
        "hex": [f.hex.q, f.hex.r],
        "facing": f.facing,
        "kind": f.cls,
        "states": _states(f),
        "alive": f.status not in _DEAD,
    }


def _items(state: QuickState) -> list[dict[str, Any]]:
    # QR10: a net that ensnared someone stays on him. The state does not say whose net it is
    # when several Retiarii have cast, so the owner is given only when it is certain.
    casters = [f.seat for f in state.fighters.values() if f.net_cast]
    owner = casters[0] if len(casters) == 1 else None
    return [
        {"hex": [f.hex.q, f.hex.r], "kind": "net", "owner": owner, "label": "net"}
        for f in state.fighters.values()
        if f.ensnared and f.on_board
    ]


def _panel(state: QuickState, f: Fighter) -> dict[str, Any]:
    kit = tables().kit(f.cls)
    off_hand: str = kit.off_hand
    if f.net_cast:
        off_hand += " (cast, on its victim)"
    elif not f.has_off_hand:
        off_hand += " (lost)"
    rows: list[list[str]] = [
        ["Strength", f"{f.strength}/{f.max_strength}"],  # §3.1
        ["Weapon", kit.weapon if f.has_weapon else f"{kit.weapon} (broken)"],
        ["Off hand", off_hand],
        ["Status", f.status],
        ["Turn order", str(state.order.index(f.seat) + 1)],  # QR2
    ]
    if state.phase == "act" and state.active == f.seat:
        rows.append(["AP left", str(state.ap)])  # §5.1
        rows.append(["Strikes", str(state.strikes)])  # §5.2.4
    lost = min(f.max_strength, max(0, f.max_strength - f.strength))
    return {
        "seat": f.seat,
        "title": f"{f.seat}: {f.cls}",
        "rows": rows,
        # §7: each point of strength lost is a box checked off the track (it may fall below 0).
        "boxes": [{"label": "Strength", "total": f.max_strength, "checked": lost}],
    }


def glossary() -> dict[str, Any]:
    """What the orders, badges and sheet rows mean, for front ends' tooltips and help."""
    return {
        "orders": {
            "F": "step forward (1 AP, §5.2.1)",
            "SFL": "step to the left-front without turning (2 AP, §5.2.2)",
            "SFR": "step to the right-front without turning (2 AP, §5.2.2)",
            "B": "step back without turning (2 AP, §5.2.2)",
            "SBL": "step to the left-rear without turning (2 AP, §5.2.2)",
            "SBR": "step to the right-rear without turning (2 AP, §5.2.2)",
            "L": "pivot one hex face left (1 AP, §5.2.3)",
            "R": "pivot one hex face right (1 AP, §5.2.3)",
            "ST": "strike at an adjacent opponent (1 AP, one a turn, §5.2.4); ST>blue names him",
            "NET": "the Retiarius casts his net (2 AP, §5.2.5)",
            "E": "end the turn",
            "UP": "thumbs up: spare the helpless gladiator",
            "DOWN": "thumbs down: kill the helpless gladiator",
        },
        "states": {
            "helpless": "helpless: his fate is decided by thumbs up or down (QR6)",
            "killed": "killed",
            "dead": "dead",
            "slain": "slain while helpless",
            "spared": "spared: out of the fight, alive",
            "ensnared": "caught in a net: −3 AP (§5.3.5, §10.5)",
            "off-balance": "off balance: −2 AP next turn (§9.3, §9.4)",
            "unarmed": "his weapon is broken (§9.6)",
            "no shield": "his shield is gone (§9.2)",
            "no net": "his net is cast (§9.2)",
        },
        "rows": {
            "Strength": "current/starting strength: wounds take it off (§3.1)",
            "Weapon": "what he strikes with",
            "Off hand": "shield or net",
        },
        "notes": ["Orders are typed in the short notation; ? lists them with their meaning."],
    }
