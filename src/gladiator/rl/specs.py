"""Which observation encoder and action mapping each ruleset uses (RL1-RL3)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from gladiator.core.decisions import Decision
from gladiator.rl.action_map import ActionMap, CandidateSlots, FixedVocabulary
from gladiator.rl.obs_colosseum import ColosseumEncoder
from gladiator.rl.obs_quick import QuickEncoder
from gladiator.rl.obs_skirmish import SkirmishEncoder
from gladiator.rl.vocabulary import quick_vocabulary, skirmish_vocabulary

__all__ = ["DEFAULT_SLOTS", "Encoder", "Spec", "spec_for"]

# RL3: how many candidate slots a Colosseum decision gets unless the env is told otherwise.
DEFAULT_SLOTS = 32


class Encoder(Protocol):
    size: int

    def encode(self, view: Mapping[str, Any], decision: Decision | None) -> np.ndarray: ...


@dataclass(frozen=True, slots=True)
class Spec:
    encoder: Encoder
    actions: ActionMap


def spec_for(
    ruleset: str, options: Mapping[str, Any], seats: Sequence[str], slots: int | None = None
) -> Spec:
    """The encoder and action mapping for a match with these normalised options; `slots`
    overrides the number of candidate slots (Colosseum) and is refused elsewhere."""
    if ruleset == "quick":
        _no_slots(ruleset, slots)
        return Spec(QuickEncoder(options), FixedVocabulary(quick_vocabulary(options)))
    if ruleset == "skirmish":
        _no_slots(ruleset, slots)
        return Spec(SkirmishEncoder(options), FixedVocabulary(skirmish_vocabulary(options)))
    if ruleset == "colosseum":
        return Spec(ColosseumEncoder(options, seats), CandidateSlots(slots or DEFAULT_SLOTS))
    raise ValueError(f"no RL environment for the ruleset {ruleset!r}")


def _no_slots(ruleset: str, slots: int | None) -> None:
    if slots is not None:
        raise ValueError(f"{ruleset} has a fixed action vocabulary; 'slots' is for colosseum")
