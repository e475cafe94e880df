"""The attack rounds of the combat step (§9.4-§9.6 through rounds.py) with what each result
does: §10-§13 through `strike`, §22.2's special results, §23's fists (against a beast too, B21),
and against a beast B8's (beast_combat.hit_beast); a man killed or knocked out loses his attacks
and those at him (§10.3.2, §11.4). §27.3's yielding (G4) and §27.4's rear hexes (G5) for a
single gladiator, whoever his attackers (men or beasts, B16).

The log's words for a man down are each shape's own, as its records have always had them.
"""

from __future__ import annotations

from collections.abc import Mapping

from gladiator.core.dice import Dice
from gladiator.core.hexgrid import distance
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.arena.board import board_of
from gladiator.rules.colosseum.beasts.beast_combat import beast_changes, hit_beast
from gladiator.rules.colosseum.beasts.beasts import counter_hexes
from gladiator.rules.colosseum.combat.crt import CrtOutcome
from gladiator.rules.colosseum.combat.engage import in_rear_hexes, named
from gladiator.rules.colosseum.combat.rounds import PhaseCombat
from gladiator.rules.colosseum.combat.sequence import Plan
from gladiator.rules.colosseum.combat.specials import guard_results, special_hit, specials_on
from gladiator.rules.colosseum.combat.unarmed import unarmed_strike
from gladiator.rules.colosseum.combat.weakness import Weakness
from gladiator.rules.colosseum.combat.weapon_combat import Stroke
from gladiator.rules.colosseum.hits.hits import strike
from gladiator.rules.colosseum.hits.items import lose_item
from gladiator.rules.colosseum.hits.wounds import ItemDrop
from gladiator.rules.colosseum.movement.postures import check_unconscious
from gladiator.rules.colosseum.plots.plots import ItemKind
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.vocabulary import Area

__all__ = ["run_rounds"]

Shifted = tuple[str, Mapping[str, str]] | None


def _attackers(figures: list[Gladiator]) -> dict[str, int]:
    """How many may attack each figure this phase (§27.1: two or more make him single)."""
    count = {
        f.seat: sum(1 for x in figures if any(t == f.seat for t, _, _ in x.targets))
        for f in figures
    }
    for b in figures:
        if b.beast is not None and b.may_attack:  # its one man
            for f in figures:
                if f.beast is None:
                    count[f.seat] += 1
    return count


def _adjacent(x: Gladiator, y: Gladiator) -> bool:
    return min(distance(h, y.hex) for h in counter_hexes(x)) == 1


def _yields(
    state: ColosseumState, figures: list[Gladiator], plans: list[Plan]
) -> dict[int, set[int]]:
    """§27.3 (G4, B16): a single gladiator yields to an adjacent opponent he is not attacking."""
    index = {f.seat: i for i, f in enumerate(figures)}
    engaged = _attackers(figures)
    out: dict[int, set[int]] = {}
    for i, y in enumerate(figures):
        if engaged[y.seat] < 2:
            continue
        hit = {a.target for a in plans[i].attacks}
        out[i] = {
            index[x.seat]
            for x in state.opponents(y.seat)
            if x.seat in index
            and _adjacent(x, y)
            and index[x.seat] not in hit
            and plans[index[x.seat]].attacks
        }
    return out


def run_rounds(
    state: ColosseumState,
    figures: list[Gladiator],
    plans: list[Plan],
    stroke_of: list[dict[tuple[int, Area], Stroke]],
    speeds: list[int | tuple[int, ...]],
    weakness: list[Weakness | None],
    dice: Dice,
    events: list[Event],
) -> None:
    """The attack rounds among them, what each result does through `on_hit`."""
    many = named(state)
    beasts = any(f.beast is not None for f in (*figures, *state.fallen.values()))
    engaged = _attackers(figures)
    combat: PhaseCombat

    def lose(g: Gladiator, item: ItemKind, drop: ItemDrop | None, cause: str) -> None:
        side = figures.index(g)
        lose_item(state, board_of(state), g, item, drop, cause, combat.events)
        # A carried weapon may come to hand at once (F5): he parries with it.
        combat.set_equipment(side, **{item: g.has_weapon if item == "weapon" else False})
        if item == "weapon":  # E4, F5: no more attacks this phase
            combat.cancel_attacks(side, "weapon dropped", "§13.1")

    def after_hit(side: int) -> None:
        d = figures[side]
        if d.alive and (d.sheet.killed or d.crits.killed):
            d.alive = False
            d.cause = "killed in combat"
            combat.cancel_attacks(side, "dead" if beasts else "he is dead", "§10.3.2")
            combat.cancel_attacks_on(side, _dead(d, many, beasts), "§10.3.2")
        elif d.sheet.unconscious:
            check_unconscious(d, combat.events)
            combat.cancel_attacks(side, "unconscious" if beasts else "he is unconscious", "§11.4")

    def on_hit(attacker: int, defender: int, area: Area, result: CrtOutcome) -> int:
        a, d = figures[attacker], figures[defender]
        stroke = stroke_of[attacker].get((defender, result.counter_of or area))  # S4: a Feint's
        if a.beast is not None:  # its claws and teeth: the Basic Game's results (B8)
            lost = strike(state, a, d, area, result, dice, combat.events, lose)
        elif d.beast is not None and (stroke is None or stroke.blow.weapon is not None):  # B8
            lost = hit_beast(state, a, d, area, result, stroke, dice, combat.events, lose)
        elif d.beast is not None:  # §23 against a beast (B21)
            lost = _fists(a, d, area, result, attacker)
        else:
            lost = _man_on_man(a, d, area, result, stroke, attacker, defender)
        after_hit(defender)
        if a.style and a.beast is None:  # a parried fist can wound the attacker himself (§23.2.1)
            after_hit(attacker)
        return lost

    def _fists(a: Gladiator, d: Gladiator, area: Area, result: CrtOutcome, attacker: int) -> int:
        charge = lambda n: combat.charge(attacker, n)  # noqa: E731
        return unarmed_strike(state, a, d, area, result, dice, combat.events, lose, charge)

    def _man_on_man(
        a: Gladiator,
        d: Gladiator,
        area: Area,
        result: CrtOutcome,
        stroke: Stroke | None,
        attacker: int,
        defender: int,
    ) -> int:
        blow = stroke.blow if stroke is not None else None
        if result.special:  # §22.2
            lost = special_hit(
                state,
                a,
                d,
                area,
                result,
                dice,
                combat.events,
                lose,
                blow,
                combat,
                attacker,
                defender,
            )
            if lost is not None:
                return lost
        if stroke is not None and stroke.blow.weapon is None:  # §23 (F15, F16)
            return _fists(a, d, area, result, attacker)
        return strike(state, a, d, area, result, dice, combat.events, lose, blow)

    def no_defence(attacker: int, defender: int) -> bool:  # §27.4 (G5)
        d = figures[defender]
        return engaged[d.seat] > 1 and in_rear_hexes(figures[attacker], d)

    def shift(attacker: int, defender: int, area: Area) -> Shifted:
        if figures[attacker].beast is not None:
            return None
        s = stroke_of[attacker].get((defender, area))
        if figures[defender].beast is None:
            return s.changes if s is not None else None
        own = dict(s.changes[1]) if s is not None and s.changes else {}  # §28.6.1.2 (B8)
        changes = beast_changes()
        merged = {k: changes.get(v, v) for k, v in own.items()}
        merged.update({k: v for k, v in changes.items() if k not in merged})
        return ("§28.6.1.2", merged)

    combat = PhaseCombat(
        plans,
        dice,
        on_hit,
        names=[f.seat for f in figures],
        speeds=speeds,
        # B8: a beast "parries" with its paws, so a P or P* against it stays one.
        has_weapon=[f.has_weapon or f.beast is not None for f in figures],
        has_shield=[
            f.beast is not None or (f.has_shield and not f.sheet.shield_useless) for f in figures
        ],
        crt=state.options["crt"],
        # §10.3.3.1: while his CF is below 1, every attack against him subtracts it.
        # §20.5.5.1 (Q31): the Net Loss box of a man who has just escaped.
        drm=lambda a, d, area: max(0, -figures[d].sheet.current_cf) + figures[d].net_loss,
        shift=shift,
        guard_results=guard_results(state) if specials_on(state) else None,
        yields=_yields(state, figures, plans),
        no_defence=no_defence,
        weakness=weakness,
        named=many,
    )
    events.extend(combat.run())


def _dead(d: Gladiator, many: bool, beasts: bool) -> str:
    """Why the attacks at a man just killed are cancelled, in each shape's words."""
    if many:
        return f"{d.seat} is dead"
    return "the other is dead" if beasts else "his opponent is dead"
