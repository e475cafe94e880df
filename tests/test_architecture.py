"""The shape of the code (shared/design.md, "The picture"): imports point down only, and no two
modules import each other, directly or through others, at import time or inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "gladiator"

# Layers from the bottom up; a module may import its own layer and those below it.
LAYERS = ("core", "rules", "registry")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """Every gladiator module `path` imports, wherever the import stands in the file."""
    tree = ast.parse(path.read_text("utf-8"))
    here = _module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("gladiator"))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*up, base] if base else up)
            if not base.startswith("gladiator"):
                continue
            out.add(base)
            # `from gladiator.rules.colosseum import combat` imports a module too.
            out.update(f"{base}.{a.name}" for a in node.names)
    return out


def _graph() -> dict[str, set[str]]:
    files = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    return {name: {m for m in _imports(p) if m in files and m != name} for name, p in files.items()}


def _cycle_from(graph: dict[str, set[str]], start: str) -> list[str] | None:
    stack: list[tuple[str, list[str]]] = [(start, [start])]
    seen: set[str] = set()
    while stack:
        node, trail = stack.pop()
        for nxt in sorted(graph[node]):
            if nxt == start:
                return [*trail, start]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, [*trail, nxt]))
    return None


def _is_package_init_edge(a: str, b: str) -> bool:
    # A package's __init__ re-exporting one of its own modules is no circle.
    return b.startswith(a + ".") or a.startswith(b + ".")


def test_no_module_imports_itself_through_others() -> None:
    graph = {a: {b for b in bs if not _is_package_init_edge(a, b)} for a, bs in _graph().items()}
    cycles = sorted(" → ".join(c) for name in graph if (c := _cycle_from(graph, name)) is not None)
    assert not cycles, "import circles:\n" + "\n".join(cycles)


@pytest.mark.parametrize("layer", ["core", "rules"])
def test_imports_point_down(layer: str) -> None:
    below = LAYERS[: LAYERS.index(layer) + 1]
    bad = sorted(
        f"{a} imports {b}"
        for a, bs in _graph().items()
        if a.startswith(f"gladiator.{layer}")
        for b in bs
        if b.split(".")[1] not in below
    )
    assert not bad, "\n".join(bad)


def test_the_core_knows_no_ruleset() -> None:
    bad = sorted(
        f"{a} imports {b}"
        for a, bs in _graph().items()
        if a.startswith("gladiator.core")
        for b in bs
        if not b.startswith("gladiator.core")
    )
    assert not bad, "\n".join(bad)


def test_a_ruleset_knows_no_other_ruleset() -> None:
    def ruleset(m: str) -> str | None:
        parts = m.split(".")
        return parts[2] if len(parts) > 2 and parts[1] == "rules" and parts[2] != "common" else None

    bad = sorted(
        f"{a} imports {b}"
        for a, bs in _graph().items()
        if (ra := ruleset(a)) is not None
        for b in bs
        if (rb := ruleset(b)) is not None and rb != ra
    )
    assert not bad, "\n".join(bad)
