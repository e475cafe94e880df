"""The rules-coverage report reads citations from the sources themselves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gladiator.cli.main import app
from gladiator.coverage import (
    CoverageError,
    SectionCoverage,
    coverage,
    has_sections,
    parse_packages,
    parse_sections,
    part_line,
    part_totals,
    sections_parts,
    totals,
)

TESTS = Path(__file__).parent


def test_colosseum_lists_every_section_from_2_to_37() -> None:
    rows = coverage("colosseum", TESTS)
    numbers = [r.number for r in rows]
    assert numbers[0] == "2" and numbers[-1] == "37.7"
    assert {"9.5", "9.4.6", "10.3.1", "17.2", "5.4.1", "19.4.4", "29.6.2.2"} <= set(numbers)
    assert len(numbers) == len(set(numbers))


def test_a_section_is_covered_by_the_module_that_cites_it() -> None:
    """§9.5 (attack resolution) is implemented in combat/reading.py, a file of a sub-package,
    and tested in its test file."""
    row = next(r for r in coverage("colosseum", TESTS) if r.number == "9.5")
    assert "combat/reading.py" in row.code
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
    rows = [r for r in coverage("colosseum", TESTS) if r.part == "basic"]
    numbers = [r.number for r in rows]
    assert len(numbers) == 201
    start = numbers.index("5.2")
    assert numbers[start : start + len(REFERENCE_ORDER_SAMPLE)] == REFERENCE_ORDER_SAMPLE
    assert numbers.index("15.6 (2nd)") == numbers.index("15.6") + 1
    kinds = {r.number: r.kind for r in rows}
    assert kinds["9"] == kinds["5.2.6"] == "heading"
    assert kinds["18.1"] == kinds["2.4"] == "narrative"
    assert kinds["3.7"] == kinds["3.8"] == "rule"  # the Campaign Game's, played now
    assert kinds["9.5"] == kinds["15.6 (2nd)"] == "rule"
    # The net (§20) is in: the Basic-numbered sections of the log sheet and the phase are rules.
    assert kinds["3.15"] == kinds["5.2.5.1"] == kinds["9.3.2.2"] == "rule"
    # The Advanced Game's walls are in: their Basic-numbered sections are rules now.
    assert kinds["2.3.2"] == kinds["4.4"] == kinds["7.7.1"] == "rule"
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
        r"^Basic Game §2-§18: 201 sections: 172 rules, 29 narrative; "
        r"code 172/172, tests 172/172; complete$",
        result.stdout,
        re.M,
    )
    assert re.search(
        r"^Advanced Game §19-§29: 167 sections: 150 rules, 17 narrative; "
        r"code \d+/150, tests \d+/150; (complete|uncovered rules in §\d+(, §\d+)*)$",
        result.stdout,
        re.M,
    )
    assert t.line() in result.stdout
    text = page.read_text(encoding="utf-8")
    assert text.startswith("# Rules coverage: colosseum\n")
    assert f"**{t.line()}**" in text
    assert "* Basic Game §2-§18: 201 sections" in text
    assert "| 9.5 | Attack resolution: modified CF = attack - defence | rule | " in text
    assert "`combat/reading.py`" in text
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
    """Every rule section of §2–§18 (not headings, narrative or deferred text) is cited by the
    code that implements it and by a test that checks it."""
    missing = [r.number for r in coverage("colosseum", TESTS) if r.part == "basic" and r.missing]
    assert missing == []


def test_every_rule_of_the_advanced_game_is_cited_by_code_and_by_tests() -> None:
    """§19-§29: every rule is cited by a module (a table alone is not an implementation) and by
    a test."""
    rows = [r for r in coverage("colosseum", TESTS) if r.part == "advanced"]
    assert [r.number for r in rows if r.missing] == []


# --- the Advanced Game's sections ------------------------------------------------------------

# §19-§29 as the reference numbers them (checked against the rulebook: it skips 19.3.3, 19.4.2,
# 20.3, 20.5.2 and 23.2.2, and uses 20.5.5 and 20.5.5.1 twice).
_ADVANCED_TEXT = """
19, 19.1, 19.2, 19.2.1, 19.2.2, 19.2.3, 19.3, 19.3.1, 19.3.2, 19.3.4, 19.4, 19.4.1, 19.4.3,
19.4.4, 19.5, 20, 20.1, 20.2, 20.3.1, 20.3.2, 20.3.3, 20.4, 20.4.1, 20.5, 20.5.1, 20.5.1.1,
20.5.3, 20.5.4, 20.5.4.1, 20.5.5, 20.5.5.1, 20.5.5 (2nd), 20.5.5.1 (2nd), 20.5.6, 20.6, 20.6.1,
20.6.2, 20.6.3, 20.6.4, 20.7, 20.7.1, 20.7.2, 20.7.3, 20.8, 20.8.1, 20.8.2, 20.8.3, 20.9,
20.9.1, 20.9.2, 20.9.3, 20.9.3.1, 20.9.3.2, 21, 21.1, 21.1.1, 21.2, 21.3, 21.3.1, 21.4, 21.5,
21.5.1, 21.6, 21.6.1, 21.6.1.1, 21.6.1.2, 21.7, 21.8, 21.8.1, 21.8.2, 21.8.3, 21.9, 21.9.1,
21.9.2, 21.10, 21.10.1, 22, 22.1, 22.2, 22.3, 23, 23.1, 23.2, 23.2.1, 23.2.3, 23.3, 23.3.1,
23.3.2, 24, 24.1, 24.2, 24.2.1, 24.2.2, 24.3, 24.4, 25, 25.1, 25.2, 25.2.1, 25.2.2, 25.3,
25.3.1, 25.4, 26, 26.1, 26.2, 26.3, 27, 27.1, 27.2, 27.3, 27.3.1, 27.4, 27.5, 27.6, 27.7,
27.7.1, 27.7.2, 28, 28.1, 28.2, 28.2.1, 28.3, 28.4, 28.4.1, 28.4.2, 28.5, 28.5.1, 28.6, 28.6.1,
28.6.1.1, 28.6.1.2, 28.6.1.3, 28.6.2, 28.6.3, 29, 29.1, 29.2, 29.2.1, 29.3, 29.3.1, 29.3.1.1,
29.3.1.2, 29.3.1.3, 29.3.2, 29.3.2.1, 29.3.2.2, 29.3.2.3, 29.3.2.4, 29.3.2.5, 29.3.3, 29.3.3.1,
29.3.3.2, 29.3.3.3, 29.3.3.4, 29.4, 29.5, 29.5.1, 29.5.1.1, 29.5.1.2, 29.5.2, 29.6, 29.6.1,
29.6.1.1, 29.6.2, 29.6.2.1, 29.6.2.2
"""
ADVANCED = [n.strip() for n in _ADVANCED_TEXT.split(",")]


def test_the_advanced_game_lists_every_section_of_19_to_29_in_order() -> None:
    rows = [r for r in coverage("colosseum", TESTS) if r.part == "advanced"]
    assert [r.number for r in rows] == ADVANCED
    assert len(ADVANCED) == 167
    kinds = {r.number: r.kind for r in rows}
    headings = {*(str(c) for c in range(19, 30)), "29.3.3"}
    assert {n for n, k in kinds.items() if k == "heading"} == headings
    narrative = {"21.1", "25.1", "26.1", "27.7", "28.1"}
    assert {n for n, k in kinds.items() if k == "narrative"} == narrative
    assert {n for n, k in kinds.items() if k == "deferred"} == set()
    assert all(r.note for r in rows if not r.is_rule)
    no_talking = next(r for r in rows if r.number == "27.6")
    assert no_talking.is_rule and "private" in no_talking.note


# Parents the rulebook never wrote: it goes from 15.1 to 15.2.1, and from 20.2 to 20.3.1.
UNWRITTEN = {"15.2", "20.3"}


def _parents(number: str) -> list[str]:
    """Where the section may hang: a second use hangs under the second use of its parent if
    there is one (20.5.5.1 (2nd) under 20.5.5 (2nd)), else under the parent (15.6 (2nd) under
    15)."""
    base = number.removesuffix(" (2nd)")
    parent = base.rsplit(".", 1)[0]
    return [parent + " (2nd)", parent] if base != number else [parent]


def test_every_section_s_parent_is_listed_before_it() -> None:
    rows = coverage("colosseum", TESTS)
    seen: set[str] = set()
    for r in rows:
        parents = _parents(r.number)
        if "." in r.number and parents[-1] not in UNWRITTEN:
            assert any(p in seen for p in parents), r.number
        seen.add(r.number)
    numbers = [r.number for r in rows]
    second = numbers.index("20.5.5 (2nd)")
    assert numbers[second - 2 : second + 2] == [
        "20.5.5",
        "20.5.5.1",
        "20.5.5 (2nd)",
        "20.5.5.1 (2nd)",
    ]


def test_the_parts_split_the_sections_by_chapter() -> None:
    rows = coverage("colosseum", TESTS)
    assert {r.part for r in rows if r.chapter <= 18} == {"basic"}
    assert {r.part for r in rows if 19 <= r.chapter <= 29} == {"advanced"}
    assert {r.part for r in rows if r.chapter >= 30} == {"campaign"}
    parts = sections_parts("colosseum")
    assert [(p.name, p.first, p.last) for p in parts] == [
        ("basic", 2, 18),
        ("advanced", 19, 29),
        ("campaign", 30, 37),
    ]
    lines = [part_line(*pt) for pt in part_totals(parts, rows)]
    assert lines[0].startswith("Basic Game §2-§18: 201 sections") and lines[0].endswith("complete")


def test_a_table_alone_does_not_implement_a_rule() -> None:
    """The net tables were loaded before the net engine was written: a table citing a rule is
    listed with its code, but only a module's citation counts."""
    table_only = SectionCoverage("20.5.3", "Toss", code=["data/nets.toml"], tests=["test_x.py"])
    assert not table_only.coded and table_only.missing
    both = SectionCoverage("9.4.2", "Sequence", code=["attacks.py", "data/attack_sequence.toml"])
    assert both.coded
    assert not SectionCoverage("2", "Components", kind="heading", note="n").missing


def test_the_bots_that_play_the_ruleset_are_its_code() -> None:
    """The §29 centurion is a bot: its modules count as code, the other rulesets' bots do not."""
    rows = {r.number: r for r in coverage("colosseum", TESTS)}
    assert "bots/centurion_movement.py" in rows["29.3.1.1"].code
    assert not any(c.startswith("bots/") and "quick" in c for r in rows.values() for c in r.code)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("schema_version = 3\n", "schema_version 3"),
        ('[[parts]]\nname = "basic"\n', "part 1 needs a name, a title, a first and a last"),
        (
            '[[parts]]\nname = "a"\ntitle = "A"\nfirst = 2\nlast = 18\n'
            '[[parts]]\nname = "b"\ntitle = "B"\nfirst = 18\nlast = 29\n',
            "part b overlaps",
        ),
        (
            '[[parts]]\nname = "a"\ntitle = "A"\nfirst = 2\nlast = 18\n'
            '[[sections]]\nnumber = "30.1"\ntitle = "Matches"\n',
            "30.1 is in none of the parts",
        ),
        ('[[sections]]\nnumber = "§9"\ntitle = "Combat"\n', "not a number"),
    ],
)
def test_a_bad_parts_list_is_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(CoverageError, match=message) as err:
        parse_sections(text)
    assert "\n" not in str(err.value)


# --- the Campaign Game's sections (a package of its own) -------------------------------------


def test_the_campaign_package_and_its_tests_count_for_30_to_37() -> None:
    rows = {r.number: r for r in coverage("colosseum", TESTS)}
    assert "campaign/experience.py" in rows["31.2.1"].code
    assert "test_campaign_rules.py" in rows["31.2.1"].tests
    assert "campaign/data/campaign.toml" in rows["30.2.1"].code
    # A campaign data table is a table, not an implementation.
    table_only = SectionCoverage("30.2.1", "T31", code=["campaign/data/campaign.toml"])
    assert not table_only.coded


def test_every_campaign_rule_but_the_engines_is_cited_by_code_and_by_tests() -> None:
    """§30-§37: the campaign package's rules are all cited; §35.4.2 (the PB's use in combat) is
    the engine's, cited there once its campaign entrants are in."""
    rows = [r for r in coverage("colosseum", TESTS) if r.part == "campaign"]
    assert len(rows) == 61
    assert {r.number for r in rows if r.missing} <= {"35.4.2"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[[packages]]\nname = "os"\ntests = "test_x"\n', "needs a name such as"),
        ('[[packages]]\nname = "gladiator.campaign"\n', "needs a tests prefix"),
    ],
)
def test_a_bad_packages_list_is_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(CoverageError, match=message):
        parse_packages(text)
