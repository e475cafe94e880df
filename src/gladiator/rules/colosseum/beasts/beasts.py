"""§28 Gladiator vs beast: which seat is a beast (option `beasts`), the beast's record and its
stand-in log sheet, and where its counter lies (§28.2.1: head hex and body hex).

A beast is a `Gladiator` of the state whose `beast` holds a `Beast` record; its `hex` and
`facing` are its head's, and a two-hex beast's body lies in the hex straight behind the head
(`tail`). It is played by the engine (beast_movement.py, beast_combat.py): the seat gets no
decision. Its T21 values sit on a `LogSheet` built without the gladiator checks (no armour, no
shield; TR is CF − ST − AG so that the sheet's CF is T21's), so wounds, Stun and criticals mark it
as they mark a gladiator's (§28.6.3: T25 instead of T9).

RULINGS (docs/rulings.md, Colosseum §28, the B series)

B1  Option `beasts`: "seat:kind" (one beast: the Basic and Advanced Game are a duel), kind a T21
    beast or "random" (P3: 1D6 1 bear, 2 leopard, 3 lion, 4 tiger, 5 wolf, 6 re-roll). Advanced
    Game only, not with `solitaire`. The other seat's style "random" rolls 1D2 over the §28.2
    beast fighters (Bestiarius, Venator); any T37 style may be chosen instead.
B2  §28.2.1, §4.5: the beast takes the seat's §4.5 starting hex with its head, facing the
    gladiator, its body behind; it never leaves the board: a step or turn that would put either
    of its hexes off the map (or through an arena wall) is not taken, and no wall collision is
    rolled for it. A gladiator cannot enter either of its hexes: his movement stops in the hex
    before (collisions with a beast are the beast's, §28.5).
B4  §28.3, Q38: a beast's wounds mark its T21 W per area as a gladiator's do (§10.3), costing CF
    by the sheet's categories (P1); a bear's (W 18) or tiger's (W 16) boxes above the sheet's 15
    count in the top category. It has no armour; its sheet's TR is CF − ST − AG.
B9  The match ends when the beast or the gladiator is dead or incapacitated (unconscious): a
    beast knows no appeal, so the Moment of Truth (§18) never comes, and nor does stans missus
    (§5.4.1): a beast hunt is fought out (max_turns still stops it as a draw). A beast never
    tires (NOTE §28.4, §17.1) and is never Prone: a Stun row's extras do not touch it.
"""

from __future__ import annotations

from gladiator.core.dice import Dice
from gladiator.core.hexgrid import DIRECTIONS, Hex, add, distance, neighbors, opposite
from gladiator.rules.colosseum.arena.combat_geometry import front_coords
from gladiator.rules.colosseum.beasts.beast_record import Beast
from gladiator.rules.colosseum.kit.styles import NO_ARMOUR
from gladiator.rules.colosseum.sheet.logsheet import LogSheet
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.tables.advanced_tables import advanced_tables
from gladiator.rules.colosseum.tables.beast_tables import BeastHex
from gladiator.rules.colosseum.vocabulary import Area

__all__ = [
    "RANDOM_KINDS",
    "Beast",
    "beast_of",
    "beast_sheet",
    "counter_hexes",
    "gladiator_of",
    "random_kind",
    "t24_entry",
    "t25_critical",
    "tail",
]

# P3 (Q34): 1D6 1 bear, 2 leopard, 3 lion, 4 tiger, 5 wolf, 6 re-roll.
RANDOM_KINDS = ("bear", "leopard", "lion", "tiger", "wolf")


def random_kind(seat: str, dice: Dice) -> str:
    """P3 (Q34): 1D6 over the beasts, re-rolling a 6."""
    names = ", ".join(f"{n} {k}" for n, k in enumerate(RANDOM_KINDS, 1))
    while True:
        roll = dice.d(6, f"{seat}'s beast ({names}, 6 re-roll)", "§30.2.1.1 P3")
        if roll <= len(RANDOM_KINDS):
            return RANDOM_KINDS[roll - 1]


def beast_sheet(kind: str, seat: str) -> LogSheet:
    """The T21 values on a log sheet (§28.3): no armour, no shield, CF as printed."""
    b = advanced_tables().beasts.beast(kind)
    return LogSheet.model_construct(
        id=13,
        name=f"{seat} ({b.name})",
        gladiator_class="heavy",  # never read for a beast: it has no move rate nor T12 row
        prestige=0,
        tr=b.cf - b.st - b.ag,  # so that the sheet's CF (TR + ST + AG) is T21's
        st=b.st,
        ag=b.ag,
        cn=b.cn,
        w=b.w,
        armour=(NO_ARMOUR,) * 5,
        shield=None,
        armour_roll=None,
        opponent_is_retiarius=False,
        style=None,
        armour_roll_2=None,
        wounds=(0, 0, 0, 0, 0),
        cf_lost_other=0,
        st_lost=0,
        ag_lost=0,
        stun=(),
        shield_marked=0,
        plot=(),
    )


def tail(head: Hex, facing: int) -> Hex:
    """§28.2.1: the body hex, straight behind the head."""
    return add(head, DIRECTIONS[opposite(facing)])


def counter_hexes(
    g: Gladiator, head: Hex | None = None, facing: int | None = None
) -> tuple[Hex, ...]:
    """The hexes a beast's counter covers (the head first); a gladiator's own hex."""
    h = g.hex if head is None else head
    f = g.facing if facing is None else facing
    if g.beast is None or g.beast.size == 1:
        return (h,)
    return (h, tail(h, f))


def beast_of(state: ColosseumState) -> Gladiator | None:
    return next((g for g in state.gladiators.values() if g.beast is not None), None)


def gladiator_of(state: ColosseumState) -> Gladiator:
    """The gladiator facing the beast (the duel's other seat)."""
    return next(g for g in state.gladiators.values() if g.beast is None)


def t24_entry(b: Gladiator, at: Hex) -> BeastHex:
    """§28.6, T24 (A13): the PA and the areas for a gladiator at `at` round the beast `b`. From
    farther off (a spear, §21.10) the touching hex nearest him counts, the least PA on a tie
    (ruling B7)."""
    assert b.beast is not None
    table = advanced_tables().beasts.pa_table(b.beast.kind)
    body = counter_hexes(b)
    if min(distance(at, h) for h in body) == 1:
        fl, fr = front_coords(b.hex, b.facing, at)
        return table.at(fl, fr)
    ring = {n for h in body for n in neighbors(h)} - set(body)
    entries = [(distance(at, h), table.at(*front_coords(b.hex, b.facing, h))) for h in ring]
    best = min(d for d, _ in entries)
    return min((e for d, e in entries if d == best), key=lambda e: (e.pa, e.name))


def t25_critical(area: Area, total: int) -> tuple[str, ...]:
    """§28.6.3: T25 for the beast's area (area 4 is its paws)."""
    beast_area = "paws" if area == "arms" else area
    return advanced_tables().beasts.t25.result(beast_area, total)
