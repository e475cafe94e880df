"""Whole Advanced Game matches with the net (§20), specials (§22), team combat (§27) and beasts
(§28) under random legal play and the tactician (hypothesis over seeds and set-ups): every match
ends; after every step no area holds more than W wounds (§10.3) and the CF books agree with the
boxes; the first secret order in changes nothing in another seat's or a spectator's view (§5.2.1,
§27.6); a replay of the record is exact."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from gladiator.bots import make_bot
from gladiator.core.match import Match
from gladiator.registry import get
from test_colosseum_properties import check_invariants

RULES = get("colosseum")
NET_DUELS = st.sampled_from(
    [
        ["retiarius", "secutor"],
        ["retiarius", "retiarius"],
        ["secutor", "retiarius"],
        ["retiarius", "contra_retiarius"],
        ["retiarius", "random"],
    ]
)
TEAMS = st.sampled_from(["red+green:blue", "red:blue+green", "red+green:blue+gold"])
BEASTS = st.sampled_from(["lion", "tiger", "bear", "wolf", "leopard", "random"])
BOTS = st.sampled_from(["random", "tactician", "centurion"])


def play_out(m: Match, bot_names: dict[str, str], rng: random.Random) -> None:
    players = {s: make_bot(b) for s, b in bot_names.items()}
    steps = 0
    while not m.finished:
        pending = m.pending()
        orders = {
            s: players[s].choose(RULES, RULES.determinize(m.state, s, rng), s, d, rng)
            for s, d in pending.items()
        }
        secret = [s for s, d in pending.items() if d.secret]
        if len(secret) >= 2 and len(secret) == len(pending):
            first, *others = secret
            before = {w: m.view(w) for w in (*others, None)}
            m.submit(first, orders[first])
            for watcher, was in before.items():
                now = m.view(watcher)
                assert now.pop("submitted") == [first] and was.pop("submitted") == []
                now.pop("waiting_for"), was.pop("waiting_for")
                assert "my_order" not in now
                assert now == was, f"{first}'s order showed in {watcher}'s view"
            for s in others:
                m.submit(s, orders[s])
        else:
            m.apply_step(orders)
        check_invariants(m)
        steps += 1
        assert steps < 5000
    assert m.outcome is not None
    again = Match.replay(m.record(), RULES)
    assert RULES.state_hash(again.state) == RULES.state_hash(m.state)


def _seats(m: Match) -> list[str]:
    return list(m.state.gladiators)


@settings(deadline=None, max_examples=8)
@given(seed=st.integers(0, 2**40), styles=NET_DUELS, red=BOTS, blue=BOTS)
def test_property_net_duels_end_keep_the_books_secrets_and_replay(
    seed: int, styles: list[str], red: str, blue: str
) -> None:
    """§20 with §22: a Retiarius in every match."""
    options: dict[str, Any] = {"advanced": True, "styles": styles, "max_turns": 10}
    m = Match(RULES, options, seed=seed, nonce="n")
    play_out(m, {"red": red, "blue": blue}, random.Random(seed))


@settings(deadline=None, max_examples=6)
@given(seed=st.integers(0, 2**40), teams=TEAMS, bot=st.sampled_from(["random", "tactician"]))
def test_property_team_matches_end_keep_the_books_secrets_and_replay(
    seed: int, teams: str, bot: str
) -> None:
    """§27: 2 v 1, 1 v 2 and 2 v 2."""
    m = Match(RULES, {"advanced": True, "teams": teams, "max_turns": 10}, seed=seed, nonce="n")
    seats = _seats(m)
    assert len(seats) == sum(len(side.split("+")) for side in teams.split(":"))
    play_out(m, {s: bot for s in seats}, random.Random(seed))


@settings(deadline=None, max_examples=8)
@given(seed=st.integers(0, 2**40), kind=BEASTS, bot=st.sampled_from(["random", "tactician"]))
def test_property_beast_matches_end_keep_the_books_and_replay(
    seed: int, kind: str, bot: str
) -> None:
    """§28: the beast has no decision; the gladiator's is the only one."""
    options = {"advanced": True, "beasts": f"blue:{kind}", "max_turns": 10}
    m = Match(RULES, options, seed=seed, nonce="n")
    assert set(m.pending()) <= {"red"}
    play_out(m, {"red": bot, "blue": bot}, random.Random(seed))
