"""Tests for gladiator.store: storing, listing and resuming arena matches (docs/web.md, Storage).

Every test that takes `url` runs twice: on an SQLite file and on a throwaway PostgreSQL 15
cluster (tests/postgres_fixture.py), each test on a fresh, empty database.
"""

from __future__ import annotations

import hashlib
import random
import threading
from collections.abc import Iterator
from dataclasses import fields, replace
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import create_engine, text

import postgres_fixture
from gladiator import registry
from gladiator.core.match import Match
from gladiator.core.seeding import commit
from gladiator.store import (
    SCHEMA_VERSION,
    MatchSummary,
    Store,
    StoredMatch,
    StoredSeat,
    StoreError,
    hash_token,
    new_match_id,
    new_token,
)
from gladiator.store.resume import rebuild
from gladiator.store.stored import Turn
from gladiator.store.tokens import scoped_token

# -- fixtures ----------------------------------------------------------------------------------


@pytest.fixture
def store(url: str) -> Iterator[Store]:
    s = Store(url)
    yield s
    s.close()


def _raw_sql(url: str, *statements: str) -> None:
    """Write rows by hand, past the store's checks, as a crash or a hand edit might have left
    them. SQLite enforces foreign keys only when asked (the store asks, this engine does not);
    PostgreSQL skips them for a superuser session in replica mode."""
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            if engine.dialect.name == "postgresql":
                conn.execute(text("SET session_replication_role = replica"))
            for statement in statements:
                conn.execute(text(statement))
    finally:
        engine.dispose()


def _seats(match_id: str) -> tuple[StoredSeat, ...]:
    return (
        StoredSeat("red", "human", None, hash_token(f"{match_id}-red"), "Ann"),
        StoredSeat("blue", "bot", "greedy", None),
    )


def _create(
    store: Store,
    match_id: str,
    *,
    seed: int = 11,
    ruleset: str = "quick",
    options: dict[str, Any] | None = None,
    seats: tuple[StoredSeat, ...] | None = None,
) -> None:
    store.create_match(
        match_id=match_id,
        ruleset=ruleset,
        options=options if options is not None else {"max_rounds": 30},
        seed=seed,
        nonce=f"nonce-{match_id}",
        commitment=commit(seed, f"nonce-{match_id}"),
        seats=seats if seats is not None else _seats(match_id),
        spectator_hash=hash_token(f"{match_id}-spectator"),
    )


# -- tokens ------------------------------------------------------------------------------------


def test_tokens_are_stored_as_sha256_and_fresh_ones_differ() -> None:
    assert hash_token("abc") == hashlib.sha256(b"abc").hexdigest()
    tokens = {new_token() for _ in range(50)}
    assert len(tokens) == 50
    assert all(len(t) == 32 and t.replace("-", "").replace("_", "").isalnum() for t in tokens)
    ids = {new_match_id() for _ in range(50)}
    assert len(ids) == 50
    assert all(len(i) == 12 and i.replace("-", "").replace("_", "").isalnum() for i in ids)


# -- round trip --------------------------------------------------------------------------------


def test_round_trip_create_orders_load_gives_the_stored_match(store: Store, url: str) -> None:
    _create(store, "m1", options={"max_rounds": 30, "fate": "auto"})
    orders = [("red", "F"), ("red", "SFR"), ("red", "E"), ("blue", "L"), ("blue", "E")]
    for seq, (seat, order) in enumerate(orders):
        store.add_order("m1", seq, seat, order)

    loaded = store.load("m1")
    assert loaded is not None
    assert loaded == StoredMatch(
        id="m1",
        ruleset="quick",
        options={"max_rounds": 30, "fate": "auto"},
        seed=11,
        nonce="nonce-m1",
        commitment=commit(11, "nonce-m1"),
        status="running",
        created_at=loaded.created_at,
        finished_at=None,
        outcome=None,
        spectator_hash=hash_token("m1-spectator"),
        seats=_seats("m1"),
        orders=tuple(orders),
        # No turn was given with the orders: the decision is the one asked at creation.
        turn=Turn(since=loaded.created_at, waiting=()),
    )
    assert loaded.created_at.tzinfo is not None
    assert abs((datetime.now(UTC) - loaded.created_at).total_seconds()) < 600
    assert store.load("no-such-match") is None

    # A second Store on the same database (a restarted server) reads the very same match.
    with Store(url) as again:
        assert again.load("m1") == loaded


def test_finish_stores_outcome_and_record_and_ends_running(store: Store) -> None:
    _create(store, "m1")
    _create(store, "m2")
    store.add_order("m1", 0, "red", "F")
    assert store.record("m1") is None  # 409 territory: not finished yet

    outcome = {"winners": ["red"], "method": "yield", "summary": "red wins"}
    record = {"schema": "gladiator.match-record", "seed": 11, "steps": [{"red": "F"}]}
    store.finish("m1", outcome, record)

    loaded = store.load("m1")
    assert loaded is not None
    assert (loaded.status, loaded.outcome) == ("finished", outcome)
    assert loaded.finished_at is not None and loaded.finished_at >= loaded.created_at
    assert store.record("m1") == record
    assert [m.id for m in store.running()[0]] == ["m2"]
    with pytest.raises(StoreError, match="m1: the match is finished"):
        store.add_order("m1", 1, "blue", "F")
    store.finish("m1", outcome, record)  # the same end again: a retry that had landed (HC6)
    with pytest.raises(StoreError, match="already finished"):
        store.finish("m1", {**outcome, "winners": ["blue"]}, record)
    with pytest.raises(StoreError, match="no such match"):
        store.finish("nope", outcome, record)


def test_list_matches_never_exposes_seeds_nonces_or_token_hashes(store: Store) -> None:
    _create(store, "old", seed=123456789)
    _create(store, "new", seed=987654321)
    store.finish("old", {"winners": ["blue"]}, {"seed": 123456789})

    listed = store.list_matches()
    assert [m.id for m in listed] == ["new", "old"]  # newest first
    assert {f.name for f in fields(MatchSummary)} == {
        "id",
        "ruleset",
        "status",
        "created_at",
        "seats",
        "outcome",
        "deadline",  # a correspondence match's clock: public, as the view shows it (CP1)
        "turn",  # whose move it is and since when: public, as the view's waiting_for
    }
    assert listed[1].seats == (("red", "human", "Ann"), ("blue", "bot", "greedy"))
    assert listed[1].outcome == {"winners": ["blue"]}
    public = repr(listed)
    for secret in ("123456789", "987654321", "nonce-", hash_token("old-red"), "spectator"):
        assert secret not in public
    assert hash_token("new-spectator") not in public

    assert [m.id for m in store.list_matches(status="running")] == ["new"]
    assert [m.id for m in store.list_matches(status="finished")] == ["old"]
    assert [m.id for m in store.list_matches(limit=1)] == ["new"]
    with pytest.raises(StoreError, match="unknown match status 'done'"):
        store.list_matches(status="done")


def test_seat_for_token_tells_seat_spectator_and_stranger(store: Store) -> None:
    _create(store, "m1")
    _create(store, "m2")
    assert store.seat_for_token("m1", "m1-red") == "red"
    assert store.seat_for_token("m1", "m1-spectator") is None
    assert store.seat_for_token("m1", "wrong") is False
    assert store.seat_for_token("m1", "m2-red") is False  # another match's seat token
    assert store.seat_for_token("m1", "m2-spectator") is False
    assert store.seat_for_token("nope", "m1-red") is False


def test_one_token_for_several_seats_opens_each_when_scoped_by_seat(store: Store) -> None:
    """Issue #29: a campaign lanista's men in one bout share his link's token; `TOKEN:seat`
    opens each of them, the plain token the first in table order, never another's seat."""
    lanista = hash_token("lanista")
    seats = (
        StoredSeat("red", "human", None, lanista, "Ann"),
        StoredSeat("blue", "bot", "greedy", None),
        StoredSeat("green", "human", None, lanista, "Ann"),
        StoredSeat("yellow", "human", None, hash_token("other"), "Bo"),
    )
    _create(store, "m1", ruleset="colosseum", options={}, seats=seats)
    assert store.seat_for_token("m1", "lanista") == "red"
    assert store.seat_for_token("m1", scoped_token("lanista", "green")) == "green"
    assert store.seat_for_token("m1", scoped_token("lanista", "red")) == "red"
    assert store.seat_for_token("m1", scoped_token("lanista", "yellow")) is False
    assert store.seat_for_token("m1", scoped_token("lanista", "blue")) is False
    assert store.seat_for_token("m1", scoped_token("other", "yellow")) == "yellow"
    assert store.seat_for_token("m1", scoped_token("m1-spectator", "red")) is False


def test_create_match_refuses_what_could_not_be_resumed(store: Store) -> None:
    _create(store, "m1")
    with pytest.raises(StoreError, match="a match with that id already exists"):
        _create(store, "m1")
    with pytest.raises(StoreError, match="needs at least one seat"):
        _create(store, "m2", seats=())
    with pytest.raises(StoreError, match="seat names repeat"):
        _create(store, "m3", seats=(_seats("m3")[0], _seats("m3")[0]))
    with pytest.raises(StoreError, match="bot without a bot name"):
        _create(store, "m4", seats=(StoredSeat("red", "bot", None, None),))
    with pytest.raises(StoreError, match="seed does not match its commitment"):
        store.create_match(
            match_id="m5",
            ruleset="quick",
            options={},
            seed=1,
            nonce="n",
            commitment=commit(2, "n"),
            seats=_seats("m5"),
            spectator_hash=hash_token("s"),
        )
    assert [m.id for m in store.list_matches()] == ["m1"]


# -- orders: refused ones store nothing; threads -----------------------------------------------


def test_duplicate_seq_gap_and_unknown_seat_are_refused_and_store_nothing(store: Store) -> None:
    _create(store, "m1")
    store.add_order("m1", 0, "red", "F")
    store.add_order("m1", 1, "red", "E")
    with pytest.raises(StoreError, match="order 1 of match m1: an order with that seq is already"):
        store.add_order("m1", 1, "blue", "F")
    with pytest.raises(StoreError, match="the next order of this match is seq 2"):
        store.add_order("m1", 3, "blue", "F")
    with pytest.raises(StoreError, match=r"no seat 'green' \(seats: red, blue\)"):
        store.add_order("m1", 2, "green", "F")
    with pytest.raises(StoreError, match="no such match"):
        store.add_order("nope", 0, "red", "F")
    loaded = store.load("m1")
    assert loaded is not None
    assert loaded.orders == (("red", "F"), ("red", "E"))


def test_two_threads_add_orders_to_two_matches_at_once(store: Store) -> None:
    _create(store, "a")
    _create(store, "b")
    start = threading.Barrier(2)
    errors: list[BaseException] = []

    def play(match_id: str) -> None:
        try:
            start.wait()
            for seq in range(40):
                store.add_order(match_id, seq, "red" if seq % 2 else "blue", f"{match_id}{seq}")
        except BaseException as exc:  # reported below: a thread's exception is otherwise lost
            errors.append(exc)

    threads = [threading.Thread(target=play, args=(m,)) for m in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    for match_id in ("a", "b"):
        loaded = store.load(match_id)
        assert loaded is not None
        assert loaded.orders == tuple(
            ("red" if seq % 2 else "blue", f"{match_id}{seq}") for seq in range(40)
        )


def test_in_memory_sqlite_is_shared_by_threads() -> None:
    with Store("sqlite://") as store:
        _create(store, "m1")
        done = threading.Thread(target=store.add_order, args=("m1", 0, "red", "F"))
        done.start()
        done.join()
        loaded = store.load("m1")
        assert loaded is not None and loaded.orders == (("red", "F"),)


# -- resume ------------------------------------------------------------------------------------


class Served:
    """A match as the server keeps it: stored at creation, every accepted order stored (the
    acknowledgement waits for it) before it is submitted."""

    def __init__(self, store: Store, match_id: str, match: Match) -> None:
        self.store, self.id, self.match = store, match_id, match
        self.accepted: list[tuple[str, str]] = []
        store.create_match(
            match_id=match_id,
            ruleset=match.ruleset.name,
            options=match.options,
            seed=match.seed,
            nonce=match.nonce,
            commitment=match.commitment,
            seats=[
                StoredSeat(s, "human", None, hash_token(f"{match_id}-{s}")) for s in match.seats
            ],
            spectator_hash=hash_token(f"{match_id}-spectator"),
        )

    def order(self, seat: str, order: str) -> None:
        canonical = self.match.check(seat, order)
        self.store.add_order(self.id, len(self.accepted), seat, canonical)
        self.accepted.append((seat, canonical))
        self.match.submit(seat, canonical)

    def play_step(self, rng: random.Random) -> None:
        for seat in self.match.waiting_for():
            self.order(seat, self.match.pending()[seat].sample(rng))


def _assert_same(rebuilt: Match, original: Match) -> None:
    assert rebuilt.ruleset.state_hash(rebuilt.state) == original.ruleset.state_hash(original.state)
    assert rebuilt.waiting_for() == original.waiting_for()
    assert rebuilt.events == original.events
    assert [r.to_dict() for r in rebuilt.rolls] == [r.to_dict() for r in original.rolls]


def test_resume_quick_match_after_restart_is_identical(store: Store, url: str) -> None:
    """Quick rules: one seat decides at a time; the stored orders replay the match bit for bit."""
    served = Served(store, "q1", Match(registry.get("quick"), {}, seed=2024, nonce="q-nonce"))
    rng = random.Random(7)
    for _ in range(25):
        assert len(served.match.waiting_for()) == 1
        served.play_step(rng)
    store.close()

    with Store(url) as restarted:
        running, problems = restarted.running()
    assert problems == []
    assert [m.id for m in running] == ["q1"]
    assert running[0].orders == tuple(served.accepted)
    rebuilt = rebuild(running[0])
    match = served.match
    _assert_same(rebuilt, match)

    # Play on in both: the dice still agree.
    for _ in range(5):
        (seat,) = match.waiting_for()
        order = match.pending()[seat].sample(rng)
        match.submit(seat, order)
        rebuilt.submit(seat, order)
    _assert_same(rebuilt, match)


def test_resume_colosseum_with_a_half_submitted_secret_plot(store: Store, url: str) -> None:
    """Colosseum: a secret plot with red's order in and blue's missing resumes with red's order
    still secret and blue still to plot (docs/web.md, Storage)."""
    served = Served(store, "c1", Match(registry.get("colosseum"), {}, seed=99, nonce="c-nonce"))
    match = served.match
    rng = random.Random(3)
    for _ in range(4):  # four whole phases of plots, each seat's order stored on its own
        served.play_step(rng)
    plot = match.pending()["red"]
    assert plot.secret and "plot turn 1 phase 5" in plot.to_dict()["prompt"]
    served.order("red", match.pending()["red"].sample(rng))
    assert match.waiting_for() == ["blue"]
    store.close()

    with Store(url) as restarted:
        stored = restarted.load("c1")
    assert stored is not None
    assert stored.orders == tuple(served.accepted)
    rebuilt = rebuild(stored)
    _assert_same(rebuilt, match)
    assert rebuilt.waiting_for() == ["blue"]
    assert rebuilt.view("red")["my_order"] == served.accepted[-1][1]
    assert "my_order" not in rebuilt.view("blue")
    assert rebuilt.view("blue") == match.view("blue")

    blue_order = match.pending()["blue"].sample(rng)
    match.submit("blue", blue_order)
    rebuilt.submit("blue", blue_order)
    _assert_same(rebuilt, match)


def test_rebuild_refuses_orders_this_program_cannot_replay(store: Store) -> None:
    match = Served(store, "q", Match(registry.get("quick"), {}, seed=5, nonce="n5")).match
    (seat,) = match.waiting_for()
    store.add_order("q", 0, seat, "NO-SUCH-ORDER")
    stored = store.load("q")
    assert stored is not None
    with pytest.raises(
        StoreError, match=rf"cannot resume match q: stored order 0 \({seat}: NO-SUCH"
    ):
        rebuild(stored)
    with pytest.raises(StoreError, match="unknown ruleset 'chess'"):
        rebuild(replace(stored, ruleset="chess", orders=()))


# -- broken databases --------------------------------------------------------------------------


def test_half_written_database_reports_each_broken_match_and_loads_the_rest(
    store: Store, url: str
) -> None:
    _create(store, "good")
    store.add_order("good", 0, "red", "F")
    _create(store, "gap")
    _create(store, "stranger")
    _create(store, "forged")
    now = "'2030-01-01 00:00:00'"
    order = "INSERT INTO orders (match_id, seq, seat, order_text, at)"
    _raw_sql(
        url,
        "INSERT INTO matches (id, ruleset, options, seed, nonce, commitment, status, created_at,"
        f" spectator_hash) VALUES ('seatless', 'quick', '{{}}', 1, 'n',"
        f" '{commit(1, 'n')}', 'running', {now}, 'x')",
        f"{order} VALUES ('gap', 0, 'red', 'F', {now})",
        f"{order} VALUES ('gap', 2, 'red', 'E', {now})",
        f"{order} VALUES ('stranger', 0, 'green', 'F', {now})",
        "UPDATE matches SET seed = 12 WHERE id = 'forged'",
    )

    good, problems = store.running()
    assert [m.id for m in good] == ["good"]
    assert sorted(problems) == [
        "match forged: its seed does not match its commitment",
        "match gap: order seq 1 is missing (next stored is 2)",
        "match seatless: it has no seats (the database was left half-written)",
        "match stranger: order 0 is for seat 'green', which the match does not have",
    ]
    for broken in ("seatless", "gap", "stranger", "forged"):
        with pytest.raises(StoreError, match=f"^match {broken}: "):
            store.load(broken)


def test_a_database_from_a_newer_version_is_refused(store: Store, url: str) -> None:
    _create(store, "m1")
    store.close()
    _raw_sql(url, f"UPDATE meta SET value = '{SCHEMA_VERSION + 1}' WHERE key = 'schema_version'")
    with pytest.raises(
        StoreError, match=rf"written by a newer gladiator \(schema version {SCHEMA_VERSION + 1};"
    ):
        Store(url)


# -- bad URLs ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("mysql://u@localhost/db", "unsupported database 'mysql'; use sqlite:///FILE or"),
        ("gladiator.db", "not a database URL; use sqlite:///FILE or postgresql://"),
        ("sqlite:///no/such/folder/arena.db", "the folder no/such/folder does not exist"),
    ],
)
def test_a_bad_url_is_a_one_line_store_error(bad: str, message: str) -> None:
    with pytest.raises(StoreError, match=message) as caught:
        Store(bad)
    assert "\n" not in str(caught.value)


def test_an_unreachable_postgresql_server_is_a_one_line_store_error() -> None:
    port = postgres_fixture._free_port()  # nothing listens there
    with pytest.raises(StoreError) as caught:
        Store(f"postgresql://someone:secret@127.0.0.1:{port}/arena")
    message = str(caught.value)
    assert message.startswith(
        f"cannot open the database postgresql+psycopg://someone:***@127.0.0.1:{port}/arena: "
    )
    assert "secret" not in message and "\n" not in message


def test_a_file_that_is_not_a_database_is_a_store_error(tmp_path: Any) -> None:
    path = tmp_path / "notes.db"
    path.write_text("these are not the tables you are looking for " * 40)
    with pytest.raises(
        StoreError, match=r"cannot open the database sqlite:///.*notes\.db: file is not a database"
    ):
        Store(f"sqlite:///{path}")
