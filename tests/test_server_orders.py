"""Orders over the socket (docs/web.md, Websocket): acknowledged only once stored, an illegal
order answered with what is legal on a connection that stays open, and the close codes for a
bad hello, no hello, an oversize message and a flood."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from gladiator.server import security
from gladiator.server.listen import Listening
from gladiator.store import Store
from server_helpers import Client, arena, db_url, new_match

QUICK = {"max_rounds": 5}


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    return db_url(tmp_path_factory.mktemp("orders"))


@pytest.fixture(scope="module")
def server(db: str) -> Iterator[Listening]:
    with arena(db) as running:
        yield running


def _mover(server: Listening, made: dict[str, Any]) -> Client:
    """A socket for the seat that must act first (quick rules: one seat at a time)."""
    probe = Client(server.url, made["id"])
    probe.hello(made["tokens"]["red"])
    if "red" in probe.view["waiting_for"]:
        return probe
    probe.close()
    blue = Client(server.url, made["id"])
    blue.hello(made["tokens"]["blue"])
    return blue


def test_ack_comes_only_after_the_order_is_stored(server: Listening, db: str) -> None:
    made = new_match(server.url, options=QUICK, seed=21)
    c = _mover(server, made)
    legal = [o["text"] for o in c.view["decision"]["options"]]
    reader = Store(db)  # another connection, as another process would see the database
    try:
        for i in range(3):
            if not c.my_turn():
                break
            order = legal[0] if i == 0 else c.view["decision"]["options"][0]["text"]
            cid = c.order(order.lower())  # any spelling; the ack gives the canonical one
            ack = c.wait(lambda m: m["type"] in ("ack", "error"))
            assert ack == {"type": "ack", "id": cid, "order": order}
            stored = reader.load(made["id"])
            assert stored is not None and stored.orders[-1] == (c.seat, order)
            assert len(stored.orders) == i + 1
            c.wait(lambda m: m["type"] == "update")
    finally:
        reader.close()
        c.close()


def test_illegal_order_gets_the_legal_ones_and_the_socket_stays_open(server: Listening) -> None:
    made = new_match(server.url, options=QUICK, seed=22)
    c = _mover(server, made)
    legal = [o["text"] for o in c.view["decision"]["options"]]
    c.order("FLY AWAY", cid="x1")
    err = c.wait(lambda m: m["type"] == "error")
    assert err["id"] == "x1" and "'FLY AWAY' is illegal" in err["message"]
    assert err["legal"] == legal[:50]
    c.order(legal[0], cid="x2")
    assert c.wait(lambda m: m["type"] == "ack")["id"] == "x2"
    # Over HTTP, the same answer as JSON with a refusal status.
    seat_token = made["tokens"][c.seat or ""]
    answer = httpx.post(
        f"{server.url}/api/matches/{made['id']}/orders",
        headers={"Authorization": f"Bearer {seat_token}"},
        json={"order": "FLY AWAY", "id": "h1"},
    )
    assert answer.status_code == 409
    body = answer.json()
    assert "illegal" in body["error"] or "nothing to decide" in body["error"]
    c.close()


def test_bad_messages_after_hello_get_an_error_and_the_socket_stays_open(
    server: Listening,
) -> None:
    made = new_match(server.url, options=QUICK, seed=23)
    c = _mover(server, made)
    for bad in ("{not json", json.dumps({"type": "dance"}), json.dumps({"type": "order"})):
        c.send(bad)
        err = c.wait(lambda m: m["type"] == "error")
        assert err["id"] is None and err["message"]
    c.send(json.dumps({"type": "order", "order": "x" * 501}))
    assert "500" in c.wait(lambda m: m["type"] == "error")["message"]
    c.send({"type": "ping"})
    c.order(c.view["decision"]["options"][0]["text"])
    assert c.wait(lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
    c.close()


@pytest.mark.parametrize(
    "first,code",
    [
        ("{not json", security.CLOSE_BAD_HELLO),
        (json.dumps({"type": "order", "order": "E"}), security.CLOSE_BAD_HELLO),
        (json.dumps([1, 2]), security.CLOSE_BAD_HELLO),
        (json.dumps({"type": "hello", "token": "t", "last_event": -1}), security.CLOSE_BAD_HELLO),
        (json.dumps({"type": "hello", "token": "t", "extra": 1}), security.CLOSE_BAD_HELLO),
        (json.dumps({"type": "hello"}), security.CLOSE_NO_TOKEN),
        ("x" * (security.MAX_MESSAGE + 1), security.CLOSE_TOO_BIG),
    ],
)
def test_close_codes_of_a_bad_hello(server: Listening, first: str, code: int) -> None:
    made = new_match(server.url, options=QUICK, seed=24)
    c = Client(server.url, made["id"])
    c.send(first)
    assert c.closed_with() == code
    assert not c.messages


def test_no_hello_in_time_is_4408(server: Listening, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(security, "HELLO_TIMEOUT", 0.2)
    made = new_match(server.url, options=QUICK, seed=25)
    c = Client(server.url, made["id"])
    assert c.closed_with() == security.CLOSE_NO_HELLO


def test_oversize_message_after_hello_is_1009(server: Listening) -> None:
    made = new_match(server.url, options=QUICK, seed=26)
    c = _mover(server, made)
    c.send(json.dumps({"type": "order", "order": "E", "pad": "x" * security.MAX_MESSAGE}))
    assert c.closed_with() == security.CLOSE_TOO_BIG


def test_a_flood_is_4429(server: Listening) -> None:
    made = new_match(server.url, options=QUICK, seed=27)
    c = _mover(server, made)
    for _ in range(200):  # far over 20 a second, whatever the machine
        c.send({"type": "ping"})
    assert c.closed_with() == security.CLOSE_RATE


def test_token_bucket_allows_a_second_of_burst_then_the_rate() -> None:
    now = [0.0]
    bucket = security.TokenBucket(20, clock=lambda: now[0])
    assert all(bucket.take() for _ in range(20))
    assert not bucket.take()
    now[0] += 0.5  # half a second refills ten
    assert sum(bucket.take() for _ in range(20)) == 10


def test_a_client_message_is_checked_strictly_and_refused_in_the_players_words() -> None:
    """`true` is not the message id 1; a refusal names the field, never pydantic's internals."""
    from pydantic import ValidationError

    from gladiator.server.messages import first_problem, parse_client

    for text, said in (
        ('{"type":"order","id":true,"order":"F"}', "id: input should be a valid string or"),
        ('{"type":"order","id":1.5,"order":"F"}', "id: input should be a valid string or"),
        ('{"type":"hello","token":5}', "token: input should be a valid string"),
        ('{"type":"order","order":"F","x":1}', "x: extra inputs are not permitted"),
    ):
        with pytest.raises(ValidationError) as err:
            parse_client(text)
        problem = first_problem(err.value)
        assert problem.startswith(said), problem
        assert "constrained" not in problem
    assert parse_client('{"type":"order","id":7,"order":"F"}').id == 7
