"""What the engine reports of a finished fight, per seat (the contract's `campaign_report`),
read strictly enough to refuse a malformed one in one line. Keys the engine adds later are
ignored."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from gladiator.campaign.errors import CampaignError

__all__ = ["Carry", "Kill", "SeatReport", "parse_fight_report"]


class _Report(BaseModel):
    model_config = ConfigDict(extra="ignore")


class Kill(_Report):
    victim: str
    turn: int = Field(ge=1)
    kind: Literal["slow", "quick"]


class Carry(_Report):
    wounds: list[int] = Field(min_length=5, max_length=5)
    cf_lost_other: int = 0
    st_lost: int = 0
    ag_lost: int = 0


class SeatReport(_Report):
    seat: str
    name: str = ""
    result: Literal["victory", "defeat", "draw"]
    alive: bool
    mortal: bool = False
    missus: bool = False
    opponent_missus: bool = False
    stans_missus: bool = False
    attack_cf: int = Field(default=0, ge=0)
    defense_cf: int = Field(default=0, ge=0)
    kills: list[Kill] = Field(default_factory=list)
    wounds: list[int] = Field(default_factory=lambda: [0] * 5, min_length=5, max_length=5)
    cleaved: bool = False
    turns: int = 0
    opponents: list[str] = Field(default_factory=list)
    carry: Carry | None = None


def parse_fight_report(raw: Any, seats: set[str]) -> dict[str, SeatReport]:
    """One fight's report: every gladiator seat of the fight, nothing else (beasts may be
    left out: they have no career)."""
    if not isinstance(raw, dict):
        raise CampaignError("a fight report is an object of seat reports")
    out: dict[str, SeatReport] = {}
    for seat, entry in raw.items():
        if seat not in seats:
            raise CampaignError(f"the report names seat {seat!r}, which is not in this fight")
        try:
            out[seat] = SeatReport.model_validate({"seat": seat, **entry})
        except (ValidationError, TypeError) as exc:
            first = exc.errors()[0] if isinstance(exc, ValidationError) else {"msg": str(exc)}
            where = ".".join(str(p) for p in first.get("loc", ()))
            raise CampaignError(f"report of seat {seat}: {where} {first['msg']}") from None
    return out
