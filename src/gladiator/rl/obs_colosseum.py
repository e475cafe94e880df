"""The Colosseum observation: a fixed-length float32 vector built from `view(state, seat)` and
the seat's own pending decision only. Everything in a Colosseum state is public (both log
sheets lie on the table, §3); the secret plots and CF allocations wait in the environment
until every seat has given one, so no seat's view holds another's order (RL6).

Layout (all floats; "/n" means divided by n):

* one block per seat, the observer first, then the others in table order after him,
  `PER_GLADIATOR` floats each (a beast, §28, fills what its record has and zeros elsewhere):
  - present in the view, an ally (same side, §27; the observer himself counts), dq, dr,
    distance from the observer /board width, q /width, r /height of his hex
  - facing, one-hot over the six hex directions; posture one-hot: standing, kneeling, prone
  - alive, has his weapon, has his shield, may attack this phase, must stumble, stumbling,
    left-handed
  - current CF /12, log-sheet CF /12, CF available this phase /12, positional advantage /6,
    CF spent on attack and on defence this phase /12
  - class one-hot (light, medium, heavy); MOVE /8, TR /12, ST /6, AG /6, CN /6, W /12, NF /12
  - wounds in each area (head, chest, groin, arms, legs) /5; armour worn there (0/1)
  - shield one-hot (small, large); criticals: helmet lost, LMP /3, STU /3, mortal, killed,
    severed arteries /3; stun /3; moves used this turn /8, exceeded MOVE this turn, last turn
* the match: turn / max_turns, phase /8, step one-hot (plot, allocate, over), items on the
  ground /8, the nearest item's dq, dr, distance /width (zeros if none), blood marks /16
* the observer's decision (`features.decision_features`)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from gladiator.core import hexgrid as hg
from gladiator.core.decisions import Decision
from gladiator.rl.features import DECISION_FEATURES, Features, decision_features, seat_order

__all__ = ["PER_GLADIATOR", "ColosseumEncoder", "side_of"]

AREAS = ("head", "chest", "groin", "arms", "legs")
POSTURES = ("standing", "kneeling", "prone")
CLASSES = ("light", "medium", "heavy")
STEPS = ("plot", "allocate", "over")
PER_GLADIATOR = 7 + 6 + 3 + 7 + 6 + 3 + 7 + 2 * len(AREAS) + 2 + 6 + 1 + 3
GLOBAL = 2 + len(STEPS) + 1 + 3 + 1


def side_of(options: Mapping[str, Any], seat: str) -> int:
    """The side of a seat from the public options, as `ColosseumState.side` reads them (§27,
    B11: a pack of beasts is one side against red)."""
    sides = str(options.get("teams") or "red:blue")
    beasts = str(options.get("beasts") or "")
    if "," in beasts:
        sides = "red:" + "+".join(e.partition(":")[0] for e in beasts.split(","))
    for i, part in enumerate(sides.split(":")):
        if seat in part.split("+"):
            return i
    return -1


class ColosseumEncoder:
    """Encodes Colosseum views for matches with these (normalised) options and seats."""

    def __init__(self, options: Mapping[str, Any], seats: Sequence[str]) -> None:
        self.options = dict(options)
        self.seats = tuple(seats)
        self.width = float(options["board_width"])
        self.height = float(options["board_height"])
        self.max_turns = float(options.get("max_turns") or 1)
        self.size = PER_GLADIATOR * len(self.seats) + GLOBAL + DECISION_FEATURES

    def encode(self, view: Mapping[str, Any], decision: Decision | None) -> np.ndarray:
        me = str(view["seat"])
        men = {g["seat"]: g for g in view["gladiators"]}
        mine = men[me]["hex"]
        my_side = side_of(self.options, me)
        f = Features()
        for seat in seat_order(self.seats, me):
            g = men.get(seat)
            if g is None:
                f.zeros(PER_GLADIATOR)
                continue
            self._gladiator(f, g, mine, side_of(self.options, seat) == my_side)
        f.add(view["turn"] / self.max_turns, view["phase"] / 8)
        f.one_hot(view["step"], STEPS)
        items = [i["hex"] for i in view.get("items", ()) if i.get("hex") is not None]
        f.add(len(items) / 8)
        if items:
            here = hg.Hex(mine[0], mine[1])
            f.offset(mine, min(items, key=lambda h: (hg.distance(here, hg.Hex(*h)), h)), self.width)
        else:
            f.zeros(3)
        f.add(len(view.get("blood", ())) / 16)
        decision_features(f, decision)
        return f.array()

    def _gladiator(self, f: Features, g: Mapping[str, Any], mine: Any, ally: bool) -> None:
        sheet: Mapping[str, Any] = g.get("sheet") or {}
        crit: Mapping[str, Any] = g.get("criticals") or {}
        f.flag(True)
        f.flag(ally)
        f.offset(mine, g["hex"], self.width)
        f.add(g["hex"][0] / self.width, g["hex"][1] / self.height)
        f.one_hot(g.get("facing"), range(6))
        f.one_hot(g.get("posture"), POSTURES)
        for key in ("alive", "has_weapon", "has_shield", "may_attack", "must_stumble"):
            f.flag(g.get(key))
        f.flag(g.get("stumbling"))
        f.flag(g.get("left_handed"))
        f.add(
            g.get("current_cf", 0) / 12,
            sheet.get("cf", 0) / 12,
            g.get("available", 0) / 12,
            g.get("pa", 0) / 6,
            g.get("attack_used", 0) / 12,
            g.get("defence_used", 0) / 12,
        )
        f.one_hot(sheet.get("class"), CLASSES)
        f.add(sheet.get("move", 0) / 8, sheet.get("tr", 0) / 12, sheet.get("st", 0) / 6)
        f.add(sheet.get("ag", 0) / 6, sheet.get("cn", 0) / 6, sheet.get("w", 0) / 12)
        f.add(sheet.get("nf", 0) / 12)
        wounds: Mapping[str, int] = sheet.get("wounds") or {}
        armour: Mapping[str, str] = sheet.get("armour") or {}
        f.add(*(wounds.get(a, 0) / 5 for a in AREAS))
        f.add(*(1.0 if armour.get(a, "-") not in ("-", "", None) else 0.0 for a in AREAS))
        f.one_hot(sheet.get("shield") if g.get("has_shield") else None, ("small", "large"))
        f.flag(crit.get("helmet_lost"))
        f.add(crit.get("lmp", 0) / 3, crit.get("stu", 0) / 3)
        f.flag(crit.get("mortal"))
        f.flag(crit.get("killed"))
        f.add(len(g.get("arteries") or ()) / 3)
        f.add(g.get("stun", 0) / 3, g.get("moves_used", 0) / 8)
        f.flag(g.get("exceeded_this_turn"))
        f.flag(g.get("exceeded_last_turn"))
