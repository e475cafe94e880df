"""`gladiator ladder`: a round robin of the bots that play a ruleset, with Elo ratings.

The report (JSON) and its plot go to the out folder as ladder-RULESET.json and .png. The JSON
is written again after every finished pairing, and a pairing already in it with the same
setup (bots, budget, seed, matches, options, ruleset version) is not played again: a ladder
stopped half-way resumes, and adding a bot plays only its pairings.
"""

from __future__ import annotations

import json
import os
import shlex
import time
from itertools import combinations
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.table import Table

from gladiator import registry
from gladiator.bots import BOTS, make_bot, plays
from gladiator.cli.common import fail as _fail
from gladiator.sim.ladder_plot import matches_text

__all__ = ["ladder_command"]

console = Console()
err = Console(stderr=True)


class _Bad(Exception):
    pass


def _bots(ruleset: str, text: str | None) -> list[str]:
    from gladiator.sim.ladder import eligible_bots

    if text is None:
        return eligible_bots(ruleset)
    names = list(dict.fromkeys(b.strip().lower() for b in text.split(",") if b.strip()))
    for b in names:
        if b not in BOTS:
            raise _Bad(f"unknown bot {b!r}; known: {', '.join(sorted(BOTS))}")
        if not plays(b, ruleset):
            own = ", ".join(sorted(make_bot(b).rulesets or ()))
            raise _Bad(f"bot {b!r} does not play {ruleset} (only {own}); leave it out")
    if len(names) < 2:
        raise _Bad("a ladder needs at least two bots")
    return sorted(names)


def _read_old(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise _Bad(f"{path} is not a ladder report ({exc}); move it away or use --fresh") from None
    return data if isinstance(data, dict) else None


def _write(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def ladder_command(
    ruleset: Annotated[str, typer.Argument(help="Which rules: see `gladiator rules`.")],
    bots: Annotated[
        str | None,
        typer.Option(help="Bots, comma-separated (default: every bot that plays the ruleset)."),
    ] = None,
    matches_per_pairing: Annotated[
        int, typer.Option(min=2, help="Matches per pairing (even: each seed twice).")
    ] = 100,
    matches_with: Annotated[
        list[str] | None,
        typer.Option(
            "--matches-with",
            help="BOT=N: pairings of a slow bot play N matches instead (repeatable).",
        ),
    ] = None,
    seed: Annotated[int, typer.Option(min=0, help="Ladder seed; the same for every pairing.")] = 1,
    jobs: Annotated[int, typer.Option(min=1, help="Local processes.")] = 1,
    budget: Annotated[
        float | None, typer.Option(min=0.0, help="CPU seconds a decision, given to every bot.")
    ] = None,
    out: Annotated[Path, typer.Option(help="Folder for ladder-RULESET.json and .png.")] = Path(),
    fresh: Annotated[bool, typer.Option(help="Play every pairing again.")] = False,
) -> None:
    """A round robin of bots on paired seeds: win rates, Elo ratings with 95% intervals, CPU
    time per decision; saved as JSON and a plot."""
    from gladiator.sim.ladder import play_pairings
    from gladiator.sim.ladder_plot import plot_ladder
    from gladiator.sim.ladder_report import pairing_record, report, reusable

    try:
        rs = registry.get(ruleset)
        name = rs.name
        names = _bots(name, bots)
        if matches_per_pairing % 2:
            raise _Bad("--matches-per-pairing must be even (each seed is played twice)")
        fewer = _matches_with(matches_with or [], names)
        if out.exists() and not out.is_dir():
            raise _Bad(f"--out {out}: not a folder")
        out.mkdir(parents=True, exist_ok=True)
        json_path = out / f"ladder-{name}.json"
        options = rs.normalise_options({})
        setup: dict[str, Any] = {
            "ruleset": name,
            "ruleset_version": rs.version,
            "options": options,
            "seed": seed,
            "budget": budget,
            "matches_per_pairing": matches_per_pairing,
            "matches_with": fewer,
        }
        pairs: list[tuple[str, str]] = list(combinations(names, 2))
        planned = {
            p: min([matches_per_pairing] + [fewer[b] for b in p if b in fewer]) for p in pairs
        }
        done = {} if fresh else reusable(_read_old(json_path), setup, planned)
    except (_Bad, ValueError, OSError) as exc:
        _fail(str(exc))
        return
    records = [done[p] for p in pairs if p in done]
    todo = [p for p in pairs if p not in done]
    if records:
        err.print(f"{len(records)} pairing(s) from {json_path}; {len(todo)} to play", style="dim")
    started = time.process_time()

    def keep(res: Any) -> None:
        records.append(pairing_record(setup, res))
        _write(json_path, report(setup, names, records, with_intervals=False))

    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
    ) as progress:
        task = progress.add_task(f"{name} ladder", total=sum(planned[p] for p in todo))
        play_pairings(
            name,
            options,
            todo,
            {p: planned[p] for p in todo},
            seed,
            budget=budget,
            jobs=jobs,
            on_progress=lambda k: progress.advance(task, k),
            on_pairing=keep,
        )
    data = report(setup, names, records)
    data["command"] = _command(name, names, matches_per_pairing, fewer, seed, budget)
    data["parent_cpu_s"] = time.process_time() - started
    _write(json_path, data)
    plot_ladder(data, out / f"ladder-{name}.png")
    _print(data)
    console.print(f"wrote {json_path} and {out / f'ladder-{name}.png'}", highlight=False)


def _matches_with(items: list[str], names: list[str]) -> dict[str, int]:
    out = {}
    for item in items:
        bot, sep, count = item.partition("=")
        bot = bot.strip().lower()
        if not sep or not count.strip().isdigit():
            raise _Bad(f"--matches-with wants BOT=N, not {item!r}")
        if bot not in names:
            raise _Bad(f"--matches-with {item!r}: {bot!r} is not in this ladder")
        n = int(count)
        if n < 2 or n % 2:
            raise _Bad(f"--matches-with {item!r}: N must be even and at least 2")
        out[bot] = n
    return out


def _command(
    ruleset: str,
    bots: list[str],
    n: int,
    fewer: dict[str, int],
    seed: int,
    budget: float | None,
) -> str:
    parts = ["gladiator", "ladder", ruleset, "--bots", ",".join(bots)]
    parts += ["--matches-per-pairing", str(n), "--seed", str(seed)]
    for bot, k in sorted(fewer.items()):
        parts += ["--matches-with", f"{bot}={k}"]
    if budget is not None:
        parts += ["--budget", f"{budget:g}"]
    return shlex.join(parts)


def _print(data: dict[str, Any]) -> None:
    t = Table(title=f"{data['ruleset']} ladder, {matches_text(data)}")
    for col in ("bot", "Elo", "95% CI", "score", "CPU mean", "CPU p95", "CPU max"):
        t.add_column(col, justify="left" if col == "bot" else "right")
    cpu = data["cpu_per_decision"]
    for r in data["ratings"]:
        lo, hi = r["ci95"] or (r["elo"], r["elo"])
        c = cpu[r["bot"]]
        t.add_row(
            r["bot"],
            f"{r['elo']:.0f}",
            f"{lo:.0f} – {hi:.0f}",
            f"{r['score']:.3f}",
            _ms(c["mean_s"]),
            _ms(c["p95_s"]),
            _ms(c["max_s"]),
        )
    console.print(t)
    p = Table(title="pairings (a's results; draws are not wins)")
    for col in ("a", "b", "matches", "wins", "losses", "draws", "a win rate", "95% CI", "a score"):
        p.add_column(col, justify="left" if col in ("a", "b") else "right")
    for row in data["pairings"]:
        lo, hi = row["ci95"]
        p.add_row(
            row["a"],
            row["b"],
            str(row["matches"]),
            str(row["a_wins"]),
            str(row["b_wins"]),
            str(row["draws"]),
            f"{row['a_win_rate']:.3f}",
            f"{lo:.3f}–{hi:.3f}",
            f"{row['a_score']:.3f}",
        )
    console.print(p)


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"
