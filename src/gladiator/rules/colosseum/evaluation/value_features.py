"""What a Colosseum position looks like to a value function: a feature vector for (state, seat).

Each gladiator gets the same list of *side* features (`SIDE_FEATURES`), read off his log sheet,
his critical record, his kit and where he stands against his opponent; the value function sees
their *difference* (his minus his opponent's, `features`) and a few differences scaled by a
quantity both share (the turn). Because every entry changes sign when the seats swap, a model
with no bias on these features is antisymmetric by construction: P(red wins) = 1 − P(blue wins)
(rulings V1, V2).

Only what the seat may know is read: everything here is on the table in `view(state, seat)` (both
log sheets, postures, positions, items on the ground; ColosseumState keeps no secret, the hidden
orders wait in `Match`). A written order not yet revealed is never a feature.

Scales (CF over 20, wounds as the share of the area's track, PA over 6...) keep the weights of a
regularised fit comparable; they are not rules.
"""

from __future__ import annotations

from functools import cache
from operator import sub

from gladiator.core.hexgrid import Hex, distance, neighbor, to_offset
from gladiator.rules.colosseum.arena.combat_geometry import (
    front_coords,
    in_front,
    positional_advantage,
)
from gladiator.rules.colosseum.arena.walls import edges_beyond
from gladiator.rules.colosseum.kit.styles import style_keys
from gladiator.rules.colosseum.sheet.logsheet import LogSheet
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.tables.tables import tables
from gladiator.rules.colosseum.vocabulary import AREAS

__all__ = [
    "FEATURE_NAMES",
    "SIDE_FEATURES",
    "feature_table",
    "features",
    "side_features",
]

_CLASSES = ("light", "medium", "heavy")
_ORIGIN = Hex(0, 0)

_BASE_SIDE: tuple[str, ...] = (
    # §3.13, §9.3.1: what he fights with
    "cf",  # current CF / 20
    "cf_share",  # current CF / CF rolled (§3.11.2)
    "stun",  # Stun in effect / 10 (§3.14)
    "unconscious",  # §11.4
    # §10.3: wounds, each area's as the share of its track marked (a full area kills, §10.3.2)
    *(f"wounds_{a}" for a in AREAS),
    "wounds_total",  # all areas' wounds / W
    "wounds_worst",  # the fullest area's share
    "wounds_worst_sq",  # its square: the last boxes matter most
    # §10.5 criticals
    "arteries",  # severed arteries bleeding (SA)
    "mortal",  # M
    "helmet_lost",  # H
    "lmp",  # LMP results
    "stu",  # STU results
    "traits_lost",  # ST and AG lost (§10.5 ST, AG) / 5
    # §17: endurance
    "endurance_lost",  # CF lost to endurance / 10
    "exceeded",  # used the §17.3 extra phase this turn or last
    # §14, §15, §16: posture
    "kneeling",
    "prone",
    "stumbling",  # must write S, or performing it (§15.1, §15.3)
    # §12, §13: kit
    "weapon_lost",  # no weapon in hand (§13.2)
    "shield_lost",  # his shield dropped (one he came with, §13.2)
    "shield_battered",  # in hand but useless (§12.3)
    "shield_damage",  # share of the shield track marked (§3.17)
    "weapon_near",  # lost, and a weapon lies within a hex of him (§13.4)
    "shield_near",  # lost, and a shield lies within a hex of him
    "recovered_weapon",  # picked up this phase: half CF (§13.4.2)
    # §6.2, §9.1, §9.2: position against the opponent
    "threatens",  # the opponent is in his combat front and he is not Prone: he may attack
    "facing_him",  # the opponent is in his frontal 120° cone within 3 hexes
    "in_his_front",  # he stands in the opponent's frontal cone (T11 regions)
    "on_his_flank",  # ... on the opponent's side
    "in_his_rear",  # ... behind the opponent
    "pa",  # his positional advantage on the opponent (§9.2, T11, §9.2.1) / 6
    "edge",  # how close he is to the board's edge: (3 − hexes to it) / 3, 0 from 3 away (§7.7)
    "against_wall",  # on a hex beside a walled edge (§25, Advanced Game)
    # §5.2.1, §10.5 LMP, §17.3: movement left this turn
    "moves_left",  # / 6
    "move_rate",  # / 6 (§3.5, T37)
    # §3.4: class (the Basic Game's armour and move rate go with it)
    *(f"class_{c}" for c in _CLASSES),
    # §19-§24 (Advanced Game; 0 in the Basic Game)
    "net",  # holds a net (§20)
    "ensnared",  # a net ensnares him (§20.5)
    "two_weapons",  # a pair in hand (§24)
)


@cache
def _side_names() -> tuple[str, ...]:
    return (*_BASE_SIDE, *(f"style_{k}" for k in style_keys()))


SIDE_FEATURES: tuple[str, ...] = _side_names()
# The differences, then those scaled by how far the match has gone (turn / max_turns).
_LATE = ("cf_share", "wounds_worst", "threatens")
FEATURE_NAMES: tuple[str, ...] = (
    *(f"d_{n}" for n in SIDE_FEATURES),
    *(f"d_{n}_x_late" for n in _LATE),
)
_LATE_INDEX = tuple(SIDE_FEATURES.index(n) for n in _LATE)
_STYLE_INDEX = {k: len(_BASE_SIDE) + i for i, k in enumerate(style_keys())}
_NO_STYLE = (0.0,) * len(_STYLE_INDEX)


def _edge_distance(g: Gladiator, width: int, height: int) -> int:
    col, row = to_offset(g.hex)
    return min(col, width - 1 - col, row, height - 1 - row)


def _against_wall(state: ColosseumState, g: Gladiator, width: int, height: int) -> bool:
    """§25: a walled edge line lies across one of his hex-sides (only a hex on the board's rim
    has a side on an edge line)."""
    walls = state.walls
    for d in range(6):
        if any(e in walls for e in edges_beyond(neighbor(g.hex, d), width, height)):
            return True
    return False


def _item_near(state: ColosseumState, g: Gladiator, kind: str) -> bool:
    return any(i.item == kind and distance(i.hex, g.hex) <= 1 for i in state.items)


@cache
def _exceeded_penalty() -> int:
    penalty: int = tables().turn_end.endurance.exceeded_next_turn_penalty
    return penalty


# The features read off the log sheet alone, by the sheet: a sheet is an immutable value that
# every clone of a state shares, and search evaluates the same sheets again and again. The sheet
# is kept beside its features so that its id cannot be reused while the entry lives.
_SHEET_CACHE: dict[int, tuple[LogSheet, tuple[float, ...]]] = {}
_SHEET_CACHE_SIZE = 4096


def _sheet_part(s: LogSheet) -> tuple[float, ...]:
    hit = _SHEET_CACHE.get(id(s))
    if hit is not None and hit[0] is s:
        return hit[1]
    w = max(1, s.w)
    cf = s.current_cf
    shares = [n / w for n in s.wounds]
    worst = max(shares)
    track = len(s.shield_track)
    part = (
        cf / 20.0,
        cf / max(1, s.cf),
        s.stun_in_effect / 10.0,
        float(s.unconscious),
        *shares,
        sum(s.wounds) / w,
        worst,
        worst * worst,
        (s.st_lost + s.ag_lost) / 5.0,
        s.cf_lost_to_endurance / 10.0,
        float(track > 0 and s.shield_useless),
        (s.shield_marked / track) if track else 0.0,
        float(s.shield is not None),
        s.move / 6.0,
        *(float(s.gladiator_class == c) for c in _CLASSES),
    )
    if len(_SHEET_CACHE) >= _SHEET_CACHE_SIZE:
        _SHEET_CACHE.clear()
    _SHEET_CACHE[id(s)] = (s, part)
    return part


# Geometry depends only on where one stands relative to the other and on facing: worked out
# once per relative position, through the engine's own functions.
@cache
def _zone(vq: int, vr: int, facing: int) -> tuple[float, float, float]:
    """(front, flank, rear): where a hex at offset (vq, vr) lies for a figure facing `facing`
    (the frontal cone of T11's regions, behind him, or neither)."""
    fl, fr = front_coords(_ORIGIN, facing, Hex(vq, vr))
    front = fl >= 0 and fr >= 0
    rear = fl < 0 and fr < 0
    return float(front), float(not front and not rear), float(rear)


@cache
def _sight(vq: int, vr: int, facing: int) -> tuple[bool, bool]:
    """(within his frontal cone and 3 hexes, in his combat front §6.2) of a hex at (vq, vr)."""
    target = Hex(vq, vr)
    fl, fr = front_coords(_ORIGIN, facing, target)
    cone = fl >= 0 and fr >= 0 and distance(_ORIGIN, target) <= 3
    return cone, in_front((_ORIGIN, facing), (target, 0))


@cache
def _pa(
    vq: int, vr: int, facing: int, left: bool, stumbling: bool, prone: bool, ensnared: bool
) -> int:
    """§9.2, T11, §9.2.1: the PA of an attacker at (vq, vr) from the defender."""
    return positional_advantage(
        (Hex(vq, vr), 0),
        (_ORIGIN, facing),
        left_handed=left,
        stumbling=stumbling,
        prone=prone,
        ensnared=ensnared,
    )


def side_features(state: ColosseumState, g: Gladiator, o: Gladiator) -> list[float]:
    """`SIDE_FEATURES` of gladiator `g` facing opponent `o`, in that order."""
    (
        cf,
        cf_share,
        stun,
        unconscious,
        w_head,
        w_chest,
        w_groin,
        w_arms,
        w_legs,
        w_total,
        worst,
        worst_sq,
        traits,
        endurance,
        useless,
        damage,
        carries_shield,
        move_rate,
        light,
        medium,
        heavy,
    ) = _sheet_part(g.sheet)
    options = state.options
    width = int(options["board_width"])
    height = int(options["board_height"])
    if g.hex == o.hex:  # never on the board; kept safe for hand-built positions
        zone: tuple[float, float, float] = (0.0, 0.0, 0.0)
        pa = 0
        cone = threatens = False
    else:
        gq, gr = g.hex
        oq, orr = o.hex
        zone = _zone(gq - oq, gr - orr, o.facing)  # his hex in the opponent's frame (T11)
        cone, threatens = _sight(oq - gq, orr - gr, g.facing)
        threatens = threatens and g.posture != "prone"
        if state.step == "allocate":
            pa = g.pa  # §9.2: as the engine worked it out for this combat (after §9.1.2)
        else:
            pa = _pa(
                gq - oq,
                gr - orr,
                o.facing,
                o.left_handed,
                o.stumbling,
                o.posture == "prone",
                bool(o.ensnared),
            )
    edge_gap = _edge_distance(g, width, height)
    crits = g.crits
    # §5.2.1, §10.5 LMP, §17.3 (R7): as PlotStatus.moves_left, without building one.
    penalty = _exceeded_penalty() if g.exceeded_last_turn else 0
    allowed = round(move_rate * 6) - crits.lmp - penalty
    moves_left = max(0, max(0, allowed) - g.moves_used)
    has_shield = g.has_shield
    out = [
        cf,
        cf_share,
        stun,
        unconscious,
        w_head,
        w_chest,
        w_groin,
        w_arms,
        w_legs,
        w_total,
        worst,
        worst_sq,
        float(len(g.arteries)),
        float(crits.mortal),
        float(crits.helmet_lost),
        float(crits.lmp),
        float(crits.stu),
        traits,
        endurance,
        float(g.exceeded_this_turn or g.exceeded_last_turn),
        float(g.posture == "kneeling"),
        float(g.posture == "prone"),
        float(g.must_stumble or g.stumbling),
        float(not g.has_weapon),
        float(carries_shield and not has_shield),
        useless if has_shield else 0.0,
        damage,
        float(not g.has_weapon and bool(state.items) and _item_near(state, g, "weapon")),
        float(not has_shield and bool(state.items) and _item_near(state, g, "shield")),
        float(g.recovered_weapon),
        float(threatens),
        float(cone),
        *zone,
        pa / 6.0,
        max(0, 3 - edge_gap) / 3.0,
        float(edge_gap == 0 and bool(state.walls) and _against_wall(state, g, width, height)),
        moves_left / 6.0,
        move_rate,
        light,
        medium,
        heavy,
        float(g.net),
        float(bool(g.ensnared)),
        float(len(g.weapons) >= 2),
    ]
    out.extend(_NO_STYLE)
    if g.style:
        i = _STYLE_INDEX.get(g.style)
        if i is not None:
            out[i] = 1.0
    return out


def _late(state: ColosseumState) -> float:
    return min(state.turn, int(state.options["max_turns"])) / int(state.options["max_turns"])


def features(state: ColosseumState, seat: str) -> list[float]:
    """`FEATURE_NAMES` for `seat`: his side features less his opponent's (a team match: the
    nearest opponent, G6), then a few of those differences scaled by the match's progress.
    Swapping the seats changes the sign of every entry (V1)."""
    me = state.figure(seat)
    other = state.opponent(seat)
    mine = side_features(state, me, other)
    theirs = side_features(state, other, me)
    diff = list(map(sub, mine, theirs))
    late = _late(state)
    diff.extend(diff[i] * late for i in _LATE_INDEX)
    return diff


def feature_table(state: ColosseumState, seat: str) -> dict[str, dict[str, float]]:
    """Both sides' features by name and the model's inputs, for people and reports."""
    me = state.figure(seat)
    other = state.opponent(seat)
    return {
        "me": dict(zip(SIDE_FEATURES, side_features(state, me, other), strict=True)),
        "other": dict(zip(SIDE_FEATURES, side_features(state, other, me), strict=True)),
        "inputs": dict(zip(FEATURE_NAMES, features(state, seat), strict=True)),
    }
