"""The combat step of a pack (§28.6 with §27, ruling B11): one gladiator against two or three
beasts. Who may attack whom and the PA are one beast's rules (B6) for each beast; the gladiator
is a §27 "single gladiator" when two or more beasts may attack him; his allocation names a beast
on every attack box (G9) and the rounds are the team match's (team_attacks.py).

RULINGS (docs/rulings.md, Colosseum §28, the B series)

B15 §28.6, §27.2, §27.3: each beast attacks him when he is in its head's front (§28.6.2) and
    never turns; he may attack each beast his weapon reaches (B6). Attacked by one beast he
    cannot attack, he turns to face its head (B6); attacked by two or more, he turns as a
    single gladiator (§27.2, G3: all of them in his front if a facing does it, else the least
    total PA), and he gets no PA against a beast that was not in his front before the turn. His
    PA against each beast is T24's (a reared bear's T11's) and his CFs available add the largest
    (§9.3.1); each beast's CFs are its own (B6, B7).
B16 §27.3.1, G9: his attack boxes are `A-<BEAST>-<AREA>`, one beast a box, and only the areas
    T24 lets him strike on that beast take CF; a beast's 1D3 attacks (B7) all go at him. The
    attack rounds are §27's: each beast's attack is separate, his defence on an area counts
    against each attack on it except from a beast whose head is in his rear hexes when two or
    more beasts may attack him (§27.4, G5), and he yields to an adjacent beast he does not
    attack (§27.3, G4). Results against a beast are B8's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from gladiator.core.decisions import Decision
from gladiator.core.dice import Dice
from gladiator.core.hexgrid import distance, facing_toward
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.advanced_tables import advanced_tables
from gladiator.rules.colosseum.beast_combat import (
    _beast_may,
    _gladiator_may,
    _hit_beast,
    _target,
    beast_attacks,
)
from gladiator.rules.colosseum.beasts import counter_hexes, gladiator_of, t24_entry
from gladiator.rules.colosseum.board import board_of
from gladiator.rules.colosseum.cf_allocation import MAX_ATTACK_CF_PER_AREA
from gladiator.rules.colosseum.combat.allocation import allocation_choice
from gladiator.rules.colosseum.combat.engage import best_facing, cfs_available, in_rear_hexes
from gladiator.rules.colosseum.combat.rounds import PhaseCombat
from gladiator.rules.colosseum.combat.sequence import Attack, Plan
from gladiator.rules.colosseum.combat_geometry import in_front, positional_advantage
from gladiator.rules.colosseum.crt import CrtOutcome
from gladiator.rules.colosseum.events import event
from gladiator.rules.colosseum.hits import strike
from gladiator.rules.colosseum.items import lose_item
from gladiator.rules.colosseum.orders import AllocationChoice
from gladiator.rules.colosseum.plots import ItemKind
from gladiator.rules.colosseum.postures import check_unconscious
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.vocabulary import AREAS, Area
from gladiator.rules.colosseum.weapon_combat import Stroke, strokes
from gladiator.rules.colosseum.wounds import ItemDrop

__all__ = ["pack_allocation_choice", "pack_pending", "prepare_pack_combat", "resolve_pack_combat"]


def _beasts(state: ColosseumState) -> list[Gladiator]:
    return [b for b in state.gladiators.values() if b.beast is not None]


def _areas(b: Gladiator, g: Gladiator) -> tuple[Area, ...]:
    """T24's areas for him on this beast (every area on a reared bear, B6)."""
    assert b.beast is not None
    if b.beast.reared:
        return AREAS
    return tuple(AREAS[n - 1] for n in t24_entry(b, g.hex).areas)


def prepare_pack_combat(state: ColosseumState, events: list[Event]) -> bool:
    """§5.2.6.1, B15: who may attack whom, his forced turn, PA and CFs. False: nobody may."""
    g = gladiator_of(state)
    beasts = _beasts(state)
    for x in (g, *beasts):
        x.may_attack, x.pa, x.available, x.targets = False, 0, 0, ()
    biting = [b for b in beasts if _beast_may(b, g)]
    if not biting and not any(_gladiator_may(g, b) for b in beasts):
        return False
    no_pa: set[str] = set()
    facing = g.facing
    if g.posture != "prone" and len(biting) == 1 and not in_front(g.pose, biting[0].pose):
        facing = facing_toward(g.hex, biting[0].hex)  # B6 (E1)
    elif g.posture != "prone" and len(biting) > 1:
        facing = best_facing(g, biting)  # §27.2 (G3)
    if facing != g.facing:
        no_pa = {b.seat for b in beasts if not in_front(g.pose, b.pose)}
        g.facing = facing
        faced = ", ".join(b.seat for b in biting)
        why = "§27.2" if len(biting) > 1 else "§9.1.2"
        events.append(
            event(
                "forced_rotation",
                why,
                f"{g.seat} turns to facing {facing} to meet {faced}",
                seat=g.seat,
                facing=facing,
            )
        )
    bonus_cf = advanced_tables().beasts.combat.reared_bear.cf_bonus
    notes: list[str] = []
    targets: list[tuple[str, int, int]] = []
    for b in beasts:
        assert b.beast is not None
        if b in biting:
            b.may_attack = True
            b.pa = positional_advantage(
                b.pose,
                g.pose,
                left_handed=g.left_handed,
                stumbling=g.stumbling,
                prone=g.posture == "prone",
            )
        bonus = bonus_cf if b.beast.reared else 0
        b.available = b.sheet.available_cf(b.pa) + bonus
        if _gladiator_may(g, b):
            if b.seat in no_pa:
                pa = 0
            elif b.beast.reared:  # §28.6.1: a reared bear counts as a gladiator for PA
                pa = positional_advantage(g.pose, b.pose)
            else:
                pa = t24_entry(b, g.hex).pa
            targets.append((b.seat, pa, MAX_ATTACK_CF_PER_AREA))
        notes.append(
            f"{b.seat} ({b.beast.name}) CF {b.sheet.current_cf}, PA {b.pa:+d}"
            + (f", reared +{bonus}" if bonus else "")
            + f" → {b.available} CF"
            + ("" if b.may_attack else ", it cannot reach him")
        )
    g.targets = tuple(targets)
    g.may_attack = bool(targets)
    g.pa = max((pa for _, pa, _ in targets), default=0)
    g.available, _ = cfs_available(g)

    def aim(t: str, pa: int) -> str:
        areas = " ".join(str(AREAS.index(a) + 1) for a in _areas(state.gladiators[t], g))
        return f"{t} (PA {pa:+d}, areas {areas})"

    aims = "; ".join(aim(t, pa) for t, pa, _ in targets)
    events.append(
        event(
            "available",
            "§28.6",
            "; ".join(notes)
            + f". {g.seat}: {g.available} CF available"
            + (f", may attack {aims} (T24)" if targets else "; he may not attack"),
            seat=g.seat,
            available=g.available,
            may_attack=g.may_attack,
            targets=[t for t, _, _ in targets],
        )
    )
    return True


def pack_allocation_choice(state: ColosseumState, g: Gladiator) -> Decision:
    """B16: the team allocation (G9) with only T24's areas open on each beast."""
    d = allocation_choice(g, state)
    assert isinstance(d, AllocationChoice)
    allowed = {
        f"A-{t.upper()}-{a.upper()}"
        for t, _, _ in g.targets
        for a in _areas(state.gladiators[t], g)
    }
    slots = tuple(
        replace(s, maximum=0) if s.name.startswith("A-") and s.name not in allowed else s
        for s in d.slots
    )
    return replace(d, slots=slots, prompt=d.prompt + " (against the beasts: T24's areas)")


def pack_pending(state: ColosseumState) -> dict[str, Decision]:
    """§28.6: only the gladiator allocates; the beasts' attacks are rolled (B7)."""
    g = gladiator_of(state)
    return {g.seat: pack_allocation_choice(state, g)}


def resolve_pack_combat(
    state: ColosseumState, orders: Mapping[str, str], dice: Dice, events: list[Event]
) -> None:
    """§9.4-§9.6 among him and the beasts (B16), results on a beast as B8."""
    g = gladiator_of(state)
    gl = [g, *_beasts(state)]
    index = {x.seat: i for i, x in enumerate(gl)}
    choice = pack_allocation_choice(state, g)
    assert isinstance(choice, AllocationChoice)
    written = choice.read(orders[g.seat])
    al = written.allocation
    g.last_allocation = orders[g.seat]
    g.attack_used += sum(al.attack)
    g.defence_used += sum(al.defence)
    events.append(
        event(
            "allocation",
            "§9.4.1",
            f"{g.seat} reveals {orders[g.seat]}",
            seat=g.seat,
            allocation=orders[g.seat],
        )
    )
    plan: dict[tuple[int, Area], Stroke] = {}
    aimed = [(written.target_of[a], a, cf) for a, cf in al.attacks]
    for t in dict.fromkeys(t for t, _, _ in aimed):
        areas = [a for tt, a, _ in aimed if tt == t]
        b = state.gladiators[t]
        for a, s in zip(areas, strokes(g, _target(b, g), len(areas), state.options), strict=True):
            plan[(index[t], a)] = s
    halve = int(g.posture == "kneeling") + int(g.recovered_weapon)  # §14.3, §13.4.2
    mine: list[tuple[int, Area, int]] = []
    halved: list[str] = []
    for t, area, cf in aimed:
        stroke = plan.get((index[t], area))
        n = halve + (len(stroke.halvings) if stroke is not None else 0)
        for _ in range(n):
            cf //= 2
        if n:
            halved.append(f"{t}'s {area} {cf}")
        if cf > 0:
            mine.append((index[t], area, cf))
    if halved:
        events.append(
            event(
                "half_cf",
                "§14.3",
                f"{g.seat}'s attacks at half CF: " + ", ".join(halved),
                seat=g.seat,
            )
        )
    attacks: list[list[tuple[int, Area, int]]] = [mine]
    for b in gl[1:]:
        if not b.may_attack:
            attacks.append([])
            continue
        bal = beast_attacks(b, dice, events)
        attacks.append([(0, a, bal.attack[AREAS.index(a)]) for a in bal.order])
    defences = [al.defence] + [(0, 0, 0, 0, 0)] * (len(gl) - 1)
    single = sum(1 for b in gl[1:] if b.may_attack) > 1  # §27.1
    yields: dict[int, set[int]] = {}
    if single:  # §27.3 (G4): he yields to an adjacent beast he does not attack
        hit = {t for t, _, _ in mine}
        yields[0] = {
            i
            for i, b in enumerate(gl[1:], 1)
            if i not in hit
            and attacks[i]
            and min(distance(h, g.hex) for h in counter_hexes(b)) == 1
        }
    beast_changes: dict[str, str] = {
        str(k): str(v) for k, v in advanced_tables().beasts.combat.changes.items()
    }
    board = board_of(state)
    combat: PhaseCombat

    def lose(x: Gladiator, item: ItemKind, drop: ItemDrop | None, cause: str) -> None:
        lose_item(state, board, x, item, drop, cause, combat.events)
        combat.set_equipment(index[x.seat], **{item: x.has_weapon if item == "weapon" else False})
        if item == "weapon":
            combat.cancel_attacks(index[x.seat], "weapon dropped", "§13.1")

    def after_hit(side: int) -> None:
        d = gl[side]
        if d.alive and (d.sheet.killed or d.crits.killed):
            d.alive = False
            d.cause = "killed in combat"
            combat.cancel_attacks(side, "dead", "§10.3.2")
            combat.cancel_attacks_on(side, f"{d.seat} is dead", "§10.3.2")
        elif d.sheet.unconscious:
            check_unconscious(d, combat.events)
            combat.cancel_attacks(side, "unconscious", "§11.4")

    def on_hit(attacker: int, defender: int, area: Area, result: CrtOutcome) -> int:
        if attacker != 0:  # a beast's claws and teeth: the Basic Game's results
            lost = strike(state, gl[attacker], g, area, result, dice, combat.events, lose)
        else:
            stroke = plan.get((defender, area))
            lost = _hit_beast(
                state, g, gl[defender], area, result, stroke, dice, combat.events, lose
            )
        after_hit(defender)
        return lost

    def shift(attacker: int, defender: int, area: Area) -> tuple[str, Mapping[str, str]] | None:
        if attacker != 0:
            return None
        stroke = plan.get((defender, area))
        own = dict(stroke.changes[1]) if stroke is not None and stroke.changes else {}
        merged = {k: beast_changes.get(v, v) for k, v in own.items()}
        merged.update({k: v for k, v in beast_changes.items() if k not in merged})
        return ("§28.6.1.2", merged)

    def no_defence(attacker: int, defender: int) -> bool:  # §27.4 (G5)
        return single and defender == 0 and in_rear_hexes(gl[attacker], g)

    combat = PhaseCombat(
        [
            Plan(tuple(Attack(t, a, cf) for t, a, cf in mine), tuple(defence))
            for mine, defence in zip(attacks, defences, strict=True)
        ],
        dice,
        on_hit,
        names=[x.seat for x in gl],
        speeds=[tuple(plan[(t, a)].speed for t, a, _ in mine) if plan else 0] + [0] * (len(gl) - 1),
        # B8: a beast "parries" with its paws, so a P or P* against it stays one.
        has_weapon=[g.has_weapon] + [True] * (len(gl) - 1),
        has_shield=[g.has_shield and not g.sheet.shield_useless] + [True] * (len(gl) - 1),
        crt=state.options["crt"],
        yields=yields,
        no_defence=no_defence,
        drm=lambda a, d, area: max(0, -gl[d].sheet.current_cf),
        shift=shift,
        named=True,  # a pack's log names the beast, however many are left (B16)
    )
    events.extend(combat.run())
