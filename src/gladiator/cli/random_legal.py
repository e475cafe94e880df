"""`gladiator random-legal`: the random-legal play checker of the Colosseum Advanced Game in
every match shape (issue 27, sim/random_legal_play.py), a table per shape and the failures as
JSON. Exit status 0 when every match played passed, 1 when one failed, 2 for a bad argument."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from gladiator.cli.common import fail, progress

__all__ = ["random_legal_command"]

console = Console()
_CAUSES_SHOWN = 12
_SHOWN_CHARS = 160


def _whole(flag: str, text: str, low: int, high: int) -> int:
    """A whole number for `flag` within low..high, or the one-line refusal (exit 2)."""
    try:
        value = int(text)
    except ValueError:
        fail(f"{flag} must be a whole number, not {text!r}")
    if not low <= value <= high:
        fail(f"{flag} must be {low}..{high}, not {value}")
    return value


def random_legal_command(
    matches: Annotated[
        str, typer.Option(metavar="N", help="Matches in all, spread over the shapes.")
    ] = "300",
    seed: Annotated[str, typer.Option(metavar="S", help="Every match derives from it.")] = "1",
    shape: Annotated[
        str,
        typer.Option(help="Shapes, comma-separated: duel, 2v2, 6v6, hunt, pack, solitaire."),
    ] = "duel,2v2,6v6,hunt,pack,solitaire",
    workers: Annotated[str, typer.Option(metavar="W", help="Processes to play in.")] = "1",
    out: Annotated[Path | None, typer.Option(help="Write the JSON report here.")] = None,
    examples: Annotated[
        str, typer.Option(metavar="K", help="Failed matches written in full to the JSON.")
    ] = "5",
) -> None:
    """Play Colosseum Advanced matches in which every seat gives an order drawn at random from
    what its decision offers; check that each is accepted and applied, that the match ends,
    that its record replays exactly, and that no secret order shows in another seat's view."""
    from gladiator.sim.random_legal_batch import parse_shapes, plan, run_specs, summarise

    n = _whole("--matches", matches, 1, 100_000)
    s = _whole("--seed", seed, 0, 2**63 - 1)
    w = _whole("--workers", workers, 1, 256)
    k = _whole("--examples", examples, 0, 1000)
    try:
        shapes = parse_shapes(shape)
    except ValueError as exc:
        fail(str(exc))
    specs = plan(n, s, shapes)
    started = time.monotonic()
    with progress() as progress_bar:
        task = progress_bar.add_task("random-legal", total=len(specs))
        results = run_specs(specs, w, lambda _: progress_bar.advance(task))
    report = {
        "seed": s,
        "matches": n,
        "shapes": list(shapes),
        "workers": w,
        "seconds": round(time.monotonic() - started, 1),
        **summarise(results, examples=k),
    }
    _print(report)
    if out is not None:
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps(report, indent=1) + "\n")
        except OSError as exc:
            fail(f"cannot write {out}: {exc.strerror}")
        console.print(f"wrote {out}", highlight=False)
    if any(row["failed"] for row in report["by_shape"].values()):
        raise typer.Exit(1)


def _print(report: dict[str, Any]) -> None:
    from gladiator.sim.random_legal_batch import PAIRINGS
    from gladiator.sim.random_legal_shapes import STYLES

    table = Table(title=f"random-legal play, seed {report['seed']} ({report['seconds']} s)")
    for name in ("shape", "matches", "passed", "failed", "refused by the rules"):
        table.add_column(name, justify="left" if name == "shape" else "right")
    table.add_column("failed matches by check")
    for shape, row in report["by_shape"].items():
        checks = ", ".join(f"{c} {n}" for c, n in row["by_check"].items()) or "-"
        table.add_row(
            shape,
            str(row["matches"]),
            str(row["passed"]),
            str(row["failed"]),
            str(row["refused"]),
            checks,
        )
    console.print(table)
    duel = report["by_shape"].get("duel")
    if duel is not None:
        console.print(
            f"duel pairings of the {len(STYLES)} styles: {duel['pairings_met']} of "
            f"{len(PAIRINGS)} met, {duel['pairings_played']} playable (the rest refused by the "
            "options: §19.2.3, §28.2)",
            highlight=False,
        )
    causes = Table(title="distinct failures, by cause (matches)")
    for name in ("matches", "cause", "shapes", "first seen"):
        causes.add_column(name, justify="right" if name == "matches" else "left")
    for c in report["causes"][:_CAUSES_SHOWN]:
        shapes = ", ".join(f"{s} {n}" for s, n in c["shapes"].items())
        first = (c["example"]["message"] or "").splitlines()[:1]
        causes.add_row(str(c["matches"]), c["cause"], shapes, "".join(first)[:_SHOWN_CHARS])
    if report["causes"]:
        console.print(causes)
