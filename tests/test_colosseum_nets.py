"""§20 the net (Advanced Game): the net orders offered and refused (§20.3.1, N1-N4), the reuse of
the net across turns (the §20.5.1 and §20.6.2 EXAMPLEs), Toss, Swing and Lay on the "0" column
(T16-T18, N5-N7), Repel Net, collisions (§20.3.3), the ensnared man (§20.5.4), escape and drag
(§20.5.5, Q31, N10-N11), the struggle for the net (§20.8.1, N8) and the net on the ground (N9)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from colosseum_helpers import RULES, RiggedDice, of_type, play
from colosseum_styles_helpers import HERE, arena
from gladiator.core.decisions import IllegalOrder
from gladiator.core.dice import Dice
from gladiator.core.hexgrid import Hex, neighbor
from gladiator.rules.colosseum.combat.net_attacks import front_hex, lay_hex, struggle, swing_target
from gladiator.rules.colosseum.kit.nets import split_net
from gladiator.rules.colosseum.plots.plots import PlotError
from gladiator.rules.colosseum.state import ColosseumState


def _duel(gap: int = 3, **options: Any) -> ColosseumState:
    """A Retiarius (red, at HERE facing 0) and a Secutor `gap` hexes straight ahead."""
    state = arena("retiarius", "secutor", gap=gap, **options)
    assert state.gladiators["red"].net and not state.gladiators["blue"].net
    return state


def _plot(state: ColosseumState, seat: str = "red") -> list[str]:
    return RULES.pending(state)[seat].texts()  # type: ignore[attr-defined]


def _validate(state: ColosseumState, order: str, seat: str = "red") -> str:
    return RULES.pending(state)[seat].validate(order)


# --- notation and the options (§20.3.1, N1, N3) -----------------------------------------------


def test_s20_3_1_net_orders_are_written_after_the_plot() -> None:
    assert split_net("f f +tn") == ("f f", split_net("X +TN")[1])
    assert split_net("RN") == ("X", split_net("RN")[1])
    for bad in ("+TN", "F +TN +SN", "F +LN4", "F RN"):
        with pytest.raises(PlotError):
            split_net(bad)


def test_s20_3_1_a_retiarius_is_offered_every_net_attack_and_the_secutor_repel_net() -> None:
    """§5.2.1.1: the Retiarius writes his net attack with his plot."""
    state = _duel()
    red = _plot(state)
    for text in ("X +TN", "F +TN", "F +SN", "X +LN1", "X +LN2", "X +LN3", "X +DN-F"):
        assert text in red
    assert "RN" not in red and "F +LG" not in red  # nobody's net threatens him; none to let go
    blue = _plot(state, "blue")
    assert "RN" in blue and not any("+TN" in t for t in blue)  # §20.1: he holds no net
    assert _validate(state, "f +tn") == "F +TN"


def test_s20_8_3_a_man_with_shield_and_weapon_cannot_use_a_net() -> None:
    """§20.8.3 probe: the Secutor holds a net, but also a shield and a sword: no hand for it."""
    state = _duel()
    state.gladiators["blue"].net = True
    with pytest.raises(IllegalOrder, match=r"§20\.8\.3"):
        _validate(state, "X +TN", "blue")
    assert "X +DN-F" in _plot(state, "blue")  # he may still drop it
    state.gladiators["blue"].has_shield = False
    assert "X +TN" in _plot(state, "blue")


def test_s20_3_2_a_net_attack_needs_its_cf() -> None:
    state = _duel()
    red = state.gladiators["red"]
    red.sheet = red.sheet.with_stun(red.sheet.current_cf - 5, turn=1, phase=1)[0]
    with pytest.raises(IllegalOrder, match="costs 6 CF"):
        _validate(state, "X +TN")
    assert "X +SN" in _plot(state)


# --- reuse (§20.5.1, §20.6.2 EXAMPLEs, N2) -----------------------------------------------------


def _at(state: ColosseumState, turn: int, phase: int) -> None:
    state.turn, state.phase = turn, phase


def test_s20_5_1_toss_cooldown_example() -> None:
    """EX-20.5.1: "A net tossed in the 7th phase of the 1st turn, could not be used again before
    the 2nd phase of the 2nd turn" (N2): the whole net waits, no swing or lay either (T27's
    "net unavailable next two phases"), even after a toss that reached him."""
    state = _duel()
    _at(state, 1, 7)
    play(state, RiggedDice(3, {"§20.5": [(3, 3, 2)]}), red="X +TN")  # 8 + 2 − 1: S, nothing
    assert state.gladiators["red"].net_order == "TN" and state.gladiators["red"].net
    for turn, phase in ((1, 8), (2, 1)):
        _at(state, turn, phase)
        state.step = "plot"
        assert not any(net in t for t in _plot(state) for net in ("+TN", "+SN", "+LN"))
        for order in ("X +TN", "X +SN", "X +LN2"):
            with pytest.raises(IllegalOrder, match="turn 2 phase 2"):
                _validate(state, order)
    _at(state, 2, 2)
    assert "X +TN" in _plot(state) and "X +SN" in _plot(state)


def test_s20_5_1_n2_option_kind_only_the_toss_waits() -> None:
    """N2, option net_reuse = "kind": after a toss that reached a man only the toss waits."""
    state = _duel(net_reuse="kind")
    _at(state, 1, 7)
    play(state, RiggedDice(3, {"§20.5": [(3, 3, 2)]}), red="X +TN")
    for turn, phase in ((1, 8), (2, 1)):
        _at(state, turn, phase)
        state.step = "plot"
        assert "X +TN" not in _plot(state)
        with pytest.raises(IllegalOrder, match="turn 2 phase 2"):
            _validate(state, "X +TN")
        assert "X +SN" in _plot(state)  # the toss's wait is the toss's alone
    _at(state, 2, 2)
    assert "X +TN" in _plot(state)


def test_s20_5_1_1_a_toss_at_nobody_still_waits() -> None:
    """§20.5.1.1: with nobody in the toss front the net is thrown all the same."""
    state = _duel()
    blue = state.gladiators["blue"]
    blue.hex, blue.facing = neighbor(neighbor(HERE, 3), 3), 0  # behind him
    _at(state, 1, 7)
    events = play(state, Dice(3), red="X +TN")
    assert "nobody there" in of_type(events, "net_attack")[0]["text"]
    assert state.gladiators["red"].toss_ready == 10  # turn 2 phase 2
    # N12: "may not be used for the next two movement phases": no swing or lay either.
    for turn, phase in ((1, 8), (2, 1)):
        _at(state, turn, phase)
        state.step = "plot"
        assert not any(net in t for t in _plot(state) for net in ("+TN", "+SN", "+LN"))
        with pytest.raises(IllegalOrder, match=r"used again before turn 2 phase 2"):
            _validate(state, "X +LN2")
    _at(state, 2, 2)
    assert "X +TN" in _plot(state) and "X +SN" in _plot(state) and "X +LN2" in _plot(state)


def test_s20_6_2_swing_cooldown_example() -> None:
    """EX-20.6.2: swung in turn 1 phase 8; illegal in turn 2 phase 1, legal from phase 2."""
    state = _duel(gap=2)
    _at(state, 1, 8)
    play(state, RiggedDice(3, {"§20.6": [(3, 3, 2)]}), red="X +SN")
    _at(state, 2, 1)
    state.step = "plot"
    with pytest.raises(IllegalOrder, match=r"§20\.6"):
        _validate(state, "X +SN")
    assert not any(net in t for t in _plot(state) for net in ("+TN", "+LN"))  # N2: the net
    _at(state, 2, 2)
    assert "X +SN" in _plot(state)
    kind = _duel(gap=2, net_reuse="kind")
    _at(kind, 1, 8)
    play(kind, RiggedDice(3, {"§20.6": [(3, 3, 2)]}), red="X +SN")
    _at(kind, 2, 1)
    kind.step = "plot"
    assert "X +TN" in _plot(kind) and "X +LN2" in _plot(kind)  # §20.7.1: lay every phase


# --- the toss (§20.5, T16, N5) -----------------------------------------------------------------


def test_s20_5_3_a_toss_at_a_kneeling_man_gets_four() -> None:
    """T16 probe: 3D6 9, +2 Pause, +4 Kneeling, −1 the "0" column = 14: H, ensnared. Standing,
    the same 9 is 10, an S*, which does nothing."""
    for posture, ensnared in (("kneeling", "red"), ("standing", "")):
        state = _duel()
        state.gladiators["blue"].posture = posture  # type: ignore[assignment]
        events = play(state, RiggedDice(3, {"§20.5": [(3, 3, 3)]}), red="X +TN")
        assert state.gladiators["blue"].ensnared == ensnared, of_type(events, "net_attack")
        assert state.gladiators["red"].net_cf == 6


def test_s20_4_repel_net_gives_minus_six_and_is_no_pause() -> None:
    """RN probe: 3D6 15 at a man who Paused is +2 − 1 = 16, an H; at one who wrote RN it is
    −6 − 1 = 8, an S: no effect (RN stands still but is not the Pause that adds +2)."""
    state = _duel()
    events = play(state, RiggedDice(3, {"§20.5": [(5, 5, 5)]}), red="X +TN", blue="RN")
    assert state.gladiators["blue"].ensnared == ""
    text = of_type(events, "net_attack")[0]["text"]
    assert "-6 target used a Repel Net action" in text and "Pause" not in text
    assert state.gladiators["blue"].last_plot == "RN"
    state = _duel()
    play(state, RiggedDice(3, {"§20.5": [(5, 5, 5)]}), red="X +TN", blue="X")
    assert state.gladiators["blue"].ensnared == "red"


def test_s20_3_3_a_collision_cancels_the_net_attack() -> None:
    """§20.3.3 (N2): both step forward into one another: the toss is never made, costs nothing
    and starts no wait."""
    state = _duel(gap=2)
    events = play(state, Dice(5), red="F +TN", blue="F")
    assert of_type(events, "collision") or of_type(events, "net_cancelled")
    assert of_type(events, "net_cancelled") and not of_type(events, "net_attack")
    red = state.gladiators["red"]
    assert red.toss_ready == 0 and red.net_cf == 0


def test_s20_8_the_f_result_starts_the_struggle() -> None:
    """3D6 3 + 2 Pause − 1 = 4: F, the Secutor grabs the net; 1D6 3 + ST 2 each: a tie, which
    goes to the Retiarius (NOTE-20.8.1)."""
    state = _duel()
    play(state, RiggedDice(3, {"§20.5": [(1, 1, 1)], "§20.8.1": [3, 3]}), red="X +TN")
    assert state.gladiators["red"].net and not state.items


# --- the struggle (§20.8.1, N8) ----------------------------------------------------------------


def test_note_20_8_1_net_tie_to_the_retiarius_and_the_hook() -> None:
    state = _duel()
    red, blue = state.gladiators["red"], state.gladiators["blue"]
    events: list[dict[str, object]] = []
    struggle(state, red, blue, RiggedDice(1, {"§20.8.1": [4, 4]}), events)  # type: ignore[arg-type]
    assert red.net and "keeps it" in str(events[-1]["text"])
    blue.hook = True  # §21.5.1: +1 for the Contra-Retiarius
    struggle(state, red, blue, RiggedDice(1, {"§20.8.1": [4, 4]}), events)  # type: ignore[arg-type]
    assert not red.net
    assert [i.item for i in state.items] == ["net"] and state.items[0].hex == blue.hex  # no hand


# --- the swing (§20.6, T17b, N7) ---------------------------------------------------------------


def test_s20_6_1_the_swing_meets_the_first_figure_in_t17b_order() -> None:
    """Q18 probe: a figure straight ahead (4th) and one two hexes out at 60° right (1st): the
    swing meets the far one first, friend or foe."""
    state = _duel()
    red, blue = state.gladiators["red"], state.gladiators["blue"]
    near = replace(blue, seat="green", hex=front_hex(HERE, 0, 1, 1))
    far = replace(blue, seat="friend", hex=front_hex(HERE, 0, 0, 2))
    assert swing_target(red, [near, far]) is far
    assert swing_target(red, [near]) is near
    assert swing_target(red, [replace(blue, hex=neighbor(HERE, 3))]) is None  # behind him


def test_s20_6_1_a_swing_does_nothing_to_a_kneeling_man() -> None:
    state = _duel(gap=2)
    state.gladiators["blue"].posture = "kneeling"
    dice = RiggedDice(3, {})
    events = play(state, dice, red="X +SN")
    assert "no effect" in of_type(events, "net_attack")[0]["text"]
    assert "§20.6" not in dice.rules()  # no CRT roll
    assert state.gladiators["red"].swing_ready == 3


def test_s20_6_4_a_swing_h_trips_him() -> None:
    """3D6 18 on the "0" column is an H: he must Stumble next phase (no check)."""
    state = _duel(gap=2)
    play(state, RiggedDice(3, {"§20.6": [(6, 6, 6)]}), red="X +SN")
    assert state.gladiators["blue"].must_stumble


# --- the lay (§20.7, N7) -----------------------------------------------------------------------


def test_s20_7_2_the_lay_catches_only_a_man_who_entered_the_hex() -> None:
    """N7 probe: LN2 is the hex in front of him. A Secutor who steps into it is rolled for (and
    tripped by an H); one who stood in it all phase is not."""
    state = _duel(gap=2)
    assert lay_hex(state.gladiators["red"], 2) == neighbor(HERE, 0)
    events = play(state, RiggedDice(3, {"§20.7": [(6, 6, 6)]}), red="X +LN2", blue="F")
    assert state.gladiators["blue"].hex == neighbor(HERE, 0)
    assert state.gladiators["blue"].must_stumble, of_type(events, "net_attack")
    state = _duel(gap=1)
    dice = RiggedDice(3, {"§20.7": [(6, 6, 6)]})
    events = play(state, dice, red="X +LN2", blue="X")
    assert "nobody there" in of_type(events, "net_attack")[0]["text"]
    assert not state.gladiators["blue"].must_stumble and "§20.7" not in dice.rules()


# --- the ensnared man, escape and drag (§20.5.4, §20.5.5, N4, N10, N11) -----------------------


def _ensnared(gap: int = 1) -> ColosseumState:
    state = _duel(gap)
    state.gladiators["blue"].ensnared = "red"
    return state


def test_s20_5_4_the_ensnared_man_may_move_but_not_turn() -> None:
    state = _ensnared()
    blue = state.gladiators["blue"]
    options = RULES.pending(state)["blue"].options  # type: ignore[attr-defined]
    assert all(o.facing in (None, blue.facing) for o in options)
    assert any(o.text == "B" for o in options)
    blue.posture = "prone"
    prone = RULES.pending(state)["blue"].options  # type: ignore[attr-defined]
    assert all(o.hex == Hex(0, 0) for o in prone)  # §20.5.4.1: no movement (his own frame)
    assert [o.text for o in prone] == ["KN"]


def test_s20_5_4_the_ensnared_man_allocates_to_defence_and_escape_only() -> None:
    state = _ensnared()
    play(state, Dice(2))  # both Pause: the allocation
    assert state.step == "allocate"
    decision = RULES.pending(state)["blue"]
    with pytest.raises(IllegalOrder):
        decision.validate("A2:chest")
    assert decision.validate("D2:chest ESCAPE:3") == "D-CHEST:2 ESCAPE:3"
    assert "DRAG:2" in RULES.pending(state)["red"].validate("drag:2")


def test_s9_2_1_3_attackers_get_four_against_an_ensnared_man() -> None:
    free, caught = _duel(gap=1), _ensnared()
    play(free, Dice(2))
    play(caught, Dice(2))
    assert caught.gladiators["red"].pa == free.gladiators["red"].pa + 4


def test_s20_5_5_1_the_escape_result_is_added_to_every_attack_on_him() -> None:
    """§5.2.5.1, §3.15: the ensnared man's escape CFs (his Net Free box) are rolled before
    combat; §3.16: the result is his Net Loss box. Q31 probe: 3D6 9 − 5 escape CF = 4, below 7:
    free, and the trident's attack on him (2 CF halved with the net: 1 against no defence,
    column 1) is rolled 6 + 4 = 10."""
    state = _ensnared()
    dice = RiggedDice(2, {"§20.5.5.1": [(3, 3, 3)], "§9.5.1": [(2, 2, 2)]})
    play(state, dice)
    events = play(state, dice, red="A2:chest", blue="ESCAPE:5 D2:head")
    assert state.gladiators["red"].net  # §20.8: the net comes back to his hand
    assert "he is free" in of_type(events, "net_escape")[0]["text"]
    (crt,) = of_type(events, "crt")
    assert (crt["roll"], crt["total"]) == (6, 10)


def test_s20_5_5_1_a_failed_escape_may_be_dragged_down_to_the_moment_of_truth() -> None:
    """3D6 18 − 2 = 16: still ensnared (§20.5.5 (2nd)); drag 3D6 12 + ST 2 + 4 = 18 > 17
    (§20.5.5.1 (2nd)): dragged Prone, at the mercy of an armed Retiarius (§18)."""
    state = _ensnared()
    dice = RiggedDice(2, {"§20.5.5.1": [(6, 6, 6), (4, 4, 4)]})
    play(state, dice)
    events = play(state, dice, red="DRAG:4", blue="ESCAPE:2")
    assert state.gladiators["blue"].posture == "prone"
    assert state.step == "over" and of_type(events, "appeal")


def test_s20_5_6_let_go_leaves_him_ensnared_and_frees_the_trident() -> None:
    state = _ensnared()
    assert "X +LG" in _plot(state) and "X +TN" not in _plot(state)
    play(state, Dice(2), red="X +LG")
    red, blue = state.gladiators["red"], state.gladiators["blue"]
    assert not red.net and blue.ensnared == "-"


# --- the net on the ground (§20.8.2, N9) -------------------------------------------------------


def test_s20_8_2_a_dropped_net_lies_in_the_adjacent_hex_and_cannot_be_kicked() -> None:
    state = _duel()
    play(state, Dice(2), red="X +DN-F")
    assert [(i.item, i.hex) for i in state.items] == [("net", neighbor(HERE, 0))]
    assert not state.gladiators["red"].net
    if state.step == "allocate":
        play(state, Dice(2), red="-", blue="-")
    assert not any("kick the net" in o.label for o in RULES.pending(state)["red"].options)  # type: ignore[attr-defined]
    view = RULES.scene(state, None)
    assert any(i.get("kind") == "net" for i in view["items"])


# --- whole matches -----------------------------------------------------------------------------


def _match(bot: str, seed: int) -> tuple[ColosseumState, list[dict[str, object]]]:
    import random

    from gladiator.bots import make_bot

    opts = RULES.normalise_options({"advanced": True, "styles": ["retiarius", "secutor"]})
    dice = Dice(seed)
    state, events = RULES.initial_state(opts, dice)
    bots = {s: make_bot(bot) for s in ("red", "blue")}
    rng = random.Random(seed)
    for _ in range(3000):
        if RULES.outcome(state) is not None:
            break
        orders = {
            s: d.validate(bots[s].choose(RULES, state, s, d, rng))
            for s, d in RULES.pending(state).items()
        }
        events += RULES.apply(state, orders, dice)
    assert RULES.outcome(state) is not None
    return state, events


def test_s20_a_random_retiarius_v_secutor_match_throws_nets() -> None:
    _, events = _match("random", 4)
    thrown = [e for e in of_type(events, "net_attack") if e.get("seat") == "red"]
    assert len(thrown) >= 3


def test_s29_5_2_a_centurion_retiarius_throws_nets() -> None:
    """C8: the centurion's T29 net attacks are live now that the plot decision offers them."""
    nets = 0
    for seed in (1, 2, 3):
        _, events = _match("centurion", seed)
        nets += len([e for e in of_type(events, "net_attack") if e.get("seat") == "red"])
    assert nets >= 2


def test_s20_the_net_in_the_text_render_and_the_scene() -> None:
    state = _ensnared()
    text = RULES.render_text(state, None)
    assert "ensnared in red's net" in text and "net and trident" in text
    view = RULES.scene(state, None)
    states = {f["seat"]: f["states"] for f in view["figures"]}
    assert "net" in states["red"] and "ensnared" in states["blue"]
    rows = {p["seat"]: dict(p["rows"]) for p in view["panels"]}
    assert rows["red"]["Net"] == "in hand, ensnaring blue"
    state.gladiators["blue"].ensnared = ""
    play(state, Dice(2), red="X +DN-B")  # behind him: blue stands in front
    assert " n " in RULES.render_text(state, None).split("\n\n")[1]


def test_s20_5_1_the_sheet_shows_the_toss_wait_only_while_he_holds_the_net() -> None:
    state = _duel()
    red = state.gladiators["red"]
    red.toss_ready = 20  # turn 3 phase 4

    def net_row() -> str:
        panels = RULES.scene(state, None)["panels"]
        return str(dict(next(p for p in panels if p["seat"] == "red")["rows"]).get("Net", ""))

    assert "toss again from turn 3 phase 4" in net_row()
    red.net = False  # the Secutor has taken it (§20.8.1)
    assert "toss again" not in net_row()


# --- rules the tests above do not name (§20.2, §20.6.3, §20.7.3) -------------------------------


def test_s20_2_a_net_attack_needs_a_man_free_to_move() -> None:
    """§20.2, §7.1 (N1): a man bound to Stumble is not free to move: no net attack for him."""
    state = _duel()
    state.gladiators["red"].must_stumble = True
    assert not any("+TN" in t or "+SN" in t or "+LN" in t for t in _plot(state))
    with pytest.raises(IllegalOrder, match="free to move"):
        _validate(state, "S +TN")


def test_s20_6_3_a_swing_at_nobody_still_waits() -> None:
    """§20.6.3: with nobody in the 2-hex front the net counts as swung: not again next phase."""
    state = _duel()
    blue = state.gladiators["blue"]
    blue.hex, blue.facing = neighbor(neighbor(HERE, 3), 3), 0  # behind him
    _at(state, 1, 4)
    events = play(state, Dice(3), red="X +SN")
    assert "nobody there" in of_type(events, "net_attack")[0]["text"]
    assert state.gladiators["red"].swing_ready == 6  # turn 1 phase 6
    _at(state, 1, 5)  # N12: "cannot be used next phase": no toss or lay either
    state.step = "plot"
    assert not any(net in t for t in _plot(state) for net in ("+TN", "+SN", "+LN"))
    _at(state, 1, 6)
    assert "X +TN" in _plot(state) and "X +LN2" in _plot(state)


def test_s20_7_3_the_lay_is_read_on_the_0_column_with_t18() -> None:
    """§20.7.3: 3D6 + T18's DRMs on the "0" column; an H trips the man who stepped in, while a
    result of no effect leaves him on his feet and free to plot what he likes."""
    for faces, tripped in (((6, 6, 6), True), ((2, 2, 3), False)):
        state = _duel(gap=2)
        dice = RiggedDice(3, {"§20.7": [faces]})
        events = play(state, dice, red="X +LN2", blue="F")
        assert "§20.7" in dice.rules()
        assert state.gladiators["blue"].must_stumble is tripped, of_type(events, "net_attack")


def test_s9_3_2_2_the_net_attacks_cfs_come_out_of_his_allocation() -> None:
    """§9.3.2.2, §20.3.2, §5.2.5: the toss is made after movement, before combat, and its 6 CF
    are not his to allocate to attack and defence."""
    budgets = []
    for order in ("X", "X +TN"):
        state = _duel(gap=2)
        play(state, RiggedDice(3, {"§20.5": [(1, 2, 2)]}), red=order)
        assert state.step == "allocate"
        budgets.append(RULES.pending(state)["red"].budget)  # type: ignore[attr-defined]
    assert budgets[0] - budgets[1] == 6


def test_s9_3_3_n13_no_defence_cf_meets_a_net_attack() -> None:
    """§9.3.3 "or to repel a net attack [see 20.4]", §20.3.1 "all net attacks occur after
    movement" (N13): the toss is read on the "0" column in the movement step, before anyone
    writes a defence; the allocation that follows has no box that could meet it, and RN (−6,
    test_s20_4_repel_net_gives_minus_six_and_is_no_pause) is the only way to repel it."""
    state = _duel()
    events = play(state, RiggedDice(3, {"§20.5": [(5, 5, 5)]}), red="X +TN")
    assert state.gladiators["blue"].ensnared == "red"  # decided already
    assert 'on the "0" column' in of_type(events, "net_attack")[0]["text"]
    assert state.step == "allocate"  # his defence is written only now
    slots = [s.name for s in RULES.pending(state)["blue"].slots]  # type: ignore[attr-defined]
    assert slots and all(n == "ESCAPE" or n.startswith(("A-", "D-")) for n in slots)
    assert not any("NET" in n for n in slots)


def test_n14_a_dropped_net_is_taken_up_again_only_by_r() -> None:
    """§13.4, §20.8.2 (N14): the Retiarius drops his net behind him; standing beside it next
    phase he does not try for it (before issue 38 the engine tried for him); writing R he does,
    with T14's DRMs."""
    state = _duel(gap=5)
    play(state, Dice(2), red="X +DN-B")
    assert not state.gladiators["red"].net and [i.item for i in state.items] == ["net"]
    events = play(state, Dice(2), red="X")
    assert not of_type(events, "recovery") and not state.gladiators["red"].net
    assert "R" in _plot(state)
    events = play(state, RiggedDice(2, {"§13.4.1": [1]}), red="R")
    (attempt,) = of_type(events, "recovery")
    assert attempt["item"] == "net" and state.gladiators["red"].net
