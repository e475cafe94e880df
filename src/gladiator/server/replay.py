"""Step-by-step replays of finished matches, for the replay viewer (`/api/matches/{id}/replay`).

A finished match's record is re-run once, keeping a copy of the state after every step and where
each step's events start; any step is then drawn from its copy as a spectator sees it. A few
matches are kept, the least recently asked for dropped first.

A record whose orders stop replaying (stored before engine faults were caught, or under rules
that have changed since) is shown to its last good step, and every answer says which step
fails and why (`broken`; ruling HF5).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from gladiator import registry
from gladiator.core.match import EngineFault, Match, ReplayMismatch
from gladiator.core.protocol import Ruleset
from gladiator.core.record import MatchRecord

__all__ = ["Replay", "ReplayBook"]


@dataclass(frozen=True)
class Replay:
    ruleset: Ruleset[Any]
    record: MatchRecord
    states: tuple[Any, ...]  # the state after step k (k = 0: the opening)
    event_ends: tuple[int, ...]  # how many events there are after step k
    broken: dict[str, Any] | None = None  # the step that fails, its orders and why

    @property
    def steps(self) -> int:
        """The steps that replay (all of the record's, unless it is broken)."""
        return len(self.states) - 1

    def step(self, k: int) -> dict[str, Any]:
        """What the viewer shows after `k` steps: the spectator's view and scene, the orders of
        step k and the events it added (the opening events for k = 0)."""
        if not 0 <= k <= self.steps:
            raise ValueError(f"step must be 0..{self.steps}, not {k}")
        rs, state, rec = self.ruleset, self.states[k], self.record
        view = rs.view(state, None)
        # The fields Match.view adds, as they stood then (no order is ever pending in a replay).
        view["waiting_for"] = list(rs.pending(state)) if k < self.steps else []
        view["submitted"] = []
        outcome = rs.outcome(state)
        view["outcome"] = outcome.to_dict() if outcome else None
        view["seed_commitment"] = rec.seed_commitment
        if outcome is not None:
            view["seed"] = rec.seed
            view["nonce"] = rec.nonce
        start = self.event_ends[k - 1] if k > 0 else 0
        shown: dict[str, Any] = {
            "steps": self.steps,
            "step": k,
            "scene": rs.scene(state, None),
            "view": view,
            "orders": dict(rec.steps[k - 1]) if k > 0 else {},
            "events": rec.events[start : self.event_ends[k]],
        }
        if self.broken is not None:
            shown["broken"] = self.broken
        return shown


def build(record: MatchRecord) -> Replay:
    """Re-run a finished record step by step, up to a step that fails if one does;
    ReplayMismatch if it does not reproduce."""
    if record.seed is None or record.nonce is None:
        raise ReplayMismatch("the record does not reveal its seed")
    rs = registry.get(record.ruleset)
    m = Match(rs, record.options, seed=record.seed, nonce=record.nonce)
    if m.commitment != record.seed_commitment:
        raise ReplayMismatch("the revealed seed does not match the published commitment")
    states = [rs.clone(m.state)]
    ends = [len(m.events)]
    for i, step in enumerate(record.steps):
        try:
            m.apply_step(step)
        except (ValueError, EngineFault) as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            broken = {"step": i, "orders": dict(step), "reason": first}
            return Replay(rs, record, tuple(states), tuple(ends), broken)
        states.append(rs.clone(m.state))
        ends.append(len(m.events))
    if record.final_hash is not None and rs.state_hash(m.state) != record.final_hash:
        raise ReplayMismatch("the final state differs from the record")
    return Replay(rs, record, tuple(states), tuple(ends))


class ReplayBook:
    """The replays built so far, by match id (at most `size`, least recently used dropped)."""

    def __init__(self, size: int = 8) -> None:
        self.size = size
        self._cache: OrderedDict[str, Replay] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, match_id: str, record: dict[str, Any]) -> Replay:
        """The replay of a finished match from its stored record (built on first use; run it in
        a worker thread). RecordError or ReplayMismatch if the record is unusable."""
        with self._lock:
            if match_id in self._cache:
                self._cache.move_to_end(match_id)
                return self._cache[match_id]
        replay = build(MatchRecord.from_dict(record))
        with self._lock:
            self._cache[match_id] = replay
            while len(self._cache) > self.size:
                self._cache.popitem(last=False)
        return replay
