"""Terminal play (cli/play.py): the compact redraw (redraw.py) and the order history
(line_editing.py), driven by a scripted stdin."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from gladiator import registry
from gladiator.cli.line_editing import history_file, order_history
from gladiator.cli.main import app
from gladiator.cli.meanings import meaning
from gladiator.cli.redraw import changes
from gladiator.server.fault_injection import inject

runner = CliRunner()

# The Colosseum in the terminal against the random bot, seed 3: both log sheets are printed.
SHEET_LINE = "armour T1 roll 4"


def _play(script: str) -> str:
    result = runner.invoke(
        app, ["play", "colosseum", "--seed", "3", "--vs", "random"], input=script
    )
    assert result.exit_code == 0, result.output
    return result.output


def test_the_board_and_sheets_are_printed_once_then_only_what_changed() -> None:
    out = _play("X\n" * 4 + "q\n")
    # §7.4 X four times: four phases played, the sheets shown in full once.
    assert out.count("(red) red: plot turn 1 phase 5") == 1
    assert out.count(SHEET_LINE) == 1
    # Each phase still shows what it changed: the turn record line of red's sheet.
    assert "turn 1  1:X  2:X" in out


def test_board_redraws_everything() -> None:
    out = _play("X\nboard\nq\n")
    assert out.count(SHEET_LINE) == 2
    assert "(red) red: plot turn 1 phase 2" in out


def test_help_and_mistakes_do_not_redraw() -> None:
    out = _play("?\nF F F\nq\n")
    assert out.count(SHEET_LINE) == 1
    assert "'F F F' is illegal" in out and "board redraws everything" in out


def test_changes_prints_new_blocks_whole_and_old_ones_by_changed_line() -> None:
    old = "Turn 1\n\n·  ·\n R ·\n\nred CF 10\nblue CF 12\n\n#1 red\nCF now 10\nturn 1 1:X"
    new = "Turn 2\n\n·  R\n ·  ·\n\nred CF 10\nblue CF 9\n\n#1 red\nCF now 10\nturn 1 1:X 2:F"
    assert changes(None, new) == new
    assert changes(new, new) == ""
    shown = changes(old, new).split("\n\n")
    assert shown == ["Turn 2", "·  R\n ·  ·", "red CF 10\n  blue CF 9", "#1 red\n  turn 1 1:X 2:F"]


def test_history_is_kept_per_ruleset_in_the_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.delenv("GLADIATOR_HISTORY", raising=False)
    with order_history("colosseum", persist=True) as rl:
        assert rl is not None
        rl.add_history("F F(R)")
        rl.add_history("A3:head A2:chest D2:arms D1:legs")
    path = tmp_path / "gladiator" / "history-colosseum"
    assert history_file("colosseum") == path
    assert path.read_text().splitlines()[-2:] == ["F F(R)", "A3:head A2:chest D2:arms D1:legs"]
    with order_history("colosseum", persist=True) as rl:
        assert rl is not None and rl.get_current_history_length() == 2
        assert rl.get_history_item(1) == "F F(R)"
    with order_history("quick", persist=True) as rl:
        assert rl is not None and rl.get_current_history_length() == 0


def test_history_stays_in_the_session_when_asked_or_piped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("GLADIATOR_HISTORY", "off")
    with order_history("colosseum", persist=True) as rl:
        assert rl is not None
        rl.add_history("X")
    assert history_file("colosseum") is None and not (tmp_path / "gladiator").exists()
    monkeypatch.delenv("GLADIATOR_HISTORY")
    _play("X\nq\n")  # stdin is not a terminal: nothing written
    assert not (tmp_path / "gladiator").exists()
    assert history_file("../etc") is None


def test_help_gives_every_colosseum_plot_its_meaning() -> None:
    out = _play("?\nq\n")
    # §7.2.2: the rotation is taken where it is written.
    assert "turn one hex-side right (clockwise), then forward one hex" in out  # (R)F
    assert "forward one hex (§7.3), then turn one hex-side right" in out  # F(R)
    assert "pause: stay in the hex" in out  # X


def test_meaning_reads_tokens_in_the_order_written() -> None:
    from gladiator import registry

    words = registry.get("colosseum").glossary()
    assert meaning("X(2L)", words).startswith("pause")
    assert "throw the weapon" in meaning("X +TW-HEAD", words)
    assert meaning("RO-FL", words).endswith("left-front")
    assert meaning("F Q", words) == ""


def test_an_engine_fault_costs_the_decision_not_the_game() -> None:
    """Ruling HF1 in the terminal: the decision is voided and asked again; play goes on."""
    inject("colosseum", r"^X$")
    try:
        out = _play("X\nF\nq\n")
    finally:
        registry.unregister("colosseum")
    assert out.count("The rules engine failed on this decision") == 1
    assert "InjectedFault" in out
    assert out.count("(red) red: plot turn 1 phase 1") == 2  # asked again after the fault
    assert "(red) red: plot turn 1 phase 2" in out  # then F was played
