"""A batch whose seat labels are "group/name" (the Colosseum Advanced Game's "light/Velite")
reports by group (class) as well as by label (style), and its matchups by group."""

from __future__ import annotations

from gladiator.sim.report import summarise
from gladiator.sim.runner import MatchSummary


def _match(i: int, red: str, blue: str, winner: str) -> MatchSummary:
    return MatchSummary(i, i, (winner,), "killed", {"red": red, "blue": blue}, 10, 2, 50)


def test_grouped_labels_add_a_table_by_group_and_group_matchups() -> None:
    results = [
        _match(0, "light/Velite", "heavy/Gallus", "red"),
        _match(1, "light/Myrmillo", "heavy/Gallus", "blue"),
        _match(2, "light/Velite", "light/Myrmillo", "red"),
    ]
    s = summarise(results)
    by_group = {r["label"]: (r["appearances"], r["wins"]) for r in s["by_group"]}
    assert by_group == {"light": (4, 2), "heavy": (2, 1)}
    by_label = {r["label"]: (r["appearances"], r["wins"]) for r in s["by_label"]}
    assert by_label["light/Velite"] == (2, 2)
    light_heavy = next(
        m for m in s["group_matchups"] if (m["label"], m["against"]) == ("light", "heavy")
    )
    assert (light_heavy["matches"], light_heavy["wins"]) == (2, 1)


def test_plain_labels_report_as_before() -> None:
    s = summarise([_match(0, "light", "heavy", "red")])
    assert "by_group" not in s and "group_matchups" not in s
    assert [r["label"] for r in s["by_label"]] == ["heavy", "light"]
