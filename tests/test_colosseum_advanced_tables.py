"""The Colosseum Edition's Advanced Game tables (shared/rules/colosseum.md Part 3: T13, T16-T30,
T37, and the numbers of §23-§27) as data.

Each test names the table (T-number) and the rule section it checks; spot values come from the
rulebook text and the reference's Part 4 worked examples and numeric notes. Hex geometry is
checked with core.hexgrid, independently of the loader's own checks.
"""

from __future__ import annotations

import re
import shutil
import tomllib
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest

from gladiator.core.hexgrid import DIRECTIONS, Hex, Relation, cone, disk, neighbor_at, neighbors
from gladiator.rules.colosseum.tables.advanced_tables import (
    ADVANCED_FILES,
    AdvancedTables,
    advanced_tables,
    load_advanced_tables,
    parse_advanced_file,
)
from gladiator.rules.colosseum.tables.beast_tables import BEAST_AREAS
from gladiator.rules.colosseum.tables.net_tables import NetCode
from gladiator.rules.colosseum.tables.tables import FILES, crt_result, tables

DATA = Path(str(resources.files("gladiator.rules.colosseum").joinpath("data")))
MARKS = {"exact", "reconstructed", "ambiguous", "conflict", "missing-proposal"}
ORIGIN = Hex(0, 0)


def _hex(fl: int, fr: int) -> Hex:
    """fl·FL + fr·FR for a figure at the origin facing north (direction 0)."""
    lq, lr = DIRECTIONS[5]
    rq, rr = DIRECTIONS[1]
    return Hex(fl * lq + fr * rq, fl * lr + fr * rr)


def _d3(face: int) -> int:
    return (face + 1) // 2  # §2.5


# --- every file -----------------------------------------------------------------------------------


def test_advanced_files_are_apart_from_the_basic_games() -> None:
    assert not set(ADVANCED_FILES) & set(FILES)
    assert all((DATA / name).is_file() for name in ADVANCED_FILES)


@pytest.mark.parametrize("name", sorted(ADVANCED_FILES))
def test_every_advanced_file_has_schema_and_version_1(name: str) -> None:
    raw = tomllib.loads((DATA / name).read_text(encoding="utf-8"))
    assert raw["schema"].startswith("gladiator.colosseum.")
    assert raw["schema_version"] == 1


@pytest.mark.parametrize("name", sorted(ADVANCED_FILES))
def test_every_advanced_table_names_its_section_and_confidence(name: str) -> None:
    named = advanced_tables().files()[name].named_tables()
    assert named
    for key, table in named.items():
        assert re.match(r"^§(19|2\d)(\.|,|$)", table.section), (name, key, table.section)
        assert table.confidence and set(table.confidence) <= MARKS, (name, key)
        if re.fullmatch(r"t\d+[a-z]?(_\w+)?", key):
            # A printed table names its id: t17b -> "T17b", t24_wolf -> "T24".
            table_id = "T" + re.sub(r"_\w+$", "", key)[1:]
            assert re.search(rf"\b{table_id}\b", table.section), (name, key)
        undecided = {"ambiguous", "conflict", "missing-proposal"} & set(table.confidence)
        if undecided:
            assert table.source_note and re.search(r"\bQ\d+\b", table.source_note), (name, key)


def test_confidence_marks_are_the_references() -> None:
    marks = {
        (name, key): table.confidence
        for name, f in advanced_tables().files().items()
        for key, table in f.named_tables().items()
    }
    assert marks[("wall_collision.toml", "t13")] == ("exact",)
    assert marks[("nets.toml", "t16")] == marks[("nets.toml", "t18")] == ("exact",)
    assert marks[("nets.toml", "t17b")] == ("ambiguous",)
    assert marks[("weapons.toml", "t19")] == ("reconstructed", "conflict")
    assert marks[("specials.toml", "t20")] == ("exact", "conflict")
    assert marks[("beasts.toml", "t21")] == ("exact",)
    assert marks[("beasts.toml", "t22")] == ("reconstructed", "conflict")
    assert marks[("beasts.toml", "t24")] == marks[("beasts.toml", "t25")] == ("reconstructed",)
    assert marks[("centurions.toml", "t26")] == ("exact",)
    assert marks[("centurions.toml", "t27")] == ("exact", "conflict")
    assert marks[("centurions.toml", "t28")] == ("ambiguous", "missing-proposal")
    assert marks[("styles.toml", "t37")] == ("exact",)


def test_proposals_are_marked_as_proposals() -> None:
    proposals = {
        (name, key)
        for name, f in advanced_tables().files().items()
        for key, table in f.named_tables().items()
        if table.proposal
    }
    assert proposals == {
        ("beasts.toml", "t24_wolf"),
        ("centurions.toml", "t28"),
        ("centurions.toml", "pause_overrides"),
    }


def test_advanced_tables_are_loaded_once() -> None:
    assert advanced_tables() is advanced_tables()
    assert isinstance(advanced_tables(), AdvancedTables)


# --- T37 fighting styles (§19), §28.2 -------------------------------------------------------------


def test_t37_styles_sec19_move_rates_and_kit() -> None:
    s = advanced_tables().styles
    moves = {key: style.move for key, style in s.t37.styles.items()}
    assert moves == {
        "myrmillo": 6,
        "velite": 7,  # §19.2.1
        "thracian": 6,
        "contra_retiarius": 6,
        "secutor": 5,
        "provocator": 5,
        "retiarius": 6,  # §19.3.2
        "dimachaeri": 5,
        "gallus": 4,
        "hoplomachus": 4,
        "cataphractarius": 4,
        "crupellarius": 3,  # §19.4.4
    }
    assert {k: st.weapons for k, st in s.t37.styles.items() if st.weapons != ("sword",)} == {
        "velite": ("javelin",),
        "thracian": ("scimitar",),
        "retiarius": ("net", "trident"),
        "dimachaeri": ("sword", "sword"),
        "hoplomachus": ("spear", "sword"),
        "cataphractarius": ("pike",),
    }
    shields = {k: st.shield for k, st in s.t37.styles.items()}
    assert [k for k, sh in shields.items() if sh == "none"] == [
        "retiarius",
        "dimachaeri",
        "cataphractarius",
    ]
    assert [k for k, sh in shields.items() if sh == "small"] == [
        "velite",
        "thracian",
        "hoplomachus",
    ]
    assert shields["contra_retiarius"] == "hook"
    velite, provocator = s.style("velite"), s.style("provocator")
    assert velite.armour == "none"
    assert {a: str(x) for a, x in provocator.fixed_armour.items()} == {"chest": "A"}  # §19.3.1
    retiarius = s.style("retiarius")
    assert not retiarius.helmet and retiarius.optional_weapons == ("dagger",)  # §21.3.1
    crupellarius = s.style("crupellarius")
    assert crupellarius.armour == "rolled_twice" and crupellarius.kneel_fall_prone
    assert s.style("contra_retiarius").opponents == ("retiarius",)  # §19.2.3
    assert {k for k, st in s.t37.styles.items() if st.fixed_style} == {"retiarius", "dimachaeri"}
    assert s.style("dimachaeri").any_pair  # §19.3.4


def test_t37_costs_and_categories_sec37_2_1() -> None:
    chart = advanced_tables().styles.t37.styles
    assert [(st.cost, st.category) for st in chart.values()] == [
        (350, "I"),
        (200, "III"),
        (350, "I"),
        (350, "V"),
        (400, "I"),
        (400, "II"),
        (300, "IV"),
        (400, "I"),
        (400, "II"),
        (450, "II"),
        (450, "III"),
        (500, "III"),
    ]
    standard = {st.gladiator_class: k for k, st in chart.items() if st.standard}
    assert standard == {"light": "myrmillo", "medium": "secutor", "heavy": "gallus"}
    rates = tables().actions.move_rates
    for k in standard.values():
        assert chart[k].move == getattr(rates, chart[k].gladiator_class)  # §3.5


def test_t37_every_weapon_is_a_t19_weapon_sec19() -> None:
    adv = advanced_tables()
    t19 = adv.weapons.t19.weapons
    for key, style in adv.styles.all_styles().items():
        for weapon in (*style.weapons, *style.optional_weapons):
            assert weapon in t19 or weapon == "net", (key, weapon)


def test_s28_2_beast_fighters() -> None:
    fighters = advanced_tables().styles.beast_fighters.styles
    assert {k: (f.gladiator_class, f.shield, f.weapons) for k, f in fighters.items()} == {
        "bestiarius": ("heavy", "any", ("sword",)),
        "venator": ("light", "none", ("spear",)),
    }
    with pytest.raises(ValueError, match="unknown fighting style"):
        advanced_tables().styles.style("samurai")


# --- T13 collision with a wall (§25.4) ------------------------------------------------------------


def test_t13_wall_collision_drms_sec25_4() -> None:
    t13 = advanced_tables().wall_collision.t13
    assert (t13.dice, t13.roll_on) == ("2D6", "stun")
    d = t13.drms
    assert (d.moved_forward.drm, d.moved_forward.per) == (2, "hex_moved_forward")
    assert d.pushed.drm == 4
    assert (d.agility.drm, d.agility.rating) == (-1, "AG")
    # Ran 2 hexes forward into the wall, AG 1, 2D6 = 7: 7 + 4 - 1 = 10 on T7's Stun row -> 2.
    total = 7 + d.moved_forward.total(2) + d.agility.total(1)
    assert total == 10
    assert tables().wounds.t7.column(total).stun == 2


# --- T16-T18 the net (§20) ------------------------------------------------------------------------


def test_s20_3_net_attack_costs_fronts_and_reuse() -> None:
    nets = advanced_tables().nets
    attacks = nets.net_attacks.attacks
    assert {c: (a.cf, a.front, a.blocked_phases) for c, a in attacks.items()} == {
        "TN": (6, "three_hex", 2),  # §20.5, §20.5.1
        "SN": (4, "two_hex", 1),  # §20.6, §20.6.2
        "LN": (2, "one_hex", 0),  # §20.7, §20.7.1
    }
    assert (nets.net_attacks.per_phase, nets.net_attacks.dice) == (1, "3D6")
    assert attacks["TN"].results == {
        "H": "ensnare",
        "P": "stumble_check",
        "P*": "stumble_check",
        "F": "net_grabbed",
    }
    assert attacks["SN"].results["H"] == attacks["LN"].results["H"] == "stumble"
    assert attacks["SN"].no_effect_on == ("kneeling", "prone")  # §20.6.1


@pytest.mark.parametrize(
    ("code", "used", "first_legal"),
    [("TN", (1, 7), (2, 2)), ("SN", (1, 8), (2, 2)), ("LN", (1, 8), (2, 1))],
)
def test_ex_20_5_1_and_ex_20_6_2_net_reuse(
    code: NetCode, used: tuple[int, int], first_legal: tuple[int, int]
) -> None:
    """EX-20.5.1: tossed in turn 1 phase 7, legal again from turn 2 phase 2; EX-20.6.2: swung in
    turn 1 phase 8, legal again from turn 2 phase 2; a Net Lay every phase (§20.7.1)."""
    blocked = advanced_tables().nets.attack(code).blocked_phases
    turn, phase = used
    index = (turn - 1) * 8 + (phase - 1) + blocked + 1
    assert (index // 8 + 1, index % 8 + 1) == first_legal


def test_r_9_5_net_toss_on_the_0_column_sec20_5_3() -> None:
    """R-9.5: a net toss roll of 15 on the "0" column is column 1 with -1 -> H-2 -> ensnared."""
    nets = advanced_tables().nets
    column = nets.net_attacks.crt_column
    assert column == 0
    cell = crt_result(1, 15 + column - 1)
    assert str(cell) == "H-2"
    assert nets.attack("TN").results[cell.code] == "ensnare"
    assert str(crt_result(1, 3)) == "F"  # the net is grabbed (§20.8)


def test_t16_net_toss_drms_sec20_5() -> None:
    d = advanced_tables().nets.t16.drms
    drms = {name: getattr(d, name).drm for name in type(d).model_fields}
    assert drms == {
        "target_heavy": 1,
        "target_light": -1,
        "target_adjacent": -2,
        "target_two_hexes": 1,
        "target_moved_backward": 1,
        "target_paused": 2,
        "target_kneeling": 4,
        "repel_net": -6,
        "target_legs_cf_lost": 1,
        "retiarius_arms_cf_lost": -2,
        "nf_difference": 1,
        "positional_advantage": 1,
        "non_retiarius": -2,
    }
    assert (d.nf_difference.rating, d.positional_advantage.rating) == ("NF_difference", "PA")


def test_t17_net_swing_drms_sec20_6() -> None:
    d = advanced_tables().nets.t17.drms
    assert (d.target_moved_backward.drm, d.target_moved_forward.drm) == (3, 1)
    assert (d.target_rotated.drm, d.target_rotated.per) == (2, "hexside_rotated")
    assert (d.target_legs_cf_lost.drm, d.retiarius_arms_cf_lost.drm) == (2, -2)
    assert (d.target_adjacent.drm, d.repel_net.drm, d.non_retiarius.drm) == (-2, -6, -2)


def test_t18_net_lay_drms_sec20_7() -> None:
    d = advanced_tables().nets.t18.drms
    assert (d.target_moved_backward.drm, d.target_moved_forward.drm) == (5, 2)
    assert (d.target_heavy.drm, d.target_light.drm, d.repel_net.drm) == (1, -1, -6)
    assert "target_adjacent" not in type(d).model_fields  # a lay has no range DRM


def test_t17b_swing_order_is_the_2_hex_front_sec20_6_1() -> None:
    t17b = advanced_tables().nets.t17b
    assert [h.name for h in t17b.order] == ["FR2", "F2R", "F2", "F", "F2L", "FL2", "FR", "FL"]
    assert {_hex(fl, fr) for fl, fr in t17b.hexes} == set(cone(ORIGIN, 0, 2))
    assert _hex(*t17b.hexes[3]) == neighbor_at(ORIGIN, 0, Relation.FRONT)
    assert _hex(*t17b.hexes[-1]) == neighbor_at(ORIGIN, 0, Relation.LEFT_FRONT)
    # The top line of the diagram, "5th 3rd 2nd", is F2L, F2, F2R: the swing runs right to left.
    assert [t17b.hexes.index(h) + 1 for h in ((2, 1), (2, 2), (1, 2))] == [5, 3, 2]


def test_s20_7_lay_net_hexes_are_the_1_hex_front() -> None:
    lay = advanced_tables().nets.attack("LN")
    assert {n: _hex(*h.at) for n, h in lay.hexes.items()} == {
        1: neighbor_at(ORIGIN, 0, Relation.LEFT_FRONT),
        2: neighbor_at(ORIGIN, 0, Relation.FRONT),
        3: neighbor_at(ORIGIN, 0, Relation.RIGHT_FRONT),
    }


def test_s20_5_5_escape_drag_and_note_20_8_1_struggle() -> None:
    e = advanced_tables().nets.ensnare
    assert (e.escape.dice, e.escape.escapes_below) == ("3D6", 7)
    assert e.escape.result_added_to_attacks
    assert (e.drag.dice, e.drag.dragged_if_above, e.drag.needs_cf) == ("3D6", 17, 1)
    assert e.struggle.dice == "1D6" and e.struggle.tie_to_retiarius  # NOTE-20.8.1
    # 3D6 = 10 with 4 escape CFs: 6 < 7, free, and +6 to every attack on him this phase.
    assert e.escape.escapes_below > 10 - 4
    # NOTE-20.8.1: Contra-Retiarius 1D6 4 + ST 1 + hook 1 = 6 ties the Retiarius's 4 + ST 2 = 6,
    # and a tie goes to the Retiarius.
    hook = advanced_tables().weapons.t19.weapon("hook").net_struggle_drm
    assert hook == 1
    assert 4 + 1 + hook == 4 + 2


def test_s20_4_repel_net_action() -> None:
    rn = advanced_tables().nets.repel_net
    action = rn.action
    assert rn.code == "RN"
    assert (action.kind, action.hexes, action.rotation) == ("special", 0, 0)
    assert not action.free_without_rotation  # it uses a movement phase (§20.4.1)


# --- T19 weapons (§21, §20.9) ---------------------------------------------------------------------


def test_t19_printed_columns_sec21() -> None:
    t19 = advanced_tables().weapons.t19.weapons
    order = ["axe", "dagger", "flail", "hook", "javelin", "scimitar", "maul", "pike", "spear"]
    order += ["sword", "trident"]
    assert list(t19) == order
    assert [t19[w].spd for w in order] == [1, -1, 1, 0, -1, 1, 2, 1, 0, 0, 0]
    assert [t19[w].reach for w in order] == [1, 1, 1, 1, 2, 2, 2, 3, 2, 1, 2]
    assert [t19[w].thr for w in order] == [3, 2, 2, 0, 6, 1, 2, 4, 5, 3, 4]
    assert [t19[w].crt for w in order] == [3, 2, 1, 1, 7, 3, 1, 5, 4, 3, 5]
    assert {w for w in order if t19[w].two_handed} == {"maul", "pike", "spear", "trident"}


def test_t19_notes_as_numbers_sec21_2_to_21_10() -> None:
    w = advanced_tables().weapons.t19
    assert w.weapon("axe").wound_drm == 2  # §21.2
    assert w.weapon("dagger").half_cf == w.weapon("javelin").half_cf == ("always",)  # §21.3
    assert w.weapon("flail").conversion == "flail"  # §21.4, T6
    assert w.weapon("scimitar").half_cf == ("at_range_2",)  # §21.7
    maul = w.weapon("maul")
    assert (maul.st_bonus, maul.hit_stun) == (3, "2D6")  # §21.8, §21.8.1
    pike = w.weapon("pike")
    assert (pike.min_range, pike.shield_damage_drm) == (2, 6)  # §21.9
    javelin = w.weapon("javelin")
    assert javelin.breaks is not None and javelin.breaks.above == 5  # §21.6.1.1
    assert javelin.breaks.fragment_dice is None  # §21.6.1.2: a broken javelin is useless
    assert javelin.carried is not None and (javelin.carried.min, javelin.carried.max) == (2, 6)
    trident = w.weapon("trident")
    assert trident.breaks is not None
    assert (trident.breaks.dice, trident.breaks.above, trident.breaks.dropped) == ("2D6", 11, True)
    assert trident.breaks.fragment_usable_on == (5, 6)  # §20.9.3.2
    assert trident.breaks.fragment_reach == 1
    hook = w.weapon("hook")
    assert (hook.shield, hook.grabs_net_on) == ("small", ("F", "S"))  # §21.5
    with pytest.raises(ValueError, match="unknown weapon"):
        w.weapon("katana")


def test_r_21_6_1_1_javelin_breaks_above_5() -> None:
    brk = advanced_tables().weapons.t19.weapon("javelin").breaks
    assert brk is not None
    opponent_st = 1
    assert [roll + opponent_st > brk.above for roll in (3, 4, 5)] == [False, False, True]


def test_note_20_9_2_trident_hands() -> None:
    """NOTE-20.9.2: 7 CF on a trident count 3 while he holds the net, 7 without net or shield."""
    trident = advanced_tables().weapons.t19.weapon("trident")
    assert "with_net" in trident.half_cf and "with_shield" in trident.half_cf
    assert 7 // 2 == 3


def test_ex_21_9_pike_min_range() -> None:
    pike = advanced_tables().weapons.t19.weapon("pike")
    t40 = tables().combat_front.t40
    region = next(n for n, r in t40.regions.items() if r.max_range == pike.reach)
    assert region == "three_hex"  # the 15-hex front
    assert pike.min_range is not None
    reachable = [
        (fl, fr)
        for fl in range(4)
        for fr in range(4)
        if t40.in_front(region, fl, fr) and max(fl, fr) >= pike.min_range
    ]
    assert len(reachable) == 15 - 3  # every hex of the front but the adjacent three
    assert (1, 1) not in reachable


def test_note_13_3_sword_in_t19_is_the_thrown_sword() -> None:
    sword = advanced_tables().weapons.t19.weapon("sword")
    thrown = tables().items.thrown.weapon
    assert (sword.thr, sword.crt) == (thrown.thr, thrown.crt) == (3, 3)


# --- T20 special attacks and defences (§22) -------------------------------------------------------


def test_t20_special_attacks_sec22_2() -> None:
    t20 = advanced_tables().specials.t20
    assert (t20.attacks_per_phase, t20.defences_per_phase, t20.defence_cost_cf) == (1, 1, 2)
    a = t20.attacks
    assert {c: (x.name, x.area) for c, x in a.items()} == {
        "A": ("Disarm", "arms"),
        "F": ("Feint", "any"),
        "S": ("Sweep", "legs"),
        "H": ("Shield Bash", "chest"),
        "T": ("Sand", "head"),
    }
    disarm = a["A"]
    assert disarm.h_becomes == "P" and disarm.weapon_drop is not None
    # An H+2 disarm: the weapon-drop roll gets -(8 + 2 x 2) = -12.
    assert disarm.weapon_drop.drm + disarm.weapon_drop.per_h_bonus * 2 == -12
    feint = a["F"]
    assert feint.counter is not None and feint.counter.cf + feint.counter.per_h_bonus * 1 == 5
    assert a["S"].damage == a["H"].damage == "half"
    assert a["H"].stun is not None and (a["H"].stun.dice, a["H"].stun.per_h_bonus) == ("2D6", 2)
    assert a["H"].requires == ("has_shield",)


def test_t20_q8_sand_blinds_the_defender_sec22_2() -> None:
    sand = advanced_tables().specials.t20.attacks["T"]
    assert sand.cf_loss is not None
    assert (sand.cf_loss.who, sand.cf_loss.dice, sand.cf_loss.per_h_bonus) == ("defender", "2D3", 1)
    assert sand.reference_sheet is not None and sand.reference_sheet.cf_loss_dice == "1D3"
    assert sand.reach == 2 and sand.other_results == "none" and sand.damage == "none"


def test_t20_special_defences_sec22_3() -> None:
    d = advanced_tables().specials.t20.defences
    assert {c: (x.area, x.auto) for c, x in d.items()} == {
        "D": ("head", "-"),
        "B": ("chest", "S"),  # Q9: the rules text
        "K": ("groin", "-"),
        "P": ("arms", "P"),
        "L": ("legs", "-"),
    }
    block = d["B"].reference_sheet
    assert block is not None and block.auto == "-"
    assert d["P"].cf_lost is not None and d["P"].cf_lost.sources == ("arms",)
    assert d["L"].cf_lost is not None and d["L"].cf_lost.sources == ("legs", "endurance")
    assert d["P"].cf_lost.below == d["L"].cf_lost.below == 3
    assert d["D"].requires == ("not_stunned",)
    assert d["K"].requires == ("on_feet", "not_stumbling")


# --- §23 unarmed, §24 two weapons, §26 cleaving, §27 team -----------------------------------------


def test_s23_unarmed_combat_numbers() -> None:
    u = advanced_tables().combat.unarmed
    assert (u.reach, u.half_cf, u.spd) == (1, True, 1)  # §23.1, §23.2
    assert u.changes == {"S": "-", "S*": "-"}  # §23.2.1
    assert u.parry_wounds_attacker.area == "arms" and u.parry_wounds_attacker.as_result == "H"
    # §23.2.3: ST 2 and an H+1: the defender rolls 2D6 + 2 + 2 on the Stun row.
    assert u.hit_stun.dice == "2D6" and u.hit_stun.attacker_st
    assert 2 + u.hit_stun.per_h_bonus * 1 == 4
    assert u.critical_per_stun == 1
    assert set(u.critical_ignored) == {"H", "M", "K", "SA"}
    assert set(u.critical_ignored) <= set(tables().criticals.t9b.codes)
    assert u.critical_fall_prone_drm == -2  # §23.3.2


def test_s24_two_weapon_numbers() -> None:
    adv = advanced_tables()
    t = adv.combat.two_weapon
    assert (t.trained_same.cf, t.trained_same.spd) == (4, -1)  # §24.2.1
    assert (t.trained_different.cf, t.trained_different.spd) == (2, 0)  # Q44
    assert (t.untrained.cf, t.untrained.weapon_drop_drm, t.untrained.same_only) == (2, -2, True)
    assert tables().results.t6.conversions[t.conversion].changes == {
        "S": "P",
        "S*": "P",
        "P*": "H",
    }  # §24.3
    t19 = adv.weapons.t19.weapons
    never = {k for k, w in t19.items() if w.two_handed and t.never_paired.two_handed}
    never |= set(t.never_paired.weapons)
    assert never == {"flail", "maul", "pike", "spear", "trident"}  # §24.4
    assert adv.styles.style(t.trained_style).name == "Dimachaeri"


def test_s26_cleaving() -> None:
    c = advanced_tables().combat.cleaving
    assert (c.blood_dice, c.on_wound_result, c.placed_as) == ("1D3", "kill", "dropped_object")
    assert c.stumble_check_on_entry
    assert {_d3(f) for f in range(1, 7)} == {1, 2, 3}


def test_note_27_5_two_on_one_and_s27_4_rear_hexes() -> None:
    team = advanced_tables().combat.team
    assert team.undefended_from == ("RL", "R", "RR")
    cap = 8  # §9.3.2
    assert team.pa_to_one_attack
    assert cap + 3 == 11  # NOTE-27.5: 10 CF and +3 PA make one 11-CF attack
    assert team.adjacent_unattacked_first  # §27.3


# --- T21-T25 beasts (§28) -------------------------------------------------------------------------


def test_t21_beast_characteristics_sec28_3() -> None:
    b = advanced_tables().beasts.t21.beasts
    assert {k: (x.st, x.ag, x.cn, x.w, x.cf) for k, x in b.items()} == {
        "bear": (9, 2, 4, 18, 12),
        "leopard": (3, 4, 2, 10, 10),
        "lion": (9, 3, 3, 14, 14),
        "tiger": (11, 3, 4, 16, 16),
        "wolf": (1, 4, 1, 6, 8),
    }
    assert {k for k, x in b.items() if x.hexes == 1} == {"wolf"}  # NOTE-28.3


def test_t22_beast_movement_rows_cover_2_to_12_sec28_4() -> None:
    t22 = advanced_tables().beasts.t22
    assert t22.dice == "2D6"
    rows = [t22.row(roll) for roll in range(2, 13)]
    assert [(r.move, r.hexes, r.turn) for r in rows] == [
        ("backward", 1, None),
        ("stay", 0, "left"),
        ("stay", 0, "left"),
        ("forward", 1, "left"),
        ("toward", 1, None),
        ("toward", 2, None),
        ("toward", 3, None),
        ("forward", 1, "right"),
        ("stay", 0, "right"),  # Q14: 10-11, not "10-12"
        ("stay", 0, "right"),
        ("stay", 0, None),
    ]
    assert t22.row(12).pause and not t22.row(11).pause
    assert t22.bear_rears_on == (2,)  # §28.4.2
    with pytest.raises(ValueError):
        t22.row(13)


def test_t22_q14_reading_is_mirror_symmetric() -> None:
    t22 = advanced_tables().beasts.t22
    ways = Counter(a + b for a in range(1, 7) for b in range(1, 7))
    odds: Counter[tuple[str, str | None]] = Counter()
    for roll, n in ways.items():
        r = t22.row(roll)
        odds[(r.move, r.turn)] += n
    assert odds[("stay", "left")] == odds[("stay", "right")] == 5
    assert odds[("forward", "left")] == odds[("forward", "right")] == 4
    assert odds[("backward", None)] == 1 and t22.row(12).pause


def test_t23_beast_collision_drms_sec28_5() -> None:
    t23 = advanced_tables().beasts.t23
    assert t23.beast == {"bear": 3, "leopard": 1, "lion": 3, "tiger": 4, "wolf": 0}
    assert (t23.dice, t23.automatic) == ("1D6", True)
    # Q37: a tiger that moved 2 hexes, die 3: IF 3 + 4 + 4 = 11.
    assert 3 + t23.beast["tiger"] + t23.moved.total(2) == 11


def test_t24_beast_pa_around_the_counter_sec28_6() -> None:
    beasts = advanced_tables().beasts
    t24 = beasts.t24
    tail = neighbor_at(ORIGIN, 0, Relation.REAR)
    around = (set(neighbors(ORIGIN)) | set(neighbors(tail))) - {ORIGIN, tail}
    assert {_hex(*h.at) for h in t24.hexes} == around
    assert sorted(h.pa for h in t24.hexes) == [0, 1, 2, 2, 4, 4, 6, 6]
    assert Counter(h.areas for h in t24.hexes) == {
        (1, 4): 1,
        (5,): 1,
        (1, 2): 2,
        (3, 5): 2,
        (1, 2, 3, 4, 5): 2,
    }
    front = t24.at(1, 1)
    assert (front.pa, front.areas) == (0, (1, 4))  # head and paws from the front
    rear = t24.at(-2, -2)
    assert (rear.pa, rear.areas) == (1, (5,))
    with pytest.raises(ValueError):
        t24.at(3, 3)
    wolf = beasts.pa_table("wolf")
    assert wolf is beasts.t24_wolf and wolf.proposal
    assert {_hex(*h.at) for h in wolf.hexes} == set(neighbors(ORIGIN))
    assert beasts.pa_table("lion") is t24


def test_t25_beast_criticals_sec28_6_3() -> None:
    t25 = advanced_tables().beasts.t25
    assert t25.columns == (7, 8, 9, 10, 11, 12, 13, 14, 15)
    assert set(t25.rows) == set(BEAST_AREAS)
    assert t25.result("head", 12) == ("2x", "S")
    assert t25.result("head", 15) == t25.result("chest", 30) == ("K",)
    assert t25.result("paws", 15) == t25.result("legs", 20) == ("SA", "M")
    assert t25.result("legs", 13) == t25.result("legs", 14) == ("LMP",)
    assert t25.result("groin", 8) == ("1",) and t25.result("chest", 8) == ("-",)
    assert all(t25.result(a, 2) == ("-",) for a in BEAST_AREAS)
    legend = tables().criticals.t9b.codes
    assert all(c in legend for row in t25.rows.values() for cell in row for c in cell.split("+"))


def test_s28_6_beast_combat_numbers() -> None:
    c = advanced_tables().beasts.combat
    assert (c.attacks_dice, c.area_dice, c.area_reroll) == ("1D3", "1D6", (6,))
    assert not c.defence and not c.turns_to_attacker and c.front == "one_hex"
    assert c.changes == {"S": "H", "S*": "H"}  # §28.6.1.2
    assert c.paws_wound_on == c.weapon_drop_on == ("P", "P*")  # §28.6.1.3, the text
    assert c.reference_weapon_drop_on == ("P*",)
    bear = c.reared_bear
    assert (bear.areas, bear.cf_bonus, bear.pa_as_gladiator) == ((1, 2, 4), 4, True)
    assert c.moves_every_phase and not c.endurance  # NOTE-28.4
    assert {_d3(f) for f in range(1, 7)} == {1, 2, 3}


# --- T26-T30 centurions (§29) ---------------------------------------------------------------------


def test_t26_rows_cover_every_d66_roll_sec29_2() -> None:
    t26 = advanced_tables().centurions.t26
    assert sorted(t26.rows) == [10 * a + b for a in range(1, 7) for b in range(1, 7)]
    assert (t26.row(11).cf, t26.row(11).nf) == (10, 12)
    assert (t26.row(46).cf, t26.row(46).nf) == (14, 13)
    assert (t26.row(66).tr, t26.row(66).st, t26.row(66).cf, t26.row(66).nf) == (7, 5, 13, 8)
    assert t26.row(42).cn == 1 and t26.row(56).w == 15
    for bad in (10, 17, 67, 70):
        with pytest.raises(ValueError):
            t26.row(bad)


def test_note_29_2_fighting_spirit_and_prestige() -> None:
    t26 = advanced_tables().centurions.t26
    fs = t26.fighting_spirit
    assert {_d3(f) + fs.modifier for f in range(1, 7)} == {-1, 0, 1}
    assert t26.prestige_dice == "1D3"


def test_t27_centurion_checks_sec29_3() -> None:
    t27 = advanced_tables().centurions.t27
    assert (t27.movement_roll, t27.position_roll) == ("2D6", "D66")  # Q20
    assert t27.pause.below == 1
    assert t27.prone.below == t27.kick.below == t27.repel_net.below == 10
    p = t27.pause.drms
    assert [(x.drm, x.per) for x in (p.range, p.pauses_remaining, p.phase)] == [
        (-1, "three_hexes_range"),
        (-1, "pause_remaining"),
        (-1, "phase_number"),
    ]
    # Q21: phase 3, 2 Pauses left, 7 hexes away, PA 0: 2D6 + (-2) + (-2) + (-3) < 1 on 2-7.
    total = p.range.total(7 // 3) + p.pauses_remaining.total(2) + p.phase.total(3)
    assert [roll + total < t27.pause.below for roll in (7, 8)] == [True, False]
    pos = t27.position
    assert pos.applies_to == "red_die"
    assert (pos.no_rotation_above, pos.charge_at_least) == (22, 66)
    assert [pos.rotation.for_colour(c) for c in ("red", "grey", "white")] == [2, 1, 3]
    assert pos.drms.range.not_for_retiarius and pos.drms.fighting_spirit.rating == "FS"
    assert t27.net_escape.count(13) == 3  # §29.5.1.2: one die per 6 CF, rounded up


def test_t28_rmc_covers_every_adjusted_d66_sec29_3_2() -> None:
    t28 = advanced_tables().centurions.t28
    assert len(t28.rows) == 19 and t28.proposal
    assert {_hex(*r.at) for r in t28.rows} == set(disk(ORIGIN, 2))
    seen = Counter(t28.row(red, white).bearing for red in range(1, 7) for white in range(1, 7))
    assert sum(seen.values()) == 36
    assert t28.row(4, 3).at == (0, 0) and t28.row(4, 3).colour == "white"
    assert t28.row(5, 1).at == (1, 1)  # one hex toward the opponent
    assert t28.row(6, 6).at == (2, 2)
    assert t28.row(6, 6, red_drm=3).at == (2, 2)  # "66+"
    assert t28.row(1, 2, red_drm=-1).at == (-2, -2)  # tens 0: "02"
    assert t28.row(1, 6, red_drm=-5).at == (-2, -2)  # "and below"
    assert t28.row(1, 6, red_drm=-1).at == (-2, -1)  # "05-06"
    assert [t28.row(2, w).at for w in (1, 2)] == [(1, 0), (0, 1)]
    colours = Counter(r.colour for r in t28.rows)
    assert colours == {"white": 1, "red": 6, "grey": 12}


def test_t29_centurion_net_attacks_cover_1d6_sec29_5_2() -> None:
    t29 = advanced_tables().centurions.t29
    assert [t29.attack(r) for r in range(1, 7)] == ["LN", "LN", "LN", "SN", "SN", "TN"]
    assert [t29.row(r).lay_hex for r in range(1, 7)] == [1, 2, 3, None, None, None]  # A18
    nets = advanced_tables().nets.net_attacks.attacks
    assert {t29.attack(r) for r in range(1, 7)} == set(nets)
    with pytest.raises(ValueError):
        t29.attack(7)


def test_t30_centurion_cf_allocation_sec29_6() -> None:
    t30 = advanced_tables().centurions.t30
    assert t30.defence.count(13) == 2 and t30.defence.count(5) == 0  # 6 FULL CFs per die
    fs = t30.effective_fs
    assert [fs.for_class(c) for c in ("light", "medium", "heavy")] == [0, 1, 2]
    assert (t30.area_dice, t30.special_on) == ("1D6", 6)
    assert t30.first_defence_buys_special
    # 13 CF, heavy, FS 0: two dice, each less 2: 4 and 5 -> defence 2 + 3 = 5, attack 8.
    defence = sum(d - (0 + fs.for_class("heavy")) for d in (4, 5))
    assert (defence, 13 - defence) == (5, 8)


# --- broken data is refused -----------------------------------------------------------------------


def _text(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def _corrupt(name: str, old: str | re.Pattern[str], new: str) -> str:
    text = _text(name)
    if isinstance(old, re.Pattern):
        broken, count = old.subn(new, text, count=1)
    else:
        count = text.count(old)
        broken = text.replace(old, new, 1)
    assert count >= 1, f"the corruption pattern {old!r} is not in {name}"
    return broken


def _line(pattern: str) -> re.Pattern[str]:
    return re.compile(rf"^{pattern}.*\n", re.M)


BROKEN = [
    pytest.param("beasts.toml", "lo = 10, hi = 11,", "lo = 10, hi = 12,", "overlap", id="T22-Q14"),
    pytest.param("beasts.toml", _line(r"  \{ lo = 9, hi = 9,"), "", "gap", id="T22-gap"),
    pytest.param("beasts.toml", '"SA+M"]', '"XX"]', "not in T9b", id="T25-code"),
    pytest.param("beasts.toml", "fr = 0, pa = 2,", "fr = 0, pa = 3,", "mirror", id="T24-mirror"),
    pytest.param("beasts.toml", "lion = 3, tiger = 4,", "tiger = 4,", "T23", id="T23-no-lion"),
    pytest.param("beasts.toml", "hexes = 1\n", "hexes = 3\n", "hexes", id="T21-hexes"),
    pytest.param("beasts.toml", "area_reroll = [6]", "area_reroll = []", "1-5", id="s28-areas"),
    pytest.param(
        "beasts.toml",
        '{ name = "rear", fl = -2, fr = -2,',
        '{ name = "rear", fl = -3, fr = -3,',
        "touching",
        id="T24-geometry",
    ),
    pytest.param("centurions.toml", _line("66 = "), "", "D66", id="T26-row"),
    pytest.param("centurions.toml", "66 = { tr = 7,", "66 = { tr = 20,", "T4", id="T26-T4"),
    pytest.param("centurions.toml", "lo = 41, hi = 46,", "lo = 36, hi = 46,", "T28", id="T28-dup"),
    pytest.param("centurions.toml", "lo = 63, hi = 64,", "lo = 64, hi = 64,", "T28", id="T28-gap"),
    pytest.param(
        "centurions.toml", "fl = 0, fr = 0, colour", "fl = 3, fr = 0, colour", "19", id="T28"
    ),
    pytest.param("centurions.toml", 'colour = "white"', 'colour = "red"', "WHITE", id="T28-white"),
    pytest.param(
        "centurions.toml",
        "lo = 4, hi = 5,",
        "lo = 5, hi = 5,",
        "T29 rows leave a gap",
        id="T29-gap",
    ),
    pytest.param("centurions.toml", 'attack = "TN"', 'attack = "XN"', "attack", id="T29-code"),
    pytest.param("centurions.toml", "lay_hex = 3", "lay_hex = 2", "one hex", id="T29-A18"),
    pytest.param("centurions.toml", "special_on = 6", "special_on = 7", "T30", id="T30-area"),
    pytest.param("styles.toml", '["scimitar"]', '["katana"]', "not in T19", id="T37-weapon"),
    pytest.param("styles.toml", "move = 6\n", "move = 5\n", "§3.5", id="T37-standard-move"),
    pytest.param("styles.toml", "move = 7", "move = 7\ncolour = 1", "colour", id="T37-key"),
    pytest.param("styles.toml", '["retiarius"]', '["samurai"]', "unknown styles", id="T37-opp"),
    pytest.param("styles.toml", 'class = "light"', 'class = "huge"', "class", id="T37-class"),
    pytest.param(
        "weapons.toml", 'notes = ""', 'thr = 4\nnotes = ""', "overwrite", id="T19-dup-key"
    ),
    pytest.param(
        "weapons.toml",
        re.compile(r"(\[t19\.weapons\.sword\][^\[]*?)thr = 3", re.S),
        r"\1thr = 4",
        "Thr and CRT",
        id="T19-sword-vs-items",
    ),
    pytest.param("weapons.toml", 'conversion = "flail"', 'conversion = "x"', "T6", id="T19-conv"),
    pytest.param("weapons.toml", 'half_cf = ["with_shield"]\nst_bonus', "st_bonus", "2H", id="2H"),
    pytest.param("weapons.toml", "reach = 3", "reach = 4", "T40", id="T19-reach"),
    pytest.param("weapons.toml", 'users = ["retiarius"]', 'users = ["x"]', "unknown", id="T19-use"),
    pytest.param(
        "specials.toml", 'area = "head"\nrequires', 'area = "chest"\nrequires', "one area", id="T20"
    ),
    pytest.param("specials.toml", 'auto = "S"', 'auto = "Q"', "auto", id="T20-code"),
    pytest.param("specials.toml", "[t20.attacks.T]", "[t20.attacks.X]", "attacks", id="T20-key"),
    pytest.param("nets.toml", _line(r"  \{ name = \"FL2\""), "", "T17b", id="T17b-short"),
    pytest.param("nets.toml", '"FL2", fl = 2, fr = 0', '"FL2", fl = 0, fr = 2', "twice", id="T17b"),
    pytest.param("nets.toml", "3 = { fl = 0, fr = 1 }", "3 = { fl = 0, fr = 2 }", "Lay", id="LN"),
    pytest.param("nets.toml", _line("target_paused = "), "", "target_paused", id="T16-row"),
    pytest.param("nets.toml", 'front = "two_hex"', 'front = "four_hex"', "front", id="SN-front"),
    pytest.param("nets.toml", 'per = "cf_lost_legs"', 'per = "legs"', "per", id="T16-per"),
    pytest.param("wall_collision.toml", 'dice = "2D6"', 'dice = "2D7"', "dice", id="T13-dice"),
    pytest.param("wall_collision.toml", "drm = 4,", 'drm = "4",', "drm", id="T13-string"),
    pytest.param("advanced_combat.toml", '"SA"]', '"ZZ"]', "T9b", id="s23-crit"),
    pytest.param("advanced_combat.toml", '["flail"]', '["flails"]', "§24.4", id="s24-paired"),
    pytest.param(
        "advanced_combat.toml",
        'trained_style = "dimachaeri"',
        'trained_style = "gallus"',
        "pair",
        id="s24-trained",
    ),
    pytest.param(
        "beasts.toml",
        re.compile(r'^source_note = """Q14.*?"""\n', re.M | re.S),
        "",
        "source_note",
        id="T22-Q14-note",
    ),
    pytest.param(
        "centurions.toml",
        'proposal = true\nsource_note = """Q19',
        'source_note = """Q19',
        "proposal",
        id="T28-proposal",
    ),
    pytest.param("nets.toml", "schema_version = 1", "schema_version = 2", "schema_version", id="v"),
    pytest.param("specials.toml", "defence_cost_cf = 2", "defence_cost_cf = ", "TOML", id="toml"),
]


@pytest.mark.parametrize(("name", "old", "new", "expect"), BROKEN)
def test_corrupt_advanced_text_is_refused_with_a_one_line_error(
    name: str, old: str | re.Pattern[str], new: str, expect: str
) -> None:
    broken = _corrupt(name, old, new)
    with pytest.raises(ValueError) as info:
        load_advanced_tables(DATA, overrides={name: broken}, basic=tables())
    message = str(info.value)
    assert "\n" not in message
    assert name in message or "fit together" in message
    assert expect in message, message


def test_corrupt_file_in_a_directory_is_refused(tmp_path: Path) -> None:
    shutil.copytree(DATA, tmp_path / "data")
    (tmp_path / "data" / "beasts.toml").write_text(
        _corrupt("beasts.toml", "lo = 10, hi = 11,", "lo = 10, hi = 12,"), encoding="utf-8"
    )
    with pytest.raises(ValueError, match=re.escape("beasts.toml")):
        load_advanced_tables(tmp_path / "data")


def test_a_clean_copy_of_the_directory_loads(tmp_path: Path) -> None:
    shutil.copytree(DATA, tmp_path / "data")
    assert load_advanced_tables(tmp_path / "data") == advanced_tables()


def test_cross_references_are_checked_against_the_basic_files_beside_them(tmp_path: Path) -> None:
    """A Basic Game file edited so that an Advanced table no longer fits is refused too: here the
    thrown sword's CRT (items.toml, NOTE-13.3) no longer matches T19's sword."""
    shutil.copytree(DATA, tmp_path / "data")
    items = tmp_path / "data" / "items.toml"
    items.write_text(
        items.read_text(encoding="utf-8").replace(
            "weapon = { thr = 3, crt = 3 }", "weapon = { thr = 3, crt = 4 }"
        ),
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match="fit together: T19's sword"):
        load_advanced_tables(tmp_path / "data")


def test_missing_advanced_file_is_refused(tmp_path: Path) -> None:
    shutil.copytree(DATA, tmp_path / "data")
    (tmp_path / "data" / "nets.toml").unlink()
    with pytest.raises(ValueError, match=r"nets\.toml is missing"):
        load_advanced_tables(tmp_path / "data")


def test_parse_advanced_file_checks_one_file() -> None:
    nets = parse_advanced_file("nets.toml", _text("nets.toml"))
    assert nets.named_tables().keys() >= {"t16", "t17", "t17b", "t18"}
    with pytest.raises(ValueError, match="unknown colosseum advanced table file"):
        parse_advanced_file("crt.toml", _text("crt.toml"))
    with pytest.raises(ValueError, match=r"weapons\.toml is invalid"):
        parse_advanced_file("weapons.toml", _text("weapons.toml").replace("spd = 2", "spd = 9"))
