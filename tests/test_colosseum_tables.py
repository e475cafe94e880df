"""The Colosseum Edition's Basic Game tables (shared/rules/colosseum.md Part 3) as data.

Each test names the table (T-number) or rule section it checks; spot values come from the
reference's Part 4 worked examples and numeric notes.
"""

from __future__ import annotations

import re
import shutil
import tomllib
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest

from gladiator.rules.colosseum.tables.advanced_tables import ADVANCED_FILES
from gladiator.rules.colosseum.tables.crt_tables import CrtFile, CrtTable
from gladiator.rules.colosseum.tables.tables import (
    FILES,
    armour_drm,
    armour_row,
    attack_rounds,
    critical_result,
    crt_result,
    load_tables,
    parse_table_file,
    physical_value,
    positional_advantage,
    stun_result,
    tables,
    wound_result,
)
from gladiator.rules.colosseum.vocabulary import AREAS, CrtVariant, GladiatorClass

DATA = Path(str(resources.files("gladiator.rules.colosseum").joinpath("data")))
MARKS = {"exact", "reconstructed", "ambiguous", "conflict", "missing-proposal"}


def _crt(modified_cf: int, roll: int, variant: CrtVariant = "rules") -> str:
    """§9.5.3/§9.5.4 and Q27 done here, as the engine will: clamp the column, then the roll."""
    column = min(max(modified_cf, 1), 8)
    total = roll + min(modified_cf - 1, 0) + max(modified_cf - 8, 0)
    return str(crt_result(column, min(max(total, 3), 18), variant))


# --- every file -----------------------------------------------------------------------------------


def test_data_files_are_exactly_the_loaders_files() -> None:
    """Every table file is loaded, by this loader or the Advanced Game's (advanced_tables.py);
    the two other files are the sections list and the value function's fitted weights
    (rules/colosseum/evaluation/value.py): neither is a rulebook table."""
    not_tables = {"sections.toml", "value_weights.toml"}
    tables_files = sorted(p.name for p in DATA.glob("*.toml") if p.name not in not_tables)
    assert not set(FILES) & set(ADVANCED_FILES)
    assert tables_files == sorted([*FILES, *ADVANCED_FILES])


@pytest.mark.parametrize("name", sorted(FILES))
def test_every_data_file_has_schema_and_version_1(name: str) -> None:
    raw = tomllib.loads((DATA / name).read_text(encoding="utf-8"))
    assert raw["schema"].startswith("gladiator.colosseum.")
    assert raw["schema_version"] == 1


@pytest.mark.parametrize("name", sorted(FILES))
def test_every_table_names_its_section_and_confidence(name: str) -> None:
    named = tables().files()[name].named_tables()
    assert named
    for key, table in named.items():
        assert table.section.startswith("§"), (name, key)
        assert table.confidence and set(table.confidence) <= MARKS, (name, key)
        undecided = {"ambiguous", "conflict", "missing-proposal"} & set(table.confidence)
        if undecided:
            # A decision was taken: the note names the reference's question.
            assert table.source_note and re.search(r"\bQ\d+\b", table.source_note), (name, key)


def test_confidence_marks_are_the_references() -> None:
    marks = {
        (name, key): table.confidence
        for name, f in tables().files().items()
        for key, table in f.named_tables().items()
    }
    assert marks[("armour.toml", "t1")] == ("reconstructed",)
    assert marks[("armour.toml", "t2")] == marks[("armour.toml", "t3")] == ("exact",)
    assert marks[("physical.toml", "t4")] == ("reconstructed",)
    assert marks[("crt.toml", "t5")] == ("reconstructed", "conflict")
    assert marks[("results.toml", "t6")] == ("exact",)
    assert marks[("wounds.toml", "t7")] == ("reconstructed", "ambiguous")
    assert marks[("wounds.toml", "t8")] == ("exact",)
    assert marks[("criticals.toml", "t9")] == ("reconstructed",)
    assert marks[("criticals.toml", "t9b")] == ("exact",)
    assert marks[("attack_sequence.toml", "t10")] == ("reconstructed",)
    assert marks[("positional_advantage.toml", "t11")] == ("reconstructed", "ambiguous")
    assert marks[("collision.toml", "t12")] == ("exact",)
    assert marks[("items.toml", "t14")] == ("reconstructed",)
    assert marks[("items.toml", "t15")] == ("ambiguous",)
    assert marks[("arena.toml", "t38")] == ("exact",)
    assert marks[("actions.toml", "t39")] == ("reconstructed",)
    assert marks[("combat_front.toml", "t40")] == ("reconstructed",)
    assert marks[("turn_end.toml", "endurance")] == ("conflict",)


def test_p1_and_p2_are_marked_as_proposals() -> None:
    t = tables()
    assert t.wound_categories.t7a.proposal
    assert t.wound_categories.t7a.confidence == ("missing-proposal",)
    assert t.shield_damage.p2.proposal
    assert t.shield_damage.p2.confidence == ("missing-proposal",)
    others = [
        table
        for name, f in t.files().items()
        if name not in ("wound_categories.toml", "shield_damage.toml")
        for table in f.named_tables().values()
    ]
    assert not any(table.proposal for table in others)


def test_tables_are_loaded_once() -> None:
    assert tables() is tables()


# --- T1-T3 armour ---------------------------------------------------------------------------------


@pytest.mark.parametrize("klass", ["light", "medium", "heavy"])
def test_t1_t3_armour_tables_have_six_rows_of_five_areas_and_a_shield(
    klass: GladiatorClass,
) -> None:
    table = tables().armour.table(klass)
    assert table.gladiator_class == klass
    assert sorted(table.rows) == [1, 2, 3, 4, 5, 6]
    for row in table.rows.values():
        assert [str(row.area(a)) for a in AREAS] == [
            str(getattr(row, a)) for a in ("head", "chest", "groin", "arms", "legs")
        ]
        assert row.shield in ("large", "small")


def test_t1_light_armour_q12_column_reading() -> None:
    light = [armour_row("light", roll) for roll in range(1, 7)]
    assert [str(r.head) for r in light] == ["A2", "C3", "-", "-", "-", "A4"]
    assert [str(r.groin) for r in light] == ["-", "-", "C", "-", "-", "C"]
    assert all(str(r.chest) == str(r.arms) == str(r.legs) == "-" for r in light)
    assert [r.shield for r in light] == ["large", "small", "small", "large", "small", "small"]


def test_t2_medium_armour_spot_values() -> None:
    row2 = armour_row("medium", 2)
    assert (str(row2.chest), str(row2.groin), str(row2.legs), row2.shield) == (
        "B4",
        "-",
        "A3",
        "large",
    )
    assert [str(armour_row("medium", r).arms) for r in range(1, 7)] == [
        "C5",
        "B4",
        "C5",
        "C",
        "C4",
        "B5",
    ]


def test_t3_heavy_armour_spot_values() -> None:
    assert str(armour_row("heavy", 4).groin) == "A2"
    assert str(armour_row("heavy", 6).chest) == "C4"
    assert all(str(armour_row("heavy", r).arms) == "B4" for r in range(1, 7))
    assert all(armour_row("heavy", r).shield == "large" for r in range(1, 7))


# --- T4 physical characteristics ------------------------------------------------------------------


def test_t4_covers_every_3d6_roll_and_rises() -> None:
    for char in ("tr", "st", "ag", "cn", "w"):
        values = [physical_value(char, roll) for roll in range(3, 19)]
        assert values == sorted(values), char
    assert (physical_value("st", 3), physical_value("st", 18)) == (-2, 5)
    assert (physical_value("ag", 3), physical_value("ag", 18)) == (-3, 4)
    assert (physical_value("cn", 3), physical_value("cn", 18)) == (1, 6)
    assert (physical_value("w", 7), physical_value("w", 18)) == (9, 15)
    with pytest.raises(ValueError):
        physical_value("tr", 2)


def test_r_3_11_2_derived_cf_and_nf_from_t4() -> None:
    # TR 10, ST 2, AG 1 (a roll of 11 in each column) -> CF 13, NF 11.
    tr, st, ag = (physical_value(c, 11) for c in ("tr", "st", "ag"))
    assert (tr, st, ag) == (10, 2, 1)
    assert (tr + st + ag, tr + ag) == (13, 11)


# --- T5 CRT ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["rules", "reference"])
def test_t5_has_8_columns_and_every_3d6_row(variant: CrtVariant) -> None:
    crt = tables().crt_table(variant)
    assert crt.columns == (1, 2, 3, 4, 5, 6, 7, 8)
    assert sorted(crt.rows) == list(range(3, 19))
    assert all(len(row) == 8 for row in crt.rows.values())
    assert (crt.min_roll, crt.max_roll) == (3, 18)


@pytest.mark.parametrize("variant", ["rules", "reference"])
def test_t5_diagonal_structure_improves_for_the_attacker(variant: CrtVariant) -> None:
    crt = tables().crt_table(variant)
    rank = tables().results.t6.rank
    for roll in range(3, 19):
        ranks = [rank(crt.result(c, roll)) for c in range(1, 9)]
        assert ranks == sorted(ranks), f"row {roll}"
    for column in range(1, 9):
        ranks = [rank(crt.result(column, r)) for r in range(3, 19)]
        assert ranks == sorted(ranks), f"column {column}"
    # From the fumble corner to the best body hit.
    assert str(crt.result(1, 3)) == "F"
    assert crt.result(8, 18).code == "H"


@pytest.mark.parametrize("variant", ["rules", "reference"])
def test_r_t5_shift_invariant(variant: CrtVariant) -> None:
    crt = tables().crt_table(variant)
    for roll in range(3, 18):
        for column in range(1, 8):
            assert crt.result(column, roll + 1) == crt.result(column + 1, roll), (roll, column)


def test_t5_q1_variants_differ_only_in_body_hit_modifiers() -> None:
    rules, reference = tables().crt_table("rules"), tables().crt_table("reference")
    assert rules.recommended and not reference.recommended
    differ = 0
    for roll in range(3, 19):
        for column in range(1, 9):
            a, b = rules.result(column, roll), reference.result(column, roll)
            assert a.code == b.code
            differ += a != b
    assert differ > 0
    assert [str(rules.result(8, r)) for r in (7, 12, 18)] == ["H-2", "H", "H+3"]
    assert [str(reference.result(8, r)) for r in (7, 12, 18)] == ["H", "H+4", "H+10"]


def test_r_9_5_crt_lookup() -> None:
    assert _crt(3, 10) == "P"
    assert _crt(8, 18) == "H+3"
    assert _crt(1, 3) == "F"
    assert _crt(10, 15) == "H+3"  # column 8, roll 17
    assert _crt(-1, 12) == "S*"  # column 1, roll 10
    assert _crt(0, 15) == "H-2"  # net toss "0" column: column 1, roll 14 -> ensnared


def test_ex_9_6_fumble_penalty_reads_column_3() -> None:
    # 2-CF head attack against 3 head defense less a fumble penalty of 4: 2 - (3 - 4) = 3.
    attack, defense, penalty = 2, 3, 4
    modified_cf = attack - (defense - penalty)
    assert modified_cf == 3
    assert [_crt(modified_cf, roll) for roll in (5, 10, 12)] == ["S", "P", "H-2"]


def test_t5_lookup_refuses_unclamped_input() -> None:
    for column, total in ((0, 10), (9, 10), (3, 2), (3, 19)):
        with pytest.raises(ValueError):
            crt_result(column, total)


# --- T6 results -----------------------------------------------------------------------------------


def test_t6_codes_and_no_item_conversions() -> None:
    t6 = tables().results.t6
    assert t6.attacker_order == ("F", "-", "S", "S*", "P", "P*", "H")
    assert t6.ladder == ("-", "S", "S*", "P", "P*", "H")
    lacking = {code: (c.if_lacking, c.becomes) for code, c in t6.codes.items()}
    assert lacking == {
        "F": (None, None),
        "-": (None, None),
        "S": ("shield", "P"),
        "S*": ("shield", "P"),
        "P": ("weapon", "H"),
        "P*": ("weapon_or_shield", "H"),
        "H": (None, None),
    }


def test_ex_21_4_flail_steps_and_s24_3_two_weapons() -> None:
    t6 = tables().results.t6
    flail = t6.conversions["flail"].changes
    assert flail["S"] == "P"  # EX-21.4: an S becomes a P
    for code, result in flail.items():  # two steps up the ladder, capped at H (Q41)
        i = t6.ladder.index(code)
        assert result == t6.ladder[min(i + 2, len(t6.ladder) - 1)]
    assert t6.conversions["two_weapon"].changes == {"S": "P", "S*": "P", "P*": "H"}


# --- T7 wounds and stun, T8 armour ----------------------------------------------------------------


def test_t7_columns_cover_every_roll_q2_reading() -> None:
    # Q2: the first column is "8 or less": no wound, but 1 Stun.
    assert [wound_result(t) for t in (-5, 3, 8)] == [0, 0, 0]
    assert [stun_result(t) for t in (2, 8)] == [(1, None), (1, None)]
    assert [wound_result(t) for t in range(9, 19)] == [1, 1, 2, 2, 3, 3, 4, 5, 6, 7]
    assert [stun_result(t)[0] for t in range(9, 20)] == [2, 2, 3, 3, 4, 4, 5, 6, 7, 8, 9]
    assert wound_result(19) == wound_result(30) == "kill"
    assert stun_result(17) == (7, "weapon_drop")
    assert stun_result(18) == (8, "shield_drop")
    assert stun_result(19) == stun_result(25) == (9, "fall_prone")


def test_t8_armour_drm_full_and_partial() -> None:
    assert [armour_drm(a, 6) for a in ("A", "B", "C", "-")] == [-8, -6, -3, 0]
    assert [armour_drm("B4", black) for black in range(1, 7)] == [-6, -6, -6, -6, 0, 0]


def test_r_10_2_armour_wound_roll() -> None:
    # WHITE 14, H+1, area with B4: BLACK 4 -> 14 + 1 - 6 = 9 -> 1 wound; BLACK 5 -> 15 -> 4.
    assert wound_result(14 + 1 + armour_drm("B4", 4)) == 1
    assert wound_result(14 + 1 + armour_drm("B4", 5)) == 4


def test_r_8_4_collision_t12_then_t7_stun_row() -> None:
    d = tables().collision.t12.drms
    strength, agility, die = 1, 0, 3
    attacker_if = (
        die
        + d.heavy.drm
        + d.large_shield.drm
        + 2 * d.moved_forward.drm
        + d.strength.drm * strength
        + d.agility.drm * agility
    )
    assert attacker_if == 10
    assert stun_result(6 + (attacker_if - 6)) == (2, None)


def test_t7a_p1_categories_partition_each_area() -> None:
    t7a = tables().wound_categories.t7a
    for area in AREAS:
        boxes = [b for cat in t7a.categories[area] for b in cat]
        assert boxes == list(range(15, 0, -1))
    assert len(t7a.categories["head"]) == 8
    assert all(len(t7a.categories[a]) == 5 for a in AREAS if a != "head")


def test_ex_10_3_1_1_first_wound_categories() -> None:
    t7a = tables().wound_categories.t7a
    assert t7a.new_categories("chest", w=12, wounds_before=0, wounds_added=2) == 1
    assert t7a.new_categories("head", w=12, wounds_before=0, wounds_added=2) == 2
    # §10.3.1.1: the first wound in an area always costs 1 CF, whatever the layout.
    for area in AREAS:
        for w in range(9, 16):
            assert t7a.new_categories(area, w=w, wounds_before=0, wounds_added=1) == 1


# --- T9 critical hits -----------------------------------------------------------------------------


def test_t9_shape_and_legend() -> None:
    crit = tables().criticals
    assert crit.t9.columns == (7, 8, 9, 10, 11, 12, 13, 14, 15)
    assert set(crit.t9.rows) == set(AREAS)
    for area in AREAS:
        for total in range(2, 30):
            assert set(critical_result(area, total)) <= set(crit.t9b.codes)
        assert critical_result(area, 2) == critical_result(area, 7) == ("-",)


def test_r_10_4_critical_hit() -> None:
    # 3 wounds to the head, RED + BLACK = 8 -> 11 -> H (helmet lost).
    assert critical_result("head", 8 + 3) == ("H",)
    assert critical_result("head", 15) == critical_result("chest", 40) == ("K",)
    assert critical_result("groin", 15) == ("3x", "M")
    assert critical_result("arms", 15) == critical_result("legs", 99) == ("SA", "M")
    assert critical_result("legs", 12) == ("LMP",)
    assert critical_result("arms", 12) == ("WD",)


# --- T10 attack sequence --------------------------------------------------------------------------


def test_t10_covers_1_to_5_attacks() -> None:
    for n in range(1, 6):
        rounds = attack_rounds(n)
        assert len(rounds) == n and set(rounds) <= {1, 2, 3, 4, 5}
    assert [attack_rounds(n) for n in (1, 3, 4, 5)] == [
        (3,),
        (1, 3, 5),
        (1, 2, 4, 5),
        (1, 2, 3, 4, 5),
    ]
    with pytest.raises(ValueError):
        attack_rounds(6)


def test_ex_9_4_5_axe_rounds() -> None:
    assert attack_rounds(2) == (2, 4)
    spd = 1  # axe
    last = tables().attack_sequence.t10.rounds_per_phase
    assert tuple(min(max(r + spd, 1), last) for r in attack_rounds(2)) == (3, 5)


# --- T11 positional advantage ---------------------------------------------------------------------


def test_t11_lists_ranges_1_to_3_with_the_references_multiset() -> None:
    t11 = tables().positional_advantage.t11
    assert len(t11.hexes) == 36 and t11.max_range == 3
    assert Counter(h.pa for h in t11.hexes) == {0: 3, 1: 6, 2: 6, 3: 9, 4: 9, 6: 3}


def test_t11_diagram_follows_the_region_rule() -> None:
    t11 = tables().positional_advantage.t11
    for h in t11.hexes:
        assert t11.regions.value(h.fl, h.fr) == h.pa, h


def test_r_t11_pa() -> None:
    for r in (1, 2, 3):
        assert positional_advantage(-r, -r) == 6  # straight behind
        assert positional_advantage(r, r) == 0  # straight ahead
    assert positional_advantage(0, 1) == 1  # right-front
    assert positional_advantage(1, 0) == 2  # left-front
    assert positional_advantage(-1, 0) == 3  # right-rear
    assert positional_advantage(0, -1) == 4  # left-rear
    assert positional_advantage(-5, -5) == 6  # beyond the diagram: the same rule
    assert positional_advantage(1, 5) == 1


def test_note_9_2_left_handed_swaps() -> None:
    swap = {0: 0, 1: 2, 2: 1, 3: 4, 4: 3, 6: 6}
    for h in tables().positional_advantage.t11.hexes:
        assert positional_advantage(h.fl, h.fr, left_handed=True) == swap[h.pa]


def test_t11_q11_switch_mirrors_the_diagram() -> None:
    t11 = tables().positional_advantage.t11
    assert t11.plus_1_and_3_on == "right"
    mirrored = t11.model_copy(update={"plus_1_and_3_on": "left"})
    for h in t11.hexes:
        assert mirrored.bonus(h.fr, h.fl) == h.pa


def test_s9_2_1_status_bonuses() -> None:
    status = tables().positional_advantage.status_bonus
    assert (status.stumbling, status.prone, status.ensnared) == (2, 4, 4)


# --- T12 collisions, T14 recovery, T15 dropped objects --------------------------------------------


def test_t12_collision_drms() -> None:
    d = tables().collision.t12.drms
    assert len(type(d).model_fields) == 14
    assert (d.heavy.drm, d.medium.drm, d.large_shield.drm, d.no_shield.drm) == (2, 1, 2, -2)
    assert (d.moved_forward.drm, d.moved_backward.drm, d.rolled.drm) == (1, -1, 4)
    assert (d.kneeling_or_stumbling.drm, d.ensnared.drm, d.attempted_recover.drm) == (-2, -3, -3)
    assert (d.stun.drm, d.stun.per) == (-1, "Stun factor in effect")
    assert [(x.rating, x.drm) for x in (d.strength, d.agility, d.positional_advantage)] == [
        ("ST", 1),
        ("AG", 1),
        ("PA", 1),
    ]


def test_t14_recovery_drms_point_the_right_way() -> None:
    t14 = tables().items.t14
    assert (t14.dice, t14.succeeds_below) == ("1D6", 1)
    d = t14.drms
    drms = [getattr(d, name).drm for name in type(d).model_fields]
    assert drms == [1, -1, 3, 2, 1, -3, 1, -6, 4, -2, 4, 6, 1, -1]
    assert d.agility.rating == "AG"


def test_t15_dropped_object_directions() -> None:
    t15 = tables().items.t15
    assert sorted(t15.directions) == [1, 2, 3, 4, 5, 6]
    assert [t15.directions[i].direction for i in range(1, 7)] == ["F", "FL", "RL", "R", "RR", "FR"]
    assert [t15.directions[i].printed for i in (1, 6)] == ["upper-left", "upper-right"]
    # 1D6 - 1: 0 (his own hex) to 5.
    assert (1 + t15.distance_modifier, 6 + t15.distance_modifier) == (0, t15.max_distance)


# --- T38 arena, T39 actions, T40 combat front -----------------------------------------------------


def test_t38_arena_size_distribution() -> None:
    t38 = tables().arena.t38
    assert (t38.dice, t38.modifier) == ("2D3", -1)
    d3 = [(face + 1) // 2 for face in range(1, 7)]  # §2.5: 1,2 -> 1; 3,4 -> 2; 5,6 -> 3
    sizes = Counter(a + b + t38.modifier for a in d3 for b in d3)
    assert set(sizes) == set(t38.sizes) == {1, 2, 3, 4, 5}
    assert [sizes[s] * 9 // 36 for s in t38.sizes] == [1, 2, 3, 2, 1]
    assert (t38.colosseum, t38.fighting_pit) == (1, 5)
    assert [1 + size > t38.wall_if_above for size in (4, 5)] == [False, True]


def test_t39_actions_rotations_and_moves() -> None:
    t39 = tables().actions.t39
    assert (t39.max_movement_actions, t39.max_special_actions) == (2, 1)
    rotations = {code: a.rotation for code, a in t39.actions.items()}
    assert rotations == {
        "F": 1,
        "B": 0,
        "SFL": 1,
        "SFR": 1,
        "SBL": 0,
        "SBR": 0,
        "C": 0,
        "KN": 1,
        "R": 1,
        "RO": 0,
        "S": 1,
        "X": 3,
    }
    moves = {code: (a.hexes, a.directions) for code, a in t39.actions.items()}
    assert moves["F"] == (1, ("F",)) and moves["B"] == (1, ("R",))
    assert moves["SFL"] == (1, ("FL",)) and moves["SBR"] == (1, ("RR",))
    assert moves["C"] == (3, ("F",))
    assert all(moves[c] == (0, ()) for c in ("KN", "R", "S", "X"))
    assert t39.actions["RO"].prone_only and len(t39.actions["RO"].directions) == 4
    assert {c for c, a in t39.actions.items() if a.kind == "movement"} == {
        "F",
        "B",
        "SFL",
        "SFR",
        "SBL",
        "SBR",
    }


def test_note_7_4_free_stumble_and_pause() -> None:
    actions = tables().actions.t39.actions
    assert {c for c, a in actions.items() if a.free_without_rotation} == {"S", "X"}


def test_s3_5_move_rates() -> None:
    rates = tables().actions.move_rates
    assert (rates.light, rates.medium, rates.heavy) == (6, 5, 4)


def test_t40_combat_front_regions() -> None:
    t40 = tables().combat_front.t40
    assert {n: (r.max_range, r.hexes) for n, r in t40.regions.items()} == {
        "one_hex": (1, 3),
        "two_hex": (2, 8),
        "three_hex": (3, 15),
    }
    assert [t40.in_front("one_hex", fl, fr) for fl, fr in ((1, 1), (1, 0), (0, 1))] == [True] * 3
    assert not t40.in_front("one_hex", -1, 0)
    assert not t40.in_front("one_hex", 2, 2)
    assert t40.in_front("three_hex", 3, 0)


# --- P2 shield track, §17 endurance, §5.4.1 stans missus ------------------------------------------


def test_p2_shield_track() -> None:
    p2 = tables().shield_damage.p2
    assert p2.tracks["large"] == (14, 13, 12, "P", 11, 10, "H", 9, 8)
    assert p2.tracks["small"] == (12, 11, "P", 10, 9, "H", 8)
    assert p2.damage_points("large", 0) == 14
    assert p2.damage_points("large", 3) == 11  # the P box is not a damage point
    assert p2.damage_points("small", 7) is None  # every box marked: battered useless


def test_r_17_2_endurance() -> None:
    e = tables().turn_end.endurance
    assert (e.constant, e.reference_sheet_constant) == (-4, -2)
    cn, move_rate, turn, die = 3, 5, 2, 5
    assert (cn + move_rate + e.constant) - (die + turn) == -3
    assert (e.exceeded_extra_phases, e.exceeded_turn_bonus, e.exceeded_next_turn_penalty) == (
        1,
        1,
        2,
    )


def test_r_5_4_1_stans_missus() -> None:
    s = tables().turn_end.stans_missus
    assert (s.dice, s.first_turn, s.stopped_if_above) == ("1D6", 3, 8)

    def stopped(die: int, turn: int) -> bool:
        return turn >= s.first_turn and die + turn > s.stopped_if_above

    assert not any(stopped(6, turn) for turn in (1, 2))  # no check before the end of turn 3
    assert stopped(6, 3)
    assert not stopped(5, 3)
    assert all(stopped(die, 8) for die in range(1, 7))


# --- broken data is refused -----------------------------------------------------------------------


def _text(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


BROKEN = [
    pytest.param("physical.toml", "tr = 7, st = -2", 'tr = "7", st = -2', id="T4-string-for-int"),
    pytest.param("crt.toml", re.compile(r"^10 = .*$", re.M), "", id="T5-row-removed"),
    pytest.param("crt.toml", '"S*"]', '"Q"]', id="T5-unknown-code"),
    pytest.param("crt.toml", '"F",    "F",    "F",    "-",', '"F",    "F",    "-",', id="T5-short"),
    pytest.param(
        "crt_reference_sheet.toml", 'variant = "reference"', 'variant = "rules"', id="T5-v"
    ),
    pytest.param("armour.toml", 'head = "A2"', 'head = "D2"', id="T1-bad-armour"),
    pytest.param(
        "armour.toml", re.compile(r'^6 = \{ head = "A", chest = "C4".*$', re.M), "", id="T3-row"
    ),
    pytest.param("armour.toml", 'class = "light"', 'class = "heavy"', id="T1-wrong-class"),
    pytest.param("wounds.toml", "{ lo = 15, hi = 15,", "{ lo = 16, hi = 15,", id="T7-gap"),
    pytest.param("wounds.toml", "A = -8", 'A = "-8"', id="T8-string-for-int"),
    pytest.param("criticals.toml", '"SA+M"]', '"XX"]', id="T9-code-not-in-T9b"),
    pytest.param("attack_sequence.toml", "2 = [2, 4]", "2 = [2, 4, 5]", id="T10-too-many"),
    pytest.param("positional_advantage.toml", "  { fl = 3, fr = 2, pa = 2 },", "", id="T11-hole"),
    pytest.param("collision.toml", "heavy = { drm = 2,", "heavy = { drm = 2, extra = 1,", id="T12"),
    pytest.param("items.toml", 'direction = "FR"', 'direction = "F"', id="T15-not-one-to-one"),
    pytest.param("combat_front.toml", "hexes = 8", "hexes = 9", id="T40-count"),
    pytest.param("actions.toml", "rotation = 3", "rotation = 4", id="T39-rotation"),
    pytest.param("shield_damage.toml", "proposal = true", "proposal = false", id="P2-not-proposal"),
    pytest.param("wound_categories.toml", "[[15, 14], [13, 12]", "[[15, 14], [12, 13]", id="P1"),
    pytest.param("results.toml", 'becomes = "P"', 'becomes = "Z"', id="T6-bad-code"),
    pytest.param("turn_end.toml", "schema_version = 1", "schema_version = 2", id="version"),
    pytest.param("arena.toml", 'schema = "gladiator.colosseum.arena"', 'schema = "x"', id="schema"),
    pytest.param("turn_end.toml", "constant = -4", "constant = ", id="not-toml"),
    pytest.param(
        "turn_end.toml", re.compile(r'^source_note = """Q4.*?"""$', re.M | re.S), "", id="Q"
    ),
]


def _corrupt(name: str, old: str | re.Pattern[str], new: str) -> str:
    text = _text(name)
    if isinstance(old, re.Pattern):
        broken, count = old.subn(new, text, count=1)
    else:
        count = text.count(old)
        broken = text.replace(old, new, 1)
    assert count >= 1, f"the corruption pattern {old!r} is not in {name}"
    return broken


@pytest.mark.parametrize(("name", "old", "new"), BROKEN)
def test_corrupt_text_is_refused_with_a_one_line_error(
    name: str, old: str | re.Pattern[str], new: str
) -> None:
    broken = _corrupt(name, old, new)
    with pytest.raises(ValueError) as info:
        load_tables(DATA, overrides={name: broken})
    message = str(info.value)
    assert "\n" not in message
    assert name in message or "fit together" in message


@pytest.mark.parametrize(("name", "old", "new"), BROKEN[:3])
def test_corrupt_file_in_a_directory_is_refused(
    tmp_path: Path, name: str, old: str | re.Pattern[str], new: str
) -> None:
    shutil.copytree(DATA, tmp_path / "data")
    (tmp_path / "data" / name).write_text(_corrupt(name, old, new), encoding="utf-8")
    with pytest.raises(ValueError, match=re.escape(name)):
        load_tables(tmp_path / "data")


def test_a_clean_copy_of_the_directory_loads(tmp_path: Path) -> None:
    shutil.copytree(DATA, tmp_path / "data")
    assert load_tables(tmp_path / "data") == tables()


def test_missing_file_is_refused(tmp_path: Path) -> None:
    shutil.copytree(DATA, tmp_path / "data")
    (tmp_path / "data" / "crt.toml").unlink()
    with pytest.raises(ValueError, match=r"crt\.toml is missing"):
        load_tables(tmp_path / "data")


def test_parse_table_file_checks_one_file() -> None:
    crt = parse_table_file("crt.toml", _text("crt.toml"))
    assert isinstance(crt, CrtFile)
    assert isinstance(crt.t5, CrtTable)
    with pytest.raises(ValueError, match="unknown colosseum table file"):
        parse_table_file("nope.toml", "")
    with pytest.raises(ValueError, match=r"crt\.toml is invalid"):
        parse_table_file("crt.toml", _text("crt.toml").replace('"H+3"]', "7]"))
