"""The quick rules (shared/seeds/004_*.txt), section numbers as in docs/rules/quick.md.

Move / counter-move: the gladiator whose turn it is rolls his action points and spends them one
action at a time; each strike or net cast is resolved at once. A helpless gladiator's fate is a
decision for the victor, for the other players (a secret vote), or for the crowd's die.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gladiator.core import hexgrid as hg
from gladiator.core.decisions import ChooseOne, Decision, Option
from gladiator.core.dice import Dice
from gladiator.core.hexgrid import Hex
from gladiator.core.protocol import Event, Outcome, Ruleset
from gladiator.rules.quick import combat, presentation
from gladiator.rules.quick import fate as fate_rules
from gladiator.rules.quick.arena import arena_of
from gladiator.rules.quick.board import STEP_LABELS, STEPS, Board, board, hexes_between
from gladiator.rules.quick.evaluation import evaluate
from gladiator.rules.quick.options import SEAT_NAMES, QuickOptions, normalise
from gladiator.rules.quick.state import Fighter, QuickState
from gladiator.rules.quick.tables import digest, tables

__all__ = ["STEPS", "STEP_LABELS", "QuickRules", "arena_of"]


class QuickRules(Ruleset[QuickState]):
    name = "quick"
    title = "GLADIATOR quick rules"
    version = 1

    # -- set-up ------------------------------------------------------------------------------
    def normalise_options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        return normalise(raw)

    def options_schema(self) -> dict[str, Any]:
        return QuickOptions.model_json_schema()

    def seats(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        return SEAT_NAMES[: len(options["gladiators"])]

    def initial_state(
        self, options: Mapping[str, Any], dice: Dice
    ) -> tuple[QuickState, list[Event]]:
        seats = self.seats(options)
        n = len(seats)
        fighters: dict[str, Fighter] = {}
        # QR1: evenly round a ring of radius 3, each facing the centre.
        t = tables()
        ring = hg.ring(Hex(0, 0), t.setup.start_ring_radius)
        for i, seat in enumerate(seats):
            cls = options["gladiators"][i]
            if cls == "random":
                pool = t.random_class.classes
                cls = pool[dice.d(len(pool), f"{seat}'s class", "QR11") - 1]
            strength = dice.roll("2D6", f"{seat}'s strength", "quick §3.1")
            pos = ring[(i * len(ring)) // n]
            fighters[seat] = Fighter(
                seat=seat,
                cls=cls,
                strength=strength,
                max_strength=strength,
                hex=pos,
                facing=hg.facing_toward(pos, Hex(0, 0)),
            )
        events: list[Event] = [
            {
                "type": "gladiator",
                "seat": f.seat,
                "class": f.cls,
                "strength": f.strength,
                "text": f"{f.seat}: {f.cls}, strength {f.strength} (quick §3.1)",
            }
            for f in fighters.values()
        ]
        order = _roll_turn_order(list(seats), dice)
        events.append(
            {"type": "order", "order": order, "text": "turn order: " + ", ".join(order) + " (QR2)"}
        )
        state = QuickState(options=dict(options), fighters=fighters, order=order)
        _start_turn(state, fighters[order[0]], dice, events)
        _advance(state, dice, events)  # QR3: a first turn without AP passes like any other
        return state, events

    # -- decisions ---------------------------------------------------------------------------
    def pending(self, state: QuickState) -> Mapping[str, Decision]:
        if state.phase == "over":
            return {}
        if state.phase == "fate":
            assert state.fate is not None
            fate = state.fate
            secret = len(fate.deciders) > 1
            decision = ChooseOne(
                prompt=f"{fate.helpless} lies helpless: thumbs up (spare) or down (kill)?",
                secret=secret,
                options=(
                    Option("UP", f"spare {fate.helpless}"),
                    Option("DOWN", f"kill {fate.helpless}"),
                ),
            )
            return dict.fromkeys(fate.deciders, decision)
        seat = state.active
        me = state.fighters[seat]
        b = board(state.options["arena_side"])
        if _alone(state, me, b):
            # His choices depend on his hex, facing and AP alone: that decision is built once.
            memo = b.alone
            key = (seat, state.ap, me.hex, me.facing)
            choice = memo.get(key)
            if choice is None:
                choice = memo[key] = _act_decision(state, seat)
            return {seat: choice}
        return {seat: _act_decision(state, seat)}

    # -- resolution --------------------------------------------------------------------------
    def apply(
        self, state: QuickState, orders: Mapping[str, str], dice: Dice, *, quiet: bool = False
    ) -> list[Event]:
        # Quiet (search, simulation): the same play and dice, but no events are built (None).
        events: list[Event] | None = None if quiet else []
        if state.phase == "fate":
            _resolve_fate(state, orders, dice, events)
            _advance(state, dice, events)
        else:
            seat = state.active
            struck = _act(state, seat, orders[seat], dice, events)
            if struck or state.ap <= 0:  # else he acts on, and nothing else can have changed
                _advance(state, dice, events, check_end=struck)
        return events if events is not None else []

    def outcome(self, state: QuickState) -> Outcome | None:
        if state.phase != "over":
            return None
        return Outcome(state.winners, state.end_method, state.end_summary)

    def view(self, state: QuickState, seat: str | None) -> dict[str, Any]:
        # Nothing in a quick-rules state is secret; the only secret orders (fate votes) are
        # held by the Match until all are in.
        v = state.to_dict()
        v["ruleset"] = self.name
        v["arena"] = arena_of(state).to_dict()
        v["seat"] = seat
        return v

    def state_to_dict(self, state: QuickState) -> dict[str, Any]:
        return state.to_dict()

    def clone(self, state: QuickState) -> QuickState:
        return state.clone()

    def data_digest(self) -> str:
        return digest()

    def heuristic(self, state: QuickState, seat: str) -> float:
        return evaluate(state, seat)

    def seat_label(self, state: QuickState, seat: str) -> str:
        return state.fighters[seat].cls

    def seat_facets(self, state: QuickState, seat: str) -> dict[str, str]:
        return {"class": state.fighters[seat].cls}

    def scene(self, state: QuickState, seat: str | None) -> dict[str, Any]:
        return presentation.scene(state, seat)

    def glossary(self) -> dict[str, Any]:
        """What the orders, badges and sheet rows mean (presentation.py), for front ends."""
        return presentation.glossary()

    def render_text(self, state: QuickState, seat: str | None) -> str:
        lines = [presentation.status_line(f) for f in state.fighters.values()]
        return presentation.render_board(state) + "\n\n" + "\n".join(lines)

    def rounds(self, state: QuickState) -> int:
        return state.round


# -- turn order --------------------------------------------------------------------------------
def _roll_turn_order(seats: list[str], dice: Dice) -> list[str]:
    """QR2: each rolls 1D6, highest first; ties roll again among themselves."""
    rolls = {s: dice.d(6, f"{s}'s roll for the turn order", "QR2") for s in seats}
    groups: dict[int, list[str]] = {}
    for s in seats:
        groups.setdefault(rolls[s], []).append(s)
    order: list[str] = []
    for value in sorted(groups, reverse=True):
        group = groups[value]
        order.extend(group if len(group) == 1 else _roll_turn_order(group, dice))
    return order


# -- legality ----------------------------------------------------------------------------------
def opponents(state: QuickState, seat: str) -> list[Fighter]:
    return [f for s, f in state.fighters.items() if s != seat and f.fighting]


def occupied(state: QuickState) -> set[Hex]:
    return {f.hex for f in state.fighters.values() if f.on_board}


def strike_targets(state: QuickState, me: Fighter) -> list[Fighter]:
    """§6.2: adjacent opponents; QR5: within the attacker's front unless `strike_arc` is any."""
    return _strike_targets(state, me, opponents(state, me.seat))


def _strike_targets(state: QuickState, me: Fighter, foes: list[Fighter]) -> list[Fighter]:
    any_arc = state.options["strike_arc"] == "any"
    out = []
    for o in foes:
        if hg.distance(me.hex, o.hex) != 1:
            continue
        if any_arc or hg.in_cone(me.hex, me.facing, o.hex, 1):
            out.append(o)
    return out


def net_targets(state: QuickState, me: Fighter) -> list[Fighter]:
    """§6.2, §10.2: adjacent, or one hex between, within his front (QR7); not if already netted."""
    return _net_targets(state, me, opponents(state, me.seat), occupied(state))


def _net_targets(
    state: QuickState, me: Fighter, foes: list[Fighter], taken: set[Hex]
) -> list[Fighter]:
    out = []
    for o in foes:
        if o.ensnared:
            continue
        d = hg.distance(me.hex, o.hex)
        if d == 1 and hg.in_cone(me.hex, me.facing, o.hex, 1):
            out.append(o)
        elif d == 2 and hg.in_cone(me.hex, me.facing, o.hex, 2):
            # QR7: the cast is blocked only when every way between holds a figure.
            blocked = all(h in taken for h in hexes_between(me.hex, o.hex))
            if not blocked:
                out.append(o)
    return out


def can_cast(state: QuickState, me: Fighter) -> bool:
    return (
        tables().kit(me.cls).off_hand == "net"
        and me.has_off_hand
        and not me.net_cast
        and state.casts < state.options["net_casts_per_turn"]
    )


def step_allowed(state: QuickState, me: Fighter, dest: Hex, taken: set[Hex]) -> bool:
    if dest not in arena_of(state):  # §2.1
        return False
    return dest not in taken and dest not in _zones(me, opponents(state, me.seat))


def _zones(me: Fighter, foes: list[Fighter]) -> set[Hex]:
    """§6.3: the hexes around each opponent standing next to `me`. He may not move from one hex
    next to an opponent to another hex next to him, so these are closed to his steps."""
    closed: set[Hex] = set()
    for o in foes:
        if hg.distance(me.hex, o.hex) == 1:
            closed.update(hg.neighbors(o.hex))
    return closed


def legal_actions(
    state: QuickState, seat: str, aliases: list[tuple[str, str]] | None = None
) -> list[Option]:
    """The orders open to the active seat. `aliases` collects other spellings accepted (a lone
    target may still be named: `ST>blue` for `ST`)."""
    b = board(state.options["arena_side"])
    t = b.costs
    me = state.fighters[seat]
    ap = state.ap
    foes = opponents(state, seat)
    taken = occupied(state)
    # §2.1: the steps that stay on the sheet, worked out once (board.py); then not into a figure
    # (§6.1) nor from one hex next to an opponent to another next to him (§6.3).
    closed = taken | _zones(me, foes)
    out = [
        option
        for cost, dest, option in b.steps[me.hex, me.facing]
        if cost <= ap and dest not in closed
    ]
    if t.pivot <= ap:  # §5.2.3
        out.extend(b.pivots)
    if t.strike <= ap and state.strikes < t.strikes_per_turn:  # §5.2.4
        targets = _strike_targets(state, me, foes)
        for o in targets:
            text = "ST" if len(targets) == 1 else f"ST>{o.seat}"
            if aliases is not None and len(targets) == 1:
                aliases.append((f"ST>{o.seat}", text))
            out.append(Option(text, f"strike {o.seat} ({t.strike} AP)", o.hex))
    if t.net_cast <= ap and can_cast(state, me):  # §5.2.5
        targets = _net_targets(state, me, foes, taken)
        for o in targets:
            text = "NET" if len(targets) == 1 else f"NET>{o.seat}"
            if aliases is not None and len(targets) == 1:
                aliases.append((f"NET>{o.seat}", text))
            out.append(Option(text, f"cast the net at {o.seat} ({t.net_cast} AP)", o.hex))
    out.append(b.end)
    return out


def _act_decision(state: QuickState, seat: str) -> ChooseOne:
    aliases: list[tuple[str, str]] = [("END", "E"), ("PASS", "E")]
    options = tuple(legal_actions(state, seat, aliases))
    return ChooseOne(prompt=f"{seat}: {state.ap} AP left", options=options, aliases=tuple(aliases))


def _alone(state: QuickState, me: Fighter, b: Board) -> bool:
    """Whether no other figure bears on what `me` may do. One next to him takes a hex he might
    step into (§6.1), binds him by its zone (§6.3) or may be struck (§6.2); one two hexes away
    matters only if he could cast a net at it (§10.2); any farther off, none does."""
    adjacent = b.adjacent[me.hex]
    two_away = b.two_away[me.hex]
    for f in state.fighters.values():  # a plain loop: this runs at every decision
        if f is me or not f.on_board:
            continue
        if f.hex in adjacent:
            return False
        if f.hex in two_away and b.costs.net_cast <= state.ap and can_cast(state, me):
            return False
    return True


# -- actions -----------------------------------------------------------------------------------
def _act(state: QuickState, seat: str, order: str, dice: Dice, events: list[Event] | None) -> bool:
    """Carry out one order of the active seat. True if it was a strike (which may take a man out
    of the fight); a step, a pivot, a cast or the end of the turn cannot."""
    me = state.fighters[seat]
    b = board(state.options["arena_side"])
    step = b.moves[me.hex, me.facing].get(order)
    if step is not None:  # §5.2.1, §5.2.2
        cost, dest, told = step
        me.hex = dest
        state.ap -= cost
        if events is not None:
            events.append(
                {
                    "type": "move",
                    "seat": seat,
                    "order": order,
                    "to": [dest.q, dest.r],
                    "text": f"{seat} {told}",
                }
            )
        return False
    t = b.costs
    if order == "L" or order == "R":  # §5.2.3
        me.facing = hg.turn(me.facing, -1 if order == "L" else 1)
        state.ap -= t.pivot
        if events is not None:
            events.append(
                {
                    "type": "pivot",
                    "seat": seat,
                    "order": order,
                    "facing": me.facing,
                    "text": f"{seat} pivots {'left' if order == 'L' else 'right'} to face "
                    f"{hg.DIRECTION_NAMES[me.facing]} (quick §5.2.3)",
                }
            )
        return False
    if order == "E":
        state.ap = 0
        if events is not None:
            events.append({"type": "end_turn", "seat": seat, "text": f"{seat} ends the turn"})
        return False
    kind, _, target_seat = order.partition(">")
    if kind == "ST":  # §5.2.4
        target = _pick(strike_targets(state, me), target_seat)
        state.ap -= t.strike
        state.strikes += 1
        combat.strike(state, me, target, dice, events)
        return True
    if kind == "NET":  # §5.2.5
        target = _pick(net_targets(state, me), target_seat)
        state.ap -= t.net_cast
        state.casts += 1
        combat.cast_net(state, me, target, dice, events)
        return False
    raise ValueError(f"unknown quick order {order!r}")  # unreachable through Match


def _pick(targets: list[Fighter], seat: str) -> Fighter:
    if not seat:
        return targets[0]
    return next(f for f in targets if f.seat == seat)


# -- fate (§7.6, §9.5) ---------------------------------------------------------------------------
def _resolve_fate(
    state: QuickState, orders: Mapping[str, str], dice: Dice, events: list[Event] | None
) -> None:
    assert state.fate is not None
    fate = state.fate
    ups = sum(1 for o in orders.values() if o == "UP")
    downs = len(orders) - ups
    votes = ", ".join(f"{s} {o}" for s, o in sorted(orders.items()))
    if ups == downs:
        verdict = fate_rules.crowd_verdict(fate.helpless, dice)
        how = f"votes tied ({votes}); the crowd decides (QR6)"
    else:
        verdict = ups > downs
        how = f"thumbs: {votes}"
    fate_rules.settle_fate(state, fate.helpless, verdict, how, events)
    state.fate = None
    state.phase = "act"


# -- the turn sequence (§4.1, §5.1) --------------------------------------------------------------
def _advance(
    state: QuickState, dice: Dice, events: list[Event] | None, *, check_end: bool = True
) -> None:
    """Run on until the next decision: end turns with no AP left, start the next turn.
    `check_end=False`: nobody can have left the fight since the last look (no blow was struck)."""
    if state.phase == "fate":
        return
    if check_end and _check_end(state, events):
        return
    while state.ap <= 0 or not state.fighters[state.active].fighting:
        state.turn_index += 1
        if state.turn_index >= len(state.order):
            state.turn_index = 0
            state.round += 1
            if state.round > state.options["max_rounds"]:
                _finish(
                    state,
                    (),
                    "time",
                    f"no decision after {state.options['max_rounds']} "
                    "rounds: the match is stopped as a draw (QR12)",
                    events,
                )
                return
        me = state.fighters[state.active]
        if me.fighting:
            _start_turn(state, me, dice, events)


def _start_turn(state: QuickState, me: Fighter, dice: Dice, events: list[Event] | None) -> None:
    """§5.1: roll 1D6 plus the modifiers of §5.3 and §9.3/§9.4 for the turn's action points."""
    t = tables()
    mods: list[tuple[str, int]] = []
    cls_mod = t.kit(me.cls).ap_modifier
    if cls_mod:
        mods.append((me.cls, cls_mod))
    if me.strength * 2 < me.max_strength:  # §5.3.4 (QR4)
        mods.append(("badly wounded", t.ap_modifiers.badly_wounded))
    elif me.strength < me.max_strength:  # §5.3.3
        mods.append(("lightly wounded", t.ap_modifiers.lightly_wounded))
    if me.ensnared:  # §5.3.5
        mods.append(("ensnared", t.ap_modifiers.ensnared))
    if me.off_balance:  # §9.3, §9.4: "from next move", then it is over
        mods.append(("off balance", t.ap_modifiers.off_balance))
        me.off_balance = False
    die = dice.d(6, f"{me.seat}'s action points", "quick §5.1")
    total = die
    for _, value in mods:
        total += value
    state.ap = max(0, total)  # QR3
    state.strikes = 0
    state.casts = 0
    if events is None:
        return
    detail = "".join([f" {v:+d} {k}" for k, v in mods]) if mods else ""
    events.append(
        {
            "type": "turn",
            "seat": me.seat,
            "round": state.round,
            "ap": state.ap,
            "text": f"round {state.round}: {me.seat} rolls {die}{detail} = {state.ap} AP "
            "(quick §5.1)",
        }
    )


def _check_end(state: QuickState, events: list[Event] | None) -> bool:
    standing = [f for f in state.fighters.values() if f.fighting]
    if len(standing) > 1:
        return False
    if standing:
        w = standing[0]
        losers = [f for f in state.fighters.values() if f is not w]
        method = losers[0].status if len(losers) == 1 else "last standing"
        _finish(
            state,
            (w.seat,),
            method,
            f"{w.seat} ({w.cls}) wins: " + ", ".join(f"{f.seat} {f.status}" for f in losers),
            events,
        )
    else:
        _finish(state, (), "no survivor", "nobody is left standing", events)
    return True


def _finish(
    state: QuickState,
    winners: tuple[str, ...],
    method: str,
    summary: str,
    events: list[Event] | None,
) -> None:
    state.phase = "over"
    state.ap = 0
    state.winners = winners
    state.end_method = method
    state.end_summary = summary
    if events is not None:
        events.append({"type": "end", "winners": list(winners), "method": method, "text": summary})
