"""How fast the Gymnasium environment steps, saved as JSON with the machine's details:

    uv run python -m gladiator.rl.bench --ruleset quick --episodes 200 --out bench/rl-quick.json

Random legal actions against the chosen opponent; reports agent steps per second and episodes
per second (CPU time of this process)."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from gladiator.rl.gym_env import GladiatorEnv
from gladiator.sim.machine import load_average, machine

__all__ = ["measure"]


def measure(ruleset: str, episodes: int, opponent: str, options: dict[str, Any]) -> dict[str, Any]:
    env = GladiatorEnv(ruleset, opponent=opponent, options=options)
    rng = np.random.default_rng(0)
    steps = 0
    start = time.process_time()
    for i in range(episodes):
        _, info = env.reset(seed=i)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, _, done, _, info = env.step(action)
            steps += 1
    cpu = time.process_time() - start
    return {
        "schema": "gladiator.rl-bench",
        "schema_version": 1,
        "ruleset": ruleset,
        "opponent": opponent,
        "options": options,
        "episodes": episodes,
        "agent_steps": steps,
        "cpu_seconds": round(cpu, 3),
        "steps_per_cpu_second": round(steps / cpu, 1),
        "episodes_per_cpu_second": round(episodes / cpu, 2),
        "machine": machine(),
        "load_average": load_average(),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ruleset", default="quick")
    p.add_argument("--episodes", type=int, default=200)
    p.add_argument("--opponent", default="random")
    p.add_argument("--options", default="{}", help="match options as JSON")
    p.add_argument("--out", type=Path)
    a = p.parse_args()
    result = measure(a.ruleset, a.episodes, a.opponent, json.loads(a.options))
    text = json.dumps(result, indent=2)
    if a.out:
        a.out.write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
