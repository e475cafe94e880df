"""`gladiator campaign ...`: the Campaign Game (§30-§37) in the terminal, kept in the database.

Every action is one campaign step committed in one transaction (campaign_service); a refused
one (a wager over the purse, a dead gladiator entered, another lanista's man) gets one line on
stderr, exit status 2, and writes nothing. Bot lanistas and bot-only fights are played by
`campaign munus`; a human lanista's fights are played here in the terminal (or in the web arena).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.prompt import Prompt
from rich.table import Table

from gladiator.campaign import CampaignError, CampaignState, StepResult
from gladiator.campaign.driver import Move
from gladiator.campaign.fights import fight_lanistas, next_fight
from gladiator.campaign_service.fights import fight_seed, play_fight
from gladiator.campaign_service.service import CampaignService, PlayBout, PlayedBout
from gladiator.cli.common import fail as _fail
from gladiator.store import CampaignStore, StoreError

__all__ = ["DEFAULT_DB", "AsOpt", "DbOpt", "campaign_app", "commit_step"]

campaign_app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="The Campaign Game (§30-§37): lanistas, stables, munera and wagers, in a database.",
)
console = Console()
err = Console(stderr=True)

DbOpt = Annotated[
    str, typer.Option(help="Database URL: sqlite:///FILE or postgresql://USER@HOST/DB.")
]
AsOpt = Annotated[str, typer.Option("--as", help="The lanista who acts (his id, e.g. l1).")]
DEFAULT_DB = "sqlite:///gladiator.db"


def _service(db: str) -> CampaignService:
    try:
        return CampaignService(CampaignStore(db))
    except StoreError as exc:
        _fail(str(exc))
        raise  # unreachable: _fail exits


def commit_step(db: str, campaign: str, step: dict[str, Any]) -> StepResult:
    """One lanista's step, committed; its events printed, a refusal one line (exit 2)."""
    service = _service(db)
    try:
        result = service.step(campaign, step)
    except (CampaignError, StoreError) as exc:
        _fail(str(exc))
        raise
    for event in result.events:
        console.print(f"  {event['text']}", highlight=False)
    return result


def _options(items: list[str] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            _fail(f"--option wants KEY=VALUE, not {item!r}")
        try:
            out[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[key.strip()] = value
    return out


# -- creating and showing -------------------------------------------------------------------
@campaign_app.command("new")
def new(
    name: Annotated[str, typer.Argument(help="The campaign's name.")],
    bots: Annotated[int, typer.Option(min=0, max=8, help="Bot lanistas.")] = 3,
    human: Annotated[
        list[str] | None, typer.Option(help="A human lanista's name (repeatable).")
    ] = None,
    munera: Annotated[int, typer.Option(min=1, max=500, help="Munera to play (§37.7).")] = 10,
    seed: Annotated[int | None, typer.Option(min=0, help="Fix the dice (default: fresh).")] = None,
    campaign_id: Annotated[str | None, typer.Option("--id", help="The campaign's id.")] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="A campaign option KEY=VALUE (docs/rulings.md L)."),
    ] = None,
    db: DbOpt = DEFAULT_DB,
) -> None:
    """Start a campaign: each lanista's stable and purse (§37.2)."""
    import secrets

    humans = list(human or [])
    if not humans and bots == 0:
        _fail("a campaign needs at least one lanista")
    lanistas = [
        {"id": f"l{i + 1}", "name": n, "kind": "human", "bot": None} for i, n in enumerate(humans)
    ]
    lanistas += [
        {"id": f"l{len(humans) + i + 1}", "name": f"Lanista {len(humans) + i + 1}"}
        for i in range(bots)
    ]
    options = {"munera": munera, **_options(option)}
    step = {
        "kind": "create",
        "id": campaign_id or f"c{secrets.token_hex(4)}",
        "name": name,
        "seed": seed if seed is not None else secrets.randbits(63),
        "options": options,
        "lanistas": lanistas,
    }
    service = _service(db)
    try:
        result = service.create(step)
    except (CampaignError, StoreError) as exc:
        _fail(str(exc))
        raise
    console.print(f"campaign {result.state.meta.id} created", highlight=False)
    _print_state(result.state)


@campaign_app.command("list")
def list_campaigns(db: DbOpt = DEFAULT_DB) -> None:
    """The campaigns in the database."""
    service = _service(db)
    t = Table(title="campaigns")
    for col in ("id", "name", "steps", "updated"):
        t.add_column(col)
    for c in service.store.list_campaigns():
        t.add_row(c.id, c.name, str(c.seq), c.updated_at.isoformat(timespec="seconds"))
    console.print(t)


@campaign_app.command("show")
def show(
    campaign: Annotated[str, typer.Argument(help="The campaign's id.")],
    as_json: Annotated[bool, typer.Option("--json", help="The whole state as JSON.")] = False,
    db: DbOpt = DEFAULT_DB,
) -> None:
    """The lanistas, their stables and purses, and the current munus's bouts."""
    try:
        state = _service(db).load(campaign)
    except (CampaignError, StoreError) as exc:
        _fail(str(exc))
        raise
    if as_json:
        print(state.model_dump_json(by_alias=True, indent=1))
        return
    _print_state(state)


def _print_state(state: CampaignState) -> None:
    m = state.meta
    console.print(
        f"[bold]{m.name}[/bold] ({m.id}): munus {m.munus} of {m.options.munera}, {m.phase}"
        + (f", won by {m.winner}" if m.winner else ""),
        highlight=False,
    )
    for lanista in state.lanistas.values():
        t = Table(
            title=f"{lanista.name} ({lanista.id}, {lanista.kind}): {lanista.purse:,} sesterces"
            + (f", out: {lanista.out}" if lanista.out else "")
            + (" — ready" if lanista.id in m.ready else ""),
            title_justify="left",
        )
        for col in ("id", "name", "TR", "ST", "AG", "CN", "W", "XP", "PR", "V-S-M-L", "talents"):
            t.add_column(col)
        for g in state.stable(lanista.id):
            r = g.record
            t.add_row(
                g.id,
                g.name,
                *(str(v) for v in (g.tr, g.st, g.ag, g.cn, g.w, g.xp, g.prestige)),
                f"{r.victories}-{r.stans}-{r.missus}-{r.defeats}",
                ",".join(g.talents) or "-",
            )
        console.print(t)
    bouts = state.munus_bouts()
    if bouts:
        t = Table(title=f"munus {m.munus}: bouts", title_justify="left")
        for col in ("bout", "type", "sides", "styles", "wager", "status"):
            t.add_column(col)
        for b in bouts:
            sides = " v ".join(
                "+".join(state.gladiators[g].name for g in s.gladiators if g in state.gladiators)
                + f" ({s.lanista or 'house'})"
                for s in b.sides
            )
            styles = ", ".join(sorted(set(b.styles.values())))
            wager = f"{b.wager.odds}-1 {sum(b.wager.stakes.values())}" if b.wager else "-"
            status = b.status + (f": {b.outcome}" if b.outcome else "")
            t.add_row(
                b.id,
                b.type + (" (sine missione)" if b.sine_missione else ""),
                sides,
                styles,
                wager,
                status,
            )
        console.print(t)
    for lot in m.lots:
        g = state.gladiators[lot.gladiator]
        # L12: the bids are sealed until the auction; only how many there are is shown
        console.print(f"for sale (§37.5): {g.id} {g.name} CF {g.cf}, {len(lot.bids)} sealed bid(s)")


# -- a lanista's actions -------------------------------------------------------------------
@campaign_app.command("ready")
def ready(
    campaign: Annotated[str, typer.Argument()],
    actor: AsOpt,
    enter: Annotated[
        str | None, typer.Option(help="Between munera: the men entered next, g1,g2 (default all).")
    ] = None,
    db: DbOpt = DEFAULT_DB,
) -> None:
    """Say you are done for now (odds and armour in a munus; XP, bids, entries between)."""
    step: dict[str, Any] = {"kind": "ready", "actor": actor}
    if enter is not None:
        step["entries"] = [g.strip() for g in enter.split(",") if g.strip()]
    commit_step(db, campaign, step)


@campaign_app.command("odds")
def odds(
    campaign: Annotated[str, typer.Argument()],
    bout: Annotated[str, typer.Argument(help="The bout's id.")],
    k: Annotated[int, typer.Argument(help="Offer k-1 odds (2 to 5, §37.4).")],
    actor: AsOpt,
    db: DbOpt = DEFAULT_DB,
) -> None:
    """Offer the opposing lanista better odds: the bet doubles per step (§37.4)."""
    commit_step(db, campaign, {"kind": "offer_odds", "actor": actor, "bout": bout, "odds": k})


@campaign_app.command("spend")
def spend(
    campaign: Annotated[str, typer.Argument()],
    gladiator: Annotated[str, typer.Argument(help="His id.")],
    purchases: Annotated[str, typer.Argument(help="tr, st, ag, cn, w or talent[+N], by commas.")],
    actor: AsOpt,
    db: DbOpt = DEFAULT_DB,
) -> None:
    """Spend XP (§31.3): 25 TR or a talent roll (+10 per +1 on the RED die), 35 AG/ST, 50 CN/W."""
    items: list[dict[str, Any]] = []
    for raw in purchases.split(","):
        what, _, extra = raw.strip().partition("+")
        item: dict[str, Any] = {"what": what.lower()}
        if extra:
            if not extra.isdigit():
                _fail(f"talent+N wants a whole number N, not {raw!r}")
            item["extra"] = int(extra)
        items.append(item)
    commit_step(
        db,
        campaign,
        {"kind": "spend_xp", "actor": actor, "gladiator": gladiator, "purchases": items},
    )


@campaign_app.command("bid")
def bid(
    campaign: Annotated[str, typer.Argument()],
    gladiator: Annotated[str, typer.Argument(help="The gladiator for sale.")],
    amount: Annotated[int, typer.Argument(help="Sesterces (sealed bid, L12).")],
    actor: AsOpt,
    db: DbOpt = DEFAULT_DB,
) -> None:
    """Bid for a gladiator at auction (§37.5)."""
    commit_step(
        db, campaign, {"kind": "bid", "actor": actor, "gladiator": gladiator, "amount": amount}
    )


@campaign_app.command("armour")
def armour(
    campaign: Annotated[str, typer.Argument()],
    bout: Annotated[str, typer.Argument()],
    gladiator: Annotated[str, typer.Argument()],
    pieces: Annotated[str, typer.Argument(help="Areas 1-5, e.g. A,B4,-,C3,B2 (T35).")],
    actor: AsOpt,
    shield: Annotated[str, typer.Option(help="large or small (L9).")] = "large",
    db: DbOpt = DEFAULT_DB,
) -> None:
    """Buy armour piece by piece for his bout (§34; option custom_armour)."""
    step = {
        "kind": "buy_armour",
        "actor": actor,
        "bout": bout,
        "gladiator": gladiator,
        "armour": [p.strip() for p in pieces.split(",")],
        "shield": shield,
    }
    commit_step(db, campaign, step)


# -- playing --------------------------------------------------------------------------------
def _terminal_fights(seed: int, bot: str, humans: set[str]) -> PlayBout:
    """A bout's fights: a human lanista's men played at this terminal, every other seat by
    `bot`."""
    from gladiator import registry
    from gladiator.bots import make_bot
    from gladiator.cli.play import TerminalGame
    from gladiator.core.match import Match

    def play(state: CampaignState, bout_id: str) -> PlayedBout:
        bout = state.bouts[bout_id]
        reports: list[dict[str, Any]] = []
        while (options := next_fight(bout, reports)) is not None:
            n = len(reports)
            owners = fight_lanistas(state, bout, n)
            mine = {s for s, lid in owners.items() if lid in humans and lid not in bout.bot_fights}
            fseed = fight_seed(seed, bout_id, n)
            if not mine:
                reports.append(play_fight(options, fseed, bot).report)
                continue
            ruleset: Any = registry.get("colosseum")
            match = Match(ruleset, options, seed=fseed)
            bots = {s: make_bot(bot) for s in match.seats if s not in mine}
            console.print(
                f"bout {bout_id} ({bout.type}), fight {n + 1}: you play {', '.join(sorted(mine))}",
                highlight=False,
            )
            game = TerminalGame(
                match, mine, bots, console, lambda q, secret: Prompt.ask(q, password=secret)
            )
            game.run(None)
            reports.append(ruleset.campaign_report(match.state))
        return PlayedBout(reports)

    return play


def _say_waiting(state: CampaignState, move: Move) -> None:
    if move.over:
        console.print(f"the campaign is over: {state.meta.winner or 'no winner'} (§37.7)")
        return
    names = ", ".join(f"{state.lanistas[w].name} ({w})" for w in move.waiting)
    console.print(
        f"waiting for {names}: `gladiator campaign ready CAMPAIGN --as ID` when done, "
        "or play your fight with `campaign munus --play`",
        highlight=False,
    )


def _print_events(_step: dict[str, Any], result: StepResult) -> None:
    for e in result.events:
        if e["kind"] != "ready":
            console.print(f"  {e['text']}", highlight=False)


@campaign_app.command("munus")
def munus(
    campaign: Annotated[str, typer.Argument()],
    bot: Annotated[str, typer.Option(help="The bot that fights for bot lanistas.")] = "tactician",
    play: Annotated[
        bool, typer.Option(help="Play human lanistas' fights here in the terminal.")
    ] = True,
    db: DbOpt = DEFAULT_DB,
) -> None:
    """Play on to the end of the next munus: bot lanistas act, fights are fought (§30-§37)."""
    from gladiator.bots import BOTS
    from gladiator.cli.play import Abandoned

    if bot not in BOTS:
        _fail(f"unknown bot {bot!r}; known: {', '.join(sorted(BOTS))}")
    service = _service(db)
    try:
        state = service.load(campaign)
        humans = {lid for lid, lanista in state.lanistas.items() if lanista.kind == "human"}
        fights = _terminal_fights(state.meta.seed, bot, humans if play else set())
        move = service.advance(
            campaign,
            fights,
            humans_fight=frozenset(humans) if play else frozenset(),
            until_munus_closed=1,
            on_step=_print_events,
        )
        state = service.load(campaign)
    except (CampaignError, StoreError) as exc:
        _fail(str(exc))
        raise
    except (Abandoned, EOFError, KeyboardInterrupt):
        console.print("\nstopped; the campaign goes on from its last step next time.")
        raise typer.Exit(1) from None
    _print_state(state)
    if move.waiting or move.over:
        _say_waiting(state, move)


@campaign_app.command("sim")
def sim(
    munera: Annotated[int, typer.Option(min=1, max=500, help="Munera to play.")] = 50,
    lanistas: Annotated[int, typer.Option(min=2, max=8, help="Bot lanistas.")] = 4,
    seed: Annotated[int, typer.Option(min=0, help="The campaign's seed.")] = 1,
    bot: Annotated[str, typer.Option(help="The bot in every fight.")] = "tactician",
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="A campaign option KEY=VALUE.")
    ] = None,
    db: Annotated[
        str, typer.Option(help="Database URL (default: a private in-memory SQLite).")
    ] = "sqlite:///:memory:",
    plot: Annotated[Path | None, typer.Option(help="Write the timeline plot (PNG/SVG).")] = None,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Write the timeline as JSON.")
    ] = None,
) -> None:
    """A whole campaign of bot lanistas, end to end through the store, with its timeline."""
    from gladiator.bots import BOTS
    from gladiator.campaign_service.service import bot_fights
    from gladiator.campaign_service.timeline import timeline_row
    from gladiator.sim.campaign_timeline import plot_timeline, timeline_table

    if bot not in BOTS:
        _fail(f"unknown bot {bot!r}; known: {', '.join(sorted(BOTS))}")
    for path in (plot, json_out):
        if path is not None and not path.parent.is_dir():
            _fail(f"no folder {str(path.parent)!r} to write {path.name} in")
    service = _service(db)
    cid = f"sim{seed}"
    step = {
        "kind": "create",
        "id": cid,
        "name": f"simulated campaign, seed {seed}",
        "seed": seed,
        "options": {"munera": munera, **_options(option)},
        "lanistas": [{"id": f"l{i + 1}", "name": f"Lanista {i + 1}"} for i in range(lanistas)],
    }
    rows: list[dict[str, Any]] = []
    started = time.perf_counter()
    steps = [0]
    fights = [0]
    play = bot_fights(seed, bot)

    def counting(state: CampaignState, bout: str) -> PlayedBout:
        played = play(state, bout)
        fights[0] += len(played.reports)
        return played

    def on_step(step: dict[str, Any], result: StepResult) -> None:
        steps[0] += 1
        if step["kind"] == "munus_close":
            rows.extend(timeline_row(result.state))
            err.print(
                f"munus {result.state.meta.munus}: {steps[0]} steps, {fights[0]} fights, "
                f"{time.perf_counter() - started:.0f} s",
                highlight=False,
            )

    try:
        service.create(step)
        rows.extend(timeline_row(service.load(cid)))
        move = service.advance(cid, counting, until_munus_closed=munera, on_step=on_step)
        state = service.load(cid)
    except (CampaignError, StoreError) as exc:
        _fail(str(exc))
        raise
    elapsed = time.perf_counter() - started
    console.print(timeline_table(rows))
    console.print(
        f"{state.meta.munus} munera, {steps[0]} steps, {fights[0]} fights in {elapsed:.1f} s; "
        f"winner {state.meta.winner or '-'}; "
        + ("over" if move.over else f"stopped at {move.step or move.fight or move.waiting}"),
        highlight=False,
    )
    if json_out is not None:
        json_out.write_text(
            json.dumps(
                {
                    "seed": seed,
                    "munera": munera,
                    "bot": bot,
                    "fights": fights[0],
                    "steps": steps[0],
                    "seconds": round(elapsed, 1),
                    "winner": state.meta.winner,
                    "rows": rows,
                },
                indent=1,
            )
        )
    if plot is not None:
        plot_timeline(rows, plot)
        console.print(f"wrote {plot}", highlight=False)
