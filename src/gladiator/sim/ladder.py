"""A round robin of bots (`gladiator ladder`): every pairing plays paired seeds, each seed
twice with the seats swapped, so that the first seat's edge and the dice cancel out of the
comparison; every decision's CPU time is measured.

Game g of a pairing (a, b) uses seed `derive_seed(seed, "ladder", g // 2)`: the same seeds for
every pairing (common dice), a plays the first seat in the even game and b in the odd one. A
game is played as `sim.runner.play_match` plays it (its dice and the bots' rng come from the
seed alone), so `play_match(ruleset, options, seed, bots)` gives the same result; the clock is
only read around `choose`. Over processes the games are dealt in `sim.runner`'s chunks.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from gladiator.bots import offered, plays
from gladiator.bots.spec import BotSpec
from gladiator.core.dice import Dice
from gladiator.registry import get
from gladiator.sim.cputime import CpuTimes
from gladiator.sim.gctune import tuned_gc
from gladiator.sim.runner import _chunks, _start_worker, derive_seed

__all__ = [
    "GameResult",
    "PairingResult",
    "eligible_bots",
    "game_seats",
    "game_seed",
    "play_game",
    "play_pairings",
]


def eligible_bots(ruleset_name: str) -> list[str]:
    """The bots that really play this ruleset (a bot that plays random legal orders outside
    its own ruleset is left out)."""
    return [b for b in offered() if plays(b, ruleset_name)]


def game_seed(seed: int, game: int) -> int:
    """The seed of game `game` of any pairing: one seed per pair of games."""
    return derive_seed(seed, "ladder", game // 2)


def game_seats(a: str, b: str, game: int) -> tuple[str, str]:
    """Bot per seat (repeated over the seats, as the runner deals them): swapped in odd games."""
    return (a, b) if game % 2 == 0 else (b, a)


@dataclass(frozen=True)
class GameResult:
    game: int
    score: float  # bot a's: 1 won, 0.5 drawn, 0 lost
    method: str
    steps: int
    times: dict[str, list[float]]  # bot -> CPU seconds of each of its decisions


def play_game(
    ruleset_name: str,
    options: Mapping[str, Any],
    seed: int,
    bots: Sequence[str],
    budget: float | None = None,
) -> tuple[tuple[str, ...], str, int, dict[str, list[float]]]:
    """One match as `play_match` plays it unchecked: (winning seats, how it ended, steps,
    CPU seconds of each decision by bot name)."""
    ruleset = get(ruleset_name)
    opts = ruleset.normalise_options(options)
    seats = ruleset.seats(opts)
    dice = Dice(seed)
    state, _ = ruleset.initial_state(opts, dice)
    names = {s: bots[i % len(bots)] for i, s in enumerate(seats)}
    players = {s: BotSpec(names[s]).make() for s in seats}
    rng = random.Random(derive_seed(seed, "bots"))
    times: dict[str, list[float]] = {b: [] for b in bots}
    clock = time.process_time
    steps = 0
    while (outcome := ruleset.outcome(state)) is None:
        pending = ruleset.pending(state)
        if not pending:
            raise RuntimeError(f"{ruleset.name}: no seat to decide, yet no outcome")
        orders = {}
        for s, d in pending.items():
            start = clock()
            orders[s] = players[s].choose(ruleset, state, s, d, rng, budget=budget)
            times[names[s]].append(clock() - start)
        ruleset.apply(state, orders, dice, quiet=True)
        steps += 1
    return outcome.winners, outcome.method, steps, times


def _score(winners: Sequence[str], seats: Sequence[str], mine: Callable[[str], bool]) -> float:
    won = {mine(s) for s in winners}
    if won == {True}:
        return 1.0
    if won == {False}:
        return 0.0
    return 0.5  # nobody won, or (a team match of shared seats) both bots did


def _play_range(
    ruleset_name: str,
    options: Mapping[str, Any],
    seed: int,
    a: str,
    b: str,
    budget: float | None,
    games: Sequence[int],
) -> list[GameResult]:
    out = []
    seats = get(ruleset_name).seats(get(ruleset_name).normalise_options(options))
    for g in games:
        bots = game_seats(a, b, g)
        winners, method, steps, times = play_game(
            ruleset_name, options, game_seed(seed, g), bots, budget
        )
        is_a = {s: bots[i % len(bots)] == a for i, s in enumerate(seats)}
        out.append(GameResult(g, _score(winners, seats, is_a.__getitem__), method, steps, times))
    return out


@dataclass
class PairingResult:
    a: str
    b: str
    games: list[GameResult]

    @property
    def scores(self) -> list[float]:
        return [g.score for g in sorted(self.games, key=lambda g: g.game)]

    def counts(self) -> tuple[int, int, int]:
        """a's wins, losses, draws."""
        c = Counter(self.scores)
        return c[1.0], c[0.0], c[0.5]

    def cpu(self) -> dict[str, CpuTimes]:
        out = {self.a: CpuTimes(), self.b: CpuTimes()}
        for g in self.games:
            for bot, ts in g.times.items():
                out[bot].add_all(ts)
        return out

    def endings(self) -> dict[str, int]:
        return dict(Counter(g.method for g in self.games).most_common())

    def mean_steps(self) -> float:
        return sum(g.steps for g in self.games) / len(self.games) if self.games else 0.0


def play_pairings(
    ruleset_name: str,
    options: Mapping[str, Any],
    pairs: Sequence[tuple[str, str]],
    matches: int | Mapping[tuple[str, str], int],
    seed: int,
    *,
    budget: float | None = None,
    jobs: int = 1,
    on_progress: Callable[[int], None] | None = None,
    on_pairing: Callable[[PairingResult], None] | None = None,
) -> list[PairingResult]:
    """Play `matches` games of every pairing (or so many for each pairing); `on_pairing`
    hears of each as soon as all its games are in (so that a long ladder keeps what it has
    played)."""
    count = {p: matches if isinstance(matches, int) else matches[p] for p in pairs}
    results = {p: PairingResult(p[0], p[1], []) for p in pairs}
    work = [(p, c) for p in pairs for c in _chunks(count[p], jobs)]

    def take(pair: tuple[str, str], part: list[GameResult]) -> None:
        res = results[pair]
        res.games.extend(part)
        if on_progress:
            on_progress(len(part))
        if len(res.games) == count[pair] and on_pairing:
            on_pairing(res)

    opts = dict(options)
    with tuned_gc():
        if jobs <= 1:
            for (a, b), c in work:
                take((a, b), _play_range(ruleset_name, opts, seed, a, b, budget, list(c)))
        else:
            with ProcessPoolExecutor(
                max_workers=jobs, initializer=_start_worker, initargs=(ruleset_name,)
            ) as pool:
                futures = {
                    pool.submit(_play_range, ruleset_name, opts, seed, a, b, budget, list(c)): (
                        a,
                        b,
                    )
                    for (a, b), c in work
                }
                for fut in as_completed(futures):
                    take(futures[fut], fut.result())
    for res in results.values():
        res.games.sort(key=lambda g: g.game)
    return [results[p] for p in pairs]
