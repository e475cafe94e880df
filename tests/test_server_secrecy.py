"""Secret means secret, over the wire (shared/design.md principle 3; Colosseum §7.2 plots and §9.3
allocations are written secretly): until the other seat has given its order, no byte sent to it
or to a spectator, on the socket or over HTTP, holds the first seat's order, in its canonical
form or as typed. After the reveal the same text does arrive, so the check can fail."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx

from server_helpers import Client, arena, db_url, new_match

PLOT_TYPED, PLOT = "f f(r)", "F F(R)"  # §7.2: any spelling of the plot notation is read
ALLOC_TYPED, ALLOC = "a2:chest a3:head d1:arms", "A-CHEST:2 A-HEAD:3 D-ARMS:1"  # §9.3, Q25


def _without_own_options(raw: str) -> str:
    """The frame without the list of the receiver's own legal plots, which may of course hold
    the same text as the other seat's order."""
    msg = json.loads(raw)
    decision = msg.get("view", {}).get("decision")
    if isinstance(decision, dict):
        decision.pop("options", None)
    return json.dumps(msg)


def _assert_secret(frames: list[str], canonical: str, typed: str) -> None:
    for raw in frames:
        assert typed not in raw
        assert "my_order" not in raw
        assert canonical not in _without_own_options(raw), raw[:300]


def _http_views(base: str, match_id: str, tokens: list[str]) -> list[str]:
    out = []
    for token in tokens:
        answer = httpx.get(
            f"{base}/api/matches/{match_id}/view", headers={"Authorization": f"Bearer {token}"}
        )
        assert answer.status_code == 200
        out.append(answer.text)
    return out


def _submitted(seats: list[str]) -> Any:
    return lambda m: m["type"] == "update" and m["view"]["submitted"] == seats


def test_colosseum_plot_and_allocation_stay_secret_until_revealed(tmp_path: Path) -> None:
    with arena(db_url(tmp_path)) as server:
        made = new_match(server.url, "colosseum", seed=5)
        mid, tokens = made["id"], made["tokens"]
        red, blue, spec = (Client(server.url, mid) for _ in range(3))
        red.hello(tokens["red"])
        blue.hello(tokens["blue"])
        spec.hello(made["spectator_token"])
        assert red.view["decision"]["secret"] and blue.view["decision"]["secret"]

        # §7.2: red writes its plot; blue and the spectator learn only that red has written.
        red.order(PLOT_TYPED, cid="p1")
        assert red.wait(lambda m: m["type"] == "ack") == {"type": "ack", "id": "p1", "order": PLOT}
        assert red.wait(_submitted(["red"]))["view"]["my_order"] == PLOT
        blue.wait(_submitted(["red"]))
        spec.wait(_submitted(["red"]))
        http = _http_views(server.url, mid, [tokens["blue"], made["spectator_token"]])
        _assert_secret(blue.frames + spec.frames + http, PLOT, PLOT_TYPED)
        for raw in spec.frames + http[1:]:
            assert PLOT not in raw  # a spectator has no options list at all

        # The reveal (§5.2.2): now the plot is in the events both receive.
        seen = len(blue.frames), len(spec.frames)
        blue.order("F F")
        blue.wait(lambda m: m["type"] == "update" and m["view"]["decision"]["kind"] == "distribute")
        spec.wait(lambda m: m["type"] == "update" and m["view"]["submitted"] == [])
        assert any(PLOT in _without_own_options(f) for f in blue.frames[seen[0] :])
        assert any(PLOT in f for f in spec.frames[seen[1] :])

        # §9.3: the same for the allocation of CFs, the attacks in red's order (Q25).
        red.wait(lambda m: m["type"] == "update" and "distribute" in json.dumps(m["view"]))
        seen = len(blue.frames), len(spec.frames)
        red.order(ALLOC_TYPED, cid="a1")
        assert red.wait(lambda m: m["type"] == "ack")["order"] == ALLOC
        blue.wait(_submitted(["red"]))
        spec.wait(_submitted(["red"]))
        http = _http_views(server.url, mid, [tokens["blue"], made["spectator_token"]])
        fresh = blue.frames[seen[0] :] + spec.frames[seen[1] :] + http
        for raw in fresh:
            assert ALLOC not in raw and "A-CHEST:2" not in raw and "my_order" not in raw
            assert ALLOC_TYPED not in raw

        blue.order("D-HEAD:4")
        blue.wait(lambda m: m["type"] == "update" and ALLOC in json.dumps(m["events"]))
        spec.wait(lambda m: m["type"] == "update" and ALLOC in json.dumps(m["events"]))
        for c in (red, blue, spec):
            c.close()
