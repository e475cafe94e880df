"""Self-describing decisions: what a seat may choose now, as data.

A ruleset's `pending(state)` returns one `Decision` per seat that must decide. Each kind knows how
to check an order given in text notation (raising `IllegalOrder` that lists what is legal), how to
describe itself as plain JSON for a generic front end, and how to draw a legal order at random for
a generic bot. Orders are always text: the notation a player types is the order that is recorded.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from gladiator.core.hexgrid import Hex

__all__ = [
    "Arrange",
    "ChooseOne",
    "Decision",
    "Distribute",
    "IllegalOrder",
    "Option",
    "PickHex",
    "Slot",
    "SlotGroup",
]


class IllegalOrder(ValueError):
    """An order that the decision does not allow. The message quotes the order and what is legal."""

    def __init__(self, order: str, reason: str, legal: Sequence[str] = ()) -> None:
        self.order = order
        self.reason = reason
        self.legal = tuple(legal)
        text = f"{order!r} is illegal: {reason}"
        if self.legal:
            shown = ", ".join(self.legal[:24])
            more = f" (+{len(self.legal) - 24} more)" if len(self.legal) > 24 else ""
            text += f"; legal: {shown}{more}"
        super().__init__(text)


def _norm(text: str) -> str:
    return " ".join(text.strip().upper().split())


@dataclass(frozen=True, slots=True)
class Option:
    """One choice: its notation, a human label, and the hex it concerns (for highlighting).

    A movement choice may also give the hexes it passes through and the facing it ends with, so
    a front end can draw a ghost of the move before it is submitted.
    """

    text: str
    label: str = ""
    hex: Hex | None = None
    path: tuple[Hex, ...] = ()
    facing: int | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"text": self.text, "label": self.label}
        if self.hex is not None:
            d["hex"] = [self.hex.q, self.hex.r]
        if self.path:
            d["path"] = [[h.q, h.r] for h in self.path]
        if self.facing is not None:
            d["facing"] = self.facing
        return d


@dataclass(frozen=True, slots=True)
class Decision:
    """Base of every decision kind. `secret` marks simultaneous orders hidden until all are in.

    `time_limit` (seconds) asks front ends to enforce a clock on this decision (the Colosseum's
    reaction time, §7.5); when it runs out the order `on_timeout` is given in the seat's name.
    """

    kind: ClassVar[str] = "decision"
    prompt: str
    secret: bool = False
    time_limit: float | None = None
    on_timeout: str | None = None

    def validate(self, order: str) -> str:
        """Return the order in canonical form, or raise IllegalOrder."""
        raise NotImplementedError

    def legal(self, limit: int = 10_000) -> list[str] | None:
        """Every legal order, or None when there are more than `limit`."""
        raise NotImplementedError

    def sample(self, rng: random.Random) -> str:
        """A legal order drawn uniformly where practical."""
        raise NotImplementedError

    def candidates(self, rng: random.Random, limit: int = 64) -> list[str]:
        """A set of at most `limit` distinct legal orders for search and learning: every legal
        order where there are no more than `limit`, else distinct samples (in the order drawn;
        fewer than `limit` when samples keep repeating). Deterministic for a given `rng`."""
        every = self.legal(limit)
        if every is not None:
            return every
        seen: dict[str, None] = {}
        for _ in range(limit * 4):
            seen.setdefault(self.sample(rng), None)
            if len(seen) >= limit:
                break
        return list(seen)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "prompt": self.prompt, "secret": self.secret}
        if self.time_limit is not None:
            d["time_limit"] = self.time_limit
            d["on_timeout"] = self.on_timeout
        return d


@dataclass(frozen=True, slots=True)
class ChooseOne(Decision):
    """Pick exactly one of a list of options."""

    kind: ClassVar[str] = "choose"
    options: tuple[Option, ...] = ()
    # Aliases accepted on input (e.g. "END" for "E"), mapped to canonical option text.
    aliases: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if not self.options:
            raise ValueError("a ChooseOne decision needs at least one option")

    def texts(self) -> list[str]:
        return [o.text for o in self.options]

    def validate(self, order: str) -> str:
        for o in self.options:
            if o.text == order:  # the usual case: a bot or a replay giving canonical text
                return o.text
        wanted = _norm(order)
        for o in self.options:
            if _norm(o.text) == wanted:
                return o.text
        for alias, target in self.aliases:
            if _norm(alias) == wanted:
                return target
        raise IllegalOrder(order, "not one of the choices", self.texts())

    def legal(self, limit: int = 10_000) -> list[str] | None:
        return self.texts() if len(self.options) <= limit else None

    def sample(self, rng: random.Random) -> str:
        return self.options[int(rng.random() * len(self.options))].text

    def to_dict(self) -> dict[str, Any]:
        d = Decision.to_dict(self)
        d["options"] = [o.to_dict() for o in self.options]
        return d


@dataclass(frozen=True, slots=True)
class Slot:
    """A named slot taking `minimum`..`maximum` points, in lots of `step` (a slot whose points
    come two at a time, such as a special defence that costs 2 CF, has step 2: 0 or 2)."""

    name: str
    maximum: int
    minimum: int = 0
    step: int = 1
    label: str = ""  # what a form shows beside the name ("Disarm (A), arms")

    def takes(self, value: int) -> bool:
        return self.minimum <= value <= self.maximum and (value - self.minimum) % self.step == 0


@dataclass(frozen=True, slots=True)
class SlotGroup:
    """A cap that several slots share (say, all defences), with the rule that sets it:
    `maximum` points together and, with `max_used`, at most that many of them used (one attack
    per body area; one special attack a phase). With `above`, a slot counts as used only with
    more than that many points (at most one attack over 8 CF)."""

    slots: tuple[str, ...]
    maximum: int
    why: str = ""
    label: str = ""  # what a form calls the group ("defence")
    max_used: int | None = None
    above: int = 0

    def in_use(self, amounts: Mapping[str, int]) -> int:
        """How many of its slots count as used."""
        return sum(1 for n in self.slots if amounts[n] > self.above)


_SLOT_ITEM = re.compile(r"^([A-Z][A-Z0-9_-]*)\s*[:=]\s*(-?\d+)$")


@dataclass(frozen=True, slots=True)
class Distribute(Decision):
    """Spend up to `budget` points across named slots, each within its limits.

    Notation: `head:3 chest:2 arms:1` (slots left out get 0). With `exact`, the whole budget
    must be spent. `max_used` caps how many slots may receive points (e.g. at most 5 attacks);
    each of `groups` caps what its slots take together (points, and how many are used); a slot
    with a `step` takes its points in lots of that size.
    """

    kind: ClassVar[str] = "distribute"
    budget: int = 0
    slots: tuple[Slot, ...] = ()
    exact: bool = False
    max_used: int | None = None
    groups: tuple[SlotGroup, ...] = ()

    def names(self) -> list[str]:
        return [s.name for s in self.slots]

    def parse(self, order: str) -> dict[str, int]:
        wanted = _norm(order)
        by_name = {s.name.upper(): s for s in self.slots}
        amounts = {s.name: 0 for s in self.slots}
        if wanted in ("", "-", "NONE"):
            return amounts
        for item in wanted.replace(",", " ").split():
            m = _SLOT_ITEM.match(item)
            if m is None:
                raise IllegalOrder(order, f"cannot read {item!r}; write slot:points", self.names())
            slot = by_name.get(m.group(1))
            if slot is None:
                raise IllegalOrder(order, f"no slot named {m.group(1)!r}", self.names())
            amounts[slot.name] += int(m.group(2))
        return amounts

    def format(self, amounts: dict[str, int]) -> str:
        parts = [f"{s.name}:{amounts[s.name]}" for s in self.slots if amounts.get(s.name, 0)]
        return " ".join(parts) if parts else "-"

    def validate(self, order: str) -> str:
        amounts = self.parse(order)
        for s in self.slots:
            v = amounts[s.name]
            if not s.minimum <= v <= s.maximum:
                raise IllegalOrder(order, f"{s.name} must be {s.minimum}..{s.maximum}, not {v}")
            if not s.takes(v):
                raise IllegalOrder(order, f"{s.name} takes points {s.step} at a time, not {v}")
        total = sum(amounts.values())
        if total > self.budget:
            raise IllegalOrder(order, f"spends {total} of a budget of {self.budget}")
        if self.exact and total != self.budget:
            raise IllegalOrder(order, f"must spend exactly {self.budget}, not {total}")
        used = sum(1 for v in amounts.values() if v)
        if self.max_used is not None and used > self.max_used:
            raise IllegalOrder(order, f"at most {self.max_used} slots may be used, not {used}")
        for g in self.groups:
            taken = sum(amounts[n] for n in g.slots)
            why = f" ({g.why})" if g.why else ""
            if taken > g.maximum:
                raise IllegalOrder(
                    order, f"{', '.join(g.slots)} may take {g.maximum} together, not {taken}{why}"
                )
            if g.max_used is not None and g.in_use(amounts) > g.max_used:
                over = f" with more than {g.above}" if g.above else ""
                raise IllegalOrder(
                    order, f"at most {g.max_used} of {', '.join(g.slots)} may be used{over}{why}"
                )
        return self.format(amounts)

    def legal(self, limit: int = 10_000) -> list[str] | None:
        ranges = [range(s.minimum, s.maximum + 1, s.step) for s in self.slots]
        size = 1
        for r in ranges:
            size *= len(r)
            if size > limit * 50:
                return None
        out: list[str] = []
        for combo in itertools.product(*ranges):
            amounts = dict(zip(self.names(), combo, strict=True))
            try:
                out.append(self.validate(self.format(amounts)))
            except IllegalOrder:
                continue
            if len(out) > limit:
                return None
        return out

    def sample(self, rng: random.Random) -> str:
        for _ in range(32):
            order = self._try_sample(rng)
            if order is not None:
                return order
        # A tight corner (exact budget, few usable slots): draw from the full list instead.
        legal = self.legal()
        if not legal:
            raise ValueError(f"no legal way to distribute: {self.prompt}")
        return legal[int(rng.random() * len(legal))]

    def _try_sample(self, rng: random.Random) -> str | None:
        amounts = {s.name: s.minimum for s in self.slots}
        remaining = self.budget - sum(amounts.values())
        target = remaining if self.exact else int(rng.random() * (remaining + 1))
        # Slots with a minimum are used whatever happens, so they count against max_used.
        forced = [s for s in self.slots if s.minimum > 0]
        free = [s for s in self.slots if s.minimum <= 0]
        rng.shuffle(free)
        if self.max_used is not None:
            free = free[: max(0, self.max_used - len(forced))]
        allowed = forced + free
        # Each group's room left and slots used, and the groups each slot belongs to (by index:
        # a group's hash is its whole tuple of names).
        groups = self.groups
        left = [g.maximum - sum(amounts[n] for n in g.slots) for g in groups]
        used = [g.in_use(amounts) for g in groups]
        member: dict[str, list[int]] = {s.name: [] for s in self.slots}
        for i, g in enumerate(groups):
            for n in dict.fromkeys(g.slots):
                member[n].append(i)
        spent = 0
        while spent < target:
            room = [
                s
                for s in allowed
                if amounts[s.name] + s.step <= s.maximum and spent + s.step <= target
            ]
            if left:
                room = [s for s in room if self._group_room(s, amounts[s.name], left, used, member)]
            if not room:
                break
            pick = room[int(rng.random() * len(room))]
            before = amounts[pick.name]
            amounts[pick.name] += pick.step
            spent += pick.step
            for i in member[pick.name]:
                left[i] -= pick.step
                if before <= groups[i].above < before + pick.step:
                    used[i] += 1
        try:
            return self.validate(self.format(amounts))
        except IllegalOrder:
            return None

    def _group_room(
        self, s: Slot, now: int, left: list[int], used: list[int], member: dict[str, list[int]]
    ) -> bool:
        """Whether one more lot on `s` (holding `now`) keeps every group it belongs to within
        its caps: `left` and `used` are each group's room and slots used, by index."""
        for i in member[s.name]:
            if left[i] < s.step:
                return False
            g = self.groups[i]
            if g.max_used is not None and now <= g.above < now + s.step and used[i] >= g.max_used:
                return False
        return True

    def to_dict(self) -> dict[str, Any]:
        d = Decision.to_dict(self)
        d.update(
            budget=self.budget,
            exact=self.exact,
            max_used=self.max_used,
            slots=[_slot_dict(s) for s in self.slots],
        )
        if self.groups:
            d["groups"] = [_group_dict(g) for g in self.groups]
        return d


def _slot_dict(s: Slot) -> dict[str, Any]:
    d: dict[str, Any] = {"name": s.name, "min": s.minimum, "max": s.maximum}
    if s.step != 1:  # written only where used, so older decisions read as before
        d["step"] = s.step
    if s.label:
        d["label"] = s.label
    return d


def _group_dict(g: SlotGroup) -> dict[str, Any]:
    d: dict[str, Any] = {"slots": list(g.slots), "max": g.maximum, "why": g.why, "label": g.label}
    if g.max_used is not None:
        d["max_used"] = g.max_used
    if g.above:
        d["above"] = g.above
    return d


_HEX_TEXT = re.compile(r"^\(?\s*(-?\d+)\s*[, ]\s*(-?\d+)\s*\)?$")


@dataclass(frozen=True, slots=True)
class PickHex(Decision):
    """Choose one hex among a set. Notation: `q,r`."""

    kind: ClassVar[str] = "hex"
    hexes: tuple[Hex, ...] = ()

    @staticmethod
    def format(h: Hex) -> str:
        return f"{h.q},{h.r}"

    def validate(self, order: str) -> str:
        m = _HEX_TEXT.match(order.strip())
        legal = [self.format(h) for h in self.hexes]
        if m is None:
            raise IllegalOrder(order, "write a hex as q,r", legal)
        h = Hex(int(m.group(1)), int(m.group(2)))
        if h not in self.hexes:
            raise IllegalOrder(order, "not one of the hexes offered", legal)
        return self.format(h)

    def legal(self, limit: int = 10_000) -> list[str] | None:
        return [self.format(h) for h in self.hexes] if len(self.hexes) <= limit else None

    def sample(self, rng: random.Random) -> str:
        return self.format(self.hexes[int(rng.random() * len(self.hexes))])

    def to_dict(self) -> dict[str, Any]:
        d = Decision.to_dict(self)
        d["hexes"] = [[h.q, h.r] for h in self.hexes]
        return d


@dataclass(frozen=True, slots=True)
class Arrange(Decision):
    """Put every item in an order of one's choice (e.g. which attack to resolve first).

    Notation: the items separated by spaces, first to last.
    """

    kind: ClassVar[str] = "arrange"
    items: tuple[str, ...] = field(default=())

    def validate(self, order: str) -> str:
        got = _norm(order).replace(",", " ").split()
        canon = {i.upper(): i for i in self.items}
        if sorted(got) != sorted(canon):
            raise IllegalOrder(order, "name every item exactly once", [" ".join(self.items)])
        return " ".join(canon[g] for g in got)

    def legal(self, limit: int = 10_000) -> list[str] | None:
        out: list[str] = []
        for perm in itertools.permutations(self.items):
            out.append(" ".join(perm))
            if len(out) > limit:
                return None
        return out

    def sample(self, rng: random.Random) -> str:
        items = list(self.items)
        rng.shuffle(items)
        return " ".join(items)

    def to_dict(self) -> dict[str, Any]:
        d = Decision.to_dict(self)
        d["items"] = list(self.items)
        return d
