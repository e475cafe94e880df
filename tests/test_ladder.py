"""`gladiator ladder` (sim.ladder, sim.ladder_report, cli.ladder): paired seeds, counts, the
report, resuming, and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gladiator.cli.main import app
from gladiator.sim.cputime import CpuTimes
from gladiator.sim.ladder import eligible_bots, game_seats, game_seed, play_game, play_pairings
from gladiator.sim.runner import play_match

runner = CliRunner()


def _run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_paired_seeds_share_a_seed_and_swap_the_seats() -> None:
    for k in range(5):
        assert game_seed(3, 2 * k) == game_seed(3, 2 * k + 1)
        assert game_seats("greedy", "random", 2 * k) == ("greedy", "random")
        assert game_seats("greedy", "random", 2 * k + 1) == ("random", "greedy")
    assert game_seed(3, 0) != game_seed(3, 2) and game_seed(3, 0) != game_seed(4, 0)


def test_a_swapped_pair_deals_the_same_gladiators_to_the_other_bots() -> None:
    # quick rolls the classes from the match dice: with one seed, the same gladiators stand in
    # the same seats in both games; only the bots change seats.
    seed = game_seed(1, 0)
    first = play_match("quick", {}, seed, game_seats("greedy", "random", 0))
    second = play_match("quick", {}, seed, game_seats("greedy", "random", 1))
    assert first.labels == second.labels


def test_a_ladder_game_is_the_runners_match_of_its_seed() -> None:
    for g in range(6):
        bots = game_seats("greedy", "random", g)
        seed = game_seed(9, g)
        winners, method, steps, times = play_game("skirmish", {}, seed, bots)
        m = play_match("skirmish", {}, seed, bots)
        assert (winners, method, steps) == (m.winners, m.method, m.steps)
        assert sum(len(t) for t in times.values()) >= steps


def test_counts_add_up_and_do_not_depend_on_jobs() -> None:
    pairs = [("greedy", "random")]
    one = play_pairings("quick", {}, pairs[:1], 12, 4)
    two = play_pairings("quick", {}, pairs[:1], 12, 4, jobs=2)
    res = one[0]
    wins, losses, draws = res.counts()
    assert wins + losses + draws == 12 == len(res.games)
    assert [g.game for g in res.games] == list(range(12))
    assert res.scores == two[0].scores
    assert wins > losses  # greedy beats random at quick
    cpu = res.cpu()
    assert cpu["greedy"].count > 0 and cpu["random"].count > 0
    assert cpu["greedy"].mean > cpu["random"].mean


def test_cpu_times_merge_and_read_a_quantile_to_within_a_bin() -> None:
    t = CpuTimes()
    t.add_all([0.001] * 95 + [0.1] * 5)
    assert t.count == 100 and t.max == 0.1
    assert 0.001 <= t.quantile(0.95) < 0.00113
    assert t.quantile(0.99) == pytest.approx(0.1)
    other = CpuTimes.from_dict(t.to_dict())
    other.merge(t)
    assert other.count == 200 and other.mean == pytest.approx(t.mean)


def test_only_bots_that_play_the_ruleset_are_in_its_ladder() -> None:
    assert "tactician" not in eligible_bots("quick")
    assert "centurion" not in eligible_bots("skirmish")
    assert {"tactician", "centurion", "random"} <= set(eligible_bots("colosseum"))


def test_the_ladder_command_writes_a_report_and_resumes_from_it(tmp_path: Path) -> None:
    args = ["ladder", "quick", "--bots", "random,greedy", "--matches-per-pairing", "10"]
    code, _, err = _run(*args, "--seed", "2", "--out", str(tmp_path))
    assert code == 0, err
    data = json.loads((tmp_path / "ladder-quick.json").read_text())
    assert (tmp_path / "ladder-quick.png").stat().st_size > 0
    assert data["schema"] == "gladiator.ladder/1" and data["bots"] == ["greedy", "random"]
    (p,) = data["pairings"]
    assert p["a_wins"] + p["b_wins"] + p["draws"] == p["matches"] == len(p["games"]) == 10
    ratings = {r["bot"]: r for r in data["ratings"]}
    assert ratings["random"]["elo"] == 0 and ratings["greedy"]["elo"] > 0
    lo, hi = ratings["greedy"]["ci95"]
    assert lo <= ratings["greedy"]["elo"] <= hi
    assert data["cpu_per_decision"]["greedy"]["decisions"] > 0
    assert "processor" in data["machine"]
    # Run again: the pairing is read back, not played (a field doctored here stays so).
    p["mean_steps"] = -1.0
    (tmp_path / "ladder-quick.json").write_text(json.dumps(data))
    code, _, err = _run(*args, "--seed", "2", "--out", str(tmp_path))
    assert code == 0 and "1 pairing(s) from" in err
    again = json.loads((tmp_path / "ladder-quick.json").read_text())
    assert again["pairings"][0]["mean_steps"] == -1.0
    # Another seed is another ladder: played afresh.
    code, _, err = _run(*args, "--seed", "3", "--out", str(tmp_path))
    assert code == 0 and "pairing(s) from" not in err


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["quick", "--bots", "random,nobody"], "unknown bot 'nobody'"),
        (["quick", "--bots", "random,tactician"], "does not play quick"),
        (["skirmish", "--bots", "centurion,greedy"], "does not play skirmish"),
        (["quick", "--bots", "random"], "at least two bots"),
        (["quick", "--matches-per-pairing", "5"], "must be even"),
        (["chess"], "unknown ruleset"),
    ],
)
def test_bad_ladder_input_gets_one_line(args: list[str], says: str, tmp_path: Path) -> None:
    code, out, err = _run("ladder", *args, "--out", str(tmp_path))
    assert code == 2, (out, err)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], err
