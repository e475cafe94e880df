"""Colosseum matches of every shape played on random offered orders, kept as their orders and
digests (tests/records/colosseum_shapes.json), so that a change of the engine that changes what
an old record replays to shows up (test_colosseum_records.py).

The file was written by the engine before the one-turn redesign (issue 27, commit 1b36c5e):

    git archive 1b36c5e | tar -x -C OLD && (cd OLD && uv sync --frozen --no-dev)
    OLD/.venv/bin/python tests/colosseum_records.py tests/records/colosseum_shapes.json 12
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

from gladiator.core.match import Match
from gladiator.rules.colosseum import ColosseumRules

RULES = ColosseumRules()
NONCE = "0" * 32  # the seed's commitment is in the first event: fixed, it replays alike
_SIX = "red+green+gold+white+black+purple:blue+silver+orange+brown+grey+pink"
SHAPES: dict[str, dict[str, Any]] = {
    "basic": {},
    "duel": {"advanced": True},
    "1v2": {"advanced": True, "teams": "red:blue+green"},
    "2v2": {"advanced": True, "teams": "red+green:blue+gold"},
    "6v6": {"advanced": True, "teams": _SIX},
    "hunt": {"advanced": True, "beasts": "blue:random", "styles": ["bestiarius", "random"]},
    "pack": {
        "advanced": True,
        "beasts": "blue:random,green:random",
        "styles": ["venator", "random", "random"],
    },
}


def _sha(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


# Options the engine gained after these records were written: they are left out of the final
# state's digest (the state keeps them), so the records still say whether the match itself
# replays; which reading a replay plays is the test's to say (test_colosseum_records.py).
LATER_OPTIONS = ("sand_reach", "net_reuse")  # S10, N2 (issue 37)


def _state_digest(m: Match) -> str:
    state = m.ruleset.state_to_dict(m.state)
    for key in LATER_OPTIONS:
        state["options"].pop(key, None)
    blob = json.dumps(state, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


def digests(m: Match) -> dict[str, Any]:
    """What a replay must reproduce: every roll, every event, the outcome, the final state."""
    outcome = m.outcome
    return {
        "rolls": _sha([r.to_dict() for r in m.dice.log]),
        "events": _sha(json.loads(json.dumps(m.events))),
        "outcome": outcome.to_dict() if outcome else None,
        "state": _state_digest(m),
    }


def play(shape: str, seed: int) -> dict[str, Any]:
    """One match of the shape on random offered orders, as its entry of the file."""
    rng = random.Random(seed)
    m = Match(RULES, SHAPES[shape], seed=seed, nonce=NONCE)
    steps: list[dict[str, str]] = []
    while m.outcome is None and len(steps) < 2000:
        orders = {seat: d.sample(rng) for seat, d in m.pending().items()}
        m.apply_step(orders)
        steps.append(orders)
    return {"shape": shape, "seed": seed, "steps": steps, **digests(m)}


def main(path: str, per_shape: int) -> None:
    entries = []
    for shape in SHAPES:
        for seed in range(per_shape if shape != "6v6" else max(1, per_shape // 4)):
            try:
                entries.append(play(shape, seed))
            except ValueError as exc:  # options the old engine refused, or a crash it had
                print(f"skipped {shape} {seed}: {exc}", file=sys.stderr)
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"engine": "1b36c5e", "matches": entries}, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
