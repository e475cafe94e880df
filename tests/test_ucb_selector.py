"""UCB1 where one seat decides alone in the search (bots/ucb_selector.py, ruling MC11)."""

from __future__ import annotations

import random

from gladiator.bots.smmcts import SearchBot
from gladiator.bots.ucb_selector import UCBSelector
from gladiator.core.dice import Dice
from gladiator.registry import get


def test_unvisited_actions_come_first_in_list_order() -> None:
    u = UCBSelector(["a", "b", "c"])
    rng = random.Random(0)
    seen = []
    for _ in range(3):
        i = u.draw(rng)
        seen.append(i)
        u.update(i, 0.0)
    assert seen == [0, 1, 2]


def test_active_limits_the_actions_in_play() -> None:
    u = UCBSelector(["a", "b", "c"])
    rng = random.Random(0)
    for _ in range(50):
        i = u.draw(rng, active=2)
        assert i < 2
        u.update(i, 0.1 * i)
    assert u.counts[2] == 0


def test_finds_the_best_arm_of_a_noisy_bandit() -> None:
    means = [0.0, 0.2, -0.3, 0.1]
    u = UCBSelector(["a", "b", "c", "d"], c=0.5)
    rng = random.Random(3)
    for _ in range(4_000):
        i = u.draw(rng)
        u.update(i, max(-1.0, min(1.0, rng.gauss(means[i], 0.5))))
    share = u.average()
    assert max(range(4), key=lambda k: share[k]) == 1
    assert share[1] > 0.5
    assert abs(u.mean(1) - 0.2) < 0.05


def test_prior_visits_hold_the_prior_against_a_few_bad_samples() -> None:
    u = UCBSelector(c=0.1)
    u.add("prior", visits=10.0, value=0.5)
    u.add("other")
    u.update(0, -1.0)  # an unlucky roll for the prior's choice
    u.update(1, 0.2)
    assert u.mean(0) > u.mean(1)
    assert u.draw(random.Random(0)) == 0
    # Without the virtual visits the one bad sample would have put it behind.
    v = UCBSelector(["prior", "other"], c=0.1)
    v.update(0, -1.0)
    v.update(1, 0.2)
    assert v.draw(random.Random(0)) == 1


def test_quick_search_uses_ucb_at_a_lone_decision() -> None:
    rs = get("quick")
    dice = Dice(5, recording=False)
    state, _ = rs.initial_state(rs.normalise_options({}), dice)
    ((seat, d),) = rs.pending(state).items()
    runs = []
    for alone in ("ucb", "rm"):
        bot = SearchBot(iterations=200, alone=alone)
        order = bot.choose(rs, state, seat, d, random.Random(4))
        assert d.validate(order) == order
        runs.append((order, bot.stats.root_orders, bot.stats.root_mix))
    (order, orders, shares), (_, _, rm_mix) = runs
    # UCB's shares are visit counts and the most visited order is played (robust child);
    # regret matching's average strategy is another statistic of its iterations.
    assert abs(sum(shares) - 1.0) < 1e-9
    assert order == orders[max(range(len(shares)), key=shares.__getitem__)]
    assert shares != rm_mix
