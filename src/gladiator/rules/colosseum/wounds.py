"""What a CRT result does to the defender's log sheet: wounds, criticals, Stun, shields, drops.

Colosseum Edition §10 (wounds and critical hits), §11.2/§11.5 (Stun and its recovery), §12 (shield
damage), §13.1-§13.2 (weapon and shield drops) and §7.6.1 (the illegal-order Stun roll), as pure
functions: each takes a `LogSheet` and the match's dice and returns the new sheet and a record of
what happened. Every die goes through `dice` with its purpose and rule section, so the dice log
replays the resolution; every record carries event dicts `{"type", "rule", "text"}` whose text
ends with the rule section, e.g. "... (§10.1.1)".

What the log sheet cannot hold (a lost helmet, limping, stumbling, severed arteries, a mortal
wound, a dropped item, a Kill) is reported in the outcome; `CriticalRecord` adds those up over a
match (§10.5.1) for the combat module, which also owns everything a CF below 1 does (§10.3.3).

Readings of the reference (shared/rules/colosseum.md) this module follows:

* T7 "8" is "8 or less" and stun extras stand only in their own column (Q2, via the data file).
* Order of one body hit (Q28): wound roll -> T7 wounds -> critical roll = RED + BLACK + those
  wounds -> "1" adds a wound, then 2x/3x multiply the total -> mark the boxes (§10.3) -> the
  other critical codes. A T7 Kill kills outright and skips the critical roll; no boxes are
  marked for it (nor for a critical K), so the sheet's wounds stay the ones actually taken.
* Wound categories P1 (Q15) and the shield track P2 (Q16) come from the data files through the
  log sheet. A battered shield protects no more: an S or S* against it must be converted to P by
  the caller (§9.6, Q16); `shield_hit` refuses it.
* A critical H with no helmet (no head armour, or a helmet already lost) is treated as 3x + M.
* Stun recovery uses the rules text, CN - (1D6 - phases since last stunned) (Q6).
* Drop locations use T15 with the facing-relative directions (Q17).
* Several STU results: one die each, he stumbles if any shows 1 (Q30).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

from gladiator.rules.colosseum.crt_tables import CrtResult
from gladiator.rules.colosseum.logsheet import AREA_NAMES, LogSheet, SheetEvent
from gladiator.rules.colosseum.tables import critical_result, stun_result, tables, wound_result
from gladiator.rules.colosseum.vocabulary import AREAS, Area, RelationCode, StunExtra

__all__ = [
    "WOUND_COLOURS",
    "CriticalRecord",
    "HitOutcome",
    "ItemDrop",
    "ShieldOutcome",
    "WoundDice",
    "body_hit",
    "drop_check",
    "drop_location",
    "illegal_order_stun",
    "phases_since_stunned",
    "severed_artery_bleeding",
    "shield_hit",
    "stumbling_check",
    "stun_check",
    "stun_recovery",
]

# §10.1, §2.5: the wound roll throws all five dice at once.
WOUND_COLOURS: tuple[str, ...] = ("white", "white", "white", "black", "red")
PHASES_PER_TURN = 8  # §5.1

Item = Literal["weapon", "shield"]
Event = dict[str, Any]


class WoundDice(Protocol):
    """What this module needs of `gladiator.core.dice.Dice`."""

    def d(self, sides: int, purpose: str, rule: str) -> int: ...

    def roll(self, notation: str, purpose: str, rule: str) -> int: ...

    def coloured(self, colours: Sequence[str], purpose: str, rule: str) -> dict[str, list[int]]: ...


def _event(kind: str, rule: str, text: str, **extra: Any) -> Event:
    return {"type": kind, "rule": rule, "text": f"{text} ({rule})", **extra}


def _sheet_events(events: Iterable[SheetEvent]) -> list[Event]:
    out: list[Event] = []
    for e in events:
        extra: dict[str, Any] = {}
        if e.area is not None:
            extra["area"] = e.area
        if e.amount:
            extra["amount"] = e.amount
        if e.result is not None:
            extra["result"] = e.result
        out.append(_event(e.kind, e.rule, e.text, **extra))
    return out


def _area_name(area: Area | int) -> Area:
    if isinstance(area, int) and not isinstance(area, bool) and 1 <= area <= len(AREAS):
        return AREAS[area - 1]
    if isinstance(area, str) and area in AREAS:
        return area
    raise ValueError(f"body area {area!r} is not 1-5 or one of {', '.join(AREAS)} (§3.9)")


def _signed(n: int) -> str:
    return f"{n:+d}"


# --- drops (§13) ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ItemDrop:
    """A dropped weapon or shield and where it lands (§13.2): the T15 direction roll and the
    side of the gladiator it travels through, and the distance in hexes (0 = his own hex)."""

    item: Item
    direction_roll: int
    direction: RelationCode
    distance: int
    cause: str  # the rule that dropped it, e.g. "§10.5 WD" or "§13.1.1"

    def to_dict(self) -> dict[str, Any]:
        return {
            "item": self.item,
            "direction_roll": self.direction_roll,
            "direction": self.direction,
            "distance": self.distance,
            "cause": self.cause,
        }


def drop_location(dice: WoundDice, item: Item, cause: str) -> tuple[ItemDrop, Event]:
    """§13.2: 1D6 for the direction on T15, then 1D6 − 1 for the distance (Q17)."""
    t15 = tables().items.t15
    roll = dice.roll(t15.direction_dice, f"dropped {item}: direction (T15)", "§13.2.1")
    direction = t15.directions[roll].direction
    distance_roll = dice.roll(t15.distance_dice, f"dropped {item}: distance", "§13.2.2")
    distance = min(max(distance_roll + t15.distance_modifier, 0), t15.max_distance)
    drop = ItemDrop(item, roll, direction, distance, cause)
    where = "stays in his hex" if distance == 0 else f"lands {distance} hex(es) toward {direction}"
    event = _event(
        "item_dropped",
        "§13.2",
        f"{item} dropped ({cause}): direction {roll} = {direction}, distance "
        f"{distance_roll}{t15.distance_modifier:+d} = {distance}, {where}",
        item=item,
    )
    return drop, event


_DROP_ITEM: dict[str, Item] = {"S*": "shield", "P": "weapon", "P*": "weapon"}


def _code(result: str | CrtResult) -> str:
    return result.code if isinstance(result, CrtResult) else result


def _drop_total(
    roll: int, modified_cf: int, attacker_st: int, arm_cf_lost: int, drm: int = 0
) -> int:
    """§13.1.1: 3D6 − modified CF − attacker's ST − CF the defender lost from his arms."""
    return roll - modified_cf - attacker_st - arm_cf_lost + drm


def _drop_text(
    item: Item, roll: int, modified_cf: int, attacker_st: int, arm_cf_lost: int, drm: int
) -> tuple[bool, str]:
    total = _drop_total(roll, modified_cf, attacker_st, arm_cf_lost, drm)
    dropped = total < 1
    extra = f" {_signed(drm)} DRM" if drm else ""
    text = (
        f"{item} drop roll 3D6 {roll} − modified CF {modified_cf} − attacker ST {attacker_st} − "
        f"arms CF lost {arm_cf_lost}{extra} = {total}: "
        + (f"below 1, {item} dropped" if dropped else "kept")
    )
    return dropped, text


def drop_check(
    result: str | CrtResult,
    modified_cf: int,
    attacker_st: int,
    arm_cf_lost: int,
    dice: WoundDice,
    *,
    drm: int = 0,
) -> bool:
    """§13.1.1: does an S* (shield) or P/P* (weapon) make the defender drop the item?

    3D6 − modified CF − attacker's ST − CF lost from his arms (area 4) < 1 drops it. `drm` is
    added to the roll (Disarm §22, two-weapon fighting §24.2.2 are negative). The NOTE's case:
    ST 3, 4 CF against 2, no arm losses: a 3D6 of 5 or less drops the weapon.
    """
    code = _code(result)
    item = _DROP_ITEM.get(code)
    if item is None:
        raise ValueError(f"only S*, P and P* call for a drop roll (§13.1), not {code!r}")
    if arm_cf_lost < 0:
        raise ValueError(f"CF lost from the arms cannot be {arm_cf_lost}")
    roll = dice.roll("3D6", f"{item} drop roll after {code}", "§13.1.1")
    dropped, _text = _drop_text(item, roll, modified_cf, attacker_st, arm_cf_lost, drm)
    return dropped


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
    name = _area_name(area)
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
        _event(
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
    mods = f"H{_signed(h_modifier)}" + (
        f", weapon {_signed(weapon_modifier)}" if weapon_modifier else ""
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
            _event(
                "wound_roll",
                "§10.1.1",
                f"{label}: WHITE {w1 + w2 + w3}, {mods}, {armour_note} → {total}: Kill",
                area=name,
            )
        )
        events.append(
            _event("killed", "§10.1", f"{label}: killed outright by the wound roll (T7 Kill)")
        )
        return sheet, replace(
            outcome,
            wound_kill=True,
            killed=True,
            killed_by=("T7 Kill",),
        )
    events.append(
        _event(
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
        _event(
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
        events.append(_event("critical", "§10.5", f"{how}: {wounds} wounds this attack"))
    if half:
        events.append(
            _event("half_damage", "§22.2", f"half damage: {wounds} → {wounds // 2} wounds")
        )
        wounds //= 2
    wounds_before = sheet.wounds_in(name)
    new, sheet_events = sheet.with_wounds(name, wounds)
    marked = new.wounds_in(name) - wounds_before
    cf_wounds = sheet.current_cf - new.current_cf
    events.extend(_sheet_events(sheet_events))

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
            events.extend(_sheet_events(evs))
        elif code in ("ST", "AG"):
            new, evs = new.with_characteristic_loss(code, 1)
            events.extend(_sheet_events(evs))
            if code == "ST":
                st_lost += 1
            else:
                ag_lost += 1
        elif code == "S":  # §10.5 S: Stun = 2D6 − CN, at least 1 (§11.2)
            stun_roll = dice.roll("2D6", "critical S: Stun 2D6 − CN", "§10.5")
            n = max(stun_roll - new.cn, 1)
            stun += n
            events.append(
                _event("critical", "§10.5", f"stunned: 2D6 {stun_roll} − CN {new.cn} → Stun {n}")
            )
            new, evs = new.with_stun(n, turn=turn, phase=phase)
            events.extend(_sheet_events(evs))
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
                events.append(_event("critical", "§10.5", f"{code}: he has no {item} to drop"))
        elif code == "H":
            events.append(
                _event("helmet_lost", "§10.5", "helmet lost: no more head armour this match")
            )
        elif code == "LMP":
            events.append(_event("critical", "§10.5", "limping: −1 movement phase per turn"))
        elif code == "STU":
            events.append(
                _event("critical", "§10.5", "stumbling: a 1D6 stumble check per STU when moving")
            )
        elif code == "SA":
            events.append(
                _event(
                    "critical",
                    "§10.5",
                    f"severed artery: +1 wound to {label} at the end of every later phase",
                )
            )
        elif code == "M":
            events.append(_event("critical", "§10.5", "mortal wound: dies at the end of the match"))
        elif code == "K":
            killed_by.append("critical K")
            events.append(_event("killed", "§10.5", "killed instantly (critical K)"))
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


def stumbling_check(stu: int, dice: WoundDice) -> bool:
    """§10.5 STU, §10.5.1, Q30: when he tries to leave his hex, roll one D6 per STU result; any 1
    means he performs a Stumble action instead of his move (§15.1)."""
    if stu < 0:
        raise ValueError(f"STU count cannot be {stu}")
    stumbled = False
    for i in range(stu):
        face = dice.d(6, f"stumbling check, die {i + 1} of {stu} (STU)", "§10.5")
        stumbled = stumbled or face == 1
    return stumbled


def severed_artery_bleeding(
    sheet: LogSheet, arteries: Iterable[Area | int]
) -> tuple[LogSheet, list[Event]]:
    """§10.5 SA: at the end of every phase after the one it happened in, each severed artery
    marks one more wound on its area. No attack, so no critical roll (§10.4)."""
    events: list[Event] = []
    for area in arteries:
        name = _area_name(area)
        events.append(
            _event("severed_artery", "§10.5", f"severed artery: {AREA_NAMES[name]} bleeds 1 wound")
        )
        sheet, evs = sheet.with_wounds(name, 1)
        events.extend(_sheet_events(evs))
    return sheet, events


# --- shield hits (§12) --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShieldOutcome:
    """Everything one S or S* did to the defender's shield (§12) and what followed from it."""

    result: Literal["S", "S*"]
    damage_2d6: int  # the 2D6 (for S*, RED + BLACK of the 5D6, §12.4)
    damage_roll: int  # 2D6 + attacker's ST + modified CF (+1 for S*) (§12.2)
    damage_points: int  # the highest unmarked numbered box before the hit (§12.2.1)
    boxes_marked: int = 0
    triggered: tuple[Literal["P", "H"], ...] = ()  # P2 letter boxes checked off (§12.3.1)
    shield_useless: bool = False  # the last box is marked: drop or throw it (§12.3)
    drop_roll: int | None = None  # S*: the WHITE 3D6 shield drop roll (§12.4, §13.1.1)
    shield_drop: ItemDrop | None = None  # S* drop roll below 1 (§13.1.1, §13.2)
    weapon_drop_roll: int | None = None  # a P box's weapon drop 3D6 (§12.3.1, §13.1.1)
    weapon_drop: ItemDrop | None = None
    body_hit: HitOutcome | None = None  # an H box (or a P box with no weapon), resolved
    body_hit_pending: bool = False  # an H box, but no area was given to resolve it
    events: list[Event] = field(default_factory=list)


def shield_hit(
    sheet: LogSheet,
    result: str | CrtResult,
    attacker_st: int,
    modified_cf: int,
    dice: WoundDice,
    *,
    drop_modified_cf: int | None = None,
    has_weapon: bool = True,
    area: Area | int | None = None,
    turn: int | None = None,
    phase: int | None = None,
    weapon_modifier: int = 0,
    helmet_lost: bool = False,
    damage_drm: int = 0,
) -> tuple[LogSheet, ShieldOutcome]:
    """§12.2-§12.4: a non-net S or S* against a working shield.

    Shield damage = 2D6 + attacker's ST + `modified_cf` (+1 for S*); pass the modified CF without
    what a weakened defender's negative defense added (§12.2 NOTE). For S* one 5D6 throw gives
    RED + BLACK as the damage 2D6 and the WHITE 3D6 as the shield drop roll (§12.4, §13.1.1),
    which uses `drop_modified_cf` (default: `modified_cf`). A damaged shield marks boxes on the
    P2 track (§12.2.1); a P box checked off costs a weapon drop roll (an H if he has no weapon,
    §9.6) and an H box a body hit with H+0 (§12.3.1) on `area`, dated `turn`/`phase`. Without an
    `area` the H is left to the caller (`body_hit_pending`). `damage_drm` is added to the
    damage roll (the pike's +6, §21.9).
    """
    code = _code(result)
    if code not in ("S", "S*"):
        raise ValueError(f"only S and S* are shield hits (§12.2), not {code!r}")
    if sheet.shield_useless:
        raise ValueError(
            "the shield is battered useless: an S or S* against it is a P (§9.6, §12.3, Q16)"
        )
    if area is not None and (turn is None or phase is None):
        raise ValueError("resolving an H box needs the turn and phase (§11.2)")
    edge = code == "S*"
    events: list[Event] = []
    white: list[int] = []
    if edge:
        faces = dice.coloured(
            WOUND_COLOURS,
            "shield-edge hit (RED+BLACK shield damage, WHITE shield drop)",
            "§12.4",
        )
        red, black = faces["red"][0], faces["black"][0]
        two_d6 = red + black
        white = faces["white"]
        events.append(
            _event(
                "dice",
                "§12.4",
                f"shield-edge 5D6: RED {red} + BLACK {black} for damage, WHITE "
                f"{'+'.join(map(str, white))} = {sum(white)} for the drop roll",
            )
        )
    else:
        two_d6 = dice.roll("2D6", "shield damage 2D6", "§12.2")
    points = sheet.shield_damage_points
    floor = points if points is not None else 0
    damage = two_d6 + attacker_st + modified_cf + (1 if edge else 0) + damage_drm
    extra = f" {_signed(damage_drm)} (§21.9)" if damage_drm else ""
    events.append(
        _event(
            "shield_damage_roll",
            "§12.2",
            f"shield damage 2D6 {two_d6} + attacker ST {attacker_st} + modified CF "
            f"{modified_cf}{' + 1 (S*)' if edge else ''}{extra} = {damage} against damage points "
            f"{floor}" + ("" if damage > floor else ": no damage"),
        )
    )
    marked_before = sheet.shield_marked
    new, sheet_events = sheet.with_shield_damage(damage)
    events.extend(_sheet_events(sheet_events))
    triggered = tuple(
        e.result for e in sheet_events if e.kind == "shield_result" and e.result is not None
    )
    outcome = ShieldOutcome(
        result="S*" if edge else "S",
        damage_2d6=two_d6,
        damage_roll=damage,
        damage_points=floor,
        boxes_marked=new.shield_marked - marked_before,
        triggered=triggered,
        shield_useless=new.shield_useless,
        events=events,
    )
    drop_cf = modified_cf if drop_modified_cf is None else drop_modified_cf
    arms = new.cf_lost_to_wounds("arms")
    if edge:  # §12.4, §13.1.1: the WHITE dice are the shield drop roll
        dropped, text = _drop_text("shield", sum(white), drop_cf, attacker_st, arms, 0)
        events.append(_event("drop_roll", "§13.1.1", text, item="shield"))
        shield_drop = None
        if dropped:
            shield_drop, ev = drop_location(dice, "shield", "§13.1.1 S*")
            events.append(ev)
        outcome = replace(outcome, drop_roll=sum(white), shield_drop=shield_drop)
    for box in triggered:  # §12.3.1: the defender also suffers that CRT result
        if box == "P" and has_weapon:
            roll = dice.roll("3D6", "weapon drop roll after a shield P box", "§13.1.1")
            dropped, text = _drop_text("weapon", roll, drop_cf, attacker_st, arms, 0)
            events.append(_event("drop_roll", "§13.1.1", text, item="weapon"))
            weapon_drop = None
            if dropped:
                weapon_drop, ev = drop_location(dice, "weapon", "§12.3.1 P box")
                events.append(ev)
            outcome = replace(outcome, weapon_drop_roll=roll, weapon_drop=weapon_drop)
            continue
        if box == "P":
            events.append(_event("shield_result", "§9.6", "P box with no weapon: taken as H"))
        if area is None or turn is None or phase is None:
            events.append(
                _event("shield_result", "§12.3.1", "H from the shield track: body hit to resolve")
            )
            outcome = replace(outcome, body_hit_pending=True)
            continue
        new, hit = body_hit(
            new,
            area,
            0,
            dice,
            weapon_modifier=weapon_modifier,
            turn=turn,
            phase=phase,
            helmet_lost=helmet_lost,
            has_weapon=has_weapon,
            has_shield=not new.shield_useless and outcome.shield_drop is None,
        )
        events.extend(hit.events)
        outcome = replace(outcome, body_hit=hit)
    return new, outcome


# --- Stun (§11, §7.6.1) -------------------------------------------------------------------------


def stun_check(
    dice: WoundDice, drm: int = 0, *, purpose: str = "Stun roll", rule: str = "§10.1"
) -> tuple[int, StunExtra | None]:
    """T7 Stun row: 2D6 + `drm`, read as Stun points and that column's extra (Q2)."""
    roll = dice.roll("2D6", f"{purpose} (T7 Stun row)", rule)
    return stun_result(roll + drm)


def illegal_order_stun(dice: WoundDice) -> tuple[int, StunExtra | None]:
    """§7.6.1: an illegal order that stood: the offender rolls 2D6 + 0 on T7's Stun row."""
    return stun_check(dice, 0, purpose="illegal order stood", rule="§7.6.1")


def phases_since_stunned(sheet: LogSheet, turn: int, phase: int) -> int:
    """Q6: phase boundaries since the phase written with the last Stun box (0 in that phase)."""
    last = sheet.last_stunned
    if last is None:
        raise ValueError("he has never been stunned (§11.2)")
    since = (turn - last[0]) * PHASES_PER_TURN + (phase - last[1])
    if since < 0:
        raise ValueError(f"turn {turn} phase {phase} is before his last Stun {last}")
    return since


def stun_recovery(
    sheet: LogSheet,
    phases_since: int,
    dice: WoundDice,
    *,
    start_of_phase_stun: int | None = None,
) -> tuple[LogSheet, int]:
    """§11.5: after movement, Stun removed = CN − (1D6 − phases since last stunned), at least 0
    (the rules text, Q6), and never more than the Stun in effect at the start of the movement
    phase (§11.5.2; `start_of_phase_stun`, default: the Stun in effect now). The new total goes
    in the next Stun box with the same phase (§11.5.2). No die is rolled without Stun."""
    if phases_since < 0:
        raise ValueError(f"phases since last stunned cannot be {phases_since}")
    cap = sheet.stun_in_effect if start_of_phase_stun is None else start_of_phase_stun
    cap = min(cap, sheet.stun_in_effect)
    if cap <= 0:
        return sheet, 0
    roll = dice.d(6, "Stun recovery 1D6", "§11.5.1")
    removed = min(max(sheet.cn - (roll - phases_since), 0), cap)
    new, _events = sheet.with_stun_removed(removed)
    return new, removed
