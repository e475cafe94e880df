"""§20 in the tactician (issue 38): the net attacks weighed with the plot they follow, Repel Net
when a net may come at him, and the escape and drag CFs of the allocation.

A net attack is read by the engine's own DRMs (`net_attacks.net_drms`, N5) from where the plot
leaves the Retiarius against where the target stands now, on the CRT's "0" column over the
3D6 (N5), so its chances are the rules' own; what its results are worth is judgement, in the
tactician's CF units:

* ensnared (a toss's H, §20.5.4): he attacks nothing till free, cannot turn, gives +4 PA, and a
  drag may bring him to the Moment of Truth (§20.5.5): `ENSNARE`;
* tripped (a swing's or lay's H, §15.3): `TRIP`; a Stumble check (P, P*): a third of that;
* grabbed (F, §20.8): the struggle for the net, lost one time in two: `NET_LOST`;
* the CF it costs come off this phase's allocation (§20.3.2) when a combat may follow.

A lay (§20.7) catches him only if he steps into the hex; it is priced at the chance that a man
closing in takes that hex. Repel Net (§20.4) is worth the part of an ensnaring toss its −6
takes away, while his net is ready and he stands where a toss reaches. Escape (§20.5.5.1) and
drag (§20.5.5.1 2nd) CFs are the amounts that make the most of the chance to be free or to drag
him down, less what those CF would have done in defence or attack.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import cache

from gladiator.bots.colosseum_evaluation import KILL, sum_3d6
from gladiator.core.decisions import Distribute
from gladiator.core.hexgrid import Hex, distance, neighbor_at
from gladiator.rules.colosseum.arena.combat_geometry import in_front
from gladiator.rules.colosseum.combat.crt import crt_column
from gladiator.rules.colosseum.combat.net_attacks import lay_hex, net_drms, swing_target
from gladiator.rules.colosseum.combat.net_combat import DRAG, ESCAPE
from gladiator.rules.colosseum.kit.nets import NetOrder, attack_spec, phase_number, split_net
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.tables.advanced_tables import advanced_tables
from gladiator.rules.colosseum.tables.tables import crt_result, tables

__all__ = ["hand_worth", "net_allocation", "net_variants", "net_worth", "repel_worth"]

ENSNARE = 16.0
TRIP = 5.0
NET_LOST = 4.0
CF_COST = 0.4  # a CF of this phase's allocation spent on the net
LAY_ENTERED = 0.35  # the chance a man closing in steps into the hex laid before him
MERCY = 0.75 * KILL  # dragged Prone at the Retiarius's mercy (§18)
SPARE_CF = 0.6  # what a CF put to escape or drag would have been worth in defence or attack


def net_variants(texts: Sequence[str]) -> dict[str, list[tuple[str, NetOrder]]]:
    """The offered plots with a net attack after them, by the plain plot they follow."""
    out: dict[str, list[tuple[str, NetOrder]]] = {}
    for text in texts:
        plot, order = split_net(text)
        if order is not None and order.attack:
            out.setdefault(plot, []).append((text, order))
    return out


@cache
def _zero_column(drm: int, variant: str) -> tuple[float, float, float]:
    """P(H), P(P or P*), P(F) of a net attack with this DRM on the "0" column (N5)."""
    column, extra = crt_column(advanced_tables().nets.net_attacks.crt_column)
    table = tables().crt_table(variant)  # type: ignore[arg-type]
    h = p = f = 0.0
    for roll, chance in sum_3d6():
        total = min(max(roll + extra + drm, table.min_roll), table.max_roll)
        code = crt_result(column, total, variant).code  # type: ignore[arg-type]
        h += chance * (code == "H")
        p += chance * (code in ("P", "P*"))
        f += chance * (code == "F")
    return h, p, f


def _chances(
    state: ColosseumState, me: Gladiator, foe: Gladiator, order: NetOrder, repel: bool = False
) -> tuple[float, float, float]:
    """The chances of the attack's results on `foe` standing where he is (N5's DRMs)."""
    spec = attack_spec(order)
    target = replace(foe, net_order="RN") if repel else foe
    drm = sum(v for v, _ in net_drms(spec, me, target, ((foe.hex, "start"),), (), False))
    return _zero_column(drm, state.options["crt"])


def net_worth(
    state: ColosseumState, me: Gladiator, foe: Gladiator, end: Hex, facing: int, order: NetOrder
) -> float:
    """What the net attack is worth written after a plot that leaves him at (end, facing)."""
    g = replace(me, hex=end, facing=facing)
    spec = attack_spec(order)
    cost = CF_COST * spec.cf
    if foe.ensnared or not foe.alive or foe.posture == "prone":
        return -cost
    if order.code == "TN":
        if not in_front(g.pose, foe.pose, region="three_hex"):
            return -cost
        h, p, f = _chances(state, g, foe, order)
        return h * ENSNARE + p * TRIP / 3 - f * NET_LOST / 2 - cost
    if order.code == "SN":
        others = [o for o in state.gladiators.values() if o.seat != me.seat]
        if swing_target(g, others) is not foe or foe.posture == "kneeling":
            return -cost
        h, p, f = _chances(state, g, foe, order)
        return h * TRIP + p * TRIP / 3 - f * NET_LOST / 2 - cost
    spot = lay_hex(g, order.where)  # LN: he must step into it (§20.7.2)
    closing = 1 < distance(foe.hex, end) <= 3 and distance(spot, foe.hex) < distance(end, foe.hex)
    if not closing:
        return -cost
    h, p, f = _chances(state, g, foe, order)
    return LAY_ENTERED * (h * TRIP + p * TRIP / 3 - f * NET_LOST / 2) - cost


def hand_worth(
    state: ColosseumState, me: Gladiator, foe: Gladiator, texts: Sequence[str], worth: float
) -> dict[str, tuple[str, float]]:
    """§20.8.2, §20.5.6: the offered drops and let-gos, each with the plot it follows and what
    freeing his hand is worth (the trident at full CF, §20.9.2 NOTE): `worth` for a drop while
    the net ensnares nobody, the side farthest from him (he may pick it up), and for a let-go
    (the victim stays ensnared)."""
    out: dict[str, tuple[str, float]] = {}
    if not me.net:
        return out
    best: tuple[int, str, str] | None = None
    for text in texts:
        plot, order = split_net(text)
        if order is None:
            continue
        if order.code == "LG":
            out[text] = (plot, worth)
        elif order.code == "DN":
            spot = neighbor_at(me.hex, me.facing, order.where)
            far = distance(spot, foe.hex)
            if best is None or far > best[0]:
                best = (far, text, plot)
    if best is not None:
        out[best[1]] = (best[2], worth)
    return out


def repel_worth(state: ColosseumState, me: Gladiator, foe: Gladiator) -> float:
    """§20.4: what Repel Net's −6 saves him this phase, if the Retiarius may toss at him now."""
    now = phase_number(state)
    if not foe.net or me.ensnared or foe.toss_ready > now or foe.net_ready > now:
        return 0.0
    if not in_front(foe.pose, me.pose, region="three_hex") or distance(foe.hex, me.hex) > 3:
        return 0.0
    toss = NetOrder("TN")
    h, _, _ = _chances(state, foe, me, toss)
    h_repelled, _, _ = _chances(state, foe, me, toss, repel=True)
    return 0.5 * ENSNARE * (h - h_repelled)  # he tosses one phase in two, as far as I know


def _best(values: dict[int, float]) -> int:
    return max(values, key=lambda n: (values[n], -n))


def net_allocation(
    state: ColosseumState, me: Gladiator, decision: Distribute
) -> tuple[tuple[str, ...], int]:
    """The ESCAPE or DRAG CFs he writes (`ESCAPE:n`, `DRAG:n`) and what they take from the
    budget; none when the decision offers neither."""
    slots = {s.name: s.maximum for s in decision.slots}
    budget = decision.budget
    if slots.get(ESCAPE, 0) > 0:  # §20.5.5.1: 3D6 − escape CFs below 7 frees him
        top = min(slots[ESCAPE], budget)
        free = {e: _at_most(6 + e) * ENSNARE - SPARE_CF * e for e in range(top + 1)}
        e = _best(free)
        return ((f"{ESCAPE}:{e}",), e) if e else ((), 0)
    if slots.get(DRAG, 0) > 0:  # §20.5.5.1 (2nd): 3D6 + ST + drag CFs above 17
        top = min(slots[DRAG], budget - 1)  # §20.5.5.1: he needs a CF left for the mercy
        st = me.sheet.current_st
        drag = {d: (1 - _at_most(17 - st - d)) * MERCY - SPARE_CF * d for d in range(top + 1)}
        d = _best(drag)
        return ((f"{DRAG}:{d}",), d) if d else ((), 0)
    return (), 0


def _at_most(n: int) -> float:
    """P(3D6 <= n)."""
    return sum(p for roll, p in sum_3d6() if roll <= n)
