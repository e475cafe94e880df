"""The centurion (§29, T26-T30, rulings C1-C11) and the Colosseum option `solitaire` (§29.3).

The charts' dice come from the bot's rng; `Script` answers them in order (and breaks every
random tie toward the first candidate), so each test fixes the Movement roll or the allocation
dice a rule reads and checks the order the chart gives."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from colosseum_helpers import RULES, duel, of_type, place, sheet
from gladiator.bots import BOTS, make_bot
from gladiator.bots.centurion_combat import allocation_order, defence_total, weakest_armour
from gladiator.bots.centurion_movement import foe_pa, plot_order, situation, turned
from gladiator.bots.centurion_nets import net_attack
from gladiator.bots.centurion_setup import (
    centurion_options,
    effective_fs,
    fighting_spirit,
    roll_fighting_spirit,
    roll_t26,
)
from gladiator.bots.colosseum_centurion import CenturionBot
from gladiator.cli.main import app
from gladiator.core.decisions import Option
from gladiator.core.dice import Dice
from gladiator.core.hexgrid import Hex, distance
from gladiator.core.match import Match
from gladiator.rules.colosseum.combat.allocation import allocation_choice
from gladiator.rules.colosseum.combat.orders import PlotChoice
from gladiator.rules.colosseum.plots.plot_decision import plot_decision
from gladiator.rules.colosseum.plots.plots import parse_plot
from gladiator.rules.colosseum.state import ColosseumState, GroundItem
from gladiator.sim.report import summarise
from gladiator.sim.runner import run_batch


class Script(random.Random):
    """A bot rng whose dice are scripted; every random tie goes to the first candidate."""

    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        assert self.faces, "a die the script did not expect"
        face = self.faces.pop(0)
        assert a <= face <= b, (face, a, b)
        return face

    def choice(self, seq: Sequence[Any]) -> Any:
        return seq[0]


def arena(
    red: tuple[Hex, int] = (Hex(8, 6), 0), blue: tuple[Hex, int] = (Hex(8, 4), 3)
) -> ColosseumState:
    """Blue is the centurion: two medium gladiators (the `sheet()` of colosseum_helpers, medium,
    move 5), turn 1 phase 1; by default blue two hexes north of red, facing him."""
    state = duel(1, gladiators=["medium", "medium"])
    place(state, red=red, blue=blue)
    for i, seat in enumerate(("red", "blue"), 1):
        state.gladiators[seat].sheet = sheet(id=i, name=seat)
    return state


def centurion_plot(state: ColosseumState, *faces: int, fs: int = 0) -> tuple[str, Option]:
    """Blue's plot by the charts with this Movement roll (and further dice); every die used."""
    decision = plot_decision(state, state.gladiators["blue"])
    rng = Script(*faces)
    text = plot_order(state, "blue", decision, fs, rng)
    assert not rng.faces, f"dice left over: {rng.faces}"
    return text, next(o for o in decision.board_options() if o.text == text)


# --- §29.2 making a centurion --------------------------------------------------------------------


@pytest.mark.parametrize(("die", "fs"), [(1, -1), (2, -1), (3, 0), (4, 0), (5, 1), (6, 1)])
def test_s29_2_fighting_spirit_is_1d3_minus_2(die: int, fs: int) -> None:
    assert roll_fighting_spirit(Script(die)) == fs


def test_s29_2_t26_is_rolled_as_d66() -> None:
    rolled = roll_t26(Script(4, 6, 5))  # RED 4, WHITE 6: row 46; FS die 5 -> +1
    assert rolled.d66 == 46
    assert (rolled.row.tr, rolled.row.st, rolled.row.ag, rolled.row.cn, rolled.row.w) == (
        13,
        1,
        0,
        2,
        9,
    )
    assert rolled.row.cf == 14 and rolled.fighting_spirit == 1


def test_s29_2_c2_fighting_spirit_is_fixed_for_the_match_and_varies_between_matches() -> None:
    m = Match(RULES, {"solitaire": ["blue"]}, seed=3, nonce="")
    first = fighting_spirit(m.state, "blue")
    bot = CenturionBot(strict=True)
    rng = random.Random(1)
    for _ in range(12):
        if m.finished:
            break
        pending = m.pending()
        m.apply_step({s: bot.choose(RULES, m.state, s, d, rng) for s, d in pending.items()})
        assert fighting_spirit(m.state, "blue") == first
        assert fighting_spirit(RULES.clone(m.state), "blue") == first
    spirits = {fighting_spirit(duel(seed), "blue") for seed in range(40)}
    assert spirits == {-1, 0, 1}


def test_s29_2_c1_centurion_options_make_him_a_solitaire_seat_of_his_opponents_class() -> None:
    opts = centurion_options({"gladiators": ["heavy", "random"]}, ("blue",))
    assert opts["solitaire"] == ["blue"] and opts["gladiators"] == ["heavy", "heavy"]
    kept = centurion_options({"gladiators": ["heavy", "light"]}, ("blue",))
    assert kept["gladiators"] == ["heavy", "light"]  # a class chosen for him stands
    rolled = centurion_options({}, ("red",))
    assert rolled["solitaire"] == ["red"] and rolled["gladiators"] == ["random", "random"]


def test_s29_6_1_effective_fs_by_class() -> None:
    assert [effective_fs(0, c) for c in ("light", "medium", "heavy")] == [0, 1, 2]
    assert effective_fs(-1, "heavy") == 1


# --- §29.3.1 Pause, Prone, Recover ---------------------------------------------------------------


def test_s29_3_1_1_pause_below_1() -> None:
    # Phase 1, move 5: 3 Pauses left (-3), phase -1, range 2 (-0), no PA: -4 in all.
    state = arena()
    assert centurion_plot(state, 2, 2)[0] == "X"  # 4 - 4 = 0 < 1: he Pauses
    assert centurion_plot(state, 2, 3)[0] != "X"  # 5 - 4 = 1: he moves (RMC 23)


def test_s29_3_1_1_pause_drms_range_and_phase() -> None:
    assert centurion_plot(arena(), 3, 3)[0] != "X"  # 6 - 4 = 2
    far = arena(blue=(Hex(8, 0), 3))  # range 6: -1 per 3 hexes, -2
    assert centurion_plot(far, 3, 3)[0] == "X"  # 6 - 6 = 0
    later = arena()
    later.phase, later.gladiators["blue"].moves_used = 2, 1  # phase 2, still 3 Pauses left
    assert centurion_plot(later, 2, 3)[0] == "X"  # 5 - 3 - 2 = 0
    assert centurion_plot(arena(), 2, 3)[0] != "X"  # phase 1: 5 - 3 - 1 = 1


def test_s29_3_1_1_a5_the_phase_number_is_subtracted_with_the_pauses() -> None:
    """T27a "–? # of Pauses remaining (+ current Phase #)": one minus over both counts (A5). The
    same 8 (RED 3, WHITE 5) with 3 Pauses owed: phase 1, 8 - 3 - 1 = 4, he moves (RMC 35, one
    hex back); phase 5, 8 - 3 - 5 = 0, he Pauses (read as + phase it would be 10: no Pause)."""
    assert centurion_plot(arena(), 3, 5)[0] != "X"
    late = arena()
    late.phase, late.gladiators["blue"].moves_used = 5, 4  # phases 1-4 moved: still 3 owed
    assert centurion_plot(late, 3, 5)[0] == "X"


def test_s29_3_1_1_c5_the_opponents_pa_keeps_him_moving() -> None:
    # Red adjacent behind him, facing him: T11 +6 from his rear. 2 - 4 + 6 = 4: no Pause.
    state = arena(red=(Hex(8, 3), 3))
    assert foe_pa(situation(state, "blue")) == 6
    assert centurion_plot(state, 1, 1)[0] != "X"
    # The same roll with red two hexes off (nobody in range, no PA): he Pauses.
    assert centurion_plot(arena(), 1, 1)[0] == "X"


def test_s29_3_1_1_q21_he_must_pause_once_his_rate_is_used() -> None:
    state = arena()
    state.phase, state.gladiators["blue"].moves_used = 6, 5  # move 5 spent
    assert centurion_plot(state, 6, 6)[0] == "X"


def test_s29_3_1_1_q21_no_pauses_left_no_check() -> None:
    state = arena()
    state.phase = 4  # phases 1-3 all paused: 8 - 5 - 3 = 0 Pauses left
    text, _ = centurion_plot(state, 1, 1)  # 2 - 4 would Pause; with none left, no check
    assert text != "X"


def test_s29_3_1_2_prone_rolls_away_below_10() -> None:
    state = arena()
    state.gladiators["blue"].posture = "prone"
    text, option = centurion_plot(state, 2, 3)  # 5 + range 2 = 7 < 10
    assert text in ("RO-BL", "RO-BR")
    assert option.hex is not None and distance(option.hex, Hex(8, 6)) == 3  # the farthest


def test_s29_3_1_2_prone_kneels_turning_one_side_toward_him() -> None:
    state = arena(blue=(Hex(8, 4), 0))  # facing away from red
    state.gladiators["blue"].posture = "prone"
    text, option = centurion_plot(state, 4, 4)  # 8 + 2 = 10: not below 10
    assert text == "KN(L)" and option.facing == 5


def test_s29_3_1_3_recover_when_missing_his_weapon_within_1_hex() -> None:
    state = arena()
    state.gladiators["blue"].has_weapon = False
    state.items.append(GroundItem("weapon", "blue", Hex(9, 4)))
    assert centurion_plot(state, 4, 3)[0] == "R"


# --- §29.3.2 the Random Movement Chart -----------------------------------------------------------


def test_s29_3_2_2_rmc_41_46_stays_and_51_56_steps_toward_him() -> None:
    state = arena()
    assert centurion_plot(state, 4, 3)[0] == "X"  # 43: the centre, already facing him
    text, option = centurion_plot(state, 5, 1)  # 51: one hex toward him
    assert text == "F" and option.hex == Hex(8, 5)


def test_s29_3_2_1_the_arrow_points_at_the_nearest_opponent_not_his_front() -> None:
    state = arena(blue=(Hex(8, 4), 1))  # facing NE; red is due south
    _, option = centurion_plot(state, 5, 1)  # 51: one hex toward red, whatever his facing
    assert option.hex == Hex(8, 5)


def test_s29_3_2_2_fs_is_added_to_the_red_die() -> None:
    _, option = centurion_plot(arena(), 4, 1, fs=1)  # 41 + FS 1 on RED: 51
    assert option.hex == Hex(8, 5)
    assert centurion_plot(arena(), 5, 1, fs=-1)[0] == "X"  # 51 - 10: 41, the centre


def test_s29_3_2_2_range_drm_per_3_hexes_on_the_red_die() -> None:
    state = arena(blue=(Hex(8, 0), 3))  # range 6: -2 on RED
    _, option = centurion_plot(state, 6, 3)  # 63 -> 43: the centre
    assert option.hex == Hex(8, 0)


def test_s29_3_2_2_stun_drm_per_3_stun_on_the_red_die() -> None:
    state = arena()
    blue = state.gladiators["blue"]
    blue.sheet, _ = blue.sheet.with_stun(6, turn=1, phase=1)  # 6 Stun: -2 on RED
    _, option = centurion_plot(state, 5, 1)  # 51 -> 31: one hex straight back
    assert option.hex == Hex(8, 3)


def test_s29_3_2_3_charge_on_66() -> None:
    assert centurion_plot(arena(), 6, 6)[0] == "C"  # facing along the arrow
    assert centurion_plot(arena(), 5, 6, fs=1)[0] == "C"  # 56 + 10 = 66


def test_s29_3_2_3_no_charge_unless_his_centre_front_is_along_the_arrow() -> None:
    state = arena(blue=(Hex(8, 4), 2))
    text, option = centurion_plot(state, 6, 6)  # 66: two hexes toward him instead
    assert text != "C" and option.hex == Hex(8, 6)


def test_s29_3_2_4_steps_toward_the_item_he_needs() -> None:
    state = arena()
    state.gladiators["blue"].has_weapon = False
    state.items.append(GroundItem("weapon", "blue", Hex(5, 4)))  # three hexes west
    _, option = centurion_plot(state, 4, 3)  # 43: the centre, shifted one hex toward it
    assert option.hex == Hex(7, 4)


def test_s29_3_2_5_kicks_an_unneeded_item_his_path_passes_below_10() -> None:
    state = arena()
    state.items.append(GroundItem("weapon", "red", Hex(9, 5)))
    text, option = centurion_plot(state, 5, 1)  # 51: F to 8,5, beside the item; 6 + 2 < 10
    kick = parse_plot(text).extra
    assert kick is not None and option.hex == Hex(9, 5) and "+KW-" in text
    assert centurion_plot(state, 5, 4)[0] == "F"  # 9 + 2 = 11: no kick


# --- §29.3.3 facing, §29.4 path ------------------------------------------------------------------


def test_s29_3_3_c4_turned() -> None:
    assert turned(0, 2, 2) == (2,)
    assert turned(0, 2, 1) == (1,)
    assert turned(0, 4, 1) == (5,)
    assert turned(0, 3, 2) == (2, 4)  # straight behind: either way
    assert turned(0, 3, 3) == (3,)
    assert turned(0, 5, 0) == (0,)


def test_s29_3_3_1_no_turn_facing_away_from_the_arrow_above_22() -> None:
    behind = arena(red=(Hex(8, 2), 3))  # red two hexes behind him
    assert centurion_plot(behind, 4, 1)[0] == "X"  # 41 > 22 and facing away: no turn
    oblique = arena(red=(Hex(8, 2), 3), blue=(Hex(8, 4), 2))
    text, option = centurion_plot(oblique, 4, 1)  # not directly away: the centre turns freely
    assert text == "X(2L)" and option.facing == 0


def test_s29_3_3_2_red_hex_turns_up_to_two() -> None:
    state = arena(blue=(Hex(8, 4), 1))  # red is two hex-sides to his right
    _, option = centurion_plot(state, 5, 1)  # 51: RED ring 1
    assert option.hex == Hex(8, 5) and option.facing == 3


def test_s29_3_3_3_grey_hex_turns_up_to_one() -> None:
    state = arena(blue=(Hex(8, 4), 1))
    _, option = centurion_plot(state, 6, 1)  # 61: GREY ring 2; toward red is 2 sides away
    assert option.hex == Hex(9, 5) and option.facing == 2


def test_s29_3_3_4_white_hex_turns_freely() -> None:
    state = arena(blue=(Hex(8, 4), 5))  # red is two hex-sides to his left
    text, option = centurion_plot(state, 4, 3)
    assert option.hex == Hex(8, 4) and option.facing == 3 and text == "X(2L)"
    # A GREY hex would allow one: the same facing, 61 instead (ring 2, 30° left of the arrow).
    assert centurion_plot(state, 6, 1)[1].facing == 4


def test_s29_4_forward_actions_preferred() -> None:
    # 24: ring 2 at 60° left of the arrow; "SBL SBL" gets there too, as far and as turned.
    state = arena(blue=(Hex(8, 4), 4))
    decision = plot_decision(state, state.gladiators["blue"])
    assert "SBL SBL" in decision.texts()
    text, option = centurion_plot(state, 2, 4)
    assert option.hex == Hex(10, 4) and text == "(L)SFL SFL(R)"


# --- §29.5 Retiarius actions (C8) --------------------------------------------------------------


def _with_rn(state: ColosseumState) -> PlotChoice:
    d = plot_decision(state, state.gladiators["blue"])
    here = state.gladiators["blue"]
    rn = Option("RN", "repel net (§20.4)", here.hex, (here.hex,), here.facing)
    return PlotChoice(prompt=d.prompt, secret=True, options=(*d.options, rn))


def test_s29_5_1_1_repel_net_below_10_only_when_offered() -> None:
    state = arena()
    assert plot_order(state, "blue", _with_rn(state), 0, Script(3, 3)) == "RN"  # 6 + 2 < 10
    assert plot_order(state, "blue", _with_rn(state), 0, Script(4, 4)) != "RN"  # 8 + 2
    assert "RN" not in plot_decision(state, state.gladiators["blue"]).texts()


@pytest.mark.parametrize(
    ("face", "attack"),
    [
        (1, ("LN", 1)),
        (2, ("LN", 2)),
        (3, ("LN", 3)),
        (4, ("SN", None)),
        (5, ("SN", None)),
        (6, ("TN", None)),
    ],
)
def test_s29_5_2_t29_net_attack_table(face: int, attack: tuple[str, int]) -> None:
    """§29.5.2, T29 (A18): "1-3 Net Lay ('1' = left, '2' = center, '3' = right)": the one 1D6
    picks the attack and a Lay's hex; no second die is thrown (Script refuses one)."""
    assert net_attack(Script(face)) == attack


# --- §29.6 combat --------------------------------------------------------------------------------


def ready(available: int = 13, *, may_attack: bool = True, pa: int = 0) -> ColosseumState:
    state = arena()
    blue = state.gladiators["blue"]
    blue.available, blue.may_attack, blue.pa = available, may_attack, pa
    return state


def allocate(state: ColosseumState, *faces: int, fs: int = 0) -> str:
    blue = state.gladiators["blue"]
    rng = Script(*faces)
    text = allocation_order(blue, allocation_choice(blue), fs, rng)
    assert not rng.faces, f"dice left over: {rng.faces}"
    return text


def test_s29_6_1_defence_dice_minus_effective_fs() -> None:
    # 13 CF: two dice (per 6 full CFs); medium, FS 0: effective FS 1 off each die.
    assert defence_total(13, 1, Script(4, 5)) == 7
    assert defence_total(11, 1, Script(6)) == 5  # 11 CF: one die
    assert defence_total(5, 1, Script()) == 0  # under 6 CF: no die, no defence


def test_s29_2_1_fighting_spirit_changes_his_movement_and_his_combat_choices() -> None:
    """§29.2.1: with the same dice, FS +1 steps him toward the opponent where FS 0 holds the
    centre (the RED die, §29.3.2.2), and FS -1 makes him defend with 4 CF more than FS +1 (two
    points a die, two dice for 12 CF, §29.6.1)."""
    assert centurion_plot(arena(), 4, 1, fs=0)[0] == "X"  # 41: the centre
    _, option = centurion_plot(arena(), 4, 1, fs=1)  # 51: one hex toward him
    assert option.hex == Hex(8, 5)
    bold, timid = (defence_total(12, effective_fs(fs, "medium"), Script(4, 4)) for fs in (1, -1))
    assert (bold, timid) == (4, 8)


def test_s29_6_1_a21_negative_defence_counts_as_0_and_never_above_available() -> None:
    assert defence_total(12, 3, Script(1, 2)) == 0  # heavy FS +1: (1-3) + (2-3) = -3
    assert defence_total(12, -1, Script(6, 6)) == 12  # light FS -1: 14, capped at 12


def test_s29_6_2_each_cf_placed_by_an_area_die() -> None:
    # Defence 7 (dice 4, 5), attack 6: areas 1 1 2 2 2 6 (a 6: the area with most attack CFs,
    # the chest), then defence areas 3 3 4 5 6 6 1 (a 6: the weakest armour, the bare groin).
    text = allocate(ready(), 4, 5, 1, 1, 2, 2, 2, 6, 3, 3, 4, 5, 6, 6, 1)
    assert text == "A2:head A4:chest D1:head D4:groin D1:arms D1:legs"


def test_s29_6_2_1_c9_a_first_attack_6_with_none_placed_is_drawn() -> None:
    # 5 CF: no defence die; every CF attacks: 6 (none placed: drawn, the first), 3, 6 (the
    # head, with the groin tied: drawn), 4, 4.
    assert allocate(ready(5), 6, 3, 6, 4, 4) == "A2:head A1:groin A2:arms"


def test_s29_6_2_2_c9_weakest_armour() -> None:
    g = ready().gladiators["blue"]
    assert weakest_armour(g) == ("groin",)  # head A5, chest B4, groin -, arms B4, legs A3
    g.crits = replace(g.crits, helmet_lost=True)
    assert weakest_armour(g) == ("head", "groin")


def test_s29_6_c10_eight_attack_cf_an_area_then_roll_again() -> None:
    # 9 CF, defence die 1 - 1 = 0: all nine attack; eight on the head (§9.3.2: no more), the
    # ninth rolls the head again and then the chest.
    assert allocate(ready(9), 1, *[1] * 8, 1, 2) == "A8:head A1:chest"


def test_s29_6_c10_he_may_not_attack_so_all_cf_defend() -> None:
    assert allocate(ready(4, may_attack=False), 1, 2, 6, 2) == "D1:head D2:chest D1:groin"


def test_s29_6_c10_cf_from_pa_go_to_attack() -> None:
    # 13 CF with PA 3: at most 10 to defence (§10.3.3); dice 6, 6 with effective FS 0 = 12.
    text = allocate(ready(13, pa=3), 6, 6, 1, 1, 1, *[5] * 10, fs=-1)
    assert text == "A3:head D10:legs"


# --- the solitaire option (§29.3) ----------------------------------------------------------------


def test_s29_3_solitaire_the_gladiator_plots_first_and_is_revealed() -> None:
    m = Match(RULES, {"solitaire": "blue"}, seed=5, nonce="")
    first = m.pending()
    assert list(first) == ["red"] and first["red"].secret
    assert "early_plots" not in m.view("blue") and "decision" not in m.view("blue")
    events = m.submit("red", "F")
    assert [e["plot"] for e in of_type(events, "plot_first")] == ["F"]
    second = m.pending()
    assert list(second) == ["blue"] and not second["blue"].secret
    assert m.view("blue")["early_plots"] == {"red": "F"}
    assert situation(m.state, "blue").foe_hex == parse_plot_end(m.state, "red", "F")
    before = m.state.gladiators["red"].hex
    events = m.submit("blue", "X")
    assert [e["seat"] for e in of_type(events, "plot")] == ["red", "blue"]
    assert m.state.gladiators["red"].hex != before and not m.state.early_plots
    assert list(m.pending()) in (["red"], ["red", "blue"])  # next phase, or combat


def parse_plot_end(state: ColosseumState, seat: str, text: str) -> Hex:
    from gladiator.rules.colosseum.plots.plots import path

    g = state.gladiators[seat]
    return path(parse_plot(text), g.hex, g.facing)[-1].hex


def test_s29_3_solitaire_resolves_movement_as_a_simultaneous_phase_would() -> None:
    """The same plots in two stages move, roll and tell the same as in one."""
    plots = [("F F", "F"), ("SFL", "B"), ("X", "F")]
    results = []
    for solo in ([], ["blue"]):
        state, _ = RULES.initial_state(RULES.normalise_options({"solitaire": solo}), Dice(7))
        dice = Dice(70)
        told: list[str] = []
        for red, blue in plots:
            if state.step != "plot":
                break
            if solo:
                told += [e["text"] for e in RULES.apply(state, {"red": red}, dice)]
                told = [t for t in told if "gladiators move before centurions" not in t]
                told += [e["text"] for e in RULES.apply(state, {"blue": blue}, dice)]
            else:
                told += [e["text"] for e in RULES.apply(state, {"red": red, "blue": blue}, dice)]
        poses = {s: (g.hex, g.facing) for s, g in state.gladiators.items()}
        results.append((poses, [r.to_dict() for r in dice.log], told))
    assert results[0] == results[1]


def test_s29_3_solitaire_both_seats_or_none_plot_at_once() -> None:
    for solo in ([], ["red", "blue"]):
        m = Match(RULES, {"solitaire": solo}, seed=5, nonce="")
        assert list(m.pending()) == ["red", "blue"]
        assert all(d.secret for d in m.pending().values())


def test_s29_3_solitaire_off_leaves_the_state_as_it_was() -> None:
    m = Match(RULES, {}, seed=5, nonce="")
    m.apply_step({"red": "F", "blue": "F"})
    assert "early_plots" not in RULES.state_to_dict(m.state)
    assert RULES.normalise_options({})["solitaire"] == []


@pytest.mark.parametrize(
    ("given_", "want"), [("blue", ["blue"]), ("blue,red", ["red", "blue"]), (["red"], ["red"])]
)
def test_solitaire_option_reads_a_seat_list_or_text(given_: Any, want: list[str]) -> None:
    assert RULES.normalise_options({"solitaire": given_})["solitaire"] == want


@pytest.mark.parametrize("bad", ["green", ["red", "red"], 3])
def test_solitaire_option_refuses_bad_seats_in_one_line(bad: Any) -> None:
    with pytest.raises(ValueError, match="solitaire"):
        RULES.normalise_options({"solitaire": bad})


# --- the bot in whole matches --------------------------------------------------------------------


def _match(seed: int, other: str, solo: list[str], *, centurion_seat: str = "blue") -> Match:
    m = Match(RULES, {"solitaire": solo, "max_turns": 6}, seed=seed, nonce="")
    bots = {s: make_bot(other) for s in m.seats}
    bots[centurion_seat] = CenturionBot(strict=True)
    rng = random.Random(seed)
    while not m.finished:
        pending = m.pending()
        m.apply_step({s: bots[s].choose(RULES, m.state, s, d, rng) for s, d in pending.items()})
    return m


@settings(max_examples=8, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    other=st.sampled_from(["random", "tactician"]),
    solo=st.sampled_from([[], ["blue"]]),
)
def test_centurion_matches_end_and_replay_exactly(seed: int, other: str, solo: list[str]) -> None:
    m = _match(seed, other, solo)
    assert m.outcome is not None
    again = Match.replay(m.record(), RULES)
    assert again.outcome == m.outcome
    if solo:  # §29.3: every plot step asked red alone first
        plots = [s for s in m.steps if set(s) <= {"red", "blue"} and len(s) == 1]
        assert plots and plots[0].keys() == {"red"}


def test_centurion_as_red_and_centurion_against_centurion() -> None:
    """§29.1: the charts run a non-player gladiator in either seat, and both seats of a match of
    two centurions, to the end (strict: a chart that yields no legal order raises)."""
    assert _match(2, "random", ["red"], centurion_seat="red").outcome is not None
    assert _match(4, "centurion", ["red", "blue"]).outcome is not None


def test_centurion_is_a_registered_bot_and_plays_other_rulesets_at_random() -> None:
    assert "centurion" in BOTS and make_bot("centurion").name == "centurion"
    from gladiator.registry import get

    quick = get("quick")
    m = Match(quick, {}, seed=1, nonce="")
    seat, decision = next(iter(m.pending().items()))
    order = CenturionBot().choose(quick, m.state, seat, decision, random.Random(0))
    assert decision.validate(order) == order


def test_sim_reports_win_rates_by_bot() -> None:
    results = run_batch(
        "colosseum", {"solitaire": ["blue"], "max_turns": 4}, 6, 1, ["tactician", "centurion"]
    )
    by_bot = {r["bot"]: r for r in summarise(results, ["tactician", "centurion"])["by_bot"]}
    assert by_bot["tactician"]["appearances"] == by_bot["centurion"]["appearances"] == 6
    wins = sum(r["wins"] for r in by_bot.values())
    assert wins == sum(1 for r in results if r.winners)
    assert "by_bot" not in summarise(results, ["centurion"])


def test_cli_play_vs_centurion_is_a_solitaire_match(tmp_path: Path) -> None:
    save = tmp_path / "m.json"
    result = CliRunner().invoke(
        app,
        ["play", "colosseum", "--vs", "centurion", "--seed", "3", "--save", str(save)],
        input="X\nq\n",
    )
    assert result.exit_code == 0, result.stderr
    record = json.loads(save.read_text())
    assert record["options"]["solitaire"] == ["blue"]
    assert record["steps"][:1] == [{"red": "X"}] and list(record["steps"][1]) == ["blue"]
