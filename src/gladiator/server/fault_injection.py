"""Engine faults on demand, to prove that no engine fault breaks a match (ruling HF1).

`inject("colosseum", r"\\+TN")` registers, under the ruleset's own name, a copy of it whose
`apply` raises `InjectedFault` whenever an order of the decision contains a match of the
pattern, before it changes anything. `gladiator serve --inject-fault RULESET:PATTERN` does this
in a server process (a testing aid; the hostile run of docs/web.md uses it), and the tests wrap
a ruleset the same way. Nothing else changes: tables, digests and records are the ruleset's.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

from gladiator import registry
from gladiator.core.dice import Dice
from gladiator.core.protocol import Event, Ruleset, Seat

__all__ = ["InjectedFault", "faulty", "inject", "parse_injection"]


class InjectedFault(RuntimeError):
    """The fault an injected ruleset raises: an engine bug on purpose."""


def faulty(base: Ruleset[Any], pattern: str) -> Ruleset[Any]:
    """A copy of `base` whose apply raises InjectedFault on a decision with an order matching
    `pattern` (a regular expression, searched)."""
    found = re.compile(pattern)
    cls = type(base)

    def apply(
        self: Ruleset[Any],
        state: Any,
        orders: Mapping[Seat, str],
        dice: Dice,
        *,
        quiet: bool = False,
    ) -> list[Event]:
        hit = next((f"{s}: {o}" for s, o in orders.items() if found.search(o)), None)
        if hit is not None:
            raise InjectedFault(f"injected engine fault on {hit!r} (pattern {pattern!r})")
        return cls.apply(self, state, orders, dice, quiet=quiet)

    wrapper = type(f"Faulty{cls.__name__}", (cls,), {"apply": apply})
    twin = copy.copy(base)
    twin.__class__ = wrapper
    return twin


def parse_injection(text: str) -> tuple[str, str]:
    """`RULESET:PATTERN` -> (ruleset, pattern); ValueError (one line) if it is not that."""
    name, sep, pattern = text.partition(":")
    if not sep or not pattern:
        raise ValueError(f"--inject-fault takes RULESET:PATTERN, not {text!r}")
    registry.get(name)  # UnknownRuleset (a ValueError) names the known ones
    try:
        re.compile(pattern)
    except re.error as exc:
        raise ValueError(
            f"--inject-fault: {pattern!r} is not a regular expression: {exc}"
        ) from None
    return name.strip().lower(), pattern


def inject(name: str, pattern: str) -> Ruleset[Any]:
    """Register the faulty copy of ruleset `name` in its place; returns it
    (`registry.unregister(name)` brings the real one back)."""
    twin = faulty(registry.get(name), pattern)
    registry.register(twin)
    return twin
