"""`gladiator loadtest --deadline S`: the load test's correspondence mode (issue #30, rulings
CP1-CP3; server/loadtest_correspondence.py). Which decisions a seat sits out, how lateness is
summed up, the refusals, and a short run on two processes with a kill -9 in which no deadline
is missed."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from typer.testing import CliRunner

from gladiator.cli.main import app
from gladiator.server.loadtest import run_loadtest
from gladiator.server.loadtest_correspondence import Correspondence, SitOut, _lateness
from gladiator.store.deadline_log import Applied

runner = CliRunner()


def _view(due: float | None, outcome: Any = None) -> dict[str, Any]:
    return {"deadline": {"seconds": 3, "then": "bot", "due": due}, "outcome": outcome}


def test_a_seat_chooses_once_per_decision_and_sees_the_one_it_sat_out_pass() -> None:
    seat = SitOut(random.Random(1), think_cap=1.5, share=1.0)
    assert seat(_view(100.0)) and seat(_view(100.0))  # asked again: the same choice
    assert seat.sat_out == 1
    seat.saw(_view(100.0))  # the other seat's order: the decision is still open
    assert seat.seen_passed == 0
    seat.saw(_view(103.5))  # the stand-in played it: another decision is asked
    assert seat.seen_passed == 1
    never = SitOut(random.Random(1), think_cap=1.5, share=0.0)
    assert not never(_view(100.0)) and not never(_view(None))


def test_a_seat_that_plays_thinks_at_most_half_the_deadline_and_orders_well_before_it() -> None:
    seat = SitOut(random.Random(1), think_cap=1.5)
    assert seat.longest_think(_view(datetime.now(UTC).timestamp() + 60)) == 1.5
    assert seat.longest_think(_view(datetime.now(UTC).timestamp() + 1.2)) < 0.3
    assert seat.longest_think(_view(datetime.now(UTC).timestamp() - 5)) == 0
    # Read, or done thinking, too near the deadline: the decision is left to it as well.
    assert not seat.too_near(_view(datetime.now(UTC).timestamp() + 60))
    near = _view(datetime.now(UTC).timestamp() + 0.2)
    assert seat.too_near(near) and seat(near) and seat.too_late == 1 and seat.sat_out == 0


def test_mixed_makes_both_kinds_on_every_server() -> None:
    plan = Correspondence(3)
    kinds = [(i % 2, plan.then_of(i, 2)) for i in range(8)]
    assert set(kinds) == {(0, "bot"), (1, "bot"), (0, "forfeit"), (1, "forfeit")}
    assert plan.deadline("bot") == {"seconds": 3, "then": "bot", "bot": "level:normal"}
    assert plan.deadline("forfeit") == {"seconds": 3, "then": "forfeit"}
    assert plan.server_args() == ["--min-deadline", "3"]
    assert Correspondence(3600).server_args() == ["--min-deadline", "60"]


def test_lateness_is_split_by_whose_match_and_by_the_kill() -> None:
    kill = datetime(2026, 1, 1, tzinfo=UTC)

    def applied(match_id: str, kind: str, due_s: float, late: float) -> Applied:
        due = kill + timedelta(seconds=due_s)
        return Applied(match_id, kind, due, due + timedelta(seconds=late))

    cells = _lateness(
        [
            applied("a", "bot", -5, 0.5),
            applied("a", "bot", 2, 0.7),
            applied("b", "bot", -3, 0.4),
            applied("b", "forfeit", 1, 9.0),  # taken over: due while nobody held it
        ],
        {"b"},
        kill,
        8.0,
    )
    assert cells["all"]["count"] == 4 and cells["all"]["over_bound"] == 1
    assert cells["bot"]["count"] == 3 and cells["forfeit"]["max"] == 9.0
    assert cells["survivor_before_kill"]["count"] == 1
    assert cells["survivor_after_kill"]["p50"] == 0.7
    assert cells["taken_over_before_kill"]["max"] == 0.4
    assert cells["taken_over_after_kill"] == {
        "count": 1,
        "min": 9.0,
        "p50": 9.0,
        "p95": 9.0,
        "p99": 9.0,
        "max": 9.0,
        "over_bound": 1,
    }


@pytest.mark.parametrize(
    "args,words",
    [
        (["--silent-share", "0.5"], "need --deadline"),
        (["--deadline", "3", "--on-deadline", "resign"], "--on-deadline is one of"),
        (["--deadline", "3", "--silent-share", "1.5"], "--silent-share must be 0 to 1"),
        (["--deadline", "3", "--stand-in", "bot:nosuch"], "nosuch"),
        (["--deadline", "3", "--stand-in", "somebody"], "'level:LEVEL' or 'bot:NAME'"),
    ],
)
def test_loadtest_refuses_a_bad_correspondence_mode(args: list[str], words: str) -> None:
    result = runner.invoke(app, ["loadtest", "--matches", "1", *args])
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], lines


def test_deadlines_are_kept_across_a_kill_9_of_one_of_two_processes() -> None:
    """Four correspondence matches (two of each kind) on two `gladiator serve` processes, a
    2 s deadline, the first process killed with SIGKILL 5 s after they are all made: the stand-in
    bot plays the decisions sat out on both sides of the kill, the survivor takes the killed
    process's matches over, and at the end no running match waits for a deadline long passed
    and every acknowledged order is stored."""
    result = run_loadtest(
        4,
        "quick",
        seed=2,
        time_limit=20,
        processes=2,
        think=0.2,
        kill_after=5,
        correspondence=Correspondence(2, "mixed", silent_share=0.5),
    )
    assert result["schema_version"] == 4 and result["killed"]["at_seconds"] == 5
    assert result["acked_missing"] == 0 and result["orders_lost"] == 0
    assert result["problems"] == []
    c = result["correspondence"]
    assert c["matches_by_kind"] == {"bot": 2, "forfeit": 2}
    assert c["deadlines_missed"] == 0 and c["missed_examples"] == []
    assert c["deadlines_applied"]["bot"] > 0 and c["decisions_sat_out"] > 0
    # Every deadline applied is in the spread; each split holds its share of them.
    late = c["lateness_seconds"]
    assert late["all"]["count"] == sum(c["deadlines_applied"].values())
    splits = [k for k in late if k.startswith(("survivor_", "taken_over_"))]
    assert sum(late[k]["count"] for k in splits) == late["all"]["count"]
    assert late["taken_over_after_kill"]["count"] > 0  # the survivor kept them after the kill
    assert 0 <= late["all"]["min"] <= late["all"]["p50"] <= late["all"]["max"]
    takeover = c["takeover"]
    assert takeover["matches_of_killed_process"] == 2 and takeover["went_on_after_kill"] >= 1
    assert result["load_average"]["start"] is not None
