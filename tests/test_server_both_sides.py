"""Play this deal from both sides (DM3, issue 38): the lobby's `both_sides` makes the match and
its twin on the same seed with the seats' players swapped."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from gladiator.server.both_sides import both_sides
from gladiator.server.messages import CreateMatchBody
from server_helpers import arena, db_url


def test_dm3_the_twin_has_the_same_seed_and_the_players_swapped() -> None:
    body = CreateMatchBody(
        ruleset="colosseum",
        seats={"blue": "bot:tactician"},
        emails={"red": "me@example.org"},
        both_sides=True,
    )
    (seats, emails, seed), (twin_seats, twin_emails, twin_seed) = both_sides(body)
    assert seed is not None and seed == twin_seed
    assert (seats, twin_seats) == ({"blue": "bot:tactician"}, {"red": "bot:tactician"})
    assert twin_emails == {"blue": "me@example.org"} and emails == {"red": "me@example.org"}
    given = both_sides(body.model_copy(update={"seed": 42}))
    assert [d[2] for d in given] == [42, 42]
    assert len(both_sides(body.model_copy(update={"both_sides": False}))) == 1


def test_dm3_a_team_match_has_no_one_other_side() -> None:
    body = CreateMatchBody(
        ruleset="colosseum",
        options={"advanced": True, "teams": "red+green:blue+gold"},
        both_sides=True,
    )
    with pytest.raises(ValueError, match="two-seat"):
        both_sides(body)


def test_dm3_the_api_answers_with_both_matches(tmp_path: Path) -> None:
    with arena(db_url(tmp_path)) as running:
        base = running.url
        body = {"ruleset": "quick", "seats": {"blue": "bot:random"}, "both_sides": True}
        made = httpx.post(f"{base}/api/matches", json=body, timeout=30)
        assert made.status_code == 201, made.text
        first, twin = made.json(), made.json()["other_side"]
        assert first["id"] != twin["id"]
        assert first["seats"]["blue"]["kind"] == "bot" and first["seats"]["red"]["kind"] == "human"
        assert twin["seats"]["red"]["kind"] == "bot" and twin["seats"]["blue"]["kind"] == "human"
        teams = {"ruleset": "colosseum", "options": {"advanced": True, "teams": "red+green:blue"}}
        refused = httpx.post(f"{base}/api/matches", json={**teams, "both_sides": True}, timeout=30)
        assert refused.status_code == 400 and "two-seat" in refused.json()["error"]
