"""Prestige in the match (§35.4, Campaign Game): intimidation at set-up and the PR CF bonus (PB)
it gives, used from the combat front. (§35.3, prestige on the missus roll, is appeal.py's: every
sheet's prestige is added there, 0 unless a campaign entrant brought his, X2.)

RULINGS (the X series of docs/rulings.md)

X4  §35.4.1: intimidation is rolled once the gladiators and the arena are set up, when any seat
    holds a campaign entrant (option `entrants`) and no beast is in the match (a beast neither
    knows nor cares who his man is, §28). Each side in table order rolls 1D3 + its highest PR
    (a man rolled as usual has PR 0); the lower total is intimidated, and each gladiator of the
    other side writes the difference in his top CF box (`LogSheet.pb`, §3.13.1); on a tie nobody
    is. §35.4.2, Q46: in every combat phase the PB is added to his CFs available (§9.3.1) when an
    opponent he allocates against stands in his combat front (§6.2, T40, the region his weapon
    gives him, F8): in a duel his opponent, in a team match (§27) any opponent he may attack this
    phase. Once added the PB is CFs like any other (attack or defence); nothing keeps it off an
    opponent outside his front in a team match, whose CFs are one pool.
"""

from __future__ import annotations

from collections.abc import Sequence

from gladiator.core.dice import Dice
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.arena.combat_geometry import in_front
from gladiator.rules.colosseum.campaign.campaign_entrants import has_entrants
from gladiator.rules.colosseum.combat.weapon_combat import front_region
from gladiator.rules.colosseum.events import event
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.teams import sides_of

__all__ = ["intimidation", "prestige_bonus"]


def intimidation(state: ColosseumState, dice: Dice, events: list[Event]) -> None:
    """§35.4.1 (X4): each side's 1D3 + highest PR; the other side of the lower one gets PB."""
    if not has_entrants(state.options) or state.options.get("beasts"):
        return
    sides = [[s for s in side if s in state.gladiators] for side in sides_of(state.options)]
    totals: list[int] = []
    parts: list[str] = []
    for side in sides:
        names = "+".join(side)
        pr = max(state.gladiators[s].sheet.prestige for s in side)
        roll = dice.roll("1D3", f"{names}'s intimidation 1D3 + highest PR {pr}", "§35.4.1")
        totals.append(roll + pr)
        parts.append(f"{names} 1D3 {roll} + PR {pr} = {roll + pr}")
    text = "; ".join(parts)
    if totals[0] == totals[1]:
        events.append(event("intimidation", "§35.4.1", f"{text}: a tie, nobody is intimidated"))
        return
    high = 0 if totals[0] > totals[1] else 1
    pb = abs(totals[0] - totals[1])
    for seat in sides[high]:
        g = state.gladiators[seat]
        g.sheet = g.sheet.model_copy(update={"pb": pb})  # §3.13.1: the top CF box
    low = sides[1 - high]
    events.append(
        event(
            "intimidation",
            "§35.4.1",
            f"{text}: {' and '.join(low)} {'is' if len(low) == 1 else 'are'} intimidated; PB +{pb}"
            f" for {' and '.join(sides[high])} against opponents in his combat front (§35.4.2)",
            totals=totals,
            pb=pb,
            intimidated=list(sides[1 - high]),
        )
    )


def prestige_bonus(g: Gladiator, foes: Sequence[Gladiator]) -> int:
    """§35.4.2, Q46 (X4): his PB, if an opponent he allocates against is in his combat front."""
    if not g.sheet.pb:
        return 0
    region = front_region(g)
    return g.sheet.pb if any(in_front(g.pose, f.pose, region=region) for f in foes) else 0
