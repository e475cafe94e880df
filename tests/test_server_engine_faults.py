"""No order breaks a match (issue 28, ruling HF1): an engine that raises on a complete decision
costs that decision, never the match.

A Colosseum whose apply raises on one chosen order (server/fault_injection.py) is driven over
real websockets and HTTP against a server in a thread, on an SQLite file and on a throwaway
PostgreSQL cluster (tests/postgres_fixture.py). The faulting order is answered with an
engine_fault error (a 409 over HTTP); every seat of the decision is told, with its own order
only; the match stays at its last good state, its voided orders in the audit table and not
among its orders; the fault is logged once; and the match plays on to an end that verifies,
across a restart. A bot whose order faults does not stall its match, and the real engine's
beast-hunt net fault (a Retiarius's TN, SN, LN1-3, DN raise PlotError) is survived too.
"""

from __future__ import annotations

import contextlib
import json
import logging
import random
import re
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest

from gladiator import registry
from gladiator.bots import BOTS, Bot
from gladiator.core.decisions import Decision
from gladiator.core.match import Match
from gladiator.core.protocol import Ruleset
from gladiator.core.record import MatchRecord
from gladiator.rules.colosseum import ColosseumRules
from gladiator.server import messages
from gladiator.server.fault_injection import InjectedFault, inject
from gladiator.server.loadtest import decision_from_dict
from gladiator.store import Store
from server_helpers import Client, new_match
from server_logs import errors, serving

FAULTY, GOOD = "SBR SBR", "SBL SBL"  # §7.2 plots both seats are offered on the first phase
PATTERN = re.compile(r"^SBR SBR$")  # the injected fault: this plot and no other
NEVER = re.compile(r"(?!)")  # matches nothing: every offered order may be drawn
ADVANCED = {"advanced": True}
HUNT = {"advanced": True, "beasts": "blue:lion", "styles": ["retiarius", "random"]}
SEED = 5
SERVER_LOG = "gladiator.server"


@pytest.fixture
def faulty_colosseum() -> Iterator[None]:
    """The registry's Colosseum raises InjectedFault on FAULTY until the test ends."""
    inject("colosseum", PATTERN.pattern)
    yield
    registry.unregister("colosseum")  # the real one is loaded again on next use


# -- helpers -----------------------------------------------------------------------------------
def _offered(decision: dict[str, Any], rng: random.Random, avoid: re.Pattern[str]) -> str:
    """A random order among those the decision (as sent) offers, never one matching `avoid`."""
    choices = [o for o in decision_from_dict(decision).candidates(rng) if not avoid.search(o)]
    return rng.choice(choices)


def _play(
    clients: Sequence[Client],
    avoid: re.Pattern[str] = NEVER,
    *,
    hold: Callable[[Client], bool] = lambda c: False,
    until: Callable[[], bool] | None = None,
    timeout: float = 180.0,
) -> None:
    """Every client gives random offered orders (each from its own generator, so a run does not
    depend on which frame came first) until all see the outcome or `until()`; a client for
    which `hold(client)` is true gives nothing. The timeout only stops a stalled match."""
    rngs = {id(c): random.Random(f"{SEED}:{c.seat}") for c in clients}
    end = time.monotonic() + timeout
    done = until or (lambda: all(c.over for c in clients))
    while not done():
        assert time.monotonic() < end, [(c.seat, c.outstanding, c.view) for c in clients]
        for c in clients:
            if c.my_turn() and not hold(c):
                c.order(_offered(c.view["decision"], rngs[id(c)], avoid))
            with contextlib.suppress(TimeoutError):
                c.recv(timeout=0.02)


def _seated(base: str, match_id: str, tokens: dict[str, str]) -> dict[str, Client]:
    clients = {seat: Client(base, match_id) for seat in tokens}
    for seat, client in clients.items():
        client.hello(tokens[seat])
    return clients


def _fault_records(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [
        r
        for r in caplog.records
        if r.name == SERVER_LOG and r.levelno >= logging.ERROR and "engine fault" in r.message
    ]


def _other_errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    """Every error logged by anyone, uvicorn included, that is not an engine fault's line."""
    faults = set(map(id, _fault_records(caplog)))
    return [r.getMessage() for r in errors(caplog) if id(r) not in faults]


def _fault_step(record: logging.LogRecord) -> int:
    found = re.search(r"engine fault at step (\d+)", record.getMessage())
    assert found is not None, record.getMessage()
    return int(found[1])


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _http_view(base: str, match_id: str, token: str) -> dict[str, Any]:
    answer = httpx.get(f"{base}/api/matches/{match_id}/view", headers=_bearer(token), timeout=30)
    assert answer.status_code == 200, answer.text
    view: dict[str, Any] = answer.json()
    return view


def _verified(base: str, match_id: str, ruleset: Ruleset[Any]) -> Match:
    """The finished match's record, replayed bit for bit under `ruleset`; its replay page's
    data answers too."""
    answer = httpx.get(f"{base}/api/matches/{match_id}/record", timeout=30)
    assert answer.status_code == 200, answer.text
    replayed = Match.replay(MatchRecord.from_dict(answer.json()), ruleset)
    assert httpx.get(f"{base}/api/matches/{match_id}/replay", timeout=30).status_code == 200
    return replayed


def _asked_again(view: dict[str, Any], seats: list[str]) -> None:
    assert view["waiting_for"] == seats
    assert view["submitted"] == []
    assert "my_order" not in view
    assert view["outcome"] is None


# -- the injected fault ------------------------------------------------------------------------
def test_a_faulting_order_costs_its_decision_and_only_its_senders_learn_their_own_orders(
    url: str, faulty_colosseum: None, caplog: pytest.LogCaptureFixture
) -> None:
    with serving(url, caplog) as server:
        made = new_match(server.url, "colosseum", options=ADVANCED, seed=SEED)
        mid, tokens = made["id"], made["tokens"]
        clients = _seated(server.url, mid, tokens)
        red, blue = clients["red"], clients["blue"]
        spec = Client(server.url, mid)
        spec.hello(made["spectator_token"])
        assert FAULTY in (o["text"] for o in blue.view["decision"]["options"])
        events = len(red.events)

        red.order(GOOD, cid="r1")
        red.wait(lambda m: m["type"] == "ack")
        blue.order(FAULTY, cid="b1")
        answer = blue.wait(lambda m: m["type"] == "error")
        assert answer["id"] == "b1"
        assert (answer["reason"], answer["voided"], answer["step"]) == ("engine_fault", True, 0)

        # Every connection is told; each seat hears its own order, the spectator none.
        seats = ["red", "blue"]
        told = {
            "red": red.wait(lambda m: m["type"] == "voided"),
            "blue": next(m for m in blue.messages if m["type"] == "voided"),
            None: spec.wait(lambda m: m["type"] == "voided"),
        }
        assert told == {
            "red": messages.voided(0, seats, GOOD),
            "blue": messages.voided(0, seats, FAULTY),
            None: messages.voided(0, seats, None),
        }
        assert FAULTY not in json.dumps(told["red"]) and FAULTY not in json.dumps(told[None])
        assert GOOD not in json.dumps(told["blue"]) and GOOD not in json.dumps(told[None])

        # The last good state: nothing played, every seat of the decision asked again.
        after = red.wait(lambda m: m["type"] == "update")
        assert after["event_count"] == events
        _asked_again(after["view"], seats)
        for token in tokens.values():
            view = _http_view(server.url, mid, token)
            assert view["event_count"] == events
            _asked_again(view["view"], seats)

        with Store(url) as store:
            stored = store.load(mid)
            assert stored is not None and stored.orders == ()
            voided = [(v.seq, v.seat, v.order) for v in store.voids.orders(mid)]
        assert voided == [(0, "red", GOOD), (1, "blue", FAULTY)]

        (record,) = _fault_records(caplog)
        assert mid in record.getMessage() and "step 0" in record.getMessage()
        assert record.exc_info is not None and record.exc_info[0] is InjectedFault
        assert _other_errors(caplog) == []

        # The match plays on to its end with other orders.
        _play([red, blue], avoid=PATTERN)
        assert red.view["outcome"] == blue.view["outcome"] is not None
        _verified(server.url, mid, ColosseumRules())
    assert len(_fault_records(caplog)) == 1


def test_the_order_endpoint_answers_an_engine_fault_with_409_never_500(
    url: str, faulty_colosseum: None, caplog: pytest.LogCaptureFixture
) -> None:
    with serving(url, caplog) as server:
        made = new_match(server.url, "colosseum", options=ADVANCED, seed=SEED)
        mid, tokens = made["id"], made["tokens"]
        red = Client(server.url, mid)
        red.hello(tokens["red"])
        orders = f"{server.url}/api/matches/{mid}/orders"

        first = httpx.post(orders, json={"order": GOOD, "id": "h1"}, headers=_bearer(tokens["red"]))
        assert first.status_code == 200 and first.json()["order"] == GOOD
        answer = httpx.post(
            orders, json={"order": FAULTY, "id": "h2"}, headers=_bearer(tokens["blue"])
        )
        assert answer.status_code == 409, answer.text
        body = answer.json()
        assert (body["type"], body["reason"], body["voided"], body["step"], body["id"]) == (
            "error",
            "engine_fault",
            True,
            0,
            "h2",
        )
        assert body["error"] == body["message"] and FAULTY in body["message"]
        assert red.wait(lambda m: m["type"] == "voided") == messages.voided(
            0, ["red", "blue"], GOOD
        )
        _asked_again(_http_view(server.url, mid, tokens["blue"])["view"], ["red", "blue"])

        # Given again, the same order faults again (it is the engine's, not the player's, fault);
        # another one is played.
        events = _http_view(server.url, mid, tokens["red"])["event_count"]
        for seat, order, status in (
            ("red", GOOD, 200),
            ("blue", FAULTY, 409),
            ("red", GOOD, 200),
            ("blue", GOOD, 200),
        ):
            given = httpx.post(orders, json={"order": order}, headers=_bearer(tokens[seat]))
            assert given.status_code == status, given.text
        assert _http_view(server.url, mid, tokens["red"])["event_count"] > events
    assert [r.getMessage().count(mid) for r in _fault_records(caplog)] == [1, 1]
    assert _other_errors(caplog) == []


def test_a_voided_decision_survives_a_restart_and_the_match_ends_in_a_record_that_verifies(
    url: str, faulty_colosseum: None, caplog: pytest.LogCaptureFixture
) -> None:
    with serving(url, caplog) as server:
        made = new_match(server.url, "colosseum", options=ADVANCED, seed=SEED)
        mid, tokens = made["id"], made["tokens"]
        clients = _seated(server.url, mid, tokens)
        red, blue = clients["red"], clients["blue"]

        # Some way in, blue holds back at a plot that offers FAULTY.
        def blue_holds(c: Client) -> bool:
            offered = (o["text"] for o in c.view.get("decision", {}).get("options", []))
            return c is blue and len(blue.events) > 20 and FAULTY in offered

        def blue_is_held() -> bool:  # and the server agrees: a socket's view may lag behind
            if not (blue.my_turn() and blue_holds(blue)):
                return False
            view = _http_view(server.url, mid, tokens["blue"])["view"]
            offered = [o["text"] for o in view.get("decision", {}).get("options", [])]
            return "blue" in view["waiting_for"] and "my_order" not in view and FAULTY in offered

        _play([red, blue], PATTERN, hold=blue_holds, until=blue_is_held)
        # Then red gives his order, if he has none in. The server's word on red, not the
        # sockets' views: an order red sent from a stale view is refused.
        if red.outstanding is not None:
            red.wait(lambda m: m["type"] in ("ack", "error"))
        truth = _http_view(server.url, mid, tokens["red"])["view"]
        red_order = truth.get("my_order")
        if red_order is None and "red" in truth["waiting_for"]:
            red.order(_offered(truth["decision"], random.Random(SEED), PATTERN))
            red_order = red.wait(lambda m: m["type"] == "ack")["order"]
        with Store(url) as store:
            stored = store.load(mid)
            assert stored is not None
            good_orders = stored.orders[: len(stored.orders) - (red_order is not None)]
        events = _http_view(server.url, mid, tokens["blue"])["event_count"]  # not a socket's
        blue.order(FAULTY)
        fault = blue.wait(lambda m: m["type"] == "error")
        assert fault["reason"] == "engine_fault"
        step = fault["step"]
        assert step > 0

    # A restart on the same database: the match resumes at its last good state.
    with serving(url, caplog) as server:
        for token in tokens.values():
            view = _http_view(server.url, mid, token)
            assert view["event_count"] == events
            assert "my_order" not in view["view"] and view["view"]["submitted"] == []
        with Store(url) as store:
            stored = store.load(mid)
            assert stored is not None and stored.orders == good_orders
            voided = [(v.seat, v.order) for v in store.voids.orders(mid)]
        assert voided == ([("red", red_order)] if red_order else []) + [("blue", FAULTY)]

        clients = _seated(server.url, mid, tokens)
        _play(list(clients.values()), PATTERN)
        replayed = _verified(server.url, mid, ColosseumRules())
        assert len(replayed.steps) > step
        assert all(not PATTERN.search(o) for s in replayed.steps for o in s.values())

    # And once more: the finished match is served as it ended.
    with serving(url, caplog) as server:
        assert _http_view(server.url, mid, tokens["red"])["view"]["outcome"] is not None
        _verified(server.url, mid, ColosseumRules())
    (record,) = _fault_records(caplog)
    assert f"step {step}" in record.getMessage() and mid in record.getMessage()
    assert _other_errors(caplog) == []


# -- a bot's faulting order --------------------------------------------------------------------
class Stubborn(Bot):
    """A bot that always gives FAULTY where it is offered: left to itself it would fault the
    same decision for ever."""

    name = "stubborn"

    def choose(
        self,
        ruleset: Ruleset[Any],
        state: Any,
        seat: str,
        decision: Decision,
        rng: random.Random,
        *,
        budget: float | None = None,
    ) -> str:
        offered = decision.legal() or []
        return FAULTY if FAULTY in offered else decision.sample(rng)


def test_a_bot_whose_order_faults_is_never_given_that_order_again_and_its_match_ends(
    tmp_path: Path,
    faulty_colosseum: None,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(BOTS, "stubborn", Stubborn)
    url = f"sqlite:///{tmp_path / 'arena.db'}"
    with serving(url, caplog) as server:
        made = new_match(
            server.url, "colosseum", options=ADVANCED, seats={"blue": "bot:stubborn"}, seed=SEED
        )
        mid = made["id"]
        (red,) = _seated(server.url, mid, made["tokens"]).values()
        _play([red], PATTERN)
        replayed = _verified(server.url, mid, ColosseumRules())
        with Store(url) as store:
            voided = store.voids.orders(mid)
    faults = _fault_records(caplog)
    assert faults, "the stubborn bot never faulted: the test proves nothing"
    # One fault per decision at most: once FAULTY failed there, the server gives another.
    steps = [_fault_step(r) for r in faults]
    assert len(steps) == len(set(steps))
    assert [v.order for v in voided if v.seat == "blue"] == [FAULTY] * len(faults)
    assert all(s.get("blue") != FAULTY for s in replayed.steps)
    assert _other_errors(caplog) == []


# -- the engine fault this issue met, gone (issue 27, ruling B17) --------------------------------
def test_a_beast_hunt_with_a_retiarius_is_played_to_its_end_without_a_fault(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The hunt whose net orders once crashed the engine (PlotError on `F +TN`): no net order
    is offered against a beast now, and every offered order applies."""
    url = f"sqlite:///{tmp_path / 'arena.db'}"
    with serving(url, caplog) as server:
        made = new_match(server.url, "colosseum", options=HUNT, seed=SEED)
        mid = made["id"]
        clients = _seated(server.url, mid, made["tokens"])
        _play(list(clients.values()))  # every offered order
        _verified(server.url, mid, registry.get("colosseum"))
        with Store(url) as store:
            voided = store.voids.orders(mid)
    assert _fault_records(caplog) == []
    assert voided == []
    assert _other_errors(caplog) == []
