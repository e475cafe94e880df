"""Find Weakness in the attack rounds (§36.3 FW, Q49, ruling TL6): the given-up attack rolls its
finding instead of the CRT, and the finding comes off the defence of the next area that figure
attacks. Its allocation slot and notation are talent_combat.py's."""

from __future__ import annotations

from dataclasses import dataclass

from gladiator.rules.colosseum.combat.crt import CombatDice, CrtOutcome, unrolled_outcome
from gladiator.rules.colosseum.events import Event, event
from gladiator.rules.colosseum.tables.crt_tables import CrtResult
from gladiator.rules.colosseum.vocabulary import Area

__all__ = ["FW_RULE", "Weakness", "find_weakness"]

FW_RULE = "§36.3"
_NO_EFFECT = CrtResult.model_validate("-")


@dataclass(frozen=True, slots=True)
class Weakness:
    """The attack one figure gives up (TL6) and his ⌊TR/4⌋."""

    area: Area
    tr_bonus: int


def find_weakness(
    dice: CombatDice,
    who: str,
    area: Area,
    cf: int,
    rnd: int,
    side: int,
    defence: int,
    tr_bonus: int,
) -> tuple[int, CrtOutcome, Event]:
    """TL6: the given-up attack's finding (1D3 − 1 + ⌊TR/4⌋), its No Effect outcome and its
    event."""
    roll = dice.roll("1D3", f"{who}'s Find Weakness", FW_RULE)
    found = roll - 1 + tr_bonus
    e = event(
        "find_weakness",
        FW_RULE,
        f"round {rnd}: {who} gives up his {area} attack ({cf} CF lost) to find weakness: 1D3 "
        f"{roll} − 1 + TR/4 {tr_bonus} = {found} off the defence of the next area he attacks",
        side=side,
        area=area,
        round=rnd,
        amount=found,
    )
    return found, unrolled_outcome(cf, defence, _NO_EFFECT, _NO_EFFECT), e
