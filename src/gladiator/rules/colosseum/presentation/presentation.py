"""How a Colosseum match looks: in text (the arena around the fighters as an odd-q hex map, as the
skirmish presentation draws it, a status line per gladiator, and both log sheets, §3) and as a
scene for graphical front ends (docs/web.md)."""

from __future__ import annotations

from typing import Any

from gladiator.core import hexgrid as hg
from gladiator.core.protocol import empty_scene
from gladiator.core.textmap import ARROWS, draw
from gladiator.rules.colosseum.arena.board import board_of
from gladiator.rules.colosseum.arena.walls import wall_sides
from gladiator.rules.colosseum.beasts.beasts import counter_hexes, tail
from gladiator.rules.colosseum.kit.nets import LOOSE
from gladiator.rules.colosseum.kit.styles import style
from gladiator.rules.colosseum.kit.weapons import weapon
from gladiator.rules.colosseum.presentation.glossary import glossary
from gladiator.rules.colosseum.presentation.team_presentation import letter, team_lines, team_scene
from gladiator.rules.colosseum.sheet.logsheet import LogSheet
from gladiator.rules.colosseum.sheet.logsheet_boxes import AREA_NAMES
from gladiator.rules.colosseum.sheet.logsheet_render import render_text as render_sheet
from gladiator.rules.colosseum.state import ColosseumState, Gladiator, GroundItem
from gladiator.rules.colosseum.tables.tables import tables
from gladiator.rules.colosseum.teams import is_pack
from gladiator.rules.colosseum.vocabulary import AREAS

__all__ = ["glossary", "render", "scene", "status_line"]

MARGIN = 3  # hexes of arena shown around the fighters


def render(state: ColosseumState, seat: str | None) -> str:
    board = board_of(state)
    figures = {g.hex: g for g in state.gladiators.values()}
    bodies = {tail(g.hex, g.facing): g for g in state.gladiators.values() if _two_hex(g)}  # §28
    items = {i.hex: i for i in state.items}
    counters = set(state.blood_counters)  # §26.2
    spots = [hg.to_offset(h) for h in (*figures, *bodies, *items)]
    c_lo = min(c for c, _ in spots) - MARGIN
    c_hi = max(c for c, _ in spots) + MARGIN
    r_lo = min(r for _, r in spots) - MARGIN
    r_hi = max(r for _, r in spots) + MARGIN
    window = (hg.from_offset(c, r) for c in range(c_lo, c_hi + 1) for r in range(r_lo, r_hi + 1))

    def cell(h: hg.Hex) -> str:
        if h in figures:
            g = figures[h]
            c = letter(g.seat)  # a team match's gold is Y (team_presentation.py)
            if g.posture == "prone":
                return c + "_"
            if g.posture == "kneeling":
                return c + ARROWS[g.facing]
            return (c.upper() if g.alive else "+") + ARROWS[g.facing]
        if h in bodies:  # §28.2.1: a beast's body hex behind its head
            return letter(bodies[h].seat) + "="
        if h in items:
            return {"weapon": "w", "net": "n"}.get(items[h].item, "o")  # §20.8.2: n a net
        if h in counters:
            return "*"
        return "·"

    board_text = draw((h for h in window if h in board), cell).strip("\n")
    head = f"Turn {state.turn}, phase {state.phase} · {state.step}"
    if state.step == "over":
        head += f" · {state.end_method}: {state.end_summary}"
    lines = [status_line(g) for g in state.gladiators.values()]
    if state.options.get("teams") or is_pack(state.options):  # §27, B11: sides, the fallen
        lines += team_lines(state)
    if state.arena_size is not None:
        lines.append(arena_line(state))
    sheets = [render_sheet(g.sheet) for g in state.gladiators.values() if g.beast is None]
    return "\n\n".join([head, board_text, "\n".join(lines), *sheets])


def arena_line(state: ColosseumState) -> str:
    """§25, §26: the Arena Size, the walled edges of the map and the Blood counters (* on the
    map)."""
    walls = ", ".join(state.walls) if state.walls else "none found yet"
    t38 = tables().arena.t38
    kind = {t38.colosseum: " (the Colosseum in Rome)", t38.fighting_pit: " (a Fighting Pit)"}
    kind_text = kind.get(state.arena_size or 0, "")
    text = f"arena size {state.arena_size}{kind_text}; walls: {walls}"
    if state.blood_counters:
        text += f"; blood counters (*): {len(state.blood_counters)}"
    return text


def _two_hex(g: Gladiator) -> bool:
    return g.beast is not None and g.beast.size == 2


def _beast_line(g: Gladiator) -> str:
    """§28: a beast's state: kind, CF, Stun, wounds, its counter's hexes, this phase's move."""
    assert g.beast is not None
    s = g.sheet
    where = " + ".join(f"{h.q},{h.r}" for h in counter_hexes(g))
    extra = "; reared up" if g.beast.reared else ""
    return (
        f"{g.seat:<5} {g.beast.name:<6} CF {s.current_cf:>2}/{s.cf:<2} Stun {s.stun_in_effect} "
        f"wounds {sum(s.wounds)} at {where} facing {hg.DIRECTION_NAMES[g.facing]}"
        f"{extra}; last move: {g.beast.last_move or '-'}"
    )


def status_line(g: Gladiator) -> str:
    if not g.alive:
        return f"{g.seat:<5} dead: {g.cause}"
    if g.beast is not None:
        return _beast_line(g)
    s = g.sheet
    flags: list[str] = [g.posture]
    if s.unconscious:
        flags.append("unconscious")
    if g.must_stumble:
        flags.append("must stumble")
    if not g.has_weapon:
        flags.append("no weapon")
    if not g.has_shield or s.shield_useless:
        flags.append("no shield")
    kind: str = s.gladiator_class
    if g.style:  # §19, §21: his style and what is in his hands
        kind = style(g.style).name
        flags.append(_arms(g))
    if g.ensnared:  # §20.5.4
        flags.append(_ensnared(g))
    return (
        f"{g.seat:<5} {kind:<6} CF {s.current_cf:>2}/{s.cf:<2} Stun "
        f"{s.stun_in_effect} wounds {sum(s.wounds)} moves {g.moves_used}/{s.move} at "
        f"{g.hex.q},{g.hex.r} facing {hg.DIRECTION_NAMES[g.facing]}; {', '.join(flags)}"
    )


_STEP = {
    "plot": "both plot their movement (§5.2.1; a beast moves after, §28.4)",
    "allocate": "both allocate CFs to attack and defence (§9.3)",
}
_TEAM_STEP = {  # §27: more than two plot and allocate
    "plot": "everyone plots his movement (§5.2.1)",
    "allocate": "everyone allocates CFs to attack and defence (§9.3, §27.3.1)",
}
_SHIELD_NAME = {"large": "Clipeus", "small": "Parma"}  # §3.17


def scene(state: ColosseumState, seat: str | None) -> dict[str, Any]:
    """The common scene (docs/web.md). Both log sheets lie open on the table (§3); plots and
    allocations wait inside the Match until revealed, so nothing here is secret."""
    board = board_of(state)
    out = empty_scene()
    head = f"Turn {state.turn}, phase {state.phase}: "
    if state.step == "over":
        out["caption"] = head + f"the match is over ({state.end_method})"
    else:
        out["caption"] = head + (_TEAM_STEP if state.options.get("teams") else _STEP)[state.step]
    if state.walls:
        out["caption"] += f"; walls: {', '.join(state.walls)}"
    out["hexes"] = [[h.q, h.r] for h in sorted(board.hexes)]
    out["walls"] = [[h.q, h.r, side] for h, side in sorted(board.walls)]
    if state.walls:  # §25: a marked edge is a wall along every hex-side of it
        width, height = int(state.options["board_width"]), int(state.options["board_height"])
        out["walls"] += [[h.q, h.r, side] for h, side in wall_sides(width, height, state.walls)]
    out["figures"] = [_figure(g) for g in state.gladiators.values()]
    out["items"] = [_item(i) for i in state.items]
    out["marks"] = [{"hex": [h.q, h.r], "kind": "blood"} for h in state.blood]
    out["marks"] += [{"hex": [h.q, h.r], "kind": "blood_counter"} for h in state.blood_counters]
    out["panels"] = [_panel(g) for g in state.gladiators.values()]
    if state.options.get("advanced"):  # §20: the net on each log sheet
        for panel, g in zip(out["panels"], state.gladiators.values(), strict=True):
            row = _net_row(state, g)
            if row:
                panel["rows"].append(["Net", row])
    if state.options.get("teams") or is_pack(state.options):  # §27, B11: sides, the fallen
        team_scene(state, out, _panel)
    return out


def _states(g: Gladiator) -> list[str]:
    s = g.sheet
    out: list[str] = []
    if g.posture != "standing":
        out.append(g.posture)  # §14 kneeling, §16 prone
    if g.posture == "prone" and g.prone_face:
        out.append(f"face {g.prone_face}")  # §16.2
    if g.stumbling:
        out.append("stumbling")  # §15.3
    elif g.must_stumble:
        out.append("must stumble")  # §15.1
    if s.stun_in_effect:
        out.append("stunned")  # §11
    if s.unconscious:
        out.append("unconscious")  # §11.4
    if not g.has_weapon:
        out.append("unarmed")  # §13.2
    if not g.has_shield or s.shield_useless:
        out.append("no shield")  # §12.3, §13.2
    if g.ensnared:
        out.append("ensnared")  # §20.5.4
    if g.net:
        out.append("net")  # §20: he holds a net
    if not g.alive:
        out.append("dead")
    return out


def _ensnared(g: Gladiator) -> str:
    if g.ensnared == LOOSE:
        return "ensnared (the net let go, §20.5.6)"
    return f"ensnared in {g.ensnared}'s net (§20.5.4)"


def _net_row(state: ColosseumState, g: Gladiator) -> str:
    """§20: the net in his hand, wrapped round his opponent or round him, and its reuse."""
    parts: list[str] = []
    if g.net:
        victim = next((o.seat for o in state.gladiators.values() if o.ensnared == g.seat), "")
        parts.append(f"in hand, ensnaring {victim}" if victim else "in hand")
    if g.ensnared:
        parts.append(_ensnared(g))
    now = (state.turn - 1) * 8 + state.phase
    for what, ready in (("toss", g.toss_ready), ("swing", g.swing_ready), ("use", g.net_ready)):
        shadowed = what != "use" and ready <= g.net_ready  # N2: the whole net waits as long
        if ready > now and g.net and not shadowed:  # a wait means nothing to a net lost
            turn, phase = divmod(ready - 1, 8)
            parts.append(f"{what} again from turn {turn + 1} phase {phase + 1}")
    if g.net_loss:
        parts.append(f"Net Loss +{g.net_loss} (§3.16)")
    return "; ".join(parts)


def _arms(g: Gladiator) -> str:
    """§19-§24: the weapons in his hands (and the net), and what he carries besides."""
    held = [weapon(w).name.lower() for w in g.weapons] or ["bare hands (§23)"]
    if g.net:
        held.insert(0, "net")
    spare = [weapon(w).name.lower() for w in g.spare]
    return " and ".join(held) + (f" (carrying {', '.join(spare)})" if spare else "")


def _figure(g: Gladiator) -> dict[str, Any]:
    cls = g.sheet.gladiator_class
    return {
        "id": g.seat,
        "seat": g.seat,
        "label": style(g.style).name if g.style else cls.capitalize(),
        "hex": [g.hex.q, g.hex.r],
        "facing": g.facing,
        "kind": cls,
        "states": _states(g),
        "alive": g.alive,
        **(_beast_figure(g) if g.beast is not None else {}),
    }


def _beast_figure(g: Gladiator) -> dict[str, Any]:
    """§28.2.1: a beast's counter: its kind and both hexes, the head first."""
    assert g.beast is not None
    states = [x for x in _states(g) if x not in ("unarmed", "no shield")]
    if g.beast.reared:
        states.append("reared")
    return {
        "label": g.beast.name,
        "kind": "beast",
        "beast": g.beast.kind,
        "hexes": [[h.q, h.r] for h in counter_hexes(g)],
        "states": states,
    }


def _item(i: GroundItem) -> dict[str, Any]:
    # §13.2.3: a dropped weapon or shield; a battered shield is not picked up again (§13.4).
    label = i.item + (" (battered)" if i.battered else "")
    if i.kind:  # §21: which weapon, or the hook
        label = weapon(i.kind).name.lower() + (" (battered)" if i.battered else "")
    return {"hex": [i.hex.q, i.hex.r], "kind": i.item, "owner": i.owner, "label": label}


def _rating(rolled: int, now: int) -> str:
    return str(rolled) if rolled == now else f"{now} (of {rolled})"


def _panel(g: Gladiator) -> dict[str, Any]:
    """§3: the log sheet, as rows and the wound, shield and stun boxes."""
    s: LogSheet = g.sheet
    rows: list[list[str]] = [
        ["Class", s.gladiator_class],  # §3.4
        ["TR", str(s.tr)],  # §3.11
        ["ST", _rating(s.st, s.current_st)],
        ["AG", _rating(s.ag, s.current_ag)],
        ["CN", str(s.cn)],
        ["W", str(s.w)],
        ["CF", f"{s.current_cf}/{s.cf}"],  # §3.13: current / permanent
        ["NF", _rating(s.nf, s.current_nf)],
        ["Move", f"{g.moves_used}/{s.move} used"],  # §3.5, §5.2.1
    ]
    if g.style:  # §19, §21
        rows.insert(1, ["Style", style(g.style).name])
        rows.append(["Weapons", _arms(g)])
    rows += [[f"Armour {AREA_NAMES[a]}", str(s.armour_of(a))] for a in AREAS]  # §3.10.1
    shield = f"{s.shield} ({_SHIELD_NAME[s.shield]})" if s.shield else "none"
    if g.hook:
        shield = "hook (works as a small shield, §21.5)"
    if s.shield is None:
        pass
    elif not g.has_shield:
        shield += ", dropped"
    elif s.shield_useless:
        shield += ", useless"
    rows.append(["Shield", shield])  # §3.10.2, §3.17
    rows.append(["Stun", str(s.stun_in_effect)])  # §3.14
    if s.stun:
        rows.append(["Stun boxes", " ".join(f"{e.total}@{e.turn}.{e.phase}" for e in s.stun)])
    if g.may_attack or g.available:
        rows.append(["CF available", str(g.available)])  # §9.3.1
    if g.pa:
        rows.append(["PA", f"+{g.pa}"])  # §9.2
    if g.last_plot:
        rows.append(["Last plot", g.last_plot])
    if g.last_allocation:
        rows.append(["Last allocation", g.last_allocation])
    if not g.alive:
        rows.append(["Dead", g.cause])
    # §3.12: one wound box per point of W in each body area; §3.17: the shield damage track.
    boxes: list[dict[str, Any]] = [
        {"label": AREA_NAMES[a], "total": s.w, "checked": min(s.w, s.wounds_in(a))} for a in AREAS
    ]
    boxes.append(
        {
            "label": "Shield",
            "total": len(s.shield_track),
            "checked": min(len(s.shield_track), s.shield_marked),
        }
    )
    if g.beast is not None:  # §28.3: T21's values, not a gladiator's sheet
        rows = [r for r in rows if r[0] not in ("Class", "TR", "NF", "Move", "Shield")]
        rows.insert(0, ["Beast", g.beast.name])
        rows = [r for r in rows if not r[0].startswith("Armour")]
        boxes = boxes[:-1]
    return {
        "seat": g.seat,
        "title": f"{g.seat}: "
        + (f"{g.beast.name} (beast)" if g.beast else f"{s.gladiator_class} gladiator"),
        "rows": rows,
        "boxes": boxes,
    }
