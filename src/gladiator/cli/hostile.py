"""`gladiator hostile`: the hostile run of issue 28 (server/hostile.py), its figures as JSON."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated

import typer

from gladiator.cli.common import fail, print_json

__all__ = ["hostile_command"]


def hostile_command(
    matches: Annotated[
        int, typer.Option(min=1, max=100, help="Matches of each shape (duel, 2v2, beast, pack).")
    ] = 12,
    seed: Annotated[int, typer.Option(min=0, help="Match and client seeds derive from it.")] = 1,
    pattern: Annotated[
        str | None,
        typer.Option(
            help="The injected fault: the engine fails on every decision with an order "
            r"matching this regular expression (default: \(L\)F)."
        ),
    ] = None,
    time_limit: Annotated[
        float, typer.Option(min=10, help="Seconds before the clients give up.")
    ] = 900.0,
    keep: Annotated[
        Path | None,
        typer.Option(help="Keep the database and the server's logs in this folder."),
    ] = None,
    out: Annotated[Path | None, typer.Option(help="Also write the JSON here.")] = None,
) -> None:
    """A `gladiator serve` whose Colosseum engine fails on purpose, played to the end by
    clients that send random offered orders and malformed, oversized, foreign-seat and
    not-offered ones, restarted halfway: HTTP 5xx, closes without a close frame, tracebacks
    other than the engine faults' log lines, and matches left unplayable; as JSON."""
    from gladiator.server.hostile import DEFAULT_PATTERN, run_hostile

    chosen = DEFAULT_PATTERN if pattern is None else pattern
    try:
        re.compile(chosen)
    except re.error as exc:
        fail(f"--pattern {chosen!r} is not a regular expression: {exc}")
    try:
        result = run_hostile(matches, seed, pattern=chosen, time_limit=time_limit, folder=keep)
    except RuntimeError as exc:  # the server did not start
        fail(str(exc))
    print_json(result, out)
