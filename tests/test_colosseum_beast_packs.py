"""§28 with §30.2.1.1 "Venatores / Bestiarii vs Beast" (1D3 beasts; rulings B11-B16): two or
three beasts against one gladiator: the option, the set-up, movement among beasts, combat with
a beast on each attack box, the end, presentation, and whole seeded matches that replay."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from colosseum_helpers import RULES, RiggedDice, of_type
from gladiator.bots import make_bot
from gladiator.core.decisions import IllegalOrder
from gladiator.core.dice import Dice
from gladiator.core.hexgrid import DIRECTIONS, Hex, add, distance, neighbor
from gladiator.core.match import Match
from gladiator.core.record import MatchRecord
from gladiator.rules.colosseum.arena.board import board_of
from gladiator.rules.colosseum.arena.combat_geometry import in_front
from gladiator.rules.colosseum.beasts.beasts import counter_hexes
from gladiator.rules.colosseum.combat.allocation import allocation_choice
from gladiator.rules.colosseum.combat.engage import engage, pa_of
from gladiator.rules.colosseum.combat.orders import AllocationChoice
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.sim.runner import play_match

TWO = "blue:lion,green:wolf"
THREE = "blue:lion,green:bear,gold:wolf"
H = Hex(9, 4)


def pack(beasts: str = TWO, seed: int = 1, **extra: Any) -> ColosseumState:
    n = beasts.count(",") + 2
    styles = ["bestiarius", *["random"] * (n - 1)]
    opts = {"advanced": True, "beasts": beasts, "styles": styles, **extra}
    state, _ = RULES.initial_state(RULES.normalise_options(opts), Dice(seed))
    return state


def pose(g: Gladiator, h: Hex, facing: int) -> None:
    g.hex, g.facing = h, facing


def ahead(h: Hex, facing: int, n: int = 1) -> Hex:
    for _ in range(n):
        h = add(h, DIRECTIONS[facing])
    return h


# -- B11: the option -----------------------------------------------------------------------------
def test_s30_2_1_1_two_and_three_beasts_are_seats_after_red() -> None:
    opts = RULES.normalise_options({"advanced": True, "beasts": "green:bear,blue:lion"})
    assert opts["beasts"] == "blue:lion,green:bear"  # table order
    assert RULES.seats(opts) == ("red", "blue", "green")
    assert len(opts["styles"]) == len(opts["gladiators"]) == 3
    three = RULES.normalise_options(
        {"advanced": True, "beasts": "blue:random,green:bear,gold:wolf"}
    )
    assert RULES.seats(three) == ("red", "blue", "green", "gold")
    # A single beast is still the duel it was (B1): two seats, its options unchanged.
    one = RULES.normalise_options({"advanced": True, "beasts": "blue:lion"})
    assert RULES.seats(one) == ("red", "blue") and len(one["styles"]) == 2


@pytest.mark.parametrize(
    ("beasts", "want"),
    [
        ("blue:lion,gold:bear", "2 beasts are the seats blue, green; the gladiator is red"),
        ("red:lion,blue:bear", "the gladiator is red"),
        ("blue:lion,green:bear,gold:wolf,white:lion", "at most 3 beasts"),
        ("blue:lion,green:dragon", "not a T21 beast"),
        ("blue:lion,blue:bear", "named twice"),
    ],
)
def test_s30_2_1_1_bad_packs_are_refused_in_one_line(beasts: str, want: str) -> None:
    with pytest.raises(ValueError, match=want) as exc:
        RULES.normalise_options({"advanced": True, "beasts": beasts})
    assert "\n" not in str(exc.value)


def test_s28_a_pack_is_not_played_with_teams_or_solitaire() -> None:
    for extra in ({"teams": "red+green:blue"}, {"solitaire": ["blue"]}):
        with pytest.raises(ValueError):
            RULES.normalise_options({"advanced": True, "beasts": TWO, **extra})


# -- B12: the set-up -----------------------------------------------------------------------------
def test_s4_5_the_beasts_stand_in_a_line_facing_the_gladiator() -> None:
    state = pack(THREE)
    g = state.gladiators
    red = g["red"]
    assert red.facing == 0
    heads = [g[s] for s in ("blue", "green", "gold")]
    assert [b.facing for b in heads] == [3, 3, 3]
    assert distance(red.hex, g["blue"].hex) == 5  # straight across, as the duel's pair
    covered = [h for b in heads for h in counter_hexes(b)]
    assert len(covered) == len(set(covered)) == 5  # lion and bear two hexes, the wolf one
    assert all(h in board_of(state) for h in covered)
    assert [b.beast.kind for b in heads if b.beast] == ["lion", "bear", "wolf"]
    assert set(RULES.pending(state)) == {"red"}  # the engine plays every beast


def test_s30_2_1_1_random_kinds_roll_p3_per_beast() -> None:
    opts = RULES.normalise_options(
        {
            "advanced": True,
            "beasts": "blue:random,green:random",
            "styles": ["venator"] + ["random"] * 2,
        }
    )
    dice = RiggedDice(1, {"§30.2.1.1 P3": [6, 2, 5]})  # 6 re-rolled: leopard, then wolf
    state, _ = RULES.initial_state(opts, dice)
    kinds = [state.gladiators[s].beast for s in ("blue", "green")]
    assert [k.kind for k in kinds if k] == ["leopard", "wolf"]


# -- B13: movement among beasts ------------------------------------------------------------------
def test_s28_4_a_beast_never_steps_onto_another_beasts_counter() -> None:
    state = pack("blue:lion,green:lion")
    g = state.gladiators
    pose(g["red"], Hex(2, 9), 0)
    pose(g["green"], H, 0)  # body one hex south of its head
    pose(g["blue"], ahead(H, 3, 2), 0)  # blue's head touches green's body
    # Blue rolls 5 (forward 1 and turn left), green 12 (it Pauses).
    dice = RiggedDice(3, {"§28.4.1": [(2, 3), (6, 6)]})
    before = g["blue"].pose
    events = RULES.apply(state, {"red": "X"}, dice)
    assert g["blue"].pose == before  # the step is not made and the move ends (B13)
    assert [e["seat"] for e in of_type(events, "beast_edge")] == ["blue"]
    assert not of_type(events, "beast_collision")
    # Probe: alone, the same roll moves it (the lion in front is what stopped it).
    alone = pack("blue:lion,green:wolf")
    pose(alone.gladiators["red"], Hex(2, 9), 0)
    pose(alone.gladiators["blue"], ahead(H, 3, 2), 0)
    pose(alone.gladiators["green"], Hex(16, 2), 3)
    RULES.apply(alone, {"red": "X"}, RiggedDice(3, {"§28.4.1": [(2, 3), (6, 6)]}))
    assert alone.gladiators["blue"].hex == ahead(H, 3, 1)


def test_s28_5_the_gladiator_is_blocked_by_every_beasts_counter() -> None:
    state = pack()
    g = state.gladiators
    pose(g["blue"], Hex(3, 9), 0)
    pose(g["green"], ahead(H, 0, 2), 3)  # the wolf two hexes ahead of him
    pose(g["red"], H, 0)
    RULES.apply(state, {"red": "F F"}, RiggedDice(3, {"§28.4.1": [(6, 6), (6, 6)]}))
    assert g["red"].hex == ahead(H, 0, 1)  # he stops in the hex before it (B2)


# -- B15, B16: combat ----------------------------------------------------------------------------
def _two_in_front(state: ColosseumState) -> None:
    g = state.gladiators
    pose(g["red"], H, 0)
    pose(g["blue"], neighbor(H, 0), 3)  # the lion's head straight ahead, facing him
    pose(g["green"], neighbor(H, 1), 4)  # the wolf ahead-right, facing him


def test_s28_6_each_attack_box_names_one_beast_and_only_t24_areas() -> None:
    state = pack()
    _two_in_front(state)
    assert engage(state, [])
    red = state.gladiators["red"]
    assert [t for t, _, _ in red.targets] == ["blue", "green"]
    d = allocation_choice(red, state)
    assert isinstance(d, AllocationChoice) and d.named
    open_slots = {s.name for s in d.slots if s.name.startswith("A-") and s.maximum}
    # T24 from in front of the head: the head and the paws (areas 1 and 4) of each.
    assert open_slots == {"A-BLUE-HEAD", "A-BLUE-ARMS", "A-GREEN-HEAD", "A-GREEN-ARMS"}
    assert d.validate("A-BLUE-HEAD:4 A-GREEN-ARMS:4") == "A-BLUE-HEAD:4 A-GREEN-ARMS:4"
    with pytest.raises(IllegalOrder, match="one attack box per area"):
        d.read("A-BLUE-HEAD:4 A-GREEN-HEAD:4")  # G9 probe: never both heads
    with pytest.raises(IllegalOrder):
        d.read("A-BLUE-CHEST:4")  # not a T24 area from here
    assert state.gladiators["blue"].may_attack and state.gladiators["green"].may_attack


def test_s27_2_two_beasts_biting_turn_him_as_a_single_gladiator() -> None:
    state = pack()
    g = state.gladiators
    pose(g["red"], H, 3)  # facing away, south
    pose(g["blue"], neighbor(H, 0), 3)
    pose(g["green"], neighbor(H, 1), 4)
    events: list[dict[str, Any]] = []
    assert engage(state, events)
    red = g["red"]
    assert [e["rule"] for e in of_type(events, "forced_rotation")] == ["§27.2"]
    assert in_front(red.pose, g["blue"].pose) and in_front(red.pose, g["green"].pose)
    # Turned, he gets no PA on either (§9.2, G3).
    assert all(pa == 0 for _, pa, _ in red.targets)


def test_s28_6_both_beasts_attack_in_one_combat_and_results_are_b8s() -> None:
    state = pack()
    _two_in_front(state)
    RULES.apply(state, {"red": "X"}, RiggedDice(3, {"§28.4.1": [(6, 6), (6, 6)]}))
    assert state.step == "allocate" and set(RULES.pending(state)) == {"red"}
    events = RULES.apply(state, {"red": "A-BLUE-HEAD:5 D-HEAD:3"}, Dice(4))
    attackers = {e["seat"] for e in of_type(events, "beast_attacks")}
    assert attackers == {"blue", "green"}


# -- B14: the end --------------------------------------------------------------------------------
def test_s28_a_dead_beast_leaves_the_sand_and_the_last_one_ends_it() -> None:
    state = pack()
    g = state.gladiators
    blue, green = g["blue"], g["green"]
    pose(g["red"], H, 0)
    pose(blue, Hex(3, 9), 0)
    pose(green, Hex(16, 2), 3)
    green.alive, green.cause = False, "killed in combat"
    RULES.apply(state, {"red": "X"}, RiggedDice(3, {"§28.4.1": [(6, 6)]}))
    assert "green" in state.fallen and "green" not in state.gladiators
    assert RULES.outcome(state) is None  # probe: one beast down is not the end of a pack
    assert "green out of the fight: Wolf, dead" in RULES.render_text(state, None)
    blue.alive, blue.cause = False, "killed in combat"
    RULES.apply(state, dict.fromkeys(RULES.pending(state), "X"), Dice(5))
    out = RULES.outcome(state)
    assert out is not None and out.winners == ("red",)


def test_s28_the_beasts_win_when_the_gladiator_falls() -> None:
    state = pack(THREE)
    red = state.gladiators["red"]
    pose(red, H, 0)
    red.alive, red.cause = False, "killed in combat"
    RULES.apply(state, {"red": "X"}, RiggedDice(3, {"§28.4.1": [(6, 6)] * 3}))
    out = RULES.outcome(state)
    assert out is not None and out.winners == ("blue", "green", "gold")


# -- presentation --------------------------------------------------------------------------------
def test_s28_text_and_scene_show_the_pack() -> None:
    state = pack(THREE)
    text = RULES.render_text(state, None)
    assert "sides: red v blue+green+gold" in text
    board_text = text.split("\n\n")[1]
    assert "Y" in board_text and "g=" in board_text  # gold's letter; the bear's body hex
    scene = RULES.scene(state, "red")
    assert scene["sides"] == [["red"], ["blue", "green", "gold"]]
    assert len(scene["figures"]) == 4
    json.dumps(scene)


# -- whole matches -------------------------------------------------------------------------------
def _check(state: ColosseumState) -> None:
    board = board_of(state)
    hexes = [h for x in state.gladiators.values() if x.alive for h in counter_hexes(x)]
    assert all(h in board for h in hexes)
    assert len(hexes) == len(set(hexes))  # no counter on another (B2, B13)
    assert not set(state.gladiators) & set(state.fallen)
    assert all(b.beast is not None for b in state.fallen.values())


def _play(beasts: str, seed: int, bot: str = "random") -> Match:
    n = beasts.count(",") + 2
    options = {
        "advanced": True,
        "beasts": beasts,
        "styles": ["random"] * n,
        "max_turns": 10,
    }
    m = Match(RULES, options, seed=seed, nonce="n")
    player, rng = make_bot(bot), random.Random(seed)
    while not m.finished:
        _check(m.state)
        pending = dict(m.pending())
        assert set(pending) <= {"red"}
        m.apply_step({s: player.choose(RULES, m.state, s, d, rng) for s, d in pending.items()})
    return m


def _ended_and_replays(m: Match, beasts: str) -> None:
    out = m.outcome
    assert out is not None
    seats = tuple(e.split(":")[0] for e in beasts.split(","))
    assert out.winners in ((), ("red",), seats)
    if out.winners == ("red",):
        assert all(s in m.state.fallen for s in seats)
    again = Match.replay(MatchRecord.from_json(m.record().to_json()), RULES)
    assert RULES.state_hash(again.state) == RULES.state_hash(m.state)


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10_000), bot=st.sampled_from(["random", "tactician"]))
def test_s28_two_beasts_played_to_the_end_replay(seed: int, bot: str) -> None:
    m = _play(TWO, seed, bot)
    _ended_and_replays(m, TWO)


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10_000), bot=st.sampled_from(["random", "tactician"]))
def test_s28_three_beasts_played_to_the_end_replay(seed: int, bot: str) -> None:
    m = _play("blue:random,green:random,gold:random", seed, bot)
    _ended_and_replays(m, "blue:random,green:random,gold:random")


def test_s28_a_gladiator_beats_two_wolves_sometimes() -> None:
    wins = [
        play_match(
            "colosseum",
            {"advanced": True, "beasts": "blue:wolf,green:wolf", "max_turns": 10},
            seed,
            ["tactician"],
            checked=True,
        ).winners
        for seed in range(6)
    ]
    assert ("red",) in wins


def test_b18_one_beast_biting_keeps_its_pa_from_before_he_turns_as_in_a_hunt() -> None:
    """§9.1.2 (E1, B18): the lion bites him from his side; he turns to face its head, and the
    lion's PA is worked out before the turn, in a pack as in a hunt."""
    state = pack()
    g, lion, wolf = (state.gladiators[s] for s in ("red", "blue", "green"))
    pose(lion, H, 0)
    pose(g, ahead(H, 0), 1)  # in the lion's front, the lion behind his right
    pose(wolf, Hex(2, 9), 0)  # far off
    flank = pa_of(lion, g)
    assert flank > 0
    assert engage(state, [])
    assert g.facing == 3  # turned to face its head
    assert lion.may_attack and lion.pa == flank
    assert pa_of(lion, g) < flank  # from after the turn it would have had less
