"""The Colosseum value function's features (evaluation/value_features.py) on hand-built
positions: lost kit, severed arteries, mortal wounds, wounds by area, front / flank / rear,
movement left, the Advanced Game's net and style; and the antisymmetry the model relies on (V1).
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from gladiator.core.dice import Dice
from gladiator.core.hexgrid import Hex, Relation, neighbor_at
from gladiator.core.match import Match
from gladiator.rules.colosseum.engine import ColosseumRules
from gladiator.rules.colosseum.evaluation.value_features import (
    FEATURE_NAMES,
    SIDE_FEATURES,
    feature_table,
    features,
)
from gladiator.rules.colosseum.hits.body_hits import CriticalRecord
from gladiator.rules.colosseum.state import ColosseumState, Gladiator, GroundItem

RULES = ColosseumRules()
CENTRE = Hex(10, 2)


def duel(**options: Any) -> tuple[ColosseumState, Gladiator, Gladiator]:
    """Two medium gladiators of seed 1, blue at the centre facing 0, red three hexes ahead."""
    opts = {"gladiators": ["medium", "medium"], **options}
    state, _ = RULES.initial_state(RULES.normalise_options(opts), Dice(1))
    r, b = state.gladiators["red"], state.gladiators["blue"]
    b.hex, b.facing = CENTRE, 0
    r.hex, r.facing = neighbor_at(neighbor_at(neighbor_at(CENTRE, 0, 0), 0, 0), 0, 0), 3
    return state, r, b


def me(state: ColosseumState, seat: str = "red") -> dict[str, float]:
    return feature_table(state, seat)["me"]


def played(seed: int, steps: int, advanced: bool) -> ColosseumState:
    """A random-legal match of this seed after up to `steps` decisions."""
    state, _ = RULES.initial_state(RULES.normalise_options({"advanced": advanced}), Dice(seed))
    rng = random.Random(seed)
    dice = Dice(seed + 1)
    for _ in range(steps):
        if RULES.outcome(state) is not None:
            break
        pending = RULES.pending(state)
        RULES.apply(state, {s: d.sample(rng) for s, d in pending.items()}, dice, quiet=True)
    return state


def test_names_are_the_differences_of_the_side_features() -> None:
    assert len(set(FEATURE_NAMES)) == len(FEATURE_NAMES)
    assert FEATURE_NAMES[: len(SIDE_FEATURES)] == tuple(f"d_{n}" for n in SIDE_FEATURES)
    state, _, _ = duel()
    assert len(features(state, "red")) == len(FEATURE_NAMES)


def test_fresh_duel_of_equal_sheets_differs_only_where_they_stand() -> None:
    state, r, b = duel()
    b.sheet = r.sheet  # the same log sheet on both sides
    diff = feature_table(state, "red")["inputs"]
    assert {k for k, v in diff.items() if v} <= {"d_edge"}  # red is nearer the north edge


def test_section_13_2_a_dropped_shield_shows_lost_and_lying_near() -> None:
    state, r, _ = duel()
    assert me(state)["shield_lost"] == 0.0
    r.has_shield = False
    state.items.append(GroundItem("shield", "red", neighbor_at(r.hex, r.facing, 3)))
    mine = me(state)
    assert (mine["shield_lost"], mine["shield_near"]) == (1.0, 1.0)
    assert me(state, "blue")["shield_lost"] == 0.0
    assert feature_table(state, "red")["inputs"]["d_shield_lost"] == 1.0
    assert feature_table(state, "blue")["inputs"]["d_shield_lost"] == -1.0


def test_section_13_2_a_lost_weapon_far_away_is_not_near() -> None:
    state, r, _ = duel()
    r.has_weapon = False
    state.items.append(GroundItem("weapon", "red", Hex(r.hex.q - 3, r.hex.r)))
    mine = me(state)
    assert (mine["weapon_lost"], mine["weapon_near"]) == (1.0, 0.0)


def test_section_10_5_a_severed_artery_and_a_mortal_wound_show() -> None:
    state, r, _ = duel()
    r.arteries = (("arms", 1, 1),)
    r.crits = CriticalRecord(severed_arteries=("arms",), mortal=True, lmp=1)
    mine = me(state)
    assert (mine["arteries"], mine["mortal"], mine["lmp"]) == (1.0, 1.0, 1.0)
    assert me(state, "blue")["arteries"] == 0.0
    # LMP takes a movement phase a turn (§10.5, Q3): a medium man moves 5 - 1 = 4 phases.
    assert mine["moves_left"] == 4 / 6


def test_section_10_3_wounds_count_by_area_as_the_share_of_the_track() -> None:
    state, r, _ = duel()
    r.sheet, _ = r.sheet.with_wounds("legs", 2)
    mine = me(state)
    w = r.sheet.w
    assert mine["wounds_legs"] == 2 / w
    assert mine["wounds_arms"] == 0.0
    assert mine["wounds_worst"] == 2 / w
    assert mine["cf"] == r.sheet.current_cf / 20


def test_section_9_2_where_he_stands_front_flank_rear_and_his_pa() -> None:
    state, r, b = duel()
    cases = {
        Relation.FRONT: ("in_his_front", 0),
        Relation.RIGHT_FRONT: ("in_his_front", 1),
        Relation.RIGHT_REAR: ("on_his_flank", 3),
        Relation.LEFT_REAR: ("on_his_flank", 4),
        Relation.REAR: ("in_his_rear", 6),
    }
    for rel, (zone, pa) in cases.items():
        r.hex = neighbor_at(b.hex, b.facing, rel)
        mine = me(state)
        got = {z for z in ("in_his_front", "on_his_flank", "in_his_rear") if mine[z]}
        assert got == {zone}, rel
        assert mine["pa"] == pa / 6, rel  # T11 (a right-handed defender)


def test_section_6_2_a_man_in_his_combat_front_is_threatened() -> None:
    state, r, b = duel()
    r.hex, r.facing = neighbor_at(b.hex, b.facing, Relation.FRONT), 3  # face to face
    assert me(state)["threatens"] == 1.0 and me(state, "blue")["threatens"] == 1.0
    r.facing = 0  # his back to blue
    assert me(state)["threatens"] == 0.0 and me(state, "blue")["threatens"] == 1.0
    assert me(state, "blue")["in_his_rear"] == 1.0
    b.posture = "prone"  # §16.3: a Prone man cannot attack
    assert me(state, "blue")["threatens"] == 0.0
    assert me(state, "blue")["prone"] == 1.0


def test_section_5_2_1_movement_left_this_turn() -> None:
    state, r, _ = duel()
    assert me(state)["moves_left"] == 5 / 6  # §3.5: medium
    r.moves_used = 2
    assert me(state)["moves_left"] == 3 / 6
    r.exceeded_last_turn = True  # §17.3: two fewer this turn
    assert me(state)["moves_left"] == 1 / 6


def test_section_20_the_advanced_game_net_ensnared_and_style() -> None:
    state, r, b = duel(advanced=True, styles=["retiarius", "secutor"])
    mine, theirs = me(state), me(state, "blue")
    assert mine["style_retiarius"] == 1.0 and theirs["style_secutor"] == 1.0
    assert mine["net"] == float(r.net) == 1.0
    b.ensnared = "red"
    assert me(state, "blue")["ensnared"] == 1.0


def test_a_submitted_secret_plot_changes_no_feature() -> None:
    """§5.2.2: a written order stays secret until revealed (Match keeps it), so what the value
    function sees cannot change when one seat has written his."""
    m = Match(RULES, {"gladiators": ["medium", "heavy"]}, seed=5, nonce="")
    before = features(m.state, "blue")
    m.submit("red", m.pending()["red"].sample(random.Random(1)))
    assert m.waiting_for() == ["blue"]
    assert features(m.state, "blue") == before


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 40), advanced=st.booleans())
def test_v1_features_change_sign_when_the_seats_swap(seed: int, steps: int, advanced: bool) -> None:
    state = played(seed, steps, advanced)
    if state.step == "over":
        return
    red, blue = features(state, "red"), features(state, "blue")
    assert all(abs(a + b) < 1e-12 for a, b in zip(red, blue, strict=True))
