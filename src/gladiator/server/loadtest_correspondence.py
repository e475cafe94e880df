"""The load test's correspondence mode (`gladiator loadtest --deadline S`; issue #30, rulings
CP1-CP3): every match is made with a deadline of S seconds a decision, some seats leave some
decisions to it, and at the end the store says how late each deadline was applied and whether
one was missed.

Which decisions a seat sits out (it still reads every update, and sees the decision pass):

- a match whose deadline brings the stand-in bot ("bot"): each seat sits out each decision
  with the chance `silent_share`, so deadlines pass all through the run;
- a match whose deadline forfeits ("forfeit"): one seat falls silent at a moment drawn evenly
  over the first three quarters of the run, so the forfeits also fall before, during and after
  a kill; the match ends at that seat's first missed deadline (unless it ended before).

A seat that plays thinks at most half the deadline, and stops a second before it; one that
reads a decision (or ends its thinking) less than half a second before the deadline leaves it
to the deadline too (`too_late`): an order still on its way when the stand-in plays would be
refused, or taken for the next decision.

Lateness is the servers' own: a stand-in order's `orders.at` less the deadline it answered
(`orders.due_at`), a forfeit's `matches.finished_at` less its outcome's `due_at`. A deadline is
missed if a running match still waits for a human seat more than `bound_seconds` (the sweep
interval, the lease of a killed process, and a margin) after it passed.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from gladiator.server.correspondence import THEN, DeadlinePolicy, deadline_for
from gladiator.server.ownership import OwnershipPolicy
from gladiator.store.deadline_log import Applied, DeadlineLog

__all__ = ["ON_DEADLINE", "Correspondence", "SitOut"]

ON_DEADLINE = ("bot", "forfeit", "mixed")
MARGIN = 2.0  # seconds: a heartbeat (when the takeover is seen) and the work of applying it
SILENT_SPREAD = 0.75  # forfeit matches' seats fall silent within this share of the run
# Seconds before a deadline by which a seat that plays has sent its order: one sent later might
# reach the server after the stand-in's, and be refused or taken for the next decision.
SAFE = 1.0


@dataclass
class SitOut:
    """Which decisions one seat leaves to the deadline, chosen once per decision (the view's
    `deadline.due`, in milliseconds: the same instant is read back from the store to the
    microsecond after a takeover)."""

    rng: random.Random
    think_cap: float  # the longest a seat that plays thinks (module docstring)
    share: float = 0.0  # the chance of sitting out a decision
    silent_from: float | None = None  # monotonic seconds from which it sits out every one
    chosen: dict[int, bool] = field(default_factory=dict)
    sat_out: int = 0
    too_late: int = 0  # decisions it meant to play but read or thought too near their deadline
    seen_passed: int = 0  # decisions sat out that the seat then saw pass (an update showed it)
    _open: int | None = None

    def saw(self, view: Mapping[str, Any]) -> None:
        """An update: the decision sat out has passed if another is asked or the match ended."""
        if self._open is not None and (
            view.get("outcome") is not None or _due_ms(view) != self._open
        ):
            self.seen_passed += 1
            self._open = None

    def __call__(self, view: Mapping[str, Any]) -> bool:
        """Whether the seat sits out the decision it is asked in `view`."""
        due = _due_ms(view)
        if due is None:
            return False
        if due not in self.chosen:
            if self.silent_from is not None:
                out = time.monotonic() >= self.silent_from
            else:
                out = self.rng.random() < self.share
            self.chosen[due] = out
            if out:
                self.sat_out += 1
                self._open = due
        return self.chosen[due]

    def longest_think(self, view: Mapping[str, Any]) -> float:
        """At most `think_cap`, and done `SAFE` seconds before the deadline: a seat that comes
        back late in a decision (a reconnection) thinks less."""
        due = _due_ms(view)
        left = due / 1000 - time.time() - SAFE if due is not None else self.think_cap
        return max(0.0, min(self.think_cap, left))

    def too_near(self, view: Mapping[str, Any]) -> bool:
        """Whether the deadline is now too near to send the order (the update was read late, or
        the thinking ran late, on a busy client): the decision is then left to it as well."""
        due = _due_ms(view)
        if due is None or due / 1000 - time.time() >= SAFE / 2:
            return False
        self.chosen[due] = True
        self.too_late += 1
        self._open = due
        return True


def _due_ms(view: Mapping[str, Any]) -> int | None:
    due = (view.get("deadline") or {}).get("due")
    return round(due * 1000) if isinstance(due, int | float) else None


@dataclass(frozen=True)
class Correspondence:
    """The mode's settings: the deadline, what it brings ("mixed": every other round of
    matches, so each server makes both kinds), the bot matches' silent share, the stand-in."""

    seconds: int
    then: str = "mixed"
    silent_share: float = 0.25
    stand_in: str = "level:normal"

    def __post_init__(self) -> None:
        if self.seconds < 1:
            raise ValueError(f"--deadline must be 1 second or more, not {self.seconds}")
        if self.then not in ON_DEADLINE:
            raise ValueError(f"--on-deadline is one of {', '.join(ON_DEADLINE)}, not {self.then}")
        if not 0 <= self.silent_share <= 1:
            raise ValueError(f"--silent-share must be 0 to 1, not {self.silent_share}")

    @property
    def policy(self) -> DeadlinePolicy:
        """What a server must accept (its sweep interval is the default one)."""
        return DeadlinePolicy(min_seconds=min(self.seconds, DeadlinePolicy().min_seconds))

    def check(self, ruleset: str, options: Mapping[str, Any]) -> None:
        """ValueError (one line) for what the servers would refuse: a stand-in this program
        lacks, a ruleset's option that allows no deadline (CP4)."""
        for then in ("bot", "forfeit") if self.then == "mixed" else (self.then,):
            deadline_for(ruleset, dict(options), self.seconds, then, self.stand_in, self.policy)

    def server_args(self) -> list[str]:
        return ["--min-deadline", str(self.policy.min_seconds)]

    def then_of(self, i: int, servers: int) -> str:
        if self.then != "mixed":
            return self.then
        return "forfeit" if (i // servers) % 2 else "bot"

    def deadline(self, then: str) -> dict[str, Any]:
        """The create body's `deadline`."""
        body: dict[str, Any] = {"seconds": self.seconds, "then": then}
        if then == "bot":
            body["bot"] = self.stand_in
        return body

    def sit_out(self, then: str, seat_no: int, rng: random.Random, spread: float) -> SitOut:
        """Seat `seat_no` (0, 1, ...) of a match: see the module's docstring."""
        cap = self.seconds / 2
        if then == "bot":
            return SitOut(rng, cap, share=self.silent_share)
        if seat_no:
            return SitOut(rng, cap)
        return SitOut(
            rng, cap, silent_from=time.monotonic() + rng.uniform(0, spread * SILENT_SPREAD)
        )

    @staticmethod
    def bound_seconds() -> float:
        return DeadlinePolicy().interval + OwnershipPolicy().lease + MARGIN

    def figures(
        self,
        db: str,
        matches: Mapping[str, tuple[str, str]],
        sit_outs: Iterable[SitOut],
        killed_base: str | None,
        killed_at: datetime | None,
    ) -> dict[str, Any]:
        """The mode's part of the result, read from the store `db` while the servers still
        run. `matches`: each match's id, the server that made it and what its deadline brings."""
        taken = {m for m, (base, _) in matches.items() if base == killed_base}
        bound = self.bound_seconds()
        with DeadlineLog(db) as log:
            applied = log.applied(list(matches))
            waiting = log.waiting(list(matches))
            first = log.first_stored_after(sorted(taken), killed_at) if killed_at else {}
        now = datetime.now(UTC)
        overdue = sorted(
            ((now - w.since).total_seconds() - w.seconds, w.match_id)
            for w in waiting
            if w.humans_waited_for
        )
        missed = [(round(late, 3), m) for late, m in overdue if late > bound]
        seats = list(sit_outs)
        return {
            "deadline_seconds": self.seconds,
            "on_deadline": self.then,
            "silent_share": self.silent_share,
            "stand_in": self.stand_in,
            "matches_by_kind": {k: sum(t == k for _, t in matches.values()) for k in THEN},
            "sweep_interval_seconds": DeadlinePolicy().interval,
            "lease_seconds": OwnershipPolicy().lease,
            "bound_seconds": bound,
            "decisions_sat_out": sum(s.sat_out for s in seats),
            "decisions_too_late_to_play": sum(s.too_late for s in seats),
            "sat_out_seen_passed": sum(s.seen_passed for s in seats),
            "deadlines_applied": {k: sum(a.kind == k for a in applied) for k in THEN},
            "lateness_seconds": _lateness(applied, taken, killed_at, bound),
            "running_at_end": len(waiting),
            "waited_for_at_end": len(overdue),
            "most_overdue_at_end_seconds": round(overdue[-1][0], 3) if overdue else None,
            "deadlines_missed": len(missed),
            "missed_examples": missed[-10:],
            "takeover": _takeover(taken, first, killed_at, bound),
        }


def _lateness(
    applied: list[Applied], taken: set[str], killed_at: datetime | None, bound: float
) -> dict[str, Any]:
    """The lateness spread of every deadline applied, by kind, and by whose match (made on a
    process that lived, or on the killed one and taken over) and when due (before the kill or
    after)."""
    cells: dict[str, list[float]] = {"all": [], "bot": [], "forfeit": []}
    for a in applied:
        whose = "taken_over" if a.match_id in taken else "survivor"
        when = "after_kill" if killed_at is not None and a.due >= killed_at else "before_kill"
        for key in ("all", a.kind, f"{whose}_{when}"):
            cells.setdefault(key, []).append(a.lateness)
    order = ["all", "bot", "forfeit"] + [
        f"{w}_{t}" for w in ("survivor", "taken_over") for t in ("before_kill", "after_kill")
    ]
    return {key: _spread(cells.get(key, []), bound) for key in order}


def _spread(values: list[float], bound: float) -> dict[str, Any]:
    if not values:
        return {"count": 0}
    values = sorted(values)
    cuts = statistics.quantiles(values, n=100, method="inclusive") if len(values) > 1 else []

    def q(p: int) -> float:
        return round(cuts[p - 1] if cuts else values[0], 3)

    return {
        "count": len(values),
        "min": round(values[0], 3),
        "p50": q(50),
        "p95": q(95),
        "p99": q(99),
        "max": round(values[-1], 3),
        "over_bound": sum(v > bound for v in values),
    }


def _takeover(
    taken: set[str], first: Mapping[str, datetime], killed_at: datetime | None, bound: float
) -> dict[str, Any] | None:
    """The killed process's matches: how many went on elsewhere, and how soon after the kill
    the first thing (an order, a stand-in's, a forfeit) was stored for each."""
    if killed_at is None:
        return None
    after = [(at - killed_at).total_seconds() for at in first.values()]
    return {
        "matches_of_killed_process": len(taken),
        "went_on_after_kill": len(after),
        "first_stored_after_kill_seconds": _spread(after, bound),
    }
