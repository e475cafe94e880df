"""The skirmish observation: a fixed-length float32 vector built from `view(state, seat)` and
the seat's own pending decision only. The view already hides every other seat's unrevealed
written move (`written` is None there), so nothing here can carry it.

Layout (all floats; "/n" means divided by n):

* one block per seat, the observer first, then the others in table order after him,
  `per_fighter` floats each:
  - dq, dr, distance from the observer's hex, /arena_side; q, r of his hex, /arena_side
  - facing, one-hot over the six hex directions
  - hit points / starting hit points, hit points /20
  - sheet (gladiator type), one-hot over the tables' sheets in name order
  - alive, floored, entangled, stunned this turn, banked stun /3, nicks /2, cuts /2, wounds /2,
    holds a net, converted his move this turn
  - written move known (his own, or another's once revealed), then that move one-hot over
    every move code (zeros while hidden or not yet written)
  - performed move this turn and last turn's performed move, each one-hot over the codes
  - initiative /20, deciding now (the chooser), place in this turn's acting order /seats
    (0 if not in it)
* the match: turn / max_turns, phase one-hot (write, first, act, hex, target, facing, over),
  hexes offered /20, nets on the ground /4, nearest net's dq, dr, distance /arena_side (zeros if
  none), and whether the observer is the chooser
* the observer's decision (`features.decision_features`)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from gladiator.core import hexgrid as hg
from gladiator.core.decisions import Decision
from gladiator.rl.features import DECISION_FEATURES, Features, decision_features, seat_order
from gladiator.rules.skirmish.options import SEAT_NAMES
from gladiator.rules.skirmish.tables import tables

__all__ = ["SkirmishEncoder"]

PHASES = ("write", "first", "act", "hex", "target", "facing", "over")
GLOBAL = 1 + len(PHASES) + 2 + 3 + 1


class SkirmishEncoder:
    """Encodes skirmish views for matches with these (normalised) options."""

    def __init__(self, options: Mapping[str, Any]) -> None:
        t = tables()
        self.sheets = tuple(sorted(t.sheets))
        self.codes = tuple(dict.fromkeys(m.code for s in t.sheets.values() for m in s.moves))
        self.seats = SEAT_NAMES[: len(options["gladiators"])]
        self.side = float(options["arena_side"])
        self.max_turns = float(options["max_turns"])
        self.per_fighter = 5 + 6 + 2 + len(self.sheets) + 10 + 1 + 3 * len(self.codes) + 3
        self.size = self.per_fighter * len(self.seats) + GLOBAL + DECISION_FEATURES

    def encode(self, view: Mapping[str, Any], decision: Decision | None) -> np.ndarray:
        me = str(view["seat"])
        fighters = {g["seat"]: g for g in view["fighters"]}
        mine = fighters[me]["hex"]
        order = list(view["order"])
        f = Features()
        for seat in seat_order(self.seats, me):
            g = fighters[seat]
            f.offset(mine, g["hex"], self.side)
            f.add(g["hex"][0] / self.side, g["hex"][1] / self.side)
            f.one_hot(g["facing"], range(6))
            f.add(g["hp"] / max(1, g["max_hp"]), g["hp"] / 20)
            f.one_hot(g["sheet"], self.sheets)
            for key in ("alive", "floored", "entangled", "stunned"):
                f.flag(g[key])
            f.add(g["stun_bank"] / 3, g["nicks"] / 2, g["cuts"] / 2, g["wounds"] / 2)
            f.flag(g["has_net"])
            f.flag(g["converted"])
            written = g["written"] or ""
            f.flag(bool(written))
            f.one_hot(written, self.codes)
            f.one_hot(g["performed"], self.codes)
            f.one_hot(g["last_performed"], self.codes)
            f.add(g["initiative"] / 20)
            f.flag(view["chooser"] == seat and view["phase"] != "write")
            f.add((order.index(seat) + 1) / len(self.seats) if seat in order else 0.0)
        f.add(view["turn"] / self.max_turns)
        f.one_hot(view["phase"], PHASES)
        nets = view["nets"]
        f.add(len(view["offered"]) / 20, len(nets) / 4)
        if nets:
            here = hg.Hex(mine[0], mine[1])
            near = min(nets, key=lambda n: (hg.distance(here, hg.Hex(n[0], n[1])), n))
            f.offset(mine, near, self.side)
        else:
            f.zeros(3)
        f.flag(view["chooser"] == me and view["phase"] != "write")
        decision_features(f, decision)
        return f.array()
