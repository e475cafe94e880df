"""The dice of one campaign step: a `Dice` seeded from (campaign seed, step seq).

Each step gets its own stream, so replaying a campaign from its steps gives the same rolls, and a
refused step (which throws nothing away) cannot shift the dice of the steps after it.
"""

from __future__ import annotations

import hashlib

from gladiator.core.dice import Dice

__all__ = ["step_dice", "step_seed"]


def step_seed(seed: int, seq: int) -> int:
    digest = hashlib.sha256(f"gladiator-campaign:{seed}:{seq}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def step_dice(seed: int, seq: int) -> Dice:
    return Dice(step_seed(seed, seq))
