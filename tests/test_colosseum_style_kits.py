"""§19 fighting styles whose kit the chart fixes (Advanced Game): the Thracian's scimitar and small
shield (§19.2.2) and the Cataphractarius's pike and no shield (§19.4.3), whatever shield his
armour roll gave him (F3, F4)."""

from __future__ import annotations

from typing import Any

from colosseum_helpers import RULES
from gladiator.core.dice import Dice
from gladiator.rules.colosseum.kit.styles import kit, styled_armour
from gladiator.rules.colosseum.tables.tables import tables

# T1 row 4 and T3 row 2 both carry a large shield: the style, not the roll, decides.
LIGHT_LARGE, HEAVY_LARGE = 4, 2


def start(red: str, blue: str, seed: int = 1) -> dict[str, dict[str, Any]]:
    state, _ = RULES.initial_state(
        RULES.normalise_options({"advanced": True, "styles": [red, blue]}), Dice(seed)
    )
    return {s: g.to_dict() for s, g in state.gladiators.items()}


def test_s19_2_2_a_thracian_fights_with_the_scimitar_and_always_a_small_shield() -> None:
    row = tables().armour.table("light").row(LIGHT_LARGE)
    assert row.shield == "large"
    assert styled_armour("thracian", [row])[1] == "small"
    assert styled_armour("myrmillo", [row])[1] == "large"  # probe: the roll's own shield
    k = kit("thracian")
    assert k.weapons == ("scimitar",) and k.spare == () and k.shield and not k.hook
    for seed in (1, 2, 3):
        red = start("thracian", "secutor", seed)["red"]
        assert red["weapons"] == ["scimitar"] and red["has_shield"]
        assert red["sheet"]["shield"] == "small"


def test_s19_4_3_a_cataphractarius_fights_with_the_pike_and_never_a_shield() -> None:
    row = tables().armour.table("heavy").row(HEAVY_LARGE)
    assert row.shield == "large"
    assert styled_armour("cataphractarius", [row])[1] is None
    assert styled_armour("gallus", [row])[1] == "large"  # probe: the roll's own shield
    k = kit("cataphractarius")
    assert k.weapons == ("pike",) and not k.shield
    for seed in (1, 2, 3):
        red = start("cataphractarius", "secutor", seed)["red"]
        assert red["weapons"] == ["pike"] and not red["has_shield"]
        assert red["sheet"]["shield"] is None
