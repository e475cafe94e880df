"""Whole Advanced Game matches with random styles and weapons (§19-§24) under random legal play
and the tactician (hypothesis over seeds and choices): every match ends; after every step no
area holds more than W wounds (§10.3) and the CF books agree with the boxes; a gladiator's hands
hold what F5/F6 allow; a replay of the record is exact."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gladiator.bots import make_bot
from gladiator.core.match import Match
from gladiator.registry import get
from gladiator.rules.colosseum.kit.styles import style_keys
from gladiator.rules.colosseum.kit.weapons import HANDS, hands_used
from test_colosseum_properties import check_invariants

RULES = get("colosseum")
# Any T37 style but the Contra-Retiarius, who needs a Retiarius opposite (tested on its own).
STYLES = st.sampled_from(
    ["random", "standard", *(k for k in style_keys() if k != "contra_retiarius")]
)
PAIRS = st.sampled_from(["", "sword,axe", "dagger,scimitar", "javelin,javelin"])
SWORD_SWAPS = st.sampled_from(["", "axe", "flail", "maul", "pike", "javelin", "spear"])


def _weapons(style: str, pair: str, swap: str) -> str:
    if style == "dimachaeri":
        return pair
    if style in ("myrmillo", "secutor", "provocator", "gallus", "crupellarius", "standard"):
        return swap
    return ""


def check_hands(m: Match) -> None:
    for g in m.state.gladiators.values():
        assert g.style, "every Advanced Game gladiator has a style (F1)"
        assert g.has_weapon == bool(g.weapons)  # F5
        assert hands_used(g) <= HANDS  # F6
        assert len(g.weapons) <= 2


@settings(deadline=None, max_examples=10)
@given(
    seed=st.integers(0, 2**40),
    red=STYLES,
    blue=STYLES,
    pair=PAIRS,
    swap=SWORD_SWAPS,
    reading=st.sampled_from(["defence", "attack"]),
    bots=st.sampled_from([("random", "random"), ("tactician", "random"), ("tactician",) * 2]),
)
def test_property_advanced_matches_end_keep_the_books_and_replay(
    seed: int,
    red: str,
    blue: str,
    pair: str,
    swap: str,
    reading: str,
    bots: tuple[str, str],
) -> None:
    options = {
        "advanced": True,
        "styles": [red, blue],
        "weapons": [_weapons(red, pair, swap), _weapons(blue, pair, "")],
        "two_weapon_results": reading,
        "max_turns": 10,
    }
    m = Match(RULES, options, seed=seed, nonce="n")
    players = dict(zip(("red", "blue"), (make_bot(b) for b in bots), strict=True))
    rng = random.Random(seed)
    steps = 0
    while not m.finished:
        pending = m.pending()
        orders = {
            s: players[s].choose(RULES, RULES.determinize(m.state, s, rng), s, d, rng)
            for s, d in pending.items()
        }
        m.apply_step(orders)
        check_invariants(m)
        check_hands(m)
        steps += 1
        assert steps < 5000
    assert m.outcome is not None
    assert m.outcome.method in ("killed", "missus", "mercy", "stans missus", "time")
    again = Match.replay(m.record(), RULES)
    assert RULES.state_hash(again.state) == RULES.state_hash(m.state)
