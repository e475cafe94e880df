"""The campaign API of the web arena (issue #11, docs/web.md Campaigns): a campaign created with
secret links for its human lanistas, a public view without secrets, lanistas' actions as steps
(refused ones write nothing), bots and bot-only bouts played by the server, and a human's fight
created once as an arena match and settled once, across restarts."""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from gladiator.server.campaign_runner import CampaignRunner, fight_match_id
from gladiator.server.loadtest import sample_order
from gladiator.store import Store
from gladiator.store.resume import rebuild
from server_helpers import Client, arena, db_url, tokens_of

SEED = 7  # with "You" entering one man: munus 1 gives him bout b21 against Bot 2's g10


def create(base: str, humans: int = 1, munera: int = 1, seed: int = SEED) -> dict[str, Any]:
    lanistas = [{"name": f"Human {i}", "kind": "human"} for i in range(1, humans + 1)]
    lanistas += [{"name": f"Bot {i}", "kind": "bot"} for i in range(humans + 1, 5)]
    body = {"name": "Test", "seed": seed, "lanistas": lanistas, "options": {"munera": munera}}
    answer = httpx.post(f"{base}/api/campaigns", json=body, timeout=30)
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    return made


def token(made: dict[str, Any], lanista: str = "l1") -> str:
    return tokens_of(made["lanistas"][lanista]["link"])[0]


def view(base: str, campaign: str, tok: str | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {tok}"} if tok else {}
    answer = httpx.get(f"{base}/api/campaigns/{campaign}", headers=headers, timeout=30)
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def act(base: str, campaign: str, tok: str, **step: Any) -> httpx.Response:
    return httpx.post(
        f"{base}/api/campaigns/{campaign}/actions",
        json=step,
        headers={"Authorization": f"Bearer {tok}"},
        timeout=60,
    )


def wait_for(
    base: str, campaign: str, pred: Callable[[dict[str, Any]], bool], timeout: float = 120
) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        data = view(base, campaign)
        if pred(data):
            return data
        assert time.monotonic() < end, json.dumps(data)[:2000]
        time.sleep(0.2)


def waits_for_human(data: dict[str, Any]) -> bool:
    return data["waiting"] == ["l1"]


def in_munus(data: dict[str, Any]) -> bool:
    return data["phase"] == "munus" and waits_for_human(data)


def first_man(data: dict[str, Any], lanista: str = "l1") -> str:
    return next(g["id"] for g in data["gladiators"] if g["lanista"] == lanista)


def to_munus(base: str, made: dict[str, Any]) -> dict[str, Any]:
    """Enter the human's first man alone and wait for the munus to wait on him."""
    data = wait_for(base, made["id"], waits_for_human)
    entered = first_man(data)
    answer = act(base, made["id"], token(made), kind="ready", entries=[entered])
    assert answer.status_code == 200, answer.text
    return wait_for(base, made["id"], in_munus)


def his_bout(data: dict[str, Any]) -> dict[str, Any]:
    return next(b for b in data["bouts"] if any(s["lanista"] == "l1" for s in b["sides"]))


def test_create_gives_only_the_humans_a_link_and_the_view_holds_no_secret(tmp_path: Path) -> None:
    with arena(db_url(tmp_path)) as server:
        made = create(server.url)
        assert set(made["lanistas"]) == {"l1", "l2", "l3", "l4"}
        assert "link" in made["lanistas"]["l1"]
        assert all("link" not in made["lanistas"][lid] for lid in ("l2", "l3", "l4"))
        secret = token(made)
        data = wait_for(server.url, made["id"], waits_for_human)
        assert [g["lanista"] for g in data["gladiators"]].count("l1") == 5
        assert {lan["id"]: lan["purse"] for lan in data["lanistas"]}["l1"] == 2000
        mine = view(server.url, made["id"], secret)
        assert mine["you"] == "l1" and data["you"] is None
        for text in (json.dumps(data), json.dumps(mine)):
            assert secret not in text
            assert "seed" not in text
        with Store(db_url(tmp_path)) as store:
            stored = store.campaigns.load_campaign(made["id"])
            assert stored is not None
            assert secret not in json.dumps([stored.meta, stored.lanistas])


def test_a_wrong_token_and_an_unknown_campaign_are_refused(tmp_path: Path) -> None:
    with arena(db_url(tmp_path)) as server:
        made = create(server.url)
        wrong = httpx.get(
            f"{server.url}/api/campaigns/{made['id']}",
            headers={"Authorization": "Bearer nope"},
            timeout=10,
        )
        assert wrong.status_code == 403
        assert act(server.url, made["id"], "nope", kind="ready").status_code == 403
        assert httpx.get(f"{server.url}/api/campaigns/zzz", timeout=10).status_code == 404
        no_token = httpx.post(
            f"{server.url}/api/campaigns/{made['id']}/actions", json={"kind": "ready"}, timeout=10
        )
        assert no_token.status_code == 401


def _balances(tmp_path: Path, campaign: str) -> tuple[int | None, dict[str, int]]:
    with Store(db_url(tmp_path)) as store:
        return store.campaigns.seq(campaign), store.campaigns.balances(campaign)


def test_refused_actions_write_nothing(tmp_path: Path) -> None:
    with arena(db_url(tmp_path)) as server:
        made = create(server.url)
        data = to_munus(server.url, made)
        bout = his_bout(data)
        before = _balances(tmp_path, made["id"])
        # §37.4: a wager over the purse.
        over = act(server.url, made["id"], token(made), kind="offer_odds", bout=bout["id"], odds=4)
        assert over.status_code == 400 and "purse" in over.json()["error"]
        # A lanista's link acts for him alone.
        other = act(server.url, made["id"], token(made), kind="ready", actor="l2")
        assert other.status_code == 403
        # Not his man; an arena step is not a lanista's.
        theirs = first_man(data, "l2")
        spend = act(
            server.url,
            made["id"],
            token(made),
            kind="spend_xp",
            gladiator=theirs,
            purchases=[{"what": "tr"}],
        )
        assert spend.status_code == 400 and "his own" in spend.json()["error"]
        arena_step = act(server.url, made["id"], token(made), kind="munus_close")
        assert arena_step.status_code == 400
        assert _balances(tmp_path, made["id"]) == before


def test_a_dead_gladiator_cannot_be_entered(tmp_path: Path) -> None:
    with arena(db_url(tmp_path)) as server:
        made = create(server.url)
        data = wait_for(server.url, made["id"], waits_for_human)
        dead = first_man(data)
        with Store(db_url(tmp_path)) as store:
            _kill(store, made["id"], dead)
        before = _balances(tmp_path, made["id"])
        answer = act(server.url, made["id"], token(made), kind="ready", entries=[dead])
        assert answer.status_code == 400 and "dead" in answer.json()["error"]
        assert _balances(tmp_path, made["id"]) == before


def _kill(store: Store, campaign: str, gladiator: str) -> None:
    """Write the gladiator dead as a step of its own (a test's stand-in for the arena)."""
    stored = store.campaigns.load_campaign(campaign)
    assert stored is not None
    doc = {**stored.gladiators[gladiator], "status": "dead"}
    meta = {**stored.meta, "seq": stored.seq + 1}
    store.campaigns.commit_step(
        campaign, stored.seq + 1, "test_kill", {}, meta, [], [doc], [], [], "test"
    )


def test_a_bot_only_campaign_plays_its_munus_to_the_end(tmp_path: Path) -> None:
    with arena(db_url(tmp_path)) as server:
        made = create(server.url, humans=0)
        data = wait_for(server.url, made["id"], lambda d: d["phase"] == "over", timeout=300)
        assert data["munus"] == 1 and data["winner"] in {"l1", "l2", "l3", "l4"}
        assert data["bouts"] and all(b["status"] == "settled" for b in data["bouts"])
        assert sum(lan["purse"] for lan in data["lanistas"]) > 0


def _arena_fight(base: str, campaign: str) -> dict[str, Any]:
    data = wait_for(base, campaign, lambda d: bool(his_bout(d)["fights"]))
    fight: dict[str, Any] = his_bout(data)["fights"][0]
    return fight


def _play_slowly(client: Client, rng: random.Random, timeout: float = 300) -> None:
    """Random legal orders, under the socket's 20 messages a second."""
    end = time.monotonic() + timeout
    while not client.over:
        assert time.monotonic() < end, client.view
        if client.my_turn():
            client.order(sample_order(client.view["decision"], rng))
            time.sleep(0.06)
        with contextlib.suppress(TimeoutError):
            client.recv(timeout=0.05)


def _matches_of(tmp_path: Path, campaign: str) -> list[str]:
    """The campaign's arena matches with a human seat (its bot-only fights are kept too, as
    finished matches for their replays)."""
    with Store(db_url(tmp_path)) as store:
        return [
            m.id
            for m in store.list_matches(limit=500)
            if m.id.startswith(f"{campaign}-") and any(kind == "human" for _, kind, _ in m.seats)
        ]


def test_a_human_fight_is_created_once_and_settled_once_across_restarts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = db_url(tmp_path)
    with arena(url) as server:
        made = create(server.url)
        secret = token(made)
        bout = his_bout(to_munus(server.url, made))
        assert act(server.url, made["id"], secret, kind="ready").status_code == 200
        fight = _arena_fight(server.url, made["id"])
        assert fight["match"] == fight_match_id(made["id"], bout["id"], 0)
        assert fight["over"] is False
        seat = next(s for s, lid in fight["seats"].items() if lid == "l1")
    # The server restarts; the fight is found again, not made anew. Its end is not noticed
    # (as if the server died between the match's end and the campaign's step).
    monkeypatch.setattr(CampaignRunner, "_on_finish", lambda self, match_id: None)
    with arena(url) as server:
        assert _matches_of(tmp_path, made["id"]) == [fight["match"]]
        client = Client(server.url, fight["match"])
        assert client.hello(secret)["seat"] == seat
        _play_slowly(client, random.Random(3))
        client.close()
        seq = view(server.url, made["id"])["seq"]
        assert his_bout(view(server.url, made["id"]))["status"] == "scheduled"
    monkeypatch.undo()
    # At the next start the finished fight is settled, once.
    with arena(url) as server:
        data = wait_for(server.url, made["id"], lambda d: his_bout(d)["status"] == "settled")
        settled = his_bout(data)
        assert settled["matches"] == [fight["match"]]
        steps = [
            e for e in data["events"] if e["kind"] == "bout_result" and e["bout"] == bout["id"]
        ]
        assert len(steps) == 1 and steps[0]["matches"] == [fight["match"]]
        assert data["seq"] > seq
        mine = next(g for g in data["gladiators"] if g["id"] in bout["sides"][0]["gladiators"])
        record = mine["record"]
        assert sum(record.values()) == 1 or mine["status"] == "dead"
        after = wait_for(server.url, made["id"], lambda d: d["phase"] in ("between", "over"))
    with arena(url) as server:
        again = wait_for(server.url, made["id"], lambda d: True)
        assert again["seq"] == after["seq"] or again["phase"] == after["phase"]
        assert _matches_of(tmp_path, made["id"]) == [fight["match"]]
        bouts = [
            e for e in again["events"] if e["kind"] == "bout_result" and e.get("bout") == bout["id"]
        ]
        assert len(bouts) == 1


def test_l12_a_bid_in_the_view_says_who_bid_not_how_much() -> None:
    from gladiator.server.campaign_api import _step_line

    line = _step_line(
        3, "bid", {"kind": "bid", "actor": "l2", "gladiator": "g5", "amount": 700}, "t"
    )
    assert line == {"seq": 3, "kind": "bid", "at": "t", "actor": "l2", "gladiator": "g5"}
    odds = _step_line(4, "offer_odds", {"actor": "l1", "bout": "b2", "odds": 3}, "t")
    assert odds["odds"] == 3  # odds are offered openly (§37.4)


def test_every_bout_fought_in_the_server_is_kept_with_a_replay(tmp_path: Path) -> None:
    """Issue #29: a bout nobody plays in the arena is fought in the server, and each of its
    fights is kept as a finished match under its fight id, whose replay ends as the bout did."""
    with arena(db_url(tmp_path)) as server:
        made = create(server.url)
        to_munus(server.url, made)
        mine = his_bout(view(server.url, made["id"]))
        answer = act(server.url, made["id"], token(made), kind="bot_fight", bout=mine["id"])
        assert answer.status_code == 200, answer.text
        assert act(server.url, made["id"], token(made), kind="ready").status_code == 200
        data = wait_for(server.url, made["id"], lambda d: d["phase"] == "over")
        for bout in data["bouts"]:
            ids = [fight_match_id(made["id"], bout["id"], n) for n in range(len(bout["fights"]))]
            assert bout["matches"] == ids and ids, bout
            for fight in bout["fights"]:
                assert fight["over"] and fight["seats"] == {}  # nobody plays a kept fight
                rec = httpx.get(f"{server.url}/api/matches/{fight['match']}/record", timeout=30)
                assert rec.status_code == 200
                steps = len(rec.json()["steps"])
                last = httpx.get(
                    f"{server.url}/api/matches/{fight['match']}/replay?step={steps}", timeout=60
                )
                assert last.status_code == 200, last.text
                assert last.json()["view"]["outcome"] == rec.json()["outcome"]
                # its orders are kept too: the match rebuilds to its end, as any finished one
                with Store(db_url(tmp_path)) as store:
                    stored = store.load(fight["match"])
                assert stored is not None and stored.status == "finished"
                rebuilt = rebuild(stored)
                assert rebuilt.finished and rebuilt.record().final_hash == rec.json()["final_hash"]


def test_a_lanistas_two_men_in_one_bout_are_both_played_through_his_one_link(
    tmp_path: Path,
) -> None:
    """Issue #29: a Two Pairs bout with two of his men: his link's token, scoped to each seat
    (`TOKEN:seat`), opens both seats of the arena match, both are asked and the bout settles."""
    with arena(db_url(tmp_path)) as server:
        made = create(server.url, seed=4)
        secret = token(made)
        data = wait_for(server.url, made["id"], waits_for_human)
        his = [g["id"] for g in data["gladiators"] if g["lanista"] == "l1"][:2]
        assert act(server.url, made["id"], secret, kind="ready", entries=his).status_code == 200
        bout = his_bout(wait_for(server.url, made["id"], in_munus))
        assert bout["type"] == "two_pairs"
        assert act(server.url, made["id"], secret, kind="ready").status_code == 200
        fight = _arena_fight(server.url, made["id"])
        mine = sorted(seat for seat, lid in fight["seats"].items() if lid == "l1")
        assert mine == ["green", "red"]
        clients = [Client(server.url, fight["match"]) for _ in mine]
        for client, seat in zip(clients, mine, strict=True):
            assert client.hello(f"{secret}:{seat}")["seat"] == seat
        plain = Client(server.url, fight["match"])
        assert plain.hello(secret)["seat"] == "red"  # the plain token: his first seat
        plain.close()
        rng = random.Random(5)
        end = time.monotonic() + 300
        while not all(c.over for c in clients):
            assert time.monotonic() < end
            for client in clients:
                if not client.over and client.my_turn():
                    client.order(sample_order(client.view["decision"], rng))
                with contextlib.suppress(TimeoutError):
                    client.recv(timeout=0.05)
        for client in clients:
            client.close()
        settled = wait_for(server.url, made["id"], lambda d: his_bout(d)["status"] == "settled")
        assert his_bout(settled)["matches"] == [fight["match"]]
