"""Colosseum Basic Game: items thrown and kicked (§13.3, §13.5), the two-item limit (§13.4), the
KN counter (§14.1.1), stepping back onto an item (§15.1), face up / face down (§16.2), the appeal
phase (§18.4), reaction time (§7.5) and the ghost of each plot (end hex, path, facing).

Every case is a hand-built position played through `ColosseumRules.apply` with scripted dice:
each throw must be the one the script expects (rule and faces), and the script must be used up.
"""

from __future__ import annotations

from typing import Any

import pytest

from colosseum_helpers import Faces, ScriptedDice
from gladiator.core.decisions import ChooseOne, IllegalOrder
from gladiator.core.dice import Dice
from gladiator.core.hexgrid import Hex, line, neighbor_at
from gladiator.core.match import Match
from gladiator.rules.colosseum.combat.orders import PlotChoice
from gladiator.rules.colosseum.engine import ColosseumRules
from gladiator.rules.colosseum.plots.plots import parse_plot, path
from gladiator.rules.colosseum.state import ColosseumState, GroundItem

RULES = ColosseumRules()


def duel(
    red: tuple[Hex, int], blue: tuple[Hex, int], **options: Any
) -> tuple[ColosseumState, Any, Any]:
    """Two medium gladiators (log sheets of seed 1) placed by hand, at turn 1, phase 1."""
    state, _ = RULES.initial_state(RULES.normalise_options(options), Dice(1))
    r, b = state.gladiators["red"], state.gladiators["blue"]
    r.hex, r.facing = red
    b.hex, b.facing = blue
    return state, r, b


def play(state: ColosseumState, orders: dict[str, str], *script: tuple[str, Faces]) -> list[Any]:
    """Check each order against the pending decision, apply them, and use up the script."""
    pending = RULES.pending(state)
    canonical = {seat: pending[seat].validate(order) for seat, order in orders.items()}
    dice = ScriptedDice(*script)
    events = RULES.apply(state, canonical, dice)  # type: ignore[arg-type]
    assert not dice.script, f"dice left unthrown: {dice.script}"
    return events


def texts(state: ColosseumState, seat: str) -> list[str]:
    decision = RULES.pending(state)[seat]
    assert isinstance(decision, ChooseOne)
    return decision.texts()


def of(events: list[Any], kind: str) -> list[Any]:
    return [e for e in events if e.get("type") == kind]


# --- §13.3 throwing -------------------------------------------------------------------------------


def test_section_13_3_a_thrown_sword_hits_and_is_read_on_crt_column_3() -> None:
    """§13.3, §13.3.1, NOTE-13.3, Q10: 1D6 1 + Thr 3 = 4 > range 3 hits; area 1D6 2 is the
    chest; the sword's CRT value 3 is column 3, where 3D6 4 is "–". The sword lies in the target's
    hex, the thrower has lost it (no attack without it, E4), and the throw, written with a free
    Pause, costs no movement phase (I1)."""
    state, red, _ = duel((Hex(9, 5), 0), (Hex(9, 2), 0))
    events = play(
        state,
        {"red": "x+tw-chest", "blue": "X"},
        ("§13.3", 1),
        ("§13.3.1.1", 2),
        ("§13.3.1.1", (1, 1, 2)),
    )
    (throw,) = of(events, "throw")
    assert throw["hit"] is True and "1D6 1 + Thr 3 = 4" in throw["text"]
    (crt,) = of(events, "crt")
    assert (crt["column"], crt["total"], crt["result"]) == (3, 4, "-")
    assert of(events, "throw_area")[0]["area"] == "chest"
    assert state.items == [GroundItem("weapon", "red", Hex(9, 2))]
    assert not red.has_weapon and red.has_shield and red.moves_used == 0
    assert red.last_plot == "X +TW-CHEST"
    assert (state.step, state.phase) == ("plot", 2)  # nobody may attack: no allocation


def test_section_13_3_2_a_miss_lands_at_the_unmodified_distance_on_the_line() -> None:
    """§13.3.2: 1D6 1 + 3 = 4 is not more than the range 4: it misses and lands 1 hex from the
    thrower on the line to the target."""
    state, red, _ = duel((Hex(9, 5), 0), (Hex(9, 1), 0))
    events = play(state, {"red": "X +TW-HEAD", "blue": "X"}, ("§13.3", 1))
    assert of(events, "throw")[0]["hit"] is False
    assert state.items == [GroundItem("weapon", "red", Hex(9, 4))]
    assert not red.has_weapon


def test_q10_option_throw_thr_text_subtracts_thr_and_the_miss_flies_on_past_him() -> None:
    """Q10 option `throw_thr = "text"`: 1D6 5 − 3 = 2 is not more than the range 2: a miss,
    landing 5 hexes along the line, past the target (§13.3.2)."""
    state, _, _ = duel((Hex(9, 5), 0), (Hex(9, 3), 0), throw_thr="text")
    events = play(state, {"red": "X +TW-HEAD", "blue": "X"}, ("§13.3", 5))
    assert "1D6 5 − Thr 3 = 2" in of(events, "throw")[0]["text"]
    assert state.items == [GroundItem("weapon", "red", line(Hex(9, 5), Hex(9, 0))[5])]
    assert state.items[0].hex == Hex(9, 0)


def test_note_13_3_a_thrown_shield_is_column_1_with_minus_1_and_a_p_calls_a_drop_roll() -> None:
    """NOTE-13.3, §9.5.3: a shield's CRT value 0 reads column 1 with −1 (3D6 12 → 11: P); the
    P makes the target roll for his weapon (§13.1.1: 18 − 0 − ST 1 keeps it). He is adjacent and
    in front, so the combat step follows; the thrower has his sword but no shield."""
    state, red, blue = duel((Hex(9, 5), 0), (Hex(9, 4), 0))
    events = play(
        state,
        {"red": "X +TS-HEAD", "blue": "X"},
        ("§13.3", 2),
        ("§13.3.1.1", 1),
        ("§13.3.1.1", (4, 4, 4)),
        ("§13.1.1", (6, 6, 6)),
    )
    (crt,) = of(events, "crt")
    assert (crt["column"], crt["roll"], crt["total"], crt["result"]) == (1, 12, 11, "P")
    assert "he keeps it" in of(events, "drop_roll")[0]["text"] and blue.has_weapon
    assert red.has_weapon and not red.has_shield
    assert state.items == [GroundItem("shield", "red", Hex(9, 4))]
    assert state.step == "allocate"


def test_section_13_3_1_1_a_6_is_the_area_written_and_kneeling_halves_twice() -> None:
    """§13.3.1.1: an area roll of 6 strikes the area written with the throw (legs); §14.3 halves
    a kneeling thrower's value and §14.2 a kneeling target's legs: 3 → 1 → 0, so column 1 with −1,
    where 3D6 4 − 1 = 3 is F, no more than a miss for a throw (I4)."""
    state, red, blue = duel((Hex(9, 5), 0), (Hex(9, 3), 0))
    red.posture = blue.posture = "kneeling"
    events = play(
        state,
        {"red": "X +TW-LEGS", "blue": "X"},
        ("§13.3", 1),
        ("§13.3.1.1", 6),
        ("§13.3.1.1", (1, 1, 2)),
    )
    (area,) = of(events, "throw_area")
    assert area["area"] == "legs" and "his choice" in area["text"]
    assert "§14.3" in area["text"] and "§14.2" in area["text"]
    (crt,) = of(events, "crt")
    assert (crt["column"], crt["total"], crt["result"]) == (1, 3, "F")
    assert sum(blue.sheet.wounds) == 0 and blue.alive


def test_section_15_3_a_man_tripped_in_this_phase_still_throws() -> None:
    """§15.3 "a Stumble result has no effect on the current phase": blue runs into red (§8.1),
    wins the impact, and red trips (1D6 1 − 1 Stun < 1); red's throw, written with his Pause,
    still flies, from the hex he was pushed to (I5)."""
    state, red, blue = duel((Hex(9, 5), 0), (Hex(9, 3), 3))
    events = play(
        state,
        {"red": "X +TW-HEAD", "blue": "F F"},
        ("§8.4", 1),
        ("§8.4", 6),
        ("§8.4.3", (1, 1)),
        ("§15.2.1", 1),
        ("§13.3", 1),
        ("§13.3.1.1", 1),
        ("§13.3.1.1", (1, 1, 2)),
    )
    assert red.must_stumble and red.hex == Hex(9, 6)
    (throw,) = of(events, "throw")
    assert throw["hit"] is True and "1 hex(es) away" in throw["text"]
    assert state.items == [GroundItem("weapon", "red", blue.hex)] and not red.has_weapon


def test_section_13_3_throws_are_offered_with_a_pause_to_a_man_who_may_throw() -> None:
    """I1, I2: ten throws (weapon or shield × the area for a 6), each written with X; none for a
    Prone man (§16.3), nor for one who must Stumble (§15.3), nor for an item he no longer has."""
    state, red, _ = duel((Hex(9, 5), 0), (Hex(9, 2), 0))
    throws = [t for t in texts(state, "red") if "+T" in t]
    assert len(throws) == 10 and all(t.startswith("X +T") for t in throws)
    red.has_shield = False
    assert [t for t in texts(state, "red") if "+T" in t] == [
        "X +TW-HEAD",
        "X +TW-CHEST",
        "X +TW-GROIN",
        "X +TW-ARMS",
        "X +TW-LEGS",
    ]
    red.posture = "prone"
    assert not [t for t in texts(state, "red") if "+" in t]
    red.posture, red.must_stumble = "standing", True
    assert not [t for t in texts(state, "red") if "+" in t]
    with pytest.raises(IllegalOrder, match="not one of the choices"):
        RULES.pending(state)["red"].validate("X +TW-HEAD")


def test_section_7_2_throw_and_kick_notation_is_checked_with_one_line_messages() -> None:
    """The plot notation with a throw or a kick: any spelling reads, a bad one is refused."""
    state, _, _ = duel((Hex(9, 5), 0), (Hex(9, 2), 0))
    decision = RULES.pending(state)["red"]
    assert decision.validate("x + tw chest") == "X +TW-CHEST"
    for bad in ("X +TQ-HEAD", "X +TW-NOSE", "X +TW-HEAD +KW-F"):
        with pytest.raises(IllegalOrder) as err:
            decision.validate(bad)
        assert "\n" not in str(err.value)
    assert str(parse_plot("F(R) +ks-bl")) == "F(R) +KS-BL"


# --- §13.5 kicking, §13.4 the two-item limit ------------------------------------------------------


def test_section_13_5_1_a_kick_from_where_he_stands_flies_the_roll_in_hexes() -> None:
    """§13.5.1: standing on the item (0 hexes moved), 1D6 3 − 0 > 0: it flies 3 hexes to his
    front (Q17: he chose F)."""
    state, _, blue = duel((Hex(9, 5), 0), (Hex(9, 1), 0))
    blue.has_weapon = False
    state.items.append(GroundItem("weapon", "blue", Hex(9, 5)))
    events = play(state, {"red": "X +KW-F", "blue": "X"}, ("§13.5.1", 3))
    assert of(events, "kick")[0]["kicked"] is True
    assert state.items == [GroundItem("weapon", "blue", Hex(9, 2))]


def test_section_13_5_1_each_hex_moved_costs_1_and_0_is_a_failed_kick() -> None:
    """§13.5.1: he stepped F onto it (1 hex moved), 1D6 1 − 1 = 0: the kick fails, the item
    stays; then 1D6 2 − 1 > 0 sends it 2 hexes through his right-front side."""
    state, red, blue = duel((Hex(9, 5), 0), (Hex(9, 1), 0))
    blue.has_weapon = False
    state.items.append(GroundItem("weapon", "blue", Hex(9, 4)))
    events = play(state, {"red": "F +KW-B", "blue": "X"}, ("§13.5.1", 1))
    assert of(events, "kick")[0]["kicked"] is False and red.hex == Hex(9, 4)
    assert state.items == [GroundItem("weapon", "blue", Hex(9, 4))]
    events = play(state, {"red": "X +KW-FR", "blue": "X"}, ("§13.5.1", 2))
    two = neighbor_at(neighbor_at(Hex(9, 4), 0, 1), 0, 1)
    assert state.items == [GroundItem("weapon", "blue", two)]


def test_section_5_2_4_2_kicks_come_after_the_attempts_to_recover() -> None:
    """§5.2.4.1, §5.2.4.2: blue, next to his sword, tries to pick it up first (1D6 6 + DRMs: he
    fumbles); then red, standing on it, kicks it 2 hexes through his left-rear side."""
    state, red, blue = duel((Hex(9, 5), 0), (Hex(9, 4), 3))
    blue.has_weapon = False
    state.items.append(GroundItem("weapon", "blue", Hex(9, 5)))
    events = play(state, {"red": "X +KW-BL", "blue": "X"}, ("§13.4.1", 6), ("§13.5.1", 2))
    kinds = [e["type"] for e in events if e.get("type") in ("recovery", "kick")]
    assert kinds == ["recovery", "kick"]
    two = neighbor_at(neighbor_at(Hex(9, 5), 0, 4), 0, 4)
    assert state.items == [GroundItem("weapon", "blue", two)] and not blue.has_weapon
    assert state.step == "allocate" and red.may_attack and not blue.may_attack


def test_section_13_5_kicks_are_offered_only_where_he_ends_on_an_item_not_stepping_back() -> None:
    """§13.5, I6: a kick goes with a plot that ends on the item (six directions each) and never
    with a backward step; with nothing on the floor there are none."""
    state, red, blue = duel((Hex(9, 5), 0), (Hex(9, 1), 0))
    assert not [t for t in texts(state, "red") if "+K" in t]
    blue.has_weapon = False
    state.items.append(GroundItem("weapon", "blue", Hex(9, 4)))
    decision = RULES.pending(state)["red"]
    assert isinstance(decision, PlotChoice)
    kicks = [o for o in decision.board_options() if "+K" in o.text]
    assert {o.text for o in kicks if o.text.startswith("F +")} == {
        f"F +KW-{d}" for d in ("F", "FR", "BR", "B", "BL", "FL")
    }
    for o in kicks:
        plot = parse_plot(o.text)
        assert o.hex == Hex(9, 4) == path(plot, red.hex, red.facing)[-1].hex
        assert not {"B", "SBL", "SBR", "S"} & set(plot.actions)


def test_section_13_4_the_two_item_limit_he_never_picks_up_a_second_weapon() -> None:
    """§13.4: nobody holds more than two items; with his sword and shield in hand he is not
    offered R for the opponent's sword at his feet and does not try for it after movement."""
    state, red, blue = duel((Hex(9, 5), 0), (Hex(9, 1), 0))
    blue.has_weapon = False
    state.items.append(GroundItem("weapon", "blue", Hex(9, 5)))
    assert "R" not in texts(state, "red") and "X" in texts(state, "red")
    events = play(state, {"red": "X", "blue": "X"})
    assert not of(events, "recovery") and red.has_weapon and len(state.items) == 1


# --- §15.1, §16.2, §14.1.1 ----------------------------------------------------------------------


def test_section_15_1_back_onto_an_item_trip_fall_face_up_and_kneel_on_the_legs_hex() -> None:
    """§15.1: stepping B into the hex of a sword: 1D6 1 − 1 backward − 0 Stun < 1, he trips.
    §15.3, §15.4: next phase he must Stumble; 2D6 2 + AG −1 < 7, he falls Prone, and §16.2 face
    up (his last step went backward). §14.1.1: KN with 1D6 5 puts the KN counter in his legs hex,
    which for a man lying face up is his front hex (E8)."""
    state, red, blue = duel((Hex(9, 5), 0), (Hex(9, 1), 0))
    blue.has_weapon = False
    state.items.append(GroundItem("weapon", "blue", Hex(9, 6)))
    events = play(state, {"red": "B", "blue": "X"}, ("§15.2.1", 1))
    (check,) = of(events, "stumble_check")
    assert check["rule"] == "§15.1" and check["stumbled"] is True
    assert red.must_stumble and red.hex == Hex(9, 6) and red.last_move == "backward"
    assert set(texts(state, "red")) <= {"S", "S(L)", "S(R)"}
    play(state, {"red": "S", "blue": "X"}, ("§15.4", (1, 1)))
    assert (red.posture, red.prone_face) == ("prone", "up")
    events = play(state, {"red": "KN", "blue": "X"}, ("§14.1.1", 5))
    assert (red.posture, red.prone_face, red.hex, red.facing) == ("kneeling", None, Hex(9, 5), 0)
    assert "legs hex" in of(events, "posture")[0]["text"]


@pytest.mark.parametrize(
    ("roll", "blue_at", "kneels_at"),
    [
        (4, Hex(9, 1), Hex(9, 5)),  # 1-4: his torso hex
        (6, Hex(9, 1), Hex(9, 6)),  # 5-6, face down: his legs lie behind him
        (6, Hex(9, 6), Hex(9, 5)),  # his legs hex is taken: the torso hex (Q24)
    ],
)
def test_section_14_1_1_the_kn_counter_goes_to_torso_or_legs(
    roll: int, blue_at: Hex, kneels_at: Hex
) -> None:
    """§14.1.1, §16.2, Q24 (E8): 1D6 1-4 torso (his hex), 5-6 legs (rear hex when face down),
    the torso hex when the legs hex is held by the opponent."""
    state, red, _ = duel((Hex(9, 5), 0), (blue_at, 3))
    red.posture, red.prone_face = "prone", "down"
    play(state, {"red": "KN", "blue": "X"}, ("§14.1.1", roll))
    assert (red.posture, red.hex, red.facing) == ("kneeling", kneels_at, 0)


def test_section_16_2_a_man_who_last_stepped_forward_falls_face_down() -> None:
    """§16.2 (E10): tripped last phase after stepping forward, he falls face down."""
    state, red, _ = duel((Hex(9, 5), 0), (Hex(9, 1), 0))
    play(state, {"red": "F", "blue": "X"})
    red.must_stumble = True
    play(state, {"red": "S", "blue": "X"}, ("§15.4", (1, 2)))
    assert (red.posture, red.prone_face, red.last_move) == ("prone", "down", "forward")


# --- §18.4 the appeal phase ----------------------------------------------------------------------


def test_section_18_4_after_a_mercy_collision_the_appeal_takes_the_rest_of_the_phase() -> None:
    """§8.3, §18.4 (E12): blue walks into the Prone red; the appeal takes the rest of the phase:
    no recovery, kick, throw or combat follows, and the match ends in that phase. Blue's shield
    lies beside him, so a recovery try would throw a die the script does not hold. (Red writes
    KN, so §8.3 is read to the letter, option `prone_kn = "mercy"`, M5.)"""
    state, red, blue = duel((Hex(9, 4), 0), (Hex(9, 2), 3), prone_kn="mercy")
    red.posture = "prone"
    blue.has_shield = False
    state.items.append(GroundItem("shield", "blue", Hex(9, 3)))
    events = play(state, {"red": "KN", "blue": "F F"}, ("§18.3", (6, 6)))
    (appeal_phase,) = of(events, "appeal_phase")
    assert appeal_phase["rule"] == "§18.4"
    assert "the rest of this phase (turn 1, phase 1)" in appeal_phase["text"]
    assert "blue may neither attack nor be attacked" in appeal_phase["text"]
    after = events[events.index(appeal_phase) :]
    assert not [e for e in after if e.get("type") in ("recovery", "kick", "throw", "available")]
    assert red.posture == "prone"  # he never got to his knees
    assert RULES.pending(state) == {} and (state.turn, state.phase) == (1, 1)
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.winners == ("blue",)


def test_section_18_4_a_helpless_man_at_the_start_of_a_phase_appeals_in_that_whole_phase() -> None:
    """§18.2, §18.4 (E5, E12): red lies Prone with no movement phase left in blue's front; the
    next phase starts with the appeal, which takes that whole phase: nobody plots."""
    state, red, blue = duel((Hex(9, 4), 0), (Hex(9, 3), 3))
    red.posture, red.moves_used = "prone", 9
    assert texts(state, "red") == ["-"]
    play(state, {"red": "-", "blue": "X"})
    assert state.step == "allocate" and blue.may_attack and not red.may_attack
    events = play(state, {"red": "-", "blue": "-"}, ("§18.3", (1, 1)))
    (appeal_phase,) = of(events, "appeal_phase")
    assert "this whole phase (turn 1, phase 2)" in appeal_phase["text"]
    assert RULES.pending(state) == {}
    outcome = RULES.outcome(state)
    assert outcome is not None and (outcome.winners, outcome.method) == (("blue",), "mercy")


# --- §7.5 reaction time --------------------------------------------------------------------------


def test_section_7_5_reaction_time_times_the_plot_and_a_timeout_freezes_him() -> None:
    """§7.5 (E13): off by default; with `reaction_time = 10` each plot decision has a 10-second
    limit and the time-out order neither moves nor turns him: X, a forced S, KN when Prone. The
    allocation is not timed."""
    state, red, _ = duel((Hex(9, 5), 0), (Hex(9, 4), 3))
    assert RULES.pending(state)["red"].time_limit is None
    assert RULES.normalise_options({})["reaction_time"] == 0
    with pytest.raises(ValueError, match="reaction_time"):
        RULES.normalise_options({"reaction_time": -1})
    state.options["reaction_time"] = 10
    decision = RULES.pending(state)["red"]
    assert (decision.time_limit, decision.on_timeout) == (10.0, "X")
    assert decision.to_dict()["time_limit"] == 10.0
    red.must_stumble = True
    assert RULES.pending(state)["red"].on_timeout == "S"
    red.must_stumble, red.posture = False, "prone"
    assert RULES.pending(state)["red"].on_timeout == "KN"
    red.posture = "standing"
    play(state, {"red": "X", "blue": "X"})
    assert state.step == "allocate" and RULES.pending(state)["red"].time_limit is None


def test_section_7_5_a_match_with_reaction_time_accepts_the_timeout_order() -> None:
    """§7.5: the time-out order is one of the legal orders, so a front end may submit it."""
    m = Match(RULES, {"reaction_time": 10}, seed=3, nonce="")
    for seat, decision in m.pending().items():
        assert decision.on_timeout is not None
        m.submit(seat, decision.on_timeout)
    assert m.state.gladiators["red"].last_plot == "X"


# --- ghost previews ------------------------------------------------------------------------------


def test_every_plot_option_carries_its_ghost_end_hex_path_and_facing() -> None:
    """Each option gives the hex it ends in, the hexes it passes through (his own first) and the
    final facing, as `plots.path` moves him (§7.2.2, §7.3, §7.4)."""
    state, red, _ = duel((Hex(9, 5), 0), (Hex(9, 0), 3))
    decision = RULES.pending(state)["red"]
    assert isinstance(decision, PlotChoice) and decision.origin == red.hex
    options = {o.text: o for o in decision.board_options()}
    ff = options["F F(R)"]
    assert (ff.hex, ff.path, ff.facing) == (Hex(9, 3), (Hex(9, 5), Hex(9, 4), Hex(9, 3)), 1)
    c = options["C"]
    assert c.path == (Hex(9, 5), Hex(9, 4), Hex(9, 3), Hex(9, 2)) and c.facing == 0
    x = options["X(3R)"]
    assert (x.hex, x.path, x.facing) == (Hex(9, 5), (Hex(9, 5),), 3)
    throw = options["X +TW-HEAD"]
    assert (throw.hex, throw.path, throw.facing) == (Hex(9, 5), (Hex(9, 5),), 0)
    for text, o in options.items():
        poses = path(parse_plot(text), red.hex, red.facing)
        assert (o.hex, o.facing) == (poses[-1].hex, poses[-1].facing)
        assert o.path[0] == red.hex and set(o.path) == {p.hex for p in poses}
    assert ff.to_dict()["path"] == [[9, 5], [9, 4], [9, 3]]
    # In his own frame the same option is an offset from his hex; front ends get the board.
    own = {o.text: o for o in decision.options}["F F(R)"]
    assert (own.hex, own.path) == (Hex(0, -2), (Hex(0, 0), Hex(0, -1), Hex(0, -2)))
    sent = next(o for o in decision.to_dict()["options"] if o["text"] == "F F(R)")
    assert (sent["hex"], sent["path"]) == ([9, 3], [[9, 5], [9, 4], [9, 3]])


# --- the review's corrections: T14 "is Stumbling", T12 "attempted to Recover", Q26 ----------------


def test_section_13_4_1_t14_is_stumbling_means_performing_his_stumble_this_phase() -> None:
    """T14 "+4 is Stumbling", §15.3: the man performing his Stumble (he tripped last phase)
    takes +4 to pick up his sword in his hex: light −1, Stumbling +4, AG −1 → +1: 1 +4 = 5."""
    state, red, _ = duel((Hex(9, 5), 0), (Hex(9, 1), 0), gladiators=["light", "light"])
    red.sheet = red.sheet.model_copy(update={"ag": -1})
    red.has_weapon = False
    red.must_stumble = True
    state.items.append(GroundItem("weapon", "red", Hex(9, 5)))
    events = play(state, {"red": "S", "blue": "X"}, ("§15.4", (6, 6)), ("§13.4.1", 1))
    (tried,) = of(events, "recovery")
    assert "1 +4 = 5: fumbled" in tried["text"]


def test_section_8_4_t12_an_attempted_recovery_costs_3_impact() -> None:
    """T12 "−3 attempted to Recover an item": red, plotting R for his sword, is run into by
    blue; his impact factor lists the −3."""
    state, red, _ = duel((Hex(9, 5), 0), (Hex(9, 3), 3), gladiators=["medium", "medium"])
    red.has_weapon = False
    state.items.append(GroundItem("weapon", "red", Hex(9, 5)))
    script = [("§8.4", 3), ("§8.4", 3), ("§8.4.3", (3, 3)), ("§15.2.1", 3), ("§13.4.1", 3)]
    events = play(state, {"red": "R", "blue": "F F"}, *script)
    factors = {e["figure"]: e["text"] for e in of(events, "impact_factor")}
    assert "-3 attempted_recover" in factors["red"]
    assert "attempted_recover" not in factors["blue"]


def test_q26_a_kneeling_man_strikes_with_a_sword_just_recovered_at_a_quarter() -> None:
    """Q26, §14.3, §13.4.2: several halvings multiply: kneeling, with the sword picked up this
    phase, his 8 CF at the chest strike at 2."""
    state, red, _ = duel((Hex(9, 5), 0), (Hex(9, 4), 3), gladiators=["medium", "medium"])
    red.has_weapon = False
    red.posture = "kneeling"
    red.sheet = red.sheet.model_copy(update={"ag": 2})
    state.items.append(GroundItem("weapon", "red", neighbor_at(Hex(9, 5), 0, 3)))
    play(state, {"red": "X", "blue": "X"}, ("§13.4.1", 1))
    assert red.has_weapon and red.recovered_weapon and red.posture == "kneeling"
    events = play(state, {"red": "A8:chest", "blue": "D2:head"}, ("§9.5.1", (1, 1, 1)))
    (half,) = of(events, "half_cf")
    assert half["text"].endswith("chest:2 (§14.3, §13.4.2)")


def test_section_16_4_a_man_knocked_prone_and_tripped_gets_up_rather_than_stumble() -> None:
    """§16.4 "A Prone gladiator must select a KN or RO" against §15.3's Stumble "regardless"
    (E7): by default the Prone man plots KN or RO and his trip is spent; the option
    `prone_trip = "stumble"` has him write S first."""
    state, red, _ = duel((Hex(9, 5), 0), (Hex(9, 1), 0))
    red.posture, red.must_stumble = "prone", True
    assert texts(state, "red") == ["KN", "KN(L)", "KN(R)", "RO-FL", "RO-FR", "RO-BL", "RO-BR"]
    play(state, {"red": "KN", "blue": "X"}, ("§14.1.1", 1))
    assert red.posture == "kneeling" and not red.must_stumble
    state, red, _ = duel((Hex(9, 5), 0), (Hex(9, 1), 0), prone_trip="stumble")
    red.posture, red.must_stumble = "prone", True
    assert texts(state, "red") == ["S", "S(L)", "S(R)"]


def test_section_13_4_1_hexes_moved_are_the_steps_he_took_not_a_push() -> None:
    """T14 "+1 per hex moved this phase": red stepped forward one hex and was then pushed one
    more: +1 for the step, nothing for the push (medium 0, item in his hex, AG 0): 1 +1 = 2."""
    from colosseum_helpers import ScriptedDice
    from gladiator.rules.colosseum.hits.items import recover_items
    from gladiator.rules.colosseum.plots.plots import PhasePlot

    state, red, _ = duel((Hex(9, 7), 0), (Hex(9, 1), 0), gladiators=["medium", "medium"])
    red.sheet = red.sheet.model_copy(update={"ag": 0})
    red.has_weapon = False
    state.items.append(GroundItem("weapon", "red", Hex(9, 7)))
    tracks = {"red": ((Hex(9, 5), "start"), (Hex(9, 6), "forward"), (Hex(9, 7), "push"))}
    events: list[Any] = []
    dice = ScriptedDice(("§13.4.1", 1))
    recover_items(state, {"red": parse_plot("F"), "blue": PhasePlot()}, tracks, set(), dice, events)
    (tried,) = of(events, "recovery")
    assert "1 +1 = 2: fumbled" in tried["text"] and dice.done()


def test_section_12_3_a_battered_shield_falls_by_the_drop_roll() -> None:
    """§12.3 "must be dropped or thrown away [see 13.1]", §13.2.3 (I10): the large shield's last
    box goes (2D6 12 + ST 1 + CF 2 = 15 against 8); it falls by the §13.2 roll, direction 2 (his
    front-left), 2 − 1 = 1 hex, battered side up."""
    state, _, blue = duel((Hex(9, 5), 0), (Hex(9, 4), 3), gladiators=["medium", "medium"])
    blue.sheet = blue.sheet.model_copy(update={"shield_marked": len(blue.sheet.shield_track) - 1})
    play(state, {"red": "X", "blue": "X"})
    script = [("§9.5.1", (1, 4, 1)), ("§12.2", (6, 6)), ("§13.2.1", 2), ("§13.2.2", 2)]
    events = play(state, {"red": "A4:chest", "blue": "D2:chest"}, *script)
    assert blue.sheet.shield_useless and not blue.has_shield
    assert state.items == [GroundItem("shield", "blue", neighbor_at(Hex(9, 4), 3, 5), True)]
    assert [e["rule"] for e in of(events, "item_lost")] == ["§13.2.3"]
