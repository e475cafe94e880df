"""Tests for gladiator.core.dice and gladiator.core.seeding.

The dice are the match's only source of chance, and every throw must be logged so a record can be
replayed and audited roll by roll. These tests pin down the notation, the board-game dice (D3 as
a halved D6, D66 as red tens and white units, the coloured 5D6 wound roll), the log, determinism,
and the seed commitment published at the start of a match.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gladiator.core.dice import Dice, DiceExpr, Roll, parse_dice
from gladiator.core.seeding import commit, fresh_nonce, fresh_seed, matches_commitment

# -- notation --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("notation", "expected"),
    [
        ("2D6", DiceExpr(2, 6, 0)),
        ("D6", DiceExpr(1, 6, 0)),
        ("1d6+2", DiceExpr(1, 6, 2)),
        ("2D3-1", DiceExpr(2, 3, -1)),
        ("1D3", DiceExpr(1, 3, 0)),
        ("D66", DiceExpr(1, 66, 0)),
        ("1D66", DiceExpr(1, 66, 0)),
        ("d66", DiceExpr(1, 66, 0)),
        ("D20", DiceExpr(1, 20, 0)),
        ("3D6", DiceExpr(3, 6, 0)),
        ("  2 d 6 + 3 ", DiceExpr(2, 6, 3)),
        ("2d6 - 1", DiceExpr(2, 6, -1)),
        ("\t3D6\n", DiceExpr(3, 6, 0)),
    ],
)
def test_parse_dice_accepts_board_game_notation(notation: str, expected: DiceExpr) -> None:
    """`nDm±k`, `Dm`, D3, D66 and D20 parse, ignoring case and surrounding/inner whitespace."""
    assert parse_dice(notation) == expected


@pytest.mark.parametrize(
    ("notation", "fragment"),
    [
        ("D", "not a dice expression"),
        ("", "not a dice expression"),
        ("abc", "not a dice expression"),
        ("2D", "not a dice expression"),
        ("2X6", "not a dice expression"),
        ("2D6+", "not a dice expression"),
        ("2D6*2", "not a dice expression"),
        ("0D6", "dice count must be 1..100"),
        ("101D6", "dice count must be 1..100"),
        ("2D1", "a die must have 2..1000 sides"),
        ("1D0", "a die must have 2..1000 sides"),
        ("3D66", "D66 is read as one two-digit number"),
        ("D66+1", "D66 is read as one two-digit number"),
    ],
)
def test_parse_dice_rejects_bad_notation_with_clear_message(notation: str, fragment: str) -> None:
    """Bad notation raises ValueError quoting the input and saying what is wrong, on one line."""
    with pytest.raises(ValueError) as info:
        parse_dice(notation)
    message = str(info.value)
    assert fragment in message
    assert repr(notation) in message
    assert "\n" not in message


@pytest.mark.parametrize(
    ("notation", "lo", "hi", "text"),
    [
        ("2D6", 2, 12, "2D6"),
        ("1D6+2", 3, 8, "1D6+2"),
        ("2D3-1", 1, 5, "2D3-1"),
        ("1D3", 1, 3, "1D3"),
        ("D66", 11, 66, "D66"),
        ("D20", 1, 20, "1D20"),
    ],
)
def test_dice_expr_minimum_maximum_and_canonical_text(
    notation: str, lo: int, hi: int, text: str
) -> None:
    """DiceExpr knows its range (2D3-1 is 1..5, D66 is 11..66) and prints canonical notation."""
    expr = parse_dice(notation)
    assert (expr.minimum, expr.maximum) == (lo, hi)
    assert str(expr) == text
    assert parse_dice(str(expr)) == expr


@pytest.mark.parametrize("notation", ["2D6", "1D6+2", "2D3-1", "1D3", "D66", "D20", "4D4-3"])
def test_rolled_totals_stay_within_expression_range(notation: str) -> None:
    """Every total thrown lies in [minimum, maximum], and over many throws both ends occur."""
    expr = parse_dice(notation)
    dice = Dice(7, recording=False)
    totals = {dice.roll(expr, "range check", "§test") for _ in range(4000)}
    assert min(totals) == expr.minimum
    assert max(totals) == expr.maximum


# -- the board-game dice ---------------------------------------------------------------------


def test_d3_is_a_d6_halved_rounding_up_with_d6_faces_recorded() -> None:
    """§2.5: a D3 is a D6 read 1-2 -> 1, 3-4 -> 2, 5-6 -> 3; the log keeps the D6 faces thrown."""
    dice = Dice(2024)
    halved = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}
    seen: Counter[int] = Counter()
    for _ in range(3000):
        roll = dice.roll_detail("1D3", "d3 check", "§2.5")
        (face,) = roll.faces
        assert 1 <= face <= 6
        assert roll.total == halved[face]
        seen[face] += 1
    assert set(seen) == set(range(1, 7)), "every D6 face should turn up under a D3"


def test_multiple_d3_with_modifier_halve_each_face() -> None:
    """2D3-1 halves each D6 face separately, then adds the modifier."""
    dice = Dice(5)
    for _ in range(2000):
        roll = dice.roll_detail("2D3-1", "d3 check", "§2.5")
        assert len(roll.faces) == 2
        assert roll.total == sum((f + 1) // 2 for f in roll.faces) - 1
        assert roll.notation == "2D3-1"


def test_d66_reads_red_tens_and_white_units_with_colours_recorded() -> None:
    """D66 throws a red die (tens) and a white die (units); the log records both colours."""
    dice = Dice(66)
    totals: set[int] = set()
    for _ in range(2000):
        roll = dice.roll_detail("D66", "d66 check", "§2.6")
        red, white = roll.faces
        assert roll.colours == ("red", "white")
        assert roll.total == red * 10 + white
        assert 1 <= red <= 6 and 1 <= white <= 6
        totals.add(roll.total)
    assert totals == {10 * t + u for t in range(1, 7) for u in range(1, 7)}


def test_plain_roll_sums_faces_and_adds_modifier() -> None:
    """An ordinary nDm±k total is the sum of the faces plus the modifier."""
    dice = Dice(3)
    for _ in range(500):
        roll = dice.roll_detail("3D6+2", "sum check", "§test")
        assert len(roll.faces) == 3
        assert roll.total == sum(roll.faces) + 2
        assert roll.colours == ()


def test_pair_throws_two_d6_read_separately() -> None:
    """`pair` returns both D6 faces and logs them as one 2D6 throw totalling their sum."""
    dice = Dice(11)
    a, b = dice.pair("doubles check", "§test")
    (roll,) = dice.log
    assert roll.notation == "2D6"
    assert roll.faces == (a, b)
    assert roll.total == a + b


def test_coloured_wound_roll_groups_faces_by_colour_in_order() -> None:
    """§10.1: 3 white, 1 black, 1 red thrown at once come back grouped by colour, in order."""
    colours = ["white", "white", "white", "black", "red"]
    dice = Dice(101)
    for _ in range(200):
        grouped = dice.coloured(colours, "wound", "§10.1")
        roll = dice.log[-1]
        assert roll.notation == "5D6"
        assert roll.colours == tuple(colours)
        assert list(grouped) == ["white", "black", "red"]
        assert grouped["white"] == list(roll.faces[:3])
        assert grouped["black"] == [roll.faces[3]]
        assert grouped["red"] == [roll.faces[4]]
        assert roll.total == sum(roll.faces)
        assert all(1 <= f <= 6 for f in roll.faces)


# -- the log ---------------------------------------------------------------------------------


def test_every_roll_is_logged_with_purpose_rule_and_sequential_index() -> None:
    """Each throw, by any method, adds one Roll carrying its purpose, rule and running index."""
    dice = Dice(42)
    dice.d(6, "initiative", "§4.1")
    dice.pair("fate", "§7.2")
    dice.roll("3D6", "CRT", "§9.5")
    dice.roll_detail("D66", "crowd", "§12.1")
    dice.coloured(["white", "red"], "wound", "§10.1")
    assert dice.count == 5
    assert [r.n for r in dice.log] == [0, 1, 2, 3, 4]
    assert [(r.purpose, r.rule) for r in dice.log] == [
        ("initiative", "§4.1"),
        ("fate", "§7.2"),
        ("CRT", "§9.5"),
        ("crowd", "§12.1"),
        ("wound", "§10.1"),
    ]
    assert [r.notation for r in dice.log] == ["1D6", "2D6", "3D6", "D66", "2D6"]


def test_roll_str_cites_rule_purpose_notation_faces_and_total() -> None:
    """A logged roll prints as `§9.5 CRT: 3D6 [a,b,c] = total` for transcripts."""
    roll = Roll(0, "3D6", (4, 5, 2), 11, "CRT", "§9.5")
    assert str(roll) == "§9.5 CRT: 3D6 [4,5,2] = 11"


def test_same_seed_gives_identical_log_and_different_seed_differs() -> None:
    """The log is a pure function of the seed: same seed, same log; another seed, another log."""

    def run(seed: int) -> list[Roll]:
        dice = Dice(seed)
        for i in range(50):
            dice.roll("2D6", f"roll {i}", "§test")
            dice.d(20, "d20", "§test")
            dice.roll("D66", "d66", "§test")
        return dice.log

    assert run(1234) == run(1234)
    assert run(1234) != run(1235)


def test_recording_false_logs_nothing_but_draws_the_same_numbers() -> None:
    """A non-recording Dice (for search bots) keeps no log yet yields the same stream."""
    loud, quiet = Dice(77), Dice(77, recording=False)

    def throws(dice: Dice) -> list[object]:
        return [
            dice.d(6, "a", "§t"),
            dice.pair("b", "§t"),
            dice.roll("2D3-1", "c", "§t"),
            dice.roll_detail("D66", "d", "§t").faces,
            dice.coloured(["white", "black"], "e", "§t"),
            dice.roll("4D8+1", "f", "§t"),
        ]

    assert throws(loud) == throws(quiet)
    assert quiet.log == []
    assert quiet.count == 0
    assert loud.count == 6


def test_fork_continues_the_same_stream_without_disturbing_the_original() -> None:
    """`fork()` gives a copy that draws what the original would draw next, independently."""
    dice = Dice(9)
    dice.roll("2D6", "before", "§t")
    log_before = list(dice.log)
    twin = dice.fork()
    ahead = [twin.roll("3D6", "look-ahead", "§t") for _ in range(20)]
    assert dice.log == log_before, "the fork must not add to the original's log"
    assert twin.log == [], "a fork does not record by default"
    assert twin.seed == dice.seed
    actual = [dice.roll("3D6", "real", "§t") for _ in range(20)]
    assert actual == ahead
    # The other way round: the original moving on does not move a fork taken earlier.
    later = dice.fork()
    original_next = [dice.d(6, "real", "§t") for _ in range(30)]
    assert [later.d(6, "look-ahead", "§t") for _ in range(30)] == original_next


def test_recording_fork_copies_the_log_and_keeps_indices_running() -> None:
    """`fork(recording=True)` copies the log; its new rolls never reach the original."""
    dice = Dice(10)
    dice.d(6, "a", "§t")
    dice.d(6, "b", "§t")
    twin = dice.fork(recording=True)
    twin.d(6, "c", "§t")
    assert [r.n for r in twin.log] == [0, 1, 2]
    assert twin.log[:2] == dice.log
    assert dice.count == 2


def test_d6_faces_are_uniform_by_chi_square() -> None:
    """60,000 D6 faces pass a (generous) chi-square goodness-of-fit bound for a fair die."""
    dice = Dice(31337, recording=False)
    counts = Counter(dice.d(6, "fairness", "§t") for _ in range(60_000))
    assert set(counts) == set(range(1, 7))
    expected = 60_000 / 6
    chi2 = sum((counts[f] - expected) ** 2 / expected for f in range(1, 7))
    # 5 degrees of freedom: P(chi2 > 30) is about 1.5e-5.
    assert chi2 < 30, counts


def test_general_notation_faces_are_uniform() -> None:
    """Faces thrown through `roll` (not just `d`) cover a D20 evenly."""
    dice = Dice(8)
    counts: Counter[int] = Counter()
    for _ in range(2000):
        counts.update(dice.roll_detail("10D20", "spread", "§t").faces)
    expected = 20_000 / 20
    chi2 = sum((counts[f] - expected) ** 2 / expected for f in range(1, 21))
    # 19 degrees of freedom: P(chi2 > 60) is below 1e-5.
    assert chi2 < 60, counts


# -- serialisation ---------------------------------------------------------------------------


@given(
    index=st.integers(0, 10_000),
    faces=st.lists(st.integers(1, 6), min_size=1, max_size=6),
    modifier=st.integers(-5, 5),
    purpose=st.text(max_size=20),
    rule=st.text(max_size=8),
    coloured=st.booleans(),
)
def test_roll_to_dict_from_dict_round_trips_through_json(
    index: int, faces: list[int], modifier: int, purpose: str, rule: str, coloured: bool
) -> None:
    """Roll.to_dict is JSON data that Roll.from_dict turns back into an equal Roll."""
    colours = tuple("white" for _ in faces) if coloured else ()
    roll = Roll(
        index, f"{len(faces)}D6", tuple(faces), sum(faces) + modifier, purpose, rule, colours
    )
    data = json.loads(json.dumps(roll.to_dict()))
    assert Roll.from_dict(data) == roll
    assert ("colours" in data) == coloured


def test_logged_rolls_round_trip() -> None:
    """Every kind of logged roll survives to_dict/from_dict unchanged."""
    dice = Dice(4)
    dice.roll("2D3-1", "a", "§t")
    dice.roll("D66", "b", "§t")
    dice.coloured(["white", "white", "white", "black", "red"], "c", "§10.1")
    dice.pair("d", "§t")
    for roll in dice.log:
        assert Roll.from_dict(json.loads(json.dumps(roll.to_dict()))) == roll


# -- seed commitment -------------------------------------------------------------------------


def test_commitment_is_sha256_hex_and_changes_with_seed_and_nonce() -> None:
    """The published commitment depends on both seed and nonce, so a small seed is not guessable."""
    c = commit(1, "abc")
    assert len(c) == 64 and all(ch in "0123456789abcdef" for ch in c)
    assert commit(1, "abc") == c
    assert commit(2, "abc") != c
    assert commit(1, "abd") != c


def test_matches_commitment_accepts_only_the_committed_seed_and_nonce() -> None:
    """Revealing the right seed and nonce verifies; a wrong seed or nonce does not."""
    seed, nonce = fresh_seed(), fresh_nonce()
    c = commit(seed, nonce)
    assert matches_commitment(seed, nonce, c)
    assert not matches_commitment(seed + 1, nonce, c)
    assert not matches_commitment(seed, nonce + "0", c)
    assert not matches_commitment(seed, nonce, c[:-1])


def test_fresh_seed_and_nonce_are_random_and_well_formed() -> None:
    """Fresh seeds are non-negative 63-bit ints; fresh nonces are 32 hex characters; both vary."""
    seeds = {fresh_seed() for _ in range(20)}
    nonces = {fresh_nonce() for _ in range(20)}
    assert len(seeds) == 20 and len(nonces) == 20
    assert all(0 <= s < 2**63 for s in seeds)
    assert all(len(n) == 32 and int(n, 16) >= 0 for n in nonces)


def test_thrown_counts_each_die_not_each_roll() -> None:
    """`thrown` counts individual dice: 5D6 is five, D66 two, 2D3-1 two, a pair two; `count`
    stays the number of logged rolls."""
    dice = Dice(5)
    dice.d(6, "a", "§t")
    dice.pair("b", "§t")
    dice.roll("5D6", "c", "§t")
    dice.roll_detail("D66", "d", "§t")
    dice.roll("2D3-1", "e", "§t")
    dice.coloured(["white", "white", "white", "black", "red"], "wound", "§10.1")
    assert dice.thrown == 1 + 2 + 5 + 2 + 2 + 5
    assert dice.thrown == sum(len(r.faces) for r in dice.log)
    assert dice.count == 6


def test_thrown_is_kept_without_recording_and_carried_by_a_fork() -> None:
    """A non-recording Dice still counts what it throws; a fork starts from the same count and
    counts on by itself."""
    quiet = Dice(6, recording=False)
    quiet.roll("5D6", "wound", "§10.1")
    quiet.coloured(["white", "red"], "wound", "§10.1")
    assert (quiet.count, quiet.thrown) == (0, 7)
    twin = quiet.fork()
    twin.d(20, "x", "§t")
    assert (twin.thrown, quiet.thrown) == (8, 7)
