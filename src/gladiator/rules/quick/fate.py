"""The thumbs: what becomes of a helpless gladiator (§7.6, §9.5; ruling QR6)."""

from __future__ import annotations

from gladiator.core.dice import Dice
from gladiator.core.protocol import Event
from gladiator.rules.quick.state import Fate, Fighter, QuickState
from gladiator.rules.quick.tables import tables

__all__ = ["begin_fate", "crowd_verdict", "settle_fate"]


def begin_fate(
    state: QuickState, helpless: Fighter, victor: Fighter, dice: Dice, events: list[Event] | None
) -> None:
    """Ask whoever decides: the victor in a duel, the other players' secret vote in a tournament,
    or the crowd's die, as the `fate` option says."""
    mode = state.options["fate"]
    if mode == "auto":
        mode = "victor" if len(state.fighters) == 2 else "vote"
    if mode == "crowd":
        verdict = crowd_verdict(helpless.seat, dice)
        settle_fate(state, helpless.seat, verdict, "the crowd decides (QR6)", events)
        return
    if mode == "victor":
        deciders: tuple[str, ...] = (victor.seat,)
    else:
        deciders = tuple(s for s in state.fighters if s != helpless.seat)
    state.fate = Fate(helpless.seat, victor.seat, deciders)
    state.phase = "fate"
    if events is None:
        return
    events.append(
        {
            "type": "awaiting_thumbs",
            "seat": helpless.seat,
            "deciders": list(deciders),
            "text": f"{helpless.seat} is helpless; {', '.join(deciders)} decide(s) his fate (QR6)",
        }
    )


def crowd_verdict(seat: str, dice: Dice) -> bool:
    """The mob's thumbs: up (spared) on 1D6 at or above the table's value."""
    return dice.d(6, f"the crowd's thumbs for {seat}", "QR6") >= tables().crowd.thumbs_up_on


def settle_fate(
    state: QuickState, seat: str, spared: bool, how: str, events: list[Event] | None
) -> None:
    f = state.fighters[seat]
    f.status = "spared" if spared else "slain"
    if events is None:
        return
    events.append(
        {
            "type": "fate",
            "seat": seat,
            "spared": spared,
            "text": f"{how}: {seat} is {'spared' if spared else 'slain'} (quick §7.6)",
        }
    )
