"""Bot-versus-bot matches, one at a time or in batches over local processes."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gladiator.bots import best_bot, make_bot
from gladiator.core.match import Match
from gladiator.registry import get

__all__ = ["MatchSummary", "default_bots", "derive_seed", "play_match", "run_batch"]


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


def derive_seed(seed: int, *parts: object) -> int:
    """An independent 63-bit seed for part of a batch (match i, the bots of match i...)."""
    text = ":".join([str(seed), *map(str, parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def play_match(
    ruleset_name: str,
    options: Mapping[str, Any],
    seed: int,
    bots: Sequence[str],
    *,
    index: int = 0,
    keep_record: bool = False,
) -> MatchSummary:
    ruleset = get(ruleset_name)
    match = Match(ruleset, options, seed=seed, nonce=f"{derive_seed(seed, 'nonce'):016x}")
    players = {s: make_bot(bots[i % len(bots)]) for i, s in enumerate(match.seats)}
    rng = random.Random(derive_seed(seed, "bots"))
    while not match.finished:
        pending = match.pending()
        orders = {s: players[s].choose(ruleset, match.state, s, d, rng) for s, d in pending.items()}
        match.apply_step(orders)
    outcome = match.outcome
    assert outcome is not None
    return MatchSummary(
        index=index,
        seed=seed,
        winners=outcome.winners,
        method=outcome.method,
        labels={s: ruleset.seat_label(match.state, s) for s in match.seats},
        steps=len(match.steps),
        rounds=ruleset.rounds(match.state),
        dice=match.dice.count,
        record_json=match.record().to_json() if keep_record else None,
    )


def _chunk(
    ruleset_name: str,
    options: Mapping[str, Any],
    seed: int,
    bots: Sequence[str],
    indices: Sequence[int],
    records: str | None,
) -> list[MatchSummary]:
    out = []
    for i in indices:
        s = play_match(
            ruleset_name,
            options,
            derive_seed(seed, i),
            bots,
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
) -> list[MatchSummary]:
    """Play `matches` matches; match i uses a seed derived from (seed, i), so the results do
    not depend on `jobs`."""
    get(ruleset_name).normalise_options(options)  # fail fast, in this process
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    rec = str(records) if records is not None else None
    size = max(1, min(200, matches // (jobs * 8) or 1))
    chunks = [list(range(a, min(a + size, matches))) for a in range(0, matches, size)]
    results: list[MatchSummary] = []
    if jobs <= 1:
        for c in chunks:
            results.extend(_chunk(ruleset_name, options, seed, bots, c, rec))
            if on_progress:
                on_progress(len(c))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [
                pool.submit(_chunk, ruleset_name, dict(options), seed, list(bots), c, rec)
                for c in chunks
            ]
            for fut in as_completed(futures):
                part = fut.result()
                results.extend(part)
                if on_progress:
                    on_progress(len(part))
    results.sort(key=lambda s: s.index)
    return results
