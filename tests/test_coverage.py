"""The rules-coverage report reads citations from the sources themselves."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from gladiator.cli.main import app
from gladiator.coverage import coverage, has_sections

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
