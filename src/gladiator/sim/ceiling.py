"""How far better allocations can lift a Colosseum bot (issue #12): a clairvoyant's ceiling.

The search bot's targets (≥ 65% against the tactician, ≥ 95% against the §29 centurion) ask how
much of a Basic Game duel skill decides. This study answers from above. Each seed is played
twice with the seats swapped (paired seeds, as `search_eval` does), by two players on the
measured seat:

* **baseline**: the tactician, plots and allocations;
* **clairvoyant**: the same tactician, except that at every §9.3 allocation the solver models
  (AS3) it *sees the opponent's written allocation* and plays the exact best reply to it (the
  allocation model's CRT, wound, critical and drop odds and the value of the position after;
  the best of 200 legal orders and the tactician's, then hill climbing one CF at a time).

No fair player knows the other's secret allocation, so the clairvoyant's gain over the baseline
says what exact knowledge of his allocation is worth to a one-phase best reply: how much room
allocation skill has against that opponent. It is an estimate, not a strict bound (its plots are
the tactician's, and its reply looks one phase ahead). The opponent decides first in both arms
(his choice never depends on the measured seat's, §5.2.1 keeps it secret), so both arms see the
same opponent stream until their own orders part; the JSON counts the matches whose result moved
between the arms, with a sign test.

It also reads what the log sheets decide. Of each arm's seeds, how many the measured seat won
from both chairs, lost from both, or split (one sheet won whoever ran it), against how many
would split were the two results independent; and, of the splits, how often the fitted value of
the opening position (`evaluation/value.py`) named the sheet that won. This is a study of
the game, not a bot: the clairvoyant reads a secret and is never registered.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import numpy as np
from scipy.stats import binomtest

from gladiator.bots import make_bot
from gladiator.bots.allocation_payoff import PhaseModel
from gladiator.bots.allocation_solver import best_reply, modelled
from gladiator.bots.allocation_strategies import Limits
from gladiator.bots.position_value import DEFAULT_VALUE
from gladiator.core.decisions import Distribute
from gladiator.core.dice import Dice
from gladiator.registry import get
from gladiator.rules.colosseum.evaluation.value import value
from gladiator.rules.colosseum.state import ColosseumState
from gladiator.sim.machine import load_average, machine
from gladiator.sim.report import wilson
from gladiator.sim.runner import derive_seed

__all__ = [
    "OPPONENTS",
    "SCHEMA_VERSION",
    "Played",
    "clairvoyant_reply",
    "favoured_sheet",
    "pattern",
    "play",
    "run",
]

SCHEMA_VERSION = 2
POOL = 200  # legal orders the reply starts from, besides the tactician's
CLIMB = 10  # steps of hill climbing one CF at a time
_POOL_SEED = 0x0C1A1  # a fixed draw: the reply depends on the position alone
SEATS = ("red", "blue")


def clairvoyant_reply(
    state: ColosseumState, seat: str, decision: Distribute, theirs: str, tactician: str
) -> tuple[str, float, float]:
    """The best reply to the opponent's written allocation `theirs`; with its payoff and the
    payoff of `tactician` (the tactician's order) against the same allocation."""
    model = PhaseModel(state, seat, DEFAULT_VALUE)
    col = model.prepare(1, theirs)
    pool = [model.prepare(0, t) for t in decision.candidates(random.Random(_POOL_SEED), POOL)]
    mine = model.prepare(0, tactician)
    pool.append(mine)
    best, gain = best_reply(model, 0, np.array([1.0]), [col], pool, Limits.of(decision), CLIMB)
    return best.text, gain, float(model.payoff(mine, col))


OPPONENTS = ("centurion", "tactician")


def _options(against: str, other: str) -> dict[str, Any]:
    """The match options: the centurion sits as the §29.3 solitaire seat he is written for."""
    return get("colosseum").normalise_options(
        {"solitaire": [other]} if against == "centurion" else {}
    )


@dataclass(frozen=True, slots=True)
class Played:
    """One match of the study: its result for the measured seat, and how many of his §9.3
    allocations the clairvoyant answered and how many of those differ from the tactician's."""

    result: str  # "win", "loss" or "draw"
    replies: int = 0
    changed: int = 0


def play(seed: int, mine: str, against: str, clairvoyant: bool) -> Played:
    """One match, the measured seat `mine` run by the tactician (`clairvoyant`: with the
    clairvoyant's allocations)."""
    ruleset = get("colosseum")
    other = next(s for s in SEATS if s != mine)
    dice = Dice(seed, recording=False)
    state, _ = ruleset.initial_state(_options(against, other), dice)
    rng = random.Random(derive_seed(seed, "bots"))
    me, him = make_bot("tactician"), make_bot(against)
    replies = changed = 0
    while (outcome := ruleset.outcome(state)) is None:
        pending = ruleset.pending(state)
        orders: dict[str, str] = {}
        if other in pending:  # first, in both arms: the streams part only where orders do
            orders[other] = him.choose(ruleset, state, other, pending[other], rng)
        if mine in pending:
            d = pending[mine]
            order = me.choose(ruleset, state, mine, d, rng)  # in both arms: one rng stream
            if (
                clairvoyant
                and other in orders
                and isinstance(d, Distribute)
                and modelled(ruleset, state, mine, d)
            ):
                reply = d.validate(clairvoyant_reply(state, mine, d, orders[other], order)[0])
                replies += 1
                changed += reply != order
                order = reply
            orders[mine] = order
        ruleset.apply(state, orders, dice, quiet=True)
    result = "draw" if not outcome.winners else "win" if mine in outcome.winners else "loss"
    return Played(result, replies, changed)


def pattern(red: str, blue: str) -> tuple[str, str | None]:
    """A seed's two results for the measured seat (as red, as blue): "won_both", "lost_both",
    "split" or "with_a_draw", and for a split the sheet that won both matches (the one the
    measured seat won with; the other man won with it too)."""
    if "draw" in (red, blue):
        return "with_a_draw", None
    if red == blue:
        return ("won_both" if red == "win" else "lost_both"), None
    return "split", ("red" if red == "win" else "blue")


def favoured_sheet(seed: int) -> str | None:
    """The sheet the fitted value of the opening position favours (None: even)."""
    ruleset = get("colosseum")
    opening, _ = ruleset.initial_state(ruleset.normalise_options({}), Dice(seed, recording=False))
    v = value(opening, "red")
    return None if v == 0 else "red" if v > 0 else "blue"


def _arm(results: list[tuple[Played, Played]], opening: list[str | None]) -> dict[str, Any]:
    flat = [p.result for pair in results for p in pair]
    wins, losses = flat.count("win"), flat.count("loss")
    n = len(flat)
    seeds = dict.fromkeys(("won_both", "split", "lost_both", "with_a_draw"), 0)
    named = even = 0
    for (red, blue), favoured in zip(results, opening, strict=True):
        kind, sheet = pattern(red.result, blue.result)
        seeds[kind] += 1
        if kind == "split":
            even += favoured is None
            named += favoured is not None and favoured == sheet
    no_draw = len(results) - seeds["with_a_draw"]
    p = wins / (wins + losses) if wins + losses else 0.0
    return {
        "matches": n,
        "wins": wins,
        "losses": losses,
        "draws": n - wins - losses,
        "win_rate": wins / n if n else 0.0,
        "win_rate_wilson95": list(wilson(wins, n)),
        "seeds": seeds,
        # Were the two results of a seed independent coins of the arm's decisive rate, this
        # many seeds would split anyway: the sheets' share is the excess over it.
        "splits_if_independent": round(2 * p * (1 - p) * no_draw, 1),
        "splits_named_by_opening_value": named,
        "splits_with_an_even_opening": even,
        "replies": sum(q.replies for pair in results for q in pair),
        "replies_changed": sum(q.changed for pair in results for q in pair),
    }


def run(pairs: int, seed: int, against: str = "centurion") -> dict[str, Any]:
    """Both arms on `pairs` seeds, each played from both seats."""
    if against not in OPPONENTS:
        raise ValueError(f"against {against!r}: the study plays the centurion or the tactician")
    load_before = load_average()
    t0 = time.process_time()
    arms: dict[str, list[tuple[Played, Played]]] = {"baseline": [], "clairvoyant": []}
    opening: list[str | None] = []
    for i in range(pairs):
        s = derive_seed(seed, "ceiling", i)
        for arm, results in arms.items():
            sees = arm == "clairvoyant"
            results.append((play(s, "red", against, sees), play(s, "blue", against, sees)))
        opening.append(favoured_sheet(s))
    base, clair = _arm(arms["baseline"], opening), _arm(arms["clairvoyant"], opening)
    # Paired: the same seed and chair in both arms; only the matches whose result moved tell.
    moved = [
        (b.result, c.result)
        for bp, cp in zip(arms["baseline"], arms["clairvoyant"], strict=True)
        for b, c in zip(bp, cp, strict=True)
        if b.result != c.result
    ]
    to_win = sum(c == "win" for _, c in moved)
    from_win = sum(b == "win" for b, _ in moved)
    return {
        "schema": "gladiator.ceiling",
        "version": SCHEMA_VERSION,
        "what": "tactician vs clairvoyant tactician (best reply to the opponent's written "
        f"allocation) against the {against}, Colosseum Basic Game, paired seeds, seats swapped",
        "command": f"gladiator ceiling --pairs {pairs} --seed {seed} --against {against}",
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "against": against,
        "solitaire_opponent": against == "centurion",
        "seed": seed,
        "pairs": pairs,
        "baseline": base,
        "clairvoyant": clair,
        "clairvoyant_gain": round(clair["win_rate"] - base["win_rate"], 4),
        "paired": {
            "results_moved": len(moved),
            "turned_to_win": to_win,
            "turned_from_win": from_win,
            # The gain's sign test: under no effect, a moved win is a fair coin's side.
            "sign_test_p": round(_sign_test(to_win, from_win), 4),
        },
        "cpu_s": round(time.process_time() - t0, 1),
        "machine": machine(),
        "load_average": {"before": load_before, "after": load_average()},
    }


def _sign_test(a: int, b: int) -> float:
    """Two-sided exact sign test: P(a split at least this uneven | a fair coin)."""
    return 1.0 if a + b == 0 else float(binomtest(a, a + b).pvalue)
