"""The Campaign Game's tables (T31-T36, §37 money, P3) as data, and T37 read from the Advanced
Game's chart rather than copied."""

from __future__ import annotations

from importlib import resources

import pytest

from gladiator.campaign.tables import campaign_tables, chart, d66_index, parse_campaign_tables

D66 = [r * 10 + w for r in range(1, 7) for w in range(1, 7)]


def _text() -> str:
    path = resources.files("gladiator.campaign").joinpath("data/campaign.toml")
    return path.read_text(encoding="utf-8")


def test_t31_covers_all_36_d66_results_once() -> None:
    rows = campaign_tables().t31.rows
    hits = [sum(1 for r in rows if r.holds(v)) for v in D66]
    assert hits == [1] * 36
    t31 = campaign_tables().t31
    assert t31.row(32).type == "matched_pair" and t31.row(33).type == "two_on_one"
    assert t31.row(36).type == "consecutive" and t31.row(36).death == 3
    assert t31.row(53).type == "battle" and not t31.row(53).pairing
    assert t31.row(54).type == "venatores" and t31.row(54).death is None
    assert t31.row(61).type == "venatores" and t31.row(62).type == "bestiarii"
    assert t31.row(66).type == "unique" and t31.row(66).death == 5


def test_t32_covers_all_36_d66_results_once_and_v_meets_only_iv() -> None:
    rows = campaign_tables().t32.rows
    assert [sum(1 for r in rows if r.holds(v)) for v in D66] == [1] * 36
    assert {r.gladiator for r in rows if r.challenger == "V"} == {"IV"}
    assert {r.challenger for r in rows if r.gladiator == "V"} == {"IV", "any"}
    t32 = campaign_tables().t32
    assert (t32.row(14).gladiator, t32.row(14).challenger) == ("I", "I")
    assert (t32.row(15).gladiator, t32.row(15).challenger) == ("I", "II")
    assert (t32.row(65).gladiator, t32.row(65).challenger) == ("V", "IV")


def test_t36_reaches_71_to_76_only_past_the_d66() -> None:
    t36 = campaign_tables().t36
    assert [t36.row(v).code for v in (11, 36, 41, 52, 56, 63, 64, 66)] == [
        "",
        "",
        "WS",
        "FA",
        "HG",
        "SR",
        "SD",
        "SD",
    ]
    assert [t36.row(70 + w).code for w in range(1, 7)] == ["SU", "BR", "TG", "SP", "FW", "MS"]


def test_t34_origins_by_the_row_reading() -> None:
    t34 = campaign_tables().t34
    assert [t34.row(v).origin for v in (2, 5, 6, 7, 8, 9, 10, 11, 12)] == [
        "criminal",
        "criminal",
        "slave",
        "slave",
        "soldier",
        "foreigner",
        "freeman",
        "freeman",
        "senator",
    ]
    slave = t34.origin("slave")
    assert (slave.tr, slave.st, slave.ag, slave.cn, slave.w, slave.pr) == (1, 2, -1, 0, -1, -1)


def test_t35_costs_and_allowances() -> None:
    t35 = campaign_tables().t35
    assert t35.cost("A", 2) == 85 and t35.cost("B", 6) == 285 and t35.cost("C", 4) == 105
    assert t35.allowance == {"light": 400, "medium": 850, "heavy": 1100}
    assert set(t35.styles) == {"myrmillo", "secutor", "gallus"}


def test_t37_is_the_advanced_chart() -> None:
    styles = chart()
    assert styles["retiarius"].category == "IV" and styles["retiarius"].cost == 300
    assert styles["contra_retiarius"].category == "V"
    assert styles["crupellarius"].cost == 500
    assert "venator" not in styles  # a beast fighter is not on the chart


def test_d66_index_refuses_a_non_d66_value() -> None:
    assert d66_index(11) == 0 and d66_index(66) == 35 and d66_index(76) == 41
    with pytest.raises(ValueError):
        d66_index(17)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("{ lo = 33, hi = 34, type", "{ lo = 34, hi = 34, type", "T31: row 34-34 leaves a gap"),
        ("lo = 15, hi = 23", "lo = 15, hi = 24", "T32"),
        ('ws_weapons = ["spear"', 'ws_weapons = ["lance"', "not T19 weapons"),
        ('beasts = ["bear"', 'beasts = ["dragon"', "T21 does not have"),
        ("A = [85, 140", "A = [185, 140", "must rise"),
    ],
)
def test_a_broken_table_is_refused_in_one_line(old: str, new: str, message: str) -> None:
    text = _text()
    assert old in text
    with pytest.raises(ValueError, match=message) as err:
        parse_campaign_tables(text.replace(old, new, 1))
    assert "\n" not in str(err.value)
