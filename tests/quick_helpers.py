"""Helpers for the quick-rules tests: scripted dice, hand-built positions, simple play policies.

`ScriptedDice` has the interface of `gladiator.core.dice.Dice` that the quick rules use (`d`,
`roll`, `log`, `count`); every throw pops the next scripted face and, where the script says so,
checks that the engine asked for the die under the expected rule, so a test fails loudly when the
engine rolls a die the rule does not call for (or skips one it does).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from gladiator.core import hexgrid as hg
from gladiator.core.decisions import Decision
from gladiator.core.dice import Roll, parse_dice
from gladiator.core.hexgrid import Hex, Relation
from gladiator.core.match import Match
from gladiator.rules.quick.options import normalise
from gladiator.rules.quick.state import OUT_OF_FIGHT, Fighter, QuickState

# Rule strings the engine passes to the dice (what each die is for).
AP = "quick §5.1"
STRIKE = "quick §7.1"
SAVE = "quick §7.4"
WHO_BREAKS = "quick §9.6"
NET = "quick §10.2"
STRENGTH = "quick §3.1"
ORDER = "QR2"
CLASS = "QR11"
CROWD = "QR6"


class DiceExhausted(AssertionError):
    """The engine asked for more dice than the test scripted."""


@dataclass
class ScriptedDice:
    """Dice whose faces come from a script.

    Each script entry is a face (int), a tuple of faces (for `roll("2D6", ...)`), or a pair
    `(rule, face_or_faces)` meaning "the next throw must be for `rule`" (compared exactly).
    """

    script: list[Any]
    seed: int = 0
    log: list[Roll] = field(default_factory=list)
    recording: bool = True

    def _next(self, rule: str) -> Any:
        if not self.script:
            raise DiceExhausted(f"unscripted die asked for {rule!r}")
        entry = self.script.pop(0)
        if isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[0], str):
            want, entry = entry
            assert rule == want, f"die thrown for {rule!r}, the script expected {want!r}"
        return entry

    def d(self, sides: int, purpose: str, rule: str) -> int:
        face = self._next(rule)
        assert isinstance(face, int) and 1 <= face <= sides, (face, sides, purpose)
        self.log.append(Roll(len(self.log), f"1D{sides}", (face,), face, purpose, rule))
        return face

    def roll(self, notation: str, purpose: str, rule: str) -> int:
        expr = parse_dice(notation)
        faces = self._next(rule)
        if isinstance(faces, int):
            faces = (faces,)
        assert len(faces) == expr.count, (notation, faces)
        assert all(1 <= f <= expr.sides for f in faces), (notation, faces)
        total = sum(faces) + expr.modifier
        self.log.append(Roll(len(self.log), str(expr), tuple(faces), total, purpose, rule))
        return total

    @property
    def count(self) -> int:
        return len(self.log)

    @property
    def rules(self) -> list[str]:
        return [r.rule for r in self.log]

    def assert_exhausted(self) -> None:
        assert not self.script, f"scripted dice left unused: {self.script}"


def options(**overrides: Any) -> dict[str, Any]:
    """Normalised quick options; `gladiators` defaults to two mediums."""
    raw: dict[str, Any] = {"gladiators": ["medium", "medium"]}
    raw.update(overrides)
    return normalise(raw)


def fighter(
    seat: str,
    cls: str,
    at: Hex,
    facing: int,
    strength: int = 12,
    max_strength: int | None = None,
    **kw: Any,
) -> Fighter:
    return Fighter(
        seat=seat,
        cls=cls,
        strength=strength,
        max_strength=strength if max_strength is None else max_strength,
        hex=at,
        facing=facing,
        **kw,
    )


def state_of(
    fighters: Iterable[Fighter],
    *,
    active: str | None = None,
    ap: int = 6,
    order: list[str] | None = None,
    **opts: Any,
) -> QuickState:
    """A hand-built position. `opts` are quick options (the gladiators list is derived)."""
    fs = list(fighters)
    opts.setdefault("gladiators", [f.cls for f in fs])
    seats = order or [f.seat for f in fs]
    st = QuickState(options=options(**opts), fighters={f.seat: f for f in fs}, order=seats)
    st.turn_index = seats.index(active or seats[0])
    st.ap = ap
    return st


def facing_to(at: Hex, target: Hex) -> int:
    return hg.facing_toward(at, target)


def attacker_at(
    defender: Fighter, rel: Relation, seat: str = "red", cls: str = "medium", **kw: Any
) -> Fighter:
    """A fighter on the defender's `rel` hexside, facing him."""
    at = hg.neighbor_at(defender.hex, defender.facing, rel)
    return fighter(seat, cls, at, facing_to(at, defender.hex), **kw)


def texts(decision: Decision) -> list[str]:
    legal = decision.legal()
    assert legal is not None
    return legal


# -- play policies (for integration and property tests) ------------------------------------------
def aggressive(state: QuickState, seat: str, decision: Decision, rng: random.Random) -> str:
    """Close in and strike: strike or cast when offered, else turn to / walk to the nearest foe.

    Not rules, just a way to make matches reach wounds, doubles and fates quickly. One order in
    five is drawn at random so that play varies.
    """
    legal = texts(decision)
    if rng.random() < 0.2 or state.phase != "act":
        return decision.sample(rng)
    for prefix in ("ST", "NET"):
        hits = [o for o in legal if o.startswith(prefix)]
        if hits:
            return hits[int(rng.random() * len(hits))]
    me = state.fighters[seat]
    foes = [f for f in state.fighters.values() if f.seat != seat and f.fighting]
    if not foes:
        return "E"
    foe = min(foes, key=lambda f: hg.distance(me.hex, f.hex))
    want = hg.facing_toward(me.hex, foe.hex)
    if want != me.facing:
        turn = "R" if (want - me.facing) % 6 <= 3 else "L"
        if turn in legal:
            return turn
    here = hg.distance(me.hex, foe.hex)
    best = None
    for code in ("F", "SFL", "SFR"):
        if code in legal:
            dest = hg.neighbor_at(me.hex, me.facing, Relation[_REL[code]])
            if hg.distance(dest, foe.hex) < here:
                best = code
                break
    return best or "E"


_REL = {"F": "FRONT", "SFL": "LEFT_FRONT", "SFR": "RIGHT_FRONT"}


def random_legal(state: QuickState, seat: str, decision: Decision, rng: random.Random) -> str:
    return decision.sample(rng)


POLICIES = {"random": random_legal, "aggressive": aggressive}


def play_step(m: Match, rng: random.Random, policy: str = "random") -> dict[str, str]:
    """Submit one order for every pending seat; returns the orders given."""
    pick = POLICIES[policy]
    given: dict[str, str] = {}
    for seat, decision in list(m.pending().items()):
        given[seat] = pick(m.state, seat, decision, rng)
        m.submit(seat, given[seat])
    return given


def check_invariants(state: QuickState, arena: Any) -> None:
    """What must hold of every quick-rules state between decisions."""
    on_board = [f for f in state.fighters.values() if f.on_board]
    hexes = [f.hex for f in on_board]
    assert len(hexes) == len(set(hexes)), f"two figures share a hex: {hexes}"  # §6.1
    for f in state.fighters.values():
        assert 0 <= f.facing <= 5
        assert 2 <= f.max_strength <= 12  # §3.1
        if f.on_board:
            assert f.hex in arena, f"{f.seat} is off the arena at {f.hex}"  # §2.1
        if f.status == "fighting":
            assert f.strength > 0, f"{f.seat} fights at strength {f.strength}"  # §7.6
        elif f.status == "helpless":
            # §7.6: 0..-2; §9.5: a decked gladiator may be helpless at any positive strength.
            assert f.strength >= -2
        elif f.status == "dead":
            assert f.strength < -2  # §7.7
        elif f.status in ("slain", "spared"):
            assert f.strength >= -2  # they were helpless, not dead
        else:
            assert f.status == "killed"  # §9.1, any strength
        assert f.status in OUT_OF_FIGHT or f.on_board
    # §10.5 / QR10: every ensnared figure wears the net of one retiarius who cast it.
    netted = sum(1 for f in state.fighters.values() if f.ensnared)
    cast = sum(1 for f in state.fighters.values() if f.net_cast)
    assert netted == cast
    assert all(f.cls == "retiarius" for f in state.fighters.values() if f.net_cast)
    assert state.ap >= 0  # QR3
    assert 0 <= state.strikes <= 1  # §5.2.4
    assert 0 <= state.casts <= state.options["net_casts_per_turn"]  # QR8
    # QR12: no turn is begun after max_rounds (the counter passes it only when the match stops).
    assert state.round <= state.options["max_rounds"] or state.phase == "over"
    assert (state.phase == "fate") == (state.fate is not None)
    if state.phase == "act":
        assert state.fighters[state.active].fighting, "the active seat must be fighting"
    if state.phase == "fate":
        assert state.fate is not None
        assert state.fighters[state.fate.helpless].status == "helpless"


def views_without(v: Mapping[str, Any], *keys: str) -> dict[str, Any]:
    return {k: val for k, val in v.items() if k not in keys}
