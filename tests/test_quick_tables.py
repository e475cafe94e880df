"""The quick rules' tables are data: the engine reads them, and a broken file is refused."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from gladiator.core.hexgrid import Hex
from gladiator.core.match import Match, ReplayMismatch
from gladiator.core.record import MatchRecord
from gladiator.registry import get
from gladiator.rules.quick import combat, tables
from gladiator.rules.quick.state import Fighter, QuickState

RAW = tables.raw_text()
Patch = Callable[[str, str], None]


class FixedDice:
    """Dice that return the given faces in order."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def d(self, sides: int, purpose: str, rule: str) -> int:
        return self.faces.pop(0)


def _duel(attacker_cls: str = "medium", defender_cls: str = "medium") -> QuickState:
    a = Fighter("red", attacker_cls, 10, 10, Hex(0, 0), 3)
    d = Fighter("blue", defender_cls, 10, 10, Hex(0, 1), 0)
    opts = get("quick").normalise_options({"gladiators": [attacker_cls, defender_cls]})
    return QuickState(options=opts, fighters={"red": a, "blue": d}, order=["red", "blue"])


@pytest.fixture
def patched(monkeypatch: pytest.MonkeyPatch) -> Iterator[Patch]:
    """Swap in an edited tables file for one test (the engine reads it through `tables()`)."""

    def apply(old: str, new: str) -> None:
        assert old in RAW
        edited = RAW.replace(old, new, 1)
        tables.parse(edited)
        monkeypatch.setattr(tables, "raw_text", lambda: edited)
        tables.tables.cache_clear()

    yield apply
    tables.tables.cache_clear()


def test_s9_4_who_suffers_a_double_is_read_from_the_table(
    patched: Callable[[str, str], None],
) -> None:
    """§9.4 says the attacker is off balance on a double 3; editing `who` moves it (QR17)."""
    state = _duel()
    combat.strike(state, state.fighters["red"], state.fighters["blue"], FixedDice(3, 3), [])
    assert state.fighters["red"].off_balance and not state.fighters["blue"].off_balance
    patched('effect = "off_balance"\nwho = "attacker"', 'effect = "off_balance"\nwho = "defender"')
    state = _duel()
    combat.strike(state, state.fighters["red"], state.fighters["blue"], FixedDice(3, 3), [])
    assert state.fighters["blue"].off_balance and not state.fighters["red"].off_balance


def test_s8_3_sword_side_bonus_is_read_from_the_table(patched: Patch) -> None:
    """§8.3's +2 lives in the table: set it to +5 and a sword-side strike gets +5."""
    state = _duel()
    red, blue = state.fighters["red"], state.fighters["blue"]
    blue.facing = 5  # blue faces NW: red, to his N, stands on his right-front (the sword side)
    assert combat.side_struck(blue, red) == "sword"
    assert combat.strike_modifier(red, blue)[0] == 2
    patched("sword = 2            # §8.3", "sword = 5            # §8.3")
    assert combat.strike_modifier(red, blue)[0] == 5


def test_s7_4_saving_throw_target_is_read_from_the_table(
    patched: Callable[[str, str], None],
) -> None:
    """§7.4.3 gives a light gladiator no save; give him one in the table and he saves."""
    patched(
        'save_on = 0\nsave_on_without_shield = 0\nweapon = "sword"\noff_hand = "shield"\n\n'
        "[classes.retiarius]",
        'save_on = 2\nsave_on_without_shield = 0\nweapon = "sword"\noff_hand = "shield"\n\n'
        "[classes.retiarius]",
    )
    state = _duel("medium", "light")
    # strike 6 vs 1 (+5), then the light man's new save: 2 on 2+.
    combat.strike(state, state.fighters["red"], state.fighters["blue"], FixedDice(6, 1, 2), [])
    assert state.fighters["blue"].strength == 10


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("forward = 1", 'forward = "one"', "action_costs.forward"),
        ("[special_events.6]", "[special_events.7]", "special_events"),
        ("dead_below = -2", "dead_below = 5", "dead_below"),
        ("defender_on = [1, 2, 3]", "defender_on = [0, 7]", "defender_on"),
        ("schema_version = 1", "schema_version = 2", "schema_version"),
        ("[crowd]", "[crowd", "not TOML"),
    ],
)
def test_a_broken_tables_file_is_refused_in_one_line(old: str, new: str, message: str) -> None:
    with pytest.raises(ValueError, match=message) as err:
        tables.parse(RAW.replace(old, new, 1))
    assert "\n" not in str(err.value)


def test_a_record_made_under_other_tables_is_refused(tmp_path: Path) -> None:
    """The record keeps a digest of the tables: an edited file means the record is refused with a
    clear message, not replayed under rules it was not played by."""
    m = Match(get("quick"), {}, seed=5, nonce="")
    rng = random.Random(0)
    while not m.finished:
        m.apply_step({s: d.sample(rng) for s, d in m.pending().items()})
    data = m.record().to_dict()
    data["ruleset_digest"] = "0" * 64
    with pytest.raises(ReplayMismatch, match="other quick tables"):
        Match.replay(MatchRecord.from_dict(data), get("quick"))
