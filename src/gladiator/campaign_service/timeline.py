"""One line per lanista of where a campaign stands, for `campaign sim`'s table and plot.

The book has no levels (§31 counts XP and spends it, T33), so a stable's experience is read as
the mean XP his living men have earned over their careers (L16), beside their victories.
"""

from __future__ import annotations

from typing import Any

from gladiator.campaign import CampaignState, Career

__all__ = ["career_xp", "timeline_row"]


def career_xp(career: Career) -> int:
    """The XP he has earned in all his bouts (§31.2), spent or not."""
    return sum(int(entry.get("xp", 0)) for entry in career.history)


def timeline_row(state: CampaignState) -> list[dict[str, Any]]:
    """After munus `state.meta.munus`: each lanista's stable, deaths, experience and purse."""
    rows = []
    for lanista in state.lanistas.values():
        mine = [g for g in state.gladiators.values() if g.lanista == lanista.id]
        living = [g for g in mine if g.status == "alive"]
        rows.append(
            {
                "munus": state.meta.munus,
                "lanista": lanista.id,
                "stable": len(living),
                "deaths": sum(g.status == "dead" for g in mine),
                "level": sum(map(career_xp, living)) / len(living) if living else 0.0,
                "victories": sum(g.record.victories for g in mine),
                "purse": lanista.purse,
                "out": lanista.out,
            }
        )
    return rows
