"""Which opponent model explains the opponent's orders so far (MC12).

The search bot's Colosseum one-ply games (MC6, MC7) play against opponent models, the two
heuristic Colosseum bots, and take the worst of them: safe, but against a player who is plainly
one of them it pays for caution against the other. So each allocation the bot draws each model's
order on the opponent's own decision (it does so anyway, as the game's columns), keeps the draws,
and when that allocation has been revealed (§9.4.1: both are written on the log sheets and shown)
it weighs each model by how near its draws came to what he really did:

    likelihood(model) = floor + (1 - floor) * mean over draws of exp(-distance / scale)

with the distance the CF points that differ, area by area, attack and defence. The floor keeps
one odd order from settling much: with the defaults one clear miss (while the other model hit)
puts a model just under `cut` and out of the game, and a later hit brings it back. A player
who is like neither keeps both (their likelihoods stay alike, near the floor), and the games
stay as cautious as before; so does a model whose own draws scatter (the centurion's chart).

Only what every seat sees is read (the revealed last allocation), so the belief holds no secret.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from gladiator.rules.colosseum.combat.cf_allocation import parse_allocation
from gladiator.rules.colosseum.state import ColosseumState

__all__ = ["ModelBelief", "allocation_distance"]

Key = tuple[int, int]  # (turn, phase) of the allocation step


def allocation_distance(a: str, b: str) -> float | None:
    """CF points that differ between two allocation texts, attack and defence area by area;
    None if either does not read."""
    try:
        x, y = parse_allocation(a, 10_000), parse_allocation(b, 10_000)
    except ValueError:
        return None
    return float(
        sum(abs(p - q) for p, q in zip(x.attack, y.attack, strict=True))
        + sum(abs(p - q) for p, q in zip(x.defence, y.defence, strict=True))
    )


class ModelBelief:
    """A posterior over opponent models, from his revealed allocations."""

    def __init__(
        self, models: Sequence[str], *, scale: float = 2.0, floor: float = 0.1, cut: float = 0.1
    ) -> None:
        self.models = tuple(models)
        self.scale = scale
        self.floor = floor
        self.cut = cut
        self.reset()

    def reset(self) -> None:
        self.log_weight = dict.fromkeys(self.models, 0.0)
        self.observed = 0
        self._open: dict[Key, tuple[str, dict[str, list[str]]]] = {}
        self._latest: Key = (0, 0)

    # -- what the bot tells it -----------------------------------------------------------------
    def expect(self, state: ColosseumState, other: str, draws: dict[str, list[str]]) -> None:
        """Each model's draws of `other`'s allocation at this step."""
        self.seen(state, other)
        self._open[(state.turn, state.phase)] = (other, {m: list(t) for m, t in draws.items()})

    def seen(self, state: ColosseumState, other: str) -> None:
        """Read what has been revealed since the last call: each allocation expected at an
        earlier step is scored against the opponent's last revealed one. A state from before
        the latest seen (another match) starts afresh."""
        key = (state.turn, state.phase)
        if key < self._latest:
            self.reset()
        self._latest = key
        g = state.gladiators.get(other) or state.fallen.get(other)
        for k in sorted(self._open):
            if k >= key:
                continue
            seat, draws = self._open.pop(k)
            if g is None or seat != other or not g.last_allocation:
                continue
            self._score(g.last_allocation, draws)

    def _score(self, actual: str, draws: dict[str, list[str]]) -> None:
        scored = False
        for model, texts in draws.items():
            if model not in self.log_weight:
                continue
            near = [d for t in texts if (d := allocation_distance(actual, t)) is not None]
            if not near:
                continue
            fit = sum(math.exp(-d / self.scale) for d in near) / len(near)
            self.log_weight[model] += math.log(self.floor + (1.0 - self.floor) * fit)
            scored = True
        self.observed += scored

    # -- what it says --------------------------------------------------------------------------
    def weights(self) -> dict[str, float]:
        top = max(self.log_weight.values())
        raw = {m: math.exp(w - top) for m, w in self.log_weight.items()}
        total = sum(raw.values())
        return {m: v / total for m, v in raw.items()}

    def plausible(self) -> tuple[str, ...]:
        """The models still in the game, in their given order (never none)."""
        w = self.weights()
        kept = tuple(m for m in self.models if w[m] >= self.cut)
        return kept or self.models
