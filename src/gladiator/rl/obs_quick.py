"""The quick rules' observation: a fixed-length float32 vector built from `view(state, seat)` and
the seat's own pending decision only (nothing in a quick-rules state is secret; the secret fate
votes wait in the environment, never in the state).

Layout (all floats; "/n" means divided by n):

* one block per seat, the observer first, then the others in table order after him
  (`features.seat_order`), `PER_FIGHTER` floats each:
  - dq, dr, distance from the observer's hex, /arena_side (0, 0, 0 for himself)
  - q, r of his hex, /arena_side (the sheet's centre is 0,0: how near the edge he is)
  - facing, one-hot over the six hex directions
  - strength /12, strength / starting strength
  - class, one-hot: heavy, medium, light, retiarius
  - has weapon, has off-hand item (shield or net), net cast this turn, ensnared, off balance
  - status, one-hot: fighting, helpless, killed, dead, slain, spared
  - acting now (the active seat), one who turns the thumbs (a fate decider), the helpless one
* the match: round / max_rounds, AP left /6, strikes this turn, casts this turn, phase one-hot
  (act, fate, over), and whether the observer is the active seat
* the observer's decision (`features.decision_features`): has one, secret, kind, size
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from gladiator.core.decisions import Decision
from gladiator.rl.features import DECISION_FEATURES, Features, decision_features, seat_order
from gladiator.rules.quick.options import SEAT_NAMES

__all__ = ["PER_FIGHTER", "QuickEncoder"]

CLASSES = ("heavy", "medium", "light", "retiarius")
STATUSES = ("fighting", "helpless", "killed", "dead", "slain", "spared")
PHASES = ("act", "fate", "over")
PER_FIGHTER = 3 + 2 + 6 + 2 + len(CLASSES) + 5 + len(STATUSES) + 3
GLOBAL = 4 + len(PHASES) + 1


class QuickEncoder:
    """Encodes quick-rules views for matches with these (normalised) options."""

    def __init__(self, options: Mapping[str, Any]) -> None:
        self.seats = SEAT_NAMES[: len(options["gladiators"])]
        self.side = float(options["arena_side"])
        self.max_rounds = float(options["max_rounds"])
        self.size = PER_FIGHTER * len(self.seats) + GLOBAL + DECISION_FEATURES

    def encode(self, view: Mapping[str, Any], decision: Decision | None) -> np.ndarray:
        me = str(view["seat"])
        fighters = {f["seat"]: f for f in view["fighters"]}
        fate = view.get("fate") or {}
        mine = fighters[me]["hex"]
        f = Features()
        for seat in seat_order(self.seats, me):
            g = fighters[seat]
            f.offset(mine, g["hex"], self.side)
            f.add(g["hex"][0] / self.side, g["hex"][1] / self.side)
            f.one_hot(g["facing"], range(6))
            f.add(g["strength"] / 12, g["strength"] / max(1, g["max_strength"]))
            f.one_hot(g["class"], CLASSES)
            for key in ("has_weapon", "has_off_hand", "net_cast", "ensnared", "off_balance"):
                f.flag(g[key])
            f.one_hot(g["status"], STATUSES)
            f.flag(view["phase"] == "act" and view["active"] == seat)
            f.flag(seat in fate.get("deciders", ()))
            f.flag(fate.get("helpless") == seat)
        f.add(view["round"] / self.max_rounds, view["ap"] / 6, view["strikes"], view["casts"])
        f.one_hot(view["phase"], PHASES)
        f.flag(view["active"] == me)
        decision_features(f, decision)
        return f.array()
