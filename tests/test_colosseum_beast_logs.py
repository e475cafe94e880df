"""What a beast match (§28.6) logs of the Advanced Game's rules, in each shape's words: the half-CF
event cites the rules of its reasons and names them (§14.3, §20.9.2, F10), in the duel's words
with one beast and the team's with a pack; the CF line shows a pair's bonus (§24.2, F9); and only a
man is cleaved (§26.2, B19)."""

from __future__ import annotations

from typing import Any

from colosseum_helpers import RULES, RiggedDice, of_type
from gladiator.core.dice import Dice
from gladiator.core.hexgrid import DIRECTIONS, Hex, add, neighbor, opposite
from gladiator.rules.colosseum.beasts.beasts import beast_of, gladiator_of
from gladiator.rules.colosseum.combat.crt import CrtOutcome
from gladiator.rules.colosseum.hits.hits import strike
from gladiator.rules.colosseum.state import ColosseumState
from gladiator.rules.colosseum.tables.crt_tables import CrtResult

H = Hex(9, 4)
PAUSE = (6, 6)  # §28.4.1, T22: the beast Pauses


def match(beasts: str, style: str) -> ColosseumState:
    seats = beasts.count(",") + 1
    opts = {"advanced": True, "beasts": beasts, "styles": [style] + ["random"] * seats}
    state, _ = RULES.initial_state(RULES.normalise_options(opts), Dice(1))
    return state


def hunt(style: str) -> ColosseumState:
    """A bear whose head faces the man in the hex before it."""
    state = match("blue:bear", style)
    b, g = beast_of(state), gladiator_of(state)
    assert b is not None
    g.hex, g.facing = add(b.hex, DIRECTIONS[b.facing]), opposite(b.facing)
    return state


def pack(style: str) -> ColosseumState:
    """A lion straight ahead of him and a wolf ahead-right, both facing him."""
    state = match("blue:lion,green:wolf", style)
    g = state.gladiators
    g["red"].hex, g["red"].facing = H, 0
    g["blue"].hex, g["blue"].facing = neighbor(H, 0), 3
    g["green"].hex, g["green"].facing = neighbor(H, 1), 4
    return state


def allocate(state: ColosseumState, order: str, kneeling: bool = False) -> list[dict[str, Any]]:
    beasts = len(state.gladiators) - 1
    dice = RiggedDice(7, {"§28.4.1": [PAUSE] * beasts})
    events = RULES.apply(state, {"red": "X"}, dice)
    assert state.step == "allocate"
    if kneeling:  # §14.3: as if he had knelt this phase
        state.gladiators["red"].posture = "kneeling"
    return events + RULES.apply(state, {"red": order}, dice)


# -- §14.3, §20.9.2 (F10): the half-CF event ---------------------------------------------------
def test_s20_9_2_a_hunts_half_cf_event_is_the_duels() -> None:
    """One beast: the duel's words, the halved attacks by area, every reason once."""
    (e,) = of_type(allocate(hunt("retiarius"), "A-HEAD:6"), "half_cf")
    assert e["rule"] == "§20.9.2"
    assert e["text"] == (
        "red's attacks at half CF (the trident one-handed, with the net): head:3 (§20.9.2)"
    )


def test_s14_3_a_hunts_half_cf_event_cites_every_reason() -> None:
    (e,) = of_type(allocate(hunt("retiarius"), "A-HEAD:8", kneeling=True), "half_cf")
    assert e["rule"] == "§14.3, §20.9.2"
    assert e["text"] == (
        "red's attacks at half CF (kneeling; the trident one-handed, with the net): head:2 "
        "(§14.3, §20.9.2)"
    )


def test_s14_3_a_packs_half_cf_event_names_each_attacks_reasons() -> None:
    """A pack: the team's words, each halved attack with its beast and reasons; the rule field
    every rule of them."""
    events = allocate(pack("retiarius"), "A-BLUE-HEAD:4 A-GREEN-ARMS:4", kneeling=True)
    (e,) = of_type(events, "half_cf")
    why = "kneeling (§14.3); the trident one-handed, with the net (§20.9.2)"
    assert e["rule"] == "§14.3, §20.9.2"
    assert e["text"] == (
        f"red's attacks at half CF: blue's head 1 ({why}), green's arms 1 ({why}) (§14.3, §20.9.2)"
    )


# -- §24.2 (F9): a pair's bonus on the CF line -------------------------------------------------
def test_s24_2_a_hunts_and_a_packs_cf_line_shows_the_pairs_bonus() -> None:
    for state in (hunt("dimachaeri"), pack("dimachaeri")):
        red = state.gladiators["red"]
        events = RULES.apply(
            state, {"red": "X"}, RiggedDice(7, {"§28.4.1": [PAUSE] * (len(state.gladiators) - 1)})
        )
        (line,) = of_type(events, "available")
        assert line["rule"] == "§28.6"
        assert f"red: {red.available} CF available (two weapons +" in line["text"]
        assert "(§24.2" in line["text"]


# -- §26.2 (B19): only a man is cleaved --------------------------------------------------------
def _h(modifier: int) -> CrtOutcome:
    h = CrtResult.model_validate(f"H{modifier:+d}")
    return CrtOutcome(8, 0, 8, 8, 8, 0, 0, 12, 12, h, h)


def test_s26_2_b19_a_beast_killed_by_a_t7_kill_is_not_cleaved() -> None:
    state = hunt("bestiarius")
    b, g = beast_of(state), gladiator_of(state)
    assert b is not None
    events: list[dict[str, Any]] = []
    dice = RiggedDice(1, {"§10.1": [(6, 6, 6, 1, 1)]})  # WHITE 18 + 2 = 20: Kill (T7)
    strike(state, g, b, "chest", _h(2), dice, events, lambda *_: None)  # a thrown item's H
    assert any("T7 Kill" in e["text"] for e in events)
    assert not of_type(events, "cleaving") and not state.blood_counters
    # Probe: the beast's T7 Kill on the man cleaves him (K1).
    events = []
    dice = RiggedDice(1, {"§10.1": [(6, 6, 6, 1, 1)]})  # 18 + 10, his armour −8 at most
    strike(state, b, g, "chest", _h(10), dice, events, lambda *_: None)
    (cleaving,) = of_type(events, "cleaving")
    assert cleaving["text"].startswith("blue's blow cleaves red (T7 Kill)")
