"""Tests for gladiator.store.campaigns: campaign steps, each in one transaction, and their ledger.

Every test that takes `url` runs on an SQLite file and on a throwaway PostgreSQL 15 cluster
(tests/postgres_fixture.py). The crash tests kill a child process that commits steps
(tests/campaign_store_harness.py) with SIGKILL, check what the database kept, and resume it.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import create_engine, text

import postgres_fixture
from campaign_store_harness import (
    check_stored,
    kill_when,
    reference_run,
    run_steps,
    start_child,
    synthetic_step,
)
from gladiator.store import CampaignStore, LedgerLine, Store, StoreError, documents_digest

GENERATOR = "campaign_store_harness:synthetic_step"


def _database(request: pytest.FixtureRequest, tmp_path: Any, name: str) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / name}"
    return postgres_fixture.fresh_database(request.getfixturevalue("postgres_server"))


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    return _database(request, tmp_path, "campaign.db")


@pytest.fixture
def other_url(request: pytest.FixtureRequest, tmp_path: Any, url: str) -> str:
    """A second, empty database of the same kind as `url`."""
    if url.startswith("sqlite"):
        return f"sqlite:///{tmp_path / 'other.db'}"
    return postgres_fixture.fresh_database(request.getfixturevalue("postgres_server"))


@pytest.fixture
def store(url: str) -> Iterator[CampaignStore]:
    s = CampaignStore(url)
    yield s
    s.close()


def _raw_sql(url: str, *statements: str) -> None:
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            if engine.dialect.name == "postgresql":
                conn.execute(text("SET session_replication_role = replica"))
            for statement in statements:
                conn.execute(text(statement))
    finally:
        engine.dispose()


ANN = {"id": "ann", "name": "Ann", "kind": "human", "purse": 100}
BOB = {"id": "bob", "name": "Bob", "kind": "bot", "purse": 100}


def _create(store: CampaignStore, campaign_id: str = "c1") -> None:
    store.create_campaign(
        campaign_id,
        "Ludus",
        7,
        {"phase": "setup", "seed": 7},
        [ANN, BOB],
        [
            {"id": "g1", "lanista": "ann", "status": "alive", "xp": 0},
            {"id": "g2", "lanista": None, "status": "for_sale"},
        ],
        [],
        [
            ("lanista:ann", 100, "opening"),
            ("lanista:bob", 100, "opening"),
            ("bank", -200, "opening"),
        ],
        state_digest="d0",
    )


def _buy(store: CampaignStore, seq: int = 1, price: int = 30, campaign_id: str = "c1") -> None:
    store.commit_step(
        campaign_id,
        seq,
        "buy",
        {"kind": "buy", "actor": "bob", "gladiator": "g2"},
        {"phase": "between", "seed": 7},
        [{**BOB, "purse": 100 - price}],
        [{"id": "g2", "lanista": "bob", "status": "alive"}],
        [{"id": "b1", "munus": 1, "status": "scheduled", "match_ids": ["m1"]}],
        [("lanista:bob", -price, "bought g2"), ("bank", price, "sold g2")],
        f"d{seq}",
    )


# -- round trip ------------------------------------------------------------------------------


def test_create_commit_load_gives_the_stored_documents_and_steps(store: CampaignStore) -> None:
    _create(store)
    _buy(store)
    stored = store.load_campaign("c1")
    assert stored is not None
    assert (stored.id, stored.name, stored.seed, stored.seq) == ("c1", "Ludus", 7, 1)
    assert stored.meta == {"phase": "between", "seed": 7}
    assert stored.lanistas == {"ann": ANN, "bob": {**BOB, "purse": 70}}
    assert stored.gladiators["g2"] == {"id": "g2", "lanista": "bob", "status": "alive"}
    assert stored.gladiators["g1"]["xp"] == 0  # untouched by step 1, kept from step 0
    assert stored.bouts == {
        "b1": {"id": "b1", "munus": 1, "status": "scheduled", "match_ids": ["m1"]}
    }
    assert [(s.seq, s.kind, s.state_digest) for s in stored.steps] == [
        (0, "create", "d0"),
        (1, "buy", "d1"),
    ]
    assert stored.steps[1].payload == {"kind": "buy", "actor": "bob", "gladiator": "g2"}
    assert stored.state_digest == "d1"
    assert store.balances("c1") == {"bank": -170, "lanista:ann": 100, "lanista:bob": 70}
    assert store.seq("c1") == 1 and store.seq("nope") is None and store.load_campaign("x") is None


def test_the_documents_digest_of_what_is_stored_is_that_of_what_was_given(
    store: CampaignStore,
) -> None:
    _create(store)
    stored = store.load_campaign("c1")
    assert stored is not None
    given = documents_digest(
        {"seed": 7, "phase": "setup"},
        [BOB, ANN],
        [
            {"status": "for_sale", "lanista": None, "id": "g2"},
            {"id": "g1", "lanista": "ann", "status": "alive", "xp": 0},
        ],
        [],
    )
    assert (
        documents_digest(
            stored.meta, stored.lanistas.values(), stored.gladiators.values(), stored.bouts.values()
        )
        == given
    )
    assert given != documents_digest({"seed": 7, "phase": "setup"}, [ANN], [], [])


def test_pages_read_a_lanistas_gladiators_a_munus_bouts_and_an_account(
    store: CampaignStore,
) -> None:
    _create(store)
    _buy(store)
    assert [g["id"] for g in store.gladiators_of("c1", "bob")] == ["g2"]
    assert [g["id"] for g in store.gladiators_of("c1", "ann")] == ["g1"]
    assert store.gladiators_of("c1", None) == []
    assert [b["id"] for b in store.bouts_of("c1", 1)] == ["b1"] and store.bouts_of("c1", 2) == []
    assert store.ledger("c1", "lanista:bob") == [
        LedgerLine(0, "lanista:bob", 100, "opening"),
        LedgerLine(1, "lanista:bob", -30, "bought g2"),
    ]
    assert len(store.ledger("c1")) == 5


def test_list_campaigns_is_newest_first_with_lanistas_and_never_a_seed(
    store: CampaignStore,
) -> None:
    _create(store, "c1")
    _create(store, "c2")
    summaries = store.list_campaigns()
    assert [s.id for s in summaries] == ["c2", "c1"]
    assert summaries[0].lanistas == (("ann", "Ann", "human"), ("bob", "Bob", "bot"))
    assert not hasattr(summaries[0], "seed") and not hasattr(summaries[0], "meta")
    assert [s.id for s in store.list_campaigns(limit=1)] == ["c2"]


def test_a_store_shares_its_database_with_its_campaigns(url: str) -> None:
    with Store(url) as store:
        _create(store.campaigns)
        assert store.campaigns.seq("c1") == 0
    with CampaignStore(url) as campaigns:
        assert campaigns.seq("c1") == 0


# -- refusals --------------------------------------------------------------------------------


def _unchanged(store: CampaignStore, seq: int, balances: dict[str, int]) -> None:
    stored = store.load_campaign("c1")
    assert stored is not None and stored.seq == seq and len(stored.steps) == seq + 1
    assert store.balances("c1") == balances


def test_a_repeated_step_is_refused_not_doubled(store: CampaignStore) -> None:
    _create(store)
    _buy(store)
    before = store.balances("c1")
    with pytest.raises(StoreError, match=r"^cannot store step 1 of campaign c1: step 1 is alre"):
        _buy(store)
    _unchanged(store, 1, before)
    assert before["bank"] == -170  # probe: one sale, not two


def test_a_skipped_step_and_an_unknown_campaign_are_refused(store: CampaignStore) -> None:
    _create(store)
    with pytest.raises(StoreError, match=r"the campaign is at step 0: the next step is 1$"):
        _buy(store, seq=2)
    with pytest.raises(StoreError, match=r"^cannot store step 1 of campaign zz: there is no such"):
        _buy(store, campaign_id="zz")
    with pytest.raises(StoreError, match=r"a step's seq is a whole number from 1"):
        _buy(store, seq=0)
    _unchanged(store, 0, {"bank": -200, "lanista:ann": 100, "lanista:bob": 100})


def test_ledger_entries_that_do_not_sum_to_zero_are_refused(store: CampaignStore) -> None:
    _create(store)
    with pytest.raises(
        StoreError,
        match=r"^cannot store step 1 of campaign c1: the ledger "
        r"entries sum to 5, not 0$",
    ):
        store.commit_step("c1", 1, "gift", {}, {}, [], [], [], [("lanista:ann", 5, "gift")], "")
    _unchanged(store, 0, {"bank": -200, "lanista:ann": 100, "lanista:bob": 100})


def test_ledger_entries_may_be_mappings(store: CampaignStore) -> None:
    _create(store)
    entries = [
        {"account": "lanista:ann", "amount": -4, "memo": "fine"},
        {"account": "bank", "amount": 4, "memo": "fine of ann"},
    ]
    store.commit_step("c1", 1, "fine", {}, {}, [], [], [], entries, "")
    assert store.balances("c1")["lanista:ann"] == 96


@pytest.mark.parametrize(
    ("lanistas", "gladiators", "bouts", "ledger", "payload", "message"),
    [
        ([{"name": "X", "kind": "bot"}], [], [], [], {}, "a lanista needs 'id' as text"),
        ([ANN, ANN], [], [], [], {}, "lanista ann is given twice"),
        (
            [],
            [{"id": "g9", "lanista": "zed", "status": "alive"}],
            [],
            [],
            {},
            "gladiator g9 belongs to no lanista 'zed'",
        ),
        ([], [{"id": "g9", "lanista": "ann"}], [], [], {}, "gladiator g9 needs 'status' as text"),
        (
            [],
            [],
            [{"id": "b", "munus": "one", "status": "x"}],
            [],
            {},
            "bout b needs a whole-number 'munus'",
        ),
        ([], [], [], [("bank", True, "")], {}, "the ledger entry for bank has no whole amount"),
        ([], [], [], [("bank", 1.5, "")], {}, "the ledger entry for bank has no whole amount"),
        ([], [], [], [], {"x": {1, 2}}, "the step payload is not plain JSON data"),
    ],
)
def test_bad_documents_are_one_line_refusals_that_write_nothing(
    store: CampaignStore,
    lanistas: list[Any],
    gladiators: list[Any],
    bouts: list[Any],
    ledger: list[Any],
    payload: dict[str, Any],
    message: str,
) -> None:
    _create(store)
    with pytest.raises(StoreError) as caught:
        store.commit_step("c1", 1, "bad", payload, {}, lanistas, gladiators, bouts, ledger, "")
    assert str(caught.value).startswith("cannot store step 1 of campaign c1: " + message)
    assert "\n" not in str(caught.value)
    _unchanged(store, 0, {"bank": -200, "lanista:ann": 100, "lanista:bob": 100})


def test_creating_a_campaign_twice_is_refused(store: CampaignStore) -> None:
    _create(store)
    with pytest.raises(
        StoreError, match=r"^cannot create campaign c1: a campaign with that id alr"
    ):
        _create(store)
    assert len(store.ledger("c1")) == 3


def test_a_step_failing_in_the_database_after_claiming_its_seq_rolls_all_back(
    store: CampaignStore, url: str
) -> None:
    """A step row already under seq 1 (another writer's) makes the insert fail after the seq
    was claimed: the claim, the items and the entries go with it."""
    _create(store)
    _raw_sql(
        url,
        "INSERT INTO campaign_steps (campaign_id, seq, kind, payload, state_digest, at) "
        "VALUES ('c1', 1, 'other', '{}', '', '2024-01-01 00:00:00')",
    )
    with pytest.raises(StoreError, match="another step of this campaign was stored at the same"):
        _buy(store)
    assert store.seq("c1") == 0
    assert store.balances("c1") == {"bank": -200, "lanista:ann": 100, "lanista:bob": 100}
    assert store.gladiators_of("c1", "bob") == []


def test_two_writers_of_the_same_step_store_it_once(url: str) -> None:
    with CampaignStore(url) as first:
        _create(first)
    stores = [CampaignStore(url) for _ in range(4)]
    start = threading.Barrier(len(stores))
    outcomes: list[str] = []

    def write(s: CampaignStore) -> None:
        start.wait()
        try:
            _buy(s)
            outcomes.append("stored")
        except StoreError as exc:
            outcomes.append(str(exc))

    threads = [threading.Thread(target=write, args=(s,)) for s in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for s in stores:
        s.close()
    assert outcomes.count("stored") == 1, outcomes
    assert all(
        o == "stored" or o.startswith("cannot store step 1 of campaign c1") for o in outcomes
    )
    with CampaignStore(url) as s:
        assert s.balances("c1")["bank"] == -170
        assert len(s.ledger("c1")) == 5


def test_load_reports_a_broken_ledger_or_a_missing_step_in_one_line(
    store: CampaignStore, url: str
) -> None:
    _create(store)
    _create(store, "c2")
    _raw_sql(
        url,
        "INSERT INTO ledger_entries (campaign_id, seq, account, amount, memo) "
        "VALUES ('c1', 0, 'bank', 7, 'forged')",
        "UPDATE campaigns SET seq = 3 WHERE id = 'c2'",
    )
    with pytest.raises(StoreError, match=r"^campaign c1: the ledger entries of step 0 sum to 7, n"):
        store.load_campaign("c1")
    with pytest.raises(StoreError, match=r"^campaign c2: it is at step 3 but 1 steps are stored$"):
        store.load_campaign("c2")


# -- crash safety ----------------------------------------------------------------------------

SEED = 20260412
TARGET = 200


def test_the_synthetic_steps_are_deterministic_and_balanced() -> None:
    first, again = (
        reference_run(SEED, TARGET, synthetic_step),
        reference_run(SEED, TARGET, synthetic_step),
    )
    assert first.digests == again.digests and len(set(first.digests)) == TARGET + 1
    assert all(sum(amount for _, amount, _ in ledger) == 0 for ledger in first.ledgers)
    kinds = set(first.kinds)
    assert {"transfer", "recruit", "schedule", "settle", "retire"} <= kinds
    statuses = {g["status"] for g in first.states[-1].gladiators.values()}
    assert {"alive", "dead", "retired"} <= statuses
    assert reference_run(SEED + 1, TARGET, synthetic_step).digests != first.digests


def test_kill_9_at_random_points_loses_no_step_halves_none_doubles_none(
    url: str, other_url: str
) -> None:
    """A child commits 200 steps and is killed with SIGKILL: once inside a step's transaction
    (rows written, not committed), then three times at random. After each kill the database holds
    exactly the reference state after its stored seq (every step whole, the ledger balanced
    overall and per step, each item at the step that wrote it, the recorded digest that of the
    rows); resumed, it ends where an uninterrupted run into another database ends."""
    ref = reference_run(SEED, TARGET, synthetic_step)
    rng = random.Random(SEED)
    child = start_child(url, "crash", SEED, TARGET, GENERATOR, hold_at=37)
    seen = kill_when(child, lambda line: line == "holding 37")
    assert seen[-1] == "holding 37", seen[-3:]
    seq = check_stored(url, "crash", ref)
    assert seq == 36  # step 37's rows were written but never committed
    for _ in range(3):
        stop_at = rng.randint(seq + 1, seq + 35)
        child = start_child(url, "crash", SEED, TARGET, GENERATOR)
        seen = kill_when(child, lambda line, at=stop_at: line == f"committed {at}")
        assert f"committed {stop_at}" in seen, seen[-3:]
        resumed_from = int(seen[1].split()[1]) if len(seen) > 1 else None
        assert resumed_from == seq + 1  # it resumed from the stored seq, not from 0
        seq = check_stored(url, "crash", ref)
        assert seq >= stop_at
    child = start_child(url, "crash", SEED, TARGET, GENERATOR)
    out, err = child.communicate(timeout=300)
    assert child.returncode == 0, err[-2000:]
    assert out.splitlines()[-1] == "done"
    assert check_stored(url, "crash", ref) == TARGET

    with CampaignStore(other_url) as straight:
        run_steps(straight, "crash", SEED, TARGET, synthetic_step)
    with CampaignStore(url) as a, CampaignStore(other_url) as b:
        killed, uninterrupted = a.load_campaign("crash"), b.load_campaign("crash")
        assert killed is not None and uninterrupted is not None
        for name in ("seq", "meta", "lanistas", "gladiators", "bouts", "seed", "name"):
            assert getattr(killed, name) == getattr(uninterrupted, name), name
        assert [(s.seq, s.kind, s.payload, s.state_digest) for s in killed.steps] == [
            (s.seq, s.kind, s.payload, s.state_digest) for s in uninterrupted.steps
        ]
        assert a.ledger("crash") == b.ledger("crash")
        assert a.balances("crash") == b.balances("crash")


@pytest.mark.parametrize(
    "tamper",
    [
        # A step's entries written twice: balanced, but doubled.
        "INSERT INTO ledger_entries (campaign_id, seq, account, amount, memo) "
        "SELECT campaign_id, seq, account, amount, memo FROM ledger_entries "
        "WHERE campaign_id = 'probe' AND seq = 5",
        # An item left at what an earlier step wrote.
        "UPDATE lanistas SET seq = 0 WHERE campaign_id = 'probe' AND id = 'ann'",
        "UPDATE gladiators SET doc = '{}' WHERE campaign_id = 'probe' AND id = 'ann1'",
    ],
)
def test_the_crash_check_finds_a_doubled_or_half_applied_step(tamper: str, tmp_path: Any) -> None:
    """Probe for the harness: what a broken store could leave fails its check."""
    url = f"sqlite:///{tmp_path / 'probe.db'}"
    ref = reference_run(SEED, 20, synthetic_step)
    with CampaignStore(url) as store:
        run_steps(store, "probe", SEED, 20, synthetic_step)
    assert check_stored(url, "probe", ref) == 20
    _raw_sql(url, tamper)
    with pytest.raises(AssertionError):
        check_stored(url, "probe", ref)


def test_a_load_while_steps_are_committed_is_one_consistent_snapshot(url: str) -> None:
    """A reader in another thread never sees a campaign's meta from one step and its steps or
    items from a later one (the web view reads while the campaign runner commits)."""
    import threading

    from gladiator.campaign_service.service import CampaignService, bot_fights

    service = CampaignService(CampaignStore(url))
    service.create(
        {
            "kind": "create",
            "id": "r1",
            "name": "race",
            "seed": 3,
            "options": {"munera": 3},
            "lanistas": [{"id": f"l{i}", "name": f"L{i}"} for i in range(4)],
        }
    )
    reader_store = CampaignStore(url)
    done = threading.Event()
    errors: list[str] = []
    loads = [0]

    def read() -> None:
        while not done.is_set():
            try:
                stored = reader_store.load_campaign("r1")
            except StoreError as exc:
                errors.append(str(exc))
                continue
            assert stored is not None
            assert stored.meta["seq"] == stored.seq == len(stored.steps) - 1
            loads[0] += 1

    reader = threading.Thread(target=read)
    reader.start()
    try:
        service.advance("r1", bot_fights(3, "random"), max_steps=40)
    finally:
        done.set()
        reader.join()
    assert loads[0] > 10 and errors == []
