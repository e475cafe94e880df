"""Adam (Kingma & Ba 2015) over a dict of numpy arrays, updating them in place."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

__all__ = ["Adam", "clip_by_global_norm"]

Params = dict[str, NDArray[np.float64]]


class Adam:
    def __init__(
        self,
        params: Params,
        lr: float = 3e-4,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
    ) -> None:
        self.params = params
        self.lr = lr
        self.b1, self.b2 = betas
        self.eps = eps
        self.t = 0
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}

    def step(self, grads: Params) -> None:
        self.t += 1
        c1 = 1.0 - self.b1**self.t
        c2 = 1.0 - self.b2**self.t
        for k, g in grads.items():
            self.m[k] = self.b1 * self.m[k] + (1.0 - self.b1) * g
            self.v[k] = self.b2 * self.v[k] + (1.0 - self.b2) * g * g
            self.params[k] -= self.lr * (self.m[k] / c1) / (np.sqrt(self.v[k] / c2) + self.eps)


def clip_by_global_norm(grads: Params, max_norm: float) -> float:
    """Scales the gradients in place so that their joint norm is at most `max_norm`; returns
    the norm before scaling."""
    norm = float(np.sqrt(sum(float((g * g).sum()) for g in grads.values())))
    if norm > max_norm > 0:
        scale = max_norm / norm
        for g in grads.values():
            g *= scale
    return norm
