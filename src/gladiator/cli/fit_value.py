"""`gladiator fit-value`: fit the Colosseum value function on simulated matches (sim/fit_value.py),
write its weights (a TOML file value.py loads) and the fit report (JSON)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from gladiator.cli.common import UserError, progress
from gladiator.cli.common import fail as _fail

__all__ = ["fit_value_command"]

err = Console(stderr=True)


def _writable(path: Path, flag: str) -> None:
    if path.is_dir():
        raise UserError(f"{flag} {path}: that is a folder; give a file name")
    if not path.parent.is_dir():
        raise UserError(f"{flag} {path}: no folder {path.parent}")


def fit_value_command(
    matches: Annotated[int, typer.Option(help="Matches to play (a fifth held out).")] = 1500,
    seed: Annotated[int, typer.Option(min=0)] = 1,
    per_match: Annotated[int, typer.Option(help="Positions drawn from each match.")] = 4,
    holdout: Annotated[float, typer.Option(help="Share of matches held out.")] = 0.2,
    workers: Annotated[int, typer.Option(help="Processes playing the matches.")] = 1,
    weights: Annotated[
        Path | None, typer.Option(help="Write the fitted weights (TOML) here.")
    ] = None,
    report: Annotated[Path | None, typer.Option(help="Write the fit report (JSON) here.")] = None,
    speed: Annotated[bool, typer.Option(help="Also time value() into the report.")] = True,
) -> None:
    """Fit the Colosseum value function: play tactician/centurion matches, fit a logistic model
    on sampled positions, and compare it on held-out matches with the old heuristic and ½."""
    from gladiator.rules.colosseum.evaluation.value import ValueWeights, weights_toml
    from gladiator.sim.fit_value import FitConfig, fit_value
    from gladiator.sim.value_speed import time_value

    try:
        config = FitConfig(
            seed=seed, matches=matches, per_match=per_match, holdout=holdout, workers=workers
        )
        config.check()
        for path, flag in ((weights, "--weights"), (report, "--report")):
            if path is not None:
                _writable(path, flag)
        with progress() as bar:
            task = bar.add_task("matches", total=matches)
            w, provenance, result = fit_value(config, lambda n: bar.advance(task, n))
        if speed:
            result["value_speed"] = time_value(ValueWeights(tuple(w), provenance), seed)
        if weights is not None:
            weights.write_text(weights_toml(w, provenance), "utf-8")
        text = json.dumps(result, indent=1)
        if report is not None:
            report.write_text(text + "\n", "utf-8")
    except (UserError, ValueError) as exc:
        _fail(str(exc))
        return
    except OSError as exc:
        _fail(f"cannot write: {exc.strerror}")
        return
    print(text)
