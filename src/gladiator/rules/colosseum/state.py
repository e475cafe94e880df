"""The state of a Colosseum Basic Game match: plain mutable records, cheap to copy for search.

Log sheets (`LogSheet`) and critical records (`CriticalRecord`) are immutable values, so a copy
shares them. Nothing secret lives here: plots and allocations wait inside `Match` until both
seats have given theirs, and are written on the sheets only once revealed (§5.2.2, §9.4.1).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from gladiator.core.hexgrid import Hex, distance
from gladiator.rules.colosseum.beasts.beast_record import Beast
from gladiator.rules.colosseum.campaign.campaign_record import SeatTally
from gladiator.rules.colosseum.hits.body_hits import CriticalRecord
from gladiator.rules.colosseum.plots.plots import Posture
from gladiator.rules.colosseum.setup.roster import roster_of
from gladiator.rules.colosseum.sheet.logsheet import LogSheet

__all__ = ["SCHEMA", "ColosseumState", "Gladiator", "GroundItem", "Step"]

SCHEMA = "gladiator.colosseum-state"
Step = Literal["plot", "allocate", "over"]


@dataclass(frozen=True, slots=True)
class GroundItem:
    """A dropped weapon or shield lying on the arena floor (§13.2.3)."""

    item: Literal["weapon", "shield", "net"]  # a net (§20.8.2) only in the Advanced Game
    owner: str
    hex: Hex
    battered: bool = False
    # §21 (Advanced Game): which weapon (a T19 key, or weapons.BROKEN_TRIDENT) or "hook"; ""
    # in the Basic Game, where every weapon is a sword and every shield a shield.
    kind: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "item": self.item,
            "owner": self.owner,
            "hex": [self.hex.q, self.hex.r],
            "battered": self.battered,
            **({"kind": self.kind} if self.kind else {}),
        }


@dataclass(slots=True)
class Gladiator:
    seat: str
    sheet: LogSheet
    hex: Hex
    facing: int
    left_handed: bool = False
    posture: Posture = "standing"
    alive: bool = True
    cause: str = ""
    # §16.2: the way his last step went (a Roll or a push is no step of his), and, while he is
    # Prone, whether he lies face up (fell after stepping backward) or face down (forward).
    last_move: Literal["forward", "backward"] = "forward"
    prone_face: Literal["up", "down"] | None = None
    # §15.1, §15.3: he tripped and must write S next phase; `stumbling` while performing it.
    must_stumble: bool = False
    stumbling: bool = False
    # §5.2.1, §17.3 (Q3): movement phases used this turn; the extra phase used this/last turn.
    moves_used: int = 0
    exceeded_this_turn: bool = False
    exceeded_last_turn: bool = False
    crits: CriticalRecord = field(default_factory=CriticalRecord)
    # §10.5 SA: (area, turn, phase) of each severed artery, to bleed from the next phase on.
    arteries: tuple[tuple[str, int, int], ...] = ()
    has_weapon: bool = True
    has_shield: bool = True
    # §13.4.2: a weapon picked up this phase strikes at half CF.
    recovered_weapon: bool = False
    # §18.3 (Q7): CFs allocated to attack and to defence over the match.
    attack_used: int = 0
    defence_used: int = 0
    # This phase's combat, public once movement is over (§5.2.6.1).
    may_attack: bool = False
    pa: int = 0
    available: int = 0
    last_plot: str = ""
    last_allocation: str = ""
    # §19-§24 (Advanced Game; empty in the Basic Game): his fighting style (a T37 key), the
    # weapons in his hands (T19 keys: one, or a pair §24; none: unarmed §23), those he carries
    # for later (F3: a Velite's other javelins, a Hoplomachus's sword, a Retiarius's dagger),
    # whether he holds a net (§20) and whether his shield is the hook (§21.5). `has_weapon`
    # stays "a weapon in hand" for the Basic Game's rules (weapons.py keeps it so).
    style: str = ""
    weapons: tuple[str, ...] = ()
    spare: tuple[str, ...] = ()
    net: bool = False
    hook: bool = False
    # §28 (Advanced Game, option `beasts`): this seat is a beast, played by the engine; its hex
    # and facing are its head's (beasts.py). None for a gladiator.
    beast: Beast | None = None
    # §20 (Advanced Game; net_attacks.py, net_combat.py): the seat whose net ensnares him ("" if
    # free; nets.LOOSE once the holder has let go, §20.5.6); the phases (numbered across turns)
    # from which he may toss and swing again (§20.5.1, §20.6.2); this phase's net order as
    # revealed with his plot, the CF it costs (§20.3.2) and his Net Loss box (§3.16, Q31).
    ensnared: str = ""
    toss_ready: int = 0
    swing_ready: int = 0
    # ...and from which he may use it at all after casting it at nobody (§20.5.1.1, §20.6.3, N12)
    net_ready: int = 0
    net_order: str = ""
    net_cf: int = 0
    net_loss: int = 0
    # §27 (a team match; always empty in a duel): this phase's opponents he may attack, each
    # with his PA against him and his largest attack on him (8, or 8 + PA by §27.5, G10).
    targets: tuple[tuple[str, int, int], ...] = ()
    # §36 (Campaign Game, option `talents`; talents.py): his T36 codes, "WS:axe" and "MS:sword"
    # with their weapon. Empty for everyone else.
    talents: frozenset[str] = frozenset()

    def to_dict(self) -> dict[str, Any]:
        c = self.crits
        return {
            "seat": self.seat,
            "hex": [self.hex.q, self.hex.r],
            "facing": self.facing,
            "left_handed": self.left_handed,
            "posture": self.posture,
            "prone_face": self.prone_face,
            "last_move": self.last_move,
            "alive": self.alive,
            "cause": self.cause,
            "must_stumble": self.must_stumble,
            "stumbling": self.stumbling,
            "moves_used": self.moves_used,
            "exceeded_this_turn": self.exceeded_this_turn,
            "exceeded_last_turn": self.exceeded_last_turn,
            "criticals": {
                "helmet_lost": c.helmet_lost,
                "lmp": c.lmp,
                "stu": c.stu,
                "severed_arteries": list(c.severed_arteries),
                "mortal": c.mortal,
                "killed": c.killed,
            },
            "arteries": [list(a) for a in self.arteries],
            "has_weapon": self.has_weapon,
            "recovered_weapon": self.recovered_weapon,
            "has_shield": self.has_shield,
            "attack_used": self.attack_used,
            "defence_used": self.defence_used,
            "may_attack": self.may_attack,
            "pa": self.pa,
            "available": self.available,
            "last_plot": self.last_plot,
            "last_allocation": self.last_allocation,
            "sheet": self.sheet.to_dict(),
            "current_cf": self.sheet.current_cf,
            "stun": self.sheet.stun_in_effect,
            **(self._kit() if self.style else {}),
            **({"beast": self.beast.to_dict()} if self.beast is not None else {}),
            **({"targets": [list(t) for t in self.targets]} if self.targets else {}),
            **({"talents": sorted(self.talents)} if self.talents else {}),
        }

    def _kit(self) -> dict[str, Any]:
        return {
            "style": self.style,
            "weapons": list(self.weapons),
            "spare": list(self.spare),
            "net": self.net,
            "hook": self.hook,
            "ensnared": self.ensnared,
            "toss_ready": self.toss_ready,
            "swing_ready": self.swing_ready,
            **({"net_ready": self.net_ready} if self.net_ready else {}),  # N12, only once set
            "net_order": self.net_order,
            "net_cf": self.net_cf,
            "net_loss": self.net_loss,
        }

    @property
    def pose(self) -> tuple[Hex, int]:
        """Where he stands and the hex-side he faces, as the combat geometry takes them."""
        return (self.hex, self.facing)


@dataclass(slots=True)
class ColosseumState:
    options: dict[str, Any]
    gladiators: dict[str, Gladiator]
    turn: int = 1
    phase: int = 1  # §5.1: 1..8
    step: Step = "plot"
    items: list[GroundItem] = field(default_factory=list)
    # Hexes where a gladiator bled (a wound marked, or a severed artery): the blood on the sand
    # a front end draws. Play never reads it; like items it stays put in a §7.7 shift.
    blood: list[Hex] = field(default_factory=list)
    # §29.3 (option `solitaire`): the plots of the seats that move first, revealed before the
    # solitaire seats plot; emptied when the phase's movement is resolved.
    early_plots: dict[str, str] = field(default_factory=dict)
    # The Advanced Game (§19-§29; None and empty in the Basic Game). §25: the Arena Size (T38)
    # and the map edges marked as walls ("north", "east", "south", "west", walls.py); §26.2: the
    # Blood counters dropped round a cleaved body, which play reads (§26.3) and a shift leaves.
    arena_size: int | None = None
    walls: tuple[str, ...] = ()
    blood_counters: list[Hex] = field(default_factory=list)
    winners: tuple[str, ...] = ()
    end_method: str = ""
    end_summary: str = ""
    # §27 (a team match, G7): the men beaten and out of the fight (dead, or spared at the
    # Moment of Truth), taken off the sand at the end of their phase so that play goes on
    # among the rest. Always empty in a duel, which ends with its first beaten man.
    fallen: dict[str, Gladiator] = field(default_factory=dict)
    # §31.2, §35.5 (campaign_tally.py, X7, X8): what the match report reads besides the sheets;
    # kept for every match, read by no rule and written in no record.
    tally: dict[str, SeatTally] = field(default_factory=dict)

    def side(self, seat: str) -> int:
        """The side (0 or 1) of a seat in the match's roster (§27, G1; a pack's beasts, B11)."""
        return roster_of(self.options).side(seat)

    def opponents(self, seat: str) -> list[Gladiator]:
        """Everyone still in the fight on the other side (§27.1), in table order."""
        side = roster_of(self.options).side
        mine = side(seat)
        return [g for s, g in self.gladiators.items() if side(s) != mine]

    def allies(self, seat: str) -> list[Gladiator]:
        """His teammates still in the fight (§27), in table order; none in a duel."""
        side = roster_of(self.options).side
        mine = side(seat)
        return [g for s, g in self.gladiators.items() if s != seat and side(s) == mine]

    def opponent(self, seat: str) -> Gladiator:
        """The other gladiator of the duel; in a team match (G6) the nearest opponent still in
        the fight (ties: table order), or, with none left, the nearest fallen one."""
        if not self.options.get("teams"):
            return next(g for s, g in self.gladiators.items() if s != seat)
        here = (self.gladiators.get(seat) or self.fallen[seat]).hex
        mine = self.side(seat)
        pool = self.opponents(seat) or [
            g for g in self.fallen.values() if self.side(g.seat) != mine
        ]
        return min(pool, key=lambda g: distance(g.hex, here))

    def figure(self, seat: str) -> Gladiator:
        """A seat's gladiator, in the fight or fallen (G7)."""
        return self.gladiators.get(seat) or self.fallen[seat]

    def bleed(self, g: Gladiator) -> None:
        """Blood where `g` stands: each hex once, in the order first bled on."""
        if g.hex not in self.blood:
            self.blood.append(g.hex)

    def clone(self) -> ColosseumState:
        return replace(
            self,
            options=self.options,
            gladiators={s: replace(g) for s, g in self.gladiators.items()},
            items=list(self.items),
            blood=list(self.blood),
            early_plots=dict(self.early_plots),
            blood_counters=list(self.blood_counters),
            fallen=dict(self.fallen),
            tally=dict(self.tally),
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "schema": SCHEMA,
            "schema_version": 1,
            "options": copy.deepcopy(self.options),
            "gladiators": [g.to_dict() for g in self.gladiators.values()],
            "turn": self.turn,
            "phase": self.phase,
            "step": self.step,
            "items": [i.to_dict() for i in self.items],
            "blood": [[h.q, h.r] for h in self.blood],
            "winners": list(self.winners),
            "end_method": self.end_method,
            "end_summary": self.end_summary,
        }
        if self.early_plots:  # only while a solitaire phase waits: other records stay as they were
            out["early_plots"] = dict(self.early_plots)
        if self.options.get("advanced"):  # the Basic Game's records stay as they were
            out["arena"] = {"size": self.arena_size, "walls": list(self.walls)}
            out["blood_counters"] = [[h.q, h.r] for h in self.blood_counters]
        if self.options.get("teams"):  # §27 (G7): a duel's records stay as they were
            out["sides"] = [part.split("+") for part in self.options["teams"].split(":")]
            out["fallen"] = [g.to_dict() for g in self.fallen.values()]
        return out
