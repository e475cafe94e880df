"""A self-contained timing workload that any build of gladiator can run, old or new.

`sim.compare` passes this file to each checkout's own Python (`python -P workload.py ...`, so
that the file's folder does not shadow that checkout's package), so it may use only what every
build has: the registry, `Ruleset.normalise_options/initial_state/pending/apply/outcome`,
`Decision.sample` and `Dice` with its log. It plays seeded random-legal matches and prints one
JSON object: per mode, the time, decisions, dice thrown (faces in the log, since older builds
count no dice) and a digest of every outcome and face, so a comparison can also tell whether
two builds play the same matches.

`--options` is a JSON object of raw match options (a bench shape's, `sim.shapes`), normalised
by the build's own ruleset, so that both builds play the same matches with no option of their
command lines in common.

Modes: `loud` applies as every build can; `quiet` passes `quiet=True` where the build's
`apply` takes it (say so in `quiet_supported`), else applies loudly.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import inspect
import json
import random
import sys
import time
from collections.abc import Callable
from typing import Any

MODES = ("loud", "quiet")


def _play(ruleset: Any, options: Any, seed: int, quiet: bool, dice_cls: Any) -> tuple[int, Any]:
    dice = dice_cls(seed)
    state, _ = ruleset.initial_state(options, dice)
    rng = random.Random(f"{seed}:bots")
    apply: Callable[..., Any] = ruleset.apply
    kwargs = {"quiet": True} if quiet else {}
    steps = 0
    while (outcome := ruleset.outcome(state)) is None:
        pending = ruleset.pending(state)
        apply(state, {s: d.sample(rng) for s, d in pending.items()}, dice, **kwargs)
        steps += 1
    return steps, (outcome, dice.log)


def _raw_options(ap: argparse.ArgumentParser, text: str) -> dict[str, Any]:
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        ap.error(f"--options is not JSON: {exc}")
    if not isinstance(raw, dict):
        ap.error("--options must be a JSON object")
    return raw


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--ruleset", default="quick")
    ap.add_argument("--matches", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--modes", default="loud,quiet")
    ap.add_argument("--gc", choices=("default", "tuned"), default="default")
    ap.add_argument("--blocks", type=int, default=5)
    ap.add_argument("--options", default="{}", help="raw match options, a JSON object")
    args = ap.parse_args(argv)
    raw_options = _raw_options(ap, args.options)
    modes = [m for m in args.modes.split(",") if m]
    for m in modes:
        if m not in MODES:
            ap.error(f"unknown mode {m!r}; known: {', '.join(MODES)}")

    import gladiator
    from gladiator import registry
    from gladiator.core.dice import Dice

    ruleset = registry.get(args.ruleset)
    options = ruleset.normalise_options(raw_options)
    quiet_supported = "quiet" in inspect.signature(ruleset.apply).parameters
    seeds = [args.seed * 1_000_003 + i for i in range(args.matches)]
    for m in modes:  # warm up every path once: lazy imports, caches
        _play(ruleset, options, 2**62 + args.seed, m == "quiet" and quiet_supported, Dice)
    if args.gc == "tuned":
        gc.collect()
        gc.freeze()
        gc.set_threshold(50_000, *gc.get_threshold()[1:])

    out: dict[str, dict[str, Any]] = {
        m: {"seconds": 0.0, "cpu_seconds": 0.0, "decisions": 0, "dice_thrown": 0, "rolls": 0}
        for m in modes
    }
    digests = {m: hashlib.sha256() for m in modes}
    size = max(1, -(-len(seeds) // args.blocks))
    # Interleaved blocks, the order of the modes alternating, so load changes hit both alike.
    for b, start in enumerate(range(0, len(seeds), size)):
        for m in modes if b % 2 == 0 else modes[::-1]:
            o, h = out[m], digests[m]
            quiet = m == "quiet" and quiet_supported
            results = []
            wall, cpu = time.perf_counter(), time.process_time()
            for seed in seeds[start : start + size]:
                results.append(_play(ruleset, options, seed, quiet, Dice))
            o["seconds"] += time.perf_counter() - wall
            o["cpu_seconds"] += time.process_time() - cpu
            for steps, (outcome, log) in results:
                o["decisions"] += steps
                o["rolls"] += len(log)
                o["dice_thrown"] += sum(len(r.faces) for r in log)
                faces = [f for r in log for f in r.faces]
                h.update(json.dumps([list(outcome.winners), outcome.method, faces]).encode())
    for m in modes:
        o = out[m]
        o["matches"] = len(seeds)
        o["matches_per_second"] = len(seeds) / o["seconds"]
        o["decisions_per_second"] = o["decisions"] / o["seconds"]
        o["us_per_die"] = o["seconds"] / o["dice_thrown"] * 1e6 if o["dice_thrown"] else None
        o["digest"] = digests[m].hexdigest()
    try:
        import resource

        max_rss_kib: int | None = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    except ImportError:
        max_rss_kib = None
    print(
        json.dumps(
            {
                "ruleset": args.ruleset,
                "seed": args.seed,
                "gc": args.gc,
                "quiet_supported": quiet_supported,
                "package": str(gladiator.__file__),
                "python": sys.version.split()[0],
                "max_rss_kib": max_rss_kib,
                "modes": out,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
