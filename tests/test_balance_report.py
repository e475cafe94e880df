"""The balance report's numbers (sim.balance_report) against counts taken independently from the
match summaries, the facets each ruleset gives (read at the start of the match), and the
report's files: the same bytes from Parquet as from memory, self-contained HTML, a real PDF."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gladiator.bots import make_bot
from gladiator.core.dice import Dice
from gladiator.registry import get
from gladiator.sim.balance_report import MIN_CELL, BatchInfo, build_report, data_digest
from gladiator.sim.report import wilson
from gladiator.sim.report_files import report_json, write_report
from gladiator.sim.results_table import BatchMeta, read_results, to_table
from gladiator.sim.runner import MatchSummary, derive_seed, play_match, run_batch

SEED = 5
N = 50


@pytest.fixture(scope="module")
def batch() -> list[MatchSummary]:
    return run_batch("quick", {}, N, SEED, ["greedy"])


def _info(matches: int = N) -> BatchInfo:
    return BatchInfo("quick", {}, ["greedy"], SEED, matches, "1")


@pytest.fixture(scope="module")
def report(batch: list[MatchSummary]) -> dict[str, Any]:
    return build_report(batch, _info())


def _classes(s: MatchSummary) -> list[str]:
    return [s.facets[seat]["class"] for seat in s.labels]


def _cell(report: dict[str, Any], row: str, col: str, facet: str = "class") -> dict[str, Any]:
    f = next(f for f in report["facets"] if f["name"] == facet)
    return next(c for c in f["matchups"]["cells"] if c["row"] == row and c["col"] == col)


def test_heatmap_cell_is_the_rows_wins_counted_from_the_summaries(
    batch: list[MatchSummary], report: dict[str, Any]
) -> None:
    checked = 0
    for row, col in (("heavy", "light"), ("light", "heavy"), ("medium", "retiarius")):
        n = wins = draws = 0
        for s in batch:
            classes = _classes(s)
            if sorted(classes) != sorted([row, col]):
                continue
            n += 1
            seat = list(s.labels)[classes.index(row)]
            wins += seat in s.winners
            draws += not s.winners
        c = _cell(report, row, col)
        assert (c["matches"], c["wins"], c["draws"]) == (n, wins, draws)
        assert c["win_rate"] == round(wins / n, 6)
        assert c["ci95"] == [round(x, 6) for x in wilson(wins, n)]  # the Wilson 95% interval
        assert c["sparse"] == (n < MIN_CELL)
        checked += n
    assert checked > 10  # the batch does hold these matchups


def test_a_pair_of_cells_and_its_draws_make_one(report: dict[str, Any]) -> None:
    a, b = _cell(report, "heavy", "medium"), _cell(report, "medium", "heavy")
    assert a["matches"] == b["matches"] > 0
    assert a["wins"] + b["wins"] + a["draws"] == a["matches"]


def test_mirror_matches_sit_once_on_the_diagonal_and_out_of_the_win_rate(
    batch: list[MatchSummary], report: dict[str, Any]
) -> None:
    mirrors = [s for s in batch if len(set(_classes(s))) == 1]
    assert mirrors  # 50 matches of 4 classes hold some
    by_class = {c: sum(1 for s in mirrors if _classes(s)[0] == c) for c in ("heavy", "light")}
    for cls, k in by_class.items():
        diag = _cell(report, cls, cls)
        assert diag["mirror"] and diag["matches"] == k and diag["win_rate"] is None
        row = next(r for r in report["facets"][0]["overall"] if r["value"] == cls)
        others = [s for s in batch if cls in _classes(s) and len(set(_classes(s))) == 2]
        wins = sum(1 for s in others if list(s.labels)[_classes(s).index(cls)] in s.winners)
        assert (row["matches"], row["wins"], row["mirror_matches"]) == (len(others), wins, k)
        assert row["ci95"] == [round(x, 6) for x in wilson(wins, len(others))]


def test_first_seat_endings_and_lengths_count_every_match(
    batch: list[MatchSummary], report: dict[str, Any]
) -> None:
    first = report["seats"][0]
    wins = sum(1 for s in batch if next(iter(s.labels)) in s.winners)
    decisive = sum(1 for s in batch if s.winners)
    assert (first["matches"], first["wins"], first["decisive_matches"]) == (N, wins, decisive)
    assert first["decisive_ci95"] == [round(x, 6) for x in wilson(wins, decisive)]
    assert sum(e["matches"] for e in report["endings"]) == N
    assert report["endings"][0]["matches"] == max(
        sum(1 for s in batch if s.method == e["method"]) for e in report["endings"]
    )
    assert sum(c for _, _, c in report["lengths"]["rounds_histogram"]) == N
    assert sum(c for _, _, c in report["lengths"]["decisions_histogram"]) == N
    mean = sum(s.rounds for s in batch) / N
    assert report["lengths"]["rounds"]["mean"] == round(mean, 6)
    assert report["draws"]["matches"] == sum(1 for s in batch if not s.winners)


def test_summaries_without_facets_fall_back_to_the_label(batch: list[MatchSummary]) -> None:
    bare = [MatchSummary(**{**s.__dict__, "facets": {}}) for s in batch]
    rep = build_report(bare, _info())
    assert rep["facet_names"] == ["label"]
    assert rep["facets"][0]["overall"] == build_report(batch, _info())["facets"][0]["overall"]


def test_report_from_parquet_is_the_report_from_memory(
    batch: list[MatchSummary], report: dict[str, Any], tmp_path: Path
) -> None:
    meta = BatchMeta("quick", {}, ["greedy"], SEED, N)
    path = tmp_path / "b.parquet"
    pq.write_table(to_table(batch, meta), path)
    back_meta, back = read_results(path)
    assert back_meta is not None
    info = BatchInfo(back_meta.ruleset, back_meta.options, back_meta.bots, back_meta.seed, N, "1")
    again = build_report(back, info)
    assert report_json(again) == report_json(report)
    assert again["batch"]["data_digest"] == data_digest(batch)
    one = write_report(report, tmp_path / "mem", generated="T", pdf=False)
    two = write_report(again, tmp_path / "file", generated="T", pdf=False)
    assert [p.read_bytes() for p in one] == [p.read_bytes() for p in two]


def test_html_is_self_contained_and_pdf_is_a_pdf(report: dict[str, Any], tmp_path: Path) -> None:
    paths = write_report(report, tmp_path, generated="2000-01-01T00:00:00Z")
    assert [p.name for p in paths] == ["report.json", "report.html", "report.pdf"]
    html = (tmp_path / "report.html").read_text()
    for external in ("http://", "https://", "//", "<script", "<link", "<img", "src=", "@import"):
        assert external not in html
    # What is referred to at all is inside the page: clip paths and markers by their #id, the
    # colour bar as an image in a data: URL.
    assert set(re.findall(r"url\((.)", html)) == {"#"}
    assert set(re.findall(r'href="(#|data:image/png;base64,|.)', html)) == {
        "#",
        "data:image/png;base64,",
    }
    assert html.count("<svg") == 7  # seats, lengths, endings; by class: heatmap, rate, length, end
    assert html.count("2000-01-01T00:00:00Z") == 1  # the timestamp, in one place
    assert "0.5" in html and "Wilson" in html
    assert (tmp_path / "report.pdf").read_bytes().startswith(b"%PDF")


def test_the_same_batch_gives_the_same_bytes_but_for_the_timestamp(
    report: dict[str, Any], tmp_path: Path
) -> None:
    a = write_report(report, tmp_path / "a", generated="T1", pdf=False)
    b = write_report(report, tmp_path / "b", generated="T2", pdf=False)
    assert a[0].read_bytes() == b[0].read_bytes()
    assert a[1].read_text().replace("T1", "T2") == b[1].read_text()


def test_colosseum_facets_basic_class_advanced_style_and_weapons_in_hand_s19() -> None:
    rs = get("colosseum")
    basic = rs.normalise_options({"gladiators": ["light", "heavy"]})
    state, _ = rs.initial_state(basic, Dice(1))
    assert rs.seat_facets(state, "red") == {"class": "light"}
    adv = rs.normalise_options({"advanced": True, "styles": ["retiarius", "dimachaeri"]})
    state, _ = rs.initial_state(adv, Dice(1))
    assert rs.seat_facets(state, "red") == {
        "class": "medium",
        "style": "Retiarius",
        "weapon": "trident+net",  # §20: the net in hand counts with his weapon
    }
    assert rs.seat_facets(state, "blue")["weapon"].count("+") == 1  # §24: a pair of weapons


def test_a_beast_is_beast_name_in_every_facet_s28() -> None:
    rs = get("colosseum")
    opts = rs.normalise_options({"advanced": True, "beasts": "blue:lion"})
    state, _ = rs.initial_state(opts, Dice(2))
    assert set(rs.seat_facets(state, "blue").values()) == {"beast/Lion"}


def test_facets_are_the_loadout_at_the_start_not_at_the_end() -> None:
    # Seed 0 with the greedy bot: both men end the match unarmed (§13), having come in armed.
    rs = get("colosseum")
    opts = rs.normalise_options({"advanced": True})
    dice = Dice(0)
    state, _ = rs.initial_state(opts, dice)
    start = {s: rs.seat_facets(state, s) for s in rs.seats(opts)}
    bot, rng = make_bot("greedy"), random.Random(derive_seed(0, "bots"))
    while rs.outcome(state) is None:
        orders = {s: bot.choose(rs, state, s, d, rng) for s, d in rs.pending(state).items()}
        rs.apply(state, orders, dice, quiet=True)
    end = {s: rs.seat_facets(state, s) for s in rs.seats(opts)}
    assert end != start
    for checked in (False, True):
        s = play_match("colosseum", {"advanced": True}, 0, ["greedy"], checked=checked)
        assert s.facets == start


def test_quick_and_skirmish_facets() -> None:
    assert play_match("quick", {"gladiators": ["heavy", "light"]}, 1, ["greedy"]).facets == {
        "red": {"class": "heavy"},
        "blue": {"class": "light"},
    }
    rs = get("skirmish")
    state, _ = rs.initial_state(rs.normalise_options({}), Dice(1))
    assert rs.seat_facets(state, "red") == {"sheet": "thracian"}


_classes_st = st.sampled_from(["a", "b", "c"])


@given(
    st.lists(
        st.tuples(_classes_st, _classes_st, st.sampled_from([(), ("x",), ("y",)])),
        min_size=1,
        max_size=40,
    )
)
def test_every_duel_lands_in_two_cells_or_one_mirror(rows: list[Any]) -> None:
    results = [
        MatchSummary(
            index=i,
            seed=i,
            winners=w,
            method="m" if w else "time",
            labels={"x": a, "y": b},
            steps=1,
            rounds=1,
            dice=0,
            facets={"x": {"k": a}, "y": {"k": b}},
        )
        for i, (a, b, w) in enumerate(rows)
    ]
    rep = build_report(results, BatchInfo("quick", {}, [], None, len(rows)))
    cells = rep["facets"][0]["matchups"]["cells"]
    mirrors = sum(1 for a, b, _ in rows if a == b)
    assert sum(c["matches"] for c in cells) == mirrors + 2 * (len(rows) - mirrors)
    by = {(c["row"], c["col"]): c for c in cells}
    for (r, col), c in by.items():
        if r != col and c["matches"]:
            other = by[(col, r)]
            assert c["wins"] + other["wins"] + c["draws"] == c["matches"]
