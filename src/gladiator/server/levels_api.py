"""`GET /api/levels`: the bot levels the lobby offers per seat, and what each is per ruleset."""

from __future__ import annotations

from typing import Any

from gladiator import registry
from gladiator.bots.levels import DEFAULT_LEVEL, LEVELS, levels_for

__all__ = ["levels_api"]


def levels_api() -> dict[str, Any]:
    return {
        "levels": list(LEVELS),
        "default": DEFAULT_LEVEL,
        "rulesets": {
            name: [
                {
                    "level": lv.level,
                    "bot": lv.spec.text,
                    "budget": lv.budget,
                    "fallback": lv.fallback,
                }
                for lv in levels_for(name)
            ]
            for name in registry.names()
        },
    }
