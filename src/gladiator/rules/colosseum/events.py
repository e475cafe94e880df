"""Events as the Colosseum engine writes them: plain data whose text cites the rule applied."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from gladiator.rules.colosseum.sheet.logsheet import SheetEvent

__all__ = ["Event", "event", "plain", "sheet_events"]

Event = dict[str, Any]


def event(kind: str, rule: str, text: str, **extra: Any) -> Event:
    return {"type": kind, "rule": rule, "text": f"{text} ({rule})", **extra}


def plain(events: list[Event]) -> list[Event]:
    """Events as plain JSON data (hexes as [q, r] lists), so records replay exactly."""
    out: list[Event] = json.loads(json.dumps(events))
    return out


def sheet_events(seat: str, events: Iterable[SheetEvent]) -> list[Event]:
    return [event(e.kind, e.rule, f"{seat}: {e.text}", seat=seat) for e in events]
