"""A run of the random-legal checker (issue 27): which matches, played in a process pool, and the
figures per shape with the distinct failures grouped by cause.

The plan is a function of the number of matches, the seed and the shapes alone. Duels weigh as
much as every other shape together, so that a run of 240 matches or more meets all 120 unordered
pairings of the 15 styles (random_legal_shapes.STYLES; 105 pairs and 15 mirrors), each with its
seats in a random order; the options refuse those the rules forbid (§19.2.3, §28.2). The other
shapes deal their gladiators' styles from a shuffled deck of the styles the shape allows, so
every such style appears once the deck has been dealt through.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict
from typing import Any

from gladiator.sim.random_legal_play import CHECKS, Failure, Result, play_spec
from gladiator.sim.random_legal_shapes import (
    GLADIATORS,
    SHAPES,
    STYLES,
    MatchSpec,
    eligible_styles,
    ineligible_styles,
    paired,
    spec_for,
)
from gladiator.sim.runner import derive_seed

__all__ = ["PAIRINGS", "parse_shapes", "plan", "run_specs", "summarise"]

PAIRINGS: tuple[tuple[str, str], ...] = tuple(itertools.combinations_with_replacement(STYLES, 2))


def parse_shapes(text: str) -> tuple[str, ...]:
    """`duel,2v2` as shapes in the order given, each once; ValueError (one line) otherwise."""
    names = [s.strip().lower() for s in text.split(",") if s.strip()]
    if not names:
        raise ValueError(f"--shape names no shape; shapes: {', '.join(SHAPES)}")
    for name in names:
        if name not in SHAPES:
            raise ValueError(f"--shape: no shape {name!r}; shapes: {', '.join(SHAPES)}")
    return tuple(dict.fromkeys(names))


def plan(matches: int, seed: int, shapes: Sequence[str] = SHAPES) -> list[MatchSpec]:
    """The run's matches, spread over the shapes (interleaved, so a short run meets them all)."""
    counts = _counts(matches, shapes)
    slots = sorted(
        ((k + 0.5) / n, shapes.index(shape), shape, k)
        for shape, n in counts.items()
        for k in range(n)
    )
    decks = {shape: _deck(shape, seed) for shape in shapes}
    pairings = list(PAIRINGS)
    random.Random(derive_seed(seed, "pairings")).shuffle(pairings)
    out = []
    for _, _, shape, k in slots:
        match_seed = derive_seed(seed, shape, k)
        rng = random.Random(derive_seed(match_seed, "seats"))
        if shape == "duel":
            pair = list(pairings[k % len(pairings)])
            rng.shuffle(pair)  # which of the two is red
            styles: Sequence[str] = pair
        else:
            drawn = [next(decks[shape]) for _ in range(GLADIATORS[shape])]
            styles = paired(shape, drawn, rng)
        out.append(spec_for(shape, match_seed, styles))
    return out


def _counts(matches: int, shapes: Sequence[str]) -> dict[str, int]:
    """Matches per shape by weight (largest remainder): a duel weighs as the others together."""
    weights = {s: (max(1, len(shapes) - 1) if s == "duel" else 1) for s in shapes}
    total = sum(weights.values())
    exact = {s: matches * w / total for s, w in weights.items()}
    counts = {s: int(x) for s, x in exact.items()}
    for s in sorted(shapes, key=lambda s: (counts[s] - exact[s], shapes.index(s))):
        if sum(counts.values()) >= matches:
            break
        counts[s] += 1
    return counts


def _deck(shape: str, seed: int) -> Iterator[str]:
    """The styles `shape` allows, shuffled afresh each time round."""
    rng = random.Random(derive_seed(seed, "deck", shape))
    while True:
        cards = list(eligible_styles(shape))
        rng.shuffle(cards)
        yield from cards


def _play(spec: MatchSpec) -> Result:
    """One match in a worker; a crash of the checker itself is reported, not lost."""
    try:
        return play_spec(spec)
    except Exception as exc:
        result = Result(spec.shape, spec.seed, spec.styles, spec.beasts, {})
        first = str(exc).splitlines()[0] if str(exc) else ""
        result.add(Failure("setup", 0, exc_type=type(exc).__name__, message=first, reason=first))
        return result


def run_specs(
    specs: Sequence[MatchSpec], workers: int = 1, on_result: Callable[[Result], None] | None = None
) -> list[Result]:
    """Every spec played, in a pool of `workers` processes when more than one; in plan order."""
    if workers <= 1:
        out = []
        for spec in specs:
            out.append(_play(spec))
            if on_result is not None:
                on_result(out[-1])
        return out
    results: list[Result | None] = [None] * len(specs)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(_play, spec): i for i, spec in enumerate(specs)}
        for future in as_completed(futures):
            results[futures[future]] = future.result()
            if on_result is not None:
                on_result(future.result())
    return [r for r in results if r is not None]


def summarise(results: Sequence[Result], *, examples: int = 5) -> dict[str, Any]:
    """Figures per shape, the distinct failures grouped by cause (most matches first), and the
    first `examples` failed matches in full."""
    failed = [r for r in results if r.status == "fail"]
    return {
        "by_shape": {
            shape: _shape_figures(shape, [r for r in results if r.shape == shape])
            for shape in dict.fromkeys(r.shape for r in results)
        },
        "causes": _causes(failed),
        "unread_fields": dict(Counter(tag for r in results for tag in r.unread).most_common()),
        "refused_setups": dict(
            Counter(r.refusal for r in results if r.status == "refused").most_common()
        ),
        "failures": [r.to_dict() for r in failed[:examples]],
    }


def _shape_figures(shape: str, results: Sequence[Result]) -> dict[str, Any]:
    played = [r for r in results if r.status != "refused"]
    seen = {s for r in played for s in r.styles}
    by_check = Counter(c for r in results for c in dict.fromkeys(f.check for f in r.failures))
    figures: dict[str, Any] = {
        "matches": len(results),
        "played": len(played),
        "passed": sum(r.status == "pass" for r in results),
        "failed": sum(r.status == "fail" for r in results),
        "refused": len(results) - len(played),
        "by_check": {c: by_check[c] for c in CHECKS if by_check[c]},
        "styles_played": sorted(seen),
        "styles_not_played": [s for s in STYLES if s not in seen],
        "styles_refused_by_rules": ineligible_styles(shape),
        "decisions": dict(Counter(k for r in played for k in r.decisions)),
    }
    if shape == "duel":
        met = {tuple(sorted(r.styles)) for r in results}
        figures["pairings_met"] = sum(tuple(sorted(p)) in met for p in PAIRINGS)
        figures["pairings_played"] = len({tuple(sorted(r.styles)) for r in played})
    return figures


def _causes(failed: Sequence[Result]) -> list[dict[str, Any]]:
    """The failures grouped by cause: the check, the decision's class, the exception and where
    it was raised; each with its matches, shapes, styles, reasons and a first example."""
    groups: dict[str, list[tuple[Result, Failure]]] = defaultdict(list)
    for r in failed:
        for f in r.failures:
            kind = (f.decision or {}).get("class", "")
            groups[f"{f.check} | {kind} | {f.exc_type} | {f.where}"].append((r, f))
    out = []
    for cause, items in groups.items():
        r, f = items[0]
        matches = {id(r): r for r, _ in items}
        out.append(
            {
                "cause": cause,
                "matches": len(matches),
                "occurrences": sum(f.times for _, f in items),
                "shapes": dict(Counter(r.shape for r in matches.values())),
                "styles": dict(
                    Counter(s for r in matches.values() for s in r.styles).most_common()
                ),
                "reasons": dict(Counter(f.reason for _, f in items).most_common()),
                "example": {
                    "shape": r.shape,
                    "seed": r.seed,
                    "styles": list(r.styles),
                    "beasts": list(r.beasts),
                    **{k: v for k, v in asdict(f).items() if k != "times"},
                },
            }
        )
    return sorted(out, key=lambda c: (-c["matches"], -c["occurrences"], c["cause"]))
