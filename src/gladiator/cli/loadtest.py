"""`gladiator loadtest`: all-human matches played by client bots over real websockets
(server/loadtest.py; docs/web.md and docs/deploy.md, Measured)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer

from gladiator import registry
from gladiator.cli.common import UserError, fail, parse_options, print_json

__all__ = ["loadtest_command"]


def loadtest_command(
    matches: Annotated[int, typer.Option(min=1, max=500, help="Concurrent matches.")] = 20,
    ruleset: Annotated[str, typer.Option(help="Which rules.")] = "quick",
    seed: Annotated[int, typer.Option(min=0, help="Match and client seeds derive from it.")] = 1,
    out: Annotated[Path | None, typer.Option(help="Also write the JSON here.")] = None,
    processes: Annotated[
        int,
        typer.Option(
            min=0,
            max=16,
            help="Server processes on one database (0: the app in a thread of this one).",
        ),
    ] = 0,
    think: Annotated[
        float,
        typer.Option(min=0, help="Each seat's mean seconds before an order (0: none)."),
    ] = 0.0,
    kill_after: Annotated[
        float | None,
        typer.Option(min=0, help="SIGKILL the first server process this many seconds in."),
    ] = None,
    time_limit: Annotated[
        float, typer.Option(min=1, help="Seconds before the clients give up.")
    ] = 300.0,
    bot_matches: Annotated[
        int,
        typer.Option(
            min=0,
            max=100,
            help="Matches of bots only beside the humans', on the last server, kept at that "
            "many and thinking all along (ruling HF3).",
        ),
    ] = 0,
    bot_spec: Annotated[
        str, typer.Option(help="Every seat of those matches: NAME[@BUDGET].")
    ] = "search@2",
    bot_workers: Annotated[
        int | None,
        typer.Option(min=1, max=256, help="The servers' bot processes (default: theirs)."),
    ] = None,
    deadline: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Correspondence mode: every match has this many seconds a decision, and "
            "some seats leave decisions to it (CP1-CP3).",
        ),
    ] = None,
    on_deadline: Annotated[
        str | None,
        typer.Option(
            help="With --deadline: what a passed deadline brings, bot, forfeit or mixed "
            "(every other round of matches; the default)."
        ),
    ] = None,
    silent_share: Annotated[
        float | None,
        typer.Option(
            help="With --deadline: the chance a seat of a 'bot' match sits out a decision "
            "(default 0.25)."
        ),
    ] = None,
    stand_in: Annotated[
        str | None,
        typer.Option(help="With --deadline: the stand-in bot (default level:normal)."),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="A match option KEY=VALUE (repeatable)."),
    ] = None,
) -> None:
    """All-human matches played by client bots over real websockets: order latency (send to
    ack), lost orders, finished matches, every acknowledged order looked for in the store;
    as JSON. `--bot-matches K` adds K matches of bots only on the same server; `--deadline S`
    makes every match a correspondence match and measures how late its deadlines are kept."""
    from gladiator.server.loadtest import run_loadtest
    from gladiator.server.loadtest_correspondence import Correspondence

    try:
        registry.get(ruleset)
        plan = None
        if deadline is not None:  # the mode's own defaults for what is not given
            plan = Correspondence(deadline)
            if on_deadline is not None:
                plan = replace(plan, then=on_deadline)
            if silent_share is not None:
                plan = replace(plan, silent_share=silent_share)
            if stand_in is not None:
                plan = replace(plan, stand_in=stand_in)
        elif (on_deadline, silent_share, stand_in) != (None, None, None):
            raise ValueError("--on-deadline, --silent-share and --stand-in need --deadline")
        result = run_loadtest(
            matches,
            ruleset,
            seed,
            options=parse_options(ruleset, option),
            processes=processes,
            think=think,
            kill_after=kill_after,
            time_limit=time_limit,
            bot_matches=bot_matches,
            bot_spec=bot_spec,
            bot_workers=bot_workers,
            correspondence=plan,
        )
    except (UserError, ValueError) as exc:
        fail(str(exc))
        return
    print_json(result, out)
