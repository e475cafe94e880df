"""`gladiator replay` and `gladiator verify`: a saved match record read back, as a transcript or
checked against its seed commitment by a bit-for-bit replay."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from gladiator import registry
from gladiator.cli.common import UserError, fail
from gladiator.core.match import Match, ReplayMismatch
from gladiator.core.record import MatchRecord, RecordError

__all__ = ["read_record", "replay_command", "verify_command"]

console = Console()


def read_record(path: Path) -> MatchRecord:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"no such file: {path}") from None
    except IsADirectoryError:
        raise UserError(f"{path} is a folder, not a record file") from None
    except UnicodeDecodeError:
        raise UserError(f"{path} is not a match record (not UTF-8 text)") from None
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror}") from None
    return MatchRecord.from_json(text)


def replay_command(path: Annotated[Path, typer.Argument(help="A match record (JSON).")]) -> None:
    """Print a saved match's transcript: every event, then the result."""
    try:
        rec = read_record(path)
        registry.get(rec.ruleset)
    except (UserError, ValueError) as exc:
        fail(str(exc))
        return
    for i, step in enumerate(rec.steps):
        line = "  ".join(f"{s}: {o}" for s, o in step.items())
        console.print(f"{i:4d} {line}", highlight=False, markup=False)
    for e in rec.events:
        console.print(str(e.get("text", e)), highlight=False, markup=False)
    if rec.outcome:
        console.print(f"result: {rec.outcome.get('summary')}", highlight=False, markup=False)


def verify_command(
    path: Annotated[Path, typer.Argument(help="A finished match record (JSON).")],
) -> None:
    """Check a finished record: its seed against the commitment, then a bit-for-bit replay."""
    try:
        rec = read_record(path)
        rs = registry.get(rec.ruleset)
        m = Match.replay(rec, rs)
    except ReplayMismatch as exc:
        good = "" if exc.step is None else f"; the {exc.step} steps before it replay exactly"
        fail(f"{path}: {exc}{good}")
        return
    except (UserError, RecordError, ValueError) as exc:
        fail(f"{path}: {exc}")
        return
    console.print(
        f"ok: {path} — seed matches its commitment, {len(rec.steps)} orders and "
        f"{len(rec.rolls)} rolls replay exactly; final state {m.ruleset.state_hash(m.state)[:16]}"
    )
