"""The campaign kept in the store (campaign_service): steps committed one by one, the driver's
moves read off the state (L15), human lanistas waited for, and a campaign resumed exactly.

Fights are played by the real Colosseum engine with random bots (fast); a few tests fake the
fights where only the campaign's bookkeeping is under test."""

from __future__ import annotations

from typing import Any

import pytest

from gladiator.campaign import CampaignError, CampaignState, state_digest
from gladiator.campaign.driver import next_move
from gladiator.campaign_service.service import CampaignService, bot_fights
from gladiator.campaign_service.timeline import timeline_row
from gladiator.store import CampaignStore, StoreError


def _create(service: CampaignService, *, humans: int = 0, seed: int = 4, **options: Any) -> str:
    lanistas: list[dict[str, Any]] = [
        {"id": f"h{i + 1}", "name": f"Human {i + 1}", "kind": "human", "bot": None}
        for i in range(humans)
    ]
    lanistas += [{"id": f"l{i + 1}", "name": f"Lanista {i + 1}"} for i in range(4 - humans)]
    service.create(
        {
            "kind": "create",
            "id": "c1",
            "name": "test",
            "seed": seed,
            "options": {"munera": 3, **options},
            "lanistas": lanistas,
        }
    )
    return "c1"


@pytest.fixture
def service(tmp_path: Any) -> CampaignService:
    return CampaignService(CampaignStore(f"sqlite:///{tmp_path / 'c.db'}"))


def _check_books(service: CampaignService, state: CampaignState) -> None:
    balances = service.store.balances(state.meta.id)
    assert sum(balances.values()) == 0
    for lanista in state.lanistas.values():
        assert balances.get(f"lanista:{lanista.id}", 0) == lanista.purse
    for bout in state.bouts.values():
        if bout.status == "settled":
            assert balances.get(f"escrow:{bout.id}", 0) == 0


def test_s37_a_munus_of_four_bot_lanistas_through_the_store_keeps_the_books(
    service: CampaignService,
) -> None:
    cid = _create(service)
    seen: list[str] = []

    def check(step: dict[str, Any], result: Any) -> None:
        seen.append(step["kind"])
        stored = service.load(cid)
        assert state_digest(stored) == state_digest(result.state)  # what was committed
        # ... to the order of its items, which the rules' "in turn" loops follow (L15)
        assert stored.model_dump_json() == result.state.model_dump_json()
        _check_books(service, stored)

    service.advance(cid, bot_fights(4, "random"), until_munus_closed=1, on_step=check)
    state = service.load(cid)
    # L15: every bot lanista says he is ready, then the munus opens
    assert seen[:5] == ["ready"] * 4 + ["munus_open"] and seen[-1] == "munus_close"
    assert "bout_result" in seen and "ready" in seen
    assert state.meta.munus == 1 and state.meta.phase == "between"
    assert all(b.status == "settled" for b in state.munus_bouts())
    assert state.meta.seq == len(seen)


def test_l15_a_campaign_resumed_from_the_store_ends_as_one_never_stopped(tmp_path: Any) -> None:
    def run(path: str, pauses: list[int]) -> str:
        svc = CampaignService(CampaignStore(f"sqlite:///{path}"))
        cid = _create(svc, seed=11)
        for n in pauses:  # stop after n steps, then a fresh service goes on from the store
            svc.advance(cid, bot_fights(11, "random"), max_steps=n)
            svc = CampaignService(CampaignStore(f"sqlite:///{path}"))
        svc.advance(cid, bot_fights(11, "random"), max_steps=90 - sum(pauses))
        state = svc.load(cid)
        assert state.meta.seq == 90 and state.meta.munus >= 2  # past a whole munus
        return state_digest(state)

    straight = run(str(tmp_path / "a.db"), [])
    stopped = run(str(tmp_path / "b.db"), [3, 1, 7, 20])
    assert straight == stopped


def test_l15_the_driver_waits_for_a_human_lanista_then_goes_on(service: CampaignService) -> None:
    cid = _create(service, humans=1)
    move = service.advance(cid, bot_fights(4, "random"))
    state = service.load(cid)
    assert move.waiting == ("h1",) and state.meta.phase == "between"
    # every bot said it is ready; the munus waits for the human's word
    assert set(state.meta.ready) == {"l1", "l2", "l3"}
    mine = [g.id for g in state.stable("h1")][:1]
    service.step(cid, {"kind": "ready", "actor": "h1", "entries": mine})
    move = service.advance(cid, bot_fights(4, "random"))
    state = service.load(cid)
    assert state.meta.phase == "munus"
    his = [b for b in state.munus_bouts() if "h1" in b.lanistas()]
    assert len(his) == 1  # he entered one man: one bout (§30.2 NOTE)
    # L19: no bout is fought before the games begin, when he too is ready
    assert move.waiting == ("h1",)
    assert all(b.status == "scheduled" for b in state.munus_bouts())
    service.step(cid, {"kind": "ready", "actor": "h1"})
    move = service.advance(cid, bot_fights(4, "random"))
    state = service.load(cid)
    assert move.waiting == ("h1",)  # nobody plays his fight for him
    assert [b.id for b in state.munus_bouts() if b.status == "scheduled"] == [his[0].id]
    move = next_move(state, frozenset({"h1"}))
    assert move.fight == his[0].id


def test_a_human_lanista_may_have_a_bot_fight_his_bout(service: CampaignService) -> None:
    """Issue #29: `bot_fight` before he is ready plays his bout in the server, as a bot's."""
    cid = _create(service, humans=1)
    service.advance(cid, bot_fights(4, "random"))
    mine = [g.id for g in service.load(cid).stable("h1")][:1]
    service.step(cid, {"kind": "ready", "actor": "h1", "entries": mine})
    service.advance(cid, bot_fights(4, "random"))
    his = next(b for b in service.load(cid).munus_bouts() if "h1" in b.lanistas())
    service.step(cid, {"kind": "bot_fight", "actor": "h1", "bout": his.id})
    service.step(cid, {"kind": "ready", "actor": "h1"})
    with pytest.raises(CampaignError, match="is ready"):
        service.step(cid, {"kind": "bot_fight", "actor": "h1", "bout": his.id})
    move = service.advance(cid, bot_fights(4, "random"))
    state = service.load(cid)
    assert state.bouts[his.id].status == "settled"
    assert state.meta.phase == "between" and move.waiting == ("h1",)


def test_s37_4_refused_steps_write_nothing(service: CampaignService) -> None:
    cid = _create(service)
    service.advance(cid, bot_fights(4, "random"), max_steps=5)  # four ready, munus_open
    state = service.load(cid)
    before = (state.meta.seq, state_digest(state), service.store.balances(cid))
    bout = next(b for b in state.munus_bouts() if len(set(b.lanistas())) == 2)
    a, b = bout.lanistas()
    theirs = next(g for g in bout.gladiators() if state.gladiators[g].lanista == b)
    refusals = [
        {"kind": "offer_odds", "actor": a, "bout": bout.id, "odds": 6},  # over 5-1
        {"kind": "spend_xp", "actor": a, "gladiator": theirs, "purchases": [{"what": "tr"}]},
        {"kind": "ready", "actor": "nobody"},
        {"kind": "munus_open"},
    ]
    for step in refusals:
        with pytest.raises(CampaignError) as info:
            service.step(cid, step)
        assert "\n" not in str(info.value)
    after = service.load(cid)
    assert (after.meta.seq, state_digest(after), service.store.balances(cid)) == before


def test_a_step_committed_twice_is_refused_by_the_store(service: CampaignService) -> None:
    cid = _create(service)
    state = service.load(cid)
    move = next_move(state)
    assert move.step == {"kind": "ready", "actor": "l1"}
    service.step_from(state, move.step)
    with pytest.raises(StoreError, match="already stored"):
        service.step_from(state, move.step)  # the same step from the same state: a retry
    assert service.load(cid).meta.seq == 1


def test_l16_timeline_rows_count_stables_deaths_and_money(service: CampaignService) -> None:
    cid = _create(service)
    service.advance(cid, bot_fights(4, "random"), until_munus_closed=1)
    state = service.load(cid)
    rows = timeline_row(state)
    assert [r["lanista"] for r in rows] == ["l1", "l2", "l3", "l4"]
    for r in rows:
        mine = [g for g in state.gladiators.values() if g.lanista == r["lanista"]]
        assert r["stable"] == sum(g.status == "alive" for g in mine)
        assert r["deaths"] == sum(g.status == "dead" for g in mine)
        assert r["purse"] == state.lanistas[r["lanista"]].purse
    assert sum(r["stable"] + r["deaths"] for r in rows) >= 1
