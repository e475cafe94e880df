"""A match in progress: one ruleset, its options, one seeded `Dice`, and the orders so far.

`Match` is the checked layer over a ruleset. It holds secret orders of a simultaneous decision
until every pending seat has submitted (no view shows them before), checks every order against the
pending decision (the one source of legality), and keeps the record that replays the match.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any

from gladiator.core.decisions import Decision, IllegalOrder
from gladiator.core.dice import Dice, Roll
from gladiator.core.protocol import Event, Outcome, Ruleset, Seat
from gladiator.core.record import MatchRecord, RecordError
from gladiator.core.seeding import commit, fresh_nonce, fresh_seed, matches_commitment

__all__ = ["IllegalOrder", "Match", "NotYourTurn", "ReplayMismatch"]


class NotYourTurn(ValueError):
    """An order from a seat that has nothing to decide now (or already decided)."""


class ReplayMismatch(ValueError):
    """Replaying a record did not reproduce it."""


class Match:
    def __init__(
        self,
        ruleset: Ruleset[Any],
        options: Mapping[str, Any] | None = None,
        *,
        seed: int | None = None,
        nonce: str | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.options = ruleset.normalise_options(options or {})
        if seed is not None and not 0 <= seed < 2**63:
            # random.Random(-s) draws what Random(s) draws: one seed, one stream.
            raise ValueError(f"a seed must be in 0..2**63-1, not {seed}")
        self.seed = fresh_seed() if seed is None else seed
        self.nonce = fresh_nonce() if nonce is None else nonce
        self.commitment = commit(self.seed, self.nonce)
        self.dice = Dice(self.seed)
        self.seats = ruleset.seats(self.options)
        self.state: Any
        self.state, opening = ruleset.initial_state(self.options, self.dice)
        self.steps: list[dict[Seat, str]] = []
        self.events: list[Event] = [
            {
                "type": "start",
                "text": f"Match of {ruleset.title}; seed commitment {self.commitment}",
            },
            *opening,
        ]
        self._submitted: dict[Seat, str] = {}
        self._pending: Mapping[Seat, Decision] | None = None

    # -- reading -----------------------------------------------------------------------------
    def pending(self) -> Mapping[Seat, Decision]:
        if self._pending is None:
            self._pending = self.ruleset.pending(self.state)
        return self._pending

    def waiting_for(self) -> list[Seat]:
        """Seats still to submit for the current decision."""
        return [s for s in self.pending() if s not in self._submitted]

    @property
    def outcome(self) -> Outcome | None:
        return self.ruleset.outcome(self.state)

    @property
    def finished(self) -> bool:
        return self.outcome is not None

    @property
    def rolls(self) -> list[Roll]:
        return self.dice.log

    def view(self, seat: Seat | None) -> dict[str, Any]:
        """What `seat` may see: the ruleset's view, its own decision and order, never others'."""
        v = self.ruleset.view(self.state, seat)
        pending = self.pending()
        v["waiting_for"] = self.waiting_for()
        v["submitted"] = sorted(self._submitted)
        if seat is not None and seat in pending:
            v["decision"] = pending[seat].to_dict()
            if seat in self._submitted:
                v["my_order"] = self._submitted[seat]
        outcome = self.outcome
        v["outcome"] = outcome.to_dict() if outcome else None
        v["seed_commitment"] = self.commitment
        if outcome is not None:
            v["seed"] = self.seed
            v["nonce"] = self.nonce
        return v

    # -- acting ------------------------------------------------------------------------------
    def check(self, seat: Seat, order: str) -> str:
        """The canonical form of a legal order; raises IllegalOrder or NotYourTurn."""
        if self.finished:
            raise NotYourTurn("the match is over")
        pending = self.pending()
        if seat not in pending:
            raise NotYourTurn(
                f"{seat} has nothing to decide now; waiting for {', '.join(self.waiting_for())}"
            )
        if seat in self._submitted:
            raise NotYourTurn(f"{seat} has already given an order for this decision")
        return pending[seat].validate(order)

    def submit(self, seat: Seat, order: str) -> list[Event]:
        """Give `seat`'s order. Returns the events if this completed the decision, else []."""
        canonical = self.check(seat, order)
        self._submitted[seat] = canonical
        if self.waiting_for():
            return []
        return self._resolve()

    def _resolve(self) -> list[Event]:
        orders = {s: self._submitted[s] for s in self.pending()}
        self._submitted = {}
        self._pending = None
        self.steps.append(orders)
        new_events = self.ruleset.apply(self.state, orders, self.dice)
        self.events.extend(new_events)
        return new_events

    def apply_step(self, orders: Mapping[Seat, str]) -> list[Event]:
        """Submit a whole step (one order per pending seat) at once, checked."""
        pending = self.pending()
        if set(orders) != set(pending):
            raise NotYourTurn(
                f"orders for {sorted(orders)} but the decision is for {sorted(pending)}"
            )
        canon = {s: self.check(s, o) for s, o in orders.items()}
        self._submitted = canon
        return self._resolve()

    # -- records -----------------------------------------------------------------------------
    def record(self, *, reveal: bool | None = None) -> MatchRecord:
        """The match so far. The seed is revealed once the match is over (or when asked)."""
        show = self.finished if reveal is None else reveal
        outcome = self.outcome
        return MatchRecord(
            ruleset=self.ruleset.name,
            ruleset_version=self.ruleset.version,
            ruleset_digest=self.ruleset.data_digest(),
            options=copy.deepcopy(self.options),
            seed_commitment=self.commitment,
            seed=self.seed if show else None,
            nonce=self.nonce if show else None,
            steps=[dict(s) for s in self.steps],
            rolls=[r.to_dict() for r in self.dice.log],
            events=list(self.events),
            outcome=outcome.to_dict() if outcome else None,
            final_hash=self.ruleset.state_hash(self.state),
        )

    @classmethod
    def replay(cls, record: MatchRecord, ruleset: Ruleset[Any]) -> Match:
        """Re-run a record's orders and check every roll, event, the outcome and the final hash."""
        if record.seed is None or record.nonce is None:
            raise ReplayMismatch("the record does not reveal its seed, so it cannot be replayed")
        if not matches_commitment(record.seed, record.nonce, record.seed_commitment):
            raise ReplayMismatch("the revealed seed does not match the published commitment")
        if record.ruleset != ruleset.name:
            raise ReplayMismatch(f"record is for ruleset {record.ruleset!r}, not {ruleset.name!r}")
        if record.ruleset_digest != ruleset.data_digest():
            raise ReplayMismatch(
                f"the record was played under other {ruleset.name} tables than this program's "
                "(a table file was edited since)"
            )
        if record.ruleset_version != ruleset.version:
            raise ReplayMismatch(
                f"record is for {record.ruleset} version {record.ruleset_version}, "
                f"this program has version {ruleset.version}"
            )
        try:
            m = cls(ruleset, record.options, seed=record.seed, nonce=record.nonce)
        except ValueError as exc:
            raise RecordError(f"record options are invalid: {exc}") from None
        for i, step in enumerate(record.steps):
            try:
                m.apply_step(step)
            except ValueError as exc:
                raise ReplayMismatch(f"step {i}: {exc}") from None
        got_rolls = [r.to_dict() for r in m.dice.log]
        if got_rolls != record.rolls:
            first = next(
                (
                    i
                    for i, (a, b) in enumerate(zip(got_rolls, record.rolls, strict=False))
                    if a != b
                ),
                min(len(got_rolls), len(record.rolls)),
            )
            raise ReplayMismatch(f"dice differ from roll {first} on")
        if json.loads(json.dumps(m.events)) != record.events:
            raise ReplayMismatch("events differ from the record")
        outcome = m.outcome
        if (outcome.to_dict() if outcome else None) != record.outcome:
            raise ReplayMismatch("the outcome differs from the record")
        if record.final_hash is not None and m.ruleset.state_hash(m.state) != record.final_hash:
            raise ReplayMismatch("the final state differs from the record")
        return m
