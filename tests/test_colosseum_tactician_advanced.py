"""The tactician in the Advanced Game (§19-§26): it reads the weapon in hand (reach §20.9.1,
§21.7-§21.10, halvings F10, a pair's weapons in turn F9, throws with a weapon to draw §13.3/F5),
keeps off the walls (§25.4, W3), and gives a legal order for plot codes and allocation slots it
has no model of (the generic fallback, drawn with its own rng)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from colosseum_helpers import place
from colosseum_styles_helpers import arena, to_combat
from gladiator.bots.colosseum_evaluation_kit import arena as walls_of
from gladiator.bots.colosseum_evaluation_kit import blocked
from gladiator.bots.tactician.advanced_kit import advanced_pose, advanced_view
from gladiator.bots.tactician.bot import TacticianBot, Weights
from gladiator.core.decisions import ChooseOne, Distribute, Option, Slot
from gladiator.core.hexgrid import Hex, distance, from_offset
from gladiator.rules.colosseum.combat.cf_allocation import parse_allocation
from gladiator.rules.colosseum.combat.orders import PlotChoice
from gladiator.rules.colosseum.combat.weapon_combat import reaches, strokes
from gladiator.rules.colosseum.engine import ColosseumRules
from gladiator.rules.colosseum.plots.plots import Throw, parse_plot, path
from gladiator.rules.colosseum.state import ColosseumState
from gladiator.sim.runner import play_match

RULES = ColosseumRules()
BOT = TacticianBot()


def red_plot(state: ColosseumState, k: int = 0) -> str:
    return BOT.choose(RULES, state, "red", RULES.pending(state)["red"], random.Random(k))


def red_end(state: ColosseumState, order: str) -> tuple[Hex, int]:
    g = state.gladiators["red"]
    end = path(parse_plot(order), g.hex, g.facing)[-1]
    return end.hex, end.facing


# --- reach (§20.9.1, §21.7-§21.10, F8) -------------------------------------------------------


def test_s21_10_with_a_spear_against_a_sword_its_plot_ends_at_range_2() -> None:
    """§21.10, F8: a Secutor given the spear (two-handed: no shield, F2) four hexes from a
    swordsman ends two hexes from him with him in its 2-hex front, out of the sword's reach."""
    for k in range(4):
        state = arena("secutor", "secutor", weapons=("spear", ""), gap=4)
        red, blue = state.gladiators["red"], state.gladiators["blue"]
        assert red.weapons == ("spear",) and not red.has_shield
        h, f = red_end(state, red_plot(state, k))
        assert distance(h, blue.hex) == 2
        red.hex, red.facing = h, f
        assert reaches(red, blue) and not reaches(blue, red)


def test_s21_probe_with_the_sword_it_closes_to_one_hex() -> None:
    """The probe: the same position with the chart's sword: the 2-hex stand is no good, it
    closes in to strike."""
    state = arena("secutor", "secutor", gap=4)
    h, _ = red_end(state, red_plot(state))
    assert distance(h, state.gladiators["blue"].hex) == 1


def test_s21_9_a_pikeman_stays_beyond_one_hex() -> None:
    """§21.9: the pike cannot strike at range 1; the Cataphractarius ends where it reaches."""
    state = arena("cataphractarius", "secutor", gap=4)
    red, blue = state.gladiators["red"], state.gladiators["blue"]
    h, f = red_end(state, red_plot(state))
    assert distance(h, blue.hex) >= 2
    red.hex, red.facing = h, f
    assert reaches(red, blue)


# --- walls (§25.4, W3) -----------------------------------------------------------------------


def pit_position() -> ColosseumState:
    """A Fighting Pit (size 5, every edge a wall, W2): red in the top row facing north-west, the
    opponent two hexes to his west along the north wall, facing south (his back to the wall)."""
    state = arena("secutor", "secutor", arena_size=5)
    place(state, red=(from_offset(5, 0), 5), blue=(from_offset(3, 0), 3))
    return state


def test_s25_4_it_does_not_plot_into_a_wall_when_another_plot_will_do() -> None:
    state = pit_position()
    assert set(state.walls) == {"north", "east", "south", "west"}
    red = state.gladiators["red"]
    for k in range(4):
        order = red_plot(state, k)
        track = [
            Hex(p.hex.q - red.hex.q, p.hex.r - red.hex.r)
            for p in path(parse_plot(order), red.hex, red.facing)
        ]
        walls = walls_of(state)
        assert walls is not None and blocked(walls, red.hex, track) is None


def test_s25_probe_without_walls_the_same_position_plots_off_the_edge() -> None:
    """The probe: with no wall marked the best plot leaves the map (§7.7 shifts it), so the
    walled choice above is the walls' doing."""
    state = pit_position()
    walls = walls_of(state)
    assert walls is not None
    state.walls = ()
    red = state.gladiators["red"]
    for k in range(4):
        order = red_plot(state, k)
        track = [
            Hex(p.hex.q - red.hex.q, p.hex.r - red.hex.r)
            for p in path(parse_plot(order), red.hex, red.facing)
        ]
        assert blocked(walls, red.hex, track) is not None


# --- allocation with the weapon in hand (F9, F10, §24) ---------------------------------------


def red_allocation(state: ColosseumState, k: int = 0) -> tuple[str, Distribute]:
    d = RULES.pending(state)["red"]
    assert isinstance(d, Distribute)
    return BOT.choose(RULES, state, "red", d, random.Random(k)), d


def test_s24_2_1_two_swords_it_allocates_the_pair_bonus_within_the_rules() -> None:
    """§24.2.1: a Dimachaeri's 13 CF + 4 = 17 available; it spends more than his 13 on legal
    attacks (at most 8 an area, §9.3.2)."""
    state = arena("dimachaeri", "secutor")
    to_combat(state)
    order, d = red_allocation(state)
    assert d.budget == 17 and d.validate(order) == order
    al = parse_allocation(order, d.budget)
    assert al.total > 13 and max(al.attack) <= 8


def test_s24_f9_a_pair_gives_the_larger_attack_to_the_weapon_that_is_not_halved() -> None:
    """F9, F10: with sword and dagger his attacks take the weapons in turn; whichever hand comes
    first, the dagger's (half CF, §21.3) attack is the smaller."""
    for pair in ("sword,dagger", "dagger,sword"):
        state = arena("dimachaeri", "secutor", weapons=(pair, ""))
        to_combat(state)
        red, blue = state.gladiators["red"], state.gladiators["blue"]
        order, d = red_allocation(state)
        al = parse_allocation(order, d.budget)
        assert len(al.order) >= 2
        by_weapon: dict[str, list[int]] = {}
        for area, stroke in zip(al.order, strokes(red, blue, len(al.order), {}), strict=True):
            assert stroke.blow.weapon is not None
            by_weapon.setdefault(stroke.blow.weapon, []).append(al.attack_on(area))
        assert max(by_weapon["dagger"]) <= min(by_weapon["sword"])
        assert order.split()[0].endswith(":8") == (pair == "sword,dagger")


# --- throws with a weapon to draw (§13.3, F5) ------------------------------------------------


def test_s13_3_a_velite_at_range_2_throws_a_javelin_rather_than_jab_at_half_cf() -> None:
    """§21.6, A17, F5: a Velite with javelins to spare, two hexes from a swordsman, throws one
    (1D6 + Thr 6 always beats range 2; CRT 7 against no defence) rather than strike with it at
    half CF (§21.6); the next comes to hand."""
    state = arena("velite", "secutor", gap=2)
    assert state.gladiators["red"].spare
    order = red_plot(state)
    extra = parse_plot(order).extra
    assert isinstance(extra, Throw) and extra.item == "weapon"


def test_s13_3_probe_a_swordsman_never_throws_his_only_weapon() -> None:
    state = arena("secutor", "secutor", gap=4)
    assert not state.gladiators["red"].spare
    for k in range(4):
        assert not isinstance(parse_plot(red_plot(state, k)).extra, Throw)


# --- the generic fallback --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _NewCodes(PlotChoice):
    """A plot decision of a later engine, which takes codes this bot's plot reader does not."""

    def validate(self, order: str) -> str:
        return ChooseOne.validate(self, order)


def test_unknown_plot_codes_get_a_legal_order_drawn_with_its_own_rng() -> None:
    """Plot codes it cannot read (a net toss, §20.3.1, before it knows them) are sometimes drawn
    at random, never a crash; the plots it knows still win most of the time."""
    state = arena("secutor", "secutor", gap=2)
    d = RULES.pending(state)["red"]
    assert isinstance(d, PlotChoice)
    odd = _NewCodes(
        prompt=d.prompt, secret=True, options=(*d.options, Option("ZZ9"), Option("Q Q"))
    )
    got = [BOT.choose(RULES, state, "red", odd, random.Random(k)) for k in range(60)]
    assert set(got) <= set(odd.texts())
    unknown = [g for g in got if g in ("ZZ9", "Q Q")]
    assert 0 < len(unknown) < 20
    assert got == [BOT.choose(RULES, state, "red", odd, random.Random(k)) for k in range(60)]


def test_unknown_allocation_slots_take_a_random_legal_share_and_the_rest_is_planned() -> None:
    """A slot it has no model for (a net's CFs, §20.3.2) gets what a random legal order gives it,
    drawn first from its own rng; the attacks and defences share the rest within the budget."""
    state = arena("secutor", "secutor")
    to_combat(state)
    d = RULES.pending(state)["red"]
    assert isinstance(d, Distribute)
    plain = Distribute(prompt="x", budget=d.budget, slots=(*d.slots, Slot("NET", 6)))
    for k in range(6):
        order = BOT.choose(RULES, state, "red", plain, random.Random(k))
        amounts = plain.parse(order)
        assert plain.validate(order)
        drawn = plain.parse(plain.sample(random.Random(k)))["NET"]
        assert amounts["NET"] == drawn
        assert sum(v for n, v in amounts.items() if n != "NET") > 0


def test_a_distribute_without_attack_or_defence_slots_is_sampled() -> None:
    state = arena("secutor", "secutor")
    to_combat(state)
    escape = Distribute(prompt="escape", budget=5, slots=(Slot("ESCAPE", 5),))
    for k in range(3):
        got = BOT.choose(RULES, state, "red", escape, random.Random(k))
        assert got == escape.sample(random.Random(k))


# --- whole matches ---------------------------------------------------------------------------


def test_an_advanced_match_of_tacticians_with_random_styles_ends() -> None:
    """§19 random styles for both seats (F1), walls rolled (§25.2): every match ends."""
    for seed in range(6):
        s = play_match("colosseum", {"advanced": True}, 4100 + seed, ["tactician", "tactician"])
        assert s.method


def test_s25_w6_his_back_to_the_wall_is_worth_more_and_mine_less() -> None:
    """W6: a man pushed against a walled edge is pinned and Stunned. The same engagement (red
    facing north, blue a hex ahead facing him) is worth more with blue's back to the north wall
    of a Fighting Pit, and less with red's back to the south wall, than in mid-arena."""

    def extra(red_at: tuple[int, int], blue_at: tuple[int, int]) -> float:
        state = arena("secutor", "secutor", arena_size=5)
        place(state, red=(from_offset(*red_at), 0), blue=(from_offset(*blue_at), 3))
        red, blue = state.gladiators["red"], state.gladiators["blue"]
        view = advanced_view(state, red, blue)
        assert view is not None
        return advanced_pose(Weights(), view, red, blue, red.hex, red.facing, 1)[2]

    middle = extra((8, 8), (8, 7))
    assert extra((8, 1), (8, 0)) > middle  # his back to the north wall
    assert extra((8, 15), (8, 14)) < middle  # mine to the south wall
