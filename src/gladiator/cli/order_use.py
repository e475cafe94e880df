"""`gladiator order-use`: how often Colosseum bots write the Advanced Game's orders where they are
offered (net attacks, Repel Net, §22's specials), with each bot's and style's results, as JSON
(sim/order_use.py, issue 38)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from gladiator.cli.common import UserError, fail, parse_options, print_json

__all__ = ["order_use_command"]


def order_use_command(
    bots: Annotated[str, typer.Option(help="Bot per seat, comma-separated.")] = "tactician",
    matches: Annotated[int, typer.Option(min=1, help="How many matches.")] = 200,
    seed: Annotated[int, typer.Option(min=0, help="Batch seed.")] = 1,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="A match option KEY=VALUE.")
    ] = None,
    duplicate: Annotated[
        bool, typer.Option(help="Each deal twice, the bots swapping sides (sim --duplicate).")
    ] = False,
    budget: Annotated[
        float | None, typer.Option(min=0.01, help="CPU seconds a decision (the search bot).")
    ] = None,
    out: Annotated[Path | None, typer.Option(help="Also write the JSON here.")] = None,
) -> None:
    """Colosseum matches, counting per bot the net attacks, Repel Nets and §22 specials it
    wrote where they were offered."""
    from gladiator.bots import BOTS
    from gladiator.sim.order_use import order_use

    try:
        names = [b.strip().lower() for b in bots.split(",") if b.strip()]
        for b in names:
            if b not in BOTS:
                raise UserError(f"unknown bot {b!r}; known: {', '.join(sorted(BOTS))}")
        if not names:
            raise UserError("--bots needs at least one bot name")
        if duplicate and matches % 2:
            raise UserError("--duplicate plays each deal twice: give an even --matches")
        opts = parse_options("colosseum", [*(option or []), "advanced=true"])
        result = order_use(opts, matches, seed, names, duplicate=duplicate, budget=budget)
    except (UserError, ValueError) as exc:
        fail(str(exc))
    result["command"] = "gladiator order-use " + " ".join(
        [f"--bots {bots}", f"--matches {matches}", f"--seed {seed}"]
        + [f"-o '{o}'" for o in option or []]
        + (["--duplicate"] if duplicate else [])
        + ([f"--budget {budget:g}"] if budget is not None else [])
    )
    print_json(result, out)
