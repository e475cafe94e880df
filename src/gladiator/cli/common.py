"""What every `gladiator` subcommand shares: a user's mistake reported as one line on stderr
with exit status 2 (never a traceback), and `-o KEY=VALUE` options read the same way.

Kept apart from cli.main so the subcommand modules that main registers need not import it back.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

__all__ = [
    "UserError",
    "err",
    "fail",
    "number",
    "parse_options",
    "print_json",
    "write_page",
]

err = Console(stderr=True)


class UserError(Exception):
    """A mistake in what the user gave: reported in one line."""


def fail(message: str) -> NoReturn:
    err.print(f"error: {message}", highlight=False, markup=False, soft_wrap=True)
    raise typer.Exit(2)


def write_page(path: Path, command: str, page: Callable[[str], str]) -> None:
    """Write a generated Markdown page, `page(line)` given the command line that regenerates
    it (`command` with `--markdown PATH` added): the path as given, relative where it is under
    the working folder, never a path of this machine; a path it cannot write is one line."""
    shown = path
    if shown.is_absolute():
        try:
            shown = shown.relative_to(Path.cwd())
        except ValueError:
            shown = Path(shown.name)
    try:
        path.write_text(page(f"{command} --markdown {shown.as_posix()}"), encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {str(path)!r}: {exc.strerror or exc}")


def parse_options(
    ruleset: str, option: list[str] | None, gladiators: str | None = None
) -> dict[str, Any]:
    """`-o KEY=VALUE` (VALUE as JSON where it parses, else text) and `--gladiators a,b`,
    normalised by the ruleset (ValueError, one line, for an option it refuses)."""
    from gladiator import registry

    raw: dict[str, Any] = {}
    for item in option or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UserError(f"--option wants KEY=VALUE, not {item!r}")
        try:
            raw[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            raw[key.strip()] = value
        except RecursionError:
            raise UserError(f"--option {key.strip()}: value nested too deeply") from None
    if gladiators:
        if "gladiators" in raw:
            raise UserError("give the gladiators once: --gladiators or --option gladiators=...")
        raw["gladiators"] = [g.strip().lower() for g in gladiators.split(",") if g.strip()]
    return registry.get(ruleset).normalise_options(raw)


def number(flag: str, text: str) -> float:
    """A finite number given as text for `flag`; ValueError (one line) otherwise."""
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{flag} must be a number, not {text!r}") from None
    if not math.isfinite(value):
        raise ValueError(f"{flag} must be a finite number, not {text!r}")
    return value


def print_json(result: Any, out: Path | None) -> None:
    """Print a result as JSON, and also write it to `out` when given."""
    text = json.dumps(result, indent=1)
    if out is not None:
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(text + "\n")
        except OSError as exc:
            fail(f"cannot write {out}: {exc.strerror}")
    print(text)


def progress(*, quiet: bool = False) -> Progress:
    """A progress bar on stderr; none when the output is JSON for a program."""
    return Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=quiet,
        disable=quiet,
    )
