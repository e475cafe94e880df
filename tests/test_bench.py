"""The benchmark and the batch runner: the shape of `make bench`'s JSON, the dice it counts, and
batches whose results do not depend on how they are run. No timings are asserted (principle 10):
only what can be wrong whatever the machine's speed."""

from __future__ import annotations

import gc
import json
import random
from typing import Any

import pytest
from typer.testing import CliRunner

from gladiator.bots import make_bot
from gladiator.cli.main import app
from gladiator.core.dice import Dice, Roll
from gladiator.core.match import Match
from gladiator.registry import get
from gladiator.sim.bench import PATHS, SCHEMA_VERSION, run_bench
from gladiator.sim.dicefloor import plan_of, throw, time_floor
from gladiator.sim.gctune import GEN0, tuned_gc
from gladiator.sim.runner import _chunks, derive_seed, play_match, run_batch

RUN_KEYS = {
    "bot",
    "path",
    "matches",
    "decisions",
    "dice_thrown",
    "rolls_logged",
    "seconds",
    "cpu_seconds",
    "bot_seconds",
    "engine_seconds",
    "gc_seconds",
    "gc_collections",
    "matches_per_second_per_core",
    "decisions_per_second",
    "engine_us_per_die",
    "total_us_per_die",
    "dice_floor_us_per_die",
    "engine_over_dice_floor",
    "peak_match_kib",
}


@pytest.fixture(scope="module")
def quick_bench() -> dict[str, Any]:
    return run_bench("quick", 3, bots=("random",), floor_window=0.01, memory_matches=1)


def test_bench_json_has_schema_2_machine_and_both_paths(quick_bench: dict[str, Any]) -> None:
    """Schema version 2; machine details kept; one run per bot and path, labelled."""
    r = json.loads(json.dumps(quick_bench))  # plain JSON throughout
    assert r["schema"] == "gladiator.bench" and r["schema_version"] == SCHEMA_VERSION == 2
    for key in ("python", "processor", "cpus", "cpus_usable", "implementation"):
        assert key in r["machine"]
    assert set(r["load_average"]) == {"before", "after"}
    assert set(r["paths"]) == set(PATHS) == {"unchecked", "checked"}
    assert r["gc"]["tuned"] is True and r["gc"]["threshold"][0] == GEN0
    assert "tracemalloc" in r["memory"]["method"]
    assert [(x["bot"], x["path"]) for x in r["runs"]] == [
        ("random", "unchecked"),
        ("random", "checked"),
    ]
    for run in r["runs"]:
        assert set(run) == RUN_KEYS
        assert run["matches"] == 3
        assert run["seconds"] > 0 and run["engine_us_per_die"] > 0
        assert run["peak_match_kib"] > 0
    assert r["dice_floor"]["by_bot"]["random"]["us_per_die"] > 0
    assert "checked_over_unchecked_seconds" in r["summary"]["random"]


def test_both_paths_play_the_same_matches_and_dice(quick_bench: dict[str, Any]) -> None:
    """The unchecked and checked runs are the same seeded matches: same decisions, same dice."""
    u, c = quick_bench["runs"]
    for key in ("decisions", "dice_thrown", "rolls_logged"):
        assert u[key] == c[key] > 0
    # Every roll throws at least one die, some throw several.
    assert u["dice_thrown"] >= u["rolls_logged"]


def _rolls_of(ruleset_name: str, seed: int, bot_name: str) -> list[Roll]:
    """The dice log of the bench's match with this seed, played again through `Match`."""
    rs = get(ruleset_name)
    m = Match(rs, {}, seed=seed, nonce="")
    bot, rng = make_bot(bot_name), random.Random(derive_seed(seed, "bots"))
    while not m.finished:
        m.apply_step({s: bot.choose(rs, m.state, s, d, rng) for s, d in m.pending().items()})
    return m.rolls


def test_bench_counts_each_die_the_matches_threw() -> None:
    """`dice_thrown` is the number of faces in the matches' logs (a 5D6 wound roll is five),
    `rolls_logged` the number of log entries."""
    r = run_bench("colosseum", 2, bots=("random",), floor_window=0.01, memory_matches=1)
    logs = [_rolls_of("colosseum", derive_seed(1, i), "random") for i in range(2)]
    faces = sum(len(roll.faces) for log in logs for roll in log)
    run = r["runs"][0]
    assert run["dice_thrown"] == faces
    assert run["rolls_logged"] == sum(map(len, logs))
    assert faces > run["rolls_logged"]  # the Colosseum throws 3D6 and coloured 5D6


def test_dice_floor_rethrows_every_die_of_each_match() -> None:
    """A plan made from a log throws as many dice as the log holds, 5D6 as five, D66 as two."""
    dice = Dice(3)
    dice.d(6, "a", "§t")
    dice.roll("5D6", "b", "§t")
    dice.roll("D66", "c", "§t")
    dice.roll("2D3-1", "d", "§t")
    dice.pair("e", "§t")
    dice.coloured(["white", "white", "white", "black", "red"], "wound", "§10.1")
    plan = plan_of([(3, dice.log), (4, dice.log)])
    assert len(plan) == 2
    assert plan.dice == 2 * (1 + 5 + 2 + 2 + 2 + 5) == 2 * dice.thrown
    assert throw(plan) == plan.dice
    timing = time_floor(plan, window=0.01, min_pass=0.001)
    assert timing.us_per_die > 0 and timing.passes >= 3
    assert gc.isenabled()


def test_dice_floor_of_nothing_is_zero() -> None:
    assert time_floor(plan_of([])).us_per_die == 0.0


def test_tuned_gc_restores_the_collector() -> None:
    before = gc.get_threshold()
    with tuned_gc() as settings:
        assert gc.get_threshold()[0] == GEN0 == settings["threshold"][0]
        assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
    with tuned_gc(enabled=False) as settings:
        assert settings["threshold"] == list(before)


def test_bench_with_the_default_collector_says_so() -> None:
    r = run_bench("quick", 1, bots=("random",), tune_gc=False, floor_window=0.01, memory_matches=1)
    assert r["gc"]["tuned"] is False
    assert r["gc"]["threshold"] == list(gc.get_threshold())


def test_bench_refuses_an_unknown_path() -> None:
    with pytest.raises(ValueError, match="unknown path"):
        run_bench("quick", 1, paths=("fast",))


@pytest.mark.parametrize(("matches", "jobs"), [(1, 1), (7, 2), (100, 2), (1000, 2), (5000, 4)])
def test_chunks_cover_every_match_once_and_shrink(matches: int, jobs: int) -> None:
    """Every match in exactly one chunk, in order; chunks never grow, and the last is one
    match, so that no worker waits long for another at the end."""
    sizes = [len(c) for c in _chunks(matches, jobs)]
    assert [i for c in _chunks(matches, jobs) for i in c] == list(range(matches))
    assert sizes == sorted(sizes, reverse=True)
    assert max(sizes) <= 20 and sizes[-1] == 1


@pytest.mark.parametrize(
    ("ruleset", "bots", "n"),
    [
        ("quick", ["random"], 8),
        ("quick", ["greedy"], 3),
        ("skirmish", ["random"], 8),
        ("colosseum", ["tactician"], 3),
        ("colosseum", ["random", "tactician"], 3),
    ],
)
def test_unchecked_quiet_play_gives_the_checked_summary(
    ruleset: str, bots: list[str], n: int
) -> None:
    """A batch plays `apply(quiet=True)` unchecked; each match ends exactly as through `Match`:
    same winners, method, decisions, rounds and rolls."""
    for i in range(n):
        seed = derive_seed(11, i)
        assert play_match(ruleset, {}, seed, bots, index=i) == play_match(
            ruleset, {}, seed, bots, index=i, checked=True
        )


def test_colosseum_batch_is_identical_with_one_or_two_jobs() -> None:
    """Whole summaries, not just winners: every field of every match, in order."""
    one = run_batch("colosseum", {}, 5, 4, ["tactician"], jobs=1)
    two = run_batch("colosseum", {}, 5, 4, ["tactician"], jobs=2)
    assert one == two
    assert [s.index for s in two] == list(range(5))


def test_sim_cli_colosseum_json_is_identical_with_one_or_two_jobs() -> None:
    runner = CliRunner()
    args = ["sim", "colosseum", "--matches", "6", "--seed", "3", "--json"]
    one = runner.invoke(app, args)
    two = runner.invoke(app, [*args, "--jobs", "2"])
    assert one.exit_code == two.exit_code == 0, one.output + two.output
    assert json.loads(one.stdout) == json.loads(two.stdout)
    assert json.loads(one.stdout)["matches"] == 6
