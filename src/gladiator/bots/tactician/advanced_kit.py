"""The tactician's Advanced Game knowledge (§19-§26): what the weapon in hand does to where it
wants to stand and how it allocates, the walls, the Blood counters, the weapons it may take up,
and the generic handling of allocation slots it does not know. Read by
`bots.tactician.bot` only when the gladiator has a style (the Advanced Game); the Basic
Game's play never comes here.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol

from gladiator.bots.colosseum_evaluation import Plan, attack_worth
from gladiator.bots.colosseum_evaluation_kit import (
    StrokeKit,
    arena,
    pickable_weapons,
    pose_kit,
    wall_gap,
)
from gladiator.core.decisions import Distribute
from gladiator.core.hexgrid import Hex, distance
from gladiator.rules.colosseum.arena.combat_geometry import in_front
from gladiator.rules.colosseum.arena.walls import Arena
from gladiator.rules.colosseum.kit.weapons import thrown_values
from gladiator.rules.colosseum.plots.plots import Throw
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.vocabulary import AREAS

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

__all__ = [
    "AdvancedView",
    "PoseWeights",
    "advanced_halvings",
    "advanced_pose",
    "advanced_view",
    "pair_order",
    "split_unknown_slots",
    "throw_worth",
    "weapon_target",
]


class PoseWeights(Protocol):
    """The judgement `advanced_pose` reads (the tactician's `Weights`)."""

    @property
    def halved(self) -> float: ...
    @property
    def reach_edge(self) -> float: ...
    @property
    def my_wall(self) -> float: ...
    @property
    def foe_wall(self) -> float: ...
    @property
    def nets(self) -> bool: ...
    @property
    def net_range(self) -> float: ...


_KNOWN_SLOTS = frozenset(f"{kind}-{a.upper()}" for kind in "AD" for a in AREAS)


@dataclass(frozen=True, slots=True)
class AdvancedView:
    """What the Advanced Game adds to one plot decision, looked up once for all its plots."""

    options: Mapping[str, Any]
    arena: Arena | None  # §25: the walled edges (None: no wall marked)
    blood: frozenset[Hex]  # §26.2: the Blood counters lying about
    foe_gap: int | None  # how far his back is from a wall (None: no wall)


def advanced_view(state: ColosseumState, me: Gladiator, foe: Gladiator) -> AdvancedView | None:
    """None in the Basic Game (no style)."""
    if not me.style:
        return None
    a = arena(state)
    return AdvancedView(
        state.options,
        a,
        frozenset(state.blood_counters),
        wall_gap(a, foe.hex) if a is not None else None,
    )


def advanced_pose(
    w: PoseWeights,
    adv: AdvancedView,
    me: Gladiator,
    foe: Gladiator,
    end: Hex,
    facing: int,
    dist: int,
) -> tuple[bool, bool, float]:
    """Whether I reach him and he me from this pose (F8), and what the Advanced Game adds to its
    worth: striking from beyond his reach (§20.9.1, §21.7-§21.10), my attacks' halvings there
    (F10), the walls behind each of us (§25.4, W6), and with a net in hand (§20.5, T16) the range
    of two or three hexes from which a toss ensnares best."""
    mine, his, halvings = pose_kit(me, foe, end, facing, adv.options)
    extra = 0.0
    foe_able = foe.alive and not foe.sheet.unconscious and foe.posture != "prone"
    if mine:
        extra -= w.halved * halvings
        if dist >= 2 and not his and foe_able:
            extra += w.reach_edge
    if w.nets and me.net and not foe.ensnared and foe_able:  # §20.5: keep him in the toss's reach
        if 2 <= dist <= 3 and in_front((end, facing), foe.pose, region="three_hex"):
            extra += w.net_range
        elif dist == 1:  # T16: −2 adjacent, +1 two hexes off
            extra -= w.net_range / 2
    if adv.arena is not None:
        if wall_gap(adv.arena, end) <= 1 and dist <= 2:
            extra -= w.my_wall
        if mine and adv.foe_gap is not None and adv.foe_gap <= 1:
            extra += w.foe_wall
    return mine, his, extra


def weapon_target(state: ColosseumState, me: Gladiator) -> Hex | None:
    """§13.4, F6: with no weapon in hand, where the nearest weapon he may take up lies."""
    if me.weapons:
        return None
    spots = [i.hex for i in pickable_weapons(state, me)]
    return min(spots, key=lambda h: distance(h, me.hex)) if spots else None


def advanced_halvings(me: Gladiator, foe: Gladiator, kits: tuple[StrokeKit, ...]) -> list[int]:
    """How often each area's attack is halved (F10 with §14.2, §14.3, §13.4.2; Q26: they
    multiply). A pair whose weapons halve differently is priced at the lesser; `pair_order`
    then gives the larger attacks to the weapon that halves less."""
    common = int(me.posture == "kneeling") + int(me.recovered_weapon)
    common += min((k.halvings for k in kits), default=0)
    return [common + int(a == "legs" and foe.posture == "kneeling") for a in AREAS]


def pair_order(plan: Plan, kits: tuple[StrokeKit, ...]) -> Plan:
    """F9 (Q44): his attacks take a pair's weapons in turn, in the order written; put the larger
    attacks where the weapon halves least. One weapon, or a pair that halves alike: as planned."""
    n = len(plan.order)
    if n < 2 or len({k.halvings for k in kits[:n]}) < 2:
        return plan
    slots = sorted(range(n), key=lambda i: (kits[i].halvings, i))
    by_size = sorted(plan.order, key=lambda a: -plan.attack[AREAS.index(a)])
    placed = dict(zip(slots, by_size, strict=True))
    return replace(plan, order=tuple(placed[i] for i in range(n)))


def split_unknown_slots(
    decision: Distribute, rng: random.Random, handled: frozenset[str] = frozenset()
) -> tuple[tuple[str, ...], int] | None:
    """Slots it has no model for (a net's CFs §20.3.2, an escape §20.5.5 ...) take what a random
    legal order gives them, drawn with its own rng; the attacks and defences get the rest.
    Returns those slots' `name:points` and the budget left; None if the decision has no attack
    or defence slot at all. The Basic Game's allocation has none unknown: no draw is made."""
    names = [s.name for s in decision.slots]
    if not any(n in _KNOWN_SLOTS for n in names):
        return None
    # §22's special boxes are no unknowns: tactician/specials.py prices them.
    unknown = [
        n for n in names if n not in _KNOWN_SLOTS and not _is_special(n) and n not in handled
    ]
    if not unknown:
        return (), decision.budget
    amounts = decision.parse(decision.sample(rng))
    fixed = tuple(f"{n}:{amounts[n]}" for n in unknown if amounts[n])
    return fixed, decision.budget - sum(amounts[n] for n in unknown)


def _is_special(name: str) -> bool:
    """A §22 special attack or defence box: `A-ARMS-DISARM`, `D-HEAD-DUCK` (special_notation)."""
    return name[:2] in ("A-", "D-") and name.count("-") == 2


def throw_worth(state: ColosseumState, me: Gladiator, foe: Gladiator, throw: Throw) -> float | None:
    """§13.3, A9, F5: the expected worth of throwing the weapon in hand when another he carries
    comes to hand at once (a Velite's next javelin, a Hoplomachus's sword): the chance that
    1D6 ± Thr beats the range times a blow at its T19 CRT value against no defence (§13.3.1.1),
    on the area 1D6 gives (a 6 the one written). None when the throw leaves him without a weapon
    (the Basic Game's reading: never throw it away)."""
    if throw.item != "weapon" or not me.spare or not me.weapons:
        return None
    values = thrown_values(me, "weapon")
    if values is None:
        return None
    thr, crt = values
    sign = -1 if state.options.get("throw_thr") == "text" else 1
    gap = distance(me.hex, foe.hex)
    p_hit = sum(1 for face in range(1, 7) if face + sign * thr > gap) / 6
    value = crt // 2 if me.posture == "kneeling" else crt  # §14.3
    variant = state.options["crt"]
    areas = [*AREAS, throw.area]
    return p_hit * sum(attack_worth(foe, a, value, variant) for a in areas) / len(areas)
