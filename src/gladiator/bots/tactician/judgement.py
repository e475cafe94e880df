"""What the tactician reads of its opponent from public facts (§9.4.1: the allocations revealed,
§18.3: the CFs put to attack and defence so far): how much of his CF he puts into attacks, where
he is likely to defend and to strike, and what a CF of attack over defence is worth to the
appeal (§18.3)."""

from __future__ import annotations

from gladiator.bots.colosseum_evaluation import attack_worth
from gladiator.rules.colosseum.combat.cf_allocation import parse_allocation
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.vocabulary import AREAS

__all__ = ["attack_share", "expected_defence", "performance_weight", "threat"]


def attack_share(g: Gladiator) -> float:
    """The part of his CFs he has put into attacks so far (1/2 before any evidence)."""
    return (g.attack_used + 8) / (g.attack_used + g.defence_used + 16)


def _last(g: Gladiator) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """His last revealed allocation (§9.4.1), as attack and defence per area."""
    if not g.last_allocation:
        return None
    try:
        a = parse_allocation(g.last_allocation, 10_000)
    except ValueError:
        return None
    return a.attack, a.defence


def expected_defence(foe: Gladiator) -> list[int]:
    """His likely defence per area: his CFs not put into attack, spread evenly and shaped by
    the last allocation he revealed."""
    avail = max(foe.available, 0)
    total = avail * (1.0 - attack_share(foe)) if foe.may_attack else float(avail)
    shape = [0.2] * 5
    last = _last(foe)
    if last is not None and sum(last[1]) > 0:
        s = sum(last[1])
        shape = [0.5 * 0.2 + 0.5 * d / s for d in last[1]]
    return [round(total * x) for x in shape]


def threat(state: ColosseumState, me: Gladiator, foe: Gladiator) -> tuple[list[float], int]:
    """How likely he strikes each of my areas, and with how many CF (§9.3.2: 8 at most)."""
    if not foe.may_attack or foe.available <= 0:
        return [0.0] * 5, 0
    variant = state.options["crt"]
    his_total = foe.available * attack_share(foe)
    cf = max(1, min(8, round(his_total)))
    worth = [max(attack_worth(me, a, 8, variant), 0.0) + 1.0 for a in AREAS]
    s = sum(worth)
    shape = [w / s for w in worth]
    last = _last(foe)
    if last is not None and sum(last[0]) > 0:
        t = sum(last[0])
        shape = [0.5 * x + 0.5 * a / t for x, a in zip(shape, last[0], strict=True)]
    attacks = max(1.0, his_total / 8)
    return [min(1.0, attacks * x) for x in shape], cf


def performance_weight(weight: float, state: ColosseumState, me: Gladiator) -> float:
    """§18.3: one CF of attack over defence moves the appeal roll by 1/10 (Q7) or 1 (`raw`),
    worth nothing once 2D6 + performance + prestige cannot fail to exceed 9."""
    per_cf = 0.1 if state.options["performance"] == "tenths" else 1.0
    raw = me.attack_used - me.defence_used
    pv = int(raw / 10) if per_cf < 1 else raw
    if pv + me.sheet.prestige + 2 > 9:
        return 0.0
    return weight * per_cf
