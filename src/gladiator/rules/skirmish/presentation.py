"""How a skirmish match looks: in text (the hex map with facings and a status line per figure)
and as a scene for graphical front ends (docs/web.md)."""

from __future__ import annotations

from typing import Any

from gladiator.core import hexgrid as hg
from gladiator.core.protocol import empty_scene
from gladiator.core.textmap import ARROWS, draw
from gladiator.rules.skirmish.arena import arena_of
from gladiator.rules.skirmish.state import Fighter, SkirmishState
from gladiator.rules.skirmish.tables import tables

__all__ = ["render", "scene", "status_line"]


def render(state: SkirmishState, seat: str | None) -> str:
    figures = {f.hex: f for f in state.fighters.values() if f.alive}
    nets = set(state.nets)

    def cell(h: hg.Hex) -> str:
        if h in figures:
            f = figures[h]
            return (f.seat[0].upper() + ARROWS[f.facing]) if not f.floored else f.seat[0] + "_"
        return "#" if h in nets else "·"

    board = draw(arena_of(state).hexes, cell)
    lines = [status_line(f, seat) for f in state.fighters.values()]
    return board + "\n\n" + "\n".join(lines)


def status_line(f: Fighter, viewer: str | None) -> str:
    if not f.alive:
        return f"{f.seat:<7} {f.sheet:<9} dead: {f.cause}"
    flags = [
        name
        for name, on in (("stunned", f.stunned), ("floored", f.floored), ("entangled", f.entangled))
        if on
    ]
    if f.stun_bank:
        flags.append(f"{f.stun_bank} stun to come")
    barred = f"; barred: {' '.join(f.prohibited)}" if f.prohibited else ""
    return (
        f"{f.seat:<7} {f.sheet:<9} HP {f.hp:>2}/{f.max_hp:<2} nicks {f.nicks} cuts {f.cuts} "
        f"wounds {f.wounds}  at {f.hex.q},{f.hex.r} facing {hg.DIRECTION_NAMES[f.facing]}"
        f"{'; ' + ', '.join(flags) if flags else ''}{barred}"
    )


_STEP = {
    "write": "every gladiator writes a move (§4.1)",
    "first": "{who} won the initiative: first or second? (§4.2.1)",
    "act": "{who} performs or converts his move (§4.3)",
    "hex": "{who} picks the hex to move into (§2.5.3)",
    "target": "{who} picks whom to attack (§2.5.5)",
    "facing": "{who} turns (§8)",
}
_TRACK = (("Nicks", "nick"), ("Cuts", "cut"), ("Wounds", "wound"))  # §2.7


def scene(state: SkirmishState, seat: str | None) -> dict[str, Any]:
    """The common scene (docs/web.md). A written move is secret until performed or read against
    an attack (§4.1): only its writer's own panel shows it before then."""
    arena = arena_of(state)
    out = empty_scene()
    if state.phase == "over":
        # A match stopped by the turn limit has already counted the turn it never played.
        played = min(state.turn, int(state.options["max_turns"]))
        out["caption"] = f"Turn {played}: the match is over ({state.end_method})"
    else:
        out["caption"] = f"Turn {state.turn}: " + _STEP[state.phase].format(who=state.chooser)
    out["hexes"] = [[h.q, h.r] for h in sorted(arena.hexes)]
    out["walls"] = [[h.q, h.r, side] for h, side in sorted(arena.walls)]
    out["figures"] = [_figure(f) for f in state.fighters.values()]
    # §2.8: a net lying on the sand until a Retiarius reclaims it; whose it was is not kept.
    out["items"] = [
        {"hex": [h.q, h.r], "kind": "net", "owner": None, "label": "net"} for h in state.nets
    ]
    # The state keeps no record of where blows landed, so no blood marks.
    out["panels"] = [_panel(state, f, seat) for f in state.fighters.values()]
    return out


def _figure(f: Fighter) -> dict[str, Any]:
    states = [
        name
        for name, on in (
            ("floored", f.floored),  # §7
            ("entangled", f.entangled),  # the net
            ("stunned", f.stunned),  # §5
            ("dead", not f.alive),  # §6.11
        )
        if on
    ]
    return {
        "id": f.seat,
        "seat": f.seat,
        "label": tables().sheets[f.sheet].type,
        "hex": [f.hex.q, f.hex.r],
        "facing": f.facing,
        "kind": f.sheet,
        "states": states,
        "alive": f.alive,
    }


def _panel(state: SkirmishState, f: Fighter, viewer: str | None) -> dict[str, Any]:
    sheet = tables().sheets[f.sheet]
    rows: list[list[str]] = [
        ["Hit points", f"{f.hp}/{f.max_hp}"],  # §2.6
        ["Protection", f"{sheet.protection} ({sheet.protection_class})"],
        ["Weapons", sheet.weapons],
    ]
    if state.phase not in ("write", "over") and f.alive:
        rows.append(["Initiative", str(f.initiative)])  # §4.2
    if f.stun_bank:
        rows.append(["Stun to come", str(f.stun_bank)])  # §5.2
    # §4.1: the written move is his own secret until he performs it or it is read.
    if f.written and (f.revealed or f.seat == viewer):
        rows.append(["Written", f.written])
    if f.performed:
        rows.append(["Performed", f.performed + (" (converted)" if f.converted else "")])
    if f.last_performed:
        rows.append(["Last turn", f.last_performed])
    if f.prohibited:
        rows.append(["Barred", " ".join(f.prohibited)])  # §2.5.7
    if f.has_net or f.nets_reclaimed:
        rows.append(["Nets reclaimed", str(f.nets_reclaimed)])  # §2.8
    if not f.alive:
        rows.append(["Dead", f.cause])
    kinds: list[str] = [b.box for b in sheet.wound_track]
    marked = {"nick": f.nicks, "cut": f.cuts, "wound": f.wounds}
    boxes: list[dict[str, Any]] = [
        {
            "label": "Hit points",
            "total": f.max_hp,
            "checked": min(f.max_hp, max(0, f.max_hp - f.hp)),
        }
    ]
    boxes += [
        {"label": label, "total": kinds.count(kind), "checked": marked[kind]}
        for label, kind in _TRACK
    ]
    return {
        "seat": f.seat,
        "title": f"{f.seat}: {sheet.type}",
        "rows": rows,
        "boxes": boxes,
    }


def glossary() -> dict[str, Any]:
    """What the badges and sheet rows mean (each move's meaning is its option's label, from the
    sheet), for front ends' tooltips and help."""
    return {
        "orders": {
            "FIRST": "act first this turn",
            "SECOND": "act second this turn",
        },
        "states": {
            "floored": "on the ground (§7)",
            "entangled": "caught in the net",
            "stunned": "stunned (§5)",
            "dead": "dead (§6.11)",
        },
        "rows": {},
        "notes": ["A move is written with its two-letter code from the sheet; a hex as q,r."],
    }
