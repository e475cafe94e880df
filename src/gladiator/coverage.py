"""Rules coverage: which code and which tests cite each section of a rule document.

A ruleset package may list its sections in `data/sections.toml`. A section counts as covered by
code when a module of the package cites it (`§9.4.6`, or a subsection of it such as `§9.4.6.1`),
and as tested when a test file does. The report is read from the sources themselves, so it can
not drift from them.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

__all__ = ["SectionCoverage", "coverage", "has_sections"]

_CITE = re.compile(r"§(\d+(?:\.\d+)*)")


@dataclass
class SectionCoverage:
    number: str
    title: str
    code: list[str] = field(default_factory=list)
    tests: list[str] = field(default_factory=list)


def has_sections(ruleset: str) -> bool:
    try:
        return (
            resources.files(f"gladiator.rules.{ruleset}").joinpath("data/sections.toml").is_file()
        )
    except ModuleNotFoundError:
        return False


def _citations(path: Path) -> set[str]:
    try:
        return set(_CITE.findall(path.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError):
        return set()


def _covers(cited: set[str], number: str) -> bool:
    return number in cited or any(c.startswith(number + ".") for c in cited)


def coverage(ruleset: str, tests_dir: Path | None = None) -> list[SectionCoverage]:
    """One row per listed section, with the package modules and test files citing it."""
    package = resources.files(f"gladiator.rules.{ruleset}")
    data = tomllib.loads(package.joinpath("data/sections.toml").read_text())
    rows = [SectionCoverage(str(s["number"]), str(s["title"])) for s in data["sections"]]
    code_dir = Path(str(package))
    sources = {p.name: _citations(p) for p in sorted(code_dir.glob("*.py"))}
    tests: dict[str, set[str]] = {}
    if tests_dir is not None and tests_dir.is_dir():
        tests = {p.name: _citations(p) for p in sorted(tests_dir.glob(f"test_{ruleset}*.py"))}
    for row in rows:
        row.code = [name for name, cited in sources.items() if _covers(cited, row.number)]
        row.tests = [name for name, cited in tests.items() if _covers(cited, row.number)]
    return rows
