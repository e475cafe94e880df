"""The `gladiator` command. A user's mistake gets one line on stderr and exit status 2."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.prompt import Prompt
from rich.table import Table

from gladiator import registry
from gladiator.bots import BOTS, best_bot, make_bot
from gladiator.cli import sim_batch
from gladiator.cli.bench import bench_command, bench_compare_command
from gladiator.cli.campaign_stable import campaign_app  # with the stable's commands added
from gladiator.cli.common import UserError, parse_options, print_json, progress
from gladiator.cli.common import fail as _fail
from gladiator.cli.exploitability import (
    ceiling_command,
    exploitability_command,
    solver_match_command,
)
from gladiator.cli.fit_value import fit_value_command
from gladiator.cli.hostile import hostile_command
from gladiator.cli.ladder import ladder_command
from gladiator.cli.loadtest import loadtest_command
from gladiator.cli.order_use import order_use_command
from gladiator.cli.random_legal import random_legal_command
from gladiator.cli.records import replay_command, verify_command
from gladiator.cli.repair import repair_command
from gladiator.cli.report import report as report_command
from gladiator.cli.rules import rules_app
from gladiator.cli.serve import serve_command
from gladiator.core.match import Match

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Play, simulate and study the GLADIATOR family of hex-grid gladiatorial combat rules.",
)
console = Console()
err = Console(stderr=True)


def _options(ruleset: str, gladiators: str | None, option: list[str] | None) -> dict[str, Any]:
    return parse_options(ruleset, option, gladiators)


def _check_writable(path: Path) -> None:
    """Refuse a --save path before the match rather than lose the record after it."""
    if path.is_dir():
        raise UserError(f"--save {path}: that is a folder; give a file name")
    if not path.parent.is_dir():
        raise UserError(f"--save {path}: no folder {path.parent}")
    try:
        with path.open("a"):
            pass
    except OSError as exc:
        raise UserError(f"--save {path}: {exc.strerror}") from None


GladiatorsOpt = Annotated[
    str | None,
    typer.Option(help="Classes by seat, comma-separated (e.g. heavy,retiarius; random rolls)."),
]
OptionOpt = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="A match option KEY=VALUE (repeatable).")
]


@app.command()
def play(
    ruleset: Annotated[str, typer.Argument(help="Which rules: see `gladiator rules`.")] = "quick",
    vs: Annotated[
        str | None,
        typer.Option(
            help="Opponent: a bot (greedy, random, tactician, centurion) or human (hotseat); "
            "default: the ruleset's best bot (tactician for colosseum, else greedy)."
        ),
    ] = None,
    seat: Annotated[str | None, typer.Option(help="Your seat (default: the first).")] = None,
    level: Annotated[
        str | None,
        typer.Option(help="Opponent by level: easy, normal or hard (see docs/bots.md)."),
    ] = None,
    gladiators: GladiatorsOpt = None,
    option: OptionOpt = None,
    seed: Annotated[int | None, typer.Option(min=0, help="Fix the dice (default: fresh).")] = None,
    save: Annotated[Path | None, typer.Option(help="Write the match record here.")] = None,
) -> None:
    """Play a match in the terminal against a bot, or hotseat."""
    from gladiator.cli.line_editing import order_history
    from gladiator.cli.play import Abandoned, TerminalGame

    try:
        opts = _options(ruleset, gladiators, option)
        rs = registry.get(ruleset)
        if save is not None:
            _check_writable(save)
        seats = rs.seats(opts)
        me = seat or seats[0]
        if me not in seats:
            raise UserError(f"no seat {me!r}; seats: {', '.join(seats)}")
        opponent, budget = vs or best_bot(ruleset), None
        if level is not None:
            if vs is not None:
                raise UserError("give --vs or --level, not both")
            from gladiator.bots.levels import level_for

            chosen = level_for(rs.name, level)
            opponent, budget = chosen.bot, chosen.budget
        if opponent.lower() == "centurion" and rs.name == "colosseum":
            # §29.3: gladiators move before centurions (option solitaire; class by Q39).
            from gladiator.bots.centurion_setup import centurion_options

            others = tuple(s for s in seats if s != me)
            opts = rs.normalise_options(centurion_options(opts, others))
        match = Match(rs, opts, seed=seed, atomic=True)  # an engine fault costs a decision
        if opponent.lower() == "human":
            humans = set(seats)
            bots = {}
        else:
            humans = {me}
            bots = {s: make_bot(opponent) for s in seats if s != me}
        game = TerminalGame(
            match,
            humans,
            bots,
            console,
            lambda q, secret: Prompt.ask(q, password=secret),
            budgets=dict.fromkeys(bots, budget),
        )
        with order_history(rs.name):  # line editing and history (cli/line_editing.py)
            game.run(save)
    except (Abandoned, EOFError, KeyboardInterrupt):
        console.print("\nmatch abandoned.")
    except (UserError, ValueError) as exc:
        _fail(str(exc))


@app.command()
def sim(
    ruleset: Annotated[str, typer.Argument(help="Which rules: see `gladiator rules`.")],
    matches: Annotated[int, typer.Option(min=1, help="How many matches.")] = 1000,
    seed: Annotated[
        int, typer.Option(min=0, help="Batch seed; match i gets a seed derived from it.")
    ] = 1,
    jobs: Annotated[
        int | None, typer.Option(min=1, help="Local processes (default 1; with --ray, all CPUs).")
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            help="Bot per seat, comma-separated (default: tactician for colosseum, else greedy)."
        ),
    ] = None,
    gladiators: GladiatorsOpt = None,
    option: OptionOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON.")] = False,
    records: Annotated[Path | None, typer.Option(help="Keep every match record here.")] = None,
    ray: Annotated[bool, typer.Option("--ray", help=sim_batch.RAY_HELP)] = False,
    ray_address: Annotated[
        str | None, typer.Option(metavar="ADDRESS", help=sim_batch.RAY_ADDRESS_HELP)
    ] = None,
    out: Annotated[Path | None, typer.Option(metavar="DIR", help=sim_batch.OUT_HELP)] = None,
    duplicate: Annotated[bool, typer.Option(help=sim_batch.DUPLICATE_HELP)] = False,
) -> None:
    """Bot-versus-bot matches: win rates by class, match length, how matches ended.

    On an existing Ray cluster (--ray-address) gladiator must be installed on every node, or the
    command started with `ray job submit --working-dir .` so that Ray ships it (see
    docs/simulation.md)."""
    from gladiator.sim.duplicate import pair_scores
    from gladiator.sim.report import summarise
    from gladiator.sim.runner import default_bots

    try:
        opts = _options(ruleset, gladiators, option)
        if bots is None:
            bot_names = default_bots(ruleset)
        else:
            bot_names = [b.strip().lower() for b in bots.split(",") if b.strip()]
        if not bot_names:
            raise UserError("--bots needs at least one bot name")
        for b in bot_names:
            if b not in BOTS:
                raise UserError(f"unknown bot {b!r}; known: {', '.join(sorted(BOTS))}")
        if duplicate and matches % 2:
            raise UserError("--duplicate plays each deal twice: give an even --matches")
        place = sim_batch.SimPlace(jobs, ray, ray_address, out, records, duplicate)
        results = sim_batch.play_sim(
            ruleset,
            opts,
            matches,
            seed,
            bot_names,
            place,
            make_progress=lambda: progress(quiet=as_json),
            note=_note(as_json),
        )
    except (UserError, ValueError, OSError) as exc:
        _fail(str(exc))
        return
    summary = summarise(results, bot_names, duplicate)
    if duplicate:
        summary["pairs"] = [p.to_dict() for p in pair_scores(results, bot_names)]
    summary.update(ruleset=ruleset, seed=seed, bots=bot_names, options=opts, duplicate=duplicate)
    if as_json:
        print(json.dumps(summary, indent=1))
        return
    _print_summary(summary)


def _note(quiet: bool) -> Callable[[str], None]:
    def note(text: str) -> None:
        if not quiet:
            err.print(text, style="dim", highlight=False, markup=False, soft_wrap=True)

    return note


def _rate_table(title: str, column: str, rows: list[dict[str, Any]]) -> Table:
    t = Table(title=title)
    for col in (column, "appearances", "wins", "win rate", "95% CI"):
        t.add_column(col, justify="right" if col != column else "left")
    for row in rows:
        lo, hi = row["ci95"]
        t.add_row(
            row["label"],
            str(row["appearances"]),
            str(row["wins"]),
            f"{row['win_rate']:.3f}",
            f"{lo:.3f}–{hi:.3f}",
        )
    return t


def _duplicate_table(rows: list[dict[str, Any]]) -> Table:
    """sim/duplicate.py: each bot's pair score over the deals played from both sides."""
    t = Table(title="duplicate: score by deal (1 won both, 1/2 split, 0 lost both)")
    for col in ("bot", "against", "pairs", "score", "95% CI", "won both", "split", "lost both"):
        t.add_column(col, justify="left" if col in ("bot", "against") else "right")
    t.add_column("sheets decided", justify="right")
    for r in rows:
        lo, hi = r["ci95"]
        t.add_row(
            r["bot"],
            r["against"],
            str(r["pairs"]),
            f"{r['score']:.3f}",
            f"{lo:.3f}–{hi:.3f}",
            str(r["won_both"]),
            str(r["split"]),
            str(r["lost_both"]),
            str(r["decided_by_the_deal"]),
        )
    return t


def _print_summary(s: dict[str, Any]) -> None:
    title = f"{s['matches']} {s['ruleset']} matches, seed {s['seed']}, bots {s['bots']}"
    grouped = "by_group" in s  # labels "class/style": a table by class, then by style
    if grouped:
        console.print(_rate_table(title, "class", s["by_group"]))
        console.print(_rate_table("by style", "class/style", s["by_label"]))
    else:
        console.print(_rate_table(title, "class", s["by_label"]))
    if s.get("by_bot"):
        bots = [{"label": r["bot"], **r} for r in s["by_bot"]]
        console.print(_rate_table("win rate by bot (draws are not wins)", "bot", bots))
    if s.get("pairs"):
        console.print(_duplicate_table(s["pairs"]))
    matchups = s["group_matchups"] if grouped else s["matchups"]
    if matchups:
        labels = sorted({m["label"] for m in matchups})
        grid = {(m["label"], m["against"]): m for m in matchups}
        mt = Table(title="win rate of row against column (matches)")
        mt.add_column("")
        for lab in labels:
            mt.add_column(lab, justify="right")
        for a in labels:
            cells = []
            for b in labels:
                m = grid.get((a, b))
                cells.append(f"{m['win_rate']:.2f} ({m['matches']})" if m else "–")
            mt.add_row(a, *cells)
        console.print(mt)
    if s.get("by_side"):  # a team match: which side won (winners are a whole side)
        st = Table(title="results by side")
        st.add_column("winning side")
        st.add_column("matches", justify="right")
        st.add_column("share", justify="right")
        for row in s["by_side"]:
            st.add_row(row["side"], str(row["matches"]), f"{row['share']:.3f}")
        console.print(st)
    e = Table(title="how matches ended")
    e.add_column("ending")
    e.add_column("matches", justify="right")
    for k, v in s["endings"].items():
        e.add_row(k, str(v))
    console.print(e)
    console.print(
        f"mean length: {s['mean_rounds']:.1f} rounds, {s['mean_steps']:.1f} decisions, "
        f"{s['mean_dice']:.1f} dice; draws: {s['draws']}"
    )


app.command("replay")(replay_command)  # cli/records.py: a saved match's transcript
app.command("verify")(verify_command)  # cli/records.py: a record checked by replaying it
app.command("bench")(bench_command)  # cli/bench.py: one build, or each Colosseum shape
app.command("bench-compare")(bench_compare_command)  # cli/bench.py: an old build and this


@app.command("bench-scale")
def bench_scale(
    ruleset: Annotated[str, typer.Argument()] = "quick",
    matches: Annotated[int, typer.Option(min=1)] = 2000,
    workers: Annotated[str, typer.Option(help="Worker counts, comma-separated.")] = "1,2",
    seed: Annotated[int, typer.Option(min=0)] = 1,
    bots: Annotated[str | None, typer.Option(help="Bot per seat (default as `sim`).")] = None,
    use_ray: Annotated[
        bool, typer.Option("--ray/--local", help="Ray clusters, or local processes.")
    ] = True,
    out: Annotated[Path | None, typer.Option(help="Also write the JSON here.")] = None,
) -> None:
    """The same batch with each worker count: batch seconds (apart from starting the cluster),
    speedup against the fewest workers, and a digest of the results per count, as JSON."""
    from gladiator.sim.scale_bench import run_scale

    try:
        registry.get(ruleset)
        try:
            counts = [int(w) for w in workers.split(",") if w.strip()]
        except ValueError:
            raise UserError(f"--workers wants counts like 1,2, not {workers!r}") from None
        bot_names = None
        if bots is not None:
            bot_names = [b.strip().lower() for b in bots.split(",") if b.strip()]
            for b in bot_names:
                if b not in BOTS:
                    raise UserError(f"unknown bot {b!r}; known: {', '.join(sorted(BOTS))}")
        result = run_scale(
            ruleset,
            matches,
            counts,
            seed=seed,
            bots=bot_names,
            backend="ray" if use_ray else "local",
            on_run=lambda w: err.print(f"{w} worker(s)", style="dim"),
        )
    except (UserError, ValueError) as exc:
        _fail(str(exc))
        return
    print_json(result, out)


@app.command()
def balance(
    ruleset: Annotated[str, typer.Argument(help="Only `skirmish` has a balance study so far.")],
    matches: Annotated[int, typer.Option(min=1, help="Matches per fixed attack.")] = 5000,
    seed: Annotated[int, typer.Option(min=0)] = 1,
    jobs: Annotated[int, typer.Option(min=1)] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON.")] = False,
) -> None:
    """The one-exchange equilibrium of written moves, and always-the-same-attack bots against a
    bot that mixes by it."""
    if ruleset.strip().lower() != "skirmish":
        _fail(f"no balance study for {ruleset!r}; try: skirmish")
    from gladiator.sim.skirmish_balance import study

    attacks = ("SL", "CU", "LU", "SS", "KI")
    with progress(quiet=as_json) as bar:
        task = bar.add_task("skirmish matches", total=2 * matches * len(attacks))
        result = study(matches, seed, jobs, attacks, lambda k: bar.advance(task, k))
    if as_json:
        print(json.dumps(result, indent=1))
        return
    eq = Table(title="one-exchange equilibrium (Thracian vs Thracian)")
    eq.add_column("move")
    eq.add_column("probability", justify="right")
    eq.add_column("payoff against the mix", justify="right")
    for move, value in result["pure_vs_mix"].items():
        p = result["equilibrium"].get(move, 0.0)
        eq.add_row(move, f"{p:.3f}", f"{value:+.3f}")
    console.print(eq)
    console.print(
        f"support {', '.join(result['support'])}; value {result['value']:+.4f}; "
        f"exploitability {result['exploitability']:.1e}"
    )
    t = Table(title=f"mixing bots against fixed-attack bots, {matches} matches each, seed {seed}")
    for col in (
        "mixer",
        "fixed attack",
        "mixer wins",
        "fixed bot wins",
        "draws",
        "mixer win rate",
        "95% CI",
    ):
        t.add_column(col, justify="right")
    for row in result["experiments"]:
        lo, hi = row["ci95"]
        t.add_row(
            row["mixer"],
            row["fixed_attack"],
            str(row["mixed_wins"]),
            str(row["fixed_wins"]),
            str(row["draws"]),
            f"{row['mixed_win_rate']:.3f}",
            f"{lo:.3f}–{hi:.3f}",
        )
    console.print(t)


app.add_typer(campaign_app, name="campaign")
app.command("report")(report_command)  # cli/report.py: the balance report
app.command("fit-value")(fit_value_command)  # sim/fit_value.py: the Colosseum value function
app.command("ladder")(ladder_command)
app.command("order-use")(order_use_command)  # cli/order_use.py: issue 38's Advanced orders
app.command("serve")(serve_command)  # cli/serve.py: the web arena
app.command("loadtest")(loadtest_command)  # cli/loadtest.py: the load test
app.command("repair")(repair_command)  # cli/repair.py: resume a broken stored match
app.command("hostile")(hostile_command)  # cli/hostile.py: the hostile run (issue 28)
app.command("random-legal")(random_legal_command)  # cli/random_legal.py: issue 27

app.add_typer(rules_app, name="rules")  # cli/rules.py: the rulesets and their coverage
app.command("exploitability")(exploitability_command)  # issue #12: the allocation solver
app.command("solver-match")(solver_match_command)
app.command("ceiling")(ceiling_command)  # issue #12: what the sheets and the dice leave to skill


def run() -> None:
    """Console entry point."""
    try:
        app()
    except UserError as exc:  # pragma: no cover - commands catch their own
        err.print(f"error: {exc}", markup=False)
        sys.exit(2)
