"""Balance analysis of the designed skirmish tables: the one-exchange move-versus-move game.

Two gladiators of one sheet stand face to face, each in the other's zone A (the `engaged` start,
SR1), fresh (no wound, no stun, standing, kit in hand). Each secretly writes one of the moves open
to him (§4.1; `engine.writable`: for the Thracian every move but get up, which is for the floor);
the turn is then played out as the engine plays it, with two simplifications stated here:

* nobody converts (§4.3.1): each performs what he wrote, so the game is one of written moves;
* the initiative winner (§4.2; ties §4.2.3, computed exactly over the two d6) chooses to go
  first (§4.2.1). Going first is never worse in this model: a D result kills before the reply,
  and a man who moves away first is out of reach of the blow that follows.

The first actor's attack is read against the other's written move (§4.3.3 b), the second's against
the move the first performed; an attack whose target is outside its zone misses without a roll
(§4.3.3 a), so a retire (to H) or a step (to the hex that the fewest of the other's attacks reach,
E or G: from there a Thracian is out of every attack zone) taken first avoids the blow, and taken
second is only a column of the matrix. A rush is blocked by the man in front and stays (SR8), so it
is a column too. The guards (parry, shield, stand), rush, retire and step are therefore kept, as
rows that deal nothing and as columns that matter; the game is symmetric, so rows and columns are
the same moves. A row that deals nothing can never gain, so a guard or a move enters the
equilibrium only where the attacks played against it all miss. Prohibitions (§2.5.7) act on the
next turn and so are outside one exchange.

Payoff of row i against column j: the expected damage value i deals minus the expected damage
value he receives, averaged over who goes first. The damage value of a result is what it costs
the man who takes it, in hit points (`result_values`): N 1, C 2, W 4 (the hit points its box
removes, §6.3-§6.10), D the expected hit points of a fresh man (2D6+6: 13). A stun costs its
victim his next turn's attacks (§5.3): its value is the value of the exchange in which he may only
write stun moves, and every N, C or W also stuns (§6.2) so it carries that value on top of its hit
points. The stun value is found as a fixed point (`stun_value`). Falls (§7.1) are left out of the
model: a man who falls before his reply would (SR10) have to give up a standing move, so the
replies of the second actor after a cut or wound are slightly overstated.

`solve` finds the equilibrium of this zero-sum game by regret matching (the regret-matching+
variant, alternating updates and linearly weighted averages: the average strategies converge to an
equilibrium); `report` gathers what the balance section of docs/skirmish-design.md shows.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from gladiator.core import hexgrid as hg
from gladiator.core.dice import parse_dice
from gladiator.core.hexgrid import Hex
from gladiator.rules.skirmish import combat, engine
from gladiator.rules.skirmish.arena import arena_of
from gladiator.rules.skirmish.options import normalise
from gladiator.rules.skirmish.state import Fighter, SkirmishState
from gladiator.rules.skirmish.tables import RESULTS, Move, tables

__all__ = [
    "best_response_gap",
    "exchange_matrix",
    "first_probability",
    "open_moves",
    "report",
    "result_distribution",
    "result_values",
    "solve",
    "stun_value",
]

Matrix = list[list[float]]


def dead_value(sheet: str = "thracian") -> float:
    """What a D result takes from a fresh man: the mean of his hit-point dice (§2.6)."""
    expr = parse_dice(tables().sheets[sheet].hit_points)
    return (expr.minimum + expr.maximum) / 2


def hp_values(sheet: str = "thracian") -> dict[str, float]:
    """The hit points the first box of each kind removes (the wound track, §6.3-§6.10)."""
    track = tables().sheets[sheet].wound_track
    return {"N": float(track[0].hp), "C": float(track[2].hp), "W": float(track[4].hp)}


# -- results -------------------------------------------------------------------------------------
def result_distribution(row: str) -> dict[str, float]:
    """The chance of each result (blank, S, N, C, W, D) on a result-table row such as "EMP"."""
    ranges = tables().results.rows[row]
    out = dict.fromkeys(RESULTS, 0.0)
    for result, (lo, hi) in ranges.items():
        out[result] = (hi - lo + 1) / 20
    return out


def result_values(stun: float, dead: float | None = None) -> dict[str, float]:
    """The damage value of each result, in hit points: N, C, W their hit points plus a stun
    (every wound stuns, §6.2), S a stun, D the hit points of a fresh man."""
    values = {"blank": 0.0, "S": stun, "D": dead_value() if dead is None else dead}
    for r, hp in hp_values().items():
        values[r] = hp + stun
    return values


# -- initiative ----------------------------------------------------------------------------------
def first_probability(move_a: int, move_b: int, basic_a: int = 5, basic_b: int = 5) -> float:
    """The chance that a wins the initiative (§4.2): basic + move + 1D6 each; a tie goes to the
    higher basic initiative, then the higher die, then a re-roll (§4.2.3)."""
    won = 0.0
    for da, db in itertools.product(range(1, 7), repeat=2):
        ta, tb = basic_a + move_a + da, basic_b + move_b + db
        if ta != tb:
            won += ta > tb
        elif basic_a != basic_b:
            won += basic_a > basic_b
        elif da != db:
            won += da > db
        else:
            won += 0.5
    return won / 36


# -- the exchange --------------------------------------------------------------------------------
def _engaged(sheet: str) -> tuple[SkirmishState, Fighter, Fighter]:
    """Two fresh gladiators face to face in the middle, as the `engaged` start places them."""
    here, there = Hex(0, 0), Hex(0, -1)
    hp = int(dead_value(sheet))
    a = Fighter("red", sheet, hp, hp, here, hg.facing_toward(here, there))
    b = Fighter("blue", sheet, hp, hp, there, hg.facing_toward(there, here))
    net = any(m.effect == "entangle" for m in tables().sheets[sheet].moves)
    a.has_net = b.has_net = net
    options = normalise({"gladiators": [sheet, sheet], "start": "engaged"})
    return SkirmishState(options=options, fighters={"red": a, "blue": b}), a, b


def open_moves(sheet: str = "thracian") -> list[Move]:
    """The moves a fresh, standing, unstunned gladiator may write (§4.1, engine.writable)."""
    state, a, _ = _engaged(sheet)
    return engine.writable(state, a)


def _strike(
    attacker: Fighter, move: Move, target: Fighter, values: Mapping[str, float], protection: str
) -> tuple[float, float]:
    """Expected damage value of an attack, and its chance of a D: zone (§4.3.3 a), column
    (§4.3.3 b), modifiers (§4.3.4), result table (§4.3.5)."""
    reach = {combat.zone_hex(attacker, z) for z in move.attack_zone}
    if target.hex not in reach:
        return 0.0, 0.0
    code = tables().matrix.matrix[move.code][combat.column_against(attacker, target)]
    if code == "-":
        return 0.0, 0.0
    final, _ = combat.modified_code(code, attacker, target)
    dist = result_distribution(final + protection)
    return sum(p * values[r] for r, p in dist.items()), dist["D"]


def _move_away(
    state: SkirmishState,
    mover: Fighter,
    move: Move,
    other: Fighter,
    threats: Sequence[Move],
    values: Mapping[str, float],
    protection: str,
) -> None:
    """§4.3.2 as engine._start_movement does it; where the step offers a choice of hexes, the one
    where the other's attacks (all of them, his written move being secret) threaten least."""
    arena = arena_of(state)

    def free(h: Hex) -> bool:
        return h in arena and h != other.hex

    if move.move_fallback:
        far = combat.zone_hex(mover, move.move_zone[0])
        near = combat.zone_hex(mover, move.move_fallback[0])
        if free(near):
            mover.hex = far if free(far) else near
        return
    start = mover.hex
    best: tuple[float, Hex] | None = None
    for h in (combat.zone_hex(mover, z) for z in move.move_zone):
        if not free(h):
            continue
        mover.hex = h
        threat = sum(_strike(other, t, mover, values, protection)[0] for t in threats)
        if best is None or threat < best[0]:
            best = (threat, h)
    mover.hex = start if best is None else best[1]


def _ordered(
    sheet: str, first: Move, second: Move, values: Mapping[str, float], protection: str
) -> tuple[float, float]:
    """(damage value dealt by the first actor, dealt by the second) when `first` acts first."""
    state, a, b = _engaged(sheet)
    a.written, b.written = first.code, second.code
    threats = [m for m in open_moves(sheet) if m.is_attack]
    by_a, kill = 0.0, 0.0
    if first.is_attack:
        by_a, kill = _strike(a, first, b, values, protection)
    elif first.move_zone:
        _move_away(state, a, first, b, threats, values, protection)
    a.performed = first.code
    by_b = 0.0
    if second.is_attack:
        by_b = (1 - kill) * _strike(b, second, a, values, protection)[0]
    return by_a, by_b


def _damage_matrix(
    sheet: str, moves: Sequence[Move], values: Mapping[str, float], protection: str
) -> Matrix:
    basic = tables().sheets[sheet].basic_initiative
    n = len(moves)
    out = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            mi, mj = moves[i], moves[j]
            p = first_probability(mi.initiative, mj.initiative, basic, basic)
            dealt_i, got_i = _ordered(sheet, mi, mj, values, protection)
            dealt_j, got_j = _ordered(sheet, mj, mi, values, protection)
            out[i][j] = p * (dealt_i - got_i) + (1 - p) * (got_j - dealt_j)
            out[j][i] = -out[i][j]
    return out


def _check_damage_only(moves: Sequence[Move]) -> None:
    for m in moves:
        if m.effect:
            raise ValueError(
                f"the exchange analysis values damage only; move {m.code} ({m.effect}) has none"
            )


def _affine(sheet: str, protection: str) -> tuple[list[Move], Matrix, Matrix]:
    """The payoff is affine in the stun value: the matrix at 0, and its change per unit."""
    moves = open_moves(sheet)
    _check_damage_only(moves)
    base = _damage_matrix(sheet, moves, result_values(0.0), protection)
    one = _damage_matrix(sheet, moves, result_values(1.0), protection)
    slope = [[b - a for a, b in zip(ra, rb, strict=True)] for ra, rb in zip(base, one, strict=True)]
    return moves, base, slope


def _stunned_game(moves: Sequence[Move], payoff: Matrix) -> tuple[list[int], Matrix]:
    """Rows: every move of the free man; columns: the stun moves of the stunned one (§5.3)."""
    cols = [j for j, m in enumerate(moves) if m.stun]
    return cols, [[row[j] for j in cols] for row in payoff]


def stun_value(
    sheet: str = "thracian",
    protection: str | None = None,
    *,
    iterations: int = 4_000,
    rounds: int = 60,
) -> float:
    """What a stun costs its victim: the value, to the free man, of the exchange in which the
    stunned one may only write stun moves (§5.3). A stun in that exchange is worth the same, so
    the value is a fixed point: iterate from 0 (it grows and settles)."""
    prot = protection or tables().sheets[sheet].protection_class
    moves, base, slope = _affine(sheet, prot)
    s = 0.0
    for _ in range(rounds):
        payoff = [
            [b + s * d for b, d in zip(rb, rd, strict=True)]
            for rb, rd in zip(base, slope, strict=True)
        ]
        _, v, _ = solve(_stunned_game(moves, payoff)[1], iterations=iterations)
        if abs(v - s) < 1e-4:
            return v
        s = v
    return s


def exchange_matrix(
    sheet: str = "thracian",
    protection: str | None = None,
    *,
    stun: float | None = None,
) -> tuple[list[str], Matrix]:
    """The one-exchange game between two fresh gladiators of `sheet`: the moves (codes) and the
    payoff of row against column (damage value dealt minus received). `protection` is the target's
    class (default the sheet's); `stun` the value of a stun (default `stun_value`)."""
    prot = protection or tables().sheets[sheet].protection_class
    moves = open_moves(sheet)
    _check_damage_only(moves)
    s = stun_value(sheet, prot) if stun is None else stun
    return [m.code for m in moves], _damage_matrix(sheet, moves, result_values(s), prot)


# -- solving -------------------------------------------------------------------------------------
def _normalised(weights: Sequence[float]) -> list[float]:
    total = sum(weights)
    if total <= 0:
        return [1 / len(weights)] * len(weights)
    return [w / total for w in weights]


def _row_payoffs(payoff: Matrix, column: Sequence[float]) -> list[float]:
    return [sum(a * y for a, y in zip(row, column, strict=True)) for row in payoff]


def _column_payoffs(payoff: Matrix, row: Sequence[float]) -> list[float]:
    return [sum(payoff[i][j] * row[i] for i in range(len(payoff))) for j in range(len(payoff[0]))]


def best_response_gap(
    payoff: Matrix, row: Sequence[float], column: Sequence[float] | None = None
) -> float:
    """The exploitability of the strategy pair: what the row player gains by his best pure reply
    to `column`, plus what the column player gains by his to `row` (0 at an equilibrium). With
    `column` left out the game is taken as symmetric and `row` plays both sides."""
    col = row if column is None else column
    return max(_row_payoffs(payoff, col)) - min(_column_payoffs(payoff, row))


def solve(payoff: Matrix, iterations: int = 20_000) -> tuple[list[float], float, float]:
    """The row player's equilibrium strategy, the game's value to him and the exploitability
    (`best_response_gap`) of the average strategies, by regret matching+ in self-play."""
    n, m = len(payoff), len(payoff[0])
    reg_r, reg_c = [0.0] * n, [0.0] * m
    avg_r, avg_c = [0.0] * n, [0.0] * m
    x, y = [1 / n] * n, [1 / m] * m
    for t in range(1, iterations + 1):
        u = _row_payoffs(payoff, y)
        ev = sum(a * b for a, b in zip(x, u, strict=True))
        reg_r = [max(0.0, r + ui - ev) for r, ui in zip(reg_r, u, strict=True)]
        x = _normalised(reg_r)
        for i in range(n):
            avg_r[i] += t * x[i]
        w = _column_payoffs(payoff, x)
        ev = sum(a * b for a, b in zip(y, w, strict=True))
        reg_c = [max(0.0, r + ev - wj) for r, wj in zip(reg_c, w, strict=True)]
        y = _normalised(reg_c)
        for j in range(m):
            avg_c[j] += t * y[j]
    xs, ys = _normalised(avg_r), _normalised(avg_c)
    value = sum(xs[i] * v for i, v in enumerate(_row_payoffs(payoff, ys)))
    return xs, value, best_response_gap(payoff, xs, ys)


def report(
    sheet: str = "thracian",
    protection: str | None = None,
    *,
    iterations: int = 20_000,
    threshold: float = 0.01,
) -> dict[str, Any]:
    """The balance figures: moves, payoff matrix, stun value, equilibrium mix, its support (moves
    played at least `threshold` of the time), value, exploitability, and each pure move's payoff
    against the mix (none above 0 at an equilibrium of a symmetric zero-sum game: no move
    dominant), and the stunned exchange behind the stun value (its value, the free man's mix and
    the stunned man's mix over his stun moves)."""
    prot = protection or tables().sheets[sheet].protection_class
    s = stun_value(sheet, prot)
    moves, payoff = exchange_matrix(sheet, prot, stun=s)
    mix, value, gap = solve(payoff, iterations=iterations)
    against = _row_payoffs(payoff, mix)
    # The stunned exchange (§5.3): the free man's mix, and the stunned man's (as the row player
    # of the game seen from his side).
    cols, stunned = _stunned_game(open_moves(sheet), payoff)
    free_mix, stunned_value, _ = solve(stunned, iterations=iterations)
    his_side = [[-stunned[i][k] for i in range(len(moves))] for k in range(len(cols))]
    stunned_mix, _, _ = solve(his_side, iterations=iterations)
    return {
        "sheet": sheet,
        "protection": prot,
        "stun_value": s,
        "moves": moves,
        "payoff": payoff,
        "mix": dict(zip(moves, mix, strict=True)),
        "support": [mv for mv, p in zip(moves, mix, strict=True) if p >= threshold],
        "value": value,
        "exploitability": gap,
        "against_mix": dict(zip(moves, against, strict=True)),
        "stunned": {
            "value": stunned_value,
            "free_mix": {mv: p for mv, p in zip(moves, free_mix, strict=True) if p >= threshold},
            "stunned_mix": {
                moves[c]: p for c, p in zip(cols, stunned_mix, strict=True) if p >= threshold
            },
        },
    }
