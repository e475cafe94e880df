"""One Colosseum turn for every shape: what a style is offered in a duel (§20's net orders, §22's
special boxes, §36.3's Find Weakness) it is offered in a 2 v 2 against the same man from the same
place (G18, G19), and a beast hunt offers no net attack (B17)."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from colosseum_helpers import RULES, of_type
from colosseum_styles_helpers import arena
from gladiator.core.dice import Dice
from gladiator.core.hexgrid import Hex
from gladiator.core.match import Match
from gladiator.rules.colosseum.combat.orders import AllocationChoice, PlotChoice
from gladiator.rules.colosseum.kit.styles import style_keys
from gladiator.rules.colosseum.setup.talent_setup import with_talents
from gladiator.rules.colosseum.state import ColosseumState

NET_CODES = ("+TN", "+SN", "+LN1", "+LN2", "+LN3", "+LG", "+DN-", "RN")
FAR = {"green": (Hex(1, 1), 0), "gold": (Hex(2, 10), 3)}  # out of everyone's reach


def _pairs() -> list[tuple[str, str]]:
    out = []
    for red in style_keys():
        for blue in style_keys():
            if "contra_retiarius" in (red, blue) and "retiarius" not in (red, blue):
                continue  # §19.2.3: a Contra-Retiarius fights only a Retiarius
            out.append((red, blue))
    return out


def _team_copy(duel: ColosseumState) -> ColosseumState:
    """The duel's red and blue, as they stand, in a 2 v 2 whose other two stand far off."""
    styles = [duel.gladiators["red"].style, duel.gladiators["blue"].style, "myrmillo", "myrmillo"]
    talents = [*duel.options.get("talents", ["", ""]), "", ""]
    options = {**duel.options, "teams": "red+green:blue+gold", "styles": styles, "talents": talents}
    options.pop("weapons", None)
    team, _ = RULES.initial_state(RULES.normalise_options(options), Dice(1))
    for seat in ("red", "blue"):
        team.gladiators[seat] = copy.deepcopy(duel.gladiators[seat])
    for seat, (h, facing) in FAR.items():
        team.gladiators[seat].hex, team.gladiators[seat].facing = h, facing
    team.walls, team.arena_size = duel.walls, duel.arena_size
    return team


def _net_orders(d: Any) -> set[str]:
    assert isinstance(d, PlotChoice)
    return {
        code for o in d.options for code in NET_CODES if code in o.text and "+" + o.text != code
    } | ({"RN"} if any(o.text == "RN" for o in d.options) else set())


def _boxes(d: Any, target: str | None) -> set[str]:
    """His open special, FW and net slots; named ones at `target`, with his name taken out."""
    assert isinstance(d, AllocationChoice)
    out = set()
    for s in d.slots:
        name = s.name
        if target is not None and name.startswith("A-"):
            if not name.startswith(f"A-{target.upper()}-"):
                continue
            name = "A-" + name[len(target) + 3 :]
        if s.maximum and (name.count("-") == 2 or name in ("ESCAPE", "DRAG")):
            out.add(name)
    return out


def _to_combat(state: ColosseumState) -> None:
    RULES.apply(state, dict.fromkeys(state.gladiators, "X"), Dice(1))


@pytest.mark.parametrize(("red", "blue"), _pairs())
@pytest.mark.parametrize("gap", [1, 2])
def test_s22_s20_a_2v2_offers_what_a_duel_offers_against_the_same_man(
    red: str, blue: str, gap: int
) -> None:
    duel = arena(red, blue, gap=gap, talents=["FW", ""])
    with_talents(duel.gladiators["red"], duel.options, 0)  # the hand-made sheet too (TG)
    team = _team_copy(duel)
    for seat in ("red", "blue"):
        assert _net_orders(RULES.pending(team)[seat]) == _net_orders(RULES.pending(duel)[seat])
    _to_combat(duel)
    _to_combat(team)
    if duel.step != "allocate":
        assert team.step != "allocate"
        return
    for seat, foe in (("red", "blue"), ("blue", "red")):
        duel_d, team_d = RULES.pending(duel)[seat], RULES.pending(team)[seat]
        assert isinstance(team_d, AllocationChoice) and team_d.named
        assert team_d.targets == ((foe,) if duel.gladiators[seat].may_attack else ())
        assert _boxes(team_d, foe) == _boxes(duel_d, None), (seat, red, blue)


def test_g18_a_feint_in_a_2v2_counter_attacks_the_man_feinted_at() -> None:
    duel = arena("thracian", "myrmillo")
    team = _team_copy(duel)
    _to_combat(team)
    d = RULES.pending(team)["red"]
    feints = [s.name for s in d.slots if s.name.endswith("-FEINT") and s.maximum]
    assert feints and all(n.startswith("A-BLUE-") for n in feints)
    orders = dict.fromkeys(team.gladiators, "-")
    orders["red"] = d.validate(f"{feints[0]}:6")
    for seed in range(40):  # until the Feint hits (H): then the counter goes at blue
        trial = copy.deepcopy(team)
        events = RULES.apply(trial, orders, Dice(seed))
        counters = of_type(events, "feint_counter")
        if counters:
            assert "opens blue's guard" in counters[0]["text"]
            return
    pytest.fail("no Feint hit in 40 seeds")


def test_b17_a_retiarius_is_offered_no_net_attack_against_a_beast() -> None:
    """B17: no toss, swing or lay at a beast; dropping the net is offered (§20.8.2)."""
    opts = RULES.normalise_options(
        {"advanced": True, "beasts": "blue:lion", "styles": ["retiarius", "random"]}
    )
    state, _ = RULES.initial_state(opts, Dice(3))
    d = RULES.pending(state)["red"]
    assert _net_orders(d) == {"+DN-"}
    with pytest.raises(ValueError, match="B17"):
        d.validate("F +TN")


@pytest.mark.parametrize("beasts", ["blue:random", "blue:random,green:random"])
def test_b17_a_hunt_with_a_retiarius_plays_to_its_end_on_offered_orders(beasts: str) -> None:
    for seed in range(4):
        rng = random.Random(seed)
        n = 2 + beasts.count(",")
        styles = ["retiarius"] + ["random"] * (n - 1)
        m = Match(RULES, {"advanced": True, "beasts": beasts, "styles": styles}, seed=seed)
        while m.outcome is None:
            for seat, d in m.pending().items():
                m.submit(seat, d.sample(rng))
        assert m.outcome is not None
