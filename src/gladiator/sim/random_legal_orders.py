"""Random orders drawn from a decision's own description, as a front end receives it.

The random-legal checker (random_legal_play.py) must play exactly what a human is offered, so it
reads only `Decision.to_dict()` (the JSON the server puts in a view) and never calls the
decision's own `sample`: an order the decision then refuses although it keeps every limit the
description states is a finding (a rule the description does not say), not the harness's fault.

What each kind's description allows (core/decisions.py, docs/web.md):

choose      one of `options`, by its `text`
hex         one of `hexes`, written `q,r`
arrange     every one of `items`, in any order, separated by spaces
distribute  `slots` (name, min, max, step) within `budget` (spent whole with `exact`), at most
            `max_used` slots used, each of `groups` within its `max` and at most its `max_used`
            slots holding more than its `above` (0: any points); written `NAME:points`
            separated by spaces, `-` for nothing

Any other kind, or a description field outside these, cannot be read by a generic front end;
`unread_fields` names such fields so that a run can report them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = [
    "KNOWN_FIELDS",
    "Unsampleable",
    "keeps_limits",
    "sample_order",
    "unread_fields",
]

# The fields a generic front end reads, per kind; the base fields every decision has.
_BASE = frozenset({"kind", "prompt", "secret", "time_limit", "on_timeout"})
KNOWN_FIELDS: dict[str, frozenset[str]] = {
    "choose": _BASE | {"options"},
    "hex": _BASE | {"hexes"},
    "arrange": _BASE | {"items"},
    "distribute": _BASE | {"budget", "exact", "max_used", "slots", "groups"},
}
# The fields of the entries of a description's lists (an option, a slot, a group).
_ENTRY_FIELDS: dict[str, frozenset[str]] = {
    "options": frozenset({"text", "label", "hex", "path", "facing"}),
    "slots": frozenset({"name", "min", "max", "step", "label"}),
    "groups": frozenset({"slots", "max", "why", "label", "max_used", "above"}),
}
_TRIES = 64  # fresh draws before a distribute description is taken as unsatisfiable


class Unsampleable(Exception):
    """A decision whose description alone does not say how to draw an order from it."""


def unread_fields(description: Mapping[str, Any]) -> list[str]:
    """The description's fields a generic front end does not know, and those of the entries
    of its lists (`slots.extra`), sorted."""
    known = KNOWN_FIELDS.get(str(description.get("kind")), _BASE)
    out = set(description) - known
    for name, fields in _ENTRY_FIELDS.items():
        for entry in description.get(name) or []:
            if isinstance(entry, Mapping):
                out.update(f"{name}.{f}" for f in set(entry) - fields)
    return sorted(out)


def sample_order(description: Mapping[str, Any], rng: random.Random) -> str:
    """A random order of the described decision, uniformly over the offered choices (choose,
    hex, arrange) or over the totals and then lot by lot (distribute). Unsampleable if the
    kind is unknown or the description offers nothing."""
    kind = description.get("kind")
    if kind == "choose":
        options = description.get("options") or []
        if not options:
            raise Unsampleable("a choose decision that offers no options")
        return str(rng.choice(options)["text"])
    if kind == "hex":
        hexes = description.get("hexes") or []
        if not hexes:
            raise Unsampleable("a hex decision that offers no hexes")
        q, r = rng.choice(hexes)
        return f"{q},{r}"
    if kind == "arrange":
        items = [str(i) for i in description.get("items") or []]
        rng.shuffle(items)
        return " ".join(items)
    if kind == "distribute":
        return _sample_distribute(description, rng)
    raise Unsampleable(f"decision kind {kind!r} has no generic description to draw from")


def _sample_distribute(d: Mapping[str, Any], rng: random.Random) -> str:
    slots = list(d.get("slots") or [])
    for _ in range(_TRIES):
        amounts = _draw_amounts(d, slots, rng)
        if amounts is not None and keeps_limits(d, amounts):
            used = [s["name"] for s in slots if amounts[s["name"]]]
            rng.shuffle(used)  # any order of the items is the same assignment (or, Q25, legal)
            return " ".join(f"{n}:{amounts[n]}" for n in used) or "-"
    raise Unsampleable(
        f"no assignment within the stated limits found in {_TRIES} draws "
        f"(budget {d.get('budget')}, exact {d.get('exact')}, {len(slots)} slots)"
    )


def _draw_amounts(
    d: Mapping[str, Any], slots: Sequence[Mapping[str, Any]], rng: random.Random
) -> dict[str, int] | None:
    """One draw: every slot at its minimum, a total drawn uniformly from what is left (all of it
    when `exact`), then lots of each slot's step added to a random slot with room until the
    total is reached or no slot has room."""
    amounts = {str(s["name"]): int(s.get("min", 0)) for s in slots}
    budget = int(d.get("budget", 0))
    start = sum(amounts.values())
    if start > budget:
        return None
    target = budget if d.get("exact") else rng.randint(start, budget)
    spent = start
    while spent < target:
        room = [s for s in slots if _has_room(d, s, amounts, target - spent)]
        if not room:
            break
        pick = rng.choice(room)
        amounts[str(pick["name"])] += int(pick.get("step", 1))
        spent += int(pick.get("step", 1))
    return amounts


def _has_room(
    d: Mapping[str, Any], slot: Mapping[str, Any], amounts: Mapping[str, int], left: int
) -> bool:
    """Whether one more lot on `slot` keeps the slot, the budget, `max_used` and every group
    the slot belongs to within their stated limits."""
    name, step = str(slot["name"]), int(slot.get("step", 1))
    if step > left or amounts[name] + step > int(slot["max"]):
        return False
    opens = amounts[name] == 0
    max_used = d.get("max_used")
    if opens and max_used is not None and sum(1 for v in amounts.values() if v) >= max_used:
        return False
    for g in d.get("groups") or []:
        members = [str(n) for n in g["slots"]]
        if name not in members:
            continue
        if sum(amounts[n] for n in members) + step > int(g["max"]):
            return False
        cap, above = g.get("max_used"), int(g.get("above", 0))
        crosses = amounts[name] <= above < amounts[name] + step  # it comes to count as used
        if crosses and cap is not None and _in_use(members, amounts, above) >= cap:
            return False
    return True


def _in_use(members: Sequence[str], amounts: Mapping[str, int], above: int) -> int:
    return sum(1 for n in members if amounts.get(n, 0) > above)


def keeps_limits(d: Mapping[str, Any], amounts: Mapping[str, int]) -> bool:
    """Whether an assignment keeps every limit a distribute description states."""
    total = 0
    for s in d.get("slots") or []:
        v, low, step = amounts.get(str(s["name"]), 0), int(s.get("min", 0)), int(s.get("step", 1))
        if not low <= v <= int(s["max"]) or (v - low) % step:
            return False
        total += v
    budget = int(d.get("budget", 0))
    if total > budget or (d.get("exact") and total != budget):
        return False
    used = sum(1 for v in amounts.values() if v)
    if d.get("max_used") is not None and used > int(d["max_used"]):
        return False
    for g in d.get("groups") or []:
        members = [str(n) for n in g["slots"]]
        if sum(amounts.get(n, 0) for n in members) > int(g["max"]):
            return False
        cap = g.get("max_used")
        if cap is not None and _in_use(members, amounts, int(g.get("above", 0))) > int(cap):
            return False
    return True
