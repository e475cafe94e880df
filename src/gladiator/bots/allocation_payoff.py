"""The payoff model of one Colosseum allocation (§9.3-§13): what a pair of secret allocations
is worth to the seat deciding, as the expected change in the position's value.

Each attack is priced exactly (`attack_outcomes`: the CRT roll, the wound, critical and Stun
dice, the shield-damage and drop rolls, all enumerated): every distinct result is applied to a
copy of the state (wounds, CF and characteristic losses, Stun, a dropped weapon or shield, a lost
helmet, a kill, unconsciousness laying him Prone, §11.4) and the copy is valued by the position
value (`bots.position_value`, swappable). The phase itself (§9.4) follows the engine's attack
sequence (T10 rounds, more CF first, equal CF simultaneous, §9.4.4) and carries losses in
expectation (RULING AS2): each attack's CF loss comes off the victim's unresolved attacks in
order and what is left off the defence of his next area attacked (§9.4.6-§9.4.8); a fumble
cancels the fumbler's later attacks and lowers his next defence by 1D6 = 3.5 (§9.6); an attack
counts only as far as both men are still standing (a kill, §10.3.2).

Halvings (§14.2, §14.3, §13.4.2, E3) are applied as the engine does, before the sequence.
Not modelled (AS2): a shield track's P and H boxes (§12.3.1), Stun's effect on later attacks
of the same phase beyond the CF it costs, the §18.3 performance value.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from gladiator.bots.allocation_strategies import order_text
from gladiator.bots.attack_outcomes import (
    crt_distribution,
    drop_probability,
    hit_distribution,
    sum_2d6,
)
from gladiator.bots.position_value import DEFAULT_VALUE, PositionValue, zero_sum
from gladiator.rules.colosseum.combat.cf_allocation import parse_allocation
from gladiator.rules.colosseum.movement.postures import fall_prone
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.tables.tables import attack_rounds
from gladiator.rules.colosseum.vocabulary import AREAS

__all__ = ["Effect", "PhaseModel", "Prepared", "merge_sequence"]

_FUMBLE_PENALTY = 3.5  # §9.6: the mean of 1D6
_M_RANGE = 40  # modified CFs beyond +-40 read as the nearest (columns 1 and 8 clamp the roll)


@dataclass(frozen=True, slots=True)
class Effect:
    """One distinct result of one attack on the defender's area."""

    area: int
    wounds: int = 0  # -1: a T7 Kill (§10.1)
    codes: tuple[str, ...] = ()  # critical codes other than 1, 2x, 3x and S (§10.5)
    stun: int = 0  # §10.5 S
    shield: int = 0  # a shield damage roll (§12.2), 0 for none
    drop_weapon: bool = False  # §13.1.1 after P, P*; §10.5 WD
    drop_shield: bool = False  # §13.1.1 after S*; §10.5 SD


@dataclass(frozen=True, slots=True)
class Prepared:
    """One side's allocation as the phase uses it: attacks after halvings, in his order."""

    text: str
    written: tuple[int, ...]  # attack CF per area as written, before halvings
    attacks: tuple[tuple[int, int], ...]  # (area index, CF) in the order he makes them (Q25)
    defence: tuple[int, ...]
    planned: tuple[tuple[int, int, int, int], ...]  # (round, CF, rank, area index), T10


def merge_sequence(
    a: Sequence[tuple[int, int, int, int]], b: Sequence[tuple[int, int, int, int]]
) -> list[list[tuple[int, int, int]]]:
    """§9.4.2-§9.4.4: the steps of the phase as lists of (side, rank, area) — the engine's
    `attack_sequence` for speed 0 (the Basic Game), on precomputed plans."""
    steps: list[list[tuple[int, int, int]]] = []
    rounds = sorted({p[0] for p in a} | {p[0] for p in b})
    for rnd in rounds:
        here = [(p, 0) for p in a if p[0] == rnd] + [(p, 1) for p in b if p[0] == rnd]
        for cf in sorted({p[1] for p, _ in here}, reverse=True):
            mine = sorted((p for p, s in here if s == 0 and p[1] == cf), key=lambda p: p[2])
            theirs = sorted((p for p, s in here if s == 1 and p[1] == cf), key=lambda p: p[2])
            for i in range(max(len(mine), len(theirs))):
                pair = [(s, g[i][2], g[i][3]) for s, g in ((0, mine), (1, theirs)) if i < len(g)]
                if len(pair) == 2:
                    steps.append(pair)
                else:
                    steps.extend([x] for x in pair)
    return steps


def _shield_room(g: Gladiator) -> tuple[int, int]:
    """§12.2.1: his shield's damage points and the boxes left to mark (0 left: no shield)."""
    sheet = g.sheet
    if sheet.shield_useless or not sheet.shield_track:
        return 0, 0
    points = sheet.shield_damage_points
    return (points if points is not None else 0), len(sheet.shield_track) - sheet.shield_marked


class PhaseModel:
    """The payoff model for one allocation spot: `seat` (side 0, the row player) against his
    opponent (side 1). `payoff(row, col)` is side 0's expected gain in zero-sum position value."""

    def __init__(
        self, state: ColosseumState, seat: str, value: PositionValue = DEFAULT_VALUE
    ) -> None:
        self.state = state
        self.value = value
        me, foe = state.gladiators[seat], state.opponent(seat)
        self.men: tuple[Gladiator, Gladiator] = (me, foe)
        self.seats = (me.seat, foe.seat)
        self.variant = state.options["crt"]
        self.v0 = zero_sum(value, state, *self.seats)
        self._effects: dict[tuple[int, Effect], tuple[float, float, float]] = {}
        self._parts: dict[tuple[object, ...], tuple[float, int, bool]] = {}
        self._shields = tuple(_shield_room(g) for g in self.men)
        self._plain: dict[tuple[int, int, int], tuple[float, float, float]] = {}
        self._hits: dict[tuple[int, int, int], tuple[float, float, float]] = {}
        self._rows: dict[tuple[int, int, int], tuple[float, float, float, float]] = {}
        self._steps: dict[tuple[object, object], list[list[tuple[int, int, int]]]] = {}

    # -- one side's allocation -------------------------------------------------------------
    def prepare(self, side: int, text: str) -> Prepared:
        al = parse_allocation(text, self.men[side].available)
        return self._prepared(side, text, list(al.attack), al.defence, al.order)

    def _prepared(
        self,
        side: int,
        text: str,
        attack: list[int],
        defence: Sequence[int],
        listed: Sequence[str] | None,
    ) -> Prepared:
        g, other = self.men[side], self.men[1 - side]
        written = tuple(attack)
        for on in (g.posture == "kneeling", g.recovered_weapon):  # §14.3, §13.4.2 (E3)
            if on:
                attack = [v // 2 for v in attack]
        legs = AREAS.index("legs")
        if other.posture == "kneeling":  # §14.2
            attack[legs] //= 2
        areas = range(5) if listed is None else [AREAS.index(a) for a in listed]
        order = [i for i in areas if attack[i] > 0]
        attacks = tuple((i, attack[i]) for i in order)
        rounds = attack_rounds(len(attacks)) if attacks else ()
        planned = tuple(
            (rnd, cf, rank, i)
            for rank, ((i, cf), rnd) in enumerate(zip(attacks, rounds, strict=True))
        )
        return Prepared(text, written, attacks, tuple(defence), planned)

    def prepare_split(self, side: int, attack: Sequence[int], defence: Sequence[int]) -> Prepared:
        """`prepare` for an allocation given as CF per area (attacks in area order, as
        `Distribute.validate` writes them), without reading a text."""
        return self._prepared(side, order_text(attack, defence), list(attack), tuple(defence), None)

    # -- one result of one attack ----------------------------------------------------------
    def _gain(self, attacker: int, after: ColosseumState) -> float:
        gain = zero_sum(self.value, after, *self.seats) - self.v0
        return gain if attacker == 0 else -gain

    def _part(self, attacker: int, key: tuple[object, ...]) -> tuple[float, int, bool]:
        """(value to the attacker, CF lost, killed) of one component of a result on its own,
        measured by the position value on a copy of the state (AS2: components add up)."""
        full = (attacker, *key)
        got = self._parts.get(full)
        if got is not None:
            return got
        after = self.state.clone()
        d = after.gladiators[self.seats[1 - attacker]]
        sheet, kind, arg = d.sheet, key[0], key[1]
        if kind == "wounds":  # §10.3
            assert isinstance(arg, tuple)
            sheet, _ = sheet.with_wounds(AREAS[int(arg[0])], int(arg[1]))
        elif kind == "stun":  # §11.2
            sheet, _ = sheet.with_stun(int(arg), turn=after.turn, phase=after.phase)  # type: ignore[call-overload]
        elif kind == "shield":  # §12.2: boxes after a damage roll
            sheet, _ = sheet.with_shield_damage(int(arg))  # type: ignore[call-overload]
        elif kind == "V":
            sheet, _ = sheet.with_cf_loss(1, "§10.5")
        elif kind in ("ST", "AG"):
            sheet, _ = sheet.with_characteristic_loss(kind, 1)
        elif kind in ("WD", "drop_weapon"):
            d.has_weapon = False
        elif kind in ("SD", "drop_shield"):
            d.has_shield = False
        elif kind == "H":
            d.crits = replace(d.crits, helmet_lost=True)
        elif kind in ("LMP", "STU"):
            d.crits = replace(d.crits, **{kind.lower(): getattr(d.crits, kind.lower()) + 1})
        elif kind == "M":
            d.crits = replace(d.crits, mortal=True)
        elif kind == "prone":  # §11.4: unconscious, laid Prone
            fall_prone(d)
        lost = self.men[1 - attacker].sheet.current_cf - sheet.current_cf
        killed = kind == "kill" or sheet.killed
        if killed:  # §10.3.2, §10.5 K
            d.alive = False
            after.step, after.winners = "over", (self.seats[attacker],)
        else:
            d.sheet = sheet
        got = (self._gain(attacker, after), lost, killed)
        self._parts[full] = got
        return got

    def effect(self, attacker: int, e: Effect) -> tuple[float, float, float]:
        """(value to the attacker, CF the defender loses at once (§9.4.6), killed 0/1)."""
        key = (attacker, e)
        got = self._effects.get(key)
        if got is None:
            got = self._effect(attacker, e)
            self._effects[key] = got
        return got

    def _effect(self, attacker: int, e: Effect) -> tuple[float, float, float]:
        if e.wounds < 0 or "K" in e.codes:  # §10.1 T7 Kill, §10.5 K
            return self._part(attacker, ("kill", None))[0], 0.0, 1.0
        value, lost = 0.0, 0
        if e.wounds:
            v, lost, killed = self._part(attacker, ("wounds", (e.area, e.wounds)))
            if killed:
                return v, 0.0, 1.0
            value += v
        for c in e.codes:
            if c in ("V", "ST", "AG", "WD", "SD", "H", "LMP", "STU", "M"):
                v, lo, _ = self._part(attacker, (c, None))
                value, lost = value + v, lost + lo
        if e.stun:
            value += self._part(attacker, ("stun", e.stun))[0]
        if e.shield:
            value += self._part(attacker, ("shield", e.shield))[0]
        for flag, kind in ((e.drop_weapon, "drop_weapon"), (e.drop_shield, "drop_shield")):
            if flag:
                value += self._part(attacker, (kind, None))[0]
        d = self.men[1 - attacker]
        stun = d.sheet.stun_in_effect + e.stun
        if stun > 0 and stun > d.sheet.current_cf - lost and d.posture != "prone":  # §11.4
            value += self._part(attacker, ("prone", None))[0]
        return value, float(lost + e.stun), 0.0

    def _hit(self, attacker: int, area: int, h_mod: int) -> tuple[float, float, float]:
        """§10: (value, CF loss, P(kill)) of a body hit H`h_mod` on that area."""
        key = (attacker, area, h_mod)
        got = self._hits.get(key)
        if got is not None:
            return got
        d = self.men[1 - attacker]
        name = AREAS[area]
        lost_helmet = d.crits.helmet_lost
        armour = "-" if name == "head" and lost_helmet else str(d.sheet.armour_of(name))
        helmet = not lost_helmet and d.sheet.armour_of("head").letter is not None
        v = loss = kill = 0.0
        cache = self._effects
        for p, wounds, codes, stun in hit_distribution(name, armour, helmet, h_mod, d.sheet.cn):
            ekey = (attacker, Effect(area, wounds, codes, stun)) if codes or stun else None
            if ekey is None:  # the common case: wounds alone, no Effect object built
                got = self._plain.get((attacker, area, wounds))
                if got is None:
                    got = self._effect(attacker, Effect(area, wounds))
                    self._plain[(attacker, area, wounds)] = got
            else:
                got = cache.get(ekey)
                if got is None:
                    got = self._effect(attacker, ekey[1])
                    cache[ekey] = got
            v, loss, kill = v + p * got[0], loss + p * got[1], kill + p * got[2]
        got = (v, loss, kill)
        self._hits[key] = got
        return got

    def row(self, attacker: int, area: int, modified: int) -> tuple[float, float, float, float]:
        """One attack at this modified CF: (value to the attacker, expected CF loss of the
        defender, P(kill), P(fumble))."""
        modified = max(-_M_RANGE, min(_M_RANGE, modified))
        key = (attacker, area, modified)
        got = self._rows.get(key)
        if got is not None:
            return got
        a, d = self.men[attacker], self.men[1 - attacker]
        weapon, shield = d.has_weapon, d.has_shield and not d.sheet.shield_useless
        drm = max(0, -d.sheet.current_cf)  # §10.3.3.1
        st = a.sheet.current_st
        arms = d.sheet.cf_lost_to_wounds("arms")
        v = loss = kill = fumble = 0.0
        for p, code, mod in crt_distribution(modified, drm, weapon, shield, self.variant):
            if code == "H":
                hv, hl, hk = self._hit(attacker, area, mod)
                v, loss, kill = v + p * hv, loss + p * hl, kill + p * hk
            elif code == "F":
                fumble += p
            elif code in ("P", "P*"):  # §13.1.1
                pd = drop_probability(modified, st, arms)
                v += p * pd * self.effect(attacker, Effect(0, drop_weapon=True))[0]
            elif code in ("S", "S*"):  # §12.2, §12.4
                edge = code == "S*"
                pd = drop_probability(modified, st, arms) if edge else 0.0
                unweakened = max(modified, 0)
                for roll, p2 in sum_2d6():
                    dmg = self._shield_damage(attacker, roll + st + unweakened + (1 if edge else 0))
                    kept = self.effect(attacker, Effect(0, shield=dmg))[0]
                    dropped = self.effect(attacker, Effect(0, shield=dmg, drop_shield=True))[0]
                    v += p * p2 * ((1 - pd) * kept + pd * dropped)
        got = (v, loss, kill, fumble)
        self._rows[key] = got
        return got

    def _shield_damage(self, attacker: int, damage: int) -> int:
        """§12.2.1: the least damage roll that marks as many boxes as `damage` does (rolls with
        the same effect share one valuation); 0 if it marks none."""
        floor, left = self._shields[1 - attacker]
        count = min(damage - floor, left)
        return floor + count if count > 0 else 0

    def _row_at(self, attacker: int, area: int, m: float) -> tuple[float, float, float, float]:
        lo = math.floor(m)
        a = self.row(attacker, area, lo)
        if m == lo:
            return a
        b, t = self.row(attacker, area, lo + 1), m - lo
        return (
            a[0] + t * (b[0] - a[0]),
            a[1] + t * (b[1] - a[1]),
            a[2] + t * (b[2] - a[2]),
            a[3] + t * (b[3] - a[3]),
        )

    # -- the phase (§9.4) ------------------------------------------------------------------
    def payoff(self, r: Prepared, c: Prepared) -> float:
        """Side 0's expected gain when he plays `r` and side 1 plays `c` (AS2)."""
        plans = (r, c)
        rem = [[float(cf) for _, cf in r.attacks], [float(cf) for _, cf in c.attacks]]
        dfc = [[float(x) for x in r.defence], [float(x) for x in c.defence]]
        pending = [len(r.attacks), len(c.attacks)]
        wait = [0.0, 0.0]
        alive = [1.0, 1.0]
        able = [1.0, 1.0]
        total = [0.0, 0.0]
        steps = self._steps.get((r.planned, c.planned))
        if steps is None:
            steps = merge_sequence(r.planned, c.planned)
            self._steps[(r.planned, c.planned)] = steps
        for step in steps:
            reads = []
            for side, rank, area in step:
                pending[side] -= 1
                cf = rem[side][rank]
                if cf <= 0.0:
                    continue
                o = 1 - side
                d = dfc[o][area] - wait[o]
                dfc[o][area], wait[o] = d, 0.0
                w = alive[side] * able[side] * alive[o]
                if cf < 1.0:
                    w, cf = w * cf, 1.0
                if w > 0.0:
                    reads.append((side, w, self._row_at(side, area, cf - d)))
            losses = [0.0, 0.0]
            for side, w, (ev, loss, kill, fumble) in reads:
                o = 1 - side
                total[side] += w * ev
                alive[o] = max(0.0, alive[o] - w * kill)
                able[side] = max(0.0, able[side] - w * fumble)
                wait[side] += _FUMBLE_PENALTY * w * fumble
                losses[o] += w * loss
            for side in (0, 1):
                left = losses[side]
                if not left:
                    continue
                n = len(plans[side].attacks)
                for k in range(n - pending[side], n):
                    take = min(rem[side][k], left)
                    rem[side][k] -= take
                    left -= take
                if left > 0.0 and pending[1 - side]:
                    wait[side] += left
        return total[0] - total[1]

    def matrix(self, rows: Sequence[Prepared], cols: Sequence[Prepared]) -> np.ndarray:
        out = np.empty((len(rows), len(cols)))
        for i, r in enumerate(rows):
            for j, c in enumerate(cols):
                out[i, j] = self.payoff(r, c)
        return out
