"""Whole-match properties of the Colosseum Basic Game under random legal play and the tactician
(hypothesis over seeds and options): every match ends; after every step no area holds more
wounds than W (§10.3), CF bookkeeping agrees with the boxes checked (§3.12.1, §10.3.1) and with
the losses the events announced; a replay of the record is exact; a secret order is never in
another seat's view before the reveal (§5.2.1, §5.2.6.2)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gladiator.bots import make_bot
from gladiator.core.match import Match
from gladiator.registry import get
from gladiator.rules.colosseum.sheet.logsheet import LogSheet
from gladiator.rules.colosseum.vocabulary import AREAS

RULES = get("colosseum")
CLASSES = st.sampled_from(["light", "medium", "heavy", "random"])


def boxes_checked_cf(sheet: LogSheet) -> int:
    """§3.12.1, §10.3.1 counted from the sheet's boxes: wounds check boxes from W downward, and
    each CF category with a checked box costs one CF."""
    lost = 0
    for i, area in enumerate(AREAS):
        checked = set(range(sheet.w, sheet.w - sheet.wounds[i], -1))
        lost += sum(1 for cat in sheet.wound_categories(area) if checked & set(cat))
    return lost


def check_invariants(m: Match) -> None:
    for g in m.state.gladiators.values():
        s = g.sheet
        for area in AREAS:
            assert 0 <= s.wounds_in(area) <= s.w, (g.seat, area)  # §10.3
            if s.wounds_in(area) == s.w:
                assert not g.alive, f"{g.seat}'s {area} is full but he lives (§10.3.4)"
        assert s.cf_lost_to_wounds() == boxes_checked_cf(s)
        assert s.current_cf == (
            s.cf - s.cf_lost_to_wounds() - s.cf_lost_other - s.cf_lost_to_endurance
        )


@settings(deadline=None, max_examples=8)
@given(
    seed=st.integers(0, 2**40),
    red=CLASSES,
    blue=CLASSES,
    bots=st.sampled_from([("random", "random"), ("tactician", "random"), ("tactician",) * 2]),
)
def test_property_whole_matches_end_keep_the_books_replay_and_keep_secrets(
    seed: int, red: str, blue: str, bots: tuple[str, str]
) -> None:
    m = Match(RULES, {"gladiators": [red, blue], "max_turns": 12}, seed=seed, nonce="n")
    players = dict(zip(("red", "blue"), (make_bot(b) for b in bots), strict=True))
    rng = random.Random(seed)
    steps = 0
    while not m.finished:
        pending = m.pending()
        orders = {
            s: players[s].choose(RULES, RULES.determinize(m.state, s, rng), s, d, rng)
            for s, d in pending.items()
        }
        if len(pending) == 2 and all(d.secret for d in pending.values()):
            # The first order in changes nothing in the other seat's or a spectator's view but
            # the list of who has submitted.
            before = {w: m.view(w) for w in ("blue", None)}
            m.submit("red", orders["red"])
            assert m.view("red")["my_order"]
            for watcher, was in before.items():
                now = m.view(watcher)
                assert now.pop("submitted") == ["red"] and was.pop("submitted") == []
                now.pop("waiting_for"), was.pop("waiting_for")
                assert "my_order" not in now
                assert now == was
            m.submit("blue", orders["blue"])
        else:
            m.apply_step(orders)
        check_invariants(m)
        steps += 1
        assert steps < 5000
    assert m.outcome is not None
    assert m.outcome.method in ("killed", "missus", "mercy", "stans missus", "time")
    again = Match.replay(m.record(), RULES)
    assert RULES.state_hash(again.state) == RULES.state_hash(m.state)
