"""The tactician's Advanced Game orders (issue 38): §22's special attacks and defences priced in
its allocation (bots/tactician/specials.py), §20's net attacks with their plot, Repel Net, and
the escape and drag CFs (bots/tactician/nets.py)."""

from __future__ import annotations

import random

from colosseum_helpers import RULES, place
from colosseum_styles_helpers import HERE, arena, to_combat
from gladiator.bots.colosseum_evaluation import best_allocation
from gladiator.bots.tactician.bot import TacticianBot, Weights
from gladiator.bots.tactician.nets import net_allocation, net_worth, repel_worth
from gladiator.bots.tactician.specials import (
    SpecialCurves,
    best_specials,
    special_curves,
    special_order,
)
from gladiator.core.decisions import Distribute, Slot
from gladiator.core.hexgrid import distance, neighbor
from gladiator.rules.colosseum.combat.allocation import allocation_choice
from gladiator.rules.colosseum.combat.orders import AllocationChoice
from gladiator.rules.colosseum.kit.nets import NetOrder
from gladiator.rules.colosseum.vocabulary import AREAS

FLAT = [[0.0, *[0.5 * cf for cf in range(1, 9)]] for _ in AREAS]


def _planner(budget: int, threat_curves: list[list[float]]):  # type: ignore[no-untyped-def]
    def plan(c, t, amax, reserve):  # type: ignore[no-untyped-def]
        return best_allocation(budget - reserve, amax, c, t, threat_curves)

    return plan


def test_s22_3_a_duck_is_bought_when_his_blow_at_the_head_is_what_it_fears() -> None:
    """§22.3: his attack is sure to come at my head, where it is worth 12 against 0 defence and
    12 against 2: the Duck (2 CF, every head attack No Effect) beats any defence CF."""
    threat = [1.0, 0.0, 0.0, 0.0, 0.0]
    threat_curves = [[12.0] * 11 for _ in AREAS]
    specials = SpecialCurves((), (("D-HEAD-DUCK", "head", 0.0),))
    plan, attack, defence = best_specials(
        FLAT, threat, [8] * 5, specials, _planner(6, threat_curves)
    )
    assert (attack, defence) == (None, "D-HEAD-DUCK")
    text = special_order(plan, attack, defence)
    assert text.endswith("D-HEAD-DUCK:2") and "D-HEAD:" not in text


def test_s22_2_a_special_attack_takes_its_areas_box_when_it_is_worth_more() -> None:
    """§22.2: a Disarm curve worth twice the plain arms attack takes the arms box."""
    threat_curves = [[0.0] * 11 for _ in AREAS]
    disarm = tuple(1.0 * cf for cf in range(9))
    specials = SpecialCurves((("A-ARMS-DISARM", "arms", disarm, 8),), ())
    plan, attack, defence = best_specials(
        FLAT, [0.0] * 5, [8] * 5, specials, _planner(8, threat_curves)
    )
    assert (attack, defence) == ("A-ARMS-DISARM", None)
    assert special_order(plan, attack, defence) == "A-ARMS-DISARM:8"


def test_s22_2_disarm_is_worth_something_only_against_an_armed_man() -> None:
    state = arena("myrmillo", "secutor")
    to_combat(state)
    red, blue = state.gladiators["red"], state.gladiators["blue"]
    decision = allocation_choice(red, state)
    armed = special_curves(decision, red, blue, [0] * 5, "rules")
    worth = {name: curve[6] for name, _, curve, _ in armed.attacks}
    assert worth["A-ARMS-DISARM"] > 0
    blue.has_weapon = False
    bare = {n: c[6] for n, _, c, _ in special_curves(decision, red, blue, [0] * 5, "rules").attacks}
    assert bare["A-ARMS-DISARM"] < worth["A-ARMS-DISARM"]


def test_s22_the_tactician_writes_specials_it_may_and_the_engine_takes_them() -> None:
    """Six seeded Advanced duels: every allocation the tactician writes is legal, and it writes
    special attacks and defences (before issue 38: 5 of 151 allocations)."""
    used = offered = 0
    for seed in range(6):
        state, _ = RULES.initial_state(RULES.normalise_options({"advanced": True}), _dice(seed))
        bot, rng = TacticianBot(), random.Random(seed)
        for _ in range(400):
            if RULES.outcome(state) is not None:
                break
            orders = {}
            for seat, d in RULES.pending(state).items():
                order = bot._allocate(state, seat, d, rng) if isinstance(d, Distribute) else None
                if order is not None and any(s.name.count("-") == 2 for s in d.slots):
                    offered += 1
                    used += any(p.split(":")[0].count("-") == 2 for p in d.validate(order).split())
                orders[seat] = (
                    d.validate(order) if order else bot.choose(RULES, state, seat, d, rng)
                )
            RULES.apply(state, orders, _dice(seed))
    assert offered and used >= offered // 2


def _dice(seed: int):  # type: ignore[no-untyped-def]
    from gladiator.core.dice import Dice

    return Dice(seed)


# --- §20: the net -------------------------------------------------------------------------------


def test_s20_5_a_toss_at_a_man_two_hexes_ahead_is_worth_an_ensnaring_chance() -> None:
    """T16's chances from the engine's DRMs: a toss at a Secutor two hexes ahead is worth more
    than at one behind the Retiarius (no target in the toss front: only its cost)."""
    state = arena("retiarius", "secutor", gap=2)
    red, blue = state.gladiators["red"], state.gladiators["blue"]
    ahead = net_worth(state, red, blue, red.hex, red.facing, NetOrder("TN"))
    behind = net_worth(state, red, blue, red.hex, (red.facing + 3) % 6, NetOrder("TN"))
    assert ahead > 0 > behind


def test_s20_8_2_the_tactician_retiarius_drops_his_net_for_the_trident_in_both_hands() -> None:
    """§20.9.2 NOTE: the net in hand halves the trident; measured, dropping it wins more than
    casting it (docs/ai/advanced-bots.json), so with a Secutor three hexes ahead he drops it
    into a hex behind him. Worth nothing more than its plot, the net is cast instead; forbidden
    the net, he writes no net order at all. The Secutor, in reach of a ready net, finds Repel
    Net worth something (§20.4)."""
    state = arena("retiarius", "secutor", gap=3)
    red, blue = state.gladiators["red"], state.gladiators["blue"]
    decision = RULES.pending(state)["red"]

    def order(**weights: float) -> str:
        bot = TacticianBot(Weights(**weights))  # type: ignore[arg-type]
        return bot.choose(RULES, state, "red", decision, random.Random(1))

    assert order().startswith("X +DN-B")
    cast = order(drop_net=0.0)
    assert "+TN" in cast or "+SN" in cast or "+LN" in cast
    assert repel_worth(state, blue, red) > 0
    assert "+" not in order(nets=False)


def test_s20_5_5_escape_and_drag_cfs_are_written_when_offered() -> None:
    """§20.5.5: the ensnared man puts CFs on escape, the Retiarius on the drag."""
    state = arena("retiarius", "secutor")
    state.gladiators["blue"].ensnared = "red"
    to_combat(state)
    red, blue = state.gladiators["red"], state.gladiators["blue"]
    (escape,), e = net_allocation(state, blue, allocation_choice(blue, state))
    assert escape.startswith("ESCAPE:") and e > 0
    (drag,), d = net_allocation(state, red, allocation_choice(red, state))
    assert drag.startswith("DRAG:") and d > 0
    for seat in ("red", "blue"):
        g = state.gladiators[seat]
        order = TacticianBot()._allocate(state, seat, allocation_choice(g, state), random.Random(2))
        assert order is not None and allocation_choice(g, state).validate(order)


def test_s20_4_no_repel_net_without_a_net_in_reach() -> None:
    state = arena("secutor", "secutor", gap=3)
    place(state, blue=(neighbor(neighbor(neighbor(HERE, 0), 0), 0), 3))
    red, blue = state.gladiators["red"], state.gladiators["blue"]
    assert repel_worth(state, red, blue) == 0.0
    decision = Distribute(prompt="p", budget=4, slots=(Slot("D-HEAD", 4),))
    assert net_allocation(state, red, decision) == ((), 0)


# --- §27: whom to fight; §28: where to stand against a beast ----------------------------------


def test_s27_the_tactician_gangs_up_on_the_opponent_a_team_mate_already_fights() -> None:
    """§27.3, §27.4 (team_aim.focus): blue and gold both three hexes from red; with green far
    off red takes blue (the first in table order on a tie), with green beside gold red
    goes for gold (two on one)."""
    from gladiator.bots.team_aim import focus
    from gladiator.core.hexgrid import Hex

    opts = {"advanced": True, "teams": "red+green:blue+gold", "styles": ["myrmillo"] * 4}
    state, _ = RULES.initial_state(RULES.normalise_options(opts), _dice(1))
    g = state.gladiators
    g["red"].hex, g["blue"].hex, g["gold"].hex = Hex(8, 8), Hex(8, 5), Hex(11, 8)
    g["green"].hex = Hex(2, 14)
    assert distance(g["blue"].hex, g["red"].hex) == distance(g["gold"].hex, g["red"].hex) == 3
    assert focus(state, "red").seat == "blue"
    g["green"].hex = Hex(12, 8)  # beside gold
    assert focus(state, "red").seat == "gold"


def test_s28_6_against_a_lion_he_would_rather_stand_by_its_flank_than_before_its_head() -> None:
    """§28.6.2, T24 (tactician/beasts.py): before its head he is bitten and strikes with little
    PA; beside its head and body it cannot bite him and T24 opens every area."""
    from gladiator.bots.tactician.beasts import beast_pose_worth
    from gladiator.core.hexgrid import DIRECTIONS, add, opposite
    from gladiator.rules.colosseum.beasts.beasts import beast_of, gladiator_of

    opts = {"advanced": True, "beasts": "blue:lion", "styles": ["bestiarius", "random"]}
    state, _ = RULES.initial_state(RULES.normalise_options(opts), _dice(1))
    b, g = beast_of(state), gladiator_of(state)
    assert b is not None
    before = add(b.hex, DIRECTIONS[b.facing])
    flank = add(b.hex, DIRECTIONS[(b.facing + 2) % 6])
    worth_before = beast_pose_worth(g, (b,), before, opposite(b.facing))
    worth_flank = beast_pose_worth(g, (b,), flank, (b.facing + 5) % 6)
    assert worth_flank > worth_before


def test_g18_the_aimed_decision_of_a_team_match_keeps_the_specials() -> None:
    """§22 in a team match (G18): the one-target decision a bot fills holds the special attacks
    at that man and the special defences, and its order goes back aimed at him."""
    opts = {"advanced": True, "teams": "red+green:blue+gold"}
    rng = random.Random(3)
    state, _ = RULES.initial_state(RULES.normalise_options(opts), _dice(3))
    bot = TacticianBot()
    for _ in range(60):
        pending = RULES.pending(state)
        for d in pending.values():
            if isinstance(d, AllocationChoice) and d.named and d.targets:
                target = d.targets[0]
                aimed = d.aimed(target)
                special = [s.name for s in aimed.slots if s.name.count("-") == 2]
                attack = next((n for n in special if n.startswith("A-")), None)
                if attack is None:
                    continue
                order = d.retarget(f"{attack}:1", target)
                assert order == f"A-{target.upper()}-{attack[2:]}:1"
                return
        RULES.apply(
            state, {s: bot.choose(RULES, state, s, d, rng) for s, d in pending.items()}, _dice(3)
        )
    raise AssertionError("no aimed special attack in 60 steps")
