"""L17 (§30.2.3, T32, Q33, §19.2.3): the "Any" column never gives a Contra-Retiarius to a gladiator
who is not a Retiarius; found by the campaign crash test, whose match could not be played."""

from __future__ import annotations

from campaign_helpers import Rigged
from gladiator.campaign.pairing import roll_pairing


def test_s30_2_3_any_rolls_again_a_contra_retiarius_against_a_provocator() -> None:
    # D66 43: II vs Any; the 1D6 gives 5 (V), rolled again: 2 (II).
    dice = Rigged({"§30.2.3": [43, 5, 2]})
    assert roll_pairing(dice, None, "Verus") == ("II", "II")
    assert [r.total for r in dice.log] == [43, 5, 2]


def test_s30_2_3_any_keeps_a_contra_retiarius_for_a_retiarius() -> None:
    """Probe: the re-roll is only for the others; a Retiarius (IV) may meet one (64: IV vs Any)."""
    dice = Rigged({"§30.2.3": [64, 5]})
    assert roll_pairing(dice, None, "Verus") == ("IV", "V")


def test_s30_2_3_any_still_rolls_a_six_again() -> None:
    dice = Rigged({"§30.2.3": [33, 6, 3]})
    assert roll_pairing(dice, None, "Verus") == ("I", "III")
