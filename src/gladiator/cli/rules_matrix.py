"""`gladiator rules matrix colosseum`: the feature by shape matrix (issue 27, shape_matrix.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from gladiator.cli.common import fail, write_page

__all__ = ["rules_matrix_command"]


def rules_matrix_command(
    ruleset: Annotated[str, typer.Argument(help="The ruleset (colosseum).")],
    markdown_file: Annotated[
        Path | None,
        typer.Option("--markdown", help="Also write the matrix as a Markdown page to this file."),
    ] = None,
) -> None:
    """Each Advanced Game feature in each shape (duel, 2 v 2, 6 v 6, hunt, pack): the seed of a
    biased random-legal match that shows it, or the ruling that leaves it out."""
    from gladiator.sim.shape_matrix import markdown, matrix

    name = ruleset.strip().lower()
    if name != "colosseum":
        fail(f"no feature matrix for {ruleset!r}; try: colosseum")
    cells = matrix()
    for c in cells:
        typer.echo(f"{c.feature:18} {c.shape:5} {c.text()}")
    gaps = sum(1 for c in cells if c.status == "missing")
    typer.echo(f"{len(cells)} cells, {gaps} gaps")
    if markdown_file is not None:
        write_page(
            markdown_file, f"gladiator rules matrix {name}", lambda line: markdown(cells, line)
        )
        typer.echo(f"wrote {markdown_file}")
