"""§22 Special attacks and defences (Advanced Game, T20 in specials.toml): what the allocation
offers (§22.1-§22.3, §9.3.2.1, §9.3.3.1, with each special's prerequisites) and what a special
attack's result does (§22.2, §9.5.2). A special defence's automatic result is played by
`PhaseCombat` (combat/rounds.py), which reads it off the allocation; the notation is
special_notation.py's.

RULINGS (docs/rulings.md, S series)

S1  §22 is not marked optional: with `advanced` on the allocation offers the specials; the option
    `specials = false` leaves them out (a table that wants the plainer Advanced Game).
S2  §22.2, §22.3: a special attack takes its area's attack box with its CFs (one attack per area,
    §9.4.1), a special defence its area's defence box, worth its 2 CF there: those 2 CF are the
    area's defence for what reads it (§9.4.7 losses, the modified CF of Block's shield damage and
    Parry's drop roll); no other CF go in that box. Disarm arms, Sweep legs, Bash chest, Sand
    head, Feint any area.
S3  §22.3: an attack on an area under a special defence is not rolled; it takes the automatic
    result, converted for what he holds then as any result is (§9.6: a Block without a shield
    is a P, a Parry without a weapon an H). A special attack on that area gets no H, so its
    effects never happen. A fumble penalty or §9.4.7 loss waiting is spent on it as on any
    attack (it is the next area attacked).
S4  §22.2 Feint: the counter-attack is made at once without asking (the attack rounds run without
    a pause for orders): on the defender's area with the least defence CF now (after §9.4.7
    losses), never one a special defence makes No Effect, ties to the lower area number (the
    head first); with the Feint's weapon; 4 CF + the H bonus, at least 1. It is an attack like
    any other (the defender's special defence on that area applies; an F is a fumble).
S5  §22.2 "half damage" (Sweep, Bash): the attack's wounds are halved, fractions dropped, after
    T7 and the criticals' multipliers; the critical roll is made as for a full hit, and a T7
    Kill still kills. The Stumble check (Sweep) is §15.2.1's roll less the H bonus, made only
    by a man on his feet not tripped already; the Stun roll (Bash) is T7's Stun row at 2D6 + 2 ×
    the H bonus, after the wound, unless it killed him.
S6  §22.2 Sand (Q8, A6): the defender loses 2D3 + the H bonus CF (at least 0) for the rest of the
    phase, taken as §9.4.6/§9.4.7 take any loss (off his next attacks, then off the next area of
    his attacked); his log sheet is not marked. Option `sand_loss = "reference"`: 1D3. Every
    other result has no effect on the defender; an F is still the thrower's fumble (§9.6). Sand is
    an attack, only at a man in his 2-hex front; with `sand_reach = "own"` (S10, the default) it
    flies there whatever he holds, so a man there is one he may attack (engage.py), with Sand
    alone where his weapon does not reach; with "weapon" only where a normal attack could go.
B10 No special attack against a beast (refused with the ruling); his special defences meet a
    beast's attacks as any attacks.
S7  §22.3 Block (Q9, A7): an automatic S, shield damage checked (§12.2); option
    `block_result = "reference"`: No Effect.
S8  The H bonus is the number printed after the H (H-1 is −1), as specials.toml reads it. Disarm's
    P is the weapon-drop roll of §13.1.1 with DRM −(8 + 2 × the H bonus) (and a pair's §24.2.2
    DRM); a defender with no weapon has nothing to lose and takes nothing.
S9  Prerequisites (A8, the rules text): "on his feet" is standing (not Kneeling, not Prone);
    Stunned is any Stun in effect; a shield is a shield in hand that is not useless (the hook
    is none, §21.5); Leap needs fewer than 3 CF lost to leg wounds and fewer than 3 to endurance.
    A special the prerequisites refuse is not offered, and an order naming it is refused with
    the reason; a special defence also needs 2 CF the defence may take (§10.3.3).
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache, lru_cache
from typing import NamedTuple, get_args

from gladiator.core.decisions import Slot, SlotGroup
from gladiator.core.dice import Dice
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.arena.combat_geometry import FrontRegion, in_front
from gladiator.rules.colosseum.combat.cf_allocation import MAX_ATTACK_CF_PER_AREA
from gladiator.rules.colosseum.combat.crt import CrtOutcome
from gladiator.rules.colosseum.combat.rounds import PhaseCombat
from gladiator.rules.colosseum.combat.weapon_combat import Blow
from gladiator.rules.colosseum.events import event
from gladiator.rules.colosseum.hits.hits import Lose, strike, stun_hit
from gladiator.rules.colosseum.plots.special_notation import (
    attack_slot,
    defence_slot,
    special_attack,
    special_name,
)
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.tables.advanced_tables import advanced_tables
from gladiator.rules.colosseum.tables.crt_tables import CrtResult
from gladiator.rules.colosseum.tables.special_tables import CfLost, Requirement
from gladiator.rules.colosseum.vocabulary import AREAS, Area

__all__ = [
    "SpecialOffer",
    "attack_offer",
    "defence_offer",
    "guard_results",
    "sand_reach_own",
    "special_events",
    "special_hit",
    "special_offer",
    "specials_on",
    "throws_sand",
]

_REGION: dict[int, FrontRegion] = {1: "one_hex", 2: "two_hex", 3: "three_hex"}
_NEEDS: dict[str, str] = {
    "on_feet": "to be on his feet",
    "not_prone": "not to be Prone",
    "has_shield": "a shield",
    "has_weapon": "a weapon",
    "not_stunned": "not to be Stunned (§11)",
    "not_stumbling": "not to be Stumbling (§15)",
}


def specials_on(state: ColosseumState) -> bool:
    """S1: §22 is played in the Advanced Game unless the option `specials` is off, in a beast
    hunt too: a man's special defences meet a beast's attacks (B10), his special attacks are
    refused against a beast (`attack_offer`). In a team match each special attack names its
    target (G18)."""
    return bool(state.options.get("advanced")) and bool(state.options.get("specials", True))


def sand_reach_own(state: ColosseumState) -> bool:
    """S10: §22 is played and Sand flies its own 2 hexes (option `sand_reach`, "own")."""
    return specials_on(state) and state.options.get("sand_reach", "own") == "own"


def throws_sand(state: ColosseumState, g: Gladiator, foe: Gladiator) -> bool:
    """S10 (option `sand_reach`, "own"): Sand's own reach, the reference sheet's "Rch = 2-hex":
    a man may throw it at a man in his 2-hex front whatever he holds, so long as he could
    attack at all (§9.1: alive, awake, not Prone). Never at or by a beast (B10)."""
    if not sand_reach_own(state):
        return False
    if g.beast is not None or foe.beast is not None or not g.style:
        return False
    if not (g.alive and foe.alive) or g.sheet.unconscious or g.posture == "prone":
        return False
    return in_front(g.pose, foe.pose, region=_REGION[_sand_reach()])


@cache
def _sand_reach() -> int:
    return max(s.reach or 0 for s in advanced_tables().specials.t20.attacks.values())


def _shield(g: Gladiator) -> bool:
    return g.has_shield and not g.hook and not g.sheet.shield_useless


def _holds(g: Gladiator, need: Requirement) -> bool:
    if need == "on_feet":
        return g.posture == "standing"
    if need == "not_prone":
        return g.posture != "prone"
    if need == "has_shield":
        return _shield(g)
    if need == "has_weapon":
        return g.has_weapon
    if need == "not_stunned":
        return g.sheet.stun_in_effect <= 0
    return not g.stumbling  # not_stumbling


def _lost(g: Gladiator, source: str) -> int:
    if source == "endurance":
        return g.sheet.cf_lost_to_endurance
    return g.sheet.cf_lost_to_wounds(AREAS.index(source) + 1)


class _Condition(NamedTuple):
    """What T20's specials ask of a man now (S9): the requirements he meets and the CF he has
    lost from each source a special reads; a key for the offer of his special defences, which
    is asked for at every allocation."""

    seat: str
    holds: frozenset[str]
    lost: tuple[tuple[str, int], ...]


def _condition(g: Gladiator) -> _Condition:
    sources = _sources()
    return _Condition(
        g.seat,
        frozenset(need for need in get_args(Requirement) if _holds(g, need)),
        tuple((source, _lost(g, source)) for source in sources),
    )


@cache
def _sources() -> tuple[str, ...]:
    t20 = advanced_tables().specials.t20
    lost = [s.cf_lost for s in t20.attacks.values()] + [s.cf_lost for s in t20.defences.values()]
    return tuple(dict.fromkeys(source for c in lost if c is not None for source in c.sources))


def _refusal(
    c: _Condition,
    name: str,
    section: str,
    requires: tuple[Requirement, ...],
    cf_lost: CfLost | None,
) -> str | None:
    """Why he may not use this special now (S9), or None."""
    for need in requires:
        if need not in c.holds:
            return f"{name} needs {c.seat} {_NEEDS[need]} ({section})"
    if cf_lost is not None:
        lost = dict(c.lost)
        for source in cf_lost.sources:
            if lost[source] >= cf_lost.below:
                return (
                    f"{name} needs fewer than {cf_lost.below} CF lost from the {source} "
                    f"({c.seat} has lost {lost[source]}) ({section})"
                )
    return None


class SpecialOffer:
    """What the allocation offers of §22 this phase: the slots, the groups that hold them to one
    attack per area and one special of each kind (S2), and why the others are refused."""

    def __init__(self) -> None:
        self.slots: list[Slot] = []
        self.groups: list[SlotGroup] = []
        self.refused: list[tuple[str, str]] = []


def special_offer(
    g: Gladiator, foe: Gladiator, budget: int, defence_room: int, armed: bool = True
) -> SpecialOffer:
    """§22.1-§22.3 for the allocation decision of g facing foe: budget is his CFs available,
    defence_room what his defence may take (§10.3.3), armed whether his weapon reaches foe."""
    offer = attack_offer(g, foe, budget, armed)
    _add_defences(offer, g, budget, defence_room)
    return offer


def defence_offer(g: Gladiator, budget: int, defence_room: int) -> SpecialOffer:
    """§22.3 alone: his special defences, whoever comes at him."""
    offer = SpecialOffer()
    _add_defences(offer, g, budget, defence_room)
    return offer


def attack_offer(g: Gladiator, foe: Gladiator, budget: int, armed: bool = True) -> SpecialOffer:
    """§22.2 alone: his special attacks on foe (a special's reach is measured to him); `armed`:
    his weapon (or fist) reaches him, else only Sand may fly so far (S10)."""
    t20 = advanced_tables().specials.t20
    offer = SpecialOffer()
    condition = _condition(g)
    attack_max = min(MAX_ATTACK_CF_PER_AREA, budget)
    by_area: dict[Area, list[str]] = {a: [] for a in AREAS}
    for code, spec in t20.attacks.items():
        name = special_name("A", code)
        reason = None if g.may_attack else f"{g.seat} may not attack this phase (§9.1)"
        if reason is None and foe.beast is not None:  # B10
            reason = f"{name} is no attack on a beast (B10, §28.6: T24's areas only)"
        if reason is None and not armed and spec.reach is None:  # S10
            reason = f"{name} needs {foe.seat} within reach of {g.seat}'s weapon (§9.1, S10)"
        reason = reason or _refusal(condition, name, spec.section, spec.requires, spec.cf_lost)
        far = spec.reach is not None and not in_front(g.pose, foe.pose, region=_REGION[spec.reach])
        if reason is None and far:
            reason = f"{name} needs {foe.seat} in {g.seat}'s {spec.reach}-hex front (§22.2)"
        if reason is None and attack_max < 1:
            reason = f"{name} needs an attack CF ({spec.section})"
        for area in AREAS if spec.area == "any" else (spec.area,):
            slot = attack_slot(area, code)
            if reason is not None:
                offer.refused.append((slot, reason))
                continue
            offer.slots.append(Slot(slot, attack_max, label=f"{name}, {area}"))
            by_area[area].append(slot)
    used = [s.name for s in offer.slots]
    for area, names in by_area.items():
        if names:
            offer.groups.append(
                SlotGroup(
                    (f"A-{area.upper()}", *names),
                    attack_max,
                    f"§9.4.1, §22.2: one attack on the {area}",
                    max_used=1,
                )
            )
    if len(used) > 1:
        offer.groups.append(SlotGroup(tuple(used), budget, "§22.1: one special attack", max_used=1))
    return offer


def _add_defences(offer: SpecialOffer, g: Gladiator, budget: int, defence_room: int) -> None:
    slots, groups, refused = _defences(_condition(g), budget, defence_room)
    offer.slots += slots
    offer.groups += groups
    offer.refused += refused


@lru_cache(maxsize=4096)
def _defences(
    c: _Condition, budget: int, defence_room: int
) -> tuple[tuple[Slot, ...], tuple[SlotGroup, ...], tuple[tuple[str, str], ...]]:
    """§22.3: his special defences' slots, their groups and why the others are refused."""
    t20 = advanced_tables().specials.t20
    cost = t20.defence_cost_cf
    slots: list[Slot] = []
    groups: list[SlotGroup] = []
    refused: list[tuple[str, str]] = []
    defences: list[str] = []
    for dcode, dspec in t20.defences.items():
        name = special_name("D", dcode)
        slot = defence_slot(dspec.area, dcode)
        reason = _refusal(c, name, dspec.section, dspec.requires, dspec.cf_lost)
        if reason is None and min(budget, defence_room) < cost:
            reason = f"{name} takes {cost} CF of defence (§22.3)"
        if reason is not None:
            refused.append((slot, reason))
            continue
        slots.append(Slot(slot, cost, step=cost, label=f"{name}, {dspec.area} ({cost} CF)"))
        defences.append(slot)
        groups.append(
            SlotGroup(
                (f"D-{dspec.area.upper()}", slot),
                budget,
                f"§22.3: {name} takes the {dspec.area} defence box",
                max_used=1,
            )
        )
    if len(defences) > 1:
        groups.append(SlotGroup(tuple(defences), budget, "§22.1: one special defence", max_used=1))
    return tuple(slots), tuple(groups), tuple(refused)


def guard_results(state: ColosseumState) -> dict[str, CrtResult]:
    """§22.3, T20: each special defence's automatic result (S7: Block by option)."""
    out: dict[str, CrtResult] = {}
    for code, spec in advanced_tables().specials.t20.defences.items():
        auto = spec.auto
        sheet = spec.reference_sheet
        if (
            sheet is not None
            and sheet.auto is not None
            and state.options.get("block_result") == "reference"
        ):
            auto = sheet.auto
        out[code] = CrtResult.model_validate(auto)
    return out


def _stumble(
    state: ColosseumState, d: Gladiator, drm: int, dice: Dice, events: list[Event]
) -> None:
    """S5: §15.2.1's Stumble check (Q5's option), less the Sweep's H bonus."""
    stun = d.sheet.stun_in_effect
    why = "swept (§22.2)"
    if state.options.get("stumble_rule") == "reference":
        roll = dice.roll("2D6", f"{d.seat} Stumble check, {why}", "§15.2.1")
        total, below = roll - stun + drm, 7
        formula = f"2D6 {roll} - {stun} Stun {drm:+d} = {total}"
    else:
        roll = dice.d(6, f"{d.seat} Stumble check, {why}", "§15.2.1")
        total, below = roll - stun + drm, 1
        formula = f"1D6 {roll} - {stun} Stun {drm:+d} = {total}"
    stumbled = total < below
    events.append(
        event(
            "stumble_check",
            "§22.2",
            f"{d.seat} Stumble check after the Sweep: {formula}, below {below}? "
            + ("he stumbles and must Stumble next phase" if stumbled else "he keeps his feet"),
            seat=d.seat,
            stumbled=stumbled,
        )
    )
    if stumbled:
        d.must_stumble = True


def special_hit(
    state: ColosseumState,
    a: Gladiator,
    d: Gladiator,
    area: Area,
    outcome: CrtOutcome,
    dice: Dice,
    events: list[Event],
    lose: Lose,
    blow: Blow | None,
    combat: PhaseCombat,
    side: int,
    target: int,
) -> int | None:
    """§22.2: what a special attack's result does; the CF the defender loses at once, or None
    when the result is played as for a normal attack (the results other than H, but Sand's)."""
    code = outcome.special
    spec = special_attack(code)
    name = special_name("A", code)
    if outcome.code != "H":
        if spec.other_results == "none":  # S6
            events.append(
                event("special_attack", "§22.2", f"{a.seat}'s {name}: {outcome.result}, no effect")
            )
            return 0
        return None
    bonus = outcome.result.modifier  # S8
    if spec.weapon_drop is not None:  # Disarm
        drm = spec.weapon_drop.drm + spec.weapon_drop.per_h_bonus * bonus
        events.append(
            event(
                "special_attack",
                "§22.2",
                f"{a.seat}'s {name}: {outcome.result} becomes P, weapon drop DRM {drm:+d}",
                seat=d.seat,
                drm=drm,
            )
        )
        if not d.has_weapon:
            events.append(event("special_attack", "§22.2", f"{d.seat} has no weapon to lose"))
            return 0
        parried = replace(outcome, result=CrtResult.model_validate(spec.h_becomes or "P"))
        return strike(state, a, d, area, parried, dice, events, lose, blow, drop_drm_extra=drm)
    if spec.counter is not None:  # Feint (S4)
        cf = max(1, spec.counter.cf + spec.counter.per_h_bonus * bonus)
        events.append(
            event("special_attack", "§22.2", f"{a.seat}'s {name}: {outcome.result}, no damage")
        )
        return combat.counter_attack(side, target, cf, area)
    if spec.cf_loss is not None:  # Sand (S6)
        dice_text = spec.cf_loss.dice
        sheet = spec.reference_sheet
        if state.options.get("sand_loss") == "reference" and sheet and sheet.cf_loss_dice:
            dice_text = sheet.cf_loss_dice
        roll = dice.roll(dice_text, f"{d.seat} sand in the eyes", "§22.2")
        n = max(0, roll + spec.cf_loss.per_h_bonus * bonus)
        events.append(
            event(
                "special_attack",
                "§22.2",
                f"{a.seat}'s {name}: {outcome.result}, sand in {d.seat}'s eyes: {dice_text} "
                f"{roll} {bonus:+d} = {n} CF lost for the rest of this phase",
                seat=d.seat,
                amount=n,
            )
        )
        return n
    # Sweep and Shield Bash: half damage, then the Stumble check or the Stun roll (S5).
    events.append(
        event("special_attack", "§22.2", f"{a.seat}'s {name}: {outcome.result}, half damage")
    )
    lost = strike(state, a, d, area, outcome, dice, events, lose, blow, half_damage=True)
    if d.sheet.killed or d.crits.killed:
        return lost
    if spec.stumble is not None and d.posture != "prone" and not d.must_stumble:
        _stumble(state, d, spec.stumble.drm + spec.stumble.per_h_bonus * bonus, dice, events)
    if spec.stun is not None:
        lost += stun_hit(
            state,
            d,
            spec.stun.per_h_bonus * bonus,
            dice,
            events,
            lose,
            purpose="shield bash",
            rule="§22.2",
        )
    return lost


def special_events(
    g: Gladiator,
    attack: tuple[Area, str] | None,
    cf: int,
    defence: tuple[Area, str] | None,
    guards: dict[str, CrtResult],
) -> list[Event]:
    """What the revealed allocation shows of §22 (the letters in the boxes)."""
    out: list[Event] = []
    if attack is not None:
        area, code = attack
        out.append(
            event(
                "special_attack",
                "§22.2",
                f"{g.seat} writes {code}{cf} in his {area} attack box: "
                f"{special_name('A', code)} with {cf} CF",
                seat=g.seat,
                area=area,
                special=code,
            )
        )
    if defence is not None:
        area, code = defence
        auto = str(guards[code])
        cost = advanced_tables().specials.t20.defence_cost_cf
        out.append(
            event(
                "special_defence",
                "§22.3",
                f"{g.seat} writes {code} in his {area} defence box: {special_name('D', code)} "
                f"for {cost} CF, every attack on his {area} is "
                f"{'No Effect' if auto == '-' else auto} this phase",
                seat=g.seat,
                area=area,
                special=code,
            )
        )
    return out
