"""Bot levels: easy, normal and hard, per ruleset, each a bot and a thinking budget.

easy is a weak bot (random legal in the generic rulesets; the rulebook's own §29 centurion in
the Colosseum, weaker than the tactician by the ladder), normal the ruleset's best heuristic
bot (`best_bot`), hard the search bot with a budget per decision (in the Colosseum too since
MC10). Where the hard bot is not
installed (the search bot lives on its own branch until merged), hard falls back to normal,
and says so (`Level.fallback`).
"""

from __future__ import annotations

from dataclasses import dataclass

from gladiator.bots.spec import BotSpec

__all__ = ["DEFAULT_LEVEL", "LEVELS", "Level", "level_for", "levels_for"]

LEVELS = ("easy", "normal", "hard")
DEFAULT_LEVEL = "normal"

# (bot, budget in CPU seconds a decision; None: the bot's default). "best" is best_bot's choice.
_EASY = {"colosseum": ("centurion", None)}
_HARD = ("search", 1.0)
# MC10 (revisiting LD6): the search bot now beats the tactician in the Colosseum too
# (docs/ai/search-colosseum.json), so hard is the search bot in every ruleset.
_HARD_BY_RULESET: dict[str, tuple[str, float | None]] = {}


@dataclass(frozen=True)
class Level:
    level: str
    bot: str
    budget: float | None
    fallback: bool = False  # the level's own bot is not installed: this is the next best

    @property
    def spec(self) -> BotSpec:
        return BotSpec(self.bot, self.budget)


def level_for(ruleset_name: str, level: str) -> Level:
    """The bot and budget of a level in a ruleset; ValueError (one line) for an unknown level."""
    from gladiator.bots import BOTS, best_bot, plays

    rs = ruleset_name.strip().lower()
    name = level.strip().lower()
    if name == "easy":
        bot, budget = _EASY.get(rs, ("random", None))
        return Level(name, bot, budget)
    if name == "normal":
        return Level(name, best_bot(rs), None)
    if name == "hard":
        bot, budget = _HARD_BY_RULESET.get(rs, _HARD)
        if bot in BOTS and plays(bot, rs):
            return Level(name, bot, budget)
        return Level(name, best_bot(rs), None, fallback=True)
    raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")


def levels_for(ruleset_name: str) -> list[Level]:
    return [level_for(ruleset_name, name) for name in LEVELS]
