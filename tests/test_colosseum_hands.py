"""What his hands hold (Advanced Game): a two-handed maul or pike held one-handed beside a shield
strikes at half CF (§21.8.2, §21.9.1, F10), the pike's +1 Spd (§21.9.2), and a weapon in each
hand only with no shield (§24.1, F6). Duels set up by hand, the deciding dice scripted."""

from __future__ import annotations

from typing import Any

from colosseum_helpers import RiggedDice, of_type, play
from colosseum_styles_helpers import HERE, arena, to_combat
from gladiator.rules.colosseum.kit.weapons import may_pick_up, pair_bonus, pick_up, release
from gladiator.rules.colosseum.state import ColosseumState, GroundItem

CRT = "§9.5.1"


def crt(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in of_type(events, "crt") if e["side"] == 0]


def takes_up(state: ColosseumState, kind: str) -> None:
    """Red's sword leaves his hand; he picks up `kind` and keeps his shield in the other hand."""
    red = state.gladiators["red"]
    assert red.has_shield and red.weapons == ("sword",)
    release(red)
    item = GroundItem("weapon", "blue", HERE, kind=kind)
    assert may_pick_up(red, item)  # one hand is free
    pick_up(red, item)
    assert red.weapons == (kind,) and red.has_shield


def test_s21_8_2_a_maul_held_one_handed_with_a_shield_strikes_at_half_cf() -> None:
    state = arena("gallus", "secutor")
    takes_up(state, "maul")
    to_combat(state)
    events = play(state, RiggedDice(1, {CRT: [(1, 1, 2)]}), red="A6:groin", blue="D5:arms")
    (attack,) = crt(events)
    assert "3 CF against 0" in attack["text"]
    assert "the maul one-handed, with a shield" in of_type(events, "half_cf")[0]["text"]
    # Both hands on the shaft (the chart's Gallus who chose the maul left his shield): full CF.
    state = arena("gallus", "secutor", weapons=("maul", ""))
    to_combat(state)
    events = play(state, RiggedDice(1, {CRT: [(1, 1, 2)]}), red="A6:groin", blue="D5:arms")
    assert "6 CF against 0" in crt(events)[0]["text"] and not of_type(events, "half_cf")


def test_s21_9_1_a_pike_held_one_handed_with_a_shield_strikes_at_half_cf() -> None:
    state = arena("gallus", "secutor", gap=2)
    takes_up(state, "pike")
    to_combat(state)
    events = play(state, RiggedDice(1, {CRT: [(1, 1, 2)]}), red="A6:groin", blue="D5:arms")
    assert "3 CF against 0" in crt(events)[0]["text"]
    assert "the pike one-handed, with a shield" in of_type(events, "half_cf")[0]["text"]


def test_s21_9_2_the_pike_strikes_one_round_late() -> None:
    """One attack is T10's round 3; the pike's +1 Spd makes it round 4 (the sword's stays 3)."""
    state = arena("cataphractarius", "secutor", gap=2)
    to_combat(state)
    events = play(state, RiggedDice(1, {CRT: [(1, 1, 2)]}), red="A4:groin", blue="D5:arms")
    assert crt(events)[0]["round"] == 4
    state = arena("gallus", "secutor")
    to_combat(state)
    events = play(state, RiggedDice(1, {CRT: [(1, 1, 2)]}), red="A4:groin", blue="D5:arms")
    assert crt(events)[0]["round"] == 3


def test_s24_1_a_weapon_in_each_hand_leaves_no_hand_for_a_shield() -> None:
    """A Myrmillo with sword and shield has no hand for a second sword; without the shield he
    may take one up and fights as a pair (untrained: §24.2.2); a shield back in hand and the
    pair is no pair."""
    state = arena("myrmillo", "secutor")
    red = state.gladiators["red"]
    second = GroundItem("weapon", "blue", HERE, kind="sword")
    assert red.has_shield and not may_pick_up(red, second)
    assert pair_bonus(red) is None
    red.has_shield = False
    assert may_pick_up(red, second)
    pick_up(red, second)
    assert red.weapons == ("sword", "sword")
    bonus = pair_bonus(red)
    assert bonus is not None and bonus[1] == "§24.2.2" and bonus[0].cf == 2
    red.has_shield = True
    assert pair_bonus(red) is None
