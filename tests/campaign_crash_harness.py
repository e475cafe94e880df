"""The real campaign in the crash harness (tests/campaign_store_harness.py).

`campaign_steps(options)` is a `StepFunction`: from the documents the store would hold it rebuilds
the `CampaignState` (the service's `state_of`), takes the driver's next move, plays a bout's
fights with bots in this process (seeded by `fight_seed`, so a replay is exact), applies the step
and gives what `CampaignService` would commit (`step_write`: the changed items, the ledger, the
state digest). `real_step` is it with the crash test's options, for the generic child.

Run as a script, this module is a child that drives the production path instead:
`CampaignService.create` and `CampaignService.advance` against the store, printing "committed N"
after each step; `campaign_crash_harness.py URL CAMPAIGN SEED TARGET OPTIONS_JSON`. With
HARNESS_HOLD_AT=N it stops inside step N's transaction, as the generic child does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from campaign_store_harness import (
    HOLD_VARIABLE,
    CampaignDocs,
    StepArgs,
    StepFunction,
    _hold_inside,
)
from gladiator.campaign import CampaignError, apply_step, state_digest
from gladiator.campaign.driver import next_move
from gladiator.campaign_service.service import (
    CampaignService,
    StepWrite,
    bot_fights,
    move_step,
    state_of,
    step_write,
)
from gladiator.store import CampaignStore, StoredCampaign
from gladiator.store.stored_campaign import StoredStep

# Four bot lanistas and munera enough that the campaign is not over before step 200.
LANISTAS = 4
CRASH_OPTIONS: dict[str, Any] = {"munera": 100}
BOT = "random"  # a fight in well under a second; the tactician is not on trial here
# §37.2.1: four to six bought per lanista; cheap styles so 4,000 sesterces cover six.
BOUGHT = ("velite", "myrmillo", "gallus", "retiarius", "thracian", "secutor")


def create_step(
    campaign_id: str, seed: int, options: Mapping[str, Any], bought: int = 4
) -> dict[str, Any]:
    step: dict[str, Any] = {
        "kind": "create",
        "id": campaign_id,
        "name": "Crash test",
        "seed": seed,
        "options": dict(options),
        "lanistas": [
            {"id": f"l{i}", "name": f"Lanista {i}", "kind": "bot"} for i in range(1, LANISTAS + 1)
        ],
    }
    if options.get("stables") == "bought":
        step["purchases"] = {
            f"l{i}": list(BOUGHT[(i + j) % len(BOUGHT)] for j in range(bought))
            for i in range(1, LANISTAS + 1)
        }
    return step


def _args(write: StepWrite) -> StepArgs:
    return StepArgs(
        write.kind,
        write.payload,
        write.meta,
        write.lanistas,
        write.gladiators,
        write.bouts,
        write.ledger,
        write.state_digest,
    )


def campaign_steps(
    options: Mapping[str, Any], campaign_id: str = "crash", bought: int = 4
) -> StepFunction:
    """The real campaign's steps, one a call, from the store's documents."""

    def step(seed: int, seq: int, docs: CampaignDocs | None) -> StepArgs:
        if seq == 0 or docs is None:
            first = create_step(campaign_id, seed, options, bought)
            return _args(step_write(None, first, apply_step(None, first)))
        state = stored_state(docs)
        if state.meta.seq != seq - 1:
            raise AssertionError(f"step {seq} asked of a state at step {state.meta.seq}")
        move = next_move(state)
        taken = move_step(state, move, bot_fights(seed, BOT))
        if taken is None:
            raise CampaignError(f"the campaign stopped at step {seq - 1}: {move}")
        return _args(step_write(state, taken, apply_step(state, taken)))

    return step


real_step = campaign_steps(CRASH_OPTIONS)


def stored_state(docs: CampaignDocs) -> Any:
    """The state the service loads from these documents (`state_of`, which takes the lanistas'
    order from the creation step: here, the order the documents have them in)."""
    at = datetime(2026, 1, 1, tzinfo=UTC)
    creation = StoredStep(0, "create", {"lanistas": [{"id": i} for i in docs.lanistas]}, "", at)
    stored = StoredCampaign(
        id=str(docs.meta["id"]),
        name=str(docs.meta["name"]),
        seed=int(docs.meta["seed"]),
        seq=int(docs.meta["seq"]),
        meta=docs.meta,
        lanistas=docs.lanistas,
        gladiators=docs.gladiators,
        bouts=docs.bouts,
        steps=(creation,),
        created_at=at,
        updated_at=at,
    )
    return state_of(stored)


def docs_digest(docs: CampaignDocs) -> str:
    """The digest the service records, of the state the documents hold."""
    return state_digest(stored_state(docs))


def start_service_child(
    url: str,
    campaign_id: str,
    seed: int,
    target: int,
    options: Mapping[str, Any] = CRASH_OPTIONS,
    *,
    hold_at: int | None = None,
) -> subprocess.Popen[str]:
    """This module as the child: the service's create and advance up to `target`."""
    env = dict(os.environ)
    env.pop(HOLD_VARIABLE, None)
    if hold_at is not None:
        env[HOLD_VARIABLE] = str(hold_at)
    args = [str(Path(__file__)), url, campaign_id, str(seed), str(target), json.dumps(options)]
    return subprocess.Popen(
        [sys.executable, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )


def main(argv: list[str]) -> None:
    url, campaign_id, seed, target = argv[0], argv[1], int(argv[2]), int(argv[3])
    options = json.loads(argv[4]) if len(argv) > 4 else CRASH_OPTIONS
    if os.environ.get(HOLD_VARIABLE):
        _hold_inside(int(os.environ[HOLD_VARIABLE]))
    with CampaignStore(url) as store:
        service = CampaignService(store)
        print("ready", flush=True)
        if store.seq(campaign_id) is None:
            service.create(create_step(campaign_id, seed, options))
            print("committed 0", flush=True)
        seq = store.seq(campaign_id) or 0
        move = service.advance(
            campaign_id,
            bot_fights(seed, BOT),
            max_steps=target - seq,
            on_step=lambda _step, result: print(f"committed {result.state.meta.seq}", flush=True),
        )
        if store.seq(campaign_id) != target:
            print(f"stopped at {store.seq(campaign_id)}: {move}", file=sys.stderr, flush=True)
            raise SystemExit(1)
    print("done", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
