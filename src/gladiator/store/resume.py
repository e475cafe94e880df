"""Resuming a stored match: the same ruleset, options, seed and nonce, then every stored order.

A simultaneous decision that was half-submitted when the server stopped is half-submitted again:
its orders wait inside the rebuilt `Match`, as secret as before (docs/web.md, Storage).

A stored order that no longer applies (refused by the rules, or failing in the engine: stored
before engine faults were caught, or by a program whose rules have changed since) makes the
match `BrokenMatch`, which says which order of which step fails and from which stored order a
resume from the last good step drops the tail (store/voids.py `drop_tail`; ruling HF5).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gladiator import registry
from gladiator.core.match import EngineFault, Match
from gladiator.store.errors import StoreError
from gladiator.store.stored import StoredMatch

__all__ = ["BrokenMatch", "Failure", "rebuild"]


@dataclass(frozen=True)
class Failure:
    """Where a stored match stops replaying: stored order `seq` (`seat`: `order`), in the
    decision of step `step`, whose first stored order is `first_seq`; `reason` says why."""

    seq: int
    step: int
    first_seq: int
    seat: str
    order: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "step": self.step,
            "first_seq": self.first_seq,
            "seat": self.seat,
            "order": self.order,
            "reason": self.reason,
            "good_steps": self.step,
        }


class BrokenMatch(StoreError):
    """A stored match whose orders stop replaying at `failure`."""

    def __init__(self, match_id: str, failure: Failure) -> None:
        f = failure
        super().__init__(
            f"cannot resume match {match_id}: stored order {f.seq} ({f.seat}: {f.order}) "
            f"at step {f.step} fails: {f.reason}; it can be resumed from step {f.step}, "
            f"its last good step, dropping orders {f.first_seq} on"
        )
        self.match_id = match_id
        self.failure = failure


def rebuild(stored: StoredMatch) -> Match:
    """The live `Match` of `stored`; BrokenMatch if one of its orders no longer applies,
    StoreError if this program cannot reproduce it at all."""
    where = f"cannot resume match {stored.id}"
    try:
        ruleset = registry.get(stored.ruleset)
    except registry.UnknownRuleset as exc:
        raise StoreError(f"{where}: {exc}") from None
    try:
        match = Match(ruleset, stored.options, seed=stored.seed, nonce=stored.nonce)
    except ValueError as exc:
        raise StoreError(f"{where}: its options are refused: {exc}") from None
    if match.commitment != stored.commitment:
        raise StoreError(f"{where}: its seed does not match its commitment")
    first_seq = 0  # the first stored order of the decision being replayed
    for seq, (seat, order) in enumerate(stored.orders):
        step = len(match.steps)
        try:
            match.submit(seat, order)
        except EngineFault as fault:
            failure = Failure(
                seq, step, first_seq, seat, order, f"the engine failed: {fault.reason}"
            )
            raise BrokenMatch(stored.id, failure) from None
        except ValueError as exc:
            # IllegalOrder or NotYourTurn: the rules or their tables changed since it was played.
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise BrokenMatch(
                stored.id, Failure(seq, step, first_seq, seat, order, first)
            ) from None
        if len(match.steps) != step:
            first_seq = seq + 1
    match.atomic = True  # replayed in place (fast); from here on a fault costs one decision
    return match
