"""The 1999 skirmish rules (shared/seeds/003_*.txt), sections as in docs/rules/skirmish.md; the
tables are designed (docs/skirmish-design.md), the judgement calls are SR rulings.

Each turn: every gladiator secretly writes a move (§4.1); initiative is rolled (§4.2); with two
gladiators the winner chooses to go first or second (§4.2.1), with more they act in strict order
(§4.2.2); in turn each performs his move or a converted one (§4.3.1), picks his hex or target,
then his facing (§8).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from gladiator.core import hexgrid as hg
from gladiator.core.decisions import ChooseOne, Decision, Option, PickHex
from gladiator.core.dice import Dice
from gladiator.core.hexgrid import Hex
from gladiator.core.protocol import Event, Outcome, Ruleset
from gladiator.rules.skirmish import combat, presentation
from gladiator.rules.skirmish.arena import arena_of
from gladiator.rules.skirmish.evaluation import evaluate
from gladiator.rules.skirmish.options import SEAT_NAMES, SkirmishOptions, normalise
from gladiator.rules.skirmish.state import Fighter, SkirmishState
from gladiator.rules.skirmish.tables import Move, digest, tables

__all__ = ["SkirmishRules", "arena_of", "move_of"]

_FACING_TEXT = {0: "KEEP", 1: "R", 2: "RR", 3: "RRR", -1: "L", -2: "LL", -3: "LLL"}


def move_of(f: Fighter, code: str) -> Move:
    """A move of his sheet, or the struggle that the net forces on anyone (designed)."""
    if code == tables().matrix.net.struggle.code:
        s = tables().matrix.net.struggle
        return Move(
            code=s.code,
            name=s.name,
            stun=s.stun,
            initiative=s.initiative,
            facing=s.facing,
            effect="struggle",
        )
    return tables().sheets[f.sheet].move(code)


class SkirmishRules(Ruleset[SkirmishState]):
    name = "skirmish"
    title = "GLADIATOR skirmish rules (1999)"
    version = 1

    def normalise_options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        return normalise(raw)

    def options_schema(self) -> dict[str, Any]:
        return SkirmishOptions.model_json_schema()

    def seats(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        return SEAT_NAMES[: len(options["gladiators"])]

    def initial_state(
        self, options: Mapping[str, Any], dice: Dice
    ) -> tuple[SkirmishState, list[Event]]:
        seats = self.seats(options)
        # SR1: evenly round the ring of radius 2 facing the centre, or (two gladiators, option
        # start = "engaged") face to face in the middle.
        ring = hg.ring(Hex(0, 0), 2)
        looks = [Hex(0, 0)] * len(seats)
        if options["start"] == "engaged":
            ring = [Hex(0, 0), Hex(0, -1)]
            looks = [Hex(0, -1), Hex(0, 0)]
        fighters: dict[str, Fighter] = {}
        events: list[Event] = []
        for i, seat in enumerate(seats):
            sheet_name = options["gladiators"][i]
            sheet = tables().sheets[sheet_name]
            hp = dice.roll(sheet.hit_points, f"{seat}'s hit points", "skirmish §2.6")
            pos = ring[(i * len(ring)) // len(seats)]
            f = Fighter(
                seat=seat,
                sheet=sheet_name,
                hp=hp,
                max_hp=hp,
                hex=pos,
                facing=hg.facing_toward(pos, looks[i]),
            )
            f.has_net = any(m.effect == "entangle" for m in sheet.moves)
            fighters[seat] = f
            events.append(
                {
                    "type": "gladiator",
                    "seat": seat,
                    "sheet": sheet.type,
                    "hp": hp,
                    "text": f"{seat}: {sheet.type}, {hp} hit points (skirmish §2.6)",
                }
            )
        state = SkirmishState(options=dict(options), fighters=fighters)
        _start_turn(state, events)
        return state, events

    # -- decisions ---------------------------------------------------------------------------
    def pending(self, state: SkirmishState) -> Mapping[str, Decision]:
        if state.phase == "over":
            return {}
        if state.phase == "write":
            return {
                s: ChooseOne(
                    prompt=f"{s}: write your move for turn {state.turn}",
                    secret=True,
                    options=tuple(Option(m.code, _write_label(m)) for m in writable(state, f)),
                )
                for s, f in state.fighters.items()
                if f.alive
            }
        f = state.fighters[state.chooser]
        if state.phase == "first":
            return {
                f.seat: ChooseOne(
                    prompt=f"{f.seat} won the initiative: go first or second?",
                    options=(Option("FIRST", "act first"), Option("SECOND", "act second")),
                )
            }
        if state.phase == "act":
            written = move_of(f, f.written)
            opts = [
                Option(
                    m.code, _label(m) + (" (as written)" if m.code == f.written else " (converted)")
                )
                for m in act_options(state, f)
            ]
            return {
                f.seat: ChooseOne(
                    prompt=f"{f.seat}: perform {written.name} or convert", options=tuple(opts)
                )
            }
        if state.phase in ("hex", "target"):
            what = "the hex to move into" if state.phase == "hex" else "whom to attack"
            return {f.seat: PickHex(prompt=f"{f.seat}: pick {what}", hexes=tuple(state.offered))}
        # facing
        return {
            f.seat: ChooseOne(
                prompt=f"{f.seat}: turn after the move?",
                options=tuple(Option(t, _facing_label(t)) for t in facing_options(state, f)),
            )
        }

    def apply(
        self, state: SkirmishState, orders: Mapping[str, str], dice: Dice, *, quiet: bool = False
    ) -> list[Event]:
        events: list[Event] = []
        if state.phase == "write":
            for seat, code in orders.items():
                state.fighters[seat].written = code
            _initiative(state, dice, events)
        elif state.phase == "first":
            if orders[state.chooser] == "SECOND":
                state.order.reverse()
            events.append(
                {
                    "type": "first",
                    "seat": state.chooser,
                    "text": f"{state.chooser} chooses to go "
                    f"{orders[state.chooser].lower()} (skirmish §4.2.1)",
                }
            )
            state.phase = "act"
            state.index = 0
        elif state.phase == "act":
            f = state.fighters[state.chooser]
            _perform(state, f, orders[f.seat], dice, events)
        elif state.phase in ("hex", "target"):
            f = state.fighters[state.chooser]
            q, r = orders[f.seat].split(",")
            chosen = Hex(int(q), int(r))
            if state.phase == "hex":
                _move_to(state, f, chosen, events)
            else:
                target = next(o for o in state.fighters.values() if o.alive and o.hex == chosen)
                combat.resolve_attack(state, f, move_of(f, f.performed), target, dice, events)
            _after_action(state, f)
        else:  # facing
            f = state.fighters[state.chooser]
            _turn(f, orders[f.seat], events)
            _next_actor(state)
        _advance(state, dice, events)
        return events

    def outcome(self, state: SkirmishState) -> Outcome | None:
        if state.phase != "over":
            return None
        return Outcome(state.winners, state.end_method, state.end_summary)

    def view(self, state: SkirmishState, seat: str | None) -> dict[str, Any]:
        v = state.to_dict(viewer=seat)
        v["ruleset"] = self.name
        v["arena"] = arena_of(state).to_dict()
        v["seat"] = seat
        return v

    def state_to_dict(self, state: SkirmishState) -> dict[str, Any]:
        return state.to_dict()

    def clone(self, state: SkirmishState) -> SkirmishState:
        return state.clone()

    def determinize(self, state: SkirmishState, seat: str, rng: random.Random) -> SkirmishState:
        """Other seats' unrevealed written moves are drawn from what they could have written."""
        copy = state.clone()
        for f in copy.fighters.values():
            if f.seat != seat and f.alive and f.written and not f.revealed:
                options = writable(copy, f)
                f.written = options[int(rng.random() * len(options))].code
        return copy

    def data_digest(self) -> str:
        return digest()

    def heuristic(self, state: SkirmishState, seat: str) -> float:
        return evaluate(state, seat)

    def lookahead(self) -> int:
        # A written move shows its worth only when the turn is played out.
        return 12

    def seat_label(self, state: SkirmishState, seat: str) -> str:
        return state.fighters[seat].sheet

    def seat_facets(self, state: SkirmishState, seat: str) -> dict[str, str]:
        # §2: a figure is its character sheet (its scores, weapon and armour all come from it).
        return {"sheet": state.fighters[seat].sheet}

    def rounds(self, state: SkirmishState) -> int:
        return min(state.turn, int(state.options["max_turns"]))

    def scene(self, state: SkirmishState, seat: str | None) -> dict[str, Any]:
        return presentation.scene(state, seat)

    def glossary(self) -> dict[str, Any]:
        """What the orders, badges and sheet rows mean (presentation.py), for front ends."""
        return presentation.glossary()

    def render_text(self, state: SkirmishState, seat: str | None) -> str:
        return presentation.render(state, seat)


# -- what may be chosen ----------------------------------------------------------------------
def _label(m: Move) -> str:
    return f"{m.code} {m.name}"


def _write_label(m: Move) -> str:
    """§4.1: the move with what it converts to and what it bars next turn (§2.5.6, §2.5.7)."""
    notes = []
    if m.converted:
        notes.append("converts to " + ", ".join(m.converted))
    if m.prohibited:
        notes.append("bars " + ", ".join(m.prohibited) + " next turn")
    return _label(m) + (f" ({'; '.join(notes)})" if notes else "")


def _facing_label(text: str) -> str:
    if text == "KEEP":
        return "keep the facing"
    side = "right" if text[0] == "R" else "left"
    return f"turn {len(text)} hex edge{'s' if len(text) > 1 else ''} {side}"


def _usable(state: SkirmishState, f: Fighter, m: Move) -> bool:
    """Whether the move is open to him this turn (§2.5.1, §2.5.7, §5.3, §7.2, the net)."""
    if m.code in f.prohibited:
        return False
    if f.stunned and not m.stun:
        return False
    t = tables()
    if f.entangled and m.code not in t.matrix.net.entangled_moves:
        return False
    if not f.entangled and m.effect == "struggle":
        return False
    sheet = t.sheets[f.sheet]
    if f.floored and m.code not in sheet.floored_moves and m.effect != "struggle":
        return False
    if not f.floored and m.effect == "get_up":
        return False
    if m.effect == "entangle" and not f.has_net:
        return False
    # SR11: a reclaim needs a net lying within reach and an empty net hand.
    return not (m.effect == "reclaim" and (f.has_net or not _net_within_reach(state, f)))


def _net_within_reach(state: SkirmishState, f: Fighter) -> bool:
    return any(hg.distance(f.hex, h) <= 1 for h in state.nets)


def writable(state: SkirmishState, f: Fighter) -> list[Move]:
    """§4.1: the moves he may write this turn."""
    moves = list(tables().sheets[f.sheet].moves)
    if f.entangled:
        moves.append(move_of(f, tables().matrix.net.struggle.code))
    out = [m for m in moves if _usable(state, f, m)]
    return out or [move_of(f, "ST" if not f.floored else tables().sheets[f.sheet].floored_moves[0])]


def conversions(state: SkirmishState, f: Fighter) -> list[Move]:
    """§2.5.6, §5.4: the converted moves open to him at his turn."""
    written = move_of(f, f.written)
    out = []
    for code in written.converted:
        m = move_of(f, code)
        if _usable(state, f, m):
            out.append(m)
    return out


def act_options(state: SkirmishState, f: Fighter) -> list[Move]:
    """§4.3.1: at his turn, the written move or a conversion, each still open to him (SR10: one
    who fell or was netted since writing may do only what his state allows, and if neither his
    move nor its conversions are allowed, anything it allows)."""
    written = move_of(f, f.written)
    out = ([written] if _usable(state, f, written) else []) + conversions(state, f)
    return out or writable(state, f)


def facing_options(state: SkirmishState, f: Fighter) -> list[str]:
    """§2.5.4, §8: the facing changes his performed move allows, optional, distinct."""
    if f.floored:
        return ["KEEP"]
    m = move_of(f, f.performed)
    steps = [0]
    for k in range(1, m.facing + 1):
        if m.turn in ("any", "right"):
            steps.append(k)
        if m.turn in ("any", "left"):
            steps.append(-k)
    seen: dict[int, str] = {}
    for s in steps:
        seen.setdefault(hg.turn(f.facing, s), _FACING_TEXT[s])
    return list(seen.values())


# -- the turn --------------------------------------------------------------------------------
def _start_turn(state: SkirmishState, events: list[Event]) -> None:
    """§5.1, §5.2: a banked stun makes this a stun turn, and is spent."""
    state.phase = "write"
    for f in state.fighters.values():
        f.stunned = False
        if f.alive and f.stun_bank > 0:
            f.stun_bank -= 1
            f.stunned = True
            events.append(
                {
                    "type": "stunned",
                    "seat": f.seat,
                    "text": f"{f.seat} is stunned this turn: stun moves only (skirmish §5.3)",
                }
            )


def _initiative(state: SkirmishState, dice: Dice, events: list[Event]) -> None:
    """§4.2: basic + move + 1D6; ties by basic, then the die, then re-rolls (§4.2.3)."""
    if _check_end(state, events):
        return
    alive = [f for f in state.fighters.values() if f.alive]
    keys: dict[str, tuple[int, ...]] = {}
    for f in alive:
        die = dice.d(6, f"{f.seat}'s initiative", "skirmish §4.2")
        basic = combat.basic_initiative(f)
        f.initiative = basic + move_of(f, f.written).initiative + die
        keys[f.seat] = (f.initiative, basic, die)
        events.append(
            {
                "type": "initiative",
                "seat": f.seat,
                "total": f.initiative,
                "text": f"{f.seat} initiative {basic} + {move_of(f, f.written).initiative}"
                f" + {die} = {f.initiative} (skirmish §4.2)",
            }
        )
    state.order = _ranked([f.seat for f in alive], keys, dice)
    state.index = 0
    if len(alive) == 2:  # §4.2.1
        state.phase = "first"
        state.chooser = state.order[0]
    else:  # §4.2.2
        state.phase = "act"


def _ranked(seats: list[str], keys: Mapping[str, tuple[int, ...]], dice: Dice) -> list[str]:
    groups: dict[tuple[int, ...], list[str]] = {}
    for s in seats:
        groups.setdefault(keys[s], []).append(s)
    out: list[str] = []
    for key in sorted(groups, reverse=True):
        group = groups[key]
        if len(group) == 1:
            out.extend(group)
            continue
        rerolls = {s: (dice.d(6, f"{s}'s initiative re-roll", "skirmish §4.2.3"),) for s in group}
        out.extend(_ranked(group, rerolls, dice))
    return out


def _advance(state: SkirmishState, dice: Dice, events: list[Event]) -> None:
    """Run on to the next decision, performing moves that leave no choice."""
    while state.phase == "act":
        if _check_end(state, events):
            return
        if state.index >= len(state.order):
            _end_turn(state, events)
            continue
        f = state.fighters[state.order[state.index]]
        if not f.alive:
            state.index += 1
            continue
        state.chooser = f.seat
        options = act_options(state, f)
        if len(options) > 1:
            return
        _perform(state, f, options[0].code, dice, events)
    _check_end(state, events)


def _perform(state: SkirmishState, f: Fighter, code: str, dice: Dice, events: list[Event]) -> None:
    """§4.3: do the written move or a converted one."""
    m = move_of(f, code)
    f.converted = code != f.written
    f.performed = code
    f.revealed = True
    lvl = combat.level(f)
    if lvl is not None and lvl.bleeding and not move_of(f, f.written).stun:  # §2.7.4, SR6
        f.hp -= 1
        events.append(
            {
                "type": "bleed",
                "seat": f.seat,
                "text": f"{f.seat} bleeds for choosing a non-stun move: 1 HP, {f.hp} "
                "left (skirmish §2.7.4)",
            }
        )
        if f.hp <= 0:
            combat.kill(f, "bled to death (skirmish §2.7.4)", events, state)
            _next_actor(state)
            return
    note = f" (converted from {f.written}, skirmish §4.3.1)" if f.converted else ""
    events.append(
        {
            "type": "perform",
            "seat": f.seat,
            "move": code,
            "converted": f.converted,
            "text": f"{f.seat} performs {m.name}{note}",
        }
    )
    if m.move_zone:
        _start_movement(state, f, m, events)
    elif m.is_attack:
        _start_attack(state, f, m, dice, events)
    else:
        _effect(state, f, m, dice, events)
        _after_action(state, f)


def _start_movement(state: SkirmishState, f: Fighter, m: Move, events: list[Event]) -> None:
    """§4.3.2: into a free hex of the move zone; a rush or retire takes the near hex when the far
    one is blocked, and stays when both are."""
    taken = {o.hex for o in state.fighters.values() if o.alive and o is not f}
    arena = arena_of(state)

    def free(h: Hex) -> bool:
        return h in arena and h not in taken

    if m.move_fallback:
        far = combat.zone_hex(f, m.move_zone[0])
        near = combat.zone_hex(f, m.move_fallback[0])
        if free(near) and free(far):
            _move_to(state, f, far, events)
        elif free(near):
            _move_to(state, f, near, events)
        else:
            events.append(
                {
                    "type": "blocked",
                    "seat": f.seat,
                    "text": f"{f.seat}'s way is blocked: he stays (skirmish §4.3.2)",
                }
            )
        _after_action(state, f)
        return
    options = [h for h in (combat.zone_hex(f, z) for z in m.move_zone) if free(h)]
    if not options:
        events.append(
            {
                "type": "blocked",
                "seat": f.seat,
                "text": f"{f.seat} has nowhere to go: he stays (skirmish §4.3.2)",
            }
        )
        _after_action(state, f)
    elif len(options) == 1:
        _move_to(state, f, options[0], events)
        _after_action(state, f)
    else:
        state.phase = "hex"
        state.offered = options


def _move_to(state: SkirmishState, f: Fighter, h: Hex, events: list[Event]) -> None:
    f.hex = h  # §4.3.2: he keeps his facing while moving
    events.append(
        {
            "type": "move",
            "seat": f.seat,
            "to": [h.q, h.r],
            "text": f"{f.seat} moves to {h.q},{h.r} (skirmish §4.3.2)",
        }
    )


def attack_targets(state: SkirmishState, f: Fighter, m: Move) -> list[Fighter]:
    """§4.3.3 (a): opponents in the attack zone; a floored kick reaches any adjacent hex (§7.3)."""
    if f.floored and m.floored_reach_all_round:
        hexes = set(hg.neighbors(f.hex))
    else:
        hexes = {combat.zone_hex(f, z) for z in m.attack_zone}
    return [o for o in state.fighters.values() if o.alive and o is not f and o.hex in hexes]


def _start_attack(
    state: SkirmishState, f: Fighter, m: Move, dice: Dice, events: list[Event]
) -> None:
    targets = attack_targets(state, f, m)
    if not targets:
        events.append(
            {
                "type": "attack",
                "seat": f.seat,
                "result": "out of reach",
                "text": f"{f.seat}'s {m.name.lower()} finds nobody in reach: a miss "
                "(skirmish §4.3.3 a)",
            }
        )
        if m.effect == "entangle":
            f.has_net = False
            ahead = combat.zone_hex(f, "A")
            state.nets.append(ahead if ahead in arena_of(state) else f.hex)
        _after_action(state, f)
    elif len(targets) == 1:
        combat.resolve_attack(state, f, m, targets[0], dice, events)
        _after_action(state, f)
    else:
        state.phase = "target"
        state.offered = [o.hex for o in targets]


def _effect(state: SkirmishState, f: Fighter, m: Move, dice: Dice, events: list[Event]) -> None:
    if m.effect == "get_up":
        f.floored = False
        events.append(
            {"type": "get_up", "seat": f.seat, "text": f"{f.seat} gets up (skirmish §7.2)"}
        )
    elif m.effect == "reclaim":
        near = [h for h in state.nets if hg.distance(f.hex, h) <= 1]
        if near:
            state.nets.remove(near[0])
            f.has_net = True
            f.nets_reclaimed += 1  # §2.8: the "net reclaimed" box
            events.append(
                {
                    "type": "reclaim",
                    "seat": f.seat,
                    "text": f"{f.seat} reclaims his net (skirmish §2.8)",
                }
            )
    elif m.effect == "struggle":
        need = tables().matrix.net.struggle_free_on
        roll = dice.d(6, f"{f.seat} struggles with the net", "skirmish §9 (net)")
        if roll >= need:
            f.entangled = False
            state.nets.append(f.hex)
            events.append(
                {
                    "type": "free",
                    "seat": f.seat,
                    "text": f"{f.seat} struggles free ({roll} on {need}+); the net lies "
                    "at his feet",
                }
            )
        else:
            events.append(
                {
                    "type": "struggle",
                    "seat": f.seat,
                    "text": f"{f.seat} struggles in vain ({roll} on {need}+)",
                }
            )


def _after_action(state: SkirmishState, f: Fighter) -> None:
    """§8: after the move, the facing changes it allows, if more than one is possible."""
    if not f.alive or len(facing_options(state, f)) <= 1:
        _next_actor(state)
        return
    state.phase = "facing"


def _turn(f: Fighter, text: str, events: list[Event]) -> None:
    if text == "KEEP":
        return
    steps = len(text) * (1 if text[0] == "R" else -1)
    f.facing = hg.turn(f.facing, steps)
    events.append(
        {
            "type": "facing",
            "seat": f.seat,
            "facing": f.facing,
            "text": f"{f.seat} turns to face {hg.DIRECTION_NAMES[f.facing]} (skirmish §8)",
        }
    )


def _next_actor(state: SkirmishState) -> None:
    state.phase = "act"
    state.offered = []
    state.index += 1


def _end_turn(state: SkirmishState, events: list[Event]) -> None:
    """The move actually done sets next turn's prohibited moves (§2.5.7)."""
    for f in state.fighters.values():
        f.prohibited = move_of(f, f.performed).prohibited if f.performed else ()
        f.last_performed = f.performed  # public: everyone saw what he did
        f.written = f.performed = ""
        f.converted = f.revealed = False
    state.turn += 1
    if state.turn > state.options["max_turns"]:
        _finish(
            state,
            (),
            "time",
            f"no winner after {state.options['max_turns']} turns: a draw (SR9)",
            events,
        )
        return
    _start_turn(state, events)


def _check_end(state: SkirmishState, events: list[Event]) -> bool:
    """§10: the last gladiator still alive wins."""
    if state.phase == "over":
        return True
    alive = [f for f in state.fighters.values() if f.alive]
    if len(alive) > 1:
        return False
    if alive:
        w = alive[0]
        dead = [f for f in state.fighters.values() if f is not w]
        method = dead[0].cause.split(" (")[0] if len(dead) == 1 else "last standing"
        _finish(
            state,
            (w.seat,),
            method,
            f"{w.seat} ({w.sheet}) is the last alive (skirmish §10)",
            events,
        )
    else:
        _finish(state, (), "no survivor", "nobody is left alive", events)
    return True


def _finish(
    state: SkirmishState, winners: tuple[str, ...], method: str, summary: str, events: list[Event]
) -> None:
    state.phase = "over"
    state.winners = winners
    state.end_method = method
    state.end_summary = summary
    events.append({"type": "end", "winners": list(winners), "method": method, "text": summary})
