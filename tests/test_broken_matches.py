"""A stored match whose orders stop replaying (ruling HF5): the store, the server and the
command line say exactly which stored order of which step fails, and resume it from its last
good step with the failing tail kept in the audit; never a bare 409."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from gladiator import registry
from gladiator.cli.main import app
from gladiator.core.match import Match
from gladiator.server.fault_injection import inject
from gladiator.store import Store, StoredSeat, StoreError, hash_token
from gladiator.store.resume import BrokenMatch, rebuild
from server_helpers import Client, arena, play

PATTERN = r"^SBL$"  # the quick rules' sidestep back-left: the order the engine will fail on
TOKENS = {"red": "red-token-0123456789", "blue": "blue-token-0123456789"}
SPECTATOR = "spectator-token-0123456789"


@pytest.fixture
def faulty_quick() -> Iterator[None]:
    """From here on the engine fails on SBL, as a later program might on an order it once took."""
    yield
    registry.unregister("quick")


def _store_broken(url: str, *, finished: bool = False) -> tuple[str, int, int]:
    """Store a quick match that played SBL at some step, as the server before HF1 would have;
    (match id, the step of the SBL, how many orders are stored)."""
    m = Match(registry.get("quick"), {}, seed=11, nonce="n")
    rng = random.Random(4)
    orders: list[tuple[str, str]] = []
    sbl_step = None
    while not m.finished and (finished or sbl_step is None or len(m.steps) < sbl_step + 3):
        for seat, d in m.pending().items():
            order = d.sample(rng)
            if sbl_step is None and order == "SBL":
                sbl_step = len(m.steps)
            orders.append((seat, order))
            m.submit(seat, order)
    assert sbl_step is not None
    with Store(url) as store:
        seats = [StoredSeat(s, "human", None, hash_token(TOKENS[s])) for s in m.seats]
        store.create_match(
            match_id="broken",
            ruleset="quick",
            options=m.options,
            seed=m.seed,
            nonce=m.nonce,
            commitment=m.commitment,
            seats=seats,
            spectator_hash=hash_token(SPECTATOR),
        )
        for seq, (seat, order) in enumerate(orders):
            store.add_order("broken", seq, seat, order)
        if finished:
            outcome = m.outcome
            assert outcome is not None
            store.finish("broken", outcome.to_dict(), m.record(reveal=True).to_dict())
    return "broken", sbl_step, len(orders)


def test_rebuild_names_the_stored_order_that_fails(url: str, faulty_quick: None) -> None:
    match_id, step, _count = _store_broken(url)
    inject("quick", PATTERN)
    with Store(url) as store:
        stored = store.load(match_id)
        assert stored is not None
        with pytest.raises(BrokenMatch) as caught:
            rebuild(stored)
    f = caught.value.failure
    assert (f.step, f.order, f.first_seq) == (step, "SBL", f.seq)  # quick: one seat a step
    assert stored.orders[f.seq] == (f.seat, "SBL")
    assert f"stored order {f.seq} ({f.seat}: SBL) at step {step} fails" in str(caught.value)
    assert "InjectedFault" in f.reason


def test_the_server_offers_the_resume_and_resumes(url: str, faulty_quick: None) -> None:
    """HF5: /view and the socket say where it fails; POST /resume drops the tail to the audit
    and the match is played on from its last good step."""
    match_id, step, count = _store_broken(url)
    inject("quick", PATTERN)
    with arena(url) as srv:
        base = srv.url
        red = {"authorization": f"Bearer {TOKENS['red']}"}
        seen = httpx.get(f"{base}/api/matches/{match_id}/view", headers=red, timeout=10)
        assert seen.status_code == 409
        body = seen.json()
        assert body["broken"]["step"] == step and body["broken"]["order"] == "SBL"
        assert body["resume"] == f"/api/matches/{match_id}/resume"
        assert f"order SBL at step {step} can no longer be played" in body["error"]
        with connect(f"{base.replace('http', 'ws')}/ws/{match_id}") as ws:
            ws.send(json.dumps({"type": "hello", "token": TOKENS["red"]}))
            with pytest.raises(ConnectionClosed):
                ws.recv(timeout=10)
            assert ws.close_code == 4409
        wrong = {"authorization": "Bearer not-a-token-of-this-match"}
        refused = httpx.post(f"{base}/api/matches/{match_id}/resume", headers=wrong, timeout=10)
        assert refused.status_code == 403
        done = httpx.post(f"{base}/api/matches/{match_id}/resume", headers=red, timeout=10)
        assert done.status_code == 200, done.text
        answer = done.json()
        assert answer["from_step"] == step and answer["dropped"] == count - body["broken"]["seq"]
        again = httpx.post(f"{base}/api/matches/{match_id}/resume", headers=red, timeout=10)
        assert again.status_code == 409 and "nothing" in again.json()["error"]
        view = httpx.get(f"{base}/api/matches/{match_id}/view", headers=red, timeout=10).json()
        assert len(view["events"]) > 0 and view["view"]["outcome"] is None
        clients = [Client(base, match_id) for _ in TOKENS]
        for client, token in zip(clients, TOKENS.values(), strict=True):
            client.hello(token)
        play(clients, random.Random(9), timeout=120)
        for client in clients:
            client.close()
    with Store(url) as store:
        audit = store.voids.orders(match_id)
        resumed = [v for v in audit if v.reason.startswith(f"resumed from step {step}")]
        assert resumed[0].order == "SBL" and len(resumed) == answer["dropped"]
        # Played on, the engine still failed on SBL: each time its decision was voided (HF1).
        voided = [v for v in audit if v not in resumed]
        assert all(v.order == "SBL" and "engine fault" in v.reason for v in voided)
        stored = store.load(match_id)
        assert stored is not None and stored.status == "finished"


def test_a_finished_broken_record_replays_to_its_last_good_step(
    url: str, faulty_quick: None
) -> None:
    match_id, step, _count = _store_broken(url, finished=True)
    inject("quick", PATTERN)
    with arena(url) as srv:
        got = httpx.get(f"{srv.url}/api/matches/{match_id}/replay?step=0", timeout=30)
        assert got.status_code == 200, got.text
        shown = got.json()
        assert shown["steps"] == step and shown["broken"]["step"] == step
        assert "SBL" in shown["broken"]["orders"].values()
        past = httpx.get(f"{srv.url}/api/matches/{match_id}/replay?step={step + 1}", timeout=30)
        assert past.status_code == 400
        red = {"authorization": f"Bearer {TOKENS['red']}"}
        resume = httpx.post(f"{srv.url}/api/matches/{match_id}/resume", headers=red, timeout=10)
        assert resume.status_code == 409 and "its end stands" in resume.json()["error"]


def test_repair_on_the_command_line(url: str, faulty_quick: None) -> None:
    match_id, step, count = _store_broken(url)
    inject("quick", PATTERN)
    runner = CliRunner()
    told = runner.invoke(app, ["repair", match_id, "--db", url])
    assert told.exit_code == 0, told.output
    assert f"at step {step} fails" in told.output and "--yes" in told.output
    with Store(url) as store:
        stored = store.load(match_id)
        assert stored is not None and len(stored.orders) == count  # nothing dropped yet
    done = runner.invoke(app, ["repair", match_id, "--db", url, "--yes"])
    assert done.exit_code == 0 and f"resumed match {match_id} from step {step}" in done.output
    with Store(url) as store:
        stored = store.load(match_id)
        assert stored is not None
        rebuild(stored)  # replays now
    ok = runner.invoke(app, ["repair", match_id, "--db", url])
    assert ok.exit_code == 0 and "nothing to repair" in ok.output
    missing = runner.invoke(app, ["repair", "nope", "--db", url])
    assert missing.exit_code == 2 and "there is no match 'nope'" in missing.output


def test_verify_names_the_step(tmp_path: Path, faulty_quick: None) -> None:
    m = Match(registry.get("quick"), {}, seed=11, nonce="n")
    rng = random.Random(4)
    while not m.finished:
        m.apply_step({s: d.sample(rng) for s, d in m.pending().items()})
    steps = m.record().steps
    bad = next((i for i, s in enumerate(steps) if "SBL" in s.values()), None)
    assert bad is not None
    path = tmp_path / "rec.json"
    path.write_text(m.record(reveal=True).to_json())
    inject("quick", PATTERN)
    out = CliRunner().invoke(app, ["verify", str(path)])
    assert out.exit_code == 2
    assert f"step {bad} (" in out.output and f"the {bad} steps before it replay" in out.output


def test_voids_are_refused_on_a_match_that_is_not_running(url: str) -> None:
    match_id, _step, _count = _store_broken(url, finished=True)
    with Store(url) as store, pytest.raises(StoreError, match="the match is finished"):
        store.voids.drop_tail(match_id, 0, "test")
    with Store(url) as store, pytest.raises(StoreError, match="the match is finished"):
        store.voids.void_decision(match_id, 0, "test", [("red", "F")])
