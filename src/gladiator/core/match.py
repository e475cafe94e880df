"""A match in progress: one ruleset, its options, one seeded `Dice`, and the orders so far.

`Match` is the checked layer over a ruleset. It holds secret orders of a simultaneous decision
until every pending seat has submitted (no view shows them before), checks every order against the
pending decision (the one source of legality), and keeps the record that replays the match.

An engine that raises while it applies a complete decision is an `EngineFault`, never a bare
exception. An `atomic` match (the server's, the terminal's) applies each decision to a copy of
the state and dice first and keeps the copy only if the engine returns, so a fault leaves it at
its last good state with that decision's orders voided; `resolution` and `commit` let a caller
store the completing order in between (server/live_match.py). A plain match applies in place,
the fast path for simulation, and is unusable after a fault.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gladiator.core.decisions import Decision, IllegalOrder
from gladiator.core.dice import Dice, Roll
from gladiator.core.protocol import Event, Outcome, Ruleset, Seat
from gladiator.core.record import MatchRecord, RecordError
from gladiator.core.seeding import commit, fresh_nonce, fresh_seed, matches_commitment

__all__ = [
    "EngineFault",
    "IllegalOrder",
    "Match",
    "NotYourTurn",
    "ReplayMismatch",
    "Resolution",
]


class NotYourTurn(ValueError):
    """An order from a seat that has nothing to decide now (or already decided)."""


class ReplayMismatch(ValueError):
    """Replaying a record did not reproduce it; `step`: the step whose orders failed, if that
    was the trouble (the steps before it replay)."""

    def __init__(self, message: str, step: int | None = None) -> None:
        super().__init__(message)
        self.step = step


class EngineFault(Exception):
    """The ruleset raised while applying a complete decision whose orders it had offered: a
    fault of the engine, not of any player. `step` is the index the decision would have had,
    `orders` its orders by seat, `cause` what the engine raised. Not a ValueError on purpose:
    no caller may take it for an illegal order."""

    def __init__(self, step: int, orders: Mapping[Seat, str], cause: BaseException) -> None:
        self.step = step
        self.orders = dict(orders)
        self.cause = cause
        first = str(cause).splitlines()[0] if str(cause) else ""
        self.reason = f"{type(cause).__name__}: {first}" if first else type(cause).__name__
        shown = ", ".join(f"{s}: {o}" for s, o in self.orders.items())
        super().__init__(f"step {step} ({shown}): the engine failed: {self.reason}")


@dataclass(frozen=True)
class Resolution:
    """A complete decision applied to a copy of the match (`Match.resolution`): what
    `Match.commit` makes the match's own, if nothing else happened to the match in between."""

    step: int
    orders: dict[Seat, str]
    state: Any
    dice: Dice
    events: list[Event]
    # The decision asked next (`Ruleset.pending` of `state`): who it waits for is known before
    # the resolution is stored (a correspondence deadline's turn, docs/web.md).
    pending: Mapping[Seat, Decision]


class Match:
    def __init__(
        self,
        ruleset: Ruleset[Any],
        options: Mapping[str, Any] | None = None,
        *,
        seed: int | None = None,
        nonce: str | None = None,
        atomic: bool = False,
    ) -> None:
        self.ruleset = ruleset
        self.atomic = atomic
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
        self.fault: EngineFault | None = None  # set by a fault of a plain (in-place) match

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
        """The canonical form of a legal order; raises IllegalOrder or NotYourTurn (or the
        EngineFault that left a plain match unusable)."""
        if self.fault is not None:
            raise self.fault
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
        """Give `seat`'s order. Returns the events if this completed the decision, else [].
        EngineFault if the engine failed on the complete decision (see the module's note)."""
        canonical = self.check(seat, order)
        if not self.completes(seat):
            self._submitted[seat] = canonical
            return []
        return self._resolve({**self._submitted, seat: canonical})

    def completes(self, seat: Seat) -> bool:
        """Whether `seat`'s order is the last one the current decision waits for."""
        return self.waiting_for() == [seat]

    def resolution(self, seat: Seat, canonical: str) -> Resolution:
        """The decision completed by `seat`'s checked order, applied to a copy of the state and
        dice; the match itself is untouched. EngineFault if the engine raises on it."""
        if not self.completes(seat):
            raise NotYourTurn(f"{seat}'s order does not complete the decision")
        return self._resolution({**self._submitted, seat: canonical})

    def _resolution(self, submitted: Mapping[Seat, str]) -> Resolution:
        orders = self._in_seat_order(submitted)
        state = self.ruleset.clone(self.state)
        dice = self.dice.fork(recording=self.dice.recording)
        step = len(self.steps)
        try:
            events = self.ruleset.apply(state, orders, dice)
            pending = self.ruleset.pending(state)
        except Exception as exc:  # whatever the engine raised: the match must outlive it
            raise EngineFault(step, orders, exc) from exc
        return Resolution(step, orders, state, dice, events, pending)

    def commit(self, res: Resolution) -> list[Event]:
        """Make a `resolution` the match's own; refused if the match moved on since."""
        if res.step != len(self.steps) or not self.completes_with(res.orders):
            raise NotYourTurn("the decision this resolution completes is no longer pending")
        self.state = res.state
        self.dice = res.dice
        self._submitted = {}
        self._pending = res.pending
        self.steps.append(res.orders)
        self.events.extend(res.events)
        return res.events

    def completes_with(self, orders: Mapping[Seat, str]) -> bool:
        """Whether `orders` are the submitted orders of the pending decision plus its last."""
        pending = self.pending()
        return set(orders) == set(pending) and all(
            orders[s] == o for s, o in self._submitted.items()
        )

    def void_decision(self) -> dict[Seat, str]:
        """Forget the orders submitted to the pending decision (after an EngineFault): every
        seat of it is asked again. Returns what was voided."""
        voided, self._submitted = self._submitted, {}
        return voided

    def _in_seat_order(self, orders: Mapping[Seat, str]) -> dict[Seat, str]:
        return {s: orders[s] for s in self.pending()}

    def _resolve(self, submitted: Mapping[Seat, str]) -> list[Event]:
        if self.atomic:
            try:
                res = self._resolution(submitted)
            except EngineFault:
                self.void_decision()
                raise
            return self.commit(res)
        orders = self._in_seat_order(submitted)
        self._submitted = {}
        self._pending = None
        self.steps.append(orders)
        try:
            new_events = self.ruleset.apply(self.state, orders, self.dice)
        except Exception as exc:  # the state is half-applied: this match is done for
            self.fault = EngineFault(len(self.steps) - 1, orders, exc)
            raise self.fault from exc
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
        return self._resolve(canon)

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
            except EngineFault as exc:
                raise ReplayMismatch(str(exc), step=i) from None
            except ValueError as exc:
                shown = ", ".join(f"{s}: {o}" for s, o in step.items())
                raise ReplayMismatch(f"step {i} ({shown}): {exc}", step=i) from None
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
