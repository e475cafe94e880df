"""§28 in the tactician (issue 38): where to stand against a beast.

A beast bites the man in its head's three-hex front (§28.6.2) and never turns to him; the man
strikes it from any hex from which his weapon reaches its counter (B6, B20), with T24's PA and
body areas for that hex (§28.6): little from in front of its head, most from beside its body or
behind it, and only its legs from straight behind. So a pose is worth what he may strike there
(T24's PA and the areas open, the more the better), less the bite he takes if he stands in its
head's front (its CF spread over its attacks, read as a threat), less a little for each hex he
must still close. The beast moves after him (§28.4) by the dice of T22: the pose is judged
against where it stands now, as the tactician judges a man.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from gladiator.core.hexgrid import Hex, distance
from gladiator.rules.colosseum.beasts.beast_combat import beast_may, gladiator_may
from gladiator.rules.colosseum.beasts.beasts import counter_hexes, t24_entry
from gladiator.rules.colosseum.state import Gladiator

__all__ = ["beast_pose_worth"]

STRIKE = 4.0  # he may strike it from here
PER_PA = 1.0  # each point of T24's PA
PER_AREA = 0.5  # each body area T24 opens to him
BITE = 0.6  # each CF of the beast's that may come at him here
PER_HEX = 1.0  # each hex between him and its counter, beyond reach


def beast_pose_worth(me: Gladiator, beasts: Sequence[Gladiator], end: Hex, facing: int) -> float:
    """How good it is to end the movement at (end, facing) against these beasts (a hunt's one,
    a pack's every one still fighting, B11): the best beast to strike from there, less every
    beast's bite there."""
    g = replace(me, hex=end, facing=facing)
    if any(end in counter_hexes(b) for b in beasts):
        return -10.0  # B2: no man enters its counter; the plot stops short
    strike = -math.inf
    bites = 0.0
    for b in beasts:
        if gladiator_may(g, b):
            entry = t24_entry(b, end)
            areas = 5 if b.beast is not None and b.beast.reared else len(entry.areas)
            strike = max(strike, STRIKE + PER_PA * entry.pa + PER_AREA * areas)
        else:
            gap = min(distance(end, h) for h in counter_hexes(b))
            strike = max(strike, -PER_HEX * max(0, gap - 1))
        if beast_may(b, g):
            bites += BITE * max(b.sheet.current_cf, 0)
    return strike - bites
