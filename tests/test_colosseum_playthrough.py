"""A whole Colosseum match played through the terminal front end against a bot; its transcript
(every event and every roll) is kept in tests/playthroughs/colosseum_terminal.txt, so any change
of behaviour shows as a diff to read (§5.2 phase order, §9.5 CRT, §10.1 wounds, §17.2, §18)."""

from __future__ import annotations

import io
import random
from pathlib import Path

from rich.console import Console

from gladiator.bots import make_bot
from gladiator.cli.play import TerminalGame
from gladiator.core.match import Match
from gladiator.registry import get

TRANSCRIPT = Path(__file__).parent / "playthroughs" / "colosseum_terminal.txt"


def play() -> tuple[Match, str]:
    match = Match(get("colosseum"), {"gladiators": ["medium", "heavy"]}, seed=20, nonce="")

    def ask(prompt: str, secret: bool) -> str:
        """The human at red's keyboard: gives the first legal order (or, for an allocation too
        large to list, a fixed draw among the legal ones)."""
        decision = match.pending()["red"]
        legal = decision.legal(10_000)
        return legal[0] if legal else decision.sample(random.Random(0))

    out = io.StringIO()
    game = TerminalGame(
        match,
        {"red"},
        {"blue": make_bot("random")},
        Console(file=out, width=100),
        ask,
        bot_seed=7,
    )
    game.run()
    return match, out.getvalue()


def transcript(match: Match) -> list[str]:
    lines = [str(e["text"]) for e in match.events[1:]]
    lines += [str(r) for r in match.rolls]
    return lines


def test_terminal_playthrough_reaches_an_outcome_and_shows_the_log_sheets() -> None:
    match, screen = play()
    assert match.finished
    assert "the end" in screen
    assert "shield damage" in screen  # the log sheet panel (§3.17)
    assert any("§17.2" in line or "§9.5" in line for line in transcript(match))


def test_terminal_playthrough_transcript_is_unchanged() -> None:
    match, _ = play()
    assert transcript(match) == TRANSCRIPT.read_text().splitlines()
