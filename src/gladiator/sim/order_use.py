"""How often bots use the Advanced Game's orders (issue 38): over a batch of Colosseum matches,
for each bot, the plot decisions in which a net attack was offered and those in which it wrote
one, the same for dropping or letting go of the net and for Repel Net, and the allocations that
offered a §22 special attack or defence (or the FW slot) and those in which it wrote one; with
each bot's and each seat's results.

The matches are the batch's (`runner.match_seed`, `seat_bots`: duplicate deals if asked), played
through `Match` so that every order is checked; the counts read only the decision and the order
written, never a secret of another seat.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from gladiator.bots import make_bot
from gladiator.core.decisions import Decision
from gladiator.registry import get
from gladiator.rules.colosseum.combat.orders import AllocationChoice, PlotChoice
from gladiator.rules.colosseum.kit.nets import split_net
from gladiator.sim.duplicate import pair_scores
from gladiator.sim.report import wilson
from gladiator.sim.runner import (
    MatchSummary,
    derive_seed,
    match_seed,
    seat_bots,
    seat_options,
    seeded_match,
)

__all__ = ["order_use"]


def _count(c: Counter[str], decision: Decision, order: str) -> None:
    """What one decision offered of the Advanced orders and whether the order used it."""
    if isinstance(decision, PlotChoice):
        offered = {split_net(t)[1] for t in decision.texts()} - {None}
        chosen = split_net(order)[1]
        if any(o is not None and o.attack for o in offered):
            c["net_offered"] += 1
            c["net_chosen"] += chosen is not None and chosen.attack
        if any(o is not None and o.code in ("DN", "LG") for o in offered):
            c["drop_offered"] += 1
            c["drop_chosen"] += chosen is not None and chosen.code in ("DN", "LG")
        if "RN" in decision.texts():
            c["repel_offered"] += 1
            c["repel_chosen"] += order == "RN"
    elif isinstance(decision, AllocationChoice):
        special = [s.name for s in decision.slots if s.name.count("-") >= 2 and s.maximum > 0]
        if not special:
            return
        c["special_offered"] += 1
        used = {p.split(":")[0] for p in decision.validate(order).split() if ":" in p}
        mine = used & set(special)
        c["special_used"] += bool(mine)
        c["special_attack_used"] += any(n.startswith("A-") for n in mine)
        c["special_defence_used"] += any(n.startswith("D-") for n in mine)


def _rate(k: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(k, n)
    rate = round(k / n, 4) if n else None
    return {"k": k, "n": n, "rate": rate, "ci95": [round(lo, 4), round(hi, 4)]}


def order_use(
    options: Mapping[str, Any],
    matches: int,
    seed: int,
    bots: Sequence[str],
    *,
    duplicate: bool = False,
    budget: float | None = None,
) -> dict[str, Any]:
    """Play the batch and count, per bot, the Advanced orders offered and written."""
    ruleset = get("colosseum")
    seats = ruleset.seats(ruleset.normalise_options(options))
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    summaries: list[MatchSummary] = []
    label_wins: Counter[str] = Counter()
    label_seen: Counter[str] = Counter()
    for i in range(matches):
        s = match_seed(seed, i, duplicate)
        dealt = seat_bots(bots, i, duplicate)
        m = seeded_match(ruleset, seat_options(options, seats, bots, i, duplicate), s)
        names = {seat: dealt[k % len(dealt)] for k, seat in enumerate(m.seats)}
        players = {seat: make_bot(names[seat]) for seat in m.seats}
        rng = random.Random(derive_seed(s, "bots"))
        labels = {seat: ruleset.seat_label(m.state, seat) for seat in m.seats}
        while not m.finished:
            orders = {}
            for seat, d in m.pending().items():
                order = players[seat].choose(ruleset, m.state, seat, d, rng, budget=budget)
                _count(counts[names[seat]], d, order)
                orders[seat] = order
            m.apply_step(orders)
        outcome = m.outcome
        assert outcome is not None
        for seat, label in labels.items():
            label_seen[label] += 1
            label_wins[label] += seat in outcome.winners
        summaries.append(
            MatchSummary(i, s, outcome.winners, outcome.method, labels, len(m.steps), 0, 0)
        )
    by_bot = {}
    for bot, c in counts.items():
        by_bot[bot] = {
            "net": _rate(c["net_chosen"], c["net_offered"]),
            "net_dropped_or_let_go": _rate(c["drop_chosen"], c["drop_offered"]),
            "repel_net": _rate(c["repel_chosen"], c["repel_offered"]),
            "special": _rate(c["special_used"], c["special_offered"]),
            "special_attack": _rate(c["special_attack_used"], c["special_offered"]),
            "special_defence": _rate(c["special_defence_used"], c["special_offered"]),
        }
    return {
        "matches": matches,
        "seed": seed,
        "bots": list(bots),
        "duplicate": duplicate,
        "options": dict(options),
        "budget": budget,
        "by_bot": by_bot,
        "by_label": {lab: _rate(label_wins[lab], n) for lab, n in sorted(label_seen.items())},
        "pairs": [p.to_dict() for p in pair_scores(summaries, bots)] if duplicate else [],
    }
