"""`GET /api/bots[?ruleset=NAME]`: the bots a seat may name; with a ruleset, only those that
really play it (`Bot.rulesets`), so the lobby never offers the Colosseum's tactician for a
quick match, where it would answer with random legal orders."""

from __future__ import annotations

from gladiator import registry
from gladiator.bots import BotLoadError, offered, plays

__all__ = ["bots_api"]


def bots_api(ruleset: str | None = None) -> list[str]:
    """Every bot name (sorted), or those that play `ruleset` (registry.UnknownRuleset for a
    ruleset that is not installed). A plugin bot that fails to load is left out of a ruleset's
    list: it plays nothing."""
    if ruleset is None:
        return offered()
    name = registry.get(ruleset).name
    out = []
    for bot in offered():
        try:
            if plays(bot, name):
                out.append(bot)
        except BotLoadError:
            continue
    return out
