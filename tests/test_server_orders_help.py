"""What the order form and the lobby read from the server: an order checked by the ruleset's own
parser without being given (POST /api/matches/{id}/check), the glossary and a note for every
option in /api/rulesets, and the rules reference pages (/rules/{ruleset}) with an anchor per §,
rendered without letting any markup of the source through."""

from __future__ import annotations

import tomllib
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from gladiator.server.app import create_app
from gladiator.server.markdown import render
from gladiator.server.rules_page import RULES_DIR
from gladiator.store import Store
from server_helpers import tokens_of

with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2, which is not pinned
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    folder = tmp_path_factory.mktemp("orders-help")
    with (
        Store(f"sqlite:///{folder / 'help.db'}") as store,
        TestClient(create_app(store, static_dir=folder / "none")) as c,
    ):
        yield c


def _colosseum(client: TestClient, blue: str = "bot:random") -> tuple[str, dict[str, str]]:
    made = client.post(
        "/api/matches", json={"ruleset": "colosseum", "seats": {"blue": blue}, "seed": 3}
    )
    assert made.status_code == 201, made.text
    body = made.json()
    return body["id"], {"Authorization": f"Bearer {tokens_of(body['seats']['red']['link'])[0]}"}


def test_check_reads_the_book_notation_and_gives_nothing(client: TestClient) -> None:
    match, auth = _colosseum(client)
    url = f"/api/matches/{match}/check"
    # §7.2: any spelling the plot parser reads comes back canonical, and nothing is stored.
    ok = client.post(url, json={"order": "ff(r)"}, headers=auth)
    assert ok.status_code == 200 and ok.json() == {"ok": True, "order": "F F(R)"}
    bad = client.post(url, json={"order": "F F F"}, headers=auth).json()
    assert bad["ok"] is False and "F F(R)" in bad["legal"] and len(bad["legal"]) == 50
    assert "F F F" in bad["error"]
    view = client.get(f"/api/matches/{match}/view", headers=auth).json()
    assert "red" not in view["view"]["submitted"] and view["view"]["decision"]["kind"] == "choose"
    # A spectator may not ask; nor may anyone without a token.
    assert client.post(url, json={"order": "F"}).status_code == 401


def test_check_reads_the_readme_allocation(client: TestClient) -> None:
    made = client.post("/api/matches", json={"ruleset": "colosseum", "seed": 3}).json()
    auth = {
        seat: {"Authorization": f"Bearer {tokens_of(info['link'])[0]}"}
        for seat, info in made["seats"].items()
    }
    match = made["id"]
    # §4.5: five hexes apart; both step F F (§7.3) and stand face to face: §9.3 allocation.
    for seat in ("red", "blue"):
        given = client.post(
            f"/api/matches/{match}/orders", json={"order": "F F"}, headers=auth[seat]
        )
        assert given.status_code == 200, given.text
    view = client.get(f"/api/matches/{match}/view", headers=auth["red"]).json()["view"]
    assert view["decision"]["kind"] == "distribute", view
    budget = view["decision"]["budget"]
    url = f"/api/matches/{match}/check"
    # The README's notation (design principle 8), attacks in the order written (Q25).
    readme = client.post(
        url, json={"order": "A3:head A2:chest D2:arms D1:legs"}, headers=auth["red"]
    )
    assert readme.json() == {"ok": True, "order": "A-HEAD:3 A-CHEST:2 D-ARMS:2 D-LEGS:1"}
    over = client.post(url, json={"order": f"D{budget + 1}:legs"}, headers=auth["red"]).json()
    assert over["ok"] is False and "available" in over["error"]
    many = client.post(url, json={"order": "A9:head"}, headers=auth["red"]).json()
    assert many["ok"] is False and "A-HEAD" in many["legal"]


def test_not_your_turn_is_an_answer(client: TestClient) -> None:
    match, auth = _colosseum(client, blue="human")  # blue has not plotted: red's plot waits
    given = client.post(f"/api/matches/{match}/orders", json={"order": "X"}, headers=auth)
    assert given.status_code == 200
    again = client.post(f"/api/matches/{match}/check", json={"order": "X"}, headers=auth).json()
    assert again["ok"] is False and "already" in again["error"]


def test_rulesets_carry_a_glossary_and_a_note_for_every_option(client: TestClient) -> None:
    for r in client.get("/api/rulesets").json():
        props = r["options_schema"]["properties"]
        assert set(props) <= set(r["option_notes"]), r["name"]
        assert all(r["option_notes"][k] for k in props)
        assert r["rules"] == f"/rules/{r['name']}"
        assert r["glossary"]["states"], r["name"]
    colosseum = {r["name"]: r for r in client.get("/api/rulesets").json()}["colosseum"]
    orders = colosseum["glossary"]["orders"]
    for token in ("C", "KN", "X", "(R)", "(2L)", "+TW", "RO"):
        assert orders[token], token
    assert any("(R)F" in note and "F(R)" in note for note in colosseum["glossary"]["notes"])


@pytest.mark.parametrize("ruleset", ["quick", "skirmish", "colosseum"])
def test_rules_page_has_an_anchor_per_section(client: TestClient, ruleset: str) -> None:
    page = client.get(f"/rules/{ruleset}")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert 'id="s1"' in page.text and 'id="s2.1"' in page.text
    assert "<script>" not in page.text and 'src="/static/rules.js"' in page.text


def test_the_wheel_carries_the_rules_summaries_where_the_page_looks() -> None:
    """An installed wheel has no docs/ folder: pyproject's force-include puts the summaries
    at gladiator/rules_docs/, the second place rules_page looks."""
    root = Path(__file__).resolve().parents[1]
    build = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["hatch"]["build"]
    assert build["targets"]["wheel"]["force-include"]["docs/rules"] == "gladiator/rules_docs"
    assert root / "docs" / "rules" == RULES_DIR
    assert sorted(p.name for p in RULES_DIR.glob("*.md")) == [
        "colosseum.md",
        "quick.md",
        "skirmish.md",
    ]


def test_rules_page_of_an_unknown_ruleset_is_404(client: TestClient) -> None:
    assert client.get("/rules/chess").status_code == 404
    assert client.get("/rules/..%2Fweb").status_code == 404


def test_markdown_escapes_everything_and_anchors_sections() -> None:
    done = render(
        "## §9 Combat\n- **9.5** <script>alert(1)</script> see §9.5.3 and "
        "[x](javascript:alert(1)) [y](#s9)\n  **9.5.3** <img src=x onerror=alert(1)>\n"
    )
    assert '<h2 id="s9">' in done.body and '<li id="s9.5">' in done.body
    assert '<b id="s9.5.3">9.5.3</b>' in done.body
    assert "<script" not in done.body and "<img" not in done.body
    assert "&lt;script&gt;" in done.body and "javascript:" not in done.body.split('href="')[-1]
    assert '<a href="#s9">y</a>' in done.body
    assert '<a class="cite" href="#s9.5.3">§9.5.3</a>' in done.body
    assert done.toc == [("s9", "§9 Combat")]
