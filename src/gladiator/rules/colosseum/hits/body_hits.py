"""A body hit (H, §10.1-§10.5): the wound roll, the wounds marked on the defender's log sheet and
the critical hit they may cause, as a pure function of the sheet and the match's dice; and the
lasting critical results the sheet has no box for, added up over a match.

`body_hit` throws one 5D6 and returns the new sheet and a `HitOutcome`, whose events are dicts
`{"type", "rule", "text"}` whose text ends with the rule section, e.g. "... (§10.1.1)". The
pieces every hit shares (the dice, the drops, Stun) are wounds.py's; a shield hit that reaches
the body (§12.3.1) comes here through shield_hits.py.

What the log sheet cannot hold (a lost helmet, limping, stumbling, severed arteries, a mortal
wound, a dropped item, a Kill) is reported in the outcome; `CriticalRecord` adds those up over a
match (§10.5.1) for the combat module, which also owns everything a CF below 1 does (§10.3.3).


Readings of the reference (shared/rules/colosseum.md) this module follows:

* Order of one body hit (Q28): wound roll -> T7 wounds -> critical roll = RED + BLACK + those
  wounds -> "1" adds a wound, then 2x/3x multiply the total -> mark the boxes (§10.3) -> the
  other critical codes. A T7 Kill kills outright and skips the critical roll; no boxes are
  marked for it (nor for a critical K), so the sheet's wounds stay the ones actually taken.
* A critical H with no helmet (no head armour, or a helmet already lost) is treated as 3x + M.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from gladiator.rules.colosseum.events import Event, event
from gladiator.rules.colosseum.hits.wounds import (
    WOUND_COLOURS,
    Item,
    ItemDrop,
    WoundDice,
    area_name,
    drop_location,
    sheet_event_dicts,
    signed,
)
from gladiator.rules.colosseum.sheet.logsheet import LogSheet
from gladiator.rules.colosseum.sheet.logsheet_boxes import AREA_NAMES
from gladiator.rules.colosseum.tables.tables import critical_result, tables, wound_result
from gladiator.rules.colosseum.vocabulary import Area

__all__ = ["CriticalRecord", "HitOutcome", "body_hit"]


# --- body hits (§10) --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HitOutcome:
    """Everything one body hit (H) did (§10.1-§10.5)."""

    area: Area
    white: tuple[int, int, int]
    black: int
    red: int
    h_modifier: int
    weapon_modifier: int
    armour: str  # the area's armour as worn for this hit ('-' once the helmet is lost)
    armour_drm: int  # T8, 0 when partial armour was missed (§10.2.2)
    wound_roll: int  # WHITE 3D6 + H modifier + weapon modifier + armour DRM (§10.1.1)
    base_wounds: int  # T7 Wounds row (0 for a Kill)
    wound_kill: bool = False  # T7 "Kill": killed outright, causes cleaving (§26)
    critical_roll: int | None = None  # RED + BLACK + base wounds, if any wounds (§10.4)
    critical_codes: tuple[str, ...] = ()  # T9 cell, as read
    criticals: tuple[str, ...] = ()  # the codes applied (H without a helmet -> 3x, M)
    wounds: int = 0  # after "1" and 2x/3x (Q28)
    wounds_marked: int = 0  # boxes actually marked (a full area takes no more, §10.3.2)
    cf_before: int = 0
    cf_after: int = 0
    cf_lost_to_wounds: int = 0  # new wound categories (§10.3.1)
    cf_lost_to_criticals: int = 0  # V (§10.5)
    stun: int = 0  # Stun added by a critical S (§10.5, §11.2)
    stun_roll: int | None = None
    st_lost: int = 0
    ag_lost: int = 0
    weapon_drop: ItemDrop | None = None  # critical WD (§10.5, §13.2)
    shield_drop: ItemDrop | None = None  # critical SD
    lmp: int = 0  # limping results this hit (§10.5)
    stu: int = 0  # stumbling results this hit (§10.5, Q30)
    helmet_lost: bool = False  # critical H with a helmet (§10.5)
    severed_artery: bool = False  # SA: +1 wound here at the end of every later phase
    mortal: bool = False  # M: dies at the end of the match
    killed: bool = False
    killed_by: tuple[str, ...] = ()  # "T7 Kill", "critical K", "area full"
    unconscious: bool = False  # Stun now exceeds CF (§11.4)
    events: list[Event] = field(default_factory=list)

    @property
    def cf_lost(self) -> int:
        return self.cf_before - self.cf_after

    @property
    def cleaving(self) -> bool:
        """§26: a Kill on the wound table causes cleaving."""
        return self.wound_kill


def body_hit(
    sheet: LogSheet,
    area: Area | int,
    h_modifier: int,
    dice: WoundDice,
    *,
    weapon_modifier: int = 0,
    turn: int,
    phase: int,
    helmet_lost: bool = False,
    has_weapon: bool = True,
    has_shield: bool = True,
    critical: Callable[[Area, int], tuple[str, ...]] | None = None,
    half: bool = False,
) -> tuple[LogSheet, HitOutcome]:
    """§10.1-§10.5: resolve a body hit (H with `h_modifier`) on `area` of `sheet`.

    One 5D6 throw: WHITE 3D6 + H modifier + weapon modifier (axe +2) + armour DRM is read on T7;
    any wounds are marked (§10.3) and RED + BLACK + wounds is read on T9 for the area (§10.4).
    `turn` and `phase` date a critical S's Stun (§11.2). `helmet_lost` says an earlier critical
    H took the helmet: the head has no armour and a further H counts as 3x + M. `has_weapon` /
    `has_shield` say whether a WD / SD has anything to drop. `critical` reads the critical roll
    instead of T9 (a beast's T25, §28.6.3). `half` (§22.2 Sweep and Shield Bash, S5): the
    attack's wounds are halved, fractions dropped, before they are marked.
    """
    name = area_name(area)
    label = AREA_NAMES[name]
    events: list[Event] = []
    faces = dice.coloured(
        WOUND_COLOURS,
        f"wound roll, {label} (WHITE wounds, BLACK armour, RED+BLACK critical)",
        "§10.1",
    )
    white = faces["white"]
    black, red = faces["black"][0], faces["red"][0]
    if len(white) != 3:
        raise ValueError(f"the wound roll needs three WHITE dice, got {white}")
    w1, w2, w3 = white
    events.append(
        event(
            "dice",
            "§10.1",
            f"wound roll 5D6: WHITE {w1}+{w2}+{w3} = {w1 + w2 + w3}, BLACK {black}, RED {red}",
            faces={"white": [w1, w2, w3], "black": black, "red": red},
        )
    )

    # §10.2: armour; the helmet lost to a critical H leaves the head bare (§10.5).
    worn = sheet.armour_of(name)
    if name == "head" and helmet_lost:
        armour_text = "-"
        drm = 0
        armour_note = "no armour (helmet lost, §10.5)"
    else:
        armour_text = str(worn)
        drm = tables().wounds.t8.for_armour(worn, black)
        if worn.letter is None:
            armour_note = "no armour"
        elif worn.coverage is None:
            armour_note = f"armour {worn} {drm} (full, §10.2.1)"
        elif drm:
            armour_note = f"armour {worn} {drm} (BLACK {black} ≤ {worn.coverage}, §10.2.2)"
        else:
            armour_note = f"armour {worn} missed (BLACK {black} > {worn.coverage}, §10.2.2)"

    total = w1 + w2 + w3 + h_modifier + weapon_modifier + drm
    t7 = wound_result(total)
    mods = f"H{signed(h_modifier)}" + (
        f", weapon {signed(weapon_modifier)}" if weapon_modifier else ""
    )
    outcome = HitOutcome(
        area=name,
        white=(w1, w2, w3),
        black=black,
        red=red,
        h_modifier=h_modifier,
        weapon_modifier=weapon_modifier,
        armour=armour_text,
        armour_drm=drm,
        wound_roll=total,
        base_wounds=0,
        cf_before=sheet.current_cf,
        cf_after=sheet.current_cf,
        events=events,
    )
    if t7 == "kill":  # T7 19+: killed outright, no critical roll (Q28); cleaving (§26)
        events.append(
            event(
                "wound_roll",
                "§10.1.1",
                f"{label}: WHITE {w1 + w2 + w3}, {mods}, {armour_note} → {total}: Kill",
                area=name,
            )
        )
        events.append(
            event("killed", "§10.1", f"{label}: killed outright by the wound roll (T7 Kill)")
        )
        return sheet, replace(
            outcome,
            wound_kill=True,
            killed=True,
            killed_by=("T7 Kill",),
        )
    events.append(
        event(
            "wound_roll",
            "§10.1.1",
            f"{label}: WHITE {w1 + w2 + w3}, {mods}, {armour_note} → {total}: "
            + (f"{t7} wound{'s' * (t7 != 1)}" if t7 else "no wound"),
            area=name,
            amount=t7,
        )
    )
    if t7 == 0:
        return sheet, outcome

    # §10.4: the critical roll, read for the area struck.
    crit_roll = red + black + t7
    cell = (critical or critical_result)(name, crit_roll)
    codes = [c for c in cell if c != "-"]
    helmet_taken = False
    if "H" in codes:
        has_helmet = not helmet_lost and worn.letter is not None
        i = codes.index("H")
        if has_helmet:
            helmet_taken = True
        else:  # §10.5 H: "If the defender has no helmet, treat as 3xM"
            codes[i : i + 1] = ["3x", "M"]
    applied = tuple(codes)
    events.append(
        event(
            "critical_roll",
            "§10.4",
            f"critical roll RED {red} + BLACK {black} + {t7} wound{'s' * (t7 != 1)} = {crit_roll}"
            f" on {label}: {'+'.join(cell)}"
            + (" (no helmet: treated as 3x+M)" if "H" in cell and not helmet_taken else ""),
            codes=list(cell),
        )
    )

    # Q28: "1" adds a wound, then 2x/3x multiply the attack's wounds.
    count = Counter(applied)
    wounds = t7 + count["1"]
    multiplier = 2 ** count["2x"] * 3 ** count["3x"]
    wounds *= multiplier
    if count["1"] or multiplier > 1:
        how = " and ".join(
            part
            for part in (
                f"deep cut +{count['1']}" if count["1"] else "",
                f"×{multiplier}" if multiplier > 1 else "",
            )
            if part
        )
        events.append(event("critical", "§10.5", f"{how}: {wounds} wounds this attack"))
    if half:
        events.append(
            event("half_damage", "§22.2", f"half damage: {wounds} → {wounds // 2} wounds")
        )
        wounds //= 2
    wounds_before = sheet.wounds_in(name)
    new, sheet_events = sheet.with_wounds(name, wounds)
    marked = new.wounds_in(name) - wounds_before
    cf_wounds = sheet.current_cf - new.current_cf
    events.extend(sheet_event_dicts(sheet_events))

    cf_crit = 0
    st_lost = ag_lost = 0
    stun = 0
    stun_roll: int | None = None
    weapon_drop: ItemDrop | None = None
    shield_drop: ItemDrop | None = None
    killed_by: list[str] = []
    for code in applied:
        if code == "V":
            cf_crit += 1
            new, evs = new.with_cf_loss(1, "§10.5")
            events.extend(sheet_event_dicts(evs))
        elif code in ("ST", "AG"):
            new, evs = new.with_characteristic_loss(code, 1)
            events.extend(sheet_event_dicts(evs))
            if code == "ST":
                st_lost += 1
            else:
                ag_lost += 1
        elif code == "S":  # §10.5 S: Stun = 2D6 − CN, at least 1 (§11.2)
            stun_roll = dice.roll("2D6", "critical S: Stun 2D6 − CN", "§10.5")
            n = max(stun_roll - new.cn, 1)
            stun += n
            events.append(
                event("critical", "§10.5", f"stunned: 2D6 {stun_roll} − CN {new.cn} → Stun {n}")
            )
            new, evs = new.with_stun(n, turn=turn, phase=phase)
            events.extend(sheet_event_dicts(evs))
        elif code in ("WD", "SD"):
            item: Item = "weapon" if code == "WD" else "shield"
            if has_weapon if item == "weapon" else has_shield:
                drop, ev = drop_location(dice, item, f"§10.5 {code}")
                events.append(ev)
                if item == "weapon":
                    weapon_drop = drop
                else:
                    shield_drop = drop
            else:
                events.append(event("critical", "§10.5", f"{code}: he has no {item} to drop"))
        elif code == "H":
            events.append(
                event("helmet_lost", "§10.5", "helmet lost: no more head armour this match")
            )
        elif code == "LMP":
            events.append(event("critical", "§10.5", "limping: −1 movement phase per turn"))
        elif code == "STU":
            events.append(
                event("critical", "§10.5", "stumbling: a 1D6 stumble check per STU when moving")
            )
        elif code == "SA":
            events.append(
                event(
                    "critical",
                    "§10.5",
                    f"severed artery: +1 wound to {label} at the end of every later phase",
                )
            )
        elif code == "M":
            events.append(event("critical", "§10.5", "mortal wound: dies at the end of the match"))
        elif code == "K":
            killed_by.append("critical K")
            events.append(event("killed", "§10.5", "killed instantly (critical K)"))
    if new.killed:
        killed_by.insert(0, "area full")
    return new, replace(
        outcome,
        base_wounds=t7,
        critical_roll=crit_roll,
        critical_codes=cell,
        criticals=applied,
        wounds=wounds,
        wounds_marked=marked,
        cf_lost_to_wounds=cf_wounds,
        cf_lost_to_criticals=cf_crit,
        stun=stun,
        stun_roll=stun_roll,
        st_lost=st_lost,
        ag_lost=ag_lost,
        weapon_drop=weapon_drop,
        shield_drop=shield_drop,
        lmp=count["LMP"],
        stu=count["STU"],
        helmet_lost=helmet_taken,
        severed_artery=count["SA"] > 0,
        mortal=count["M"] > 0,
        killed=bool(killed_by),
        killed_by=tuple(killed_by),
        unconscious=new.unconscious,
        cf_after=new.current_cf,
    )


# --- what the sheet cannot hold, over a match (§10.5.1) -----------------------------------------


@dataclass(frozen=True, slots=True)
class CriticalRecord:
    """The lasting critical results the log sheet has no box for, added up over a match
    (§10.5.1: critical results are cumulative). Keep one per gladiator beside his sheet."""

    helmet_lost: bool = False  # H: the head has no armour for the rest of the match
    lmp: int = 0  # LMP: movement phases lost per turn (Q3: moves = rate − LMP)
    stu: int = 0  # STU: dice in the stumbling check (Q30)
    severed_arteries: tuple[Area, ...] = ()  # SA, one entry per result, by area
    mortal: bool = False  # M: dies at the end of the match (Campaign)
    killed: bool = False  # T7 Kill, critical K or a full area

    def after(self, hit: HitOutcome) -> CriticalRecord:
        """This record with one more body hit's results added."""
        return CriticalRecord(
            helmet_lost=self.helmet_lost or hit.helmet_lost,
            lmp=self.lmp + hit.lmp,
            stu=self.stu + hit.stu,
            severed_arteries=self.severed_arteries + ((hit.area,) if hit.severed_artery else ()),
            mortal=self.mortal or hit.mortal,
            killed=self.killed or hit.killed,
        )
