"""Bot-versus-bot matches, one at a time or in batches over local processes.

A batch plays the unchecked path (principle 9): the bots choose from the pending decisions, so
their orders need no second check, and `apply(..., quiet=True)` builds no event text nobody
reads. A match whose record is kept goes through the checked `Match`, which keeps the events.
Both give the same summary: a quiet apply must leave the same state and throw the same dice.
"""

from __future__ import annotations

import hashlib
import os
import random
import threading
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gladiator.bots import best_bot, make_bot
from gladiator.core.dice import Dice
from gladiator.core.match import Match
from gladiator.core.protocol import Ruleset
from gladiator.registry import get
from gladiator.sim.gctune import tune_worker, tuned_gc

__all__ = [
    "MatchSummary",
    "chunk_indices",
    "default_bots",
    "derive_seed",
    "match_seed",
    "play_match",
    "play_out",
    "run_batch",
    "seat_bots",
    "seat_options",
    "seeded_match",
    "todo_indices",
]


def default_bots(ruleset_name: str) -> list[str]:
    """The bots (one per seat, repeated) a batch of this ruleset plays by default."""
    return [best_bot(ruleset_name)]


@dataclass(frozen=True)
class MatchSummary:
    index: int
    seed: int
    winners: tuple[str, ...]
    method: str
    labels: dict[str, str]
    steps: int
    rounds: int
    dice: int
    record_json: str | None = field(default=None, repr=False)
    # seat -> what a report groups it by (`Ruleset.seat_facets`); empty in summaries read from
    # files written before facets were kept.
    facets: dict[str, dict[str, str]] = field(default_factory=dict)


def derive_seed(seed: int, *parts: object) -> int:
    """An independent 63-bit seed for part of a batch (match i, the bots of match i...)."""
    text = ":".join([str(seed), *map(str, parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def match_seed(seed: int, index: int, duplicate: bool = False) -> int:
    """Match `index`'s seed: its own, or with `duplicate` its deal's (matches 2k and 2k + 1)."""
    return derive_seed(seed, "deal", index // 2) if duplicate else derive_seed(seed, index)


def seat_bots(bots: Sequence[str], index: int, duplicate: bool = False) -> list[str]:
    """The bots round the seats of match `index` (seat i plays bots[i % len(bots)]): as given,
    or in the second match of a deal each bot in the next one's seats."""
    if duplicate and index % 2 and len(bots) > 1:
        return [*bots[1:], bots[0]]
    return list(bots)


def seat_options(
    options: Mapping[str, Any],
    seats: Sequence[str],
    bots: Sequence[str],
    index: int,
    duplicate: bool = False,
) -> dict[str, Any]:
    """Match `index`'s options: as given, but in the second match of a duplicate deal the
    Colosseum's solitaire seats (§29: they plot after the others) follow the bots that held
    them, so a centurion keeps its place in the rules whichever side it plays."""
    out = dict(options)
    solo = out.get("solitaire")
    if not (duplicate and index % 2 and solo):
        return out
    first, second = seat_bots(bots, index - 1, True), seat_bots(bots, index, True)
    held = {first[i % len(first)] for i, seat in enumerate(seats) if seat in solo}
    out["solitaire"] = [seat for i, seat in enumerate(seats) if second[i % len(second)] in held]
    return out


def play_match(
    ruleset_name: str,
    options: Mapping[str, Any],
    seed: int,
    bots: Sequence[str],
    *,
    index: int = 0,
    keep_record: bool = False,
    checked: bool = False,
) -> MatchSummary:
    """One match. Unchecked and quiet unless a record is kept or `checked` asks for `Match`."""
    ruleset = get(ruleset_name)
    if keep_record or checked:
        return _play_checked(ruleset, options, seed, bots, index, keep_record)
    return _play_unchecked(ruleset, options, seed, bots, index)


def seeded_match(ruleset: Ruleset[Any], options: Mapping[str, Any], seed: int) -> Match:
    """A match whose nonce, like its dice, comes from `seed`: the same seed, the same record."""
    return Match(ruleset, options, seed=seed, nonce=f"{derive_seed(seed, 'nonce'):016x}")


def play_out(ruleset: Ruleset[Any], match: Match, seed: int, bots: Sequence[str]) -> None:
    """Play `match` to its end with `bots` round the seats, their draws seeded from `seed`."""
    players = {s: make_bot(bots[i % len(bots)]) for i, s in enumerate(match.seats)}
    rng = random.Random(derive_seed(seed, "bots"))
    while not match.finished:
        pending = match.pending()
        orders = {s: players[s].choose(ruleset, match.state, s, d, rng) for s, d in pending.items()}
        match.apply_step(orders)


def _play_checked(
    ruleset: Ruleset[Any],
    options: Mapping[str, Any],
    seed: int,
    bots: Sequence[str],
    index: int,
    keep_record: bool,
) -> MatchSummary:
    match = seeded_match(ruleset, options, seed)
    # At the start: the loadout the seat entered with, not what is left of it at the end.
    facets = {s: ruleset.seat_facets(match.state, s) for s in match.seats}
    play_out(ruleset, match, seed, bots)
    outcome = match.outcome
    assert outcome is not None
    return MatchSummary(
        index=index,
        seed=seed,
        winners=outcome.winners,
        method=outcome.method,
        labels={s: ruleset.seat_label(match.state, s) for s in match.seats},
        facets=facets,
        steps=len(match.steps),
        rounds=ruleset.rounds(match.state),
        dice=match.dice.count,
        record_json=match.record().to_json() if keep_record else None,
    )


def _play_unchecked(
    ruleset: Ruleset[Any],
    options: Mapping[str, Any],
    seed: int,
    bots: Sequence[str],
    index: int,
) -> MatchSummary:
    opts = ruleset.normalise_options(options)
    seats = ruleset.seats(opts)
    # Still recording: the summary counts rolls as a checked match does (`Dice.count`).
    dice = Dice(seed)
    state, _ = ruleset.initial_state(opts, dice)
    facets = {s: ruleset.seat_facets(state, s) for s in seats}  # at the start, as above
    players = {s: make_bot(bots[i % len(bots)]) for i, s in enumerate(seats)}
    rng = random.Random(derive_seed(seed, "bots"))
    pending_of, apply, outcome_of = ruleset.pending, ruleset.apply, ruleset.outcome
    steps = 0
    while (outcome := outcome_of(state)) is None:
        pending = pending_of(state)
        if not pending:
            raise RuntimeError(f"{ruleset.name}: no seat to decide, yet no outcome")
        orders = {s: players[s].choose(ruleset, state, s, d, rng) for s, d in pending.items()}
        apply(state, orders, dice, quiet=True)
        steps += 1
    return MatchSummary(
        index=index,
        seed=seed,
        winners=outcome.winners,
        method=outcome.method,
        labels={s: ruleset.seat_label(state, s) for s in seats},
        facets=facets,
        steps=steps,
        rounds=ruleset.rounds(state),
        dice=dice.count,
    )


def _chunk(
    ruleset_name: str,
    options: Mapping[str, Any],
    seed: int,
    bots: Sequence[str],
    indices: Sequence[int],
    records: str | None,
    duplicate: bool = False,
) -> list[MatchSummary]:
    out = []
    seats = get(ruleset_name).seats(get(ruleset_name).normalise_options(options))
    for i in indices:
        s = play_match(
            ruleset_name,
            seat_options(options, seats, bots, i, duplicate),
            match_seed(seed, i, duplicate),
            seat_bots(bots, i, duplicate),
            index=i,
            keep_record=records is not None,
        )
        if records is not None and s.record_json is not None:
            Path(records, f"{ruleset_name}-{seed}-{i:06d}.json").write_text(s.record_json)
            s = MatchSummary(**{**s.__dict__, "record_json": None})
        out.append(s)
    return out


def run_batch(
    ruleset_name: str,
    options: Mapping[str, Any],
    matches: int,
    seed: int,
    bots: Sequence[str],
    *,
    jobs: int = 1,
    records: Path | None = None,
    on_progress: Callable[[int], None] | None = None,
    on_chunk: Callable[[list[MatchSummary]], None] | None = None,
    skip: Collection[int] = (),
    duplicate: bool = False,
) -> list[MatchSummary]:
    """Play `matches` matches; match i uses a seed derived from (seed, i), so the results do
    not depend on `jobs` (`duplicate`: matches 2k and 2k + 1 play one deal, duplicate.py).
    Indices in `skip` are not played (a resumed batch has them already); `on_chunk` sees each
    chunk's summaries as it finishes (to write them away), before `on_progress`. Returns the
    summaries played, by index."""
    get(ruleset_name).normalise_options(options)  # fail fast, in this process
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    rec = str(records) if records is not None else None
    chunks = chunk_indices(todo_indices(matches, skip), jobs)
    results: list[MatchSummary] = []

    def finished(part: list[MatchSummary]) -> None:
        results.extend(part)
        if on_chunk:
            on_chunk(part)
        if on_progress:
            on_progress(len(part))

    # Set before the pool starts, so that forked workers inherit the tuned collector too.
    with tuned_gc():
        if jobs <= 1:
            for c in chunks:
                finished(_chunk(ruleset_name, options, seed, bots, c, rec, duplicate))
        else:
            pool = ProcessPoolExecutor(
                max_workers=jobs, initializer=_start_worker, initargs=(ruleset_name,)
            )
            try:
                futures = [
                    pool.submit(
                        _chunk, ruleset_name, dict(options), seed, list(bots), c, rec, duplicate
                    )
                    for c in chunks
                ]
                for fut in as_completed(futures):
                    finished(fut.result())
            finally:
                # On an error (or ^C) drop the chunks not started rather than play them all.
                pool.shutdown(wait=True, cancel_futures=True)
    results.sort(key=lambda s: s.index)
    return results


def _start_worker(ruleset_name: str) -> None:
    """Load the ruleset (its tables) before the first chunk and freeze it with the rest. Under
    fork the worker has it from the parent already; a spawned worker would load it per batch
    anyway, but this way the collector never walks it."""
    get(ruleset_name)
    tune_worker()
    _exit_with_parent(os.getppid())


def _exit_with_parent(parent: int) -> None:
    """A worker whose batch process was killed (SIGKILL leaves no time to stop the pool) would
    wait on the pool's queue for ever: it leaves as soon as it is orphaned."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def todo_indices(matches: int, skip: Collection[int] = ()) -> Sequence[int]:
    """The match indices below `matches` not in `skip`, in order (a range when none skipped)."""
    if not skip:
        return range(matches)
    done = set(skip)
    return [i for i in range(matches) if i not in done]


def chunk_indices(todo: Sequence[int], jobs: int) -> list[Sequence[int]]:
    """Match indices in chunks that shrink towards the end (guided scheduling): the first ones
    big, so that few round trips are paid, the last ones single matches, so that when the work
    runs out no worker sits idle for long behind another's long chunk (a Colosseum match can
    take ten times another). Every index once, in order."""
    out = []
    start = 0
    n = len(todo)
    while start < n:
        size = max(1, min(_MAX_CHUNK, (n - start) // (jobs * _SHARE)))
        out.append(todo[start : start + size])
        start += size
    return out


def _chunks(matches: int, jobs: int) -> list[Sequence[int]]:
    return chunk_indices(range(matches), jobs)


# A chunk takes at most 1/_SHARE of what is left per worker, and never more than _MAX_CHUNK
# matches (the progress bar moves by chunks).
_SHARE = 4
_MAX_CHUNK = 20
