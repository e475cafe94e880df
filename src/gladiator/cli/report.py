"""`gladiator report RULESET`: a balance report for designers, from a batch played here or read
from Parquet (`--from`): report.html, report.pdf and report.json in one folder.

A played batch is kept beside the report as batch.parquet, so the report can be drawn again
from it (`--from DIR/batch.parquet`) without playing the matches again.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

from gladiator.cli.common import UserError, err, parse_options
from gladiator.cli.common import fail as _fail

__all__ = ["report"]


def _options(ruleset: str, option: list[str] | None) -> dict[str, Any]:
    return parse_options(ruleset, option)


def _generated() -> str:
    """The report's timestamp: the one thing that differs between two reports of one batch."""
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def report(
    ruleset: Annotated[str, typer.Argument(help="Which rules: see `gladiator rules`.")],
    matches: Annotated[int | None, typer.Option(min=1, help="How many matches (1000).")] = None,
    seed: Annotated[int | None, typer.Option(min=0, help="Batch seed (1).")] = None,
    bots: Annotated[
        str | None,
        typer.Option(help="Bot per seat, comma-separated (default: the ruleset's best)."),
    ] = None,
    jobs: Annotated[int, typer.Option(min=1, help="Local processes.")] = 1,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="A match option KEY=VALUE (repeatable)."),
    ] = None,
    from_path: Annotated[
        Path | None,
        typer.Option("--from", help="Report on this batch (Parquet file or batch folder)."),
    ] = None,
    out: Annotated[
        Path | None, typer.Option(help="Folder for the report (default: report-RULESET).")
    ] = None,
    pdf: Annotated[bool, typer.Option("--pdf/--no-pdf", help="Also write report.pdf.")] = True,
) -> None:
    """A balance report: win rates by matchup and facet, lengths, endings, seat advantage."""
    try:
        folder = out if out is not None else Path(f"report-{ruleset.strip().lower()}")
        if folder.exists() and not folder.is_dir():
            raise UserError(f"--out {folder}: exists and is not a folder")
        if from_path is not None:
            if option or bots is not None or matches is not None or seed is not None:
                raise UserError(
                    "--from reports on a batch as it was played: give no -o, --bots, "
                    "--matches or --seed with it"
                )
            batch, results = _read(ruleset, from_path)
        else:
            opts = _options(ruleset, option)
            n = 1000 if matches is None else matches
            batch, results = _play(ruleset, opts, n, 1 if seed is None else seed, bots, jobs)
        from gladiator.sim.balance_report import build_report
        from gladiator.sim.report_files import write_report

        numbers = build_report(results, batch)
        written = write_report(numbers, folder, generated=_generated(), pdf=pdf)
        if from_path is None:
            written.append(_keep_batch(folder, batch, results))
    except (UserError, ValueError, OSError) as exc:
        _fail(str(exc))
        return
    for path in written:
        err.print(f"wrote {path}", highlight=False, markup=False)


def _read(ruleset: str, path: Path) -> tuple[Any, list[Any]]:
    from gladiator import registry
    from gladiator.sim.balance_report import BatchInfo
    from gladiator.sim.results_table import read_results

    rs = registry.get(ruleset)
    if not path.exists():
        raise UserError(f"--from {path}: no such file or folder")
    meta, results = read_results(path)
    if not results:
        raise UserError(f"--from {path}: no matches in it")
    if meta is not None and meta.ruleset != rs.name:
        raise UserError(f"--from {path}: a {meta.ruleset} batch, not {rs.name}")
    if meta is None:  # a bare table: what we know of it is the ruleset it was asked for
        return BatchInfo(rs.name, {}, [], None, len(results), str(rs.version)), results
    info = BatchInfo(
        rs.name, meta.options, meta.bots, meta.seed, meta.matches, str(rs.version), meta.extra
    )
    return info, results


def _play(
    ruleset: str, opts: dict[str, Any], matches: int, seed: int, bots: str | None, jobs: int
) -> tuple[Any, list[Any]]:
    from gladiator import registry
    from gladiator.bots import BOTS
    from gladiator.sim.balance_report import BatchInfo
    from gladiator.sim.runner import default_bots, run_batch

    rs = registry.get(ruleset)
    names = default_bots(rs.name) if bots is None else [b.strip().lower() for b in bots.split(",")]
    names = [b for b in names if b]
    if not names:
        raise UserError("--bots needs at least one bot name")
    for b in names:
        if b not in BOTS:
            raise UserError(f"unknown bot {b!r}; known: {', '.join(sorted(BOTS))}")
    columns = (BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress("[progress.description]{task.description}", *columns, console=err) as progress:
        task = progress.add_task(f"{rs.name} matches", total=matches)
        results = run_batch(
            rs.name,
            opts,
            matches,
            seed,
            names,
            jobs=jobs,
            on_progress=lambda k: progress.advance(task, k),
        )
    return BatchInfo(rs.name, opts, names, seed, matches, str(rs.version)), results


def _keep_batch(folder: Path, batch: Any, results: list[Any]) -> Path:
    import pyarrow.parquet as pq

    from gladiator.sim.results_table import BatchMeta, to_table

    meta = BatchMeta(batch.ruleset, batch.options, batch.bots, batch.seed, batch.matches)
    path = folder / "batch.parquet"
    pq.write_table(to_table(results, meta), path)
    return path
