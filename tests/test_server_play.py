"""Whole matches through the web arena: against a bot, hotseat, a reconnect that receives exactly
the missed events, a server restart in the middle of a secret decision, the §7.5-style decision
clock, and the finished match's record and step-by-step replay."""

from __future__ import annotations

import contextlib
import json
import logging
import random
import time
from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

import httpx
import pytest

from gladiator import registry
from gladiator.core.decisions import Decision
from gladiator.core.match import Match
from gladiator.core.record import MatchRecord
from gladiator.core.seeding import matches_commitment
from gladiator.server.loadtest import sample_order
from gladiator.store import Store, StoredSeat, hash_token
from server_helpers import Client, arena, db_url, new_match, play, tokens_of
from toy_ruleset import ToyRules, ToyState

QUICK = {"max_rounds": 5}


class TimedToy(ToyRules):
    """The toy game with a clock on B's secret picks: 0.3 s, then B1 is given in B's name."""

    name: ClassVar[str] = "toy-timed"

    def pending(self, state: ToyState) -> Mapping[str, Decision]:
        return {
            seat: replace(d, time_limit=0.3, on_timeout="B1") if d.secret and seat == "B" else d
            for seat, d in super().pending(state).items()
        }


@pytest.fixture(autouse=True, scope="module")
def _toys() -> Iterator[None]:
    """The toy rulesets for this module only: other modules list every registered ruleset
    (/api/rulesets) and expect the real ones' option schemas."""
    toys = (ToyRules(), TimedToy())
    for toy in toys:
        registry.register(toy)
    yield
    for toy in toys:
        registry.unregister(toy.name)


def _record(base: str, match_id: str) -> MatchRecord:
    answer = httpx.get(f"{base}/api/matches/{match_id}/record")
    assert answer.status_code == 200, answer.text
    return MatchRecord.from_dict(answer.json())


def test_human_against_a_bot_finishes_and_replays(tmp_path: Path) -> None:
    with arena(db_url(tmp_path)) as server:
        made = new_match(server.url, options=QUICK, seats={"blue": "bot:random"}, seed=31)
        assert made["seats"]["blue"] == {"kind": "bot", "bot": "random"}
        assert set(made["tokens"]) == {"red"}
        red = Client(server.url, made["id"])
        red.hello(made["tokens"]["red"])
        play([red], random.Random(1))
        rec = _record(server.url, made["id"])
        Match.replay(rec, registry.get("quick"))
        assert rec.outcome == red.view["outcome"]
        assert any("blue" in step for step in rec.steps)  # the bot did play
        red.close()


def test_hotseat_two_tokens_two_sockets_finish(tmp_path: Path) -> None:
    with arena(db_url(tmp_path)) as server:
        made = new_match(server.url, options=QUICK, seed=32)
        tokens = tokens_of(made["hotseat"])
        assert sorted(tokens) == sorted(made["tokens"].values())
        clients = [Client(server.url, made["id"]) for _ in tokens]
        for c, t in zip(clients, tokens, strict=True):
            c.hello(t)
        play(clients, random.Random(2))
        assert clients[0].events == clients[1].events
        Match.replay(_record(server.url, made["id"]), registry.get("quick"))


def test_reconnect_receives_exactly_the_missed_events(tmp_path: Path) -> None:
    with arena(db_url(tmp_path)) as server:
        made = new_match(server.url, options={"max_rounds": 20}, seed=33)
        red, blue = Client(server.url, made["id"]), Client(server.url, made["id"])
        red.hello(made["tokens"]["red"])
        blue.hello(made["tokens"]["blue"])
        rng = random.Random(3)
        # Play on until it is blue's turn (quick rules: one side acts at a time).
        play([red, blue], rng, until=lambda: blue.my_turn() and not red.my_turn())
        red.close()
        kept = list(red.events)
        # Blue plays on alone until red must decide again.
        while not blue.over and "red" not in blue.view["waiting_for"]:
            if blue.my_turn():
                blue.order(sample_order(blue.view["decision"], rng))
            blue.recv()
        assert len(blue.events) > len(kept)
        back = Client(server.url, made["id"])
        back.events = list(kept)
        back.send({"type": "hello", "token": made["tokens"]["red"], "last_event": len(kept)})
        welcome = back.recv()
        assert welcome["type"] == "welcome" and welcome["seat"] == "red"
        back.seat = "red"
        update = back.wait(lambda m: m["type"] == "update")
        assert update["first_event"] == len(kept)
        assert update["events"] == blue.events[len(kept) :]
        assert back.events == blue.events
        view = httpx.get(
            f"{server.url}/api/matches/{made['id']}/view",
            headers={"Authorization": f"Bearer {made['tokens']['red']}"},
        ).json()["view"]
        assert update["view"] == view
        play([back, blue], rng)
        Match.replay(_record(server.url, made["id"]), registry.get("quick"))


def test_restart_in_a_half_submitted_secret_decision(tmp_path: Path) -> None:
    url = db_url(tmp_path)
    rng = random.Random(4)
    with arena(url) as server:
        made = new_match(server.url, "toy", seed=34)
        a, b = Client(server.url, made["id"]), Client(server.url, made["id"])
        a.hello(made["tokens"]["A"])
        b.hello(made["tokens"]["B"])
        # Round 1 (and any §T.4 bonus) as usual; in round 2 B does not pick.
        while not (a.my_turn() and a.view["phase"] == "pick" and a.view["history"]):
            for c in (a, b):
                if c.my_turn() and (c is a or c.view["phase"] == "bonus" or not c.view["history"]):
                    c.order(sample_order(c.view["decision"], rng))
                with contextlib.suppress(TimeoutError):
                    c.recv(timeout=0.02)
        a.order("A3")  # §T.2: a secret pick, then the server stops before B picks
        a.wait(lambda m: m["type"] == "ack")
        before = len(a.events)
    with Store(url) as store:
        paused = store.load(made["id"])
        assert paused is not None and paused.orders[-1] == ("A", "A3")
    # A new server on the same database file resumes the match.
    with arena(url) as server:
        a2, b2 = Client(server.url, made["id"]), Client(server.url, made["id"])
        a2.hello(made["tokens"]["A"], last_event=0)
        b2.hello(made["tokens"]["B"], last_event=0)
        assert len(a2.events) == before
        assert a2.view["my_order"] == "A3" and a2.view["submitted"] == ["A"]
        assert b2.view["submitted"] == ["A"] and "my_order" not in b2.view
        assert all("A3" not in f for f in b2.frames)  # still secret after the restart
        play([a2, b2], rng)
        rec = _record(server.url, made["id"])
        assert rec.seed is not None and rec.nonce is not None
        assert matches_commitment(rec.seed, rec.nonce, made["commitment"])
        Match.replay(rec, registry.get("toy"))
    with Store(url) as store:
        stored = store.load(made["id"])
        assert stored is not None and stored.status == "finished"
        assert stored.orders[: len(paused.orders)] == paused.orders


def test_a_timed_decision_sends_a_clock_and_gives_on_timeout_when_it_runs_out(
    tmp_path: Path,
) -> None:
    with arena(db_url(tmp_path)) as server:
        made = new_match(server.url, "toy-timed", seed=35)
        a = Client(server.url, made["id"])
        a.hello(made["tokens"]["A"])
        # B never connects: each of its picks runs out and B1 is given in its name.
        play([a], random.Random(7), until=lambda: len(a.view.get("history", [])) >= 2)
        clocks = [m for m in a.messages if m["type"] == "clock"]
        started = [m for m in clocks if not m.get("expired")]
        expired = [m for m in clocks if m.get("expired")]
        assert started and all(m["seat"] == "B" and m["deadline"] > 0 for m in started)
        assert expired and all(m["seat"] == "B" for m in expired)
        assert [h["B"] for h in a.view["history"]] == [1, 1]
    with Store(db_url(tmp_path)) as store:
        stored = store.load(made["id"])
        assert stored is not None
        assert [o for seat, o in stored.orders if seat == "B"][:2] == ["B1", "B1"]


def test_record_and_replay_steps_of_a_finished_match(tmp_path: Path) -> None:
    with arena(db_url(tmp_path)) as server:
        made = new_match(server.url, "toy", seed=36)
        mid = made["id"]
        assert httpx.get(f"{server.url}/api/matches/{mid}/record").status_code == 409
        assert httpx.get(f"{server.url}/api/matches/{mid}/replay").status_code == 409
        a, b = Client(server.url, mid), Client(server.url, mid)
        a.hello(made["tokens"]["A"])
        b.hello(made["tokens"]["B"])
        play([a, b], random.Random(6))
        rec = _record(server.url, mid)
        total = len(rec.steps)
        events: list[dict[str, Any]] = []
        for k in range(total + 1):
            step = httpx.get(f"{server.url}/api/matches/{mid}/replay", params={"step": k}).json()
            assert step["steps"] == total and step["step"] == k
            assert step["orders"] == (rec.steps[k - 1] if k else {})
            assert "decision" not in step["view"]
            events.extend(step["events"])
        assert events == rec.events
        assert step["view"]["outcome"] == rec.outcome and step["view"]["seed"] == rec.seed
        bad = httpx.get(f"{server.url}/api/matches/{mid}/replay", params={"step": total + 1})
        assert bad.status_code == 400 and "error" in bad.json()
        assert httpx.get(f"{server.url}/api/matches/nosuchmatch1/replay").status_code == 404


def test_player_text_only_ever_comes_back_inside_json_strings(tmp_path: Path) -> None:
    script = "<script>alert(1)</script>"
    with arena(db_url(tmp_path)) as server:
        made = new_match(server.url, options=QUICK, seed=37)
        c = Client(server.url, made["id"])
        c.hello(made["tokens"]["red"])
        c.order(script)
        err = c.wait(lambda m: m["type"] == "error")
        assert script in err["message"]  # quoted back, as a JSON string value
        for raw in c.frames:
            json.loads(raw)  # every frame is JSON as a whole
        answer = httpx.post(
            f"{server.url}/api/matches/{made['id']}/orders",
            headers={"Authorization": f"Bearer {made['tokens']['red']}"},
            json={"order": script},
        )
        assert answer.headers["content-type"] == "application/json"
        assert script in json.dumps(answer.json(), ensure_ascii=False)
        bad = httpx.post(
            f"{server.url}/api/matches", json={"ruleset": "quick", "seats": {script: "human"}}
        )
        assert bad.status_code == 400 and bad.headers["content-type"] == "application/json"
        for path in (f"/match/{script}", f"/api/matches/{script}/record", "/nothing/here"):
            page = httpx.get(server.url + path)
            assert page.status_code == 404 and script not in page.text
            assert page.headers["content-type"] == "application/json"
        c.close()


def test_a_match_of_bots_plays_itself_and_a_late_spectator_sees_the_end(tmp_path: Path) -> None:
    with arena(db_url(tmp_path)) as server:
        made = new_match(
            server.url, options=QUICK, seats={"red": "bot:random", "blue": "bot:greedy"}, seed=38
        )
        assert made["hotseat"] is None and made["tokens"] == {}
        end = time.monotonic() + 60
        while httpx.get(f"{server.url}/api/matches/{made['id']}/record").status_code == 409:
            assert time.monotonic() < end, "the bots did not finish"
            time.sleep(0.05)
        rec = _record(server.url, made["id"])
        Match.replay(rec, registry.get("quick"))
        spec = Client(server.url, made["id"])
        spec.hello(made["spectator_token"])
        assert spec.over and spec.events == rec.events
        assert spec.view["seed"] == rec.seed
        assert "decision" not in spec.view and spec.view["waiting_for"] == []
        spec.close()


def test_bots_on_the_server_play_the_same_match_again_from_the_same_seed(tmp_path: Path) -> None:
    """A bot draws from a generator seeded by the match's secret seed, its seat and the step (not
    from the match's dice): two bot matches with one seed are the same match."""
    records = []
    with arena(db_url(tmp_path)) as server:
        for _ in range(2):
            made = new_match(
                server.url, options=QUICK, seats={"red": "bot:random", "blue": "bot:random"}, seed=5
            )
            end = time.monotonic() + 60
            while httpx.get(f"{server.url}/api/matches/{made['id']}/record").status_code == 409:
                assert time.monotonic() < end, "the bots did not finish"
                time.sleep(0.05)
            records.append(_record(server.url, made["id"]))
    assert records[0].nonce != records[1].nonce
    assert records[0].steps == records[1].steps and len(records[0].steps) > 3
    assert records[0].final_hash == records[1].final_hash


def test_a_broken_match_is_logged_and_skipped_on_resume(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    url = db_url(tmp_path)
    with arena(url) as server:
        good = new_match(server.url, "toy", seed=40)
        bad = new_match(server.url, "toy", seed=41)
    with Store(url) as store:
        store.add_order(bad["id"], 0, "A", "A9")  # §T.2 allows A1..A3 only
    with caplog.at_level(logging.WARNING, logger="gladiator.server"), arena(url) as server:
        problems = [r.getMessage() for r in caplog.records if bad["id"] in r.getMessage()]
        assert len(problems) == 1 and "A9" in problems[0]
        ok = Client(server.url, good["id"])
        assert ok.hello(good["tokens"]["A"])["seat"] == "A"
        ok.close()
        broken = Client(server.url, bad["id"])
        broken.send({"type": "hello", "token": bad["tokens"]["A"]})
        assert broken.closed_with() == 4409  # a stored order fails: the view says which (HF5)
        view = httpx.get(
            f"{server.url}/api/matches/{bad['id']}/view",
            headers={"Authorization": f"Bearer {bad['tokens']['A']}"},
        )
        assert view.status_code == 409 and "A9" in view.json()["error"]
        assert view.json()["broken"]["order"] == "A9"


def test_a_match_whose_end_was_not_stored_is_finished_on_resume(tmp_path: Path) -> None:
    """A server that stopped between storing the last order and storing the end: on resume the
    match is over, so the hub stores its end and publishes the record."""
    url = db_url(tmp_path)
    m = Match(registry.get("toy"), {}, seed=42)
    rng = random.Random(8)
    with Store(url) as store:
        store.create_match(
            match_id="crashed1",
            ruleset="toy",
            options=m.options,
            seed=m.seed,
            nonce=m.nonce,
            commitment=m.commitment,
            seats=[
                StoredSeat("A", "human", None, hash_token("token-a")),
                StoredSeat("B", "human", None, hash_token("token-b")),
            ],
            spectator_hash=hash_token("token-s"),
        )
        seq = 0
        while not m.finished:
            for seat, decision in list(m.pending().items()):
                order = decision.sample(rng)
                store.add_order("crashed1", seq, seat, order)
                m.submit(seat, order)
                seq += 1
        assert store.record("crashed1") is None
    with arena(url) as server:
        rec = _record(server.url, "crashed1")
        assert rec.steps == m.steps and rec.outcome == m.record().outcome
        Match.replay(rec, registry.get("toy"))
