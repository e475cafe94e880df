"""The campaign's state (§30-§37): meta, lanistas, gladiators' careers and bouts.

Four collections of models with an `id` each, so a store can keep one row per item. Plain
versioned data (`schema: 1`); every change goes through `steps.apply_step`, which works on a
copy, so a refused step leaves the state as it was.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from gladiator.campaign.tables import MatchType

__all__ = [
    "Bout",
    "CampaignOptions",
    "CampaignState",
    "Career",
    "Lanista",
    "Lot",
    "Meta",
    "Record",
    "Side",
    "SideBet",
    "Standing",
    "UniqueMatch",
    "Wager",
    "state_digest",
]

Phase = Literal["setup", "munus", "between", "over"]
Status = Literal["alive", "dead", "retired", "free", "for_sale"]


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CampaignOptions(Model):
    """The readings and optional rules a campaign is played with (docs/rulings.md, L series)."""

    # §37.2 "rolled": five gladiators and 2,000 sesterces; §37.2.1 "bought": 4,000 and buy 4-6.
    stables: Literal["rolled", "bought"] = "rolled"
    # §33 (optional in the book, on in the Campaign here); Q13: the DRMs go on the 3D6 "roll"
    # (clamped 3-18) or on the "rating".
    social_origin: bool = True
    social_origin_drm: Literal["roll", "rating"] = "roll"
    # §34: customised armour bought from the lanista's purse.
    custom_armour: bool = False
    # §30.2.3.1 NOTE: the lanista chooses the style within the category (the bot: its policy).
    choose_style: bool = False
    # §37.4, L1: "odds" (Q47: the offerer stakes k times the offeree's stake) or "even" (both
    # stake the forced amount).
    wager_payout: Literal["odds", "even"] = "odds"
    # §37.7: the set number of munera, after which the richest lanista wins.
    munera: int = Field(default=10, ge=1, le=500)
    # §37.3.1: 1,000 per lanista per match in the Colosseum (Arena Size 1).
    colosseum_bonus: bool = True
    # L18 (a design option, not the book's; 0 = the book): sesterces the editor of the games pays
    # a lanista for each of his men who fights a bout, as the lanistas of Rome were paid. The
    # book's economy has no income but bets and §37.3.1's bonus, so with bots that fight to the
    # kill most stables die out within ten munera; a fee lets a long campaign be studied.
    appearance_fee: int = Field(default=0, ge=0, le=10_000)
    # L10: "fortune" (§37.7, the lanistas' game) or "freedom" (the Campaign preface: the first
    # lanista whose gladiator wins ten victories wins at once).
    goal: Literal["fortune", "freedom"] = "fortune"


class Lot(Model):
    """§37.5: one gladiator for sale and the sealed bids on him (L12)."""

    gladiator: str
    bids: dict[str, int] = Field(default_factory=dict)
    seller: str | None = None  # L20: a lanista selling his own man; None: the school (§37.5)


class Standing(Model):
    """Where each lanista stood after a munus (0: at the start): his purse and living men."""

    munus: int
    purses: dict[str, int]
    men: dict[str, int]


class Meta(Model):
    id: str
    schema_: Literal[1] = Field(default=1, alias="schema")
    name: str
    seed: int
    options: CampaignOptions = Field(default_factory=CampaignOptions)
    seq: int = 0
    munus: int = 0
    phase: Phase = "setup"
    winner: str | None = None
    arena_size: int | None = None  # this munus's T38 roll (Q22: once per series)
    lost: dict[str, int] = Field(default_factory=dict)  # lanista -> gladiators lost this munus
    lots: list[Lot] = Field(default_factory=list)  # §37.5: the gladiators on sale
    # L15: the lanistas who said they are done for now (odds and armour in a munus; XP and bids
    # between munera), and the men each entered for the next munus (his living men by default).
    ready: list[str] = Field(default_factory=list)
    entries: dict[str, list[str]] = Field(default_factory=dict)
    # §30.2.3.1 NOTE (option choose_style): gladiator -> the styles he would fight in, best first.
    preferences: dict[str, list[str]] = Field(default_factory=dict)
    timeline: list[Standing] = Field(default_factory=list)  # one per munus closed, and the start
    next_id: int = 1

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class Lanista(Model):
    id: str
    name: str
    kind: Literal["human", "bot"] = "bot"
    bot: str | None = "steady"
    purse: int = 0  # mirrors the ledger's "lanista:<id>" account
    out: str | None = None  # §37.6: why he is out of the game


class Record(Model):
    """§30.3: V, S (stans missus) and M (missus) make the record; defeats are kept apart."""

    victories: int = 0
    stans: int = 0
    missus: int = 0
    defeats: int = 0

    @property
    def total(self) -> int:
        return self.victories + self.stans + self.missus


class Career(Model):
    id: str
    lanista: str | None  # None: the house (challengers, gladiators for sale)
    status: Status = "alive"
    name: str
    tr: int
    st: int
    ag: int
    cn: int
    w: int
    xp: int = 0  # §3.8, §31: his sheet's experience, kept from match to match
    prestige: int = 0
    origin: str | None = None
    # §3.7, §36: his sheet's talents ("FA", "WS:axe", "MS:sword"), written on every match's sheet
    talents: list[str] = Field(default_factory=list)
    bought_as: str | None = None  # §37.2.1: the T37 style he was bought as (L8)
    record: Record = Field(default_factory=Record)
    champion: bool = False  # an arena Champion (§30.2.1.1); challengers only
    history: list[dict[str, Any]] = Field(default_factory=list)

    def has(self, code: str) -> bool:
        return any(t.split(":")[0] == code for t in self.talents)

    @property
    def cf(self) -> int:
        """§3.11.2, Q43: CF = TR + ST + AG, from the current ratings."""
        return self.tr + self.st + self.ag


class Side(Model):
    """One side of a bout: its gladiators and the lanista they fight for (None: the house)."""

    lanista: str | None
    gladiators: list[str]


class Wager(Model):
    """§37.4: the bet of the two sides' lanistas (or a lanista and the bank, L3)."""

    offerer: str | None = None  # who offered the odds; None while at the minimum 1-1
    odds: int = 1
    stakes: dict[str, int] = Field(default_factory=dict)  # account -> sesterces in escrow


class UniqueMatch(Model):
    """§30.2.1.1's Unique Match as set up (P4, L4): his side of `men` (he and the house's),
    against `opponents` house challengers or `beasts` random beasts."""

    name: str = "Unique Match"
    men: int = Field(default=1, ge=1)
    opponents: int = Field(default=0, ge=0)
    beasts: int = Field(default=0, ge=0)
    sine_missione: bool = False
    by: str | None = None  # the lanista who set it up; None: the match-maker


class SideBet(Model):
    """§37.4.1: a side bet on a bout, offered by one lanista for any taker (or one named) at
    the odds he sets: he stakes `stake` on side `backs`, the taker `takes` on the other side."""

    id: str
    offerer: str
    backs: int  # the index of the side of the bout he backs
    stake: int
    takes: int
    to: str | None = None  # the only lanista who may take it; None: any
    taker: str | None = None
    declined: list[str] = Field(default_factory=list)
    status: Literal["offered", "taken", "withdrawn", "returned", "won", "lost"] = "offered"


class Bout(Model):
    id: str
    munus: int
    type: MatchType
    sine_missione: bool = False
    categories: list[str] = Field(default_factory=list)  # T32: the gladiator's, the challenger's
    sides: list[Side]
    styles: dict[str, str] = Field(default_factory=dict)  # gladiator id -> T37 style
    seats: list[dict[str, str]] = Field(default_factory=list)  # per fight: seat -> gladiator/beast
    fights: list[dict[str, Any]] = Field(default_factory=list)  # engine options per fight
    matches: list[str] = Field(default_factory=list)
    armour: dict[str, dict[str, Any]] = Field(default_factory=dict)  # §34: gladiator -> bought
    wager: Wager | None = None
    status: Literal["scheduled", "settled"] = "scheduled"
    outcome: str | None = None  # "side0" / "side1" / "draw" once settled
    reports: list[dict[str, Any]] = Field(default_factory=list)
    side_bets: list[SideBet] = Field(default_factory=list)  # §37.4.1
    unique: UniqueMatch | None = None  # §30.2.1.1: a Unique Match's set-up
    # The human lanistas who asked a bot to fight their men in this bout instead of the arena.
    bot_fights: list[str] = Field(default_factory=list)

    def gladiators(self) -> list[str]:
        return [g for s in self.sides for g in s.gladiators]

    def lanistas(self) -> list[str]:
        return [s.lanista for s in self.sides if s.lanista is not None]


class CampaignState(Model):
    meta: Meta
    lanistas: dict[str, Lanista] = Field(default_factory=dict)
    gladiators: dict[str, Career] = Field(default_factory=dict)
    bouts: dict[str, Bout] = Field(default_factory=dict)

    def active_lanistas(self) -> list[Lanista]:
        return [lanista for lanista in self.lanistas.values() if lanista.out is None]

    def stable(self, lanista: str) -> list[Career]:
        return [g for g in self.gladiators.values() if g.lanista == lanista and g.status == "alive"]

    def munus_bouts(self, munus: int | None = None) -> list[Bout]:
        n = self.meta.munus if munus is None else munus
        return [b for b in self.bouts.values() if b.munus == n]

    def new_id(self, prefix: str) -> str:
        n = self.meta.next_id
        self.meta.next_id += 1
        return f"{prefix}{n}"

    def standing(self) -> Standing:
        return Standing(
            munus=self.meta.munus,
            purses={lid: lanista.purse for lid, lanista in self.lanistas.items()},
            men={lid: len(self.stable(lid)) for lid in self.lanistas},
        )

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json", by_alias=True)


def state_digest(state: CampaignState) -> str:
    """A SHA-256 of the state's canonical JSON, for the store to check a replay against."""
    text = json.dumps(state.to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()
