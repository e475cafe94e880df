"""Attacks of the skirmish rules: zone check, matrix, modifiers, result table, wound track."""

from __future__ import annotations

from gladiator.core import hexgrid as hg
from gladiator.core.dice import Dice
from gladiator.core.hexgrid import Hex, Relation
from gladiator.core.protocol import Event
from gladiator.rules.skirmish.state import Fighter, SkirmishState
from gladiator.rules.skirmish.tables import EASE, SEVERITY, Move, WoundBox, tables

__all__ = [
    "basic_initiative",
    "column_against",
    "level",
    "modified_code",
    "resolve_attack",
    "zone_hex",
    "zone_of",
]

_TRACK_START = {"nick": 0, "cut": 2, "wound": 4}


def zone_hex(f: Fighter, zone: str) -> Hex:
    """§3: the hex of one of the figure's zones."""
    h = f.hex
    for code in tables().zones.zones[zone]:  # type: ignore[index]
        h = hg.neighbor_at(h, f.facing, Relation.from_code(code))
    return h


def zone_of(f: Fighter, target: Hex) -> str | None:
    for name in tables().zones.zones:
        if zone_hex(f, name) == target:
            return name
    return None


def level(f: Fighter) -> WoundBox | None:
    """§6.12: the highest box marked sets the modifiers; they do not add up."""
    track = tables().sheets[f.sheet].wound_track
    if f.wounds:
        return track[4 + f.wounds - 1]
    if f.cuts:
        return track[2 + f.cuts - 1]
    if f.nicks:
        return track[f.nicks - 1]
    return None


def basic_initiative(f: Fighter) -> int:
    """§2.7.2: the lowest initiative marked on the wound track, else the sheet's."""
    sheet = tables().sheets[f.sheet]
    marked = (
        list(sheet.wound_track[: f.nicks])
        + list(sheet.wound_track[2 : 2 + f.cuts])
        + list(sheet.wound_track[4 : 4 + f.wounds])
    )
    return min([sheet.basic_initiative, *(b.initiative for b in marked)])


def is_behind(attacker: Fighter, target: Fighter) -> bool:
    """§4.3.3 (b): the attacker stands in one of the target's rear zones (E, F, G)."""
    if target.floored:  # §7.3: no facing on the floor, so no rear
        return False
    zone = zone_of(target, attacker.hex)
    return zone is not None and zone in tables().zones.rear


def column_against(attacker: Fighter, target: Fighter) -> str:
    """§4.3.3 (b): the target's chosen move if he has not moved, else the one he performed;
    from behind, always the stand column."""
    if is_behind(attacker, target):
        return tables().matrix.rear_column
    return target.performed or target.written


def modified_code(code: str, attacker: Fighter, target: Fighter) -> tuple[str, list[str]]:
    """§4.3.4: apply the modifiers, each a number of levels, capped at the table's ends."""
    mods = tables().matrix.modifiers
    ease = EASE.index(code[0])
    sev = SEVERITY.index(code[1])
    notes: list[str] = []

    def add(name: str, e: int, s: int) -> None:
        nonlocal ease, sev
        if e or s:
            ease += e
            sev += s
            notes.append(name)

    if target.floored:
        add("target on the floor", mods["target_floored"].ease, mods["target_floored"].severity)
    if is_behind(attacker, target):
        add("behind the target", mods["behind_target"].ease, mods["behind_target"].severity)
    if target.entangled:
        m = mods["target_entangled"]
        add("target entangled", m.ease, m.severity)
    if attacker.converted:
        m = mods["converted_attack"]
        add("converted attack", m.ease, m.severity)
    mine = level(attacker)
    if mine is not None:
        add(f"attacker's {mine.box}", -mine.hit, -mine.damage)
    theirs = level(target)
    if theirs is not None:
        add(f"target's {theirs.box}", theirs.against, 0)
    ease = max(0, min(len(EASE) - 1, ease))
    sev = max(0, min(len(SEVERITY) - 1, sev))
    return EASE[ease] + SEVERITY[sev], notes


def resolve_attack(
    state: SkirmishState,
    attacker: Fighter,
    move: Move,
    target: Fighter,
    dice: Dice,
    events: list[Event],
) -> None:
    t = tables()
    column = column_against(attacker, target)
    behind = is_behind(attacker, target)
    if not behind:  # SR2: from behind his move is never read
        target.revealed = True
    code = t.matrix.matrix[move.code][column]
    head = f"{attacker.seat} {move.name.lower()}s at {target.seat} ({move.code} vs {column})"
    if code == "-":
        if move.effect == "entangle":  # SR11: a net that cannot catch him falls at his feet
            attacker.has_net = False
            state.nets.append(target.hex)
        events.append(
            {
                "type": "attack",
                "seat": attacker.seat,
                "target": target.seat,
                "behind": behind,
                "result": "miss",
                "text": f"{head}: a miss (skirmish §4.3.3)",
            }
        )
        return
    final, notes = modified_code(code, attacker, target)
    why = f" [{', '.join(notes)}]" if notes else ""
    if move.effect == "entangle":
        need = t.matrix.net.entangle_on[final[0]]  # type: ignore[index]
        roll = dice.d(20, f"{attacker.seat}'s net at {target.seat}", "skirmish §9 (net)")
        attacker.has_net = False
        if roll <= need and not target.entangled:  # SR11: one net at a time
            target.entangled = True
            events.append(
                {
                    "type": "net",
                    "seat": attacker.seat,
                    "target": target.seat,
                    "behind": behind,
                    "result": "entangled",
                    "text": f"{head}: {code}{why} → {final}, d20 {roll} ≤ {need}: "
                    f"{target.seat} is entangled",
                }
            )
        else:
            state.nets.append(target.hex)
            events.append(
                {
                    "type": "net",
                    "seat": attacker.seat,
                    "target": target.seat,
                    "behind": behind,
                    "result": "miss",
                    "text": f"{head}: {code}{why} → {final}, d20 {roll}: "
                    + (
                        f"{target.seat} is already netted (SR11)"
                        if target.entangled
                        else f"{roll} > {need}"
                    )
                    + f"; the net falls at {target.hex.q},{target.hex.r}",
                }
            )
        return
    row = final + t.sheets[target.sheet].protection_class
    roll = dice.d(20, f"{attacker.seat}'s hit on {target.seat}", "skirmish §4.3.5")
    result = t.results.lookup(row, roll)
    events.append(
        {
            "type": "attack",
            "seat": attacker.seat,
            "target": target.seat,
            "behind": behind,
            "code": final,
            "row": row,
            "d20": roll,
            "result": result,
            "text": f"{head}: {code}{why} → row {row}, d20 {roll}: "
            f"{_RESULT_WORDS[result]} (skirmish §4.3.5)",
        }
    )
    apply_result(state, target, result, dice, events)


_RESULT_WORDS = {
    "blank": "no effect",
    "S": "stunned",
    "N": "nicked",
    "C": "cut",
    "W": "wounded",
    "D": "dead",
}


def apply_result(
    state: SkirmishState, f: Fighter, result: str, dice: Dice, events: list[Event]
) -> None:
    """§4.3.6, §5, §6: what each result does."""
    if result == "blank":
        return
    if result == "D":
        kill(f, "a D result (skirmish §6.11)", events, state)
        return
    f.stun_bank += 1  # §5.1; §6.2: every wound stuns as well
    if result == "S":
        return
    kind = {"N": "nick", "C": "cut", "W": "wound"}[result]
    mark(f, kind, dice, events, state)


def mark(
    f: Fighter,
    kind: str,
    dice: Dice,
    events: list[Event],
    state: SkirmishState | None = None,
) -> None:
    """§2.7.5: a third nick marks a cut, a third cut a wound; a third wound kills (§6.11)."""
    count = {"nick": f.nicks, "cut": f.cuts, "wound": f.wounds}[kind]
    if count >= 2:
        if kind == "wound":
            kill(f, "a third wound (skirmish §6.11)", events, state)
            return
        nxt = "cut" if kind == "nick" else "wound"
        events.append(
            {
                "type": "track",
                "seat": f.seat,
                "text": f"{f.seat}'s third {kind} marks a {nxt} (skirmish §2.7.5)",
            }
        )
        mark(f, nxt, dice, events, state)
        return
    if kind == "nick":
        f.nicks += 1
    elif kind == "cut":
        f.cuts += 1
    else:
        f.wounds += 1
    box = tables().sheets[f.sheet].wound_track[_TRACK_START[kind] + count]
    f.hp -= box.hp
    events.append(
        {
            "type": "wound",
            "seat": f.seat,
            "box": kind,
            "hp": f.hp,
            "text": f"{f.seat} marks {_ORDINAL[count]} {kind}: -{box.hp} HP, {f.hp} left "
            "(skirmish §6)",
        }
    )
    if f.hp <= 0:
        kill(f, "no hit points left (skirmish §2.6, §6.11)", events, state)
        return
    if box.fall and not f.floored:  # §7.1
        roll = dice.d(6, f"{f.seat} keeps his feet?", "skirmish §7.1")
        if roll >= 7 - box.fall:
            f.floored = True
            events.append(
                {
                    "type": "fall",
                    "seat": f.seat,
                    "text": f"{f.seat} falls ({roll}, falls on {7 - box.fall}+ (skirmish §7.1)",
                }
            )


_ORDINAL = ("a first", "a second", "a third")


def kill(f: Fighter, cause: str, events: list[Event], state: SkirmishState | None = None) -> None:
    f.alive = False
    f.cause = cause
    if f.entangled and state is not None:  # SR11: the net stays where he fell
        f.entangled = False
        state.nets.append(f.hex)
    events.append({"type": "dead", "seat": f.seat, "text": f"{f.seat} is dead: {cause}"})
