"""Colosseum Basic Game sections (§2–§18) that the module tests did not yet name: one test each,
named by its section and exercising the code that implements it (`gladiator rules coverage
colosseum` maps every section to code and tests).

Engine tests set a duel up by hand (`colosseum_helpers.duel`, `face_off`) and rig only the dice
the rule under test reads; the other dice come from the seed.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from colosseum_helpers import (
    RULES,
    RiggedDice,
    ScriptedDice,
    duel,
    face_off,
    of_type,
    pause,
    place,
    play,
    sheet,
)
from gladiator.bots import make_bot
from gladiator.core.decisions import ChooseOne, Distribute, IllegalOrder
from gladiator.core.dice import Dice
from gladiator.core.hexgrid import Hex, Relation, neighbor, neighbor_at, rectangle
from gladiator.core.match import Match
from gladiator.rules.colosseum.arena.board import board_of
from gladiator.rules.colosseum.arena.combat_geometry import positional_advantage
from gladiator.rules.colosseum.combat.cf_allocation import (
    allocation_decision,
    format_allocation,
    parse_allocation,
)
from gladiator.rules.colosseum.combat.rounds import PhaseCombat
from gladiator.rules.colosseum.combat.sequence import duel_plans
from gladiator.rules.colosseum.movement.collision_records import FigureState
from gladiator.rules.colosseum.movement.movement import resolve_movement
from gladiator.rules.colosseum.plots.plot_decision import plot_status
from gladiator.rules.colosseum.plots.plot_legality import legal_plots
from gladiator.rules.colosseum.plots.plots import format_plot, parse_plot, path
from gladiator.rules.colosseum.sheet.logsheet_render import render_text
from gladiator.rules.colosseum.state import ColosseumState
from gladiator.rules.colosseum.tables.tables import physical_value
from gladiator.rules.colosseum.vocabulary import AREAS

CRT = "§9.5.1"


def crt_events(events: list[dict[str, Any]]) -> dict[tuple[int, str], dict[str, Any]]:
    return {(e["side"], e["area"]): e for e in of_type(events, "crt")}


# --- §3 the log sheet, §4 preparation -------------------------------------------------------------


def test_s3_1_s4_3_every_gladiator_gets_a_log_sheet_rolled_before_play() -> None:
    """§3.1, §4.3: a log sheet is filled in for each gladiator before the first phase: the armour
    1D6 (§3.10) and five 3D6 on T4 (§3.11.1) each, read into the sheet."""
    dice = Dice(12)
    state, events = RULES.initial_state(
        RULES.normalise_options({"gladiators": ["medium"] * 2}), dice
    )
    assert [e["seat"] for e in of_type(events, "gladiator")] == ["red", "blue"]
    rules = [r.rule for r in dice.log]
    assert rules[:12] == (["§3.10"] + ["§3.11.1"] * 5) * 2
    for i, seat in enumerate(("red", "blue")):
        rolls = dice.log[6 * i + 1 : 6 * i + 6]
        s = state.gladiators[seat].sheet
        ratings = (s.tr, s.st, s.ag, s.cn, s.w)
        assert ratings == tuple(
            physical_value(c, r.total)
            for c, r in zip(("tr", "st", "ag", "cn", "w"), rolls, strict=True)
        )
        assert s.armour_roll == dice.log[6 * i].total
    assert (state.turn, state.phase, state.step) == (1, 1, "plot")


def test_s3_2_the_id_number_is_the_counters_number() -> None:
    """§3.2: the sheet carries the counter's number; a counter is numbered from 1."""
    assert sheet(id=7).id == 7
    assert render_text(sheet(id=7)).startswith("#7 ")
    with pytest.raises(ValueError, match="id") as err:
        sheet(id=0)
    assert "\n" not in str(err.value)


def test_s3_6_prestige_is_added_to_the_appeal() -> None:
    """§3.6, §18.3: Prestige can save his life. With R-18.3's figures blue's 2D6 of 6 +
    performance 3 is 9 (killed); Prestige 1 makes it 10 > 9 (spared)."""
    state = duel(seed=6)
    blue = state.gladiators["blue"]
    blue.sheet = sheet(id=2, name="blue", prestige=1)
    for g in state.gladiators.values():
        g.attack_used = 30
    dice, events = pause(state, 3, {"§5.4.1": [6], "§18.3": [(3, 4), (3, 3)]})
    assert dice.spent()
    appeal = next(e for e in of_type(events, "appeal") if e["seat"] == "blue")
    assert (appeal["total"], appeal["spared"]) == (10, True)


def test_s3_9_body_areas_are_numbered_1_head_to_5_legs() -> None:
    """§3.9: 1 Head, 2 Chest, 3 Groin, 4 Arms, 5 Legs, by name or number alike."""
    by_number = parse_allocation("A1:1 A2:5 D3:2", 10)
    assert by_number == parse_allocation("A1:head A2:legs D3:chest", 10)
    s = sheet()
    assert [str(s.armour_of(n)) for n in range(1, 6)] == [
        str(s.armour_of(a)) for a in ("head", "chest", "groin", "arms", "legs")
    ]
    with pytest.raises(ValueError, match=r"§3\.9"):
        s.armour_of(6)


def test_s3_13_the_current_cf_is_lowered_by_wounds_criticals_and_endurance() -> None:
    """§3.13: as CF is lost the sheet shows the new CF: 13, then a first chest wound (−1,
    §10.3.1.1), a critical V (−1) and 2 CF of endurance (§17.2) leave 9."""
    s = sheet()
    assert s.current_cf == s.cf == 13
    s, _ = s.with_wounds("chest", 1)
    s, _ = s.with_cf_loss(1)
    s, _ = s.with_endurance_loss(1, 2)
    assert (s.cf, s.current_cf) == (13, 9)
    assert "CF now 9" in render_text(s)


def test_s3_14_stun_is_taken_off_the_cfs_available() -> None:
    """§3.14, §11.2, §9.3.1: Stun is written with its phase and taken off the CF available."""
    s, _ = sheet().with_stun(3, turn=1, phase=2)
    assert (s.stun_in_effect, s.last_stunned) == (3, (1, 2))
    assert (s.current_cf, s.available_cf(), s.available_cf(pa_bonus=2)) == (13, 10, 12)


def test_s3_19_allocations_are_written_secretly_attack_and_defence_by_area() -> None:
    """§3.19, §5.2.6.2: each phase's attack and defence CFs per area are written secretly; the
    written text reads back the same."""
    decision = allocation_decision(12)
    assert decision.secret
    assert {s.name for s in decision.slots} == {
        f"{k}-{a}" for k in "AD" for a in ("HEAD", "CHEST", "GROIN", "ARMS", "LEGS")
    }
    written = parse_allocation("A3:head A2:chest D2:arms", 12)
    assert format_allocation(written) == "A3:head A2:chest D2:arms"
    assert parse_allocation(format_allocation(written), 12) == written


def test_s4_1_the_arena_map_is_laid_out_at_the_size_chosen() -> None:
    """§4.1: the arena map (a rectangle of hexes, its size a match option) is laid out, and a
    size too small for §4.5's set-up is refused in one line."""
    state = duel(board_width=24, board_height=18)
    board = board_of(state)
    assert len(board) == 24 * 18
    assert all(g.hex in board for g in state.gladiators.values())
    with pytest.raises(ValueError, match="board_width") as err:
        RULES.normalise_options({"board_width": 5})
    assert "\n" not in str(err.value)


# --- §5 summary of play --------------------------------------------------------------------------


def test_s5_1_a_turn_has_eight_phases() -> None:
    """§5.1: eight movement phases a turn, then the next turn."""
    state = duel()
    _dice, events = pause(state, 1, {})
    phases = [(e["turn"], e["phase"]) for e in of_type(events, "phase")]
    assert phases == [(1, p) for p in range(2, 9)] + [(2, 1)]


def test_s5_2_3_stun_recovery_comes_after_movement() -> None:
    """§5.2.3, §11.5, §11.5.1: after movement a stunned gladiator shakes off CN − (1D6 −
    phases since) Stun, never more than he had (§11.5.2): CN 4 − (1 − 0) = 3, capped at 2."""
    state = duel()
    red = state.gladiators["red"]
    red.sheet, _ = sheet(id=1, name="red").with_stun(2, turn=1, phase=1)
    dice = RiggedDice(1, {"§11.5.1": [1]})
    events = play(state, dice)
    kinds = [e["type"] for e in events]
    assert kinds.index("stun_recovery") > kinds.index("plot")
    assert red.sheet.stun_in_effect == 0
    assert of_type(events, "stun_recovery")[0]["removed"] == 2


def test_s5_2_4_collisions_are_resolved_after_movement() -> None:
    """§5.2.4, §8.1, §8.4: two gladiators stepping into the same hex collide, and the IFs are
    rolled there, in the movement step, before any combat."""
    state = duel()
    here = Hex(8, 6)
    place(state, red=(here, 0), blue=(neighbor(neighbor(here, 0), 0), 3))
    dice = RiggedDice(3, {"§8.4": [6, 1]})
    events = play(state, dice, red="F", blue="F")
    kinds = [e["type"] for e in events]
    assert "impact_factor" in kinds
    assert kinds.index("impact_factor") > kinds.index("plot")
    red, blue = state.gladiators["red"], state.gladiators["blue"]
    assert red.hex == neighbor(here, 0)  # the attacker (higher IF) holds the contested hex
    assert blue.hex != red.hex


def test_s5_2_4_1_item_recovery_is_tried_after_movement() -> None:
    """§5.2.4.1, §13.4.1: after movement, a gladiator within one hex of his dropped weapon tries
    for it: 1D6 + T14 DRMs (AG 1: −1), 1 − 1 = 0 is below 1: recovered."""
    from gladiator.rules.colosseum.state import GroundItem

    state = duel()
    red = state.gladiators["red"]
    red.sheet = sheet(id=1, name="red")
    red.has_weapon = False
    state.items.append(GroundItem("weapon", "red", red.hex))
    events = play(state, RiggedDice(1, {"§13.4.1": [1]}))
    [attempt] = of_type(events, "recovery")
    assert "recovered" in attempt["text"]
    assert red.has_weapon and not state.items


def test_s5_2_4_2_kicks_are_resolved_after_the_recovery_attempts() -> None:
    """§5.2.4.2, §13.5.1: after movement and the recovery attempts (§5.2.4.1), a kick written
    with the plot is resolved: red Pauses on blue's weapon and kicks it forward, 1D6 4 − 0 hexes
    moved: it flies 4 hexes. (Red's own shield beside him is tried for first, and missed.)"""
    from gladiator.rules.colosseum.state import GroundItem

    state = duel()
    red = state.gladiators["red"]
    red.sheet = sheet(id=1, name="red")
    red.has_shield = False
    beside = neighbor(red.hex, (red.facing + 3) % 6)
    state.items += [GroundItem("weapon", "blue", red.hex), GroundItem("shield", "red", beside)]
    dice = RiggedDice(1, {"§13.4.1": [6], "§13.5.1": [4]})
    events = play(state, dice, red="X +KW-F")
    assert dice.spent()
    kinds = [e["type"] for e in events]
    assert kinds.index("plot") < kinds.index("recovery") < kinds.index("kick")
    ahead = red.hex
    for _ in range(4):
        ahead = neighbor(ahead, red.facing)
    weapon = next(i for i in state.items if i.item == "weapon")
    assert weapon.hex == ahead


def test_s5_2_6_1_cfs_available_are_worked_out_before_allocation() -> None:
    """§5.2.6.1, §9.3.1: with an opponent in reach, CFs available = current CF + PA − Stun."""
    state = duel()
    face_off(state)
    red = state.gladiators["red"]
    red.sheet, _ = red.sheet.with_stun(2, turn=1, phase=1)
    events = play(state, RiggedDice(1, {"§11.5.1": [6]}))  # 4 − (6 − 0) < 0: none shaken off
    assert state.step == "allocate"
    assert red.available == red.sheet.current_cf + 0 - 2 == 11
    available = {e["seat"]: e["available"] for e in of_type(events, "available")}
    assert available == {"red": 11, "blue": 13}


def test_s5_2_6_2_both_allocate_in_secret() -> None:
    """§5.2.6.2, §9.3: once both may fight, each gets a secret allocation of his CFs."""
    state = duel()
    face_off(state)
    play(state, Dice(1))
    pending = RULES.pending(state)
    assert set(pending) == {"red", "blue"}
    for seat, decision in pending.items():
        assert isinstance(decision, Distribute) and decision.secret
        assert decision.budget == state.gladiators[seat].available


def test_s5_2_6_3_the_attacks_run_over_five_rounds() -> None:
    """§5.2.6.3, §9.4.2: five attacks strike in rounds 1 to 5 (T10), one round after another."""
    dice = ScriptedDice(*((CRT, (1, 2, 3)) for _ in range(5)))  # column 1, 6: "-"
    combat = PhaseCombat(
        duel_plans(
            (
                parse_allocation("A1:head A1:chest A1:groin A1:arms A1:legs", 5),
                parse_allocation("", 0),
            )
        ),
        dice,
        lambda *args: 0,
    )
    events = combat.run()
    assert [e["round"] for e in of_type(events, "crt")] == [1, 2, 3, 4, 5]
    assert dice.done()


def test_s5_2_7_combat_effects_are_written_on_the_log_sheet() -> None:
    """§5.2.7, §10.3: a body hit in combat is marked on the defender's sheet at once: blue's
    groin H (column 4, 15), WHITE 9 on bare flesh → 1 wound, a first wound → −1 CF."""
    state = duel()
    face_off(state)
    play(state, Dice(1))
    dice = RiggedDice(1, {CRT: [(5, 5, 5)], "§10.1": [(3, 3, 3, 1, 1)]})
    play(state, dice, red="A4:groin D9:chest", blue="D13:chest")
    blue = state.gladiators["blue"].sheet
    assert (blue.wounds_in("groin"), blue.current_cf) == (1, 12)


def test_s5_3_a_kill_ends_the_match_in_the_phase_it_happens() -> None:
    """§5.3: phases follow one another until a side is beaten: a T7 Kill (WHITE 18 + H+1 on the
    bare groin, 19) in turn 1 phase 1 ends the match there."""
    state = duel()
    face_off(state)
    play(state, Dice(1))
    dice = RiggedDice(1, {CRT: [(6, 6, 5)], "§10.1": [(6, 6, 6, 1, 1)]})  # column 4, 17: H+1
    play(state, dice, red="A4:groin D9:chest", blue="D13:chest")
    assert (state.step, state.turn, state.phase) == ("over", 1, 1)
    assert state.winners == ("red",) and state.end_method == "killed"


# --- §6 facing, §9.2.1 status bonuses -------------------------------------------------------------


def test_s6_1_a_figure_always_faces_a_hex_side() -> None:
    """§6.1: a facing is one of the six hex-sides (0-5); every pose of a plot's path keeps one,
    and a facing between them is refused."""
    for text in ("F F(R)", "(L)SFL", "X(3R)", "C", "B (R)F"):
        for facing in range(6):
            assert all(p.facing in range(6) for p in path(parse_plot(text), Hex(0, 0), facing))
    board = rectangle(8, 8)
    with pytest.raises(ValueError, match="facing"):
        resolve_movement({"A": FigureState()}, {"A": [(board.centre(), 6)]}, Dice(1), board=board)


def test_s9_2_1_1_a_stumbling_defender_gives_plus_2() -> None:
    """§9.2.1.1, §15.6: +2 on top of T11 against a defender performing a Stumble."""
    d = (Hex(0, 0), 0)
    for relation in Relation:
        a = (neighbor_at(Hex(0, 0), 0, int(relation)), 0)
        assert positional_advantage(a, d, stumbling=True) == positional_advantage(a, d) + 2


def test_s9_2_1_2_a_prone_defender_gives_plus_4_instead_of_the_stumble_2() -> None:
    """§9.2.1.2, §16.3, §15.6: +4 against a Prone defender, replacing the Stumble +2."""
    d = (Hex(0, 0), 0)
    for relation in Relation:
        a = (neighbor_at(Hex(0, 0), 0, int(relation)), 0)
        base = positional_advantage(a, d)
        assert positional_advantage(a, d, prone=True) == base + 4
        assert positional_advantage(a, d, prone=True, stumbling=True) == base + 4


# --- §9.4 attack sequence, §11.3 Stun ------------------------------------------------------------


def test_s9_4_3_his_attacks_go_in_the_order_he_wrote_them() -> None:
    """§9.4.3, Q25: several attacks are resolved in order, the order he wrote (chest, then
    head), each in its T10 round."""
    dice = ScriptedDice((CRT, (1, 2, 3)), (CRT, (1, 2, 3)))
    combat = PhaseCombat(
        duel_plans((parse_allocation("A2:chest A3:head", 10), parse_allocation("", 0))),
        dice,
        lambda *a: 0,
    )
    combat.run()
    assert [(p.area, p.round) for p, _ in combat.outcomes] == [("chest", 2), ("head", 4)]


def test_s11_3_stun_comes_off_the_attacks_still_to_come() -> None:
    """§11.3, §9.4.6: Stun takes effect at once, like a wound loss. Blue's head hit (round 2)
    wounds red once (−1 CF) and its critical S (RED 3 + BLACK 6 + 1 = 10) stuns him 2D6 11 −
    CN 4 = 7: red's 5-CF chest attack (round 3) is cancelled and 3 CF wait for his next area
    attacked."""
    state = duel()
    face_off(state)
    play(state, Dice(1))
    dice = RiggedDice(1, {CRT: [(5, 5, 5)], "§10.1": [(3, 3, 3, 6, 3)], "§10.5": [(6, 5)]})
    events = play(state, dice, red="A5:chest D8:legs", blue="A4:head A1:legs D8:chest")
    assert state.gladiators["red"].sheet.stun_in_effect == 7
    assert any(
        e["type"] == "attack_cancelled" and e["side"] == 0 and e["rule"] == "§9.4.6" for e in events
    )
    [waiting] = of_type(events, "defence_loss_waiting")
    assert waiting["amount"] == 3


# --- §12 shields, §13 items ----------------------------------------------------------------------


def test_s12_1_every_match_starts_with_a_new_shield() -> None:
    """§12.1 NOTE, §3.17: each gladiator's shield starts the match at full strength."""
    for seed in (1, 2, 3):
        for g in duel(seed=seed).gladiators.values():
            s = g.sheet
            assert s.shield_marked == 0 and not s.shield_useless
            assert s.shield_damage_points == max(b for b in s.shield_track if isinstance(b, int))


def test_s13_2_3_a_dropped_weapon_lies_where_it_fell() -> None:
    """§13.2.3, §10.5 WD, §13.2.1, §13.2.2: blue's arms hit on red (WHITE 9, BLACK 6 misses B4,
    RED 5: 5 + 6 + 1 = 12, WD) makes red drop his weapon: direction 1 (his front), distance
    3 − 1 = 2: a weapon marker two hexes ahead of him."""
    state = duel()
    face_off(state)
    red = state.gladiators["red"]
    play(state, Dice(1))
    dice = RiggedDice(
        1,
        {CRT: [(5, 5, 5)], "§10.1": [(3, 3, 3, 6, 5)], "§13.2.1": [1], "§13.2.2": [3]},
    )
    events = play(state, dice, red="D13:chest", blue="A4:arms D9:chest")
    assert not red.has_weapon
    ahead = neighbor(neighbor(red.hex, red.facing), red.facing)
    assert [(i.item, i.owner, i.hex) for i in state.items] == [("weapon", "red", ahead)]
    assert [e["rule"] for e in of_type(events, "item_lost")] == ["§13.2.3"]


# --- §14 kneeling, §15 stumble, §16 prone, §17 endurance -----------------------------------------


def test_s14_1_a_prone_gladiator_gets_up_only_by_kneeling() -> None:
    """§14.1, §16.4: a Prone gladiator's plots are KN and the four Rolls; KN leaves him
    Kneeling."""
    state = duel()
    red = state.gladiators["red"]
    red.posture = "prone"
    decision = RULES.pending(state)["red"]
    assert isinstance(decision, ChooseOne)
    assert set(decision.texts()) <= {"KN", "KN(L)", "KN(R)", "RO-FL", "RO-FR", "RO-BL", "RO-BR"}
    assert "KN" in decision.texts()
    play(state, Dice(1), red="KN")
    assert red.posture == "kneeling"


def _kneeling_fight(kneeler: str, red: str, blue: str) -> list[dict[str, Any]]:
    state = duel()
    face_off(state)
    state.gladiators[kneeler].posture = "kneeling"
    play(state, Dice(1))
    return play(state, RiggedDice(1, {CRT: [(1, 2, 3)]}), red=red, blue=blue)


def test_s14_2_attacks_on_a_kneeling_gladiators_legs_are_at_half_cf() -> None:
    """§14.2: red's 6-CF attack on kneeling blue's legs goes in with 3."""
    events = _kneeling_fight("blue", red="A6:legs D7:chest", blue="D13:chest")
    assert [e["rule"] for e in of_type(events, "half_cf")] == ["§14.2"]
    assert "3 CF against 0 defence" in crt_events(events)[(0, "legs")]["text"]


def test_s14_3_a_kneeling_gladiator_attacks_at_half_cf() -> None:
    """§14.3: kneeling red's 6-CF chest attack goes in with 3."""
    events = _kneeling_fight("red", red="A6:chest D7:legs", blue="D13:legs")
    assert [e["rule"] for e in of_type(events, "half_cf")] == ["§14.3"]
    assert "3 CF against 0 defence" in crt_events(events)[(0, "chest")]["text"]


def test_s15_1_who_tripped_must_write_a_stumble_next() -> None:
    """§15.1, §15.3: a gladiator who tripped has only the Stumble to write in his next phase."""
    state = duel()
    state.gladiators["red"].must_stumble = True
    decision = RULES.pending(state)["red"]
    assert isinstance(decision, ChooseOne)
    assert {t.split("(")[0] for t in decision.texts()} == {"S"}


@pytest.mark.parametrize(("faces", "prone"), [((1, 2), True), ((3, 2), True), ((3, 3), False)])
def test_s15_4_fall_prone_check_2d6_plus_ag_below_7(faces: tuple[int, int], prone: bool) -> None:
    """§15.4, §5.2.2.1: at the start of the movement in which he performs the Stumble, 2D6 + AG
    (1) below 7 lays him Prone: 3 + 1 and 5 + 1 fall, 6 + 1 = 7 keeps his feet."""
    state = duel()
    red = state.gladiators["red"]
    red.sheet = sheet(id=1, name="red")
    red.must_stumble = True
    events = play(state, RiggedDice(1, {"§15.4": [faces]}), red="S")
    assert (red.posture == "prone") is prone
    assert len(of_type(events, "fall_prone" if prone else "stumbling")) == 1


def test_s15_5_a_stumbling_gladiator_fights_with_2_cf_less() -> None:
    """§15.5: if he keeps his feet (6 + 6 + AG 1), he has −2 CF in that phase's combat."""
    state = duel()
    face_off(state)
    red = state.gladiators["red"]
    red.must_stumble = True
    play(state, RiggedDice(1, {"§15.4": [(6, 6)]}), red="S")
    assert state.step == "allocate"
    assert red.stumbling and red.available == red.sheet.current_cf - 2 == 11
    assert state.gladiators["blue"].pa >= 2  # §15.6: +2 against him


def test_s16_2_1_s16_3_he_stays_prone_that_phase_and_fights_prone() -> None:
    """§16.2.1, §16.3: fallen Prone at the start of the phase, he stays so through its combat:
    he may not attack, defends with half his CF, and blue gets +4."""
    state = duel()
    face_off(state)
    red = state.gladiators["red"]
    red.must_stumble = True
    play(state, RiggedDice(1, {"§15.4": [(1, 1)]}), red="S")
    assert red.posture == "prone"
    assert state.step == "allocate"
    assert not red.may_attack and red.available == red.sheet.current_cf // 2
    assert state.gladiators["blue"].pa == 4
    decision = RULES.pending(state)["red"]
    assert isinstance(decision, Distribute)
    assert all(s.maximum == 0 for s in decision.slots if s.name.startswith("A-"))


def test_s17_1_cf_lost_to_endurance_stays_lost() -> None:
    """§17.1, §17.2: R-17.2's −3 at the end of turn 2 is still off his CF after turn 3 (whose
    own check, 1D6 1 + turn 3 = 4 against 4, costs nothing)."""
    state = duel(seed=3)
    red = state.gladiators["red"]
    red.sheet = sheet(id=1, name="red", cn=3)
    dice, _events = pause(state, 3, {"§17.2": [1, 6, 5, 6, 1, 6], "§5.4.1": [1]})
    assert dice.spent() and state.turn == 4
    assert [p.endurance_cf_lost for p in red.sheet.plot] == [0, 3, 0]
    assert red.sheet.current_cf == red.sheet.cf - 3


def test_s10_3_3_cfs_from_positional_advantage_may_only_be_spent_on_attacks() -> None:
    """§10.3.3, §9.3.1 (issue #10): "CFs awarded for positional advantage must be used for
    attack". Red stands behind blue, so his CFs available include his PA: his defence may take at
    most what he has without it, and every CF of it may go to attacks."""
    state = duel()
    face_off(state)
    blue = state.gladiators["blue"]
    place(state, red=(neighbor_at(blue.hex, blue.facing, Relation.REAR), blue.facing))
    play(state, Dice(1))
    red = state.gladiators["red"]
    assert state.step == "allocate" and red.pa > 0
    without_pa = red.available - red.pa
    decision = RULES.pending(state)["red"]
    decision.validate(f"D-HEAD:{without_pa}")
    with pytest.raises(IllegalOrder, match="positional advantage"):
        decision.validate(f"D-HEAD:{without_pa + 1}")
    with pytest.raises(IllegalOrder, match="positional advantage"):
        decision.validate(f"A-HEAD:1 D-CHEST:{without_pa} D-LEGS:1")
    attacks = [min(8, red.available - 8 * i) for i in range(5) if red.available - 8 * i > 0]
    decision.validate(" ".join(f"A-{a}:{v}" for a, v in zip(AREAS, attacks, strict=False)))
    # Blue, turned to face him (§9.1.2), has no PA and may defend with all he has.
    RULES.pending(state)["blue"].validate(f"D-HEAD:{state.gladiators['blue'].available}")


def _rising_red(**options: Any) -> ColosseumState:
    """Red lies Prone (face down) toe to toe with blue, who faces him."""
    state = duel(**options)
    face_off(state)
    red = state.gladiators["red"]
    red.posture, red.prone_face = "prone", "down"
    return state


def test_s8_3_a_prone_man_getting_up_is_not_at_the_mercy_of_one_who_steps_in() -> None:
    """§8.3, §14.1, ruling M5 (issue #10): a Prone man who plotted KN is getting up; he is not
    "at the mercy" of an opponent who steps into his hex only because he is not rolling. The
    collision is an ordinary one (Impact Factors, he counts as Kneeling, T12), no Moment of
    Truth."""
    state = _rising_red()
    events = play(state, Dice(4), red="KN", blue="F")
    kinds = [e["type"] for e in events]
    assert "collision" in kinds and "impact_factor" in kinds
    assert "mercy" not in kinds and "moment_of_truth" not in kinds
    assert state.step != "over"
    red_impact = next(e for e in events if e["type"] == "impact_factor" and e["figure"] == "red")
    assert "kneeling" in red_impact["text"]


def test_s8_3_option_prone_kn_mercy_reads_the_text_to_the_letter() -> None:
    """§8.3 to the letter (option `prone_kn = "mercy"`): prone and not rolling is at mercy."""
    state = _rising_red(prone_kn="mercy")
    events = play(state, Dice(4), red="KN", blue="F")
    assert any(e["type"] == "mercy" for e in events)
    assert state.step == "over" and state.end_method in ("missus", "mercy")


def test_s7_7_every_legal_plot_is_offered_however_far_apart_they_stand() -> None:
    """§7.2, §7.7 (issue #10): the book sets no limit on how far from his opponent a plot may
    take a gladiator (the old house rule E9 is gone); §7.7's shift and the board's edge keep both
    on the board instead (movement.py, E9)."""
    state = duel()
    place(state, red=(Hex(2, 8), 3), blue=(Hex(17, 0), 0))
    red = state.gladiators["red"]
    offered = set(RULES.pending(state)["red"].texts())
    legal = {format_plot(p) for p in legal_plots(plot_status(state, red))}
    assert legal <= offered
    assert "C" in offered  # the charge straight away from him


def test_s7_7_a_long_random_match_on_the_smallest_board_never_leaves_it() -> None:
    """§7.7, E9: random-legal play on a 12×12 board (runs apart included) keeps both on it."""
    m = Match(RULES, {"board_width": 12, "board_height": 12, "max_turns": 6}, seed=3, nonce="")
    bot, rng = make_bot("random"), random.Random(3)
    board = board_of(m.state)
    while not m.finished:
        m.apply_step({s: bot.choose(RULES, m.state, s, d, rng) for s, d in m.pending().items()})
        assert all(g.hex in board for g in m.state.gladiators.values())
