"""The Colosseum Basic Game engine (§4-§18): whole matches through the protocol."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gladiator.core.decisions import ChooseOne, Distribute, IllegalOrder
from gladiator.core.hexgrid import distance
from gladiator.core.match import Match
from gladiator.rules.colosseum.arena.combat_geometry import in_front
from gladiator.rules.colosseum.engine import ColosseumRules
from gladiator.rules.colosseum.plots.plots import parse_plot, path

RULES = ColosseumRules()


def play_random(seed: int, options: dict[str, object] | None = None) -> Match:
    m = Match(RULES, options or {"gladiators": ["medium", "medium"]}, seed=seed, nonce="")
    rng = random.Random(seed)
    while not m.finished:
        m.apply_step({s: d.sample(rng) for s, d in m.pending().items()})
    return m


def aggressive_order(m: Match, seat: str) -> str:
    """Close in and face him; put 8 CF on the chest, the rest on chest defence."""
    d = m.pending()[seat]
    me = m.state.gladiators[seat]
    foe = next(g for s, g in m.state.gladiators.items() if s != seat)
    if isinstance(d, ChooseOne):

        def key(text: str) -> tuple[int, int, str]:
            end = path(parse_plot(text), me.hex, me.facing)[-1]
            facing = 0 if in_front((end.hex, end.facing), (foe.hex, foe.facing)) else 1
            return (max(distance(end.hex, foe.hex), 1), facing, text)

        return min(d.texts(), key=key)
    assert isinstance(d, Distribute)
    attack = min(8, d.budget) if me.may_attack else 0
    parts = [f"A-CHEST:{attack}"] if attack else []
    if d.budget - attack > 0:
        parts.append(f"D-CHEST:{d.budget - attack}")
    return " ".join(parts) or "-"


def play_aggressive(seed: int) -> Match:
    m = Match(RULES, {"gladiators": ["medium", "medium"]}, seed=seed, nonce="")
    while not m.finished:
        m.apply_step({s: aggressive_order(m, s) for s in m.pending()})
    return m


def test_options_are_checked_with_one_line_errors() -> None:
    assert RULES.normalise_options({})["gladiators"] == ["random", "random"]
    with pytest.raises(ValueError, match="bad colosseum option gladiators") as err:
        RULES.normalise_options({"gladiators": ["medium", "ogre"]})
    assert "\n" not in str(err.value)
    with pytest.raises(ValueError, match="duel"):
        RULES.normalise_options({"gladiators": ["light"]})
    with pytest.raises(ValueError):
        RULES.normalise_options({"max_turns": "3"})  # strict


def test_section_4_5_setup_faces_each_other_five_apart() -> None:
    m = Match(RULES, {"gladiators": ["light", "heavy"]}, seed=3, nonce="")
    red, blue = m.state.gladiators["red"], m.state.gladiators["blue"]
    assert distance(red.hex, blue.hex) == 5
    assert in_front((red.hex, red.facing), (blue.hex, blue.facing)) is False  # 4 hexes between
    assert red.sheet.gladiator_class == "light" and blue.sheet.gladiator_class == "heavy"
    assert any(r.rule == "§3.11.1" for r in m.rolls)


@settings(deadline=None, max_examples=6)
@given(st.integers(min_value=0, max_value=2**32))
def test_random_legal_play_always_ends_within_max_turns(seed: int) -> None:
    m = play_random(seed, {"max_turns": 6, "gladiators": ["random", "random"]})
    assert m.outcome is not None
    assert m.state.turn <= 6
    assert m.outcome.method in ("killed", "missus", "mercy", "stans missus", "time")


def test_replay_of_the_record_is_exact() -> None:
    m = play_aggressive(2)
    again = Match.replay(m.record(), RULES)
    assert again.ruleset.state_hash(again.state) == RULES.state_hash(m.state)
    r = play_random(5)
    Match.replay(r.record(), RULES)


def test_section_5_2_plots_and_allocations_are_secret() -> None:
    m = Match(RULES, {"gladiators": ["medium", "medium"]}, seed=11, nonce="")
    while True:
        pending = m.pending()
        for d in pending.values():
            assert d.secret
        kinds = {type(d) for d in pending.values()}
        order = {s: aggressive_order(m, s) for s in pending}
        before = {w: m.view(w) for w in ("blue", None)}
        m.submit("red", order["red"])
        # blue's and the spectator's views are unchanged but for who has submitted; red's own
        # view shows his order.
        for w, was in before.items():
            now = m.view(w)
            for k in ("submitted", "waiting_for"):
                now.pop(k), was.pop(k)
            assert now == was
        blue_view = json.dumps(m.view("blue"))
        assert "my_order" not in m.view("blue")
        assert m.view("red")["my_order"] == order["red"] or order["red"] in json.dumps(
            m.view("red")
        )
        assert m.view("blue")["submitted"] == ["red"]
        assert "decision" in json.loads(blue_view)
        m.submit("blue", order["blue"])
        if any(issubclass(k, Distribute) for k in kinds) or m.finished:
            break
    assert any(issubclass(k, Distribute) for k in kinds)


def test_section_7_6_an_illegal_plot_lists_the_legal_ones() -> None:
    m = Match(RULES, {"gladiators": ["medium", "medium"]}, seed=1, nonce="")
    with pytest.raises(IllegalOrder) as err:
        m.submit("red", "F F F")
    assert "legal:" in str(err.value) and "X" in err.value.legal
    before = RULES.state_hash(m.state)
    assert m.waiting_for() == ["red", "blue"] and RULES.state_hash(m.state) == before


def test_section_5_4_1_stans_missus_ends_a_match() -> None:
    found = None
    for seed in range(40):
        m = play_random(seed)
        if m.outcome is not None and m.outcome.method == "stans missus":
            found = m
            break
    assert found is not None
    stops = [e for e in found.events if e.get("type") == "stans_missus_roll" and e["stopped"]]
    assert len(stops) == 1
    assert found.state.turn >= 3
    appeals = [e for e in found.events if e.get("type") == "appeal"]
    assert len(appeals) == 2  # §18.3: both appeal on stans missus
    assert [r.rule for r in found.rolls].count("§18.3") == 2


def test_section_17_2_endurance_loss_is_recorded() -> None:
    for seed in range(20):
        m = play_random(seed)
        lost = [e for e in m.events if e.get("type") == "endurance" and e["lost"] > 0]
        if lost:
            seat = lost[0]["seat"]
            sheet = m.state.gladiators[seat].sheet
            assert sheet.cf_lost_to_endurance > 0
            assert any(p.endurance_cf_lost for p in sheet.plot)
            return
    pytest.fail("no endurance loss in 20 matches")


def test_deterministic_playthrough_seed_2() -> None:
    m = play_aggressive(2)
    rules = [e.get("rule", "") for e in m.events]
    assert any(r.startswith("§9.5") for r in rules), "a CRT roll"
    assert "§10.1" in [r.rule for r in m.rolls], "a wound roll"
    assert any(e.get("type") == "wound_roll" for e in m.events)
    assert m.outcome is not None
    out = m.outcome
    assert (out.winners, out.method) == EXPECTED_SEED_2
    assert (m.state.turn, m.state.phase) == (1, 5)
    assert not m.state.gladiators["blue"].alive
    text = RULES.render_text(m.state, None)
    # §2.3.1: two medium gladiators take the medium counters 5 and 6.
    assert "#5 red" in text and "#6 blue" in text


def test_section_2_3_1_counter_numbers_by_class() -> None:
    """§2.3.1, §3.2: counters 1-4 are light, 5-8 medium, 9-12 heavy; the sheet's ID is the
    counter's number."""
    from gladiator.core.dice import Dice

    for pair, ids in {
        ("light", "heavy"): (1, 9),
        ("heavy", "heavy"): (9, 10),
        ("medium", "light"): (5, 1),
    }.items():
        state, _ = RULES.initial_state(RULES.normalise_options({"gladiators": list(pair)}), Dice(1))
        got = tuple(state.gladiators[s].sheet.id for s in ("red", "blue"))
        assert got == ids, pair


EXPECTED_SEED_2: tuple[tuple[str, ...], str] = (("red",), "killed")


def test_views_are_json_and_heuristic_is_bounded() -> None:
    m = Match(RULES, {"gladiators": ["medium", "medium"]}, seed=4, nonce="")
    for seat in (None, "red", "blue"):
        json.dumps(m.view(seat))
    assert -1.0 <= RULES.heuristic(m.state, "red") <= 1.0
    assert RULES.lookahead() == 0
    assert RULES.seat_label(m.state, "red") == "medium"


def test_section_7_2_a_plot_may_be_typed_in_any_spelling_of_the_notation() -> None:
    """§7.2 (plots.py notation): `ff(r)` is the plot `F F(R)`; a malformed plot is refused with
    the notation's own message."""
    m = Match(RULES, {"gladiators": ["medium", "medium"]}, seed=11, nonce="")
    assert m.check("red", "ff(r)") == "F F(R)"
    with pytest.raises(IllegalOrder, match="'F F F' is illegal"):
        m.check("red", "F F F")


def test_q25_the_allocation_keeps_the_attack_order_as_written() -> None:
    """Q25: the order of one's own attacks is part of the secret allocation: written chest
    first, it stays chest first (a plain Distribute would sort it)."""
    from gladiator.rules.colosseum.combat.cf_allocation import allocation_decision
    from gladiator.rules.colosseum.combat.orders import AllocationChoice

    decision = AllocationChoice(
        prompt="p", secret=True, budget=9, slots=allocation_decision(9).slots
    )
    assert decision.validate("A2:chest A3:head D2:arms") == "A-CHEST:2 A-HEAD:3 D-ARMS:2"
    assert decision.validate("A-HEAD:3 A-CHEST:2") == "A-HEAD:3 A-CHEST:2"
    with pytest.raises(IllegalOrder):
        decision.validate("A9:head")  # §9.3.2: at most 8 CF on one area


def test_section_13_4_a_dropped_weapon_within_a_hex_is_tried_for_after_movement() -> None:
    """§7.4 R, §13.4, §13.4.1: with his weapon at his feet, R is offered; after movement he rolls
    1D6 + T14 DRMs (R: −6) and recovers it below 1, the item leaving the floor; §13.4.2 half CF."""
    from gladiator.rules.colosseum.state import GroundItem

    for seed in range(12):
        m = Match(RULES, {"gladiators": ["medium", "medium"]}, seed=seed, nonce="")
        red = m.state.gladiators["red"]
        red.has_weapon = False
        m.state.items.append(GroundItem("weapon", "red", red.hex))
        m._pending = None  # the state was changed by hand
        assert "R" in m.pending()["red"].legal()  # type: ignore[operator]
        m.submit("red", "R")
        m.submit("blue", "X")
        tries = [e for e in m.events if e.get("type") == "recovery"]
        assert len(tries) == 1 and "§13.4.1" in str(tries[0])
        recovered = "recovered" in tries[0]["text"]
        assert red.has_weapon is recovered
        assert (not m.state.items) is recovered
        if recovered:
            return
    raise AssertionError("no recovery in 12 tries with the −6 of a careful R")
