"""Bots by name: they play any ruleset through the protocol."""

from __future__ import annotations

from collections.abc import Callable

from gladiator.bots.base import Bot
from gladiator.bots.colosseum_centurion import CenturionBot
from gladiator.bots.colosseum_tactician import TacticianBot
from gladiator.bots.greedy import GreedyBot
from gladiator.bots.random_legal import RandomBot
from gladiator.bots.smmcts import SearchBot

__all__ = ["BOTS", "Bot", "best_bot", "make_bot"]

BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "tactician": TacticianBot,  # Colosseum only; random legal elsewhere
    "centurion": CenturionBot,  # Colosseum §29's charts; random legal elsewhere
    "search": SearchBot,  # SM-MCTS with regret matching; thinks for `budget` CPU seconds
}


def make_bot(name: str) -> Bot:
    try:
        return BOTS[name.strip().lower()]()
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(sorted(BOTS))}") from None


# The generic greedy bot, except where a ruleset has a player of its own that is both stronger
# and fast enough to play at once (in the terminal, the arena, or thousands of simulated matches).
_BEST = {"colosseum": "tactician"}


def best_bot(ruleset_name: str) -> str:
    """The bot to play a ruleset when none is named."""
    return _BEST.get(ruleset_name.strip().lower(), "greedy")
