"""What a gladiator may do with weapons and shields this phase (§13.3-§13.5): which items he holds
to any use, which he lacks and may pick up, which lie within his reach, and with which plots he
may write a kick or a throw (`X +TW-HEAD`, `F +KS-FL`; plots.py's notation). The engine and the
bots list the orders with these; items.py resolves them (its I1-I9: the kick's plots are I6).

RULINGS (shared/rules/colosseum.md, docs/rulings.md; numbered with items.py's I series)

I2  §13.3, §16.3, §15.3, §11.4: he may throw while standing or Kneeling (his attack then at half
    CF, §14.3), not while Prone (a Prone man "may not attack in any manner"), not while he must
    Stumble (S is all he may write, §15.3) and not while unconscious. A battered shield is never
    held (the engine drops it at once, §12.3), so it is never thrown.
I9  §13.4: the two-item limit: nobody holds more than one weapon and one shield, so he tries only
    for the kind he lacks (R1 of the engine: he always tries; a battered shield is left).
"""

from __future__ import annotations

from gladiator.core.hexgrid import distance
from gladiator.rules.colosseum.kit.weapons import may_pick_up
from gladiator.rules.colosseum.plots.plot_legality import posture_after
from gladiator.rules.colosseum.plots.plots import ItemKind, PhasePlot, Posture
from gladiator.rules.colosseum.state import ColosseumState, Gladiator, GroundItem

__all__ = ["holds", "may_kick_with", "may_throw", "recoverable", "wants"]

_BACKWARD = frozenset({"B", "SBL", "SBR"})  # §7.3: the movement actions that step backward


# --- recovery (§13.4) ----------------------------------------------------------------------------


def holds(g: Gladiator, item: ItemKind) -> bool:
    """Whether he has the item in hand and it is any use (a battered shield is not, §12.3)."""
    if item == "weapon":
        return g.has_weapon
    return g.has_shield and not g.sheet.shield_useless


def wants(g: Gladiator, item: ItemKind) -> bool:
    """§13.4, I9: he may pick up what he lacks, never more than two items (a weapon and a
    shield)."""
    return not g.has_weapon if item == "weapon" else not g.has_shield


def recoverable(state: ColosseumState, g: Gladiator) -> list[GroundItem]:
    """Items within one hex of him that he could pick up (§13.4; in the Advanced Game what his
    free hands allow, F6). A beast picks nothing up (§28)."""
    if g.beast is not None:
        return []
    return [i for i in state.items if distance(i.hex, g.hex) <= 1 and may_pick_up(g, i)]


# --- kicks (§13.5) -------------------------------------------------------------------------------


def may_kick_with(plot: PhasePlot, posture: Posture) -> bool:
    """§13.5, I6: whether a kick may be written with this plot (no backward step, no Stumble, and
    he is on his feet when it is done)."""
    acts = set(plot.actions)
    return not acts & _BACKWARD and "S" not in acts and posture_after(plot, posture) == "standing"


# --- throws (§13.3) ------------------------------------------------------------------------------


def may_throw(g: Gladiator, target: Gladiator, item: ItemKind) -> bool:
    """§13.3, I2: whether he may write a throw of this item now."""
    return (
        g.alive
        and target.alive
        and not g.sheet.unconscious
        and g.posture != "prone"
        and not g.must_stumble
        and holds(g, item)
    )
