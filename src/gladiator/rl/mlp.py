"""A small policy-and-value network on numpy: a tanh trunk shared by a masked-softmax policy head
and a scalar value head, with its gradients written out by hand (no autograd library here)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

__all__ = ["MLP", "Forward", "init_params", "masked_log_softmax"]

Array = NDArray[np.float64]
Params = dict[str, Array]


def init_params(
    rng: np.random.Generator, obs_dim: int, n_actions: int, hidden: tuple[int, ...] = (64, 64)
) -> Params:
    """Orthogonal weights (gain √2 in the trunk, 0.01 on the policy head so that the first
    policy is nearly uniform over the legal actions, 1 on the value head), zero biases."""
    params: Params = {}
    sizes = (obs_dim, *hidden)
    for i in range(len(hidden)):
        params[f"W{i}"] = _orthogonal(rng, sizes[i], sizes[i + 1], np.sqrt(2.0))
        params[f"b{i}"] = np.zeros(sizes[i + 1])
    params["Wpi"] = _orthogonal(rng, sizes[-1], n_actions, 0.01)
    params["bpi"] = np.zeros(n_actions)
    params["Wv"] = _orthogonal(rng, sizes[-1], 1, 1.0)
    params["bv"] = np.zeros(1)
    return params


def _orthogonal(rng: np.random.Generator, rows: int, cols: int, gain: float) -> Array:
    a = rng.standard_normal((max(rows, cols), min(rows, cols)))
    q, r = np.linalg.qr(a)
    q = q * np.sign(np.diag(r))  # makes the decomposition unique, so the draw is uniform
    w = q if rows >= cols else q.T
    return np.ascontiguousarray(gain * w[:rows, :cols])


def masked_log_softmax(logits: Array, mask: NDArray[np.bool_]) -> Array:
    """log π over the legal actions; illegal ones get −inf, so their probability is exactly 0
    and no sampling, however lucky, can pick them."""
    z = np.where(mask, logits, -np.inf)
    top = z.max(axis=-1, keepdims=True)
    shifted = z - top
    with np.errstate(divide="ignore"):
        out: Array = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return out


@dataclass
class Forward:
    logp: Array  # (n, actions) log π, −inf where masked
    value: Array  # (n,)
    hidden: list[Array]  # each layer's tanh output, the input first
    mask: NDArray[np.bool_]


class MLP:
    """The network's arithmetic; the parameters are a plain dict so that Adam, snapshots and
    JSON see the same arrays."""

    def __init__(self, params: Params) -> None:
        self.params = params
        self.layers = sum(1 for k in params if k.startswith("W") and k[1:].isdigit())

    def forward(self, obs: Array, mask: NDArray[np.bool_]) -> Forward:
        h = np.asarray(obs, dtype=np.float64)
        hidden = [h]
        for i in range(self.layers):
            h = np.tanh(h @ self.params[f"W{i}"] + self.params[f"b{i}"])
            hidden.append(h)
        logits = h @ self.params["Wpi"] + self.params["bpi"]
        value = (h @ self.params["Wv"] + self.params["bv"])[:, 0]
        return Forward(masked_log_softmax(logits, mask), value, hidden, mask)

    def backward(self, fwd: Forward, d_logits: Array, d_value: Array) -> Params:
        """Gradients of a loss given its gradients at the policy logits and at the value."""
        grads: Params = {}
        top = fwd.hidden[-1]
        d_logits = np.where(fwd.mask, d_logits, 0.0)
        grads["Wpi"] = top.T @ d_logits
        grads["bpi"] = d_logits.sum(axis=0)
        dv = d_value[:, None]
        grads["Wv"] = top.T @ dv
        grads["bv"] = dv.sum(axis=0)
        dh = d_logits @ self.params["Wpi"].T + dv @ self.params["Wv"].T
        for i in reversed(range(self.layers)):
            dpre = dh * (1.0 - fwd.hidden[i + 1] ** 2)
            grads[f"W{i}"] = fwd.hidden[i].T @ dpre
            grads[f"b{i}"] = dpre.sum(axis=0)
            if i:
                dh = dpre @ self.params[f"W{i}"].T
        return grads
