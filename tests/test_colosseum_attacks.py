"""Colosseum combat rounds (§9.3-§9.6): allocation, attack sequence, CRT, CF-loss propagation.

Each test names the rule section (or Part 4 example, or Part 5 question) it checks; worked examples
come from shared/rules/colosseum.md Part 4. Dice are scripted where a test needs exact numbers.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gladiator.core.decisions import IllegalOrder
from gladiator.core.dice import Dice
from gladiator.rules.colosseum.combat.cf_allocation import (
    AREA_NUMBERS,
    Allocation,
    AllocationError,
    allocation_decision,
    format_allocation,
    parse_allocation,
)
from gladiator.rules.colosseum.combat.crt import (
    CrtOutcome,
    convert_result,
    crt_column,
    modified_cf,
    resolve_crt,
)
from gladiator.rules.colosseum.combat.rounds import PhaseCombat
from gladiator.rules.colosseum.combat.sequence import attack_schedule, attack_sequence, duel_plans
from gladiator.rules.colosseum.tables.crt_tables import CrtResult
from gladiator.rules.colosseum.vocabulary import AREAS, Area

# --- helpers -------------------------------------------------------------------------------------


class ScriptedDice:
    """Dice that return the given totals in order and record what each roll was for."""

    def __init__(self, *totals: int) -> None:
        self.totals = list(totals)
        self.log: list[tuple[str, str, str]] = []

    def roll(self, notation: str, purpose: str, rule: str) -> int:
        assert self.totals, f"no scripted total left for {notation} {purpose} ({rule})"
        self.log.append((notation, purpose, rule))
        return self.totals.pop(0)

    def done(self) -> bool:
        return not self.totals


class StubHits:
    """on_hit stub: returns the scripted CF losses in order (0 when none left), records calls."""

    def __init__(self, *losses: int) -> None:
        self.losses = list(losses)
        self.calls: list[tuple[int, int, Area, str]] = []

    def __call__(self, attacker: int, defender: int, area: Area, result: CrtOutcome) -> int:
        self.calls.append((attacker, defender, area, str(result.result)))
        return self.losses.pop(0) if self.losses else 0


def alloc(text: str, available: int = 20) -> Allocation:
    return parse_allocation(text, available)


def combat(
    g: str, o: str, dice: Any, hits: Any, **kwargs: Any
) -> PhaseCombat:  # G is side 0, O side 1
    return PhaseCombat(duel_plans((alloc(g), alloc(o))), dice, hits, names=("G", "O"), **kwargs)


def outcomes_by(c: PhaseCombat) -> dict[tuple[int, str], CrtOutcome]:
    return {(p.side, p.area): o for p, o in c.outcomes}


def types(c: PhaseCombat) -> list[str]:
    return [e["type"] for e in c.events]


def cr(text: str) -> CrtResult:
    return CrtResult.model_validate(text)


# --- Part 4 worked examples ----------------------------------------------------------------------


def test_ex_9_6_fumble_penalty_2_minus_3_minus_minus_4_is_3() -> None:
    # G attacks the chest with 3 CF in round 3; O's 2-CF head attack is in round 3 too, so G's
    # goes first (§9.4.4). G fumbles (column 3, roll 3 = F), the penalty die is 4, and O's head
    # attack meets 3 - 4 = -1 defence: modified CF 2 - (3 - 4) = 3, column 3.
    dice = ScriptedDice(3, 4, 10)
    hits = StubHits()
    c = combat("A3:chest D3:head", "A2:head", dice, hits)
    c.run()
    assert dice.done()
    assert modified_cf(2, 3, fumble_penalty=4) == 3
    g_attack, o_attack = (o for _p, o in c.outcomes)
    assert str(g_attack.result) == "F"
    assert o_attack.attack_cf == 2
    assert o_attack.defence_cf == -1
    assert o_attack.modified_cf == 3
    assert (o_attack.column, o_attack.column_drm) == (3, 0)
    assert str(o_attack.result) == "P"  # T5 column 3, roll 10
    assert c.fumbled == [True, False]
    assert c.defence_cf(0, "head") == -1
    assert dice.log[1] == ("1D6", "fumble penalty", "§9.6")
    assert "fumble_penalty" in types(c)
    assert hits.calls == [(1, 0, "head", "P")]


def test_ex_9_4_7_loss_of_3_cancels_a_1_cf_attack_and_2_come_off_the_next_defence() -> None:
    # O's arms attack (round 2) costs G 3 CF. G's only unresolved attack (head, 1 CF, round 3) is
    # cancelled; the other 2 CF come off the defence of G's next area attacked: the chest in
    # round 4, 2 - 2 = 0, so O's 5-CF chest attack is read at modified CF 5.
    dice = ScriptedDice(12, 9)
    hits = StubHits(3, 0)
    c = combat("A1:head D2:chest", "A4:arms A5:chest", dice, hits)
    c.run()
    assert dice.done()  # G's cancelled attack throws no die
    assert c.attack_status(0, "head") == "cancelled"
    assert c.attack_cf(0, "head") == 0
    chest = outcomes_by(c)[(1, "chest")]
    assert chest.defence_cf == 0
    assert chest.modified_cf == 5
    assert c.defence_cf(0, "chest") == 0
    account = c.accounts[0]
    assert (account.lost, account.off_attacks, account.off_defence, account.no_effect) == (
        3,
        1,
        2,
        0,
    )
    kinds = types(c)
    assert kinds.index("attack_cancelled") < kinds.index("defence_loss_waiting")
    assert kinds.index("defence_loss_waiting") < kinds.index("defence_reduced")


def test_ex_9_4_5_an_axe_making_two_attacks_strikes_in_rounds_3_and_5() -> None:
    assert attack_schedule(2) == (2, 4)
    assert attack_schedule(2, speed=+1) == (3, 5)
    steps = attack_sequence(duel_plans((alloc("A2:head A2:legs"), alloc("-"))), speeds=(1, 0))
    assert [(s.round, s.attacks[0].area) for s in steps] == [(3, "head"), (5, "legs")]


# --- §9.4 attack sequence ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attacks", "rounds"),
    [(0, ()), (1, (3,)), (2, (2, 4)), (3, (1, 3, 5)), (4, (1, 2, 4, 5)), (5, (1, 2, 3, 4, 5))],
)
def test_t10_rounds_for_0_to_5_attacks(attacks: int, rounds: tuple[int, ...]) -> None:
    assert attack_schedule(attacks) == rounds


@pytest.mark.parametrize(
    ("attacks", "speed", "rounds"),
    [
        (5, 1, (2, 3, 4, 5, 5)),
        (3, -1, (1, 2, 4)),
        (1, -5, (1,)),
        (1, 9, (5,)),
        (4, 2, (3, 4, 5, 5)),
    ],
)
def test_s9_4_5_speed_shift_is_clamped_to_rounds_1_to_5(
    attacks: int, speed: int, rounds: tuple[int, ...]
) -> None:
    assert attack_schedule(attacks, speed) == rounds


def test_s9_4_4_in_the_same_round_more_cf_goes_first() -> None:
    steps = attack_sequence(duel_plans((alloc("A2:head"), alloc("A5:chest"))))
    assert [(s.round, s.attacks[0].side, s.simultaneous) for s in steps] == [
        (3, 1, False),
        (3, 0, False),
    ]


def test_s9_4_4_equal_cf_in_the_same_round_is_simultaneous() -> None:
    steps = attack_sequence(duel_plans((alloc("A3:head A1:legs"), alloc("A3:arms A4:chest"))))
    # Rounds 2 and 4 for both: round 2 is 3 = 3 (simultaneous), round 4 is 4 then 1.
    assert len(steps) == 3
    assert steps[0].round == 2 and steps[0].simultaneous
    assert {(p.side, p.area) for p in steps[0].attacks} == {(0, "head"), (1, "arms")}
    assert [(s.round, s.attacks[0].side, s.attacks[0].area) for s in steps[1:]] == [
        (4, 1, "chest"),
        (4, 0, "legs"),
    ]


def test_s9_4_4_different_rounds_are_resolved_round_by_round() -> None:
    steps = attack_sequence(duel_plans((alloc("A1:head A1:chest A1:groin"), alloc("A8:legs"))))
    assert [(s.round, s.attacks[0].side) for s in steps] == [(1, 0), (3, 1), (3, 0), (5, 0)]


def test_q25_default_order_is_ascending_area_number() -> None:
    a = Allocation.of(10, attack={"legs": 1, "head": 2})
    assert a.order == ("head", "legs")
    steps = attack_sequence(duel_plans((a, alloc("-"))))
    assert [(s.round, s.attacks[0].area) for s in steps] == [(2, "head"), (4, "legs")]


def test_q25_the_order_written_is_the_order_of_attack() -> None:
    a = alloc("A2:chest A3:head D1:arms")
    assert a.order == ("chest", "head")
    assert format_allocation(a) == "A2:chest A3:head D1:arms"
    steps = attack_sequence(duel_plans((a, alloc("-"))))
    assert [(s.round, s.attacks[0].area) for s in steps] == [(2, "chest"), (4, "head")]
    explicit = Allocation.of(10, attack={"head": 3, "chest": 2}, order=("chest", "head"))
    assert explicit.order == ("chest", "head")


def test_s9_4_5_clamped_attacks_of_one_side_in_one_round_go_by_cf() -> None:
    a = alloc("A1:head A2:chest A3:groin A4:arms A5:legs")
    steps = attack_sequence(duel_plans((a, alloc("-"))), speeds=(1, 0))
    assert [(s.round, s.attacks[0].area) for s in steps] == [
        (2, "head"),
        (3, "chest"),
        (4, "groin"),
        (5, "legs"),
        (5, "arms"),
    ]


# --- §9.4.4 resolution within a round ------------------------------------------------------------


def test_s9_4_4_the_first_attack_changes_the_later_one_in_the_same_round() -> None:
    dice = ScriptedDice(14, 10)
    hits = StubHits(2, 0)
    c = combat("A5:head", "A3:chest", dice, hits)
    c.run()
    by = outcomes_by(c)
    assert by[(0, "head")].attack_cf == 5
    assert by[(1, "chest")].attack_cf == 1  # 3 - 2, taken at once (§9.4.6)
    assert [p.side for p, _o in c.outcomes] == [0, 1]


def test_s9_4_4_simultaneous_attacks_use_the_values_from_before_the_round() -> None:
    # Round 2: G head 3 = O arms 3, both hit and both lose 2. Both are read at 3 CF; the losses
    # fall on the next attacks: G's chest 3 -> 1, O's legs 2 -> cancelled.
    dice = ScriptedDice(14, 14, 10)
    hits = StubHits(2, 2, 0)
    c = combat("A3:head A3:chest", "A3:arms A2:legs", dice, hits)
    c.run()
    assert dice.done()
    by = outcomes_by(c)
    assert by[(0, "head")].attack_cf == 3
    assert by[(1, "arms")].attack_cf == 3
    assert by[(0, "chest")].attack_cf == 1
    assert (1, "legs") not in by
    assert c.attack_status(1, "legs") == "cancelled"
    assert "simultaneous" in types(c)
    assert [call[:3] for call in hits.calls] == [(0, 1, "head"), (1, 0, "arms"), (0, 1, "chest")]


def test_s9_4_4_a_simultaneous_fumble_does_not_weaken_the_other_attack_of_its_round() -> None:
    # G fumbles in round 3 at the same moment as O's attack lands: O's attack is read on the
    # pre-round defence (no penalty die); the penalty would wait for a later attack.
    dice = ScriptedDice(3, 10)
    hits = StubHits()
    c = combat("A1:chest D2:head", "A1:head", dice, hits)
    c.run()
    assert dice.done()
    assert c.fumbled == [True, False]
    assert outcomes_by(c)[(1, "head")].defence_cf == 2
    assert "fumble_penalty" not in types(c)


# --- §9.4.6-§9.4.8 CF-loss propagation -----------------------------------------------------------


def test_s9_4_6_an_attack_cut_to_0_is_cancelled_and_the_sequence_stands() -> None:
    # G attacks in rounds 1, 3, 5 (head 1, chest 1, groin 2); O in rounds 2, 4. O's arms hit in
    # round 2 costs G 2 CF: the chest attack is cancelled and the groin attack drops to 1 CF, but
    # it still strikes in round 5 (the sequence is not recalculated to rounds 2 and 4).
    dice = ScriptedDice(6, 12, 6, 10)
    hits = StubHits(2, 0, 0)
    c = combat("A1:head A1:chest A2:groin", "A4:arms A4:legs", dice, hits)
    before = c.sequence
    c.run()
    assert c.sequence is before
    assert dice.done()
    assert c.attack_status(0, "chest") == "cancelled"
    groin = [(p, o) for p, o in c.outcomes if (p.side, p.area) == (0, "groin")]
    assert len(groin) == 1
    assert groin[0][0].round == 5
    assert groin[0][1].attack_cf == 1
    assert c.accounts[0].off_attacks == 2
    assert [e["rule"] for e in c.events if e["type"] in {"attack_cancelled", "attack_reduced"}] == [
        "§9.4.6",
        "§9.4.6",
    ]


def test_s9_4_8_a_loss_with_nothing_left_to_take_it_has_no_effect() -> None:
    dice = ScriptedDice(14)
    hits = StubHits(5)
    c = combat("A3:head", "A5:chest", dice, hits)  # O first (5 > 3), G's attack is cancelled
    c.run()
    assert dice.done()
    account = c.accounts[0]
    assert (account.lost, account.off_attacks, account.off_defence, account.no_effect) == (
        5,
        3,
        0,
        2,
    )
    assert "loss_without_effect" in types(c)
    assert c.defence_cf(0, "head") == 0


def test_s9_4_8_a_waiting_loss_with_no_attack_left_against_him_lapses_at_the_end() -> None:
    dice = ScriptedDice(12)
    hits = StubHits(3)
    c = combat("A1:legs", "A4:arms A1:head", dice, hits)
    c.step()  # round 2: O's arms hit, G's legs attack cancelled, 2 CF waiting
    assert c.accounts[0].waiting == 2
    c.cancel_attacks(1, "killed", "§10.3.2")  # say O is killed: no attack comes
    c.run()
    assert c.done
    account = c.accounts[0]
    assert (account.waiting, account.no_effect, account.off_defence) == (0, 2, 0)
    assert types(c)[-2:] == ["loss_without_effect", "combat_end"]


def test_s9_4_7_each_waiting_loss_hits_the_next_area_attacked_and_may_go_below_0() -> None:
    # G has nothing to attack with. O's head hit (round 1) costs him 2: it comes off the chest,
    # attacked next (round 3): 0 - 2 = -2. The chest hit costs 3: off the legs in round 5,
    # 1 - 3 = -2.
    dice = ScriptedDice(14, 14, 10)
    hits = StubHits(2, 3, 0)
    c = combat("D1:legs", "A3:head A3:chest A2:legs", dice, hits)
    c.run()
    by = outcomes_by(c)
    assert by[(1, "head")].defence_cf == 0
    assert by[(1, "chest")].defence_cf == -2
    assert by[(1, "chest")].modified_cf == 5
    legs = by[(1, "legs")]
    assert legs.defence_cf == -2
    assert legs.modified_cf == 4
    assert legs.unweakened_cf == 2  # §12.2 NOTE: the negative defence does not count
    assert c.defence_cf(0, "chest") == c.defence_cf(0, "legs") == -2
    assert c.accounts[0].off_defence == 5


# --- §9.6 fumble ---------------------------------------------------------------------------------


def test_s9_6_a_fumble_cancels_the_fumblers_remaining_attacks() -> None:
    dice = ScriptedDice(3)
    hits = StubHits()
    c = combat("A1:head A1:chest A1:groin", "-", dice, hits)
    c.run()
    assert dice.done()
    assert [c.attack_status(0, a) for a in ("head", "chest", "groin")] == [
        "resolved",
        "cancelled",
        "cancelled",
    ]
    assert hits.calls == []


# --- §9.5 CRT ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("modified", "column", "drm"),
    [(-2, 1, -3), (0, 1, -1), (1, 1, 0), (5, 5, 0), (8, 8, 0), (11, 8, 3), (9, 8, 1)],
)
def test_s9_5_3_and_s9_5_4_column_clamping_turns_the_excess_into_a_drm(
    modified: int, column: int, drm: int
) -> None:
    assert crt_column(modified) == (column, drm)


@pytest.mark.parametrize(
    ("attack", "defence", "roll", "column", "total", "result"),
    [
        (3, 0, 10, 3, 10, "P"),  # R-9.5-crt-lookup
        (8, 0, 18, 8, 18, "H+3"),
        (1, 0, 3, 1, 3, "F"),
        (10, 0, 15, 8, 17, "H+3"),  # modified CF 10: column 8, +2
        (1, 2, 12, 1, 10, "S*"),  # modified CF -1: column 1, -2
        (1, 3, 12, 1, 9, "S"),  # modified CF -2: column 1, -3
        (8, -3, 10, 8, 13, "H+1"),  # modified CF 11: column 8, +3
        (1, 11, 5, 1, 3, "F"),  # Q27: the roll is clamped to 3
        (8, -20, 18, 8, 18, "H+3"),  # ... and to 18+
    ],
)
def test_s9_5_crt_reading(
    attack: int, defence: int, roll: int, column: int, total: int, result: str
) -> None:
    dice = ScriptedDice(roll)
    outcome, events = resolve_crt(dice, attack, defence)
    assert (outcome.column, outcome.total, str(outcome.result)) == (column, total, result)
    assert outcome.modified_cf == attack - defence
    assert dice.log == [("3D6", "CRT attack", "§9.5.1")]
    assert events[0]["type"] == "crt"


def test_s9_5_other_drms_are_added_to_the_roll() -> None:
    outcome, _ = resolve_crt(ScriptedDice(10), 3, 0, drm=2)
    assert (outcome.total, str(outcome.result)) == (12, "H-2")


def test_s9_5_a_phase_takes_other_drms_from_its_callback() -> None:
    dice = ScriptedDice(10)
    c = PhaseCombat(
        duel_plans((alloc("A3:head"), alloc("-"))), dice, StubHits(), drm=lambda a, d, area: 2
    )
    c.run()
    assert str(c.outcomes[0][1].result) == "H-2"  # column 3, 10 + 2 = 12


def test_q1_the_reference_sheet_crt_is_an_option() -> None:
    outcome, _ = resolve_crt(ScriptedDice(18), 8, 0, crt="reference")
    assert str(outcome.result) == "H+10"


def test_s9_5_an_attack_needs_at_least_1_cf() -> None:
    with pytest.raises(ValueError, match="at least 1 CF"):
        resolve_crt(ScriptedDice(10), 0, 0)


# --- §9.6 conversions ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cell", "weapon", "shield", "result"),
    [
        ("S", True, False, "P"),
        ("S*", True, False, "P"),
        ("P", False, True, "H"),
        ("P*", True, False, "H"),
        ("P*", False, True, "H"),
        ("S", False, False, "H"),  # S -> P -> H: no shield, then no weapon to parry with
        ("S", False, True, "S"),
        ("P", True, False, "P"),
        ("H-2", False, False, "H-2"),
        ("F", False, False, "F"),
        ("-", False, False, "-"),
        ("P*", True, True, "P*"),
    ],
)
def test_s9_6_results_for_a_defender_without_shield_or_weapon(
    cell: str, weapon: bool, shield: bool, result: str
) -> None:
    got, _changes = convert_result(cr(cell), has_weapon=weapon, has_shield=shield)
    assert str(got) == result


def test_s9_6_conversions_in_a_phase_follow_the_kit_of_the_moment() -> None:
    # O has no shield: G's S (column 1, roll 7) becomes P. Then the callback drops O's weapon,
    # so G's next P (column 1, roll 11) becomes H.
    dice = ScriptedDice(7, 11)
    calls: list[str] = []

    def on_hit(attacker: int, defender: int, area: Area, result: CrtOutcome) -> int:
        calls.append(f"{result.crt}>{result.result}")
        if result.code == "P":
            c.set_equipment(defender, weapon=False)
        return 0

    c = PhaseCombat(
        duel_plans((alloc("A1:head A1:legs"), alloc("-"))), dice, on_hit, has_shield=(True, False)
    )
    c.run()
    assert calls == ["S>P", "P>H"]
    assert not c.has_item(1, "weapon")
    assert [e["rule"] for e in c.events if e["type"] == "conversion"] == ["§9.6", "§9.6"]


# --- §9.3 allocation and its notation ------------------------------------------------------------


def test_s9_3_2_at_most_8_attack_cf_on_one_area() -> None:
    assert alloc("A8:head").attack_on("head") == 8
    with pytest.raises(AllocationError, match=r"at most 8 on one area \(§9.3.2\)"):
        alloc("A9:head")


def test_s9_3_3_defence_has_no_per_area_limit_unless_the_option_asks() -> None:
    assert alloc("D12:head", 12).defence_on(1) == 12
    with pytest.raises(ValueError, match="defence_cap"):
        parse_allocation("D12:head", 12, defence_cap=8)
    assert allocation_decision(12).validate("D-HEAD:12") == "D-HEAD:12"
    with pytest.raises(IllegalOrder):
        allocation_decision(12, defence_cap=8).validate("D-HEAD:12")


def test_s9_3_1_the_total_may_not_exceed_the_cf_available() -> None:
    assert alloc("A4:head D3:arms", 7).unspent == 0
    assert alloc("A4:head", 7).unspent == 3
    with pytest.raises(AllocationError, match=r"only 7 are available \(§9.3.1\)"):
        alloc("A4:head D4:arms", 7)
    # Below 1 CF available (§10.3.3) he may allocate nothing.
    assert alloc("-", -2).total == 0
    with pytest.raises(AllocationError):
        alloc("D1:head", -2)


def test_s9_4_1_one_attack_per_area_at_most_5() -> None:
    a = alloc("A1:head A1:chest A1:groin A1:arms A1:legs")
    assert len(a.attacks) == 5
    with pytest.raises(AllocationError, match="named twice"):
        alloc("A1:head A2:head")


def test_notation_reads_both_forms_names_numbers_and_any_case() -> None:
    a = alloc("A3:head A2:chest D2:arms")
    assert a == alloc("a3:HEAD, A2:2 d2:4")
    assert a == alloc("A-HEAD:3 A-CHEST:2 D-ARMS:2")
    assert a == Allocation.of(20, attack={"head": 3, 2: 2}, defence={"arms": 2})
    assert format_allocation(a) == "A3:head A2:chest D2:arms"
    assert format_allocation(a, "slots") == "A-HEAD:3 A-CHEST:2 D-ARMS:2"
    assert str(a) == "A3:head A2:chest D2:arms"
    assert alloc("") == alloc("-") == alloc("none") == Allocation(20)
    assert format_allocation(Allocation(20)) == "-"
    assert alloc("A0:head D0:legs") == Allocation(20)


@pytest.mark.parametrize(
    "text",
    [
        "A3:hed",
        "A3head",
        "X3:head",
        "A-HEAD:-1",
        "A9:head",
        "A3:head\nA3:head",
        "A3:6",
        "A15:chest D10:legs",
    ],
)
def test_notation_errors_are_one_line_value_errors(text: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_allocation(text, 20)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith("allocation ")


def test_allocation_rejects_a_bad_order() -> None:
    with pytest.raises(AllocationError, match="Q25"):
        Allocation.of(10, attack={"head": 1}, order=("chest",))
    with pytest.raises(AllocationError, match="Q25"):
        Allocation.of(10, attack={"head": 1, "legs": 1}, order=("head",))


@st.composite
def allocations(draw: st.DrawFn, low: int = -2, high: int = 30) -> Allocation:
    available = draw(st.integers(low, high))
    left = max(available, 0)
    attack = [0] * 5
    defence = [0] * 5
    for i in draw(st.permutations(range(10))):
        if i < 5:
            v = draw(st.integers(0, min(8, left)))
            attack[i] = v
        else:
            v = draw(st.integers(0, left))
            defence[i - 5] = v
        left -= v
    attacked = [a for a, v in zip(AREAS, attack, strict=True) if v]
    order = draw(st.permutations(attacked))
    return Allocation(available, tuple(attack), tuple(defence), tuple(order))


@settings(max_examples=200, deadline=None)
@given(allocations(), st.sampled_from(["short", "slots"]))
def test_notation_round_trip(a: Allocation, style: Any) -> None:
    text = format_allocation(a, style)
    assert parse_allocation(text, a.available) == a
    assert format_allocation(parse_allocation(text, a.available), style) == text


# --- the generic decision ------------------------------------------------------------------------


def test_allocation_decision_describes_the_slots() -> None:
    d = allocation_decision(10)
    assert d.secret and d.budget == 10 and not d.exact
    assert d.names() == [f"{k}-{a.upper()}" for k in "AD" for a in AREAS]
    assert [s.maximum for s in d.slots] == [8] * 5 + [10] * 5
    assert allocation_decision(-3).budget == 0


def test_every_distribute_legal_order_is_a_valid_allocation_and_vice_versa() -> None:
    budget = 2
    d = allocation_decision(budget)
    legal = d.legal()
    assert legal is not None
    parsed = {parse_allocation(order, budget) for order in legal}
    assert len(parsed) == len(legal)
    valid = set()
    for combo in itertools.product(range(budget + 1), repeat=10):
        if sum(combo) <= budget:
            valid.add(Allocation(budget, combo[:5], combo[5:]))
    assert parsed == valid
    for a in valid:
        assert d.validate(format_allocation(a, "slots")) in legal


@settings(max_examples=200, deadline=None)
@given(
    st.integers(-2, 20),
    st.lists(st.integers(0, 10), min_size=5, max_size=5),
    st.lists(st.integers(0, 12), min_size=5, max_size=5),
)
def test_distribute_and_allocation_agree_on_legality(
    available: int, attack: list[int], defence: list[int]
) -> None:
    d = allocation_decision(available)
    order = " ".join(
        [f"A-{a.upper()}:{v}" for a, v in zip(AREAS, attack, strict=True) if v]
        + [f"D-{a.upper()}:{v}" for a, v in zip(AREAS, defence, strict=True) if v]
    )
    try:
        canonical = d.validate(order or "-")
        distribute_ok = True
    except IllegalOrder:
        distribute_ok = False
    try:
        a = parse_allocation(order, available)
        allocation_ok = True
    except AllocationError:
        allocation_ok = False
    assert distribute_ok == allocation_ok
    if allocation_ok:
        assert parse_allocation(canonical, available) == a


# --- dice and events -----------------------------------------------------------------------------


def test_every_die_is_recorded_with_its_purpose_and_rule() -> None:
    dice = Dice(1234)
    c = PhaseCombat(
        duel_plans((alloc("A3:head A2:chest A1:legs D2:groin"), alloc("A4:arms A4:chest D1:head"))),
        dice,
        StubHits(1, 1, 1, 1, 1),
    )
    c.run()
    assert dice.log
    assert all(r.rule in {"§9.5.1", "§9.6"} and r.purpose for r in dice.log)
    assert all(e["text"].endswith(f"({e['rule']})") for e in c.events)
    assert c.events[0]["type"] == "attack_sequence"
    assert c.events[-1]["type"] == "combat_end"


def test_on_hit_must_return_a_cf_loss() -> None:
    c = PhaseCombat(duel_plans((alloc("A1:head"), alloc("-"))), ScriptedDice(18), lambda *_: -1)
    with pytest.raises(ValueError, match="on_hit"):
        c.run()


def test_no_attacks_no_dice() -> None:
    dice = ScriptedDice()
    c = PhaseCombat(duel_plans((alloc("D3:head"), alloc("-"))), dice, StubHits())
    assert c.run()[-1]["type"] == "combat_end"
    assert c.step() == []


# --- property: CF losses never do more than the CF lost ------------------------------------------


@settings(max_examples=150, deadline=None)
@given(
    allocations(low=0, high=24),
    allocations(low=0, high=24),
    st.tuples(st.integers(-2, 2), st.integers(-2, 2)),
    st.tuples(st.booleans(), st.booleans(), st.booleans(), st.booleans()),
    st.integers(0, 2**32 - 1),
    st.data(),
)
def test_property_cf_cancelled_or_reduced_never_exceeds_cf_lost(
    a: Allocation,
    b: Allocation,
    speeds: tuple[int, int],
    kit: tuple[bool, bool, bool, bool],
    seed: int,
    data: st.DataObject,
) -> None:
    def on_hit(attacker: int, defender: int, area: Area, result: CrtOutcome) -> int:
        assert result.attack_cf >= 1
        return data.draw(st.integers(0, 6), label="cf lost")

    dice = Dice(seed)
    c = PhaseCombat(
        duel_plans((a, b)),
        dice,
        on_hit,
        speeds=speeds,
        has_weapon=kit[:2],
        has_shield=kit[2:],
    )
    c.run()
    penalties = [0, 0]
    for e in c.events:
        if e["type"] == "fumble_penalty":
            penalties[e["side"]] += e["amount"]
    for side, alloc_ in enumerate((a, b)):
        account = c.accounts[side]
        off_attacks = sum(cf - c.attack_cf(side, area) for area, cf in alloc_.attacks)
        off_defence = (
            sum(alloc_.defence_on(area) - c.defence_cf(side, area) for area in AREAS)
            - penalties[side]
        )
        assert off_attacks == account.off_attacks
        assert off_defence == account.off_defence
        assert off_attacks + off_defence <= account.lost
        assert off_attacks + off_defence + account.no_effect == account.lost
        assert account.waiting == 0
    resolved = [(p.side, p.area) for p, _o in c.outcomes]
    assert len(resolved) == len(set(resolved))
    assert all(c.attack_status(s, area) == "resolved" for s, area in resolved)
    assert all(r.rule.startswith("§9") for r in dice.log)
    assert AREA_NUMBERS["legs"] == 5
