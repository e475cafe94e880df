"""Playing one campaign fight with bots, in this process, to its campaign report.

A fight's seed is derived from the campaign's seed, the bout and the fight's number, and the bots'
own dice from the fight's seed (as `sim` does), so the same campaign plays the same fights again:
a campaign resumed after a crash replays an interrupted fight exactly.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gladiator.bots import make_bot
from gladiator.core.dice import Dice
from gladiator.registry import get
from gladiator.sim.runner import derive_seed, play_out, seeded_match

__all__ = ["FightResult", "fight_seed", "play_fight"]

RULESET = "colosseum"


@dataclass(frozen=True)
class FightResult:
    seed: int
    report: dict[str, Any]
    winners: tuple[str, ...]
    method: str
    steps: int
    # With `keep`: the match's record (seed revealed) and outcome, for a replay.
    record: dict[str, Any] | None = None
    outcome: dict[str, Any] | None = None


def fight_seed(campaign_seed: int, bout: str, index: int) -> int:
    return derive_seed(campaign_seed, "fight", bout, index)


def play_fight(
    options: Mapping[str, Any], seed: int, bot: str = "tactician", *, keep: bool = False
) -> FightResult:
    """Every seat that decides is played by `bot` (a beast seat has no decisions: the engine
    plays it, §28). With `keep` it is played as a `Match`, whose record comes back: the same
    fight (the same dice and the same bots' draws), for a replay."""
    if keep:
        return _kept(options, seed, bot)
    ruleset: Any = get(RULESET)
    opts = ruleset.normalise_options(options)
    dice = Dice(seed)
    state, _ = ruleset.initial_state(opts, dice)
    players = {s: make_bot(bot) for s in ruleset.seats(opts)}
    rng = random.Random(derive_seed(seed, "bots"))
    steps = 0
    while (outcome := ruleset.outcome(state)) is None:
        pending = ruleset.pending(state)
        if not pending:
            raise RuntimeError("a campaign fight has no seat to decide, yet no outcome")
        orders = {s: players[s].choose(ruleset, state, s, d, rng) for s, d in pending.items()}
        ruleset.apply(state, orders, dice, quiet=True)
        steps += 1
    return FightResult(
        seed=seed,
        report=ruleset.campaign_report(state),
        winners=tuple(outcome.winners),
        method=outcome.method,
        steps=steps,
    )


def _kept(options: Mapping[str, Any], seed: int, bot: str) -> FightResult:
    ruleset: Any = get(RULESET)
    match = seeded_match(ruleset, options, seed)
    play_out(ruleset, match, seed, [bot])
    outcome = match.outcome
    assert outcome is not None
    return FightResult(
        seed=seed,
        report=ruleset.campaign_report(match.state),
        winners=tuple(outcome.winners),
        method=outcome.method,
        steps=len(match.steps),
        record=match.record(reveal=True).to_dict(),
        outcome=outcome.to_dict(),
    )
