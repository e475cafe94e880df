"""A match in the terminal, for any ruleset, through the protocol: humans type orders in the
ruleset's notation, bots answer for the other seats, and every illegal entry is answered with
what is legal.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from gladiator.bots import Bot
from gladiator.cli.meanings import meaning
from gladiator.cli.redraw import changes
from gladiator.core.decisions import ChooseOne, Decision, IllegalOrder
from gladiator.core.match import EngineFault, Match

__all__ = ["Abandoned", "TerminalGame"]

Ask = Callable[[str, bool], str]


class Abandoned(Exception):
    """The player quit (q, end of input or Ctrl-C)."""


class TerminalGame:
    def __init__(
        self,
        match: Match,
        humans: set[str],
        bots: Mapping[str, Bot],
        console: Console,
        ask: Ask,
        *,
        bot_seed: int = 0,
        budgets: Mapping[str, float | None] | None = None,
    ) -> None:
        self.match = match
        self.humans = humans
        self.bots = bots
        self.budgets = dict(budgets or {})  # seat -> CPU seconds a decision (None: the bot's)
        self.console = console
        self.ask = ask
        self.rng = random.Random(bot_seed)
        self.shown = 0
        self.rolls_shown = 0
        self.screen: str | None = None  # the board and sheets as last printed (redraw.py)
        # Orders of decisions the engine failed on, by step and seat (ruling HF1): a bot is
        # never given one again, so it cannot fail the same way forever.
        self.faulted: dict[tuple[int, str], set[str]] = {}

    def run(self, save: Path | None = None) -> None:
        m = self.match
        self.console.print(
            Panel(
                f"{m.ruleset.title}\nseed commitment {m.commitment}\n"
                f"you play: {', '.join(sorted(self.humans)) or 'nobody'}; type ? for help, "
                "board to redraw everything",
                title="gladiator",
            )
        )
        try:
            while not m.finished:
                self._show()
                try:
                    self._decide()
                except EngineFault as fault:
                    self._voided(fault)
            self._show()
            outcome = m.outcome
            assert outcome is not None
            self.console.print(Panel(Text(outcome.summary), title="the end"))
            self.console.print(f"seed {m.seed}, nonce {m.nonce} (check: gladiator verify FILE)")
        finally:
            if save is not None:
                try:
                    save.write_text(m.record().to_json())
                    self.console.print(f"record saved to {save}", markup=False)
                except OSError as exc:
                    self.console.print(f"could not save the record to {save}: {exc.strerror}")

    def _decide(self) -> None:
        """Every seat's order for the current decision, humans asked, bots thinking."""
        m = self.match
        pending = m.pending()
        hotseat = len(self.humans & set(pending)) > 1
        for seat in m.waiting_for():
            decision = pending[seat]
            if seat in self.humans:
                self._human(seat, decision, hotseat)
                continue
            order = self.bots[seat].choose(
                m.ruleset, m.state, seat, decision, self.rng, budget=self.budgets.get(seat)
            )
            bad = self.faulted.get((len(m.steps), seat), set())
            if m.check(seat, order) in bad:
                order = next((o for o in decision.candidates(self.rng) if o not in bad), order)
            m.submit(seat, order)
            if not decision.secret:
                self.console.print(
                    f"{seat} ({self.bots[seat].name}): {order}", style="dim", markup=False
                )

    def _voided(self, fault: EngineFault) -> None:
        """HF1: nothing of the decision was played; every seat of it is asked again."""
        for seat, order in fault.orders.items():
            self.faulted.setdefault((fault.step, seat), set()).add(order)
        self.console.print(
            f"The rules engine failed on this decision ({fault.reason}), so nothing of it was "
            "played: every order of it is voided. Give your orders again.",
            style="red",
            highlight=False,
            markup=False,
        )

    def _show(self, full: bool = False) -> None:
        """New dice and events, then the board and sheets: in full the first time (or asked),
        after that only what changed (redraw.py)."""
        m = self.match
        new = m.events[self.shown :]
        self.shown = len(m.events)
        rolls = m.rolls[self.rolls_shown :]
        self.rolls_shown = len(m.rolls)
        for r in rolls:
            self.console.print(f"  ⚄ {r}", style="dim", highlight=False, markup=False)
        for e in new:
            self.console.print(f"  {e['text']}", highlight=False, markup=False)
        if m.finished:
            return
        text = m.ruleset.render_text(m.state, None)
        shown = text if full else changes(self.screen, text)
        self.screen = text
        if shown:
            self.console.print(shown, highlight=False, markup=False)

    def _human(self, seat: str, decision: Decision, hotseat: bool) -> None:
        secret = decision.secret and hotseat
        if secret:
            self.console.clear()
            self.ask(f"Hand the keyboard to {seat} and press Enter", False)
        while True:
            text = self.ask(f"({seat}) {decision.prompt}", secret).strip()
            if text.lower() in ("q", "quit", "exit"):
                raise Abandoned
            if text in ("?", "help", ""):
                self._help(decision)
                continue
            if text.lower() in ("board", "redraw"):
                self._show(full=True)
                continue
            try:
                self.match.submit(seat, text)
            except IllegalOrder as exc:
                self.console.print(str(exc), style="red", highlight=False, markup=False)
                continue
            break
        if secret:
            self.console.clear()
            self.console.print(f"{seat} has given a secret order.")

    def _help(self, decision: Decision) -> None:
        if isinstance(decision, ChooseOne):
            table = Table("order", "meaning", title=decision.prompt)
            glossary = getattr(self.match.ruleset, "glossary", None)
            words = glossary() if callable(glossary) else {}
            for o in decision.options:
                table.add_row(o.text, o.label or meaning(o.text, words))
            for note in words.get("notes", []):
                self.console.print(note, highlight=False, markup=False)
            self.console.print(table)
        else:
            legal: list[Any] | None = decision.legal(40)
            self.console.print(decision.to_dict() if legal is None else ", ".join(legal))
        self.console.print("board redraws everything; Up and Down recall earlier entries; q quits.")
