"""CPU seconds per decision, kept so that pairings merge: count, sum, max and a histogram in
log bins (20 a decade from 1 µs), from which a merged p95 is read to within a bin (~12%)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["CpuTimes"]

_PER_DECADE = 20
_FLOOR = 1e-6


def _bin(seconds: float) -> int:
    if seconds <= _FLOOR:
        return 0
    return 1 + math.floor(math.log10(seconds / _FLOOR) * _PER_DECADE)


def _upper(b: int) -> float:
    return _FLOOR * 10 ** (b / _PER_DECADE)


@dataclass
class CpuTimes:
    count: int = 0
    total: float = 0.0
    max: float = 0.0
    bins: dict[int, int] = field(default_factory=dict)

    def add_all(self, seconds: Iterable[float]) -> None:
        for s in seconds:
            self.count += 1
            self.total += s
            self.max = max(self.max, s)
            b = _bin(s)
            self.bins[b] = self.bins.get(b, 0) + 1

    def merge(self, other: CpuTimes) -> None:
        self.count += other.count
        self.total += other.total
        self.max = max(self.max, other.max)
        for b, n in other.bins.items():
            self.bins[b] = self.bins.get(b, 0) + n

    @property
    def mean(self) -> float:
        return self.total / self.count if self.count else 0.0

    def quantile(self, q: float) -> float:
        """The upper edge of the bin holding the q-quantile (never above the max)."""
        if not self.count:
            return 0.0
        need = q * self.count
        seen = 0
        for b in sorted(self.bins):
            seen += self.bins[b]
            if seen >= need:
                return min(_upper(b), self.max)
        return self.max

    def to_dict(self) -> dict[str, Any]:
        return {
            "decisions": self.count,
            "mean_s": self.mean,
            "p95_s": self.quantile(0.95),
            "max_s": self.max,
            "total_s": self.total,
            "bins": {str(b): n for b, n in sorted(self.bins.items())},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CpuTimes:
        return cls(
            count=int(data["decisions"]),
            total=float(data["total_s"]),
            max=float(data["max_s"]),
            bins={int(b): int(n) for b, n in data["bins"].items()},
        )
