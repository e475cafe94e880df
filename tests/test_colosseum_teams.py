"""§27 team combat (Advanced Game, option `teams`): seats and sides (G1, G2), the forced turn
(§27.2, G3), the attack sequence (§27.3, G4), separate attacks and rear hexes (§27.4, G5), the
§27.5 PA bonus (G9, G10), the appeal per beaten man and the end (§18, §27.7, G7, G8), bots,
views and presentation in 3- and 4-seat matches."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from colosseum_helpers import RULES, RiggedDice, of_type
from colosseum_styles_helpers import HERE, styled
from gladiator.bots.random_legal import RandomBot
from gladiator.core.decisions import IllegalOrder
from gladiator.core.dice import Dice
from gladiator.core.hexgrid import Hex, distance, neighbor
from gladiator.core.match import Match
from gladiator.core.record import MatchRecord
from gladiator.rules.colosseum.arena.combat_geometry import in_front
from gladiator.rules.colosseum.combat.allocation import allocation_choice
from gladiator.rules.colosseum.combat.engage import in_rear_hexes, pa_of
from gladiator.rules.colosseum.combat.orders import AllocationChoice
from gladiator.rules.colosseum.end.phase import start_phase
from gladiator.rules.colosseum.state import ColosseumState
from gladiator.sim.runner import play_match

TEAMS = "red+green:blue"


def team_state(teams: str = TEAMS, seed: int = 1, **options: Any) -> ColosseumState:
    """A team match of Myrmillones on hand-made sheets (CF 13), waiting for the first plots."""
    n = teams.count("+") + 2
    opts = RULES.normalise_options(
        {"advanced": True, "teams": teams, "styles": ["myrmillo"] * n, **options}
    )
    state, _ = RULES.initial_state(opts, Dice(seed))
    for i, g in enumerate(state.gladiators.values(), 1):
        g.sheet = styled("myrmillo", id=i, name=g.seat)
    return state


def put(state: ColosseumState, **poses: tuple[Hex, int]) -> None:
    for seat, (h, facing) in poses.items():
        state.gladiators[seat].hex, state.gladiators[seat].facing = h, facing


def pause_all(state: ColosseumState, dice: Any = None) -> list[dict[str, Any]]:
    """Everyone Pauses: the phase goes to the allocation if anyone may attack."""
    return RULES.apply(state, dict.fromkeys(state.gladiators, "X"), dice or Dice(1))


def two_on_one_around(state: ColosseumState) -> None:
    """Blue at HERE facing north; red straight ahead facing him, green straight behind him
    facing him: no facing puts both in blue's front (§27.2's second case)."""
    put(
        state,
        blue=(HERE, 0),
        red=(neighbor(HERE, 0), 3),
        green=(neighbor(HERE, 3), 0),
    )


# -- G1: the option ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("raw", "want"),
    [
        ({"teams": TEAMS}, "set advanced = true"),
        ({"advanced": True, "teams": "red:blue"}, "3 to 12 gladiators, not 2"),
        ({"advanced": True, "teams": "red+blue+green"}, "two sides separated by ':'"),
        ({"advanced": True, "teams": "red+violet:blue"}, "no seat 'violet'"),
        ({"advanced": True, "teams": "red+purple:blue"}, "uses the seats red, blue, green"),
        ({"advanced": True, "teams": "red+gold:blue"}, "uses the seats red, blue, green"),
        ({"advanced": True, "teams": "red+red:blue"}, "each seat on one side, once"),
        ({"advanced": True, "teams": "red+green:blue+gold+x"}, "no seat 'x'"),
        ({"advanced": True, "team_end": "time"}, "set teams"),
        ({"advanced": True, "teams": TEAMS, "styles": ["random"] * 2 + ["myrmillo"]}, None),
        (
            {"advanced": True, "teams": TEAMS, "styles": ["myrmillo"] * 2},
            r"per gladiator \(3\), not 2",
        ),
    ],
)
def test_s27_teams_option_is_checked_in_one_line(raw: dict[str, Any], want: str | None) -> None:
    if want is None:
        assert len(RULES.normalise_options(raw)["styles"]) == 3
        return
    with pytest.raises(ValueError, match=want) as exc:
        RULES.normalise_options(raw)
    assert "\n" not in str(exc.value)


def test_s27_seats_come_from_the_options_and_a_duel_stays_a_duel() -> None:
    assert RULES.seats(RULES.normalise_options({})) == ("red", "blue")
    opts = RULES.normalise_options({"advanced": True, "teams": "blue+gold:red+green"})
    assert RULES.seats(opts) == ("red", "blue", "green", "gold")
    assert opts["teams"] == "blue+gold:red+green"
    assert opts["gladiators"] == ["random"] * 4 and opts["left_handed"] == [False] * 4
    duel = RULES.state_to_dict(RULES.initial_state(RULES.normalise_options({}), Dice(1))[0])
    assert "sides" not in duel and "fallen" not in duel
    assert all("targets" not in g for g in duel["gladiators"])


def test_s4_5_team_lines_face_each_other_four_hexes_apart() -> None:
    state = team_state("red+green:blue+gold")
    g = state.gladiators
    assert {x.facing for x in (g["red"], g["green"])} == {0}
    assert {x.facing for x in (g["blue"], g["gold"])} == {3}
    assert distance(g["red"].hex, g["blue"].hex) == 5
    assert distance(g["green"].hex, g["gold"].hex) == 5
    assert distance(g["red"].hex, g["green"].hex) == 2  # one empty hex between teammates
    assert len({x.hex for x in g.values()}) == 4


# -- §27.2 (G3) ----------------------------------------------------------------------------------
def test_s27_2_single_gladiator_turns_to_put_both_opponents_in_front() -> None:
    """§27.1: two opponents attack him at once, so the team rules apply to him."""
    state = team_state()
    # Blue faces away (south); red north of him and green north-east, both facing him.
    put(state, blue=(HERE, 3), red=(neighbor(HERE, 0), 3), green=(neighbor(HERE, 1), 4))
    events = pause_all(state)
    blue = state.gladiators["blue"]
    # Facings 0 and 1 both hold red and green; 1 is two hex-sides from 3, 0 is three.
    assert blue.facing == 1
    for seat in ("red", "green"):
        assert in_front(blue.pose, state.gladiators[seat].pose)
    assert [e["rule"] for e in of_type(events, "forced_rotation")] == ["§27.2"]
    # Probe: a duel's §9.1.2 would have turned him to face the first attacker only (facing 0 is
    # "toward red"); he now may attack both.
    assert [t for t, _, _ in blue.targets] == ["red", "green"]


def test_s27_2_when_both_cannot_be_in_front_the_total_pa_is_smallest() -> None:
    state = team_state()
    two_on_one_around(state)
    before = state.clone().gladiators
    pause_all(state)
    blue = state.gladiators["blue"]
    attackers = [before["red"], before["green"]]
    totals = {
        f: sum(pa_of(x, replace(before["blue"], facing=f)) for x in attackers) for f in range(6)
    }
    assert totals[blue.facing] == min(totals.values())
    # Probe: facing red (his facing 0) is not the smallest total, green would sit square in his
    # rear (T11's largest bonus).
    assert totals[0] > min(totals.values())


# -- §27.4 (G5) ----------------------------------------------------------------------------------
def _rear_and_front(state: ColosseumState) -> tuple[str, str]:
    blue = state.gladiators["blue"]
    rear = [s for s in ("red", "green") if in_rear_hexes(state.gladiators[s], blue)]
    assert len(rear) == 1, "the setup leaves one attacker in blue's rear hexes"
    front = "green" if rear[0] == "red" else "red"
    return rear[0], front


def test_s27_4_defence_does_not_count_against_a_rear_hex_attack() -> None:
    state = team_state()
    two_on_one_around(state)
    pause_all(state)
    assert state.step == "allocate"
    rear, front = _rear_and_front(state)
    orders = {"blue": "D-HEAD:3", rear: "A-BLUE-HEAD:2", front: "A-BLUE-HEAD:2"}
    events = RULES.apply(state, orders, RiggedDice(3, {}))
    crt = {e["side"]: e["text"] for e in of_type(events, "crt")}
    seat_index = list(state.gladiators).index
    assert "2 CF against 0 defence" in crt[seat_index(rear)]
    # Probe: the same defence counts in full against the other attack on that area.
    assert "2 CF against 3 defence" in crt[seat_index(front)]
    assert [e["rule"] for e in of_type(events, "rear_attack")] == ["§27.4"]


def test_s27_4_two_opponents_attack_cfs_are_never_combined() -> None:
    state = team_state()
    put(state, blue=(HERE, 0), red=(neighbor(HERE, 0), 3), green=(neighbor(HERE, 1), 4))
    pause_all(state)
    orders = {"blue": "D-CHEST:2", "red": "A-BLUE-CHEST:4", "green": "A-BLUE-CHEST:4"}
    events = RULES.apply(state, orders, RiggedDice(3, {}))
    texts = [e["text"] for e in of_type(events, "crt")]
    assert len(texts) == 2
    assert all("4 CF against 2 defence, modified CF 2" in t for t in texts)
    assert not any("8 CF" in t for t in texts)  # probe: not one 8-CF attack


# -- §27.3 (G4) ----------------------------------------------------------------------------------
def test_s27_3_adjacent_unattacked_opponent_attacks_first_whatever_the_cfs() -> None:
    state = team_state()
    put(state, blue=(HERE, 0), red=(neighbor(HERE, 0), 3), green=(neighbor(HERE, 1), 4))
    pause_all(state)
    assert {t for t, _, _ in state.gladiators["blue"].targets} == {"red", "green"}
    orders = {"blue": "A-RED-CHEST:6", "red": "A-BLUE-HEAD:3", "green": "A-BLUE-LEGS:1"}
    events = RULES.apply(state, orders, RiggedDice(3, {}))
    (seq,) = of_type(events, "attack_sequence")
    order = [(a["side"], a["cf"]) for step in seq["steps"] for a in step]
    red, blue, green = 0, 1, 2
    # Probe: by CF alone (§9.4.4) blue's 6 would strike first.
    assert order == [(red, 3), (green, 1), (blue, 6)]
    (yielded,) = of_type(events, "yield")  # the log says so (G4)
    assert yielded["rule"] == "§27.3" and (yielded["side"], yielded["to"]) == (blue, [green])
    assert (
        f"round {yielded['round']}: blue yields to green, whom he does not attack"
        in (yielded["text"])
    )


def test_s27_3_a_man_attacking_every_adjacent_opponent_keeps_cf_order() -> None:
    state = team_state()
    put(state, blue=(HERE, 0), red=(neighbor(HERE, 0), 3), green=(neighbor(HERE, 1), 4))
    pause_all(state)
    orders = {"blue": "A-RED-CHEST:6 A-GREEN-HEAD:1", "red": "A-BLUE-HEAD:3", "green": "-"}
    events = RULES.apply(state, orders, RiggedDice(3, {}))
    (seq,) = of_type(events, "attack_sequence")
    first = seq["steps"][0][0]
    assert (first["side"], first["cf"]) == (1, 6)
    assert not of_type(events, "yield")


# -- §27.3.1, §27.5 (G9, G10) --------------------------------------------------------------------
def test_s27_3_1_each_attack_box_names_one_target() -> None:
    state = team_state()
    put(state, blue=(HERE, 0), red=(neighbor(HERE, 0), 3), green=(neighbor(HERE, 1), 4))
    pause_all(state)
    d = RULES.pending(state)["blue"]
    assert isinstance(d, AllocationChoice) and d.named
    described = d.to_dict()
    assert {"slot": "A-GREEN-HEAD", "target": "green", "area": "head"} in described["attack_slots"]
    assert d.validate("A-GREEN-HEAD:2 A-RED-CHEST:3") == "A-GREEN-HEAD:2 A-RED-CHEST:3"
    with pytest.raises(IllegalOrder, match="the head may be attacked once"):
        d.validate("A-RED-HEAD:2 A-GREEN-HEAD:2")
    rng = random.Random(4)
    for _ in range(200):  # the random bot's draws are all legal
        d.validate(d.sample(rng))


def test_s27_5_note_ten_cf_and_three_pa_make_an_eleven_cf_attack() -> None:
    state = team_state()
    put(state, red=(HERE, 0), blue=(neighbor(HERE, 0), 3))  # his sword reaches blue (S10)
    g = state.gladiators["red"]
    g.may_attack, g.available, g.pa = True, 13, 3  # 10 CF + 3 PA
    g.targets = (("blue", 3, 11),)  # outside the single gladiator's front, two on one
    d = allocation_choice(g, state)
    assert d.validate("A-BLUE-HEAD:11 A-BLUE-CHEST:2") == "A-BLUE-HEAD:11 A-BLUE-CHEST:2"
    with pytest.raises(IllegalOrder):
        d.validate("A-BLUE-HEAD:12")
    g.targets = (("blue", 3, 8),)  # one on one: at most 8 on one attack (§9.3.2)
    with pytest.raises(IllegalOrder, match=r"0\.\.8"):
        allocation_choice(g, state).validate("A-BLUE-HEAD:11")
    g.available, g.targets = 20, (("blue", 3, 11),)
    with pytest.raises(IllegalOrder, match="only one attack may exceed 8"):
        allocation_choice(g, state).validate("A-BLUE-HEAD:9 A-BLUE-CHEST:9")


def test_s27_5_only_an_attacker_outside_the_single_mans_front_gets_the_bonus() -> None:
    state = team_state()
    two_on_one_around(state)
    pause_all(state)
    rear, front = _rear_and_front(state)
    r, f = state.gladiators[rear], state.gladiators[front]
    ((_, rear_pa, rear_cap),) = r.targets
    ((_, _, front_cap),) = f.targets
    assert rear_pa > 0 and rear_cap == 8 + rear_pa
    assert front_cap == 8
    # The bonus attack resolves at its full CF.
    r.available = max(r.available, rear_cap)
    events = RULES.apply(
        state, {"blue": "-", rear: f"A-BLUE-CHEST:{rear_cap}", front: "-"}, RiggedDice(3, {})
    )
    (crt,) = of_type(events, "crt")
    assert f"{rear_cap} CF against 0 defence" in crt["text"]


# -- §18, §27.7 (G7, G8) -------------------------------------------------------------------------
def test_s18_each_beaten_man_appeals_and_the_others_fight_on() -> None:
    state = team_state()
    put(state, blue=(HERE, 0), green=(neighbor(HERE, 0), 3), red=(Hex(3, 3), 0))
    green = state.gladiators["green"]
    green.posture = "prone"
    green.moves_used = green.sheet.move + 1  # none left, the §17.3 extra one too (§18.2)
    events: list[dict[str, Any]] = []
    start_phase(state, RiggedDice(1, {"§18.3": [(6, 6)]}), events)
    assert [e["seat"] for e in of_type(events, "appeal")] == ["green"]
    assert "green" in state.fallen and state.fallen["green"].alive  # spared, he has left
    assert state.step == "plot" and set(RULES.pending(state)) == {"red", "blue"}
    # Probe: a duel's appeal would have ended the match with blue the winner.
    assert RULES.outcome(state) is None


def _random_match(teams: str, seed: int, **options: Any) -> Match:
    m = Match(RULES, {"advanced": True, "teams": teams, **options}, seed=seed, nonce="n")
    bot, rng = RandomBot(), random.Random(seed)
    while not m.finished:
        m.apply_step({s: bot.choose(RULES, m.state, s, d, rng) for s, d in m.pending().items()})
    return m


@pytest.mark.parametrize(("teams", "seed"), [("red+green:blue", 7), ("red+green:blue+gold", 8)])
def test_s27_7_2_random_bots_play_to_the_last_side_standing_and_replay(
    teams: str, seed: int
) -> None:
    m = _random_match(teams, seed)
    outcome = m.outcome
    assert outcome is not None
    sides = [tuple(side.split("+")) for side in teams.split(":")]
    if outcome.method not in ("stans missus", "time"):
        assert outcome.winners in sides
        loser = sides[1] if outcome.winners == sides[0] else sides[0]
        assert all(s in m.state.fallen for s in loser)
    record = MatchRecord.from_json(m.record().to_json())
    again = Match.replay(record, RULES)
    assert RULES.state_hash(again.state) == RULES.state_hash(m.state)


def test_s27_7_1_time_limit_option_ends_after_team_turns() -> None:
    m = _random_match(TEAMS, 11, team_end="time", team_turns=1)
    outcome = m.outcome
    assert outcome is not None and m.state.turn == 1
    if outcome.method == "time":
        counts = [0, 0]
        for seat in m.state.gladiators:
            counts[m.state.side(seat)] += 1
        want = (
            ()
            if counts[0] == counts[1]
            else (("red", "green") if counts[0] > counts[1] else ("blue",))
        )
        assert outcome.winners == want


# -- bots ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("bot", ["tactician", "centurion"])
def test_s27_one_opponent_bots_play_a_team_match(bot: str) -> None:
    summary = play_match(
        "colosseum", {"advanced": True, "teams": TEAMS, "max_turns": 3}, 5, [bot], checked=True
    )
    assert summary.method


def test_s27_tactician_aims_at_the_nearest_opponent_he_may_attack() -> None:
    from gladiator.bots.tactician.bot import TacticianBot

    state = team_state()
    put(state, blue=(HERE, 0), red=(neighbor(HERE, 0), 3), green=(neighbor(HERE, 1), 4))
    pause_all(state)
    red = state.gladiators["red"]
    d = RULES.pending(state)["blue"]
    order = TacticianBot().choose(RULES, state, "blue", d, random.Random(1))
    assert "GREEN" not in order or "RED" not in order  # one opponent at a time
    assert red.alive


# -- views (§27.6) and presentation --------------------------------------------------------------
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), first=st.sampled_from(["red", "green"]))
def test_s27_6_a_seats_view_never_holds_another_seats_plot(seed: int, first: str) -> None:
    m = Match(RULES, {"advanced": True, "teams": TEAMS}, seed=seed, nonce="n")
    rng = random.Random(seed)
    blue_before = m.view("blue")
    d = m.pending()[first]
    order = d.sample(rng)
    m.submit(first, order)
    blue_after = m.view("blue")
    # What blue sees changed only in who has given an order.
    for v in (blue_before, blue_after):
        v.pop("waiting_for")
        v.pop("submitted")
    assert blue_after == blue_before
    assert m.view(first)["my_order"] == order
    other = "green" if first == "red" else "red"
    assert "my_order" not in m.view(other) and "my_order" not in m.view(None)


def test_s27_text_and_scene_show_every_gladiator_and_his_side() -> None:
    state = team_state("red+green:blue+gold")
    text = RULES.render_text(state, None)
    assert "sides: red+green v blue+gold" in text
    assert "Y" in text.split("\n\n")[1]  # gold's letter on the map
    scene = RULES.scene(state, "green")
    assert [f["side"] for f in scene["figures"]] == ["red+green", "blue+gold"] * 2
    assert scene["sides"] == [["red", "green"], ["blue", "gold"]]
    json.dumps(scene)


# -- the command line ----------------------------------------------------------------------------
def test_s27_sim_reports_results_by_side_and_refuses_bad_teams_in_one_line() -> None:
    from typer.testing import CliRunner

    from gladiator.cli.main import app

    cli = CliRunner()
    args = ["sim", "colosseum", "-o", "advanced=true", "-o", f"teams={TEAMS}"]
    done = cli.invoke(app, [*args, "--matches", "3", "--seed", "1", "--json"])
    assert done.exit_code == 0, done.stderr
    summary = json.loads(done.stdout)
    assert sum(row["matches"] for row in summary["by_side"]) == 3
    assert {row["side"] for row in summary["by_side"]} <= {"red+green", "blue", "draw"}
    bad = cli.invoke(app, ["sim", "colosseum", "-o", "advanced=true", "-o", "teams=red:blue"])
    assert bad.exit_code == 2 and "Traceback" not in bad.stdout + bad.stderr
    assert next(ln for ln in bad.stderr.splitlines() if ln.strip()).startswith("error: ")


def test_s27_a_duels_options_hold_no_team_keys_so_its_records_are_unchanged() -> None:
    opts = RULES.normalise_options({"advanced": True})
    assert not {"teams", "team_end", "team_turns"} & set(opts)
    assert RULES.normalise_options(opts) == opts
    team = RULES.normalise_options({"advanced": True, "teams": TEAMS})
    assert team["team_end"] == "last_standing" and team["team_turns"] == 5
