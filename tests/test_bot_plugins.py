"""Bots from other packages (bots.plugins): the `gladiator.bots` entry-point group."""

from __future__ import annotations

import random
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from typing import Any

import pytest

import gladiator.bots.plugins as plugins
from gladiator import bots, registry
from gladiator.bots.random_legal import RandomBot


class EchoBot(RandomBot):
    """A plugin bot: random legal orders, under another name."""

    name = "echo"


def not_a_bot() -> object:
    return object()


def _eps(*specs: tuple[str, str]) -> list[EntryPoint]:
    return [EntryPoint(name, value, plugins.GROUP) for name, value in specs]


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    def install(*specs: tuple[str, str]) -> list[str]:
        monkeypatch.setattr(plugins, "entry_points", lambda group: _eps(*specs))
        return bots.load_plugins()

    yield install
    monkeypatch.undo()
    bots.load_plugins()  # back to what is really installed


def test_a_plugin_bot_is_made_and_plays(installed: Any) -> None:
    added = installed(("echo", f"{__name__}:EchoBot"))
    assert added == ["echo"] and "echo" in bots.BOTS
    bot = bots.make_bot("echo")
    assert isinstance(bot, EchoBot)
    rs = registry.get("quick")
    from gladiator.core.dice import Dice

    state, _ = rs.initial_state(rs.normalise_options({}), Dice(1))
    seat, decision = next(iter(rs.pending(state).items()))
    decision.validate(bot.choose(rs, state, seat, decision, random.Random(1)))
    assert bots.plays("echo", "skirmish")


def test_a_plugin_never_replaces_a_built_in_bot(installed: Any) -> None:
    assert installed(("greedy", f"{__name__}:EchoBot")) == []
    assert type(bots.make_bot("greedy")).__name__ == "GreedyBot"


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("no_such_module_xyz:Bot", "ModuleNotFoundError"),
        (f"{__name__}:Missing", "AttributeError"),
        (f"{__name__}:not_a_bot", "not a Bot"),
    ],
)
def test_a_broken_plugin_fails_with_a_clear_error(installed: Any, value: str, says: str) -> None:
    installed(("broken", value), ("echo", f"{__name__}:EchoBot"))
    with pytest.raises(bots.BotLoadError) as exc:
        bots.make_bot("broken")
    message = str(exc.value)
    assert "'broken'" in message and value in message and says in message
    assert "\n" not in message
    assert isinstance(bots.make_bot("echo"), EchoBot)  # the others still load


def test_plugins_are_gone_once_uninstalled(installed: Any) -> None:
    installed(("echo", f"{__name__}:EchoBot"))
    assert installed() == [] and "echo" not in bots.BOTS
