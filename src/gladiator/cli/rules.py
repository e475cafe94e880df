"""`gladiator rules ...`: the rulesets this build knows, how far code and tests cite each section
of a rule document (`coverage`), and the Colosseum's feature-by-shape matrix (`matrix`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from gladiator import registry
from gladiator.cli.common import fail, write_page
from gladiator.cli.rules_matrix import rules_matrix_command

__all__ = ["rules_app"]

console = Console()

rules_app = typer.Typer(
    add_completion=False, invoke_without_command=True, help="The rulesets and their coverage."
)


@rules_app.callback()
def rules(ctx: typer.Context) -> None:
    """The rulesets this build knows."""
    if ctx.invoked_subcommand is None:
        for name in registry.names():
            rs = registry.get(name)
            console.print(f"{name:10} {rs.title} (version {rs.version})")


@rules_app.command("coverage")
def rules_coverage(
    ruleset: Annotated[str, typer.Argument(help="A ruleset with a sections list (colosseum).")],
    tests: Annotated[Path, typer.Option(help="The test folder to scan.")] = Path("tests"),
    missing_only: Annotated[
        bool, typer.Option("--missing", help="Only rules that code or tests do not cite.")
    ] = False,
    markdown_file: Annotated[
        Path | None,
        typer.Option("--markdown", help="Also write the report as a Markdown page to this file."),
    ] = None,
) -> None:
    """Each section of the rule document, with the code and tests that cite it."""
    from gladiator.coverage import (
        CoverageError,
        coverage,
        has_sections,
        markdown,
        part_line,
        part_totals,
        sections_parts,
        totals,
    )

    name = ruleset.strip().lower()
    if not has_sections(name):
        fail(f"no sections list for {ruleset!r}; try: colosseum")
    if not tests.is_dir():
        fail(f"no test folder {str(tests)!r}; give one with --tests")
    try:
        rows = coverage(name, tests)
        parts = sections_parts(name)
    except CoverageError as exc:
        fail(str(exc))
    t = Table(title=f"{name}: rules coverage")
    for col in ("section", "title", "kind", "code", "tests"):
        t.add_column(col)
    for row in rows:
        if missing_only and not row.missing:
            continue
        code = ", ".join(row.code) or ("—" if not row.is_rule else "none")
        if row.is_rule and row.code and not row.coded:
            code += " (a table only)"
        t.add_row(
            f"§{row.number}",
            row.title,
            row.kind,
            code,
            ", ".join(row.tests) or ("—" if not row.is_rule else "none"),
        )
    console.print(t)
    summary = totals(rows)
    console.print(summary.line(), highlight=False)
    for part in part_totals(parts, rows):
        console.print(part_line(*part), highlight=False, soft_wrap=True)
    console.print(summary.breakdown(), highlight=False)
    if markdown_file is not None:
        command = f"gladiator rules coverage {name}"
        write_page(markdown_file, command, lambda line: markdown(name, rows, line, parts))
        console.print(f"wrote {markdown_file}", highlight=False)


rules_app.command("matrix")(rules_matrix_command)  # cli/rules_matrix.py: issue 27
