"""Bots from other packages: the `gladiator.bots` entry-point group (docs/bots.md).

An entry point `NAME = "package.module:Factory"` names a callable that takes no arguments and
returns a `Bot` (a Bot subclass is one). It is imported when the bot is first made, so that a
package that fails to import costs only its own bot, with a message that says which.
"""

from __future__ import annotations

from collections.abc import Callable, Set
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gladiator.bots.base import Bot

__all__ = ["GROUP", "BotLoadError", "plugin_factories"]

GROUP = "gladiator.bots"


class BotLoadError(ValueError):
    """A plugin bot that cannot be loaded or made (a ValueError: the CLI says it in a line)."""


def plugin_factories(taken: Set[str]) -> dict[str, Callable[[], Bot]]:
    """A lazy factory per entry point whose name is not taken (by a built-in bot)."""
    out: dict[str, Callable[[], Bot]] = {}
    for ep in entry_points(group=GROUP):
        name = ep.name.strip().lower()
        if name and name not in taken and name not in out:
            out[name] = _lazy(name, ep)
    return out


def _lazy(name: str, ep: EntryPoint) -> Callable[[], Bot]:
    def make() -> Bot:
        from gladiator.bots.base import Bot

        try:
            factory = ep.load()
            bot = factory()
        except Exception as exc:  # any failure of someone else's package: one clear line
            raise BotLoadError(
                f"bot {name!r} (entry point {ep.value!r}) failed to load: "
                f"{type(exc).__name__}: {exc}"
            ) from exc
        if not isinstance(bot, Bot):
            raise BotLoadError(
                f"bot {name!r} (entry point {ep.value!r}) made a {type(bot).__name__}, not a Bot"
            )
        return bot

    make.__name__ = f"plugin_{name}"
    return make
