"""The ladder as a picture: the ratings with their 95% intervals, and the score of each bot
against each other (draws half)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["matches_text", "plot_ladder"]


def matches_text(data: dict[str, Any]) -> str:
    """How many matches a pairing played: "500 matches a pairing; greedy's 40"."""
    text = f"{data['matches_per_pairing']} matches a pairing"
    for bot, n in sorted(data.get("matches_with", {}).items()):
        text += f"; {bot}'s {n}"
    return text


def plot_ladder(data: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = data["ratings"]
    bots = [r["bot"] for r in rows]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
    elo = [r["elo"] for r in rows]
    ci = [r["ci95"] or [r["elo"], r["elo"]] for r in rows]
    # max(0, ...): an interval drawn from a small sample need not hold the full fit's value.
    err = [
        [max(0.0, e - lo) for e, (lo, _) in zip(elo, ci, strict=True)],
        [max(0.0, hi - e) for e, (_, hi) in zip(elo, ci, strict=True)],
    ]
    left.errorbar(range(len(bots)), elo, yerr=err, fmt="o", capsize=5)
    left.set_xticks(range(len(bots)), bots)
    left.set_ylabel(f"Elo ({data['rating_model']['anchor']} = 0)")
    left.set_title(f"{data['ruleset']}: ratings, 95% bootstrap intervals")
    left.grid(axis="y", alpha=0.3)

    index = {b: i for i, b in enumerate(bots)}
    grid = [[float("nan")] * len(bots) for _ in bots]
    for p in data["pairings"]:
        i, j = index[p["a"]], index[p["b"]]
        grid[i][j] = p["a_score"]
        grid[j][i] = 1 - p["a_score"]
    image = right.imshow(grid, vmin=0, vmax=1, cmap="RdBu")
    right.set_xticks(range(len(bots)), bots)
    right.set_yticks(range(len(bots)), bots)
    for i in range(len(bots)):
        for j in range(len(bots)):
            if grid[i][j] == grid[i][j]:  # not NaN
                right.text(j, i, f"{grid[i][j]:.2f}", ha="center", va="center")
    right.set_title(f"score of row against column ({matches_text(data)})")
    fig.colorbar(image, ax=right, fraction=0.046)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
