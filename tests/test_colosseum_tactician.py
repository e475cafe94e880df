"""The Colosseum tactician bot and its evaluation (§6.2, §8.3, §9.1-§9.6, §10, §13.4, §14, §16):
legal, blind to the other seat's secret orders, repeatable for a seed, and better than random."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from gladiator.bots import make_bot
from gladiator.bots.colosseum_evaluation import (
    KILL,
    attack_curve,
    best_allocation,
    crt_outcomes,
    engagement,
    hit_value,
)
from gladiator.bots.random_legal import RandomBot
from gladiator.bots.tactician.bot import TacticianBot
from gladiator.cli.main import app
from gladiator.core.decisions import ChooseOne, Distribute
from gladiator.core.hexgrid import Hex, neighbor_at
from gladiator.core.match import Match
from gladiator.registry import get
from gladiator.rules.colosseum.engine import ColosseumRules
from gladiator.rules.colosseum.plots.plots import parse_plot, path
from gladiator.rules.colosseum.state import GroundItem
from gladiator.sim.bench import bench_bots
from gladiator.sim.runner import default_bots, play_match, run_batch

RULES = ColosseumRules()
BOT = TacticianBot()


def steps_until(seed: int, kind: type, options: dict[str, object] | None = None) -> list[dict]:
    """The orders of a tactician-vs-tactician match up to its first decision of `kind`."""
    m = Match(RULES, options or {"gladiators": ["medium", "medium"]}, seed=seed, nonce="")
    rng = random.Random(seed)
    steps: list[dict[str, str]] = []
    while not m.finished:
        pending = m.pending()
        if all(isinstance(d, kind) for d in pending.values()) and steps:
            return steps
        orders = {s: BOT.choose(RULES, m.state, s, d, rng) for s, d in pending.items()}
        steps.append(orders)
        m.apply_step(orders)
    raise AssertionError(f"seed {seed}: no {kind.__name__} decision")


def replayed(seed: int, steps: list[dict], options: dict[str, object] | None = None) -> Match:
    m = Match(RULES, options or {"gladiators": ["medium", "medium"]}, seed=seed, nonce="")
    for orders in steps:
        m.apply_step(orders)
    return m


# --- the bot in whole matches -----------------------------------------------------------------


@settings(deadline=None, max_examples=5)
@given(
    st.integers(min_value=0, max_value=2**32),
    st.sampled_from(["light", "medium", "heavy", "random"]),
    st.sampled_from(["light", "medium", "heavy", "random"]),
)
def test_every_order_of_the_tactician_is_legal_as_given(seed: int, red: str, blue: str) -> None:
    """§5.2.1, §9.3: every plot and allocation it gives is already a legal, canonical order."""
    m = Match(RULES, {"gladiators": [red, blue]}, seed=seed, nonce="")
    rng = random.Random(seed)
    opponent = RandomBot() if seed % 2 else BOT
    while not m.finished:
        orders = {}
        for s, d in m.pending().items():
            bot = BOT if s == "red" else opponent
            order = bot.choose(RULES, m.state, s, d, rng)
            assert d.validate(order) == order
            orders[s] = order
        m.apply_step(orders)
    assert m.outcome is not None


@pytest.mark.parametrize("kind", [ChooseOne, Distribute])
def test_section_5_2_its_choice_does_not_depend_on_the_other_seats_secret_order(
    kind: type,
) -> None:
    """§5.2.2, §9.4.1: red's order waits unrevealed in the Match; blue's choice is the same
    whichever plot or allocation red has already submitted."""
    seed = 3
    steps = steps_until(seed, kind)
    probe = replayed(seed, steps)
    red_decision = probe.pending()["red"]
    if isinstance(red_decision, ChooseOne):
        red_orders = red_decision.texts()[:: max(1, len(red_decision.texts()) // 4)]
    else:
        red_orders = [red_decision.sample(random.Random(k)) for k in range(4)]
    assert len(set(red_orders)) >= 3
    seen = set()
    for red_order in red_orders:
        m = replayed(seed, steps)
        m.submit("red", red_order)
        assert m.waiting_for() == ["blue"]
        decision = m.pending()["blue"]
        choices = tuple(
            BOT.choose(RULES, m.state, "blue", decision, random.Random(k)) for k in range(6)
        )
        seen.add(choices)
    assert len(seen) == 1


def test_a_match_between_tacticians_repeats_exactly_for_a_seed() -> None:
    a = play_match("colosseum", {}, 12345, ["tactician"], keep_record=True)
    b = play_match("colosseum", {}, 12345, ["tactician"], keep_record=True)
    assert a.record_json == b.record_json
    c = play_match("colosseum", {}, 12346, ["tactician"], keep_record=True)
    assert c.record_json != a.record_json


def test_section_9_3_its_allocation_varies_with_its_own_rng_only() -> None:
    """Not a fixed pattern: the same allocation decision, different bot seeds, several orders;
    the same bot seed, the same order."""
    seed = 5
    m = replayed(seed, steps_until(seed, Distribute))
    d = m.pending()["red"]
    by_seed = [BOT.choose(RULES, m.state, "red", d, random.Random(k)) for k in range(24)]
    again = [BOT.choose(RULES, m.state, "red", d, random.Random(k)) for k in range(24)]
    assert by_seed == again
    assert len(set(by_seed)) >= 2


def test_tactician_beats_random_legal_in_a_seeded_mini_sim() -> None:
    """40 matches, seats alternating: the tactician wins nearly all of them."""
    wins = 0
    for i in range(40):
        bots = ["tactician", "random"] if i % 2 == 0 else ["random", "tactician"]
        s = play_match("colosseum", {"gladiators": ["medium", "medium"]}, 900 + i, bots, index=i)
        wins += ("red" if i % 2 == 0 else "blue") in s.winners
    assert wins == 36
    assert wins >= 30


def test_outside_the_colosseum_it_plays_random_legal_orders() -> None:
    """A decision it does not understand gets the random-legal bot's order (same rng draws)."""
    q = get("quick")
    m = Match(q, {}, seed=4, nonce="")
    seat, decision = next(iter(m.pending().items()))
    for k in range(5):
        mine = BOT.choose(q, m.state, seat, decision, random.Random(k))
        assert mine == RandomBot().choose(q, m.state, seat, decision, random.Random(k))
    assert play_match("quick", {}, 4, ["tactician", "random"]).method


# --- plotting ---------------------------------------------------------------------------------


def fresh(seed: int = 1, **options: Any) -> Match:
    return Match(RULES, {"gladiators": ["medium", "medium"], **options}, seed=seed, nonce="")


def ends_in(m: Match, seat: str, order: str) -> tuple[Hex, int]:
    g = m.state.gladiators[seat]
    end = path(parse_plot(order), g.hex, g.facing)[-1]
    return end.hex, end.facing


def test_section_9_1_it_closes_in_and_keeps_the_opponent_in_its_front() -> None:
    """§6.2, §9.1: from the §4.5 start, five hexes apart, it charges and ends facing him."""
    m = fresh()
    blue = m.state.gladiators["blue"]
    order = BOT.choose(RULES, m.state, "red", m.pending()["red"], random.Random(0))
    h, f = ends_in(m, "red", order)
    e = engagement(h, f, blue.hex, blue.facing, his_left=False, my_left=False)
    assert e.distance < 5 - 1  # more than one hex nearer
    assert e.distance == 2 and order == "C"


def test_section_8_3_it_enters_the_hex_of_a_prone_opponent() -> None:
    """§8.3, §18.2.1: a Prone man whose hex he enters is at his mercy (blue writes KN, so §8.3
    is read to the letter, option `prone_kn = "mercy"`, M5)."""
    m = fresh(prone_kn="mercy")
    red, blue = m.state.gladiators["red"], m.state.gladiators["blue"]
    blue.hex = neighbor_at(red.hex, red.facing, 0)  # right in front of red
    blue.posture = "prone"
    order = BOT.choose(RULES, m.state, "red", m.pending()["red"], random.Random(0))
    g = m.state.gladiators["red"]
    assert blue.hex in {p.hex for p in path(parse_plot(order), g.hex, g.facing)}
    m.apply_step({"red": order, "blue": m.pending()["blue"].texts()[0]})
    assert m.outcome is not None and m.outcome.winners == ("red",)


def test_section_16_4_prone_it_kneels_and_section_14_kneeling_it_stands() -> None:
    m = fresh()
    red = m.state.gladiators["red"]
    red.posture = "prone"
    order = BOT.choose(RULES, m.state, "red", m.pending()["red"], random.Random(0))
    assert parse_plot(order).actions == ("KN",)
    red.posture = "kneeling"
    order = BOT.choose(RULES, m.state, "red", m.pending()["red"], random.Random(0))
    acts = parse_plot(order).actions
    assert acts and acts not in (("KN",), ("X",))


def test_section_13_4_without_a_weapon_it_goes_to_pick_it_up() -> None:
    m = fresh()
    red = m.state.gladiators["red"]
    red.has_weapon = False
    m.state.items.append(GroundItem("weapon", "red", neighbor_at(red.hex, red.facing, 3)))
    order = BOT.choose(RULES, m.state, "red", m.pending()["red"], random.Random(0))
    assert parse_plot(order).actions == ("R",)  # §13.4.1: R betters the pick-up roll


# --- allocating -------------------------------------------------------------------------------


def test_section_9_3_2_allocation_respects_the_budget_and_8_per_attack() -> None:
    seed = 8
    m = replayed(seed, steps_until(seed, Distribute))
    for seat, d in m.pending().items():
        assert isinstance(d, Distribute)
        order = BOT.choose(RULES, m.state, seat, d, random.Random(1))
        amounts = d.parse(order)
        assert sum(amounts.values()) <= d.budget
        assert all(v <= 8 for k, v in amounts.items() if k.startswith("A-"))


def test_section_9_3_allocation_puts_all_into_attack_on_a_foe_who_cannot_strike() -> None:
    """No threat, no defence: the CF go to attacks, at most 8 an area (§9.3.2)."""
    flat = [[0.0] * 30 for _ in range(5)]
    rising = [[float(cf) for cf in range(9)] for _ in range(5)]
    plan = best_allocation(20, [8] * 5, rising, [0.0] * 5, flat)
    assert sum(plan.attack) == 20 and max(plan.attack) <= 8 and sum(plan.defence) == 0
    plan = best_allocation(12, [0] * 5, rising, [1.0] + [0.0] * 4, [list(range(20, 0, -1))] * 5)
    assert sum(plan.attack) == 0 and plan.defence[0] == 12  # §9.1: may not attack
    assert plan.slots_text() == "D-HEAD:12"


# --- the evaluation ---------------------------------------------------------------------------


def test_section_9_5_crt_outcomes_are_a_distribution_and_more_cf_hits_more() -> None:
    def p_hit(modified: int) -> float:
        return sum(p for p, code, _ in crt_outcomes(modified, True, True) if code == "H")

    for modified in (-6, 0, 1, 4, 8, 11):
        assert sum(p for p, _, _ in crt_outcomes(modified, True, True)) == pytest.approx(1.0)
    assert p_hit(-3) < p_hit(1) < p_hit(4) < p_hit(8) < p_hit(10)
    assert p_hit(8) == pytest.approx(196 / 216)  # column 8: H from a roll of 7 up (T5)


def test_section_9_6_a_defender_without_a_shield_cannot_take_shield_hits() -> None:
    codes = {code for _, code, _ in crt_outcomes(3, True, False)}
    assert "S" not in codes and "S*" not in codes and "P" in codes


def test_section_10_2_armour_lowers_the_worth_of_a_hit_and_10_3_2_a_full_area_kills() -> None:
    m = fresh(2)
    g = m.state.gladiators["blue"]
    armoured = [
        a for a in ("head", "chest", "groin", "arms", "legs") if g.sheet.armour_of(a).letter
    ]
    bare = [a for a in ("chest", "groin", "arms", "legs") if not g.sheet.armour_of(a).letter]
    assert armoured and bare
    assert hit_value(g, "head", 0) < max(hit_value(g, a, 0) for a in bare)
    area = bare[0]
    fresh_worth = hit_value(g, area, 0)
    wounds = list(g.sheet.wounds)
    wounds[("head", "chest", "groin", "arms", "legs").index(area)] = g.sheet.w - 1
    g.sheet = g.sheet.model_copy(update={"wounds": tuple(wounds)})
    assert hit_value(g, area, 0) > 0.6 * KILL > fresh_worth  # one wound more kills
    curve = attack_curve(g, area, 0, "rules")
    assert curve[0] == 0.0 and curve[8] > curve[4] > curve[1]


def test_section_9_2_positional_advantage_from_behind_and_in_front() -> None:
    """T11: an attacker in the defender's rear hex has +6; face to face, 0 each (§9.1.3)."""
    me, him = Hex(0, 0), Hex(0, 1)
    from gladiator.core.hexgrid import direction_to

    toward = direction_to(me, him)
    assert toward is not None
    face = engagement(me, toward, him, (toward + 3) % 6, his_left=False, my_left=False)
    assert (face.distance, face.mine, face.his, face.my_pa, face.his_pa) == (1, True, True, 0, 0)
    behind = engagement(me, toward, him, toward, his_left=False, my_left=False)
    assert behind.mine and not behind.his and behind.my_pa == 6


# --- simulation defaults ----------------------------------------------------------------------


def test_sim_plays_the_tactician_by_default_for_the_colosseum_only() -> None:
    assert default_bots("colosseum") == ["tactician"]
    assert default_bots("quick") == ["greedy"]
    assert bench_bots("colosseum") == ("random", "greedy", "tactician")
    assert bench_bots("skirmish") == ("random", "greedy")
    result = CliRunner().invoke(
        app, ["sim", "colosseum", "--matches", "4", "--seed", "3", "--json"]
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["bots"] == ["tactician"] and summary["matches"] == 4
    chosen = CliRunner().invoke(
        app, ["sim", "colosseum", "--matches", "2", "--bots", "random", "--json"]
    )
    assert json.loads(chosen.stdout)["bots"] == ["random"]


def test_a_batch_of_tacticians_does_not_depend_on_jobs() -> None:
    one = run_batch("colosseum", {}, 6, 2, ["tactician"], jobs=1)
    two = run_batch("colosseum", {}, 6, 2, ["tactician"], jobs=2)
    assert [(r.winners, r.method, r.steps) for r in one] == [
        (r.winners, r.method, r.steps) for r in two
    ]
    assert make_bot("Tactician").name == "tactician"
