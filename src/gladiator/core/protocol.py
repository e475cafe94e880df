"""The contract between a ruleset and everything above it (front ends, bots, simulation, storage).

A ruleset is a set of pure functions over its own state type. The engine stops at decision
points: `pending(state)` names the seats that must decide now and what each may choose. When every
pending seat has an order, `apply` advances the state to the next decision point, rolling dice
from the match's `Dice` and returning events. Nothing else may change a state.
"""

from __future__ import annotations

import hashlib
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from gladiator.core.decisions import Decision
from gladiator.core.dice import Dice

__all__ = ["SCENE_SCHEMA", "Event", "Outcome", "Ruleset", "Seat", "State", "empty_scene"]

SCENE_SCHEMA = "gladiator.scene"


def empty_scene() -> dict[str, Any]:
    """The scene of a ruleset that draws nothing: the shape every scene has."""
    return {
        "schema": SCENE_SCHEMA,
        "version": 1,
        "caption": "",
        "hexes": [],
        "walls": [],
        "figures": [],
        "items": [],
        "marks": [],
        "panels": [],
    }


Seat = str
Event = dict[str, Any]
"""An event is plain data: at least `type` and `text` (a sentence citing the rule applied)."""

State = TypeVar("State")


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a match ended. No winners means a draw."""

    winners: tuple[Seat, ...]
    method: str
    summary: str

    def to_dict(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "method": self.method, "summary": self.summary}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Outcome:
        return cls(tuple(d["winners"]), str(d["method"]), str(d["summary"]))


class Ruleset(ABC, Generic[State]):
    """One rule document, implemented. Subclasses are registered by `name`."""

    name: ClassVar[str]
    title: ClassVar[str]
    version: ClassVar[int] = 1

    @abstractmethod
    def normalise_options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """Validate match options and fill defaults. Raise ValueError with a one-line message."""

    def options_schema(self) -> dict[str, Any]:
        """The options as JSON Schema (each option's type, allowed values and bounds), so a front
        end can draw a form (a choice list where the values are few). Empty: no form hints."""
        return {}

    @abstractmethod
    def seats(self, options: Mapping[str, Any]) -> tuple[Seat, ...]:
        """The seats of a match with these (normalised) options, in table order."""

    @abstractmethod
    def initial_state(self, options: Mapping[str, Any], dice: Dice) -> tuple[State, list[Event]]:
        """Set up a match (roll characteristics, place figures) and run to the first decision."""

    @abstractmethod
    def pending(self, state: State) -> Mapping[Seat, Decision]:
        """The seats that must decide now and what each may choose. Empty once finished."""

    @abstractmethod
    def apply(
        self, state: State, orders: Mapping[Seat, str], dice: Dice, *, quiet: bool = False
    ) -> list[Event]:
        """Advance `state` in place with one order per pending seat (unchecked fast path).

        Callers must pass orders that the pending decisions accept (canonical text); `Match`
        does the checking. `quiet` (search and simulation) asks for no events: the ruleset may
        then skip building event text and return an empty list, but the new state and every
        die thrown must be exactly those of a loud apply.
        """

    @abstractmethod
    def outcome(self, state: State) -> Outcome | None:
        """The result once the match is over, else None."""

    @abstractmethod
    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        """What `seat` may know (None: a spectator). Must never hold another seat's secret."""

    @abstractmethod
    def state_to_dict(self, state: State) -> dict[str, Any]:
        """The complete state as plain JSON-able data."""

    @abstractmethod
    def clone(self, state: State) -> State:
        """An independent copy, for look-ahead search."""

    def data_digest(self) -> str:
        """A hash of the data files (tables) the ruleset plays by; kept in every record."""
        return ""

    def determinize(self, state: State, seat: Seat, rng: random.Random) -> State:
        """A copy of the state in which everything `seat` may not know is drawn afresh from what
        it could be (another seat's secret written move, say), for look-ahead bots: search on
        this copy, never on the true state. With no hidden information, a plain copy."""
        return self.clone(state)

    def heuristic(self, state: State, seat: Seat) -> float:
        """How good the state looks for `seat` (for look-ahead bots). By default: the result."""
        out = self.outcome(state)
        if out is None or not out.winners:
            return 0.0
        return 1.0 if seat in out.winners else -1.0

    def rounds(self, state: State) -> int:
        """How far the match has gone in the ruleset's own unit (turns, rounds); 0 if none."""
        return 0

    def lookahead(self) -> int:
        """How many further decisions a one-step look-ahead bot should play out (at random) before
        judging a position: 0 where each order takes effect at once (the quick rules), more where
        an order only shows its worth later in the turn (a secret written move)."""
        return 0

    def seat_label(self, state: State, seat: Seat) -> str:
        """A short description of a seat's figure (its class, say) for tables and panels."""
        return seat

    def seat_facets(self, state: State, seat: Seat) -> dict[str, str]:
        """What a balance report groups a seat by (class, style, weapon...), as short names.
        By default the seat's label alone."""
        return {"label": self.seat_label(state, seat)}

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "version": self.version}

    def state_hash(self, state: State) -> str:
        blob = json.dumps(self.state_to_dict(state), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()

    def scene(self, state: State, seat: Seat | None) -> dict[str, Any]:
        """What a graphical front end draws for `seat` (None: a spectator), in the common scene
        format of `docs/web.md`: the board's hexes and walls, the figures with facing and state,
        items and marks on the ground, and one panel per figure. Like `view`, it must never hold
        another seat's secret. By default an empty board."""
        return empty_scene()

    def render_text(self, state: State, seat: Seat | None) -> str:
        """A plain-text picture of the state for logs and transcripts."""
        return json.dumps(self.view(state, seat), sort_keys=True)
