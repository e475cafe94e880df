"""A campaign munus played by correspondence (issue #30; ruling CP8): the campaign's deadline
is its fights' (a late decision played by the stand-in bot) and its lanistas' to say they are
ready (said in their names), across a server restart. The server runs on a fake wall clock that
the test moves on by days: nothing waits a day."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from fake_clock import FakeClock
from gladiator.server.abandonment import AbandonPolicy
from gladiator.server.bot_pool import BotPolicy
from gladiator.server.correspondence import DeadlinePolicy
from gladiator.server.listen import Listening
from gladiator.server.loadtest import sample_order
from gladiator.server.mail import MailPolicy
from gladiator.store import Store
from server_helpers import arena, db_url, tokens_of
from smtp_helpers import Inbox, local_smtp
from test_server_campaign import act, his_bout, to_munus, view, wait_for

DAY = 86400


def _server(url: str, clock: FakeClock, **options: Any) -> Any:
    return arena(
        url,
        abandon=AbandonPolicy(0, 0, clock),
        deadlines=DeadlinePolicy(interval=0.05),
        bot_policy=BotPolicy(workers=0),
        **options,
    )


def _create(base: str, deadline: dict[str, Any], email: str | None = None) -> dict[str, Any]:
    lanistas: list[dict[str, Any]] = [{"name": "Human 1", "kind": "human", "email": email}]
    lanistas += [{"name": f"Bot {i}", "kind": "bot"} for i in range(2, 5)]
    body = {
        "name": "By post",
        "seed": 7,
        "lanistas": lanistas,
        "options": {"munera": 1},
        "deadline": deadline,
    }
    answer = httpx.post(f"{base}/api/campaigns", json=body, timeout=30)
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    return made


@contextmanager
def _days_pass(clock: FakeClock) -> Iterator[None]:
    """A day passes every tenth of a second until the block ends."""
    stop = threading.Event()

    def run() -> None:
        while not stop.wait(0.1):
            clock.advance(DAY)

    mover = threading.Thread(target=run, daemon=True)
    mover.start()
    try:
        yield
    finally:
        stop.set()
        mover.join()


def _order(server: Listening, match: str, token: str, seat: str, rng: random.Random) -> bool:
    """Give one legal order for `seat` if the fight waits for it; whether one was given."""
    auth = {"Authorization": f"Bearer {token}:{seat}"}
    got = httpx.get(f"{server.url}/api/matches/{match}/view", headers=auth, timeout=30).json()
    v = got["view"]
    if seat not in v["waiting_for"] or "decision" not in v:
        return False
    order = sample_order(v["decision"], rng)
    answer = httpx.post(
        f"{server.url}/api/matches/{match}/orders", json={"order": order}, headers=auth
    )
    assert answer.status_code == 200, answer.text
    return True


def test_a_campaign_munus_is_played_by_correspondence_across_a_restart(tmp_path: Path) -> None:
    url = db_url(tmp_path)
    clock = FakeClock()
    with _server(url, clock) as server:
        made = _create(server.url, {"seconds": DAY, "bot": "bot:random"})
        token = tokens_of(made["lanistas"]["l1"]["link"])[0]
        data = to_munus(server.url, made)  # he enters his first man himself
        assert data["deadline"]["seconds"] == DAY
        # He never says he is ready for the munus: a day later the campaign says it for him.
        clock.advance(DAY + 60)  # the campaign's last step is stamped on the real clock
        data = wait_for(server.url, made["id"], lambda d: bool(his_bout(d)["fights"]))
        assert any(e["kind"] == "ready" and e.get("actor") == "l1" for e in data["events"])
        fight = his_bout(data)["fights"][0]
        seat = next(s for s, lid in fight["seats"].items() if lid == "l1")
        match = fight["match"]
        rng = random.Random(4)
        own = 0
        while own < 3:  # his first orders, given in time, each within the day
            if _order(server, match, token, seat, rng):
                own += 1
    with Store(url) as store:
        stored = store.load(match)
        assert stored is not None and stored.deadline is not None
        assert stored.deadline.bot == "random" and store.late_orders(match) == []
        mine = sum(1 for s, _ in stored.orders if s == seat)
    # The server restarts; from then on he is away: every decision of his goes to the stand-in
    # as its day passes, and the munus ends.
    with _server(url, clock) as server, _days_pass(clock):
        done = wait_for(server.url, made["id"], lambda d: d["phase"] == "over", timeout=240)
    assert his_bout(done)["status"] == "settled" and his_bout(done)["matches"] == [match]
    with Store(url) as store:
        stored = store.load(match)
        assert stored is not None and stored.status == "finished"
        late = store.late_orders(match)
        his = [seq for seq, (s, _) in enumerate(stored.orders) if s == seat]
        assert mine == 3 and len(his) > 3
        assert {seq for seq, _ in late} == set(his[3:])  # every later one was the stand-in's


def test_a_campaign_deadline_is_refused_a_forfeit_and_shown_in_the_view(tmp_path: Path) -> None:
    clock = FakeClock()
    with _server(db_url(tmp_path), clock) as server:
        body = {"lanistas": [{"name": "A", "kind": "human"}], "deadline": {"seconds": DAY}}
        forfeit = {**body, "deadline": {"seconds": DAY, "then": "forfeit"}}
        refused = httpx.post(f"{server.url}/api/campaigns", json=forfeit, timeout=30)
        assert refused.status_code == 400 and "cannot be forfeited" in refused.json()["error"]
        short = {**body, "deadline": {"seconds": 30}}
        refused = httpx.post(f"{server.url}/api/campaigns", json=short, timeout=30)
        assert refused.status_code == 400 and "1 min to 30 d" in refused.json()["error"]
        made = httpx.post(f"{server.url}/api/campaigns", json=body, timeout=30).json()
        seen = view(server.url, made["id"])
        assert seen["deadline"]["seconds"] == DAY
        assert seen["deadline"]["due"] > clock.now  # a day after its last step


def test_a_lanistas_fight_notices_reach_the_address_he_gave(tmp_path: Path) -> None:
    """CP5 with CP8: the address a human lanista gave at the campaign's creation gets his
    fights' notices (the local SMTP server takes it); none is said back in the campaign's view."""
    clock = FakeClock()
    inbox = Inbox()
    address = "marcus@example.org"
    with local_smtp(inbox) as smtp:
        mail = MailPolicy("127.0.0.1", "arena@example.org", smtp.port, starttls=False,
                          public_url="https://arena.example.org", interval=0.05)  # fmt: skip
        with _server(db_url(tmp_path), clock, mail=mail) as server:
            made = _create(server.url, {"seconds": DAY, "bot": "bot:random"}, address)
            token = tokens_of(made["lanistas"]["l1"]["link"])[0]
            to_munus(server.url, made)
            assert act(server.url, made["id"], token, kind="ready").status_code == 200
            data = wait_for(server.url, made["id"], lambda d: bool(his_bout(d)["fights"]))
            match = his_bout(data)["fights"][0]["match"]
            clock.advance(120)  # past the notice's minute of grace, well inside the day
            (notice,) = inbox.wait_for(1)
            assert inbox.recipients == [[address]]
            assert notice["Subject"] == f"GLADIATOR: your move in match {match}"
            assert address not in str(view(server.url, made["id"], token))
            refused = [
                ({"name": "B", "kind": "bot", "email": address}, {"seconds": DAY}, "bot lanista"),
                ({"name": "H", "kind": "human", "email": "nobody"}, {"seconds": DAY}, "not an"),
                ({"name": "H", "kind": "human", "email": address}, None, "give a deadline"),
            ]
            for lanista, deadline, said in refused:
                body = {"lanistas": [lanista], "deadline": deadline}
                answer = httpx.post(f"{server.url}/api/campaigns", json=body, timeout=30)
                assert answer.status_code == 400 and said in answer.json()["error"], answer.text
                assert address not in answer.text
