"""Duplicate matches: each deal played twice, the bots swapping seats, scored as a pair.

A comparison of two bots on rolled log sheets mostly measures the dice: a strong sheet wins
whoever plays it. As in duplicate bridge, a *deal* (the match seed, and so both log sheets, the
styles and weapons rolled and every die the engine throws while the orders agree) is played
twice: in its first match the bots sit round the seats as given, in its second each bot takes
the next bot's seats, so that every bot plays every side of the deal. A pair scores the points
each bot took over its two matches (a win 1, a draw 1/2), halved: 1 for winning both, 1/2 for a
split, 0 for losing both. A split in which the same seats won both matches is a deal its sheets
decided (`decided`): the bots did not tell it apart. With the option `mirror` (DM1) the two sides
are twins, so no deal favours a side but by its place on the board.

Match i of a duplicate batch plays deal i // 2: `runner.match_seed`, `seat_bots` and
`seat_options` say how, and every path that plays a batch (processes, Ray, a resumed folder)
goes through them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gladiator.sim.report import wilson
from gladiator.sim.runner import MatchSummary, seat_bots

__all__ = ["PairScore", "pair_scores"]


@dataclass(frozen=True)
class PairScore:
    """One bot's duplicate score against another over the deals played whole."""

    bot: str
    against: str
    pairs: int
    score: float  # mean pair score, 0..1
    ci95: tuple[float, float]  # Wilson's, on the points over the pairs
    both: int  # deals it won twice
    split: int  # deals each bot won once (or drew twice)
    lost: int  # deals it lost twice
    decided: int  # splits in which the same seats won both matches: the sheets decided

    def to_dict(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "against": self.against,
            "pairs": self.pairs,
            "score": round(self.score, 4),
            "ci95": [round(x, 4) for x in self.ci95],
            "won_both": self.both,
            "split": self.split,
            "lost_both": self.lost,
            "decided_by_the_deal": self.decided,
        }


def _points(s: MatchSummary, bots: list[str], bot: str) -> float:
    """What `bot` took from one match: 1 a win of a side it played, 1/2 a draw, 0 a loss."""
    if not s.winners:
        return 0.5
    seats = list(s.labels)
    mine = {seat for i, seat in enumerate(seats) if bots[i % len(bots)] == bot}
    return 1.0 if mine & set(s.winners) else 0.0


def pair_scores(results: Sequence[MatchSummary], bots: Sequence[str]) -> list[PairScore]:
    """Each bot's duplicate score against the others (two bots: one row each), over the deals
    of which both matches were played."""
    names = list(dict.fromkeys(bots))
    if len(names) != 2:
        return []
    deals: dict[int, dict[int, MatchSummary]] = defaultdict(dict)
    for s in results:
        deals[s.index // 2][s.index % 2] = s
    whole = [(d[0], d[1]) for d in deals.values() if len(d) == 2]
    out = []
    for bot, other in (names, names[::-1]):
        scores = [
            (
                _points(a, seat_bots(bots, a.index, True), bot)
                + _points(b, seat_bots(bots, b.index, True), bot)
            )
            / 2
            for a, b in whole
        ]
        n = len(scores)
        total = sum(scores)
        decided = sum(
            1
            for (a, b), x in zip(whole, scores, strict=True)
            if x == 0.5 and a.winners and tuple(a.winners) == tuple(b.winners)
        )
        out.append(
            PairScore(
                bot,
                other,
                n,
                total / n if n else 0.0,
                wilson(total, n) if n else (0.0, 1.0),
                sum(1 for x in scores if x == 1.0),
                sum(1 for x in scores if x == 0.5),
                sum(1 for x in scores if x == 0.0),
                decided,
            )
        )
    return out
