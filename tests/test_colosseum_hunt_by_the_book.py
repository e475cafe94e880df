"""A beast hunt by the book (issue 37): a pike against a beast at 1-hex range (§21.9, B20), bare
hands against a beast (§23, B21), the Retiarius's net dropped in a hunt (§20.8.2, B17) and a man's
own special defences against a beast's attack (§22.3, §28.6, B10). Each probe is a hunt set up by
hand with the dice that decide it scripted."""

from __future__ import annotations

from typing import Any

from colosseum_helpers import RULES, RiggedDice, of_type
from gladiator.core.dice import Dice
from gladiator.core.hexgrid import DIRECTIONS, Hex, add, opposite
from gladiator.rules.colosseum.beasts.beasts import beast_of, gladiator_of
from gladiator.rules.colosseum.combat.allocation import allocation_choice
from gladiator.rules.colosseum.combat.engage import engage
from gladiator.rules.colosseum.plots.plot_decision import plot_decision
from gladiator.rules.colosseum.state import ColosseumState, Gladiator

PAUSE = {"§28.4.1": [(6, 6)]}  # T22: 12, the beast Pauses (Q14)


def hunt(style: str, kind: str = "lion", seed: int = 1, **extra: Any) -> ColosseumState:
    opts = {"advanced": True, "beasts": f"blue:{kind}", "styles": [style, "random"], **extra}
    state, _ = RULES.initial_state(RULES.normalise_options(opts), Dice(seed))
    return state


def ahead(h: Hex, facing: int, n: int = 1) -> Hex:
    for _ in range(n):
        h = add(h, DIRECTIONS[facing])
    return h


def face_the_head(state: ColosseumState, gap: int = 1) -> tuple[Gladiator, Gladiator]:
    """The man `gap` hexes straight in front of the beast's head, facing it."""
    b, g = beast_of(state), gladiator_of(state)
    assert b is not None
    g.hex, g.facing = ahead(b.hex, b.facing, gap), opposite(b.facing)
    return g, b


# --- §21.9: the pike never strikes at 1-hex range, a beast's tail two hexes off included (B20) ---
def test_s21_9_a_pike_cannot_strike_a_beast_whose_head_is_adjacent() -> None:
    state = hunt("cataphractarius")
    g, _ = face_the_head(state)
    assert g.weapons == ("pike",)
    engage(state, [])
    assert not g.may_attack  # the tail is 2 hexes off, but the beast is at 1-hex range
    slots = {s.name: s.maximum for s in allocation_choice(g, state).slots}
    assert all(v == 0 for k, v in slots.items() if k.startswith("A-"))


def test_s21_9_a_pike_strikes_a_beast_two_hexes_off() -> None:
    state = hunt("cataphractarius")
    g, _ = face_the_head(state, gap=2)
    engage(state, [])
    assert g.may_attack


# --- §23 against a beast: bare hands stun, a parried fist tears on the claws (B21) --------------
def bare_beside(state: ColosseumState) -> tuple[Gladiator, Gladiator]:
    """A man with no weapon beside the beast's head and body, outside its front: he strikes it
    (T24: every area), it cannot bite him."""
    b, g = beast_of(state), gladiator_of(state)
    assert b is not None
    g.hex, g.facing = add(b.hex, DIRECTIONS[(b.facing + 2) % 6]), (b.facing + 5) % 6
    g.weapons, g.spare, g.has_weapon = (), (), False
    return g, b


def bare_blow(roll: tuple[int, int, int], **script: Any) -> tuple[Gladiator, Gladiator, Any]:
    state = hunt("bestiarius")
    g, b = bare_beside(state)
    dice = RiggedDice(3, {**PAUSE, "§9.5.1": [roll], **script})
    RULES.apply(state, {"red": "X"}, dice)
    assert g.may_attack and not b.may_attack
    return g, b, RULES.apply(state, {"red": "A4:chest"}, dice)


def test_s23_2_3_a_bare_handed_h_stuns_a_beast_and_never_wounds_it() -> None:
    """§23.2.3 with §28.6.3: column 2, 17: H: 2D6 5 + his ST ... on T7's Stun row, the critical
    roll on T25 (not T9), no wound roll."""
    _, b, events = bare_blow((5, 6, 6), **{"§23.2.3": [(2, 3)], "§23.3": [(1, 1)]})
    assert b.sheet.stun_in_effect >= 1 and b.sheet.wounds == (0, 0, 0, 0, 0)
    assert not of_type(events, "wound_roll")
    assert of_type(events, "critical_roll")[0]["text"].startswith("T25 critical roll")


def test_s23_2_3_s28_6_1_2_a_bare_handed_s_is_an_h_against_a_beast_and_stuns() -> None:
    """§28.6.1.2 then §23.2.3: column 2, 7: S becomes H, and the H stuns (no wound)."""
    _, b, events = bare_blow((2, 2, 3), **{"§23.2.3": [(6, 6)], "§23.3": [(1, 1)]})
    assert b.sheet.stun_in_effect >= 1 and b.sheet.wounds == (0, 0, 0, 0, 0)
    assert of_type(events, "stun")


def test_s23_2_1_a_bare_hand_the_beast_parries_wounds_his_own_arms() -> None:
    """§23.2.1 (not §28.6.1.3): column 2, 10: P: his own arms roll for wounds (WHITE 12, armour
    missed), the beast's paws roll none and nobody checks a weapon drop."""
    g, b, events = bare_blow((3, 3, 4), **{"§10.1": [(4, 4, 4, 6, 1)]})
    assert g.sheet.wounds_in("arms") > 0
    assert b.sheet.wounds == (0, 0, 0, 0, 0) and b.sheet.stun_in_effect == 0
    assert not of_type(events, "paws") and not of_type(events, "drop_roll")


# --- §20.8.2: the Retiarius drops his net in a hunt, for the trident's both hands (B17) ---------
def test_s20_8_2_a_retiarius_in_a_hunt_may_drop_his_net_but_not_cast_it() -> None:
    state = hunt("retiarius")
    g, _b = face_the_head(state, gap=3)
    assert g.net
    choice = plot_decision(state, g)
    texts = {o.text for o in choice.options}
    assert "X +DN-F" in texts and not any("+TN" in t or "+SN" in t for t in texts)
    refused = dict(choice.refusals)
    assert "B17" in refused["TN"] and "B17" in refused["LN"]
    events = RULES.apply(state, {"red": "X +DN-FL"}, RiggedDice(3, PAUSE))
    assert not g.net and of_type(events, "net_dropped")
    assert [i.item for i in state.items] == ["net"]


def test_s20_9_2_after_dropping_his_net_the_trident_strikes_at_full_cf_in_a_hunt() -> None:
    """§20.9.2 NOTE: with neither net nor shield he holds the trident in both hands."""
    halved = []
    for drop in (False, True):
        state = hunt("retiarius")
        g, _b = face_the_head(state)
        g.net = not drop
        RULES.apply(state, {"red": "X"}, RiggedDice(3, PAUSE))
        events = RULES.apply(state, {"red": "A6:head"}, RiggedDice(3, {"§28.6.1.1": [1, 5]}))
        halved.append(any("§20.9.2" in e["text"] for e in of_type(events, "half_cf")))
    assert halved == [True, False]


# --- §22.3 with §28.6: his own special defences meet a beast's attack (B10) ---------------------
def test_s22_3_a_duck_meets_a_lions_bite_at_the_head() -> None:
    """§22.3 Duck: the lion's one attack at the head (1D3 1, area 1) is an automatic No Effect;
    his special attacks stay refused against the beast (B10)."""
    state = hunt("bestiarius")
    g, _b = face_the_head(state)
    RULES.apply(state, {"red": "X"}, RiggedDice(3, PAUSE))
    choice = allocation_choice(g, state)
    names = {s.name for s in choice.slots}
    assert {"D-HEAD-DUCK", "D-LEGS-LEAP", "D-CHEST-BLOCK"} <= names
    assert not any(n.startswith("A-") and n.count("-") > 1 for n in names)
    assert "B10" in dict(choice.refused)["A-HEAD-FEINT"]
    events = RULES.apply(state, {"red": "D2:head/D"}, RiggedDice(3, {"§28.6.1.1": [1, 1]}))
    (guard,) = of_type(events, "special_defence")[1:]
    assert "automatically No Effect, no roll" in guard["text"]
    assert not of_type(events, "crt") and g.sheet.wounds == (0, 0, 0, 0, 0)


def test_s22_3_special_defences_are_offered_against_a_pack() -> None:
    opts = {
        "advanced": True,
        "beasts": "blue:lion,green:wolf",
        "styles": ["bestiarius"] + ["random"] * 2,
    }
    state, _ = RULES.initial_state(RULES.normalise_options(opts), Dice(4))
    g = gladiator_of(state)
    g.may_attack, g.available = True, 10
    g.targets = (("blue", 0, 8),)
    choice = allocation_choice(g, state)
    names = {s.name for s in choice.slots}
    assert "D-HEAD-DUCK" in names and not any(n.endswith("-FEINT") for n in names)
