"""What every step handler works with: the copy of the state it changes, the step's dice and
ledger, the events it reports, and the checks of who may act."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gladiator.campaign.errors import CampaignError
from gladiator.campaign.ledger import Ledger
from gladiator.campaign.state import Bout, CampaignState, Career, Lanista
from gladiator.core.dice import Dice

__all__ = ["StepContext"]


@dataclass
class StepContext:
    state: CampaignState
    dice: Dice
    step: dict[str, Any]
    ledger: Ledger
    events: list[dict[str, Any]] = field(default_factory=list)

    def event(self, kind: str, text: str, rule: str = "", **data: Any) -> None:
        self.events.append({"kind": kind, "text": text, "rule": rule, **data})

    # -- reading the payload ---------------------------------------------------------------
    def field(self, name: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
        value = self.step.get(name, default)
        if value is ...:
            raise CampaignError(f"step {self.step.get('kind')!r} needs {name!r}")
        kinds = kind if isinstance(kind, tuple) else (kind,)
        # JSON's true is Python's 1: a number of sesterces or a side is never a yes or no.
        wrong = not isinstance(value, kind) or (isinstance(value, bool) and bool not in kinds)
        if value is not default and wrong:
            raise CampaignError(f"step {self.step.get('kind')!r}: {name!r} has the wrong type")
        return value

    # -- who acts --------------------------------------------------------------------------
    def actor(self) -> Lanista:
        """The acting lanista: known and still in the game (§37.6)."""
        actor = self.step.get("actor")
        if not isinstance(actor, str) or actor not in self.state.lanistas:
            raise CampaignError(f"step {self.step.get('kind')!r} needs an actor: a lanista id")
        lanista = self.state.lanistas[actor]
        if lanista.out is not None:
            raise CampaignError(f"lanista {actor} is out of the game ({lanista.out}, §37.6)")
        return lanista

    def no_actor(self) -> None:
        if self.step.get("actor") is not None:
            raise CampaignError(f"step {self.step.get('kind')!r} is the arena's, not a lanista's")

    def own_gladiator(self, lanista: Lanista, gid: Any) -> Career:
        career = self.gladiator(gid)
        if career.lanista != lanista.id:
            raise CampaignError(
                f"{career.name} ({gid}) is not lanista {lanista.id}'s gladiator: "
                "a lanista acts only for his own"
            )
        if career.status != "alive":
            raise CampaignError(f"{career.name} ({gid}) is {career.status}")
        return career

    def gladiator(self, gid: Any) -> Career:
        if not isinstance(gid, str) or gid not in self.state.gladiators:
            raise CampaignError(f"no gladiator {gid!r}")
        return self.state.gladiators[gid]

    def bout(self, bid: Any, *, scheduled: bool = True) -> Bout:
        if not isinstance(bid, str) or bid not in self.state.bouts:
            raise CampaignError(f"no bout {bid!r}")
        bout = self.state.bouts[bid]
        if scheduled and bout.status != "scheduled":
            raise CampaignError(f"bout {bid} is already settled")
        return bout

    def phase(self, *phases: str) -> None:
        if self.state.meta.phase not in phases:
            raise CampaignError(
                f"step {self.step.get('kind')!r} is not allowed while the campaign is "
                f"{self.state.meta.phase!r} (only {', '.join(phases)})"
            )
