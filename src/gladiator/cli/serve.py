"""`gladiator serve`: the web arena in this process (docs/web.md, docs/deploy.md)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from gladiator.cli.common import fail, number

__all__ = ["serve_command"]

console = Console()


def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on (0: any free port).")] = 8000,
    db: Annotated[
        str, typer.Option(help="Database URL: sqlite:///FILE or postgresql://USER@HOST/DB.")
    ] = "sqlite:///gladiator.db",
    allow_origin: Annotated[
        list[str] | None,
        typer.Option("--allow-origin", help="A further origin allowed to call (repeatable)."),
    ] = None,
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-host",
            help="A further Host name to answer (repeatable); on loopback only loopback names "
            "are answered unless given.",
        ),
    ] = None,
    abandon_after: Annotated[
        str,
        typer.Option(
            help="Seconds of silence from every human seat before the seats the match "
            "waits for forfeit (0: never)."
        ),
    ] = "600",
    void_after: Annotated[
        str,
        typer.Option(help="Seconds before a match no human ever joined is voided (0: never)."),
    ] = "3600",
    create_rate: Annotated[
        str,
        typer.Option(help="New matches and campaigns a minute per client address (0: no limit)."),
    ] = "30",
    create_burst: Annotated[str, typer.Option(help="How many of those may come at once.")] = "10",
    request_timeout: Annotated[
        float,
        typer.Option(help="Seconds a connection has to send a whole request before it is closed."),
    ] = 10.0,
    max_connections: Annotated[
        int | None,
        typer.Option(
            help="Client connections open at once (default: what the open-file limit allows)."
        ),
    ] = None,
    max_per_address: Annotated[
        int, typer.Option(help="Client connections open at once from one address.")
    ] = 128,
    public_url: Annotated[
        str | None,
        typer.Option(
            help="Where clients reach this process (default: the address it listens on); "
            "other processes on the same database send its matches' clients here."
        ),
    ] = None,
    bot_budget_cap: Annotated[
        str,
        typer.Option(
            help="The most CPU seconds a bot seat may think a decision: a seat asking more is "
            "refused, a stored one plays at the cap (ruling HF2)."
        ),
    ] = "2",
    bot_workers: Annotated[
        str | None,
        typer.Option(
            help="Worker processes the bots think in, at a lower CPU priority (default: one "
            "fewer than the cores, at least 1; ruling HF3)."
        ),
    ] = None,
    min_deadline: Annotated[
        str,
        typer.Option(
            help="The shortest correspondence deadline a match may be created with, in "
            "seconds (ruling CP1; less than 60 is for tests and load runs)."
        ),
    ] = "60",
    smtp_host: Annotated[
        str | None,
        typer.Option(
            help="The SMTP server that sends correspondence players their e-mail notices and "
            "lost links (default: none, no e-mail; rulings CP5-CP7)."
        ),
    ] = None,
    smtp_port: Annotated[str, typer.Option(help="The SMTP server's port.")] = "587",
    smtp_from: Annotated[
        str | None, typer.Option(help="The address the mail comes from (needed with --smtp-host).")
    ] = None,
    smtp_user: Annotated[
        str | None, typer.Option(help="The user to log in to the SMTP server as (default: none).")
    ] = None,
    smtp_password_env: Annotated[
        str | None,
        typer.Option(
            metavar="NAME",
            help="The environment variable that holds the SMTP password (never a flag: every "
            "user of the machine can read a command line).",
        ),
    ] = None,
    smtp_starttls: Annotated[
        bool,
        typer.Option(
            "--smtp-starttls/--no-smtp-starttls",
            help="Switch the SMTP connection to TLS (STARTTLS) before logging in and sending.",
        ),
    ] = True,
    inject_fault: Annotated[
        list[str] | None,
        typer.Option(
            "--inject-fault",
            help="Testing aid: RULESET:PATTERN makes that ruleset's engine fail on every "
            "decision with an order matching the regular expression (repeatable; ruling HF1).",
        ),
    ] = None,
) -> None:
    """The web arena: matches in the browser, over the network, with bots and spectators.
    Several processes may share one database (docs/deploy.md)."""
    from gladiator.server.abandonment import abandon_policy
    from gladiator.server.app import create_app
    from gladiator.server.bot_pool import bot_policy, default_workers
    from gladiator.server.correspondence import DeadlinePolicy
    from gladiator.server.fault_injection import inject, parse_injection
    from gladiator.server.listen import Limits, open_listener, url_of
    from gladiator.server.listen import serve as run_server
    from gladiator.server.mail import mail_policy
    from gladiator.server.rate_limit import create_limit
    from gladiator.server.security import hosts_for, normalise_origin
    from gladiator.store import Store

    try:
        origins = [normalise_origin(o) for o in allow_origin or []]
    except ValueError as exc:
        fail(f"--allow-origin: {exc}")
        return
    try:
        policy = abandon_policy(
            number("--abandon-after", abandon_after), number("--void-after", void_after)
        )
        burst = number("--create-burst", create_burst)
        if burst != int(burst):
            raise ValueError(f"--create-burst must be a whole number, not {create_burst}")
        limit = create_limit(number("--create-rate", create_rate), int(burst))
        workers = default_workers() if bot_workers is None else number("--bot-workers", bot_workers)
        bots = bot_policy(number("--bot-budget-cap", bot_budget_cap), workers)
        shortest = number("--min-deadline", min_deadline)
        if shortest != int(shortest):
            raise ValueError(f"--min-deadline must be a whole number of seconds, not {shortest}")
        try:
            deadlines = DeadlinePolicy(min_seconds=int(shortest))
        except ValueError as exc:
            raise ValueError(f"--min-deadline: {exc}") from None
        limits = Limits.checked(
            request_timeout=request_timeout,
            max_connections=max_connections,
            max_per_address=max_per_address,
        )
    except ValueError as exc:
        fail(str(exc))
        return
    try:
        injections = [parse_injection(text) for text in inject_fault or []]
        port_number = number("--smtp-port", smtp_port)
        mail = mail_policy(
            smtp_host, port_number, smtp_from, smtp_user, smtp_password_env, smtp_starttls
        )
    except ValueError as exc:
        fail(str(exc))
        return
    if public_url is not None:
        try:
            public_url = normalise_origin(public_url)
        except ValueError as exc:
            fail(f"--public-url: {exc}")
            return
    try:
        sock = open_listener(host, port)
    except ValueError as exc:
        fail(str(exc))
        return
    try:
        store = Store(db)
    except ValueError as exc:  # StoreError: a bad URL or an unusable database
        sock.close()
        fail(f"--db: {exc}")
        return
    for name, pattern in injections:
        inject(name, pattern)
        console.print(f"injecting engine faults: {name} orders matching {pattern!r}")
    if mail is not None:
        console.print(f"e-mail notices through {mail.host}:{mail.port}", highlight=False)
    console.print(f"GLADIATOR arena on {url_of(sock)}/ (Ctrl-C stops)", highlight=False)
    try:
        run_server(
            create_app(
                store,
                allowed_origins=origins,
                allowed_hosts=hosts_for(host, allow_host),
                abandon=policy,
                create_limit=limit,
                public_url=public_url or url_of(sock),
                bot_policy=bots,
                deadlines=deadlines,
                mail=mail,
            ),
            sock,
            limits=limits,
        )
    finally:
        store.close()
