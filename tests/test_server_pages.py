"""The arena's pages and public JSON API (docs/web.md, HTTP) through Starlette's TestClient: the
static pages or a placeholder, the rulesets and their option preview, bots, and one clear
`{"error"}` for every bad match request."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from gladiator.server.app import create_app
from gladiator.store import Store

with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2, which is not pinned
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store(f"sqlite:///{tmp_path / 'pages.db'}") as s:
        yield s


@pytest.fixture
def client(store: Store, tmp_path: Path) -> Iterator[TestClient]:
    static = tmp_path / "static"
    static.mkdir()
    (static / "index.html").write_text("<!doctype html><title>lobby</title>")
    (static / "arena.html").write_text("<!doctype html><title>arena</title>")
    (static / "net.js").write_text("export const x = 1;\n")
    with TestClient(create_app(store, static_dir=static)) as c:
        yield c


def test_pages_come_from_the_static_folder(client: TestClient) -> None:
    assert "lobby" in client.get("/").text
    arena = client.get("/match/abc123")
    assert "arena" in arena.text and arena.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in arena.headers["content-security-policy"]
    js = client.get("/static/net.js")
    assert js.status_code == 200 and "javascript" in js.headers["content-type"]
    assert client.get("/static/../pages.db").status_code == 404
    # Not installed: replay.html is missing from this folder, so a plain placeholder.
    placeholder = client.get("/replay/abc123")
    assert placeholder.status_code == 200 and "not installed" in placeholder.text


def test_without_a_static_folder_every_page_is_the_placeholder(
    store: Store, tmp_path: Path
) -> None:
    with TestClient(create_app(store, static_dir=tmp_path / "none")) as c:
        for path in ("/", "/match/abc123", "/replay/abc123"):
            page = c.get(path)
            assert page.status_code == 200 and "not installed" in page.text
        assert c.get("/static/net.js").status_code == 404


def test_rulesets_preview_and_bots(client: TestClient) -> None:
    listed = {r["name"]: r for r in client.get("/api/rulesets").json()}
    assert {"quick", "skirmish", "colosseum"} <= set(listed)
    quick = listed["quick"]
    assert quick["seats"] == ["red", "blue"] and quick["options"]["max_rounds"] == 100
    ok = client.post("/api/rulesets/quick/preview", json={"options": {"max_rounds": 7}})
    assert ok.status_code == 200
    assert ok.json()["options"]["max_rounds"] == 7 and ok.json()["seats"] == ["red", "blue"]
    bad = client.post("/api/rulesets/quick/preview", json={"options": {"max_rounds": "soon"}})
    assert bad.status_code == 400 and set(bad.json()) == {"error"}
    assert client.post("/api/rulesets/chess/preview", json={}).status_code == 404
    assert set(client.get("/api/bots").json()) >= {"random", "greedy"}
    # The lobby's hints beside the Colosseum's Advanced Game options (§27, §28: free text).
    notes = listed["colosseum"]["option_notes"]
    assert "blue:lion" in notes["beasts"] and "red+green:blue" in notes["teams"]


def test_bots_of_a_ruleset_are_only_those_that_play_it(client: TestClient) -> None:
    every = set(client.get("/api/bots").json())
    assert {"tactician", "centurion", "solver", "search"} <= every
    quick = client.get("/api/bots", params={"ruleset": "quick"}).json()
    assert quick == sorted(quick) and {"random", "greedy", "search"} <= set(quick)
    assert not {"tactician", "centurion", "solver"} & set(quick)  # Colosseum bots only
    colosseum = set(client.get("/api/bots", params={"ruleset": "Colosseum"}).json())
    assert {"tactician", "centurion", "solver", "search", "random"} <= colosseum
    missing = client.get("/api/bots", params={"ruleset": "chess"})
    assert missing.status_code == 404 and "unknown ruleset" in missing.json()["error"]


@pytest.mark.parametrize(
    "body,words",
    [
        ({"ruleset": "chess"}, "unknown ruleset"),
        ({"ruleset": "quick", "options": {"max_rounds": 0}}, "max_rounds"),
        ({"ruleset": "quick", "seats": {"green": "human"}}, "no seat 'green'"),
        ({"ruleset": "quick", "seats": {"red": "robot"}}, "'human' or 'bot:NAME'"),
        ({"ruleset": "quick", "seats": {"red": "bot:hal"}}, "unknown bot"),
        ({"ruleset": "quick", "seed": -1}, "seed"),
        ({"ruleset": "quick", "colour": "red"}, "colour"),
        ({}, "ruleset"),
    ],
)
def test_bad_match_requests_get_one_sentence(client: TestClient, body: object, words: str) -> None:
    answer = client.post("/api/matches", json=body)
    assert answer.status_code == 400, answer.text
    assert set(answer.json()) == {"error"} and words in answer.json()["error"]


def test_bodies_that_are_not_json_or_too_big(client: TestClient) -> None:
    not_json = client.post("/api/matches", content=b"{ruleset", headers={"content-type": "x"})
    assert not_json.status_code == 400 and "JSON" in not_json.json()["error"]
    big = client.post("/api/matches", json={"ruleset": "quick", "options": {"x": "y" * 9000}})
    assert big.status_code == 413 and "8 KiB" in big.json()["error"]
    assert client.get("/api/matches", params={"status": "lost"}).status_code == 400
    assert client.get("/api/matches/abc123/record").status_code == 404


def test_created_match_links_and_list(client: TestClient) -> None:
    made = client.post(
        "/api/matches", json={"ruleset": "quick", "seats": {"blue": "bot:greedy"}, "seed": 5}
    )
    assert made.status_code == 201
    body = made.json()
    link = body["seats"]["red"]["link"]
    assert link.startswith(f"http://testserver/match/{body['id']}#t=")
    assert body["hotseat"] == link and body["spectator"] != link
    assert body["seats"]["blue"] == {"kind": "bot", "bot": "greedy"}
    listed = client.get("/api/matches").json()
    mine = next(m for m in listed if m["id"] == body["id"])
    assert mine["status"] == "running" and mine["ruleset"] == "quick"
    assert [s["kind"] for s in mine["seats"]] == ["human", "bot"]


def test_a_loopback_server_answers_only_loopback_host_names(store: Store, tmp_path: Path) -> None:
    """DNS rebinding: a page of another site whose name resolves to 127.0.0.1 sends its own
    name as Host; a server bound to loopback refuses it before any route runs."""
    from gladiator.server.security import hosts_for

    hosts = hosts_for("127.0.0.1", None)
    assert hosts is not None and "localhost" in hosts
    assert hosts_for("0.0.0.0", None) is None
    assert hosts_for("0.0.0.0", ["Arena.example"]) == ["arena.example"]
    app = create_app(store, static_dir=tmp_path / "none", allowed_hosts=hosts)
    with TestClient(app, base_url="http://127.0.0.1:8000") as c:
        assert c.get("/api/rulesets").status_code == 200
    with TestClient(app, base_url="http://evil.example:8000") as c:
        answer = c.get("/api/rulesets")
        assert answer.status_code == 400
        assert "default-src 'self'" in answer.headers["content-security-policy"]
        assert c.post("/api/matches", json={"ruleset": "quick"}).status_code == 400


def test_a_number_in_the_query_is_ascii_digits_or_a_clear_400(client: TestClient) -> None:
    """A superscript two is a digit to `str.isdigit` but not to `int`: still a 400, never a 500."""
    for bad in ("%C2%B2", "-1", "1e3", "9" * 40):
        answer = client.get(f"/api/matches?limit={bad}")
        assert answer.status_code == 400, bad
        assert "error" in answer.json()


def test_each_ruleset_describes_its_options_as_json_schema(client: TestClient) -> None:
    """The lobby draws choice lists from it: the quick rules' fate (QR6) has four values, the
    Colosseum CRT (Q1) two, and every default option is described."""
    listed = {r["name"]: r for r in client.get("/api/rulesets").json()}
    quick = listed["quick"]["options_schema"]["properties"]
    assert quick["fate"]["enum"] == ["auto", "victor", "crowd", "vote"]
    colosseum = listed["colosseum"]["options_schema"]["properties"]
    assert colosseum["crt"]["enum"] == ["rules", "reference"]
    assert "heavy" in colosseum["gladiators"]["items"]["enum"]
    for r in listed.values():
        assert set(r["options"]) <= set(r["options_schema"]["properties"]), r["name"]
