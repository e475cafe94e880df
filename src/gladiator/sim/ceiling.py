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

No fair player knows the other's secret allocation, so no allocation play can do better than the
clairvoyant's by more than its one-phase model leaves on the table: its gain over the baseline
bounds what allocation skill is worth against that opponent. The opponent decides first in both
arms (his choice never depends on the measured seat's, §5.2.1 keeps it secret), so both arms see
the same opponent stream until their own orders part.

It also reads what the log sheets decide. Of the baseline's seeds, how many the measured seat
won from both chairs, lost from both, or split; and, of the splits (one sheet won whoever ran
it), how often the fitted value of the opening position (`rules/colosseum/value.py`) named the
sheet that won. This is a study of the game, not a bot: the clairvoyant reads a secret and is
never registered.
"""

from __future__ import annotations

import random
import time
from datetime import UTC, datetime
from typing import Any

import numpy as np

from gladiator.bots import make_bot
from gladiator.bots.allocation_payoff import PhaseModel
from gladiator.bots.allocation_solver import _best_reply, modelled
from gladiator.bots.allocation_strategies import Limits
from gladiator.bots.position_value import DEFAULT_VALUE
from gladiator.core.decisions import Distribute
from gladiator.core.dice import Dice
from gladiator.registry import get
from gladiator.rules.colosseum.state import ColosseumState
from gladiator.rules.colosseum.value import value
from gladiator.sim.machine import load_average, machine
from gladiator.sim.report import wilson
from gladiator.sim.runner import derive_seed

__all__ = ["SCHEMA_VERSION", "clairvoyant_reply", "play", "run"]

SCHEMA_VERSION = 1
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
    best, gain = _best_reply(model, 0, np.array([1.0]), [col], pool, Limits.of(decision), CLIMB)
    return best.text, gain, float(model.payoff(mine, col))


def play(seed: int, mine: str, against: str, clairvoyant: bool) -> str:
    """One match, the measured seat `mine` run by the tactician (`clairvoyant`: with the
    clairvoyant's allocations); "win", "loss" or "draw" for it. Against the centurion, he is
    seated as the §29.3 solitaire seat he is written for."""
    ruleset = get("colosseum")
    other = next(s for s in SEATS if s != mine)
    opts = ruleset.normalise_options({"solitaire": [other]} if against == "centurion" else {})
    dice = Dice(seed, recording=False)
    state, _ = ruleset.initial_state(opts, dice)
    rng = random.Random(derive_seed(seed, "bots"))
    me, him = make_bot("tactician"), make_bot(against)
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
                order = d.validate(clairvoyant_reply(state, mine, d, orders[other], order)[0])
            orders[mine] = order
        ruleset.apply(state, orders, dice, quiet=True)
    if not outcome.winners:
        return "draw"
    return "win" if mine in outcome.winners else "loss"


def _arm(results: list[tuple[str, str]]) -> dict[str, Any]:
    flat = [r for pair in results for r in pair]
    wins, losses = flat.count("win"), flat.count("loss")
    n = len(flat)
    return {
        "matches": n,
        "wins": wins,
        "losses": losses,
        "draws": n - wins - losses,
        "win_rate": wins / n if n else 0.0,
        "win_rate_wilson95": list(wilson(wins, n)),
    }


def run(
    pairs: int,
    seed: int,
    against: str = "centurion",
) -> dict[str, Any]:
    """Both arms on `pairs` seeds, each played from both seats."""
    if against not in ("centurion", "tactician"):
        raise ValueError(f"against {against!r}: the study plays the centurion or the tactician")
    load_before = load_average()
    t0 = time.process_time()
    arms: dict[str, list[tuple[str, str]]] = {"baseline": [], "clairvoyant": []}
    patterns = {"won_both": 0, "split": 0, "lost_both": 0, "with_a_draw": 0}
    named = 0
    ruleset = get("colosseum")
    for i in range(pairs):
        s = derive_seed(seed, "ceiling", i)
        for arm in arms:
            arms[arm].append(
                (
                    play(s, "red", against, arm == "clairvoyant"),
                    play(s, "blue", against, arm == "clairvoyant"),
                )
            )
        red, blue = arms["baseline"][-1]
        if "draw" in (red, blue):
            patterns["with_a_draw"] += 1
        elif red == blue:
            patterns["won_both" if red == "win" else "lost_both"] += 1
        else:
            patterns["split"] += 1
            opts = ruleset.normalise_options({})
            opening, _ = ruleset.initial_state(opts, Dice(s, recording=False))
            favoured = "red" if value(opening, "red") > 0 else "blue"
            # A split: the sheet that won both matches is the one the measured seat won with.
            winner = "red" if red == "win" else "blue"
            named += favoured == winner
    base, clair = _arm(arms["baseline"]), _arm(arms["clairvoyant"])
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
        "clairvoyant_gain": clair["win_rate"] - base["win_rate"],
        "baseline_seeds": patterns,
        "splits_named_by_opening_value": named,
        "cpu_s": time.process_time() - t0,
        "machine": machine(),
        "load_average": {"before": load_before, "after": load_average()},
    }
