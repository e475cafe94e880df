"""Bot levels (bots.levels) and bot specs NAME[@BUDGET] (bots.spec)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from gladiator import bots, registry
from gladiator.bots.levels import LEVELS, level_for, levels_for
from gladiator.bots.random_legal import RandomBot
from gladiator.bots.spec import BotSpec, parse_spec
from gladiator.cli.main import app


class FakeSearch(RandomBot):
    name = "search"


@pytest.mark.parametrize("ruleset", registry.names())
def test_every_level_resolves_to_a_bot_that_plays_the_ruleset(ruleset: str) -> None:
    found = levels_for(ruleset)
    assert [lv.level for lv in found] == list(LEVELS)
    for lv in found:
        assert lv.bot in bots.BOTS and bots.plays(lv.bot, ruleset)
        assert parse_spec(lv.spec.text) == lv.spec
    assert level_for(ruleset, "normal").bot == bots.best_bot(ruleset)


def test_easy_is_weak_and_hard_falls_back_to_normal_without_the_search_bot() -> None:
    assert level_for("quick", "easy").bot == "random"
    assert level_for("colosseum", "easy").bot == "centurion"
    if "search" not in bots.BOTS:
        hard = level_for("skirmish", "hard")
        assert hard.fallback and hard.bot == "greedy" and hard.budget is None


def test_hard_is_the_search_bot_with_a_budget_once_it_is_there(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(bots.BOTS, "search", FakeSearch)
    hard = level_for("quick", "HARD ")
    assert (hard.bot, hard.budget, hard.fallback) == ("search", 1.0, False)
    assert hard.spec.text == "search@1"
    # MC10 (revisiting LD6): the search bot is the Colosseum's hard level too
    assert level_for("colosseum", "hard").spec.text == "search@1"


def test_an_unknown_level_is_one_line() -> None:
    with pytest.raises(ValueError, match="unknown level 'expert'; levels: easy, normal, hard"):
        level_for("quick", "expert")


def test_bot_specs_read_old_bare_names_and_budgets() -> None:
    assert parse_spec("Greedy") == BotSpec("greedy")
    assert parse_spec("random@0.25") == BotSpec("random", 0.25)
    assert BotSpec("random", 0.25).text == "random@0.25"
    for bad, says in [
        ("nobody", "unknown bot"),
        ("random@fast", "must be seconds"),
        ("random@-1", "positive"),
        ("random@nan", "positive"),
    ]:
        with pytest.raises(ValueError, match=says):
            parse_spec(bad)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--level", "expert"], "unknown level 'expert'"),
        (["--level", "easy", "--vs", "random"], "give --vs or --level, not both"),
    ],
)
def test_play_level_bad_input_is_one_line(args: list[str], says: str) -> None:
    result = CliRunner().invoke(app, ["play", "quick", *args], input="q\n")
    assert result.exit_code == 2
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and says in lines[0]


@pytest.mark.parametrize(
    ("ruleset", "level", "bot", "budget"),
    [("colosseum", "easy", "centurion", None), ("quick", "hard", "search", 1.0)],
)
def test_play_against_a_level_plays_its_bot_with_its_budget(
    monkeypatch: pytest.MonkeyPatch, ruleset: str, level: str, bot: str, budget: float | None
) -> None:
    import gladiator.cli.play as play

    monkeypatch.setitem(bots.BOTS, "search", FakeSearch)
    seen: dict[str, object] = {}

    class Captured:
        def __init__(
            self, match: object, humans: set[str], players: dict, *a: object, **kw: object
        ):
            seen.update(humans=humans, players=players, budgets=kw.get("budgets"))

        def run(self, save: object = None) -> None:
            pass

    monkeypatch.setattr(play, "TerminalGame", Captured)
    result = CliRunner().invoke(app, ["play", ruleset, "--level", level, "--seed", "3"])
    assert result.exit_code == 0, result.stderr
    players = seen["players"]
    assert isinstance(players, dict) and len(players) == 1
    ((seat, player),) = players.items()
    assert player.name == bot
    assert seen["budgets"] == {seat: budget}
