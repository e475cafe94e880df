"""A crash harness for the campaign store: a child process commits campaign steps, the test kills
it with SIGKILL, checks what the database kept, and resumes it.

Steps come from a `StepFunction`, (seed, seq, state) -> `StepArgs`: seq 0 with no state gives the
campaign's creation, every later seq the arguments of `CampaignStore.commit_step` computed from
the state after seq - 1. It must be deterministic from (seed, seq, state), so a resumed run writes
exactly what an uninterrupted one would. `synthetic_step` is a small one (transfers between
lanistas, the bank and bout escrows; recruits; bouts scheduled and settled; gladiators dying and
retiring); the real campaign (gladiator.campaign.apply_step) plugs in the same way, named to the
child as "module:function".

Run as a script, this module is the child: `campaign_store_harness.py URL CAMPAIGN SEED TARGET
[module:function]`; it prints "committed N" after each step it commits. With
HARNESS_HOLD_AT=N it stops inside step N's transaction (rows written, not committed), prints
"holding N" and waits to be killed.
"""

from __future__ import annotations

import copy
import importlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text

from gladiator.store import CampaignStore, LedgerLine, documents_digest

Doc = dict[str, Any]
HOLD_VARIABLE = "HARNESS_HOLD_AT"


@dataclass
class CampaignDocs:
    """A campaign state as the store keeps it: meta and three collections of documents by id."""

    meta: Doc
    lanistas: dict[str, Doc]
    gladiators: dict[str, Doc]
    bouts: dict[str, Doc]

    def digest(self) -> str:
        return documents_digest(
            self.meta, self.lanistas.values(), self.gladiators.values(), self.bouts.values()
        )


@dataclass
class StepArgs:
    """What one step writes: the arguments of `commit_step` (of `create_campaign` at seq 0)."""

    kind: str
    payload: Doc
    meta: Doc
    lanistas: list[Doc] = field(default_factory=list)
    gladiators: list[Doc] = field(default_factory=list)
    bouts: list[Doc] = field(default_factory=list)
    ledger: list[tuple[str, int, str]] = field(default_factory=list)
    state_digest: str = ""


StepFunction = Callable[[int, int, CampaignDocs | None], StepArgs]


def _plain(doc: Mapping[str, Any]) -> Doc:
    # What the store gives back: the document through JSON.
    return dict(json.loads(json.dumps(doc)))


def applied(state: CampaignDocs | None, args: StepArgs) -> CampaignDocs:
    """The state after a step: its meta, and its items upserted by id."""
    # Steps never change a document in place (they give new ones), so copying the collections
    # is enough.
    new = CampaignDocs(
        _plain(args.meta),
        {} if state is None else dict(state.lanistas),
        {} if state is None else dict(state.gladiators),
        {} if state is None else dict(state.bouts),
    )
    for docs, items in (
        (new.lanistas, args.lanistas),
        (new.gladiators, args.gladiators),
        (new.bouts, args.bouts),
    ):
        for item in items:
            docs[item["id"]] = _plain(item)
    return new


def docs_of(stored: Any) -> CampaignDocs:
    """A StoredCampaign (or anything with the four collections) as CampaignDocs."""
    return CampaignDocs(
        copy.deepcopy(stored.meta),
        copy.deepcopy(stored.lanistas),
        copy.deepcopy(stored.gladiators),
        copy.deepcopy(stored.bouts),
    )


# -- the synthetic steps -----------------------------------------------------------------------

LANISTAS = ("ann", "bob", "cyn")
OPENING_PURSE = 1000


def _with_digest(state: CampaignDocs | None, args: StepArgs) -> StepArgs:
    args.state_digest = applied(state, args).digest()
    return args


def _opening(seed: int) -> StepArgs:
    lanistas = [
        {"id": lid, "name": lid.title(), "kind": "human" if i == 0 else "bot", "purse": 0}
        for i, lid in enumerate(LANISTAS)
    ]
    gladiators = [
        {"id": f"{lid}{n}", "lanista": lid, "status": "alive", "wins": 0, "seq": 0}
        for lid in LANISTAS
        for n in (1, 2)
    ]
    ledger: list[tuple[str, int, str]] = []
    for lanista in lanistas:
        lanista["purse"] = OPENING_PURSE
        ledger += [
            (f"lanista:{lanista['id']}", OPENING_PURSE, "opening purse"),
            ("bank", -OPENING_PURSE, f"opening purse of {lanista['id']}"),
        ]
    meta = {"seed": seed, "seq": 0, "munus": 0, "phase": "setup"}
    return _with_digest(
        None,
        StepArgs("create", {"lanistas": len(LANISTAS)}, meta, lanistas, gladiators, [], ledger),
    )


def synthetic_step(seed: int, seq: int, state: CampaignDocs | None) -> StepArgs:
    """A deterministic step from (seed, seq, state): the harness's stand-in for apply_step."""
    if seq == 0 or state is None:
        return _opening(seed)
    rng = random.Random(f"{seed}:{seq}")
    meta = {**state.meta, "seq": seq, "munus": seq // 20, "phase": "munus"}
    scheduled = sorted(b for b, doc in state.bouts.items() if doc["status"] == "scheduled")
    kind = rng.choice(["transfer", "transfer", "recruit", "schedule", "settle", "retire"])
    if kind == "settle" and scheduled:
        return _with_digest(state, _settle(rng, seq, state, meta, rng.choice(scheduled)))
    if kind == "schedule":
        args = _schedule(rng, seq, state, meta)
        if args is not None:
            return _with_digest(state, args)
    if kind == "recruit":
        return _with_digest(state, _recruit(rng, seq, state, meta))
    if kind == "retire":
        args = _retire(rng, seq, state, meta)
        if args is not None:
            return _with_digest(state, args)
    return _with_digest(state, _transfer(rng, seq, state, meta))


def _paid(doc: Doc, amount: int) -> Doc:
    return {**doc, "purse": doc["purse"] + amount}


def _transfer(rng: random.Random, seq: int, state: CampaignDocs, meta: Doc) -> StepArgs:
    payer, payee = rng.sample(LANISTAS, 2)
    amount = rng.randint(0, max(0, state.lanistas[payer]["purse"] // 4))
    changed = {payer: _paid(state.lanistas[payer], -amount)}
    changed[payee] = _paid(state.lanistas[payee], amount)
    ledger = [(f"lanista:{payer}", -amount, "transfer"), (f"lanista:{payee}", amount, "transfer")]
    # A bank fee on top, sometimes: three accounts in one step.
    if rng.random() < 0.5 and changed[payee]["purse"] >= 5:
        fee = rng.randint(1, 5)
        changed[payee] = _paid(changed[payee], -fee)
        ledger += [(f"lanista:{payee}", -fee, "fee"), ("bank", fee, f"fee of {payee}")]
    payload = {"kind": "transfer", "actor": payer, "to": payee, "amount": amount}
    return StepArgs("transfer", payload, meta, list(changed.values()), [], [], ledger)


def _recruit(rng: random.Random, seq: int, state: CampaignDocs, meta: Doc) -> StepArgs:
    buyer = rng.choice(LANISTAS)
    price = min(state.lanistas[buyer]["purse"], rng.randint(10, 60))
    gladiator = {"id": f"g{seq}", "lanista": buyer, "status": "alive", "wins": 0, "seq": seq}
    ledger = [(f"lanista:{buyer}", -price, f"bought g{seq}"), ("bank", price, f"sold g{seq}")]
    payload = {"kind": "recruit", "actor": buyer, "price": price}
    lanista = _paid(state.lanistas[buyer], -price)
    return StepArgs("recruit", payload, meta, [lanista], [gladiator], [], ledger)


def _alive(state: CampaignDocs, lid: str) -> list[str]:
    busy = {g for b in state.bouts.values() if b["status"] == "scheduled" for g in b["gladiators"]}
    return sorted(
        g
        for g, doc in state.gladiators.items()
        if doc["lanista"] == lid and doc["status"] == "alive" and g not in busy
    )


def _schedule(rng: random.Random, seq: int, state: CampaignDocs, meta: Doc) -> StepArgs | None:
    first, second = rng.sample(LANISTAS, 2)
    sides = [_alive(state, first), _alive(state, second)]
    if not sides[0] or not sides[1]:
        return None
    fighters = [rng.choice(sides[0]), rng.choice(sides[1])]
    bout_id = f"b{seq}"
    escrow = f"escrow:{bout_id}"
    changed: list[Doc] = []
    ledger: list[tuple[str, int, str]] = []
    wagers = {}
    for lid in (first, second):
        wager = rng.randint(0, state.lanistas[lid]["purse"] // 3)
        changed.append(_paid(state.lanistas[lid], -wager))
        wagers[lid] = wager
        ledger += [(f"lanista:{lid}", -wager, f"wager on {bout_id}"), (escrow, wager, lid)]
    bout = {
        "id": bout_id,
        "munus": meta["munus"],
        "status": "scheduled",
        "lanistas": [first, second],
        "gladiators": fighters,
        "wagers": wagers,
        "match_ids": [],
    }
    payload = {"kind": "schedule", "actor": first, "bout": bout_id}
    return StepArgs("schedule", payload, meta, changed, [], [bout], ledger)


def _settle(rng: random.Random, seq: int, state: CampaignDocs, meta: Doc, bout_id: str) -> StepArgs:
    bout = dict(state.bouts[bout_id])
    winner = rng.randrange(2)
    win_lanista, win_gladiator = bout["lanistas"][winner], bout["gladiators"][winner]
    lose_gladiator = bout["gladiators"][1 - winner]
    pot = sum(bout["wagers"].values())
    lanista = _paid(state.lanistas[win_lanista], pot)
    victor = {
        **state.gladiators[win_gladiator],
        "wins": state.gladiators[win_gladiator]["wins"] + 1,
    }
    loser = {**state.gladiators[lose_gladiator]}
    loser["status"] = rng.choice(["alive", "alive", "dead"])
    bout.update(status="settled", winner=win_gladiator, match_ids=[f"m{seq}a", f"m{seq}b"])
    ledger = [(f"escrow:{bout_id}", -pot, "settled"), (f"lanista:{win_lanista}", pot, "winnings")]
    payload = {"kind": "settle", "actor": None, "bout": bout_id}
    return StepArgs("settle", payload, meta, [lanista], [victor, loser], [bout], ledger)


def _retire(rng: random.Random, seq: int, state: CampaignDocs, meta: Doc) -> StepArgs | None:
    lid = rng.choice(LANISTAS)
    candidates = _alive(state, lid)
    if not candidates:
        return None
    who = {**state.gladiators[rng.choice(candidates)], "status": "retired", "seq": seq}
    return StepArgs("retire", {"kind": "retire", "actor": lid}, meta, [], [who], [], [])


# -- running -----------------------------------------------------------------------------------


def run_steps(
    store: CampaignStore,
    campaign_id: str,
    seed: int,
    target: int,
    step: StepFunction,
    *,
    report: Callable[[int], None] | None = None,
) -> None:
    """Create the campaign unless stored, then commit steps from the stored seq to `target`."""
    stored = store.load_campaign(campaign_id)
    if stored is None:
        args = step(seed, 0, None)
        store.create_campaign(
            campaign_id,
            "Harness",
            seed,
            args.meta,
            args.lanistas,
            args.gladiators,
            args.bouts,
            args.ledger,
            state_digest=args.state_digest,
            payload=args.payload,
        )
        state = applied(None, args)
        seq = 0
        if report:
            report(0)
    else:
        state, seq = docs_of(stored), stored.seq
    while seq < target:
        seq += 1
        args = step(seed, seq, state)
        store.commit_step(
            campaign_id,
            seq,
            args.kind,
            args.payload,
            args.meta,
            args.lanistas,
            args.gladiators,
            args.bouts,
            args.ledger,
            args.state_digest,
        )
        state = applied(state, args)
        if report:
            report(seq)


@dataclass
class Reference:
    """An uninterrupted run without a database: the state, ledger and writers after each step."""

    states: list[CampaignDocs]
    ledgers: list[list[tuple[str, int, str]]]
    kinds: list[str]
    digests: list[str]
    # (table, item id) -> the seq of the step that last wrote it, after each step.
    writers: list[dict[tuple[str, str], int]]


def reference_run(seed: int, target: int, step: StepFunction) -> Reference:
    ref = Reference([], [], [], [], [])
    state: CampaignDocs | None = None
    writers: dict[tuple[str, str], int] = {}
    for seq in range(target + 1):
        args = step(seed, seq, state)
        state = applied(state, args)
        for table, items in (
            ("lanistas", args.lanistas),
            ("gladiators", args.gladiators),
            ("bouts", args.bouts),
        ):
            writers.update({(table, item["id"]): seq for item in items})
        ref.states.append(state)
        ref.ledgers.append(list(args.ledger))
        ref.kinds.append(args.kind)
        ref.digests.append(args.state_digest)
        ref.writers.append(dict(writers))
    return ref


def check_stored(
    url: str,
    campaign_id: str,
    ref: Reference,
    digest: Callable[[CampaignDocs], str] = CampaignDocs.digest,
) -> int:
    """Check what the database holds is exactly the reference after its stored seq (no half
    step, no doubled step, a balanced ledger, the recorded digest that of the rows by `digest`,
    the step function's own); return that seq."""
    with CampaignStore(url) as store:
        stored = store.load_campaign(campaign_id)  # itself refuses gaps and unbalanced steps
        assert stored is not None
        seq = stored.seq
        want = ref.states[seq]
        assert docs_of(stored) == want, f"the stored state differs from the reference at {seq}"
        assert [s.kind for s in stored.steps] == ref.kinds[: seq + 1]
        assert [s.state_digest for s in stored.steps] == ref.digests[: seq + 1]
        assert stored.state_digest == digest(docs_of(stored)) == digest(want)
        lines = store.ledger(campaign_id)
        balances = store.balances(campaign_id)
    expected = [
        LedgerLine(s, account, amount, memo)
        for s in range(seq + 1)
        for account, amount, memo in ref.ledgers[s]
    ]
    assert lines == expected, f"the ledger differs from the reference at step {seq}"
    for s in range(seq + 1):
        assert sum(line.amount for line in lines if line.seq == s) == 0
    assert sum(balances.values()) == 0
    for lid, doc in want.lanistas.items():
        assert balances.get(f"lanista:{lid}", 0) == doc["purse"], f"the purse of {lid}"
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            writers = {
                (table, str(item)): int(step_seq)
                for table in ("lanistas", "gladiators", "bouts")
                for item, step_seq in conn.execute(
                    text(f"SELECT id, seq FROM {table} WHERE campaign_id = :c"), {"c": campaign_id}
                )
            }
    finally:
        engine.dispose()
    assert writers == ref.writers[seq], f"an item row is not at the step that wrote it ({seq})"
    return seq


def start_child(
    url: str,
    campaign_id: str,
    seed: int,
    target: int,
    generator: str,
    *,
    hold_at: int | None = None,
) -> subprocess.Popen[str]:
    env = dict(os.environ)
    env.pop(HOLD_VARIABLE, None)
    if hold_at is not None:
        env[HOLD_VARIABLE] = str(hold_at)
    args = [
        sys.executable,
        str(Path(__file__)),
        url,
        campaign_id,
        str(seed),
        str(target),
        generator,
    ]
    return subprocess.Popen(
        args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )


def kill_when(child: subprocess.Popen[str], line_wanted: Callable[[str], bool]) -> list[str]:
    """Read the child's lines until one is wanted, then SIGKILL it; the lines read. A child that
    ends first fails the test with the end of what it wrote to stderr."""
    assert child.stdout is not None and child.stderr is not None
    seen: list[str] = []
    for line in child.stdout:
        seen.append(line.strip())
        if line_wanted(seen[-1]):
            child.send_signal(signal.SIGKILL)
            child.wait(timeout=30)
            return seen
    child.wait(timeout=30)
    raise AssertionError(
        f"the child ended ({child.returncode}) after {seen[-3:]}: {child.stderr.read()[-2000:]}"
    )


def _hold_inside(hold_at: int) -> None:
    """Stop inside step `hold_at`'s transaction, after its rows are written, until killed."""
    original = CampaignStore._write_step

    def holding(conn: Any, campaign_id: str, seq: int, *rest: Any) -> None:
        original(conn, campaign_id, seq, *rest)
        if seq == hold_at:
            print(f"holding {seq}", flush=True)
            time.sleep(600)

    CampaignStore._write_step = staticmethod(holding)  # type: ignore[method-assign]


def main(argv: list[str]) -> None:
    url, campaign_id, seed, target = argv[0], argv[1], int(argv[2]), int(argv[3])
    module, _, name = (
        argv[4] if len(argv) > 4 else "campaign_store_harness:synthetic_step"
    ).partition(":")
    step = getattr(importlib.import_module(module), name)
    if os.environ.get(HOLD_VARIABLE):
        _hold_inside(int(os.environ[HOLD_VARIABLE]))
    with CampaignStore(url) as store:
        print("ready", flush=True)
        run_steps(
            store,
            campaign_id,
            seed,
            target,
            step,
            report=lambda seq: print(f"committed {seq}", flush=True),
        )
    print("done", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
