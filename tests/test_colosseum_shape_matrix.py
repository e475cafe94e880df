"""The feature by shape matrix of the Colosseum Advanced Game (issue 27, sim/shape_matrix.py).

Every Advanced Game feature (§19-§29, §13's items, §10.4's criticals, §18's Moment of Truth,
§36.3's Find Weakness) is played in a duel, a 2 v 2, a 6 v 6, a one-beast hunt and a pack by a
biased random-legal match from a fixed seed, and its events must appear; a cell the rules leave
out names its ruling in docs/rulings.md. A cell neither seen nor ruled fails, unless it is one of
the reported gaps (`KNOWN_GAPS`), which are expected to fail (strict: a fixed one shows up). The
page docs/colosseum-shape-matrix.md must be what `gladiator rules matrix colosseum` writes.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gladiator.sim.shape_matrix import FEATURES, KNOWN_GAPS, Cell, markdown, matrix
from gladiator.sim.shape_matrix_play import MATRIX_SHAPES

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "colosseum-shape-matrix.md"
COMMAND = "gladiator rules matrix colosseum --markdown docs/colosseum-shape-matrix.md"
RULINGS = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")

_CELLS: list[Cell] = []


def cells() -> dict[tuple[str, str], Cell]:
    """The matrix, played once for the whole module (some 25 s on one core)."""
    if not _CELLS:
        _CELLS.extend(matrix())
    return {(c.feature, c.shape): c for c in _CELLS}


def _param(key: str, section: str, shape: str) -> object:
    marks = []
    if (key, shape) in KNOWN_GAPS:
        marks.append(pytest.mark.xfail(reason=KNOWN_GAPS[(key, shape)], strict=True))
    return pytest.param(key, shape, id=f"{section}-{key}-{shape}", marks=marks)


@pytest.mark.parametrize(
    ("key", "shape"), [_param(f.key, f.section, s) for f in FEATURES for s in MATRIX_SHAPES]
)
def test_each_feature_is_seen_in_each_shape_or_ruled_out(key: str, shape: str) -> None:
    """§19-§29, §10.4, §13, §18, §36.3: the feature's events in that shape, or a ruling."""
    cell = cells()[(key, shape)]
    assert cell.status != "missing", f"{key} in a {shape}: {cell.note}"
    if cell.status == "seen":
        assert cell.seed is not None and cell.events > 0
    else:
        assert re.search(rf"\*\*{re.escape(cell.ruling)}\b", RULINGS), cell.ruling
        assert cell.why


def test_rulings_and_gaps_are_apart() -> None:
    """A reported gap is never also ruled out, and every gap names a real cell."""
    keys = {f.key for f in FEATURES}
    for key, shape in KNOWN_GAPS:
        assert key in keys and shape in MATRIX_SHAPES
        assert shape not in next(f for f in FEATURES if f.key == key).ruled


def test_the_page_is_what_the_command_writes() -> None:
    """docs/colosseum-shape-matrix.md is up to date (regenerate it with the command)."""
    assert PAGE.read_text(encoding="utf-8") == markdown(list(cells().values()), f"{COMMAND}"), (
        f"regenerate with `{COMMAND}`"
    )
