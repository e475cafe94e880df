"""`gladiator repair MATCH --db URL`: a stored match whose orders stop replaying, said exactly,
and resumed from its last good step with `--yes` (ruling HF5; the page's resume does the same
through `POST /api/matches/{id}/resume`)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from gladiator.cli.common import fail
from gladiator.store import Store, StoreError
from gladiator.store.resume import BrokenMatch, rebuild

__all__ = ["repair_command"]

console = Console()


def repair_command(
    match_id: Annotated[str, typer.Argument(help="The match's id.")],
    db: Annotated[
        str, typer.Option(help="Database URL: sqlite:///FILE or postgresql://USER@HOST/DB.")
    ] = "sqlite:///gladiator.db",
    yes: Annotated[
        bool, typer.Option("--yes", help="Drop the failing tail (kept in the audit) and resume.")
    ] = False,
) -> None:
    """Say where a stored match stops replaying; with --yes resume it from its last good step,
    its failing orders moved to the audit table (voided_orders)."""
    try:
        store = Store(db)
    except StoreError as exc:
        fail(f"--db: {exc}")
    try:
        stored = store.load(match_id)
        if stored is None:
            fail(f"there is no match {match_id!r} in {db}")
        try:
            rebuild(stored)
        except BrokenMatch as exc:
            failure = exc.failure
        else:
            console.print(f"ok: match {match_id} replays to its last order; nothing to repair")
            return
        f = failure
        console.print(
            f"match {match_id}: stored order {f.seq} ({f.seat}: {f.order}) at step {f.step} "
            f"fails: {f.reason}",
            highlight=False,
            markup=False,
        )
        if stored.status != "running":
            fail(
                f"match {match_id} is {stored.status}: its end stands; its replay shows it to "
                f"step {f.step}"
            )
        if not yes:
            console.print(
                f"run again with --yes to resume it from step {f.step}, dropping stored orders "
                f"{f.first_seq} to {len(stored.orders) - 1} (kept in voided_orders)",
                highlight=False,
            )
            return
        reason = f"resumed from step {f.step}: {f.reason}"
        dropped = store.voids.drop_tail(match_id, f.first_seq, reason)
        console.print(f"resumed match {match_id} from step {f.step}: {dropped} orders dropped")
    except StoreError as exc:
        fail(str(exc))
    finally:
        store.close()
