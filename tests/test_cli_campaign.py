"""`gladiator campaign ...` (§30-§37): a campaign made, shown, played on and refused in the
terminal, kept in a database; every user mistake one line on stderr, nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gladiator.campaign import state_digest
from gladiator.campaign_service.service import CampaignService
from gladiator.cli.main import app
from gladiator.store import CampaignStore

runner = CliRunner()


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, ["campaign", *args], input=input)
    return result.exit_code, result.stdout, result.stderr


def one_line_error(code: int, out: str, err: str) -> str:
    assert code == 2, (code, out, err)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in out + err
    return lines[0]


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'c.db'}"


def _new(db: str, *extra: str) -> None:
    code, out, err = run("new", "Ludus", "--id", "c1", "--seed", "5", "--db", db, *extra)
    assert code == 0, err
    assert "campaign c1 created" in out


def test_s37_2_new_shows_four_stables_of_five_and_their_purses(db: str) -> None:
    _new(db)
    code, out, _ = run("show", "c1", "--db", db, "--json")
    state = json.loads(out)
    assert code == 0
    assert [lanista["purse"] for lanista in state["lanistas"].values()] == [2000] * 3
    code, out, _ = run(
        "new", "Second", "--id", "c2", "--bots", "3", "--human", "Marcus", "--db", db
    )
    assert code == 0 and "Marcus (l1, human): 2,000 sesterces" in out
    assert (
        sum(
            g["lanista"] == "l1"
            for g in json.loads(run("show", "c2", "--db", db, "--json")[1])["gladiators"].values()
        )
        == 5
    )


def test_s30_munus_plays_the_bot_lanistas_munus_to_its_close(db: str) -> None:
    _new(db)
    code, out, err = run("munus", "c1", "--bot", "random", "--db", db)
    assert code == 0, err
    state = CampaignService(CampaignStore(db)).load("c1")
    assert state.meta.munus == 1 and state.meta.phase == "between"
    assert "settled" in out or "bout" in out


def test_s37_refusals_are_one_line_and_write_nothing(db: str) -> None:
    _new(db, "--human", "Marcus")
    service = CampaignService(CampaignStore(db))
    run("ready", "c1", "--as", "l1", "--db", db)
    run("munus", "c1", "--bot", "random", "--no-play", "--db", db)  # stops at his bout
    state = service.load("c1")
    assert state.meta.phase == "munus"
    before = (state_digest(state), service.store.balances("c1"))
    his = next(b for b in state.munus_bouts() if "l1" in b.lanistas())
    other = next(g for g in state.gladiators.values() if g.lanista == "l2")
    dead = next((g for g in state.gladiators.values() if g.status == "dead"), None)
    cases = [
        ("odds", "c1", his.id, "9", "--as", "l1"),  # above 5-1 (§37.4)
        ("spend", "c1", other.id, "tr", "--as", "l1"),  # another lanista's man
        ("bid", "c1", "g1", "100", "--as", "l1"),  # no auction in a munus
        ("ready", "c1", "--as", "nobody"),
        ("show", "c9"),
        ("spend", "c1", other.id, "talent+x", "--as", "l2"),
    ]
    if dead is not None:
        cases.append(("spend", "c1", dead.id, "tr", "--as", dead.lanista or "l1"))
    for case in cases:
        one_line_error(*run(*case, "--db", db))
    after = service.load("c1")
    assert (state_digest(after), service.store.balances("c1")) == before


def test_a_bad_database_url_is_one_line() -> None:
    message = one_line_error(*run("list", "--db", "nosuch://x"))
    assert "sqlite" in message


def test_sim_writes_its_timeline_and_plot(tmp_path: Path) -> None:
    plot, out_json = tmp_path / "t.png", tmp_path / "t.json"
    code, out, err = run(
        "sim",
        "--munera",
        "1",
        "--bot",
        "random",
        "--seed",
        "3",
        "--plot",
        str(plot),
        "--json",
        str(out_json),
    )
    assert code == 0, err
    assert plot.stat().st_size > 10_000 and plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    data = json.loads(out_json.read_text())
    assert {r["munus"] for r in data["rows"]} == {0, 1}
    assert [r["stable"] for r in data["rows"] if r["munus"] == 0] == [5, 5, 5, 5]
    assert "Campaign over time" in out
    one_line_error(*run("sim", "--munera", "1", "--plot", str(tmp_path / "no" / "x.png")))


def test_l12_show_keeps_the_bids_sealed(db: str) -> None:
    _new(db)
    service = CampaignService(CampaignStore(db))
    service.advance("c1", None, until_munus_closed=1)
    state = service.load("c1")
    while not state.meta.lots:  # a munus in which somebody lost a man (§37.5)
        service.advance("c1", None, until_munus_closed=1)
        state = service.load("c1")
    lot = state.meta.lots[0].gladiator
    service.step("c1", {"kind": "bid", "actor": "l1", "gladiator": lot, "amount": 777})
    code, out, _ = run("show", "c1", "--db", db)
    assert code == 0 and "777" not in out and "1 sealed bid" in out


def test_quitting_a_campaign_fight_loses_nothing(db: str) -> None:
    _new(db, "--human", "Marcus")
    run("ready", "c1", "--as", "l1", "--db", db)
    run("munus", "c1", "--bot", "random", "--no-play", "--db", db)
    run("ready", "c1", "--as", "l1", "--db", db)
    seq = CampaignService(CampaignStore(db)).load("c1").meta.seq
    code, out, err = run("munus", "c1", "--bot", "random", "--db", db, input="q\n")
    assert code == 1 and "Traceback" not in out + err
    assert "goes on from its last step" in out
    assert CampaignService(CampaignStore(db)).load("c1").meta.seq == seq  # his bout unsettled


def test_s37_2_1_s37_4_1_l20_the_stable_and_side_bet_commands(db: str) -> None:
    """The steps the campaign page sends, in the terminal: a stable bought (§37.2.1), a man's
    styles (§30.2.3.1), a side bet offered and taken (§37.4.1), a man sold and one retired (L20);
    a refused one is one line and writes nothing."""
    _new(db, "--human", "Marcus", "-o", "stables=bought", "-o", "choose_style=true")
    service = CampaignService(CampaignStore(db))
    err = one_line_error(*run("buy-stable", "c1", "gallus,secutor", "--as", "l1", "--db", db))
    assert "4 to 6" in err
    code, _, err = run(
        "buy-stable", "c1", "gallus,secutor,myrmillo,thracian", "--as", "l1", "--db", db
    )
    assert code == 0, err
    state = service.load("c1")
    mine = [g.id for g in state.stable("l1")]
    assert len(mine) == 4 and state.lanistas["l1"].purse == 4000 - 1500
    code, _, err = run("styles", "c1", mine[0], "gallus,secutor", "--as", "l1", "--db", db)
    assert code == 0, err
    assert service.load("c1").meta.preferences[mine[0]] == ["gallus", "secutor"]
    code, _, err = run("sell", "c1", mine[1], "--as", "l1", "--db", db)
    assert code == 0, err
    code, _, err = run("retire", "c1", mine[2], "--as", "l1", "--db", db)
    assert code == 0, err
    state = service.load("c1")
    assert [lot.seller for lot in state.meta.lots] == ["l1"]
    assert state.gladiators[mine[2]].status == "retired"
    code, _, err = run("ready", "c1", "--as", "l1", "--db", db)
    assert code == 0, err
    code, _, err = run("munus", "c1", "--bot", "random", "--db", db)
    assert code == 0, err
    state = service.load("c1")
    bout = next(b for b in state.munus_bouts() if "l1" not in b.lanistas())
    before = state_digest(state)
    err = one_line_error(*run("side-bet", "c1", bout.id, "0", "0", "10", "--as", "l1", "--db", db))
    assert "side bet" in err and state_digest(service.load("c1")) == before
    code, _, err = run("side-bet", "c1", bout.id, "0", "200", "50", "--as", "l1", "--db", db)
    assert code == 0, err
    bet = service.load("c1").bouts[bout.id].side_bets[0]
    assert (bet.offerer, bet.stake, bet.takes, bet.status) == ("l1", 200, 50, "offered")
    code, _, err = run("take-bet", "c1", bet.id, "--withdraw", "--as", "l1", "--db", db)
    assert code == 0, err
    assert service.load("c1").bouts[bout.id].side_bets[0].status == "withdrawn"
    # his bouts left to a bot: `munus` plays them here without asking him anything
    for his in [b for b in service.load("c1").munus_bouts() if "l1" in b.lanistas()]:
        code, _, err = run("bot-fight", "c1", his.id, "--as", "l1", "--db", db)
        assert code == 0, err
    code, _, err = run("ready", "c1", "--as", "l1", "--db", db)
    assert code == 0, err
    code, _, err = run("munus", "c1", "--bot", "random", "--db", db, input="")
    assert code == 0, err
    state = service.load("c1")
    assert state.meta.munus == 1 and all(b.status == "settled" for b in state.munus_bouts())
