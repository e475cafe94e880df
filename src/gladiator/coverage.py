"""Rules coverage: which code and which tests cite each section of a rule document.

A ruleset package may list its sections in `data/sections.toml`. A section counts as covered by
code when a module of the package, or a bot module that imports the package, cites it (`§9.4.6`,
or a subsection of it such as `§9.4.6.1`, or a range of its siblings such as `§9.4.5-§9.4.7`),
and as tested when a test file does, in its text or in a test's name (`test_s9_4_6_...`,
`test_EX_9_4_7_...`, `test_r_17_2_...`). A data table that cites a section is listed with its
code, but a table alone does not make a rule implemented: tables are loaded before their engine
is written (the Advanced Game's net, special-attack and beast tables were), so a module must cite
the rule too. The report is read from the sources themselves, so it cannot drift from them.

The list may split its sections into parts by chapter (`[[parts]]`: the Basic Game §2-§18, the
Advanced Game §19-§29, the Campaign Game §30-§37), and the report totals each part apart. It may
name packages outside the ruleset that implement some of its sections (`[[packages]]`, a module
path and the prefix of their test files: the Campaign Game is `gladiator.campaign`, tested in
`test_campaign*.py`); their modules count as code (listed as `campaign/steps.py`) and their
tests as tests.

Each section has a kind. Only a `rule` has something to implement and test; a `heading` holds its
rules in its subsections, a `narrative` section has none (history, flavour, a physical
component), and a `deferred` one belongs wholly to a later part of the game (the Advanced or
Campaign Game) though it is numbered among these. Every section but a rule says why in its `note`.
A number used twice by the rulebook is listed as `15.6 (2nd)`, cited the same way. To name a
section in code that does not implement it, leave out the `§` ("the team-fight exception, 27.5"),
or the report would count the mention as the rule's code.
"""

from __future__ import annotations

import importlib.util
import re
import tomllib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, cast, get_args

__all__ = [
    "KINDS",
    "CoverageError",
    "Kind",
    "Part",
    "SectionCoverage",
    "Totals",
    "coverage",
    "has_sections",
    "markdown",
    "parse_packages",
    "parse_parts",
    "parse_sections",
    "part_line",
    "part_totals",
    "sections_parts",
    "totals",
]

Kind = Literal["rule", "heading", "narrative", "deferred"]
KINDS: tuple[Kind, ...] = get_args(Kind)

_CITE = re.compile(r"§(\d+(?:\.\d+)*)( \(2nd\))?")
# A range of sibling sections, `§9.4.6-§9.4.8` or `§5.2.2–§5.2.5`, cites those between too.
_RANGE = re.compile(r"§(\d+(?:\.\d+)*)\s*[-–]\s*§(\d+(?:\.\d+)*)")
_LONGEST_RANGE = 20
# A test named for its section: test_s9_4_6_..., test_section_4_5_..., test_EX_9_4_7_...,
# test_r_17_2_..., test_note_13_1_1_..., test_8_1_1_.... Only the first number counts, so the
# figures of a worked example later in the name (`_2_minus_3_`) are not read as sections.
_TEST_NAME = re.compile(
    r"^\s*def test_(?:s|section_|r_|ex_|note_)?(\d+(?:_\d+)*)(?=_|\()", re.IGNORECASE | re.M
)
_SECTIONS = "data/sections.toml"
_SCHEMA_VERSIONS = (1, 2)  # 2 added `[[parts]]`
_DATA = "data/"


class CoverageError(ValueError):
    """A sections list that cannot be read; the message is one line."""


@dataclass(frozen=True)
class Part:
    """A part of the rule document: the sections of chapters `first` to `last`."""

    name: str
    title: str
    first: int
    last: int

    def holds(self, number: str) -> bool:
        return self.first <= _chapter(number) <= self.last

    @property
    def label(self) -> str:
        return f"{self.title} §{self.first}-§{self.last}"


@dataclass
class SectionCoverage:
    number: str
    title: str
    kind: Kind = "rule"
    note: str = ""
    code: list[str] = field(default_factory=list)
    tests: list[str] = field(default_factory=list)
    part: str = ""

    @property
    def is_rule(self) -> bool:
        return self.kind == "rule"

    @property
    def chapter(self) -> int:
        return _chapter(self.number)

    @property
    def coded(self) -> bool:
        """Cited by a module: a data table alone is not an implementation."""
        return any(not _is_data(name) for name in self.code)

    @property
    def missing(self) -> bool:
        """A rule that no module or no test cites."""
        return self.is_rule and not (self.coded and self.tests)


@dataclass(frozen=True)
class Totals:
    sections: int
    rules: int
    kinds: dict[Kind, int]
    coded: int  # rules cited in code
    tested: int  # rules cited in tests

    @property
    def narrative(self) -> int:
        """Every section that is not a rule (headings, narrative, deferred)."""
        return self.sections - self.rules

    def line(self) -> str:
        return (
            f"{self.sections} sections: {self.rules} rules, {self.narrative} narrative; "
            f"code {self.coded}/{self.rules}, tests {self.tested}/{self.rules}"
        )

    def breakdown(self) -> str:
        return (
            f"not rules: {self.kinds['heading']} headings, {self.kinds['narrative']} narrative, "
            f"{self.kinds['deferred']} deferred (not played yet)"
        )


def _is_data(name: str) -> bool:
    return name.startswith(_DATA) or f"/{_DATA}" in name


def _chapter(number: str) -> int:
    return int(number.split(".")[0].split(" ")[0])


def _package_dir(ruleset: str) -> Path | None:
    """The ruleset package's folder, found without importing it: the report reads sources, and
    must not depend on them running."""
    if not re.fullmatch(r"[a-z_][a-z0-9_]*", ruleset):
        return None
    return _module_dir(f"gladiator.rules.{ruleset}")


def _module_dir(module: str) -> Path | None:
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def has_sections(ruleset: str) -> bool:
    folder = _package_dir(ruleset)
    return folder is not None and (folder / _SECTIONS).is_file()


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def _between(first: str, last: str) -> set[str]:
    a, b = first.split("."), last.split(".")
    if len(a) != len(b) or a[:-1] != b[:-1]:
        return set()
    lo, hi = int(a[-1]), int(b[-1])
    if not 0 < hi - lo <= _LONGEST_RANGE:
        return set()
    return {".".join([*a[:-1], str(n)]) for n in range(lo + 1, hi)}


def _citations(text: str) -> set[str]:
    cited = {number + (suffix or "") for number, suffix in _CITE.findall(text)}
    for first, last in _RANGE.findall(text):
        cited |= _between(first, last)
    return cited


def _test_citations(text: str) -> set[str]:
    return _citations(text) | {m.replace("_", ".") for m in _TEST_NAME.findall(text)}


def _covers(cited: set[str], number: str) -> bool:
    return number in cited or any(c.startswith(number + ".") for c in cited)


def _load(text: str, where: str) -> dict[str, Any]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CoverageError(f"{where} is not valid TOML: {exc}") from None
    version = data.get("schema_version", 1)
    if version not in _SCHEMA_VERSIONS:
        raise CoverageError(f"{where}: schema_version {version!r} is not one of {_SCHEMA_VERSIONS}")
    return data


def parse_parts(text: str, where: str = "sections.toml") -> list[Part]:
    """The parts a sections list declares, in order (none: the list is one part)."""
    parts: list[Part] = []
    raw = _load(text, where).get("parts", [])
    if not isinstance(raw, list) or not all(isinstance(p, dict) for p in raw):
        raise CoverageError(f"{where}: parts must be [[parts]] tables")
    for i, p in enumerate(raw):
        name, title = str(p.get("name", "")), str(p.get("title", ""))
        first, last = p.get("first"), p.get("last")
        if not name or not title or not isinstance(first, int) or not isinstance(last, int):
            raise CoverageError(f"{where}: part {i + 1} needs a name, a title, a first and a last")
        if first > last or any(q.first <= last and first <= q.last for q in parts):
            raise CoverageError(f"{where}: part {name} overlaps another or ends before it starts")
        parts.append(Part(name, title, first, last))
    return parts


def parse_packages(text: str, where: str = "sections.toml") -> list[tuple[str, str]]:
    """The packages outside the ruleset a sections list names: (module, test file prefix)."""
    raw = _load(text, where).get("packages", [])
    if not isinstance(raw, list) or not all(isinstance(p, dict) for p in raw):
        raise CoverageError(f"{where}: packages must be [[packages]] tables")
    out: list[tuple[str, str]] = []
    for i, p in enumerate(raw):
        name, tests = p.get("name"), p.get("tests")
        if not isinstance(name, str) or not re.fullmatch(r"gladiator(\.[a-z_][a-z0-9_]*)+", name):
            raise CoverageError(f"{where}: package {i + 1} needs a name such as gladiator.campaign")
        if not isinstance(tests, str) or not re.fullmatch(r"test_[a-z0-9_]+", tests):
            raise CoverageError(f"{where}: package {name} needs a tests prefix such as test_x")
        out.append((name, tests))
    return out


def parse_sections(text: str, where: str = "sections.toml") -> list[SectionCoverage]:
    """The rows of a sections list (TOML text), not yet matched to any citation."""
    data = _load(text, where)
    parts = parse_parts(text, where)
    rows: list[SectionCoverage] = []
    seen: set[str] = set()
    for i, s in enumerate(data.get("sections", [])):
        number, title = str(s.get("number", "")), str(s.get("title", ""))
        kind, note = s.get("kind", "rule"), str(s.get("note", ""))
        if not number or not title:
            raise CoverageError(f"{where}: section {i + 1} needs a number and a title")
        if number in seen:
            raise CoverageError(f"{where}: section {number} is listed twice")
        if kind not in KINDS:
            raise CoverageError(f"{where}: section {number} has kind {kind!r}, not one of {KINDS}")
        if kind != "rule" and not note:
            raise CoverageError(f"{where}: section {number} is {kind}: its note must say why")
        if not re.fullmatch(r"\d+(\.\d+)*( \(2nd\))?", number):
            raise CoverageError(f"{where}: section {number!r} is not a number such as 9.4.6")
        part = next((p.name for p in parts if p.holds(number)), "")
        if parts and not part:
            raise CoverageError(f"{where}: section {number} is in none of the parts")
        seen.add(number)
        rows.append(SectionCoverage(number, title, cast(Kind, kind), note, part=part))
    if not rows:
        raise CoverageError(f"{where} lists no sections")
    return rows


def coverage(ruleset: str, tests_dir: Path | None = None) -> list[SectionCoverage]:
    """One row per listed section, with the package files and test files citing it."""
    code_dir = _package_dir(ruleset)
    if code_dir is None or not (code_dir / _SECTIONS).is_file():
        raise CoverageError(f"no sections list for {ruleset!r}")
    text = (code_dir / _SECTIONS).read_text(encoding="utf-8")
    rows = parse_sections(text, _SECTIONS)
    # Its sub-packages too (combat/, ...), each file named by its path in the package.
    sources = {
        p.relative_to(code_dir).as_posix(): _citations(_read(p))
        for p in sorted(code_dir.rglob("*.py"))
    }
    sources |= _bot_citations(ruleset, code_dir)
    for p in sorted((code_dir / "data").glob("*.toml")):
        if p.name != Path(_SECTIONS).name:  # the list itself cites nothing
            sources[f"{_DATA}{p.name}"] = _citations(_read(p))
    prefixes = [f"test_{ruleset}"]
    for module, prefix in parse_packages(text, _SECTIONS):
        folder = _module_dir(module)
        if folder is None:
            raise CoverageError(f"{_SECTIONS}: package {module} is not installed")
        short = module.rsplit(".", 1)[-1]
        sources |= {f"{short}/{p.name}": _citations(_read(p)) for p in sorted(folder.glob("*.py"))}
        for p in sorted((folder / "data").glob("*.toml")):
            sources[f"{short}/{_DATA}{p.name}"] = _citations(_read(p))
        prefixes.append(prefix)
    tests: dict[str, set[str]] = {}
    if tests_dir is not None and tests_dir.is_dir():
        tests = {
            p.name: _test_citations(_read(p))
            for prefix in prefixes
            for p in sorted(tests_dir.glob(f"{prefix}*.py"))
        }
    for row in rows:
        row.code = [name for name, cited in sources.items() if _covers(cited, row.number)]
        row.tests = [name for name, cited in tests.items() if _covers(cited, row.number)]
    return rows


def _bot_citations(ruleset: str, code_dir: Path) -> dict[str, set[str]]:
    """The bots that play the ruleset (a module of `gladiator/bots` importing its package) are
    part of its code: the §29 centurion is a bot."""
    bots = code_dir.parent.parent / "bots"
    package = f"gladiator.rules.{ruleset}"
    found: dict[str, set[str]] = {}
    for p in sorted(bots.glob("*.py")):
        text = _read(p)
        if re.search(rf"^\s*(from|import)\s+{re.escape(package)}\b", text, re.M):
            found[f"bots/{p.name}"] = _citations(text)
    return found


def totals(rows: Sequence[SectionCoverage]) -> Totals:
    kinds = Counter(r.kind for r in rows)
    rules = [r for r in rows if r.is_rule]
    return Totals(
        sections=len(rows),
        rules=len(rules),
        kinds={k: kinds.get(k, 0) for k in KINDS},
        coded=sum(1 for r in rules if r.coded),
        tested=sum(1 for r in rules if r.tests),
    )


def sections_parts(ruleset: str) -> list[Part]:
    code_dir = _package_dir(ruleset)
    if code_dir is None or not (code_dir / _SECTIONS).is_file():
        raise CoverageError(f"no sections list for {ruleset!r}")
    return parse_parts((code_dir / _SECTIONS).read_text(encoding="utf-8"), _SECTIONS)


def part_totals(
    parts: Sequence[Part], rows: Sequence[SectionCoverage]
) -> list[tuple[Part, Totals, list[int]]]:
    """Per part: its totals and the chapters holding a rule still missing a citation."""
    out = []
    for part in parts:
        mine = [r for r in rows if r.part == part.name]
        open_chapters = sorted({r.chapter for r in mine if r.missing})
        out.append((part, totals(mine), open_chapters))
    return out


def part_line(part: Part, t: Totals, open_chapters: Sequence[int]) -> str:
    left = ", ".join(f"§{c}" for c in open_chapters)
    return f"{part.label}: {t.line()}; " + (f"uncovered rules in {left}" if left else "complete")


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _files(names: Iterable[str]) -> str:
    return ", ".join(f"`{n}`" for n in names)


def markdown(
    ruleset: str, rows: Sequence[SectionCoverage], command: str, parts: Sequence[Part] = ()
) -> str:
    """The report as a generated Markdown page; `command` is the one that regenerates it."""
    t = totals(rows)
    missing = [r for r in rows if r.missing]
    lines = [
        f"# Rules coverage: {ruleset}",
        "",
        "Generated; do not edit by hand. To regenerate it:",
        "",
        f"    {command}",
        "",
        "Each section of the rule document is listed with the package files (modules and data",
        "tables) and the test files that cite it, in their text or in a test's name. A citation",
        "of a subsection covers its parent. Only a rule has something to implement and test, and",
        "a data table alone does not implement one: a module must cite it too.",
        "",
        f"**{t.line()}**",
        "",
    ]
    lines += [f"* {part_line(*pt)}" for pt in part_totals(parts, rows)]
    lines += [""] if parts else []
    lines += [f"{t.breakdown()}.", ""]
    if missing:
        lines.append("Rules still missing a citation:")
        lines.append("")
        for r in missing:
            lacks = ", ".join(
                f"no {w}" for w, got in (("code", r.coded), ("tests", r.tests)) if not got
            )
            lines.append(f"* §{r.number} {_cell(r.title)}: {lacks}")
    else:
        lines.append("Every rule is cited by code and by tests.")
    lines += ["", "| § | title | kind | code | tests |", "|---|---|---|---|---|"]
    for r in rows:
        kind = r.kind if r.is_rule else f"{r.kind}: {_cell(r.note)}"
        code = _files(r.code) or ("**none**" if r.is_rule else "—")
        if r.is_rule and r.code and not r.coded:
            code += " (**a table only**)"
        tests = _files(r.tests) or ("**none**" if r.is_rule else "—")
        lines.append(f"| {r.number} | {_cell(r.title)} | {kind} | {code} | {tests} |")
    return "\n".join(lines) + "\n"
