"""Web arena access (docs/web.md, HTTP and Websocket): every token-guarded endpoint and the socket
refuse a missing, wrong or other match's token with the documented status or close code; a
spectator sees the public view only and cannot order; a foreign Origin is refused."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from gladiator.server.listen import Listening
from server_helpers import Client, arena, db_url, new_match

QUICK = {"max_rounds": 5}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Listening]:
    path: Path = tmp_path_factory.mktemp("auth")
    with arena(db_url(path), allowed_origins=["https://friend.example"]) as running:
        yield running


@pytest.fixture(scope="module")
def two(server: Listening) -> tuple[dict[str, Any], dict[str, Any]]:
    return (
        new_match(server.url, options=QUICK, seed=11),
        new_match(server.url, options=QUICK, seed=12),
    )


def _bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token is not None else {}


@pytest.mark.parametrize("method,path", [("GET", "view"), ("POST", "orders")])
def test_http_token_matrix(
    server: Listening, two: tuple[dict[str, Any], dict[str, Any]], method: str, path: str
) -> None:
    a, b = two
    url = f"{server.url}/api/matches/{a['id']}/{path}"
    body = {"order": "E"} if method == "POST" else None
    cases = [
        (None, 401),  # no token
        ("not-a-token", 403),  # a wrong one
        (b["tokens"]["red"], 403),  # a seat token of another match
        (b["spectator_token"], 403),  # another match's spectator
    ]
    for token, status in cases:
        answer = httpx.request(method, url, headers=_bearer(token), json=body)
        assert answer.status_code == status, (token, answer.text)
        assert set(answer.json()) == {"error"}
    # Another scheme, or "Bearer" with nothing after it, is no token at all.
    for header in ("Basic cmVkOnJlZA==", "Bearer"):
        answer = httpx.request(method, url, headers={"Authorization": header}, json=body)
        assert answer.status_code == 401
    answer = httpx.request(
        method,
        f"{server.url}/api/matches/nosuchmatch1/{path}",
        headers=_bearer(a["tokens"]["red"]),
        json=body,
    )
    assert answer.status_code == 404 and "error" in answer.json()


@pytest.mark.parametrize(
    "token_of,code",
    [
        (lambda a, b: None, 4401),
        (lambda a, b: "", 4401),
        (lambda a, b: "not-a-token", 4403),
        (lambda a, b: b["tokens"]["red"], 4403),
        (lambda a, b: b["spectator_token"], 4403),
    ],
)
def test_socket_token_matrix(
    server: Listening, two: tuple[dict[str, Any], dict[str, Any]], token_of: Any, code: int
) -> None:
    a, b = two
    c = Client(server.url, a["id"])
    hello: dict[str, Any] = {"type": "hello", "last_event": 0}
    token = token_of(a, b)
    if token is not None:
        hello["token"] = token
    c.send(hello)
    assert c.closed_with() == code
    assert not c.messages  # refused before a single byte of the match was sent


def test_socket_unknown_match_is_4404(
    server: Listening, two: tuple[dict[str, Any], dict[str, Any]]
) -> None:
    c = Client(server.url, "nosuchmatch1")
    c.send({"type": "hello", "token": two[0]["tokens"]["red"]})
    assert c.closed_with() == 4404


def test_a_seat_token_opens_only_its_own_seat(
    server: Listening, two: tuple[dict[str, Any], dict[str, Any]]
) -> None:
    a, _ = two
    red, blue = Client(server.url, a["id"]), Client(server.url, a["id"])
    assert red.hello(a["tokens"]["red"])["seat"] == "red"
    assert blue.hello(a["tokens"]["blue"])["seat"] == "blue"
    # Quick rules §7: one seat acts at a time; the other's token cannot act for it.
    idle = blue if "red" in red.view["waiting_for"] else red
    assert "decision" not in idle.view
    idle.order("E")
    err = idle.wait(lambda m: m["type"] == "error")
    assert "nothing to decide" in err["message"]
    red.close()
    blue.close()


def test_spectator_sees_the_public_view_and_cannot_order(
    server: Listening, two: tuple[dict[str, Any], dict[str, Any]]
) -> None:
    a, _ = two
    spec = Client(server.url, a["id"])
    welcome = spec.hello(a["spectator_token"])
    assert welcome["seat"] is None and welcome["role"] == "spectator"
    assert "decision" not in spec.view and "my_order" not in spec.view
    spec.order("E", cid="s1")
    err = spec.wait(lambda m: m["type"] == "error")
    assert err["id"] == "s1" and "spectator" in err["message"]
    spec.send({"type": "ping"})  # still open
    spec.close()
    headers = _bearer(a["spectator_token"])
    view = httpx.get(f"{server.url}/api/matches/{a['id']}/view", headers=headers)
    assert view.status_code == 200
    assert view.json()["role"] == "spectator" and "decision" not in view.json()["view"]
    answer = httpx.post(
        f"{server.url}/api/matches/{a['id']}/orders", headers=headers, json={"order": "E"}
    )
    assert answer.status_code == 403 and "spectator" in answer.json()["error"]


def test_foreign_origin_is_refused(
    server: Listening, two: tuple[dict[str, Any], dict[str, Any]]
) -> None:
    a, _ = two
    c = Client(server.url, a["id"], origin="https://evil.example")
    c.send({"type": "hello", "token": a["tokens"]["red"]})
    assert c.closed_with() == 4403 and not c.messages
    body = {"ruleset": "quick", "options": QUICK}
    evil = httpx.post(
        f"{server.url}/api/matches", json=body, headers={"Origin": "https://evil.example"}
    )
    assert evil.status_code == 403 and "origin" in evil.json()["error"]
    own = httpx.post(f"{server.url}/api/matches", json=body, headers={"Origin": server.url})
    assert own.status_code == 201
    friend = httpx.post(
        f"{server.url}/api/matches", json=body, headers={"Origin": "https://friend.example"}
    )
    assert friend.status_code == 201
    ok = Client(server.url, a["id"], origin=server.url)
    assert ok.hello(a["tokens"]["red"])["seat"] == "red"
    ok.close()


def test_security_headers_on_pages_and_api(server: Listening) -> None:
    for path in ("/", "/api/rulesets", "/api/matches"):
        answer = httpx.get(server.url + path)
        assert answer.status_code == 200
        csp = answer.headers["content-security-policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert answer.headers["x-content-type-options"] == "nosniff"


def test_public_list_names_no_secrets(
    server: Listening, two: tuple[dict[str, Any], dict[str, Any]]
) -> None:
    listed = httpx.get(f"{server.url}/api/matches").text
    a, _ = two
    assert a["id"] in listed
    for secret in (*a["tokens"].values(), a["spectator_token"], "seed", "nonce"):
        assert secret not in listed
