"""The beast's rules in the combat step (§28.6), for combat/engage.py and combat/resolve.py:
who may attack whom between a man and a beast, his PA and the areas T24 lets him strike, the
beast's CFs and its 1D3 attacks (the §28 controller writes them: it never allocates nor
defends), and what results do to a beast (S-type → H, P-type → a paws wound and his weapon-drop
check, T25 criticals).

RULINGS (docs/rulings.md, Colosseum §28, the B series)

B6  §28.6, T24, §9.1.2: the gladiator may attack the beast when either hex of its counter is in
    his front and his weapon reaches it; the beast attacks a gladiator in its head's three-hex
    front (§28.6.2) and never turns. A gladiator the beast may attack who cannot attack it turns
    to face its head (§9.1.2, E1). His PA and the areas he may strike are T24's for his hex (A13;
    none if he was turned, E1); against a reared bear T11's and every area (§28.6.1: it "counts
    as a gladiator"). The beast's PA is T11's, its head against his facing (with §9.2.1's
    status bonuses); a reared bear adds +4 CF.
B7  §28.6.1.1, Q38: the beast's 1D3 attacks at 1D6 areas (re-roll 6; a reared bear also
    re-rolls 3 and 5), its CFs available split evenly, the remainder to the earliest; two
    attacks at one area are one attack of both shares. §9.3.2's 8 CF a area is a gladiator's
    limit and does not bind a beast. T24 from farther than a touching hex (a spear): the
    touching hex nearest him, the least PA on a tie.
B8  §28.6.1.2-3, A11: against a beast S and S* are H; P and P* make the beast roll a wound on
    its paws (area 4) as an H+0, and the gladiator checks for weapon drop (§13.1.1) with the
    beast's ST as the attacker's and no modified CF (3D6 − beast ST − his arm losses < 1): a
    wolf never tears a weapon away, a tiger often. Beast wounds are read on T25 instead of T9
    (§28.6.3), and a beast has no armour.
"""

from __future__ import annotations

from dataclasses import replace

from gladiator.core.dice import Dice
from gladiator.core.hexgrid import distance
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.arena.combat_geometry import in_front, positional_advantage
from gladiator.rules.colosseum.beasts.beasts import counter_hexes, t24_entry, t25_critical
from gladiator.rules.colosseum.combat.crt import CrtOutcome
from gladiator.rules.colosseum.combat.weapon_combat import Stroke, reaches
from gladiator.rules.colosseum.events import event
from gladiator.rules.colosseum.hits.body_hits import body_hit
from gladiator.rules.colosseum.hits.hits import Lose, apply_body_hit
from gladiator.rules.colosseum.hits.wounds import drop_check, drop_location
from gladiator.rules.colosseum.kit.weapons import weapon
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.tables.advanced_tables import advanced_tables
from gladiator.rules.colosseum.vocabulary import AREAS, Area

__all__ = [
    "beast_attacks",
    "beast_cf",
    "beast_changes",
    "beast_may",
    "gladiator_may",
    "hit_beast",
    "nearest_part",
    "pa_on_beast",
    "strikable",
]


def nearest_part(b: Gladiator, g: Gladiator) -> Gladiator:
    """The beast as the hex of its counter nearest him (the head on a tie), for reach (B6)."""
    near = min(counter_hexes(b), key=lambda h: distance(h, g.hex))
    return replace(b, hex=near)


def gladiator_may(g: Gladiator, b: Gladiator) -> bool:
    """B6: he may attack the beast when his weapon reaches a hex of its counter; B20: the beast
    stands as near as its nearest hex, so a weapon with a minimum range (the pike, §21.9) that
    the nearest hex is inside does not strike it at all."""
    if not (g.alive and b.alive) or g.sheet.unconscious or g.posture == "prone":
        return False
    near = min(distance(h, g.hex) for h in counter_hexes(b))
    held = tuple(w for w in g.weapons if near >= (weapon(w).min_range or 1))
    if g.weapons and not held:  # §21.9: "not at 1-hex range"
        return False
    armed = replace(g, weapons=held) if g.weapons else g
    return any(reaches(armed, replace(b, hex=h)) for h in counter_hexes(b))


def beast_may(b: Gladiator, g: Gladiator) -> bool:
    """§28.6.2: the beast attacks a man in its head's three-hex front."""
    return b.alive and g.alive and not b.sheet.unconscious and in_front(b.pose, g.pose)


def strikable(b: Gladiator, g: Gladiator) -> tuple[Area, ...]:
    """§28.6, T24 (B6): the beast's body areas he may strike from where he stands (every area
    of a reared bear)."""
    assert b.beast is not None
    if b.beast.reared:
        return AREAS
    return tuple(AREAS[n - 1] for n in t24_entry(b, g.hex).areas)


def pa_on_beast(g: Gladiator, b: Gladiator) -> int:
    """B6: his PA on the beast, T24's for his hex (T11's on a reared bear, §28.6.1)."""
    assert b.beast is not None
    return positional_advantage(g.pose, b.pose) if b.beast.reared else t24_entry(b, g.hex).pa


def beast_cf(b: Gladiator) -> int:
    """B6: the beast's CFs available, a reared bear's +4 with them."""
    assert b.beast is not None
    bonus = advanced_tables().beasts.combat.reared_bear.cf_bonus if b.beast.reared else 0
    return b.sheet.available_cf(b.pa) + bonus


def beast_changes() -> dict[str, str]:
    """§28.6.1.2 (B8): how a result against a beast reads."""
    return {str(k): str(v) for k, v in advanced_tables().beasts.combat.changes.items()}


def beast_attacks(b: Gladiator, dice: Dice, events: list[Event]) -> tuple[tuple[Area, int], ...]:
    """§28.6.1.1 (B7): the beast's attacks this phase, (area, CF) by area; no defence."""
    assert b.beast is not None
    c = advanced_tables().beasts.combat
    total = max(b.available, 0)
    n = dice.roll(c.attacks_dice, f"{b.seat}'s number of attacks", "§28.6.1.1")
    reroll = set(c.area_reroll)
    if b.beast.reared:  # §28.6.1, Q38: areas 1, 2, 4 only
        reroll |= {a for a in range(1, 6) if a not in c.reared_bear.areas}
    attack = [0, 0, 0, 0, 0]
    for k in range(n):
        while (roll := dice.roll(c.area_dice, f"{b.seat}'s attack {k + 1} area", "§28.6.1.1")) in (
            reroll
        ):
            pass
        attack[roll - 1] += total // n + (1 if k < total % n else 0)
    events.append(
        event(
            "beast_attacks",
            "§28.6.1.1",
            f"{b.seat} makes {n} attack{'s' * (n != 1)} with its {total} CF: "
            + (" ".join(f"{a}:{v}" for a, v in zip(AREAS, attack, strict=True) if v) or "none"),
            seat=b.seat,
        )
    )
    # B7: in area order, with no 8 CF limit for a beast
    return tuple((a, v) for a, v in zip(AREAS, attack, strict=True) if v)


def hit_beast(
    state: ColosseumState,
    g: Gladiator,
    b: Gladiator,
    area: Area,
    result: CrtOutcome,
    stroke: Stroke | None,
    dice: Dice,
    events: list[Event],
    lose: Lose,
) -> int:
    """§28.6.1.2-§28.6.3 (B8): a result against the beast; the CF it loses at once. A T7 Kill
    kills it without Blood counters (§26.2 cleaves a gladiator only, B19)."""
    code = result.code
    c = advanced_tables().beasts.combat
    drm = stroke.blow.wound_drm if stroke is not None else 0
    modifier = result.result.modifier
    if code in c.paws_wound_on:
        events.append(
            event("paws", "§28.6.1.3", f"{code} against {b.seat}: a wound roll on its paws")
        )
        area, modifier = "arms", 0
    elif code != "H":
        return 0
    b.sheet, hit = body_hit(
        b.sheet,
        area,
        modifier,
        dice,
        weapon_modifier=drm,
        turn=state.turn,
        phase=state.phase,
        has_weapon=False,
        has_shield=False,
        critical=t25_critical,
    )
    events.extend(hit.events)
    if hit.wounds_marked:
        state.bleed(b)
    lost = apply_body_hit(state, b, hit, lose)
    if code in c.weapon_drop_on and g.has_weapon:
        arms = g.sheet.cf_lost_to_wounds("arms")
        dropped = drop_check(code, 0, b.sheet.current_st, arms, dice)
        events.append(
            event(
                "drop_roll",
                "§28.6.1.3",
                f"{g.seat}'s weapon drop roll after {code} against the beast (ST "
                f"{b.sheet.current_st}): " + ("he drops his weapon" if dropped else "he keeps it"),
                seat=g.seat,
            )
        )
        if dropped:
            drop, ev = drop_location(dice, "weapon", f"§28.6.1.3 {code}")
            events.append(ev)
            lose(g, "weapon", drop, f"§28.6.1.3 {code}")
    return lost
