"""The random-legal play checker of the Colosseum Advanced Game, one match at a time (issue 27).

Every seat plays an order drawn at random from what its decision offers, read from the decision's
description alone (random_legal_orders.py), and four things are checked:

(a) accepted   every drawn order is accepted by the match, and applying it does not raise
(b) ends       the match ends within a generous number of steps for its `max_turns`
(c) replays    `Match.replay` of the record (through its JSON) reproduces the match exactly
(d) secret     after a seat's secret order is in, no other seat's view or scene (nor a
               spectator's), as the server sends them, holds it or changes otherwise

A refused order is reported and replaced by the decision's own `sample`, so one refusal does not
hide what comes after it; an engine fault ends the match (a plain match is unusable after one).
The shapes, styles and options live in random_legal_shapes.py.
"""

from __future__ import annotations

import json
import random
import re
import traceback
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from gladiator.core.decisions import Decision, IllegalOrder
from gladiator.core.match import EngineFault, Match
from gladiator.core.record import MatchRecord
from gladiator.registry import get
from gladiator.sim.random_legal_orders import Unsampleable, sample_order, unread_fields
from gladiator.sim.random_legal_shapes import MatchSpec, shape_options, spec_for
from gladiator.sim.runner import derive_seed

__all__ = ["CHECKS", "Failure", "Result", "play_random_legal", "play_spec"]

Check = Literal["setup", "sampler", "refused", "engine", "ends", "replay", "secret"]
CHECKS: tuple[Check, ...] = ("setup", "sampler", "refused", "engine", "ends", "replay", "secret")
Status = Literal["pass", "fail", "refused"]

STEPS_PER_TURN = 60  # (b): a turn takes 8-20 steps (phases x plot, allocation, §29 seats)
FULL_SECRECY_SEATS = 4  # (d): every seat watches up to this many seats, else WATCHERS of them
WATCHERS = 3
_NONCE = "random-legal"
_PACKAGE = Path(__file__).resolve().parent.parent


@dataclass
class Failure:
    """One thing that went wrong: which check, at which step (index into the record's steps),
    whose decision and order, and what was raised where (`where`: the innermost project frame,
    `trace`: the project frames leading to it). `times`: how often it recurred in the match."""

    check: Check
    step: int
    seat: str | None = None
    decision: dict[str, Any] | None = None
    order: str | None = None
    exc_type: str = ""
    message: str = ""
    reason: str = ""  # the message without this match's particulars
    where: str = ""
    trace: list[str] = field(default_factory=list)
    times: int = 1

    @property
    def signature(self) -> str:
        """What makes two failures the same cause: the check, the decision's class, the
        exception, where it was raised and the reason."""
        kind = (self.decision or {}).get("class", "")
        return f"{self.check} | {kind} | {self.exc_type} | {self.where} | {self.reason}"


@dataclass
class Result:
    shape: str
    seed: int
    styles: tuple[str, ...]
    beasts: tuple[str, ...]
    options: dict[str, Any]
    status: Status = "pass"
    refusal: str = ""  # why the options were refused (the rules: a pairing that cannot be)
    steps: int = 0
    outcome: dict[str, Any] | None = None
    failures: list[Failure] = field(default_factory=list)
    decisions: dict[str, int] = field(default_factory=dict)  # kind/class: times offered
    unread: list[str] = field(default_factory=list)  # class.field a generic sampler ignores

    @property
    def passed(self) -> bool:
        return self.status == "pass"

    @property
    def first(self) -> Failure | None:
        return self.failures[0] if self.failures else None

    def add(self, failure: Failure) -> None:
        for f in self.failures:
            if f.signature == failure.signature:
                f.times += 1
                return
        self.failures.append(failure)
        self.status = "fail"

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["styles"], d["beasts"] = list(self.styles), list(self.beasts)
        return d


def play_random_legal(
    shape: str, styles: Sequence[str] | None, seed: int, *, full_secrecy: bool = False
) -> Result:
    """One match of `shape` (random_legal_shapes.SHAPES) with these styles, one per gladiator in
    seat order (None: drawn from the seed), every seat playing at random from what it is offered."""
    return play_spec(spec_for(shape, seed, styles), full_secrecy=full_secrecy)


def play_spec(spec: MatchSpec, *, full_secrecy: bool = False) -> Result:
    ruleset = get("colosseum")
    options = shape_options(spec)
    result = Result(spec.shape, spec.seed, spec.styles, spec.beasts, options)
    try:
        m = Match(ruleset, options, seed=spec.seed, nonce=_NONCE)
    except ValueError as exc:  # the options refused: the rules forbid this set-up
        result.status, result.refusal = "refused", str(exc).splitlines()[0]
        return result
    except Exception as exc:  # the set-up itself raised
        result.add(_failure("setup", 0, None, None, None, exc))
        return result
    result.options = m.options
    rng = random.Random(derive_seed(spec.seed, "orders"))
    try:
        alive = _play_out(m, rng, result, full_secrecy)
    except Exception as exc:  # pending, a view or a scene raised: the engine's fault as well
        result.add(_failure("engine", len(m.steps), None, None, None, exc))
        alive = False
    result.steps = len(m.steps)
    if alive:  # an unfinished record replays too
        outcome = m.outcome
        result.outcome = outcome.to_dict() if outcome else None
        _check_replay(m, result)
    return result


def _play_out(m: Match, rng: random.Random, result: Result, full: bool) -> bool:
    """(b): decisions until the match ends or the step cap; False if the match died."""
    turns = int(m.options.get("max_turns", 20))
    cap = STEPS_PER_TURN * turns
    while not m.finished:
        if len(m.steps) >= cap or not m.pending():
            why = f"not over after {cap} steps" if m.pending() else "nothing pending, no outcome"
            result.add(Failure("ends", len(m.steps), message=f"{why} (max_turns {turns})"))
            return True
        if not _play_step(m, rng, result, full):
            return False
    return True


def _play_step(m: Match, rng: random.Random, result: Result, full: bool) -> bool:
    """One decision: each pending seat's drawn order submitted in a random seat order, with the
    secrecy check after the first secret order (after every one that leaves the decision open,
    with `full`). False: the match died."""
    pending = m.pending()
    seats = list(pending)
    rng.shuffle(seats)  # (d): over a match, every seat is the first to give its order
    watch = len(seats) >= 2 and any(d.secret for d in pending.values())
    watchers = _watchers(m, rng, full) if watch else []
    before = _views(m, watchers)
    for i, seat in enumerate(seats):
        decision = pending[seat]
        drawn = _draw(m, seat, decision, rng, result)
        accepted = _accepted(m, seat, decision, drawn, rng, result)
        if accepted is None:
            return False
        typed, canonical = accepted
        try:
            m.submit(seat, typed)  # as a player types it; the match keeps the canonical form
        except EngineFault as fault:
            result.add(_failure("engine", fault.step, seat, decision, canonical, fault.cause))
            return False
        last = i == len(seats) - 1
        if watch and not last and decision.secret and (full or i == 0):
            after = _views(m, watchers)
            _check_secret(m, seat, {typed, canonical}, before, after, result, decision)
            before = after
    return True


def _watchers(m: Match, rng: random.Random, full: bool) -> list[str | None]:
    """(d): every seat and the spectator; in a large match (a view of 12 gladiators costs some
    10 ms) the spectator and a few seats drawn afresh each decision, unless `full`."""
    seats: list[str | None] = list(m.seats)
    if not full and len(seats) > FULL_SECRECY_SEATS:
        seats = list(rng.sample(list(m.seats), WATCHERS))
    return [*seats, None]


def _draw(m: Match, seat: str, decision: Decision, rng: random.Random, result: Result) -> str:
    """An order drawn from the decision's description; where none can be, the decision's own
    draw (so the match goes on) and the finding reported."""
    description = decision.to_dict()
    kind = f"{description.get('kind')}/{type(decision).__name__}"
    result.decisions[kind] = result.decisions.get(kind, 0) + 1
    for name in unread_fields(description):
        tag = f"{type(decision).__name__}.{name}"
        if tag not in result.unread:
            result.unread.append(tag)
    try:
        return sample_order(description, rng)
    except Unsampleable as exc:
        result.add(_failure("sampler", len(m.steps), seat, decision, None, exc))
        return decision.sample(rng)


def _accepted(
    m: Match, seat: str, decision: Decision, order: str, rng: random.Random, result: Result
) -> tuple[str, str] | None:
    """(a): the order and its canonical form; after a refusal, the decision's own draw instead
    (so the match goes on). None, with the failure reported, if even that is refused or
    checking an order raises."""
    step = len(m.steps)
    try:
        return order, m.check(seat, order)
    except IllegalOrder as exc:
        result.add(_failure("refused", step, seat, decision, order, exc))
    except Exception as exc:  # the decision's check itself raised on an offered order
        result.add(_failure("engine", step, seat, decision, order, exc))
        return None
    try:
        own = decision.sample(rng)
        return own, m.check(seat, own)
    except Exception as exc:
        result.add(_failure("refused", step, seat, decision, None, exc))
        return None


# -- (d) secrecy ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Seen:
    """What a watcher is sent, as JSON text: its view without the lists of who has submitted
    and who is awaited (which must change), its own decision and order, and its scene."""

    view: str
    own: str
    scene: str


def _views(m: Match, watchers: Iterable[str | None]) -> dict[str | None, _Seen]:
    out: dict[str | None, _Seen] = {}
    for w in watchers:
        v = m.view(w)
        own = {"decision": v.pop("decision", None), "my_order": v.pop("my_order", None)}
        v.pop("submitted", None)
        v.pop("waiting_for", None)
        scene = json.dumps(m.ruleset.scene(m.state, w), sort_keys=True)
        out[w] = _Seen(json.dumps(v, sort_keys=True), json.dumps(own, sort_keys=True), scene)
    return out


def _check_secret(
    m: Match,
    seat: str,
    orders: set[str],
    before: dict[str | None, _Seen],
    after: dict[str | None, _Seen],
    result: Result,
    decision: Decision,
) -> None:
    """(d): the order is in no other watcher's view or scene more often than before it was
    given (short orders such as `F` are everywhere), and nothing else there changed."""
    needles = {json.dumps(o)[1:-1] for o in orders if o}  # as each would stand in JSON text
    for w, now in after.items():
        if w == seat:
            continue
        was = before[w]
        shown = now.view + now.scene
        grew = any(shown.count(n) > (was.view + was.scene).count(n) for n in needles)
        changed = [
            name for name in ("view", "own", "scene") if getattr(now, name) != getattr(was, name)
        ]
        if not grew and not changed:
            continue
        reason = "holds the order" if grew else f"{'/'.join(changed)} changed"
        where = "a seat's" if w is not None else "the spectator's"
        result.add(
            Failure(
                "secret",
                len(m.steps),
                seat,
                describe(decision),
                max(orders, key=len),
                message=f"{w or 'the spectator'}: {reason} after {seat}'s secret order",
                reason=f"{where} {reason} after another seat's secret order",
            )
        )


# -- (c) replay -----------------------------------------------------------------------------------
def _check_replay(m: Match, result: Result) -> None:
    """(c): the record through its JSON (as stored), replayed by the project's own
    `Match.replay` (rolls, events, outcome, final hash), then the steps compared too."""
    try:
        record = MatchRecord.from_json(m.record(reveal=True).to_json())
        again = Match.replay(record, m.ruleset)
        if again.steps != m.steps:
            raise AssertionError("the replayed steps differ from the match's")
    except Exception as exc:  # ReplayMismatch, RecordError, or whatever replaying raised
        step = getattr(exc, "step", None)
        result.add(
            _failure("replay", len(m.steps) if step is None else step, None, None, None, exc)
        )


# -- reporting ------------------------------------------------------------------------------------
def describe(decision: Decision | None) -> dict[str, Any] | None:
    """The decision as a report shows it: its kind and class, its prompt, its size."""
    if decision is None:
        return None
    d = decision.to_dict()
    out: dict[str, Any] = {"kind": d.get("kind"), "class": type(decision).__name__}
    out["prompt"] = d.get("prompt")
    out["secret"] = d.get("secret")
    if "options" in d:
        out["options"] = len(d["options"])
    if "slots" in d:
        out["budget"] = d.get("budget")
        out["slots"] = [s["name"] for s in d["slots"]]
    return out


def _failure(
    check: Check,
    step: int,
    seat: str | None,
    decision: Decision | None,
    order: str | None,
    exc: BaseException,
) -> Failure:
    trace = _project_frames(exc)
    return Failure(
        check,
        step,
        seat,
        describe(decision),
        order,
        exc_type=type(exc).__name__,
        message=str(exc),
        reason=_reason(exc),
        where=trace[-1] if trace else "",
        trace=trace[-6:],
    )


_QUOTED = re.compile(r"(?<![A-Za-z])'[^']*'(?![A-Za-z])")


def _reason(exc: BaseException) -> str:
    """The first line of what was raised, without what differs from match to match: the order
    quoted, numbers (IllegalOrder's own reason where it has one)."""
    text = exc.reason if isinstance(exc, IllegalOrder) else str(exc)
    first = text.splitlines()[0] if text else ""
    return re.sub(r"\d+", "N", _QUOTED.sub("'…'", first))[:200]


def _project_frames(exc: BaseException) -> list[str]:
    """The frames of the traceback inside the package, as `path:line (function)`."""
    out = []
    for frame in traceback.extract_tb(exc.__traceback__):
        path = Path(frame.filename)
        if _PACKAGE in path.parents:
            out.append(f"{path.relative_to(_PACKAGE)}:{frame.lineno} ({frame.name})")
    return out
