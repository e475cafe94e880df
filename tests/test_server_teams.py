"""A Colosseum team match (§27) through the web server: the lobby's preview names the seats the
`teams` option makes, and a 3-seat match of bots plays itself and replays."""

from __future__ import annotations

import time
from pathlib import Path

import httpx

from gladiator import registry
from gladiator.core.match import Match
from gladiator.core.record import MatchRecord
from server_helpers import Client, arena, db_url, new_match

TEAM = {"advanced": True, "teams": "red+green:blue", "max_turns": 2}


def test_s27_the_lobby_preview_gives_three_seats_and_bots_play_it(tmp_path: Path) -> None:
    with arena(db_url(tmp_path)) as server:
        listed = {r["name"]: r for r in httpx.get(f"{server.url}/api/rulesets").json()}
        form = listed["colosseum"]["options"]
        assert form["teams"] == "" and form["team_end"] == "last_standing"  # fields for the form
        assert listed["colosseum"]["seats"] == ["red", "blue"]
        preview = httpx.post(
            f"{server.url}/api/rulesets/colosseum/preview", json={"options": TEAM}, timeout=30
        )
        assert preview.status_code == 200, preview.text
        assert preview.json()["seats"] == ["red", "blue", "green"]
        seats = {s: "bot:random" for s in ("red", "blue", "green")}
        made = new_match(server.url, "colosseum", options=TEAM, seats=seats, seed=3)
        end = time.monotonic() + 120
        while httpx.get(f"{server.url}/api/matches/{made['id']}/record").status_code == 409:
            assert time.monotonic() < end, "the bots did not finish"
            time.sleep(0.1)
        answer = httpx.get(f"{server.url}/api/matches/{made['id']}/record")
        rec = MatchRecord.from_dict(answer.json())
        Match.replay(rec, registry.get("colosseum"))
        assert {s for step in rec.steps for s in step} == {"red", "blue", "green"}
        spec = Client(server.url, made["id"])
        spec.hello(made["spectator_token"])
        assert spec.over
        assert {g["seat"] for g in spec.view["gladiators"] + spec.view["fallen"]} == set(seats)
        spec.close()


def test_s30_2_1_1_big_sides_and_packs_get_their_seats_through_the_server(
    tmp_path: Path,
) -> None:
    """G1, B11: the server takes its seats from the options, so twelve seat names and a pack's
    beasts need no list of its own."""
    six = "red+green+white+purple+orange+grey:blue+gold+black+silver+brown+pink"
    with arena(db_url(tmp_path)) as server:
        url = f"{server.url}/api/rulesets/colosseum/preview"
        for options, want in (
            ({"advanced": True, "teams": six}, 12),
            ({"advanced": True, "beasts": "blue:lion,green:bear,gold:wolf"}, 4),
        ):
            preview = httpx.post(url, json={"options": options}, timeout=30)
            assert preview.status_code == 200, preview.text
            assert len(preview.json()["seats"]) == want
        big = {"advanced": True, "teams": "red+green+white:blue+gold+black", "max_turns": 1}
        seats = {s: "bot:random" for s in ("red", "blue", "green", "gold", "white", "black")}
        made = new_match(server.url, "colosseum", options=big, seats=seats, seed=3)
        end = time.monotonic() + 120
        while httpx.get(f"{server.url}/api/matches/{made['id']}/record").status_code == 409:
            assert time.monotonic() < end, "the bots did not finish"
            time.sleep(0.1)
        answer = httpx.get(f"{server.url}/api/matches/{made['id']}/record")
        rec = MatchRecord.from_dict(answer.json())
        Match.replay(rec, registry.get("colosseum"))
        assert {s for step in rec.steps for s in step} == set(seats)
