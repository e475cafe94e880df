"""Matches of every Colosseum shape recorded by the engine before the one-turn redesign (issue 27;
tests/colosseum_records.py) replay to the same rolls, events, outcome and final state, but where
a rule was fixed since, each named here with its ruling, or where only the log's words changed
(rolls, outcome and state still equal)."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest

from colosseum_records import NONCE, RULES, SHAPES, digests
from gladiator.core.decisions import IllegalOrder
from gladiator.core.match import Match

RECORDS = json.loads((Path(__file__).parent / "records" / "colosseum_shapes.json").read_text())
MATCHES: list[dict[str, Any]] = RECORDS["matches"]
# Rules fixed since 1b36c5e that change what these matches replay to: (shape, seed) -> ruling;
# or "log: <why>", a change of the log's wording only (the rolls, outcome and state replay as
# recorded, only the events differ).
_HALF_CF = "log: the half-CF event cites the rules of its reasons and names them (§14.3, F10)"
CHANGED = {
    ("duel", 3): "N12",  # a lay the phase after a toss at nobody
    ("duel", 5): "N12",
    ("duel", 11): "N12",
    # B18: the one beast biting a man who turns to face it keeps its PA from before the turn
    **{("pack", seed): "B18" for seed in (0, 2, 3, 4, 5, 6, 9, 10, 11)},
    **{("1v2", seed): _HALF_CF for seed in (4, 6, 9)},
    **{("2v2", seed): _HALF_CF for seed in (0, 1, 3, 4, 5, 9, 11)},
    **{("6v6", seed): _HALF_CF for seed in (0, 1)},
    ("6v6", 2): f"{_HALF_CF}; a single gladiator's yielding is logged (§27.3, G4)",
    **{("hunt", seed): _HALF_CF for seed in (2, 3)},
    # B21: bare hands stun a beast (§23 against a beast), they no longer wound it
    **{("hunt", seed): "B21" for seed in (1, 4, 5, 9, 10)},
}


# S10: Sand flies its own 2 hexes (issue 37), so men two hexes apart now come to a combat step
# and these matches go otherwise; with the option sand_reach = "weapon" (S10's other reading,
# the engine's before) each replays as it did, or as CHANGED says.
SAND = {
    ("duel", 5),
    ("duel", 7),
    *(("1v2", seed) for seed in (3, 4, 7, 9, 10)),
    *(("2v2", seed) for seed in (1, 2, 3, 4, 5, 7, 9, 10, 11)),
    *(("6v6", seed) for seed in (0, 1, 2)),
}


def _replay(entry: dict[str, Any], **options: Any) -> dict[str, Any]:
    shape = {**SHAPES[entry["shape"]], **options}
    m = Match(RULES, shape, seed=entry["seed"], nonce=NONCE)
    for orders in entry["steps"]:
        m.apply_step(orders)
    return digests(m)


@pytest.mark.parametrize("entry", MATCHES, ids=lambda e: f"{e['shape']}-{e['seed']}")
def test_an_old_record_replays_as_it_was_played(entry: dict[str, Any]) -> None:
    key = (entry["shape"], entry["seed"])
    why = CHANGED.get(key)
    want = {k: entry[k] for k in ("rolls", "events", "outcome", "state")}
    options: dict[str, Any] = {}
    if key in SAND:
        # ValueError: an order of the old match that the new one does not ask for or offer
        with contextlib.suppress(ValueError):
            assert _replay(entry) != want
        options = {"sand_reach": "weapon"}
    if why == "N12":  # §20.5.1.1, §20.6.3: the net cast at nobody now rests
        with pytest.raises(IllegalOrder, match="may not be used again before"):
            _replay(entry, **options)
        return
    if why in ("B18", "B21"):  # the match goes otherwise from that phase on
        with contextlib.suppress(ValueError):
            assert _replay(entry, **options) != want
        return
    if why is not None and why.startswith("log:"):  # the log's words only
        got = _replay(entry, **options)
        for k in ("rolls", "outcome", "state"):
            assert got[k] == want[k], k
        assert got["events"] != want["events"]
        return
    assert _replay(entry, **options) == want


def test_the_records_cover_every_shape() -> None:
    assert {e["shape"] for e in MATCHES} == set(SHAPES)
