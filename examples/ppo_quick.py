"""PPO self-play on the quick rules, CPU-sized: trains against the random bot, then against
frozen snapshots of itself mixed with random, evaluating against random on fixed seeds every few
updates; writes the learning curve (JSON with the machine's details, and a PNG) and a final
evaluation over many matches with Wilson 95% intervals.

    nice -n 5 uv run python examples/ppo_quick.py            # the documented run (docs/rl/)
    uv run python examples/ppo_quick.py --smoke --out /tmp/x  # a few seconds, to see it work
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from gladiator.bots.greedy import GreedyBot
from gladiator.bots.random_legal import RandomBot
from gladiator.rl.evaluate import evaluate
from gladiator.rl.policy_bot import PolicyBot
from gladiator.rl.ppo import PPOConfig
from gladiator.rl.selfplay import TrainConfig, train
from gladiator.sim.machine import load_average, machine


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--updates-random", type=int, default=20)
    ap.add_argument("--updates-selfplay", type=int, default=20)
    ap.add_argument("--eval-every", type=int, default=10)
    ap.add_argument("--eval-matches", type=int, default=100)
    ap.add_argument("--final-matches", type=int, default=1000)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--out", type=Path, default=Path("docs/rl"))
    ap.add_argument("--smoke", action="store_true", help="a tiny run: 2+2 updates, 20 matches")
    args = ap.parse_args(argv)
    if args.smoke:
        args.updates_random, args.updates_selfplay, args.eval_every = 2, 2, 2
        args.eval_matches = args.final_matches = 20
    if min(args.updates_random, args.eval_every, args.eval_matches, args.final_matches) < 1:
        print("error: updates, eval-every and match counts must be at least 1", file=sys.stderr)
        return 2
    ppo = PPOConfig(lr=args.lr, steps_per_update=512 if args.smoke else 2048)
    cfg = TrainConfig(
        seed=args.seed,
        updates_vs_random=args.updates_random,
        updates_selfplay=args.updates_selfplay,
        eval_every=args.eval_every,
        eval_matches=args.eval_matches,
        snapshot_every=max(1, args.updates_selfplay // 5),
        ppo=ppo,
    )

    def show(row: dict[str, Any]) -> None:
        s = row["vs_random"]
        print(
            f"update {row['update']:4d}  steps {row['steps']:8d}  cpu {row['cpu_seconds']:7.1f}s"
            f"  vs random {s['win_rate']:.3f} [{s['ci95'][0]:.3f}, {s['ci95'][1]:.3f}]"
            f"  W/D/L {s['wins']}/{s['draws']}/{s['losses']}",
            flush=True,
        )

    result = train(cfg, show)
    cpu0 = time.process_time()
    final_seed = cfg.eval_seed + 1  # other seeds than the curve's
    final: dict[str, Any] = {"seed": final_seed}
    plan = [
        ("random", RandomBot, "greedy"),
        ("greedy", GreedyBot, "greedy"),
    ]
    for name, opponent, mode in plan:
        score = evaluate(
            cfg.ruleset,
            cfg.options,
            _agent(result.params, cfg, greedy=mode == "greedy"),
            opponent,
            args.final_matches,
            final_seed,
        )
        final[f"vs_{name}_{mode}"] = score.to_dict()
        print(f"final vs {name} ({mode} policy): {score.to_dict()}", flush=True)
    final["cpu_seconds"] = round(time.process_time() - cpu0, 1)

    args.out.mkdir(parents=True, exist_ok=True)
    doc = {
        "what": "PPO (numpy) on the quick rules: vs random, then self-play; greedy-policy "
        "win rate vs random on fixed seeds at each point (draws count as not won)",
        "command": "nice -n 5 uv run python examples/ppo_quick.py "
        + " ".join(argv or sys.argv[1:]),
        "machine": machine(),
        "load_average_at_end": load_average(),
        "config": cfg.to_dict(),
        "training": {
            "cpu_seconds": round(result.cpu_seconds, 1),
            "wall_seconds": round(result.wall_seconds, 1),
            "agent_steps": result.steps,
            "episodes_faced": result.faced,
        },
        "curve": result.curve,
        "final": final,
    }
    (args.out / "ppo-quick.json").write_text(json.dumps(doc, indent=1) + "\n")
    np.savez(args.out / "ppo-quick-weights.npz", **result.params)
    _plot(result.curve, cfg.updates_vs_random, args.out / "ppo-quick.png")
    print(f"wrote {args.out / 'ppo-quick.json'} and ppo-quick.png", flush=True)
    return 0


def _agent(params: dict[str, np.ndarray], cfg: TrainConfig, *, greedy: bool) -> Any:
    return lambda: PolicyBot(params, cfg.ruleset, cfg.options, greedy=greedy)


def _plot(curve: list[dict[str, Any]], switch: int, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = [r["update"] for r in curve]
    win = [r["vs_random"]["win_rate"] for r in curve]
    lo = [r["vs_random"]["ci95"][0] for r in curve]
    hi = [r["vs_random"]["ci95"][1] for r in curve]
    draw = [r["vs_random"]["draws"] / r["vs_random"]["matches"] for r in curve]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.fill_between(x, lo, hi, alpha=0.25, label="win rate 95% CI (Wilson)")
    ax.plot(x, win, marker="o", label="win rate vs random")
    ax.plot(x, draw, linestyle="--", label="draw rate vs random")
    ax.axvline(switch, color="grey", linewidth=1)
    ax.text(switch, 0.02, " self-play from here", color="grey")
    ax.set_xlabel("PPO update (2,048 agent steps each)")
    ax.set_ylabel("share of evaluation matches")
    ax.set_ylim(0, 1)
    ax.set_title("PPO on the quick rules: evaluation against the random bot")
    ax.legend(loc="center right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    raise SystemExit(main())
