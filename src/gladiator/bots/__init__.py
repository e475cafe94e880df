"""Bots by name: they play any ruleset through the protocol. Besides the built-in ones, any
installed package may offer bots in the `gladiator.bots` entry-point group (docs/bots.md)."""

from __future__ import annotations

from collections.abc import Callable

from gladiator.bots.base import Bot
from gladiator.bots.colosseum_centurion import CenturionBot
from gladiator.bots.greedy import GreedyBot
from gladiator.bots.plugins import BotLoadError, plugin_factories
from gladiator.bots.random_legal import RandomBot
from gladiator.bots.smmcts import SearchBot
from gladiator.bots.tactician import TacticianBot, Weights

__all__ = [
    "ABLATIONS",
    "BOTS",
    "Bot",
    "BotLoadError",
    "best_bot",
    "load_plugins",
    "make_bot",
    "offered",
    "plays",
]


def _solver() -> Bot:
    # Imported when asked for: it brings in scipy, which every other command can do without.
    from gladiator.bots.solver_bot import SolverBot

    return SolverBot()


def _tactician(**off: bool) -> Callable[[], Bot]:
    """The tactician with some of the Advanced Game's orders switched off (issue 38's studies:
    what nets or specials are worth to it)."""
    return lambda: TacticianBot(Weights(**off))


BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "tactician": TacticianBot,  # Colosseum only; random legal elsewhere
    "centurion": CenturionBot,  # Colosseum §29's charts; random legal elsewhere
    "solver": _solver,  # Colosseum: tactician + the §9.3 allocation matrix game (AS3)
    "search": SearchBot,  # SM-MCTS with regret matching; thinks for `budget` CPU seconds
    # Ablations for studies (issue 38): the tactician without its nets, its specials, or all of
    # what issue 38 taught it (nets, specials, beasts, team play).
    "tactician-nonets": _tactician(nets=False),
    "tactician-nospecials": _tactician(specials=False),
    "tactician-plain": _tactician(nets=False, specials=False, beasts=False, teams=False),
}


BUILT_IN = frozenset(BOTS)
# Bots for studies, named in `sim --bots` and the like but never offered to a player (the web
# lobby) nor played in a default ladder.
ABLATIONS = frozenset({"tactician-nonets", "tactician-nospecials", "tactician-plain"})


def offered() -> list[str]:
    """The bot names a player may choose from (every bot but the ablations), sorted."""
    return sorted(b for b in BOTS if b not in ABLATIONS)


def load_plugins() -> list[str]:
    """Add the bots of the `gladiator.bots` entry points to BOTS (a built-in name wins); the
    names added. A plugin is imported only when first made, so a broken one fails then, with
    a BotLoadError that names it, and never stops the others."""
    for name in [n for n in BOTS if n not in BUILT_IN]:
        del BOTS[name]
    added = plugin_factories(BUILT_IN)
    BOTS.update(added)
    return sorted(added)


def plays(name: str, ruleset_name: str) -> bool:
    """Whether the bot really plays this ruleset (not just random legal orders there)."""
    kinds = make_bot(name).rulesets
    return kinds is None or ruleset_name.strip().lower() in kinds


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


load_plugins()
