"""The shared episode driver (gladiator.rl.episode): secrecy (RL6), fixed vocabularies that cover
every order (RL2), candidate slots (RL3, RL4), termination and replay determinism."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gladiator.core.decisions import Distribute
from gladiator.rl.action_map import CandidateSlots, FixedVocabulary
from gladiator.rl.episode import OBS_BOUND, Episode
from gladiator.rl.pettingzoo_env import env as aec_env
from gladiator.rules.skirmish.engine import writable

SHORT: dict[str, dict[str, Any]] = {
    "quick": {},
    "skirmish": {"max_turns": 10},
    "colosseum": {"max_turns": 1},
}


def _random_actions(ep: Episode, rng: random.Random) -> dict[str, int]:
    return {s: rng.choice([int(i) for i in np.flatnonzero(ep.mask(s))]) for s in ep.pending}


def _run(ep: Episode, rng: random.Random, limit: int = 20_000) -> list[dict[str, int]]:
    played = []
    while not ep.over and len(played) < limit:
        acts = _random_actions(ep, rng)
        ep.step(acts)
        played.append(acts)
    return played


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), draws=st.integers(0, 10_000))
def test_skirmish_others_written_move_never_changes_my_observation(seed: int, draws: int) -> None:
    """Skirmish §4: once both moves are written, red's unrevealed move is blue's secret, and
    whatever red wrote, blue's observation is the same (and so is the view it comes from)."""
    ep = Episode("skirmish", {"start": "engaged"}, seed)
    rng = random.Random(seed)
    checked = 0
    while not ep.over and checked < 5:
        red = ep.state.fighters["red"]
        if red.alive and red.written and not red.revealed:
            mine = ep.observe("blue")
            for move in writable(ep.state, red):
                red.written = move.code
                assert np.array_equal(ep.observe("blue"), mine)
            redrawn = ep.ruleset.determinize(ep.state, "blue", random.Random(draws))
            view = ep.ruleset.view(redrawn, "blue")
            again = ep.spec.encoder.encode(view, ep.pending.get("blue"))
            assert np.array_equal(np.clip(again, -OBS_BOUND, OBS_BOUND), mine)
            checked += 1
        ep.step(_random_actions(ep, rng))
    assert checked > 0


@pytest.mark.parametrize("ruleset", ["quick", "skirmish", "colosseum"])
def test_observation_is_computed_from_the_plain_view_alone(ruleset: str) -> None:
    """RL1: the encoder given the view as plain JSON data (and the seat's own decision) gives
    the environment's observation, at every step of a match."""
    ep = Episode(ruleset, SHORT[ruleset], 7)
    rng = random.Random(7)
    while not ep.over:
        for seat in ep.seats:
            view = json.loads(json.dumps(ep.ruleset.view(ep.state, seat)))
            obs = ep.spec.encoder.encode(view, ep.pending.get(seat))
            assert obs.dtype == np.float32 and obs.shape == (ep.obs_size,)
            assert np.array_equal(np.clip(obs, -OBS_BOUND, OBS_BOUND), ep.observe(seat))
        ep.step(_random_actions(ep, rng))


def test_colosseum_cf_allocation_of_one_seat_is_not_seen_by_the_other() -> None:
    """§9 (RL6): when both allocate CFs, blue's AEC observation after red's allocation is the
    same whichever allocation red gave (in every one of a few matches that comes to blows)."""
    checked = sum(_allocation_secret(seed) for seed in range(6))
    assert checked >= 1


def _allocation_secret(seed: int) -> bool:
    opts = {"max_turns": 4, "board_width": 12, "board_height": 12}
    rng = random.Random(seed)
    prefix: list[int] = []
    e = aec_env("colosseum", **opts)
    e.reset(seed=seed)
    while e.agents:
        inner = e.unwrapped.episode
        pending = inner.pending
        if (
            e.agent_selection == "red"
            and set(pending) == {"red", "blue"}
            and all(isinstance(d, Distribute) for d in pending.values())
        ):
            break
        obs, _, over, _, _ = e.last()
        if over:
            return False  # nobody came to blows in this match
        legal = np.flatnonzero(obs["action_mask"])
        act = int(rng.choice(legal)) if len(legal) else 0
        prefix.append(act)
        e.step(act)
    else:
        return False  # nobody came to blows in this match
    red_legal = np.flatnonzero(e.last()[0]["action_mask"])
    assert len(red_legal) > 1
    seen = []
    for pick in red_legal[:4]:
        f = aec_env("colosseum", **opts)
        f.reset(seed=seed)
        for act in prefix:
            f.step(act)
        f.step(int(pick))
        assert f.agent_selection == "blue"
        seen.append(f.last()[0]["observation"])
    assert all(np.array_equal(seen[0], s) for s in seen[1:])
    return True


@pytest.mark.parametrize(
    ("ruleset", "options"),
    [
        ("quick", {"gladiators": ["retiarius", "heavy", "light"], "fate": "vote"}),
        ("quick", {"gladiators": ["retiarius", "retiarius"], "arena_side": 4}),
        ("quick", {"gladiators": ["random"] * 4, "fate": "crowd"}),
        ("skirmish", {"gladiators": ["retiarius", "thracian", "retiarius"], "max_turns": 20}),
        ("skirmish", {"gladiators": ["thracian", "retiarius"], "start": "engaged"}),
    ],
)
def test_fixed_vocabulary_covers_every_order_offered(ruleset: str, options: dict[str, Any]) -> None:
    """RL2: a FixedVocabulary refuses an order it lacks, so playing matches to the end checks
    that it lists every order the rules offer; and the same index keeps the same order."""
    for seed in range(6):
        ep = Episode(ruleset, options, seed)
        assert isinstance(ep.spec.actions, FixedVocabulary)
        rng = random.Random(seed)
        while not ep.over:
            for seat in ep.pending:
                for i, text in enumerate(ep.menu(seat).orders):
                    assert text in ("", ep.spec.actions.texts[i])
            ep.step(_random_actions(ep, rng))


def test_colosseum_candidate_slots_are_fixed_by_seed_step_and_seat() -> None:
    """RL3, RL4: the slots of a decision depend on the seed, step and seat only."""
    a = Episode("colosseum", SHORT["colosseum"], 21)
    b = Episode("colosseum", SHORT["colosseum"], 21)
    assert isinstance(a.spec.actions, CandidateSlots)
    assert a.menu("red").orders == b.menu("red").orders
    assert a.menu("red").orders != a.menu("blue").orders
    assert sum(1 for t in a.menu("red").orders if t) == a.n_actions  # hundreds of plots


@pytest.mark.parametrize("ruleset", ["quick", "skirmish", "colosseum"])
def test_every_episode_ends(ruleset: str) -> None:
    """Quick QR12, skirmish SR9 and the Colosseum's max_turns end every match."""
    for seed in range(3):
        ep = Episode(ruleset, SHORT[ruleset], seed)
        _run(ep, random.Random(seed))
        assert ep.over and ep.ruleset.outcome(ep.state) is not None


@pytest.mark.parametrize("ruleset", ["quick", "skirmish", "colosseum"])
def test_replay_same_seed_and_actions_same_observations_and_rewards(ruleset: str) -> None:
    first = Episode(ruleset, SHORT[ruleset], 33)
    rng = random.Random(4)
    trace = []
    while not first.over:
        acts = _random_actions(first, rng)
        rewards = first.step(acts)
        trace.append((acts, [first.observe(s) for s in first.seats], rewards))
    again = Episode(ruleset, SHORT[ruleset], 33)
    for acts, seen, rewards in trace:
        assert again.step(acts) == rewards
        assert all(
            np.array_equal(x, again.observe(s)) for x, s in zip(seen, again.seats, strict=True)
        )
    assert again.over and again.ruleset.state_hash(again.state) == first.ruleset.state_hash(
        first.state
    )


def test_shaping_adds_heuristic_deltas_and_is_off_by_default() -> None:
    plain = Episode("quick", {}, 8)
    shaped = Episode("quick", {}, 8, shaping=0.5)
    rng = random.Random(1)
    nonzero = 0
    while not plain.over:
        acts = _random_actions(plain, rng)
        before = shaped.ruleset.heuristic(shaped.state, "red")
        r_plain, r_shaped = plain.step(acts), shaped.step(acts)
        after = shaped.ruleset.heuristic(shaped.state, "red")
        assert r_shaped["red"] == pytest.approx(r_plain["red"] + 0.5 * (after - before))
        nonzero += r_plain["red"] != 0.0
    assert nonzero <= 1
