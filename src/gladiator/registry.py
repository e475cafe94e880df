"""Rulesets by name. Layers above the rules look rulesets up here and nowhere else.

It sits above `core` (which knows no ruleset) and imports each ruleset package on first use.
"""

from __future__ import annotations

import importlib
from typing import Any

from gladiator.core.protocol import Ruleset

__all__ = ["UnknownRuleset", "get", "names", "register", "unregister"]

# "module:Class", imported on first use so that starting the CLI does not load every ruleset,
# and so that no ruleset needs to import this module (imports point down only).
_KNOWN: dict[str, str] = {
    "quick": "gladiator.rules.quick:QuickRules",
    "skirmish": "gladiator.rules.skirmish:SkirmishRules",
    "colosseum": "gladiator.rules.colosseum:ColosseumRules",
}

_REGISTRY: dict[str, Ruleset[Any]] = {}


class UnknownRuleset(ValueError):
    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(f"unknown ruleset {name!r}; known: {', '.join(names())}")


def register(ruleset: Ruleset[Any]) -> None:
    _REGISTRY[ruleset.name] = ruleset


def unregister(name: str) -> None:
    """Forget a ruleset registered at run time (a built-in one is loaded again on next use)."""
    _REGISTRY.pop(name, None)


def names() -> list[str]:
    return sorted(set(_KNOWN) | set(_REGISTRY))


def get(name: str) -> Ruleset[Any]:
    key = name.strip().lower()
    if key not in _REGISTRY and key in _KNOWN:
        module, _, cls = _KNOWN[key].partition(":")
        register(getattr(importlib.import_module(module), cls)())
    try:
        return _REGISTRY[key]
    except KeyError:
        raise UnknownRuleset(name) from None
