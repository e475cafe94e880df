"""Tests for gladiator.core.decisions: self-describing decisions and their order notation.

Each decision kind must accept exactly the orders it describes (in forgiving notation, returned in
canonical form), reject everything else with an `IllegalOrder` that says what is legal, enumerate
its legal orders, draw only legal orders at random, and describe itself as plain JSON.
"""

from __future__ import annotations

import itertools
import json
import math
import random
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from gladiator.core.decisions import (
    Arrange,
    ChooseOne,
    Decision,
    Distribute,
    IllegalOrder,
    Option,
    PickHex,
    Slot,
    SlotGroup,
)
from gladiator.core.hexgrid import Hex

# -- IllegalOrder ----------------------------------------------------------------------------


def test_illegal_order_is_a_value_error_quoting_order_reason_and_legal() -> None:
    """IllegalOrder is a ValueError quoting the order, the reason and the legal orders."""
    err = IllegalOrder("XYZ", "not one of the choices", ["A", "B"])
    assert isinstance(err, ValueError)
    assert str(err) == "'XYZ' is illegal: not one of the choices; legal: A, B"
    assert err.order == "XYZ" and err.reason == "not one of the choices"
    assert err.legal == ("A", "B")


def test_illegal_order_message_truncates_long_legal_lists() -> None:
    """Only the first 24 legal orders are listed, with a count of the rest; `.legal` keeps all."""
    legal = [f"O{i}" for i in range(30)]
    err = IllegalOrder("?", "no", legal)
    assert "O23" in str(err) and "O24" not in str(err)
    assert "(+6 more)" in str(err)
    assert err.legal == tuple(legal)


# -- ChooseOne -------------------------------------------------------------------------------


def _choose() -> ChooseOne:
    return ChooseOne(
        prompt="act",
        options=(Option("MOVE", "move one hex"), Option("ATTACK HEAD"), Option("E", "end")),
        aliases=(("END", "E"), ("PASS", "E")),
    )


@pytest.mark.parametrize(
    ("order", "canonical"),
    [
        ("MOVE", "MOVE"),
        ("move", "MOVE"),
        ("  Move ", "MOVE"),
        ("attack head", "ATTACK HEAD"),
        ("  attack    HEAD  ", "ATTACK HEAD"),
        ("e", "E"),
        ("end", "E"),
        ("Pass", "E"),
    ],
)
def test_choose_one_validate_is_case_and_space_insensitive_and_accepts_aliases(
    order: str, canonical: str
) -> None:
    """ChooseOne matches ignoring case and runs of whitespace, maps aliases, returns option text."""
    assert _choose().validate(order) == canonical


@pytest.mark.parametrize("order", ["", "RUN", "ATTACKHEAD", "M", "MOVE 2"])
def test_choose_one_rejects_other_orders_listing_legal_options(order: str) -> None:
    """An order that is no option and no alias raises IllegalOrder naming every legal option."""
    with pytest.raises(IllegalOrder) as info:
        _choose().validate(order)
    assert info.value.legal == ("MOVE", "ATTACK HEAD", "E")
    message = str(info.value)
    assert repr(order) in message
    assert "MOVE, ATTACK HEAD, E" in message


def test_choose_one_legal_lists_option_texts_or_none_above_limit() -> None:
    """legal() returns the option texts in order, or None when there are more than `limit`."""
    d = _choose()
    assert d.legal() == ["MOVE", "ATTACK HEAD", "E"]
    assert d.legal(limit=2) is None


def test_choose_one_needs_an_option() -> None:
    """A ChooseOne with no options cannot be built."""
    with pytest.raises(ValueError, match="at least one option"):
        ChooseOne(prompt="nothing")


@given(
    texts=st.lists(
        st.text(alphabet="ABCDEFGHIJ0123456789", min_size=1, max_size=6),
        min_size=1,
        max_size=12,
        unique=True,
    ),
    seed=st.integers(0, 2**32),
)
def test_choose_one_sample_is_always_legal(texts: list[str], seed: int) -> None:
    """A randomly drawn ChooseOne order always validates to itself."""
    d = ChooseOne(prompt="pick", options=tuple(Option(t) for t in texts))
    rng = random.Random(seed)
    for _ in range(10):
        order = d.sample(rng)
        assert order in texts
        assert d.validate(order) == order


def test_choose_one_sample_reaches_every_option() -> None:
    """Sampling is not stuck on a few options: all of them turn up."""
    d = ChooseOne(prompt="pick", options=tuple(Option(str(i)) for i in range(8)))
    rng = random.Random(1)
    assert {d.sample(rng) for _ in range(400)} == {str(i) for i in range(8)}


# -- Distribute ------------------------------------------------------------------------------


def _body(**kwargs: Any) -> Distribute:
    return Distribute(
        prompt="armour",
        budget=kwargs.pop("budget", 6),
        slots=(Slot("head", 3), Slot("chest", 4, 1), Slot("arms", 2)),
        **kwargs,
    )


@pytest.mark.parametrize(
    ("order", "canonical"),
    [
        ("head:3 chest:2", "head:3 chest:2"),
        ("chest:2 head:3", "head:3 chest:2"),
        ("HEAD=3, Chest=2", "head:3 chest:2"),
        ("  arms:1   chest:1 ", "chest:1 arms:1"),
        ("chest:1 head:0", "chest:1"),
        ("chest:1,arms:2", "chest:1 arms:2"),
    ],
)
def test_distribute_reads_slot_points_notation_in_canonical_slot_order(
    order: str, canonical: str
) -> None:
    """`slot:points` items (or `slot=points`, comma or space separated, any case) are read and
    written back in slot order, leaving out slots given nothing."""
    assert _body().validate(order) == canonical


def test_distribute_sums_repeated_items() -> None:
    """Naming a slot twice adds the points."""
    assert _body().validate("chest:1 chest:2") == "chest:3"


def test_distribute_nothing_spent_is_written_dash() -> None:
    """An empty order, `-` or `none` spends nothing and is written `-`."""
    d = Distribute(prompt="p", budget=3, slots=(Slot("a", 3), Slot("b", 3)))
    for order in ("", "-", "none", " NONE "):
        assert d.validate(order) == "-"


def test_distribute_rejects_overspending_the_budget() -> None:
    """Spending more than the budget is illegal and the message says so."""
    with pytest.raises(IllegalOrder, match="spends 7 of a budget of 6"):
        _body().validate("head:3 chest:4")


@pytest.mark.parametrize(
    ("order", "fragment"),
    [
        ("head:4 chest:1", "head must be 0..3, not 4"),
        ("head:1", "chest must be 1..4, not 0"),
        ("chest:5", "chest must be 1..4, not 5"),
        ("chest:1 arms:-1", "arms must be 0..2, not -1"),
    ],
)
def test_distribute_enforces_each_slot_minimum_and_maximum(order: str, fragment: str) -> None:
    """Each slot's points must lie within its own minimum..maximum."""
    with pytest.raises(IllegalOrder, match=fragment):
        _body().validate(order)


def test_distribute_exact_requires_the_whole_budget() -> None:
    """With `exact`, spending less than the budget is illegal; spending it all is fine."""
    d = _body(exact=True)
    with pytest.raises(IllegalOrder, match="must spend exactly 6, not 5"):
        d.validate("head:3 chest:2")
    assert d.validate("head:3 chest:2 arms:1") == "head:3 chest:2 arms:1"


def test_distribute_max_used_caps_the_number_of_slots_with_points() -> None:
    """`max_used` limits how many slots may receive points."""
    d = _body(max_used=2)
    assert d.validate("head:3 chest:2") == "head:3 chest:2"
    with pytest.raises(IllegalOrder, match="at most 2 slots may be used, not 3"):
        d.validate("head:1 chest:1 arms:1")


@pytest.mark.parametrize(
    ("order", "fragment"),
    [
        ("head3", "cannot read 'HEAD3'"),
        ("head:x", "cannot read 'HEAD:X'"),
        ("head:", "cannot read 'HEAD:'"),
        (":3", "cannot read ':3'"),
        ("head:1.5", "cannot read"),
        ("legs:1", "no slot named 'LEGS'"),
    ],
)
def test_distribute_rejects_malformed_items_listing_slot_names(order: str, fragment: str) -> None:
    """An unreadable item or an unknown slot raises IllegalOrder listing the slot names."""
    with pytest.raises(IllegalOrder, match=fragment) as info:
        _body().validate(order)
    assert info.value.legal == ("head", "chest", "arms")


def _count_valid(
    bounds: list[tuple[int, int]], budget: int, exact: bool, max_used: int | None
) -> int:
    """Independent oracle: count the point vectors satisfying the Distribute rules directly."""
    count = 0
    for combo in itertools.product(*(range(lo, hi + 1) for lo, hi in bounds)):
        total = sum(combo)
        used = sum(1 for v in combo if v)
        if total > budget or (exact and total != budget):
            continue
        if max_used is not None and used > max_used:
            continue
        count += 1
    return count


def test_distribute_legal_count_matches_stars_and_bars() -> None:
    """3 slots of 0..3 with a budget of 4: the sums <= 4 number C(4+3, 3) = 35 (no cap binds
    except the single vector (4,0,0) and permutations, which exceed a slot maximum: 35 - 3)."""
    d = Distribute(prompt="p", budget=4, slots=(Slot("a", 3), Slot("b", 3), Slot("c", 3)))
    legal = d.legal()
    assert legal is not None
    assert len(legal) == math.comb(4 + 3, 3) - 3
    assert len(set(legal)) == len(legal)
    assert all(d.validate(o) == o for o in legal)


def test_distribute_exact_legal_count_matches_inclusion_exclusion() -> None:
    """Exactly 5 points in 3 slots of 0..3: C(7,2) - 3*C(3,2) = 21 - 9 = 12 ways."""
    d = Distribute(
        prompt="p", budget=5, exact=True, slots=(Slot("a", 3), Slot("b", 3), Slot("c", 3))
    )
    legal = d.legal()
    assert legal is not None
    assert len(legal) == math.comb(7, 2) - 3 * math.comb(3, 2) == 12


@pytest.mark.parametrize(
    ("budget", "exact", "max_used"),
    [(4, False, None), (4, False, 2), (5, True, None), (5, True, 2), (2, False, 1), (9, False, 1)],
)
def test_distribute_legal_enumerates_exactly_the_valid_combinations(
    budget: int, exact: bool, max_used: int | None
) -> None:
    """legal() lists each valid vector once, and matches an independent brute-force count."""
    bounds = [(0, 3), (1, 2), (0, 2), (0, 1)]
    d = Distribute(
        prompt="p",
        budget=budget,
        exact=exact,
        max_used=max_used,
        slots=tuple(Slot(n, hi, lo) for n, (lo, hi) in zip("wxyz", bounds, strict=True)),
    )
    legal = d.legal()
    assert legal is not None
    assert len(set(legal)) == len(legal)
    assert len(legal) == _count_valid(bounds, budget, exact, max_used)
    for order in legal:
        assert d.validate(order) == order


def test_distribute_legal_is_none_beyond_limit() -> None:
    """When there are more legal orders than `limit`, legal() returns None."""
    d = Distribute(prompt="p", budget=10, slots=tuple(Slot(f"s{i}", 5) for i in range(4)))
    assert d.legal(limit=10) is None
    full = d.legal()
    assert full is not None and len(full) == _count_valid([(0, 5)] * 4, 10, False, None)


@st.composite
def _distribute_specs(draw: st.DrawFn) -> Distribute:
    """Random feasible Distribute decisions (at least one legal order)."""
    n = draw(st.integers(1, 5))
    names = draw(
        st.lists(
            st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True),
            min_size=n,
            max_size=n,
            unique_by=str.upper,
        )
    )
    slots = []
    for name in names:
        hi = draw(st.integers(0, 6))
        lo = draw(st.integers(0, min(hi, 2)))
        slots.append(Slot(name, hi, lo))
    exact = draw(st.booleans())
    min_total = sum(s.minimum for s in slots)
    max_total = sum(s.maximum for s in slots)
    budget = draw(st.integers(min_total, max_total + 3))
    if exact:
        budget = min(budget, max_total)
    used_by_minimum = sum(1 for s in slots if s.minimum)
    max_used = draw(st.none() | st.integers(max(used_by_minimum, 1), n))
    return Distribute(prompt="p", budget=budget, slots=tuple(slots), exact=exact, max_used=max_used)


@settings(max_examples=150, deadline=None)
@given(d=_distribute_specs(), seed=st.integers(0, 2**32))
def test_distribute_sample_always_validates(d: Distribute, seed: int) -> None:
    """A randomly drawn Distribute order validates to itself and is among legal()."""
    legal = d.legal()
    assume(legal)
    assert legal is not None
    rng = random.Random(seed)
    for _ in range(5):
        order = d.sample(rng)
        assert d.validate(order) == order
        assert order in legal


def test_distribute_sample_respects_max_used_when_a_slot_has_a_minimum() -> None:
    """A slot with minimum > 0 is always used; sample must count it against `max_used`.

    Legal orders here are a:1, a:2, a:3 only, but sample() may give points to b or c too (and then
    raises IllegalOrder from its own validate).
    """
    d = Distribute(
        prompt="p", budget=3, max_used=1, slots=(Slot("a", 3, 1), Slot("b", 3), Slot("c", 3))
    )
    assert d.legal() == ["a:1", "a:2", "a:3"]
    for seed in range(100):
        assert d.validate(d.sample(random.Random(seed))) in {"a:1", "a:2", "a:3"}


def test_distribute_sample_with_exact_and_max_used_spends_the_budget() -> None:
    """With exact=True and max_used=1 the only legal order is b:4, and sample must find it."""
    d = Distribute(prompt="p", budget=4, exact=True, max_used=1, slots=(Slot("a", 1), Slot("b", 4)))
    assert d.legal() == ["b:4"]
    for seed in range(100):
        assert d.sample(random.Random(seed)) == "b:4"


# -- PickHex ---------------------------------------------------------------------------------


def _hexes() -> PickHex:
    return PickHex(prompt="move to", hexes=(Hex(0, 0), Hex(1, -1), Hex(-2, 3)))


@pytest.mark.parametrize(
    ("order", "canonical"),
    [
        ("0,0", "0,0"),
        ("1,-1", "1,-1"),
        ("(1, -1)", "1,-1"),
        ("( -2 , 3 )", "-2,3"),
        ("  -2,3  ", "-2,3"),
        ("-2 3", "-2,3"),
    ],
)
def test_pick_hex_reads_q_r_and_bracketed_forms(order: str, canonical: str) -> None:
    """A hex is written `q,r` (also `(q, r)` or `q r`) and returned as `q,r`."""
    assert _hexes().validate(order) == canonical


def test_pick_hex_rejects_a_hex_not_offered_listing_the_offered_ones() -> None:
    """A well-formed hex that is not offered is illegal; the legal list names the offered hexes."""
    with pytest.raises(IllegalOrder, match="not one of the hexes offered") as info:
        _hexes().validate("2,2")
    assert info.value.legal == ("0,0", "1,-1", "-2,3")


@pytest.mark.parametrize("order", ["", "1", "1,", "a,b", "1;2", "1,2,3", "[1,2]", "1.0,2"])
def test_pick_hex_rejects_malformed_hexes(order: str) -> None:
    """Anything that is not two integers raises IllegalOrder asking for `q,r`."""
    with pytest.raises(IllegalOrder, match="write a hex as q,r"):
        _hexes().validate(order)


def test_pick_hex_legal_and_sample() -> None:
    """legal() lists the offered hexes; sample() only draws offered hexes and reaches them all."""
    d = _hexes()
    assert d.legal() == ["0,0", "1,-1", "-2,3"]
    assert d.legal(limit=2) is None
    rng = random.Random(3)
    drawn = {d.sample(rng) for _ in range(200)}
    assert drawn == {"0,0", "1,-1", "-2,3"}
    assert all(d.validate(o) == o for o in drawn)


# -- Arrange ---------------------------------------------------------------------------------


def _arrange(n: int = 3) -> Arrange:
    return Arrange(prompt="order attacks", items=tuple(["Sword", "Net", "Trident", "Kick"][:n]))


@pytest.mark.parametrize(
    ("order", "canonical"),
    [
        ("Sword Net Trident", "Sword Net Trident"),
        ("trident sword net", "Trident Sword Net"),
        ("NET,  TRIDENT, sword", "Net Trident Sword"),
    ],
)
def test_arrange_accepts_any_permutation_in_canonical_spelling(order: str, canonical: str) -> None:
    """Every permutation of the items is legal; the items keep their own spelling."""
    assert _arrange().validate(order) == canonical


@pytest.mark.parametrize(
    "order", ["", "Sword Net", "Sword Net Net", "Sword Net Trident Trident", "Sword Net Axe"]
)
def test_arrange_rejects_missing_duplicate_or_unknown_items(order: str) -> None:
    """Each item must be named exactly once."""
    with pytest.raises(IllegalOrder, match="name every item exactly once"):
        _arrange().validate(order)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_arrange_legal_lists_all_n_factorial_permutations(n: int) -> None:
    """legal() lists n! distinct orders, each of which validates to itself."""
    d = _arrange(n)
    legal = d.legal()
    assert legal is not None
    assert len(legal) == len(set(legal)) == math.factorial(n)
    assert all(d.validate(o) == o for o in legal)
    assert _arrange(4).legal(limit=10) is None


@given(seed=st.integers(0, 2**32), n=st.integers(1, 4))
def test_arrange_sample_is_always_a_legal_permutation(seed: int, n: int) -> None:
    """A drawn arrangement validates to itself."""
    d = _arrange(n)
    order = d.sample(random.Random(seed))
    assert d.validate(order) == order


# -- self-description ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("decision", "kind", "extra"),
    [
        (
            ChooseOne(
                prompt="act",
                secret=True,
                options=(Option("MOVE", "move", Hex(1, 2)), Option("E")),
            ),
            "choose",
            {
                "options": [
                    {"text": "MOVE", "label": "move", "hex": [1, 2]},
                    {"text": "E", "label": ""},
                ]
            },
        ),
        (
            Distribute(prompt="spend", budget=3, slots=(Slot("a", 2), Slot("b", 3, 1)), max_used=2),
            "distribute",
            {
                "budget": 3,
                "exact": False,
                "max_used": 2,
                "slots": [{"name": "a", "min": 0, "max": 2}, {"name": "b", "min": 1, "max": 3}],
            },
        ),
        (PickHex(prompt="hex", hexes=(Hex(0, 0), Hex(-1, 2))), "hex", {"hexes": [[0, 0], [-1, 2]]}),
        (Arrange(prompt="order", items=("X", "Y")), "arrange", {"items": ["X", "Y"]}),
    ],
)
def test_to_dict_is_json_and_self_describing(
    decision: Decision, kind: str, extra: dict[str, Any]
) -> None:
    """Each decision describes itself as JSON data naming its kind, prompt, secrecy and contents."""
    data = json.loads(json.dumps(decision.to_dict()))
    assert data["kind"] == kind == decision.kind
    assert data["prompt"] == decision.prompt
    assert data["secret"] is decision.secret
    for key, value in extra.items():
        assert data[key] == value


def test_distribute_slot_groups_cap_what_their_slots_take_together() -> None:
    d = Distribute(
        prompt="p",
        budget=6,
        slots=(Slot("A", 6), Slot("B", 6), Slot("C", 6)),
        groups=(SlotGroup(("B", "C"), 2, "rule 9"),),
    )
    assert d.validate("A:4 B:1 C:1") == "A:4 B:1 C:1"
    with pytest.raises(IllegalOrder, match=r"B, C may take 2 together, not 3 \(rule 9\)"):
        d.validate("A:3 B:2 C:1")
    rng = random.Random(5)
    for _ in range(300):
        amounts = d.parse(d.sample(rng))
        assert amounts["B"] + amounts["C"] <= 2
    legal = d.legal()
    assert legal is not None and "B:2" in legal and "B:1 C:2" not in legal
    assert d.to_dict()["groups"] == [{"slots": ["B", "C"], "max": 2, "why": "rule 9", "label": ""}]


def test_candidates_lists_every_order_when_few() -> None:
    d = ChooseOne(prompt="pick", options=(Option("A"), Option("B"), Option("C")))
    assert d.candidates(random.Random(1), limit=8) == ["A", "B", "C"]


def test_candidates_samples_distinct_legal_orders_when_many() -> None:
    d = Distribute(
        prompt="share 10",
        budget=10,
        slots=tuple(Slot(name, 10) for name in ("H", "B", "L", "D")),
    )
    got = d.candidates(random.Random(7), limit=16)
    assert len(got) == len(set(got)) == 16
    assert all(d.validate(o) == o for o in got)
    assert got == d.candidates(random.Random(7), limit=16)  # seeded: the same set again
