"""Helpers for the skirmish-rules tests: rule strings of the dice, hand-built positions, a checked
driver that plays a turn of a hand-built state through `SkirmishRules.pending/apply`, and play
policies for the integration and property tests.

The scripted dice are the quick tests' `ScriptedDice`: every throw pops the next scripted face and,
where the script names a rule, checks that the engine threw the die for that rule, so a test fails
loudly when the engine rolls a die the rule does not call for (or skips one it does).

Geometry (flat-top axial hexes, directions clockwise from N): N (0,-1), NE (1,-1), SE (1,0),
S (0,1), SW (-1,1), NW (-1,0). A figure at C = (0,0) facing N has its zones (docs: zones.toml)
A (0,-1) front, B (1,-1) front right, C (-1,0) front left, D (0,-2) two ahead, E (1,0) rear right,
F (0,1) behind, G (-1,1) rear left, H (0,2) two behind.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from gladiator.core import hexgrid as hg
from gladiator.core.decisions import Decision
from gladiator.core.hexgrid import Hex
from gladiator.core.match import Match
from gladiator.registry import get
from gladiator.rules.skirmish import combat, engine
from gladiator.rules.skirmish.options import normalise
from gladiator.rules.skirmish.state import Fighter, SkirmishState
from gladiator.rules.skirmish.tables import tables
from quick_helpers import DiceExhausted, ScriptedDice

__all__ = [
    "FALL",
    "HIT",
    "HP",
    "INIT",
    "NET",
    "POLICIES",
    "REROLL",
    "RULES",
    "C",
    "DiceExhausted",
    "PurposeDice",
    "ScriptedDice",
    "aggressive",
    "allowed_codes",
    "facing_to",
    "fighter",
    "legal",
    "run_turn",
    "state_of",
    "step",
]

RULES = get("skirmish")

# Rule strings the engine passes to the dice (what each die is for).
HP = "skirmish §2.6"
INIT = "skirmish §4.2"
REROLL = "skirmish §4.2.3"
HIT = "skirmish §4.3.5"
FALL = "skirmish §7.1"
NET = "skirmish §9 (net)"

C = Hex(0, 0)
N, NE, SE, S, SW, NW = 0, 1, 2, 3, 4, 5


class PurposeDice:
    """Dice that answer by what a throw is for: the face of the first key found in its purpose
    ("red's initiative", "net at", "struggles"). For tests that must not depend on whether the
    engine throws some other die in between (an unscripted purpose fails)."""

    def __init__(self, answers: Mapping[str, int]) -> None:
        self.answers = dict(answers)
        self.log: list[tuple[str, str, int]] = []

    def d(self, sides: int, purpose: str, rule: str) -> int:
        for key, face in self.answers.items():
            if key in purpose:
                assert 1 <= face <= sides
                self.log.append((purpose, rule, face))
                return face
        raise DiceExhausted(f"no scripted face for {purpose!r} ({rule})")

    def roll(self, notation: str, purpose: str, rule: str) -> int:
        raise DiceExhausted(f"no scripted roll for {purpose!r} ({rule})")


def fighter(
    seat: str,
    at: Hex,
    facing: int,
    sheet: str = "thracian",
    hp: int = 14,
    max_hp: int | None = None,
    **kw: Any,
) -> Fighter:
    f = Fighter(
        seat=seat,
        sheet=sheet,
        hp=hp,
        max_hp=hp if max_hp is None else max_hp,
        hex=at,
        facing=facing,
        **kw,
    )
    if "has_net" not in kw:
        f.has_net = any(m.effect == "entangle" for m in tables().sheets[sheet].moves)
    return f


def facing_to(at: Hex, target: Hex) -> int:
    return hg.facing_toward(at, target)


def state_of(fighters: Iterable[Fighter], **opts: Any) -> SkirmishState:
    """A hand-built position at the start of a turn (the write phase). `opts` are skirmish
    options; the gladiators list is derived from the fighters, in seat order."""
    fs = list(fighters)
    opts.setdefault("gladiators", [f.sheet for f in fs])
    return SkirmishState(options=normalise(opts), fighters={f.seat: f for f in fs})


def legal(decision: Decision) -> list[str]:
    out = decision.legal()
    assert out is not None
    return out


def step(state: SkirmishState, dice: Any, orders: Mapping[str, str]) -> list[dict[str, Any]]:
    """Apply one step of orders, checked like `Match.apply_step`: exactly the pending seats, each
    order one of the legal ones."""
    pending = RULES.pending(state)
    assert set(orders) == set(pending), (dict(orders), sorted(pending), state.phase)
    canon = {s: pending[s].validate(o) for s, o in orders.items()}
    return list(RULES.apply(state, canon, dice))


def run_turn(
    state: SkirmishState,
    dice: Any,
    written: Mapping[str, str],
    *,
    perform: Mapping[str, str] | None = None,
    first: str = "FIRST",
    facing: Mapping[str, str] | None = None,
    hexes: Mapping[str, Hex] | None = None,
    trace: list[tuple[str, str, list[str]]] | None = None,
) -> list[dict[str, Any]]:
    """Play one whole turn of a hand-built state through pending/apply: the written moves, then
    `first` for the initiative winner of a duel, each actor's performed move (default: as
    written), his hex or target (required when offered), his facing (default KEEP). Stops at the
    next write phase or the end of the match. `trace` collects (phase, seat, legal orders)."""
    perform = dict(perform or {})
    facing = dict(facing or {})
    hexes = dict(hexes or {})
    turn = state.turn
    assert state.phase == "write"
    pending = RULES.pending(state)
    if trace is not None:
        trace.extend(("write", s, legal(d)) for s, d in pending.items())
    events = step(state, dice, written)
    while state.phase != "over" and not (state.phase == "write" and state.turn > turn):
        (seat, decision), *rest = RULES.pending(state).items()
        assert not rest
        if trace is not None:
            trace.append((state.phase, seat, legal(decision)))
        if state.phase == "first":
            order = first
        elif state.phase == "act":
            order = perform.pop(seat, written[seat])
        elif state.phase in ("hex", "target"):
            order = hg_text(hexes.pop(seat))
        else:
            order = facing.pop(seat, "KEEP")
        events += step(state, dice, {seat: order})
    return events


def hg_text(h: Hex) -> str:
    return f"{h.q},{h.r}"


def allowed_codes(state: SkirmishState, f: Fighter) -> set[str]:
    """What §5.3, §7.2 and the net allow a figure to write or convert to (prohibited aside)."""
    t = tables()
    sheet = t.sheets[f.sheet]
    codes = {m.code for m in sheet.moves} | {t.matrix.net.struggle.code}
    if f.stunned:
        codes = {c for c in codes if engine.move_of(f, c).stun}
    if f.floored:
        codes &= set(sheet.floored_moves) | {t.matrix.net.struggle.code}
    if f.entangled:
        codes &= set(t.matrix.net.entangled_moves)
    return codes


# -- play policies --------------------------------------------------------------------------------
def random_legal(m: Match, seat: str, decision: Decision, rng: random.Random) -> str:
    return decision.sample(rng)


def aggressive(m: Match, seat: str, decision: Decision, rng: random.Random) -> str:
    """Close in and strike (not rules: a way to make matches reach wounds, falls and deaths).
    One order in five is drawn at random so that play varies."""
    state: SkirmishState = m.state
    options = legal(decision)
    if rng.random() < 0.2 or len(options) == 1:
        return decision.sample(rng)
    me = state.fighters[seat]
    foes = [f for f in state.fighters.values() if f.alive and f.seat != seat]
    if not foes:
        return decision.sample(rng)
    foe = min(foes, key=lambda f: hg.distance(me.hex, f.hex))
    if state.phase == "write":
        hits = [
            c
            for c in options
            if engine.move_of(me, c).is_attack
            and engine.attack_targets(state, me, engine.move_of(me, c))
        ]
        if hits:
            return rng.choice(hits)
        for c in ("GU", "SG", "RN", "RU", "SP"):
            if c in options and (c != "RU" or combat.zone_of(me, foe.hex) is None):
                return c
        return decision.sample(rng)
    if state.phase == "act":
        return options[0]  # as written
    if state.phase == "hex":
        return min(options, key=lambda t: hg.distance(Hex(*map(int, t.split(","))), foe.hex))
    if state.phase == "facing":
        want = facing_to(me.hex, foe.hex)
        for o in options:
            steps = 0 if o == "KEEP" else len(o) * (1 if o[0] == "R" else -1)
            if hg.turn(me.facing, steps) == want:
                return o
    return decision.sample(rng)


POLICIES = {"random": random_legal, "aggressive": aggressive}
