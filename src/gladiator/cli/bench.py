"""`gladiator bench` and `gladiator bench-compare`: the benchmark of one build, and an old build
against this one; with `--shape`, once per Colosseum match shape (sim/shapes.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from gladiator import registry
from gladiator.bots import BOTS
from gladiator.cli.common import UserError, err, fail, print_json

__all__ = ["bench_command", "bench_compare_command"]

_SHAPE_HELP = (
    "Colosseum match shapes, comma-separated, or all: basic, advanced-duel, advanced-2v2, "
    "advanced-6v6, hunt, pack (default: the Basic Game, as JSON without shapes)."
)


def _gc(gc: str) -> str:
    if gc not in ("tuned", "default"):
        raise UserError(f"--gc must be tuned or default, not {gc!r}")
    return gc


def _bots(bots: str | None) -> tuple[str, ...] | None:
    if bots is None:
        return None
    names = tuple(b.strip().lower() for b in bots.split(",") if b.strip())
    for b in names:
        if b not in BOTS:
            raise UserError(f"unknown bot {b!r}; known: {', '.join(sorted(BOTS))}")
    return names


def _shapes(ruleset: str, shape: str | None) -> tuple[str, ...] | None:
    from gladiator.sim.shapes import parse_shapes

    return None if shape is None else parse_shapes(ruleset, shape)


def bench_command(
    ruleset: Annotated[str, typer.Argument()] = "quick",
    matches: Annotated[int, typer.Option(min=1)] = 1000,
    seed: int = 1,
    gc: Annotated[
        str, typer.Option(help="tuned (as `sim` runs) or default: the collector for timed runs.")
    ] = "tuned",
    bots: Annotated[
        str | None,
        typer.Option(
            help="Bots to bench, comma-separated (default: all of them; with --shape, random)."
        ),
    ] = None,
    shape: Annotated[str | None, typer.Option(help=_SHAPE_HELP)] = None,
    out: Annotated[Path | None, typer.Option(help="Also write the JSON here.")] = None,
) -> None:
    """Matches and decisions per second on one core, on the unchecked (sim) path and the checked
    (Match) path, engine microseconds per die thrown, and the dice floor, as JSON."""
    from gladiator.sim.bench import run_bench
    from gladiator.sim.shapes import run_bench_shapes

    result: dict[str, Any]
    try:
        registry.get(ruleset)
        tune_gc = _gc(gc) == "tuned"
        bot_names = _bots(bots)
        shapes = _shapes(ruleset, shape)
        if shapes is None:
            result = run_bench(ruleset, matches, seed, bot_names, tune_gc=tune_gc)
        else:
            result = run_bench_shapes(shapes, matches, seed, bot_names, tune_gc=tune_gc)
    except (UserError, ValueError) as exc:
        fail(str(exc))
    print_json(result, out)


def bench_compare_command(
    baseline: Annotated[
        Path, typer.Option(help="The old build: a checkout with its own .venv (or uv).")
    ],
    ruleset: Annotated[str, typer.Argument()] = "quick",
    new: Annotated[
        Path | None, typer.Option(help="The new build (default: this checkout).")
    ] = None,
    matches: Annotated[int, typer.Option(min=1)] = 200,
    reps: Annotated[int, typer.Option(min=1, help="Repetitions of each build, interleaved.")] = 5,
    seed: Annotated[int, typer.Option(min=0)] = 1,
    gc: Annotated[str, typer.Option(help="default or tuned, alike for both builds.")] = "default",
    shape: Annotated[str | None, typer.Option(help=_SHAPE_HELP)] = None,
    out: Annotated[Path | None, typer.Option(help="Also write the JSON here.")] = None,
) -> None:
    """Old and new build side by side: the same workload in each build's own Python, in
    alternating subprocesses; medians and the ratios new/old, as JSON. With --shape, each
    build reads the shape's options itself: the old one needs no --shape of its own."""
    from gladiator.sim.compare import run_compare
    from gladiator.sim.shapes import run_compare_shapes

    def on_rep(rep: int, name: str) -> None:
        err.print(f"rep {rep + 1}/{reps}: {name} build", style="dim")

    def on_shape(name: str) -> None:
        err.print(f"shape {name}", style="dim")

    result: dict[str, Any]
    try:
        registry.get(ruleset)
        kwargs: dict[str, Any] = dict(matches=matches, seed=seed, reps=reps, gc=_gc(gc))
        shapes = _shapes(ruleset, shape)
        if shapes is None:
            result = run_compare(baseline, new, ruleset=ruleset, on_rep=on_rep, **kwargs)
        else:
            result = run_compare_shapes(
                shapes, baseline, new, on_shape=on_shape, on_rep=on_rep, **kwargs
            )
    except (UserError, ValueError) as exc:
        fail(str(exc))
    print_json(result, out)
