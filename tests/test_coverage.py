"""The rules-coverage report reads citations from the sources themselves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gladiator.cli.main import app
from gladiator.coverage import CoverageError, coverage, has_sections, parse_sections, totals

TESTS = Path(__file__).parent


def test_colosseum_lists_every_basic_game_section_from_2_to_18() -> None:
    rows = coverage("colosseum", TESTS)
    numbers = [r.number for r in rows]
    assert numbers[0] == "2" and numbers[-1].startswith("18")
    assert {"9.5", "9.4.6", "10.3.1", "17.2", "5.4.1"} <= set(numbers)
    assert len(numbers) == len(set(numbers))


def test_a_section_is_covered_by_the_module_that_cites_it() -> None:
    """§9.5 (attack resolution) is implemented in attacks.py and tested in its test file."""
    row = next(r for r in coverage("colosseum", TESTS) if r.number == "9.5")
    assert "attacks.py" in row.code
    assert "test_colosseum_attacks.py" in row.tests


def test_a_subsection_citation_covers_its_parent_but_not_the_reverse(tmp_path: Path) -> None:
    (tmp_path / "test_colosseum_fake.py").write_text("# §10.3.1.1 only\n")
    rows = {r.number: r for r in coverage("colosseum", tmp_path)}
    assert rows["10.3.1"].tests == ["test_colosseum_fake.py"]
    assert rows["10.3"].tests == ["test_colosseum_fake.py"]
    assert rows["10.3.2"].tests == []


def test_only_rulesets_with_a_sections_list_have_a_report() -> None:
    assert has_sections("colosseum")
    assert not has_sections("nope")
    result = CliRunner().invoke(app, ["rules", "coverage", "nope"])
    assert result.exit_code == 2
    assert result.stderr.strip().startswith("error: no sections list for 'nope'")


# --- the sections list, kinds and test names ------------------------------------------------------

REFERENCE_ORDER_SAMPLE = ["5.2", "5.2.1", "5.2.1.1", "5.2.2", "5.2.2.1", "5.2.3", "5.2.4"]


def test_every_section_of_the_reference_is_listed_once_with_its_kind() -> None:
    """§2–§18 as numbered in the reference: 201 sections, including §5.2.1–§5.2.7 and the
    second §15.6; every section that is not a rule says why."""
    rows = coverage("colosseum", TESTS)
    numbers = [r.number for r in rows]
    assert len(numbers) == 201
    start = numbers.index("5.2")
    assert numbers[start : start + len(REFERENCE_ORDER_SAMPLE)] == REFERENCE_ORDER_SAMPLE
    assert numbers.index("15.6 (2nd)") == numbers.index("15.6") + 1
    kinds = {r.number: r.kind for r in rows}
    assert kinds["9"] == kinds["5.2.6"] == "heading"
    assert kinds["18.1"] == kinds["2.4"] == "narrative"
    assert kinds["9.3.2.2"] == kinds["3.7"] == "deferred"
    assert kinds["9.5"] == kinds["15.6 (2nd)"] == "rule"
    assert all(r.note for r in rows if not r.is_rule)


def test_a_test_name_cites_its_section_but_not_the_figures_after_it(tmp_path: Path) -> None:
    (tmp_path / "test_colosseum_names.py").write_text(
        "def test_s9_4_6_x() -> None: ...\n"
        "def test_EX_10_3_3_1_negative_cf() -> None: ...\n"
        "def test_ex_9_6_fumble_penalty_2_minus_3_is_4() -> None: ...\n"
        "def test_t10_rounds() -> None: ...\n"
    )
    rows = {r.number: r for r in coverage("colosseum", tmp_path)}
    cited = {n for n, r in rows.items() if r.tests}
    assert {"9.4.6", "10.3.3.1", "10.3.3", "9.6", "9", "10"} <= cited
    assert not {"2", "3", "4", "10.3.1", "9.4.1"} & cited


def test_a_range_of_sibling_sections_cites_those_between(tmp_path: Path) -> None:
    (tmp_path / "test_colosseum_range.py").write_text("# §9.4.6-§9.4.8 and §11.5.1–§11.5.2\n")
    rows = {r.number: r for r in coverage("colosseum", tmp_path)}
    cited = {n for n, r in rows.items() if r.tests}
    assert {"9.4.6", "9.4.7", "9.4.8", "11.5.1", "11.5.2"} <= cited
    assert not {"9.4.5", "9.5", "11.4"} & cited


def test_the_second_15_6_is_cited_apart(tmp_path: Path) -> None:
    (tmp_path / "test_colosseum_second.py").write_text("# §15.6 (2nd)\n")
    rows = {r.number: r for r in coverage("colosseum", tmp_path)}
    assert rows["15.6 (2nd)"].tests and rows["15"].tests
    assert not rows["15.6"].tests


def test_data_tables_count_as_code_but_the_sections_list_does_not() -> None:
    rows = {r.number: r for r in coverage("colosseum", TESTS)}
    assert "data/attack_sequence.toml" in rows["9.4.2"].code
    assert all("data/sections.toml" not in r.code for r in rows.values())


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[[sections]]\nnumber = "9"\ntitle = "Combat"\nkind = "fluff"\n', "kind 'fluff'"),
        ('[[sections]]\nnumber = "9"\ntitle = "Combat"\nkind = "heading"\n', "note must say why"),
        (
            '[[sections]]\nnumber = "9"\ntitle = "A"\n[[sections]]\nnumber = "9"\ntitle = "B"\n',
            "twice",
        ),
        ('[[sections]]\nnumber = "9"\n', "a number and a title"),
        ("sections = [", "not valid TOML"),
        ("", "lists no sections"),
    ],
)
def test_a_bad_sections_list_is_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(CoverageError, match=message) as err:
        parse_sections(text)
    assert "\n" not in str(err.value)


# --- the command and its Markdown page ------------------------------------------------------------


def test_the_command_prints_the_totals_line_and_writes_the_markdown_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(TESTS.parent)
    page = tmp_path / "colosseum-coverage.md"
    result = CliRunner().invoke(
        app, ["rules", "coverage", "colosseum", "--missing", "--markdown", str(page)]
    )
    assert result.exit_code == 0, result.output
    t = totals(coverage("colosseum", TESTS))
    assert re.search(
        r"^201 sections: 159 rules, 42 narrative; code \d+/159, tests \d+/159$", result.stdout, re.M
    )
    assert t.line() in result.stdout
    text = page.read_text(encoding="utf-8")
    assert text.startswith("# Rules coverage: colosseum\n")
    assert f"**{t.line()}**" in text
    assert "| 9.5 | Attack resolution: modified CF = attack - defence | rule | `attacks.py`" in text
    assert "| 18.1 | Most fights were not to the death | narrative: history" in text
    assert str(tmp_path) not in text  # the page names no path of this machine
    assert "--markdown colosseum-coverage.md" in text


def test_the_command_refuses_a_missing_test_folder_in_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["rules", "coverage", "colosseum", "--tests", str(tmp_path / "nowhere")]
    )
    assert result.exit_code == 2
    assert result.stderr.startswith("error: no test folder")
    assert result.stderr.count("\n") == 1


# --- none missing ---------------------------------------------------------------------------------


def test_every_rule_of_2_to_18_is_cited_by_code_and_by_tests() -> None:
    """Every rule section of §2–§18 (not headings, narrative or Advanced-deferred text) is cited
    by the code that implements it and by a test that checks it."""
    missing = [r.number for r in coverage("colosseum", TESTS) if r.missing]
    assert missing == []
