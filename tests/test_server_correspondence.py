"""Correspondence play over HTTP (docs/web.md, Correspondence; CP1, CP4): a match created with
a deadline, whose move it is in the lists and in `/api/turns`, and the bodies refused in one
line. The deadlines themselves are kept in tests/test_correspondence.py on a fake clock.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from gladiator.server.correspondence import DeadlinePolicy
from server_helpers import arena, db_url, new_match

HUMANS = {"red": "human", "blue": "human"}


def _create(base: str, **body: Any) -> httpx.Response:
    return httpx.post(
        f"{base}/api/matches",
        json={"ruleset": "quick", "seats": HUMANS, "seed": 5, **body},
        timeout=30,
    )


def test_a_correspondence_match_says_whose_move_it_is_and_until_when(tmp_path: Path) -> None:
    with arena(db_url(tmp_path)) as running:
        base = running.url
        made = _create(base, deadline={"seconds": 86400, "then": "forfeit"})
        assert made.status_code == 201, made.text
        match_id = made.json()["id"]
        live = new_match(base, seats=HUMANS, seed=5)  # a live match beside it: no deadline
        listed = {m["id"]: m for m in httpx.get(f"{base}/api/matches").json()}
        mine = listed[match_id]
        assert mine["waiting_for"] == ["blue"]  # quick, seed 5: blue moves first
        assert mine["deadline"]["seconds"] == 86400 and mine["deadline"]["then"] == "forfeit"
        (turn,) = httpx.get(f"{base}/api/turns", params={"ids": match_id}).json()
        assert turn["deadline"] == mine["deadline"] and turn["waiting_for"] == ["blue"]
        assert "deadline" not in listed[live["id"]]
        assert listed[live["id"]]["waiting_for"] == ["blue"]
        turns = httpx.get(f"{base}/api/turns", params={"ids": f"{live['id']},nosuch,{match_id}"})
        assert [t["id"] for t in turns.json()] == [live["id"], match_id]  # unknown ids left out
        view = httpx.get(
            f"{base}/api/matches/{match_id}/view",
            headers={"authorization": f"Bearer {made.json()['spectator'].split('#t=')[1]}"},
        ).json()
        assert view["view"]["deadline"] == mine["deadline"]


@pytest.mark.parametrize(
    ("deadline", "options", "said"),
    [
        ({"seconds": 59}, {}, "the deadline must be 1 min to 30 d a decision, not 59 s"),
        ({"seconds": 3600, "then": "resign"}, {}, "deadline.then"),
        ({"seconds": True}, {}, "deadline.seconds"),
        ({"seconds": "3600"}, {}, "deadline.seconds"),
        ({"seconds": 3600, "bot": "random"}, {}, "'level:LEVEL' or 'bot:NAME'"),
        ({"seconds": 3600, "bot": "bot:nosuchbot"}, {}, "nosuchbot"),
        ({"seconds": 3600, "tick": 1}, {}, "deadline.tick"),
    ],
)
def test_a_deadline_the_server_refuses_is_said_in_one_line(
    tmp_path: Path, deadline: dict[str, Any], options: dict[str, Any], said: str
) -> None:
    with arena(db_url(tmp_path)) as running:
        answer = _create(running.url, deadline=deadline, options=options)
        assert answer.status_code == 400
        assert said in answer.json()["error"] and "\n" not in answer.json()["error"]
        assert httpx.get(f"{running.url}/api/matches").json() == []  # nothing was made


def test_reaction_time_is_refused_in_a_correspondence_colosseum_match(tmp_path: Path) -> None:
    """CP4: §7.5's seconds cannot run while the player is away for a day."""
    with arena(db_url(tmp_path)) as running:
        answer = httpx.post(
            f"{running.url}/api/matches",
            json={
                "ruleset": "colosseum",
                "options": {"reaction_time": 10},
                "deadline": {"seconds": 3600},
            },
            timeout=30,
        )
        assert answer.status_code == 400 and "§7.5 reaction time" in answer.json()["error"]


def test_a_server_may_allow_shorter_deadlines_and_turns_refuses_bad_ids(tmp_path: Path) -> None:
    with arena(db_url(tmp_path), deadlines=DeadlinePolicy(min_seconds=2)) as running:
        base = running.url
        assert _create(base, deadline={"seconds": 2}).status_code == 201
        for bad in ("", "a,,b", "a b", ",".join(["x"] * 51)):
            answer = httpx.get(f"{base}/api/turns", params={"ids": bad})
            assert answer.status_code == 400, bad
            assert "ids" in answer.json()["error"]


def test_an_order_over_http_names_its_decision_and_a_bad_number_is_refused(tmp_path: Path) -> None:
    """CP9 over HTTP: an order for decision 1 while decision 0 is asked is refused ("not asked
    yet") and stored nowhere; a decision number that is no whole number is a 400. The ruleset's
    own view keeps its fields: the number has a name of its own."""
    with arena(db_url(tmp_path)) as running:
        base = running.url
        made = new_match(base, seats=HUMANS, seed=5)
        auth = {"authorization": f"Bearer {made['tokens']['blue']}"}
        view = httpx.get(f"{base}/api/matches/{made['id']}/view", headers=auth).json()["view"]
        assert view["decision_number"] == 0
        order = view["decision"]["options"][0]["text"]
        url = f"{base}/api/matches/{made['id']}/orders"
        stale = httpx.post(url, json={"order": order, "decision_number": 1}, headers=auth)
        assert stale.status_code == 409 and stale.json()["reason"] == "stale"
        assert "decision 1, which is not asked yet" in stale.json()["error"]
        for bad in (-1, "0", True, 1.5):
            body = {"order": order, "decision_number": bad}
            refused = httpx.post(url, json=body, headers=auth)
            assert refused.status_code == 400
            assert refused.json()["error"].startswith("decision_number")
        taken = httpx.post(url, json={"order": order, "decision_number": 0}, headers=auth)
        assert taken.status_code == 200, taken.text


def test_the_colosseum_view_keeps_its_own_step(tmp_path: Path) -> None:
    """The server's decision number never overwrites a ruleset's own field of the view (the
    Colosseum's `step`: plot or allocate)."""
    with arena(db_url(tmp_path)) as running:
        made = new_match(running.url, "colosseum", seats={"red": "human", "blue": "human"}, seed=3)
        auth = {"authorization": f"Bearer {made['tokens']['red']}"}
        got = httpx.get(f"{running.url}/api/matches/{made['id']}/view", headers=auth).json()
        assert got["view"]["step"] == "plot" and got["view"]["decision_number"] == 0
