"""A match's shape as data (§4.5, §27, §28): the figures on their two sides, which of them are
beasts (§28.3) and where each side starts.

Every shape is one roster: a duel is red against blue; a team match (§27, G1) two sides of
named seats; a beast hunt (§28, B1) a gladiator against a beast; a pack (B11) red against two or
three beasts. The options `teams` and `beasts` are read here to say who stands on which side.

RULINGS (docs/rulings.md, Colosseum §28, the B series; the G series is teams.py's)

B11 §30.2.1.1: option `beasts` naming two or three beasts ("blue:lion,green:bear,gold:random")
    is a pack: the gladiator is red and the beasts are the next seats in table order (blue,
    green, gold: 2 beasts are blue and green), each its T21 kind or "random" (P3). Every
    per-seat list option has one entry per seat (the beasts' styles "random", unread). Not with
    `teams` nor `solitaire`.
B12 §4.5, G2: red stands at the duel's place; the beasts stand in a line facing him as a team's
    side would (G2), heads on the line, bodies behind it, two hexes apart, so no counter touches
    another.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

from gladiator.core.hexgrid import HexMap
from gladiator.rules.colosseum.arena.positions import Position
from gladiator.rules.colosseum.tables.advanced_tables import advanced_tables
from gladiator.rules.colosseum.teams import (
    ALL_SEATS,
    seats_of,
    sides_of,
    team_starting_positions,
)

__all__ = ["MAX_BEASTS", "Roster", "beast_kinds", "parse_beasts", "parse_pack", "roster_of"]

MAX_BEASTS = 3  # §30.2.1.1: 1D3 beasts


@dataclass(frozen=True)
class Roster:
    """The two sides, each in table order (G1), and the beasts' seats with their T21 kinds."""

    sides: tuple[tuple[str, ...], ...]
    beasts: tuple[tuple[str, str], ...] = ()

    @cached_property
    def seats(self) -> tuple[str, ...]:
        """Every seat in table order (G1)."""
        return tuple(s for s in ALL_SEATS if any(s in side for side in self.sides))

    @cached_property
    def _sides_by_seat(self) -> dict[str, int]:
        # Every rule asks whose side a figure is on, many times a phase.
        return {seat: i for i, side in enumerate(self.sides) for seat in side}

    def beast_kind(self, seat: str) -> str | None:
        """The T21 kind (or "random", P3) of a beast's seat; None for a gladiator."""
        return dict(self.beasts).get(seat)

    def side(self, seat: str) -> int:
        return self._sides_by_seat[seat]

    def opponents(self, seat: str) -> tuple[str, ...]:
        mine = self.side(seat)
        return tuple(s for s in self.seats if self.side(s) != mine)

    def starts(self, arena: HexMap) -> dict[str, Position]:
        """§4.5 extended (G2, G15, B12): each side in a line across the arena's centre, the lines
        facing each other with four empty hexes between them (a duel's pair is two lines of
        one)."""
        return team_starting_positions(arena, self.sides)

    @property
    def pack(self) -> bool:
        """A side of several beasts (B11), whose placing the log says in its own words."""
        return len(self.beasts) > 1


def roster_of(options: Mapping[str, Any]) -> Roster:
    return _roster(str(options.get("teams") or ""), str(options.get("beasts") or ""))


@cache
def _roster(teams: str, beasts: str) -> Roster:
    options = {"teams": teams, "beasts": beasts}
    if teams:  # §27, G1
        return Roster(sides_of(options))
    seats = seats_of(options)  # a duel's red and blue, or a pack's red and beasts (B11)
    kinds = parse_beasts(beasts, seats) if beasts else {}  # §28, B1, B11
    if not kinds:
        return Roster((("red",), ("blue",)))
    men = tuple(s for s in seats if s not in kinds)
    animals = tuple(s for s in seats if s in kinds)
    sides = tuple(sorted((men, animals), key=lambda side: ALL_SEATS.index(side[0])))
    return Roster(sides, tuple((s, kinds[s]) for s in animals))


def beast_kinds() -> tuple[str, ...]:
    return tuple(advanced_tables().beasts.t21.beasts)


def parse_beasts(text: str, seats: tuple[str, ...]) -> dict[str, str]:
    """B1: the option `beasts` ("blue:lion"), seat → kind ("random" kept for setup)."""
    out: dict[str, str] = {}
    for entry in (e.strip().lower() for e in text.split(",") if e.strip()):
        seat, sep, kind = (p.strip() for p in entry.partition(":"))
        if not sep or not kind:
            raise ValueError(f"beasts: {entry!r} is not seat:kind (e.g. blue:lion)")
        if seat not in seats:
            raise ValueError(f"beasts: no seat {seat!r}; seats: {', '.join(seats)}")
        if kind not in (*beast_kinds(), "random"):
            raise ValueError(
                f"beasts: {kind!r} is not a T21 beast (§28.3): {', '.join(beast_kinds())} or random"
            )
        if seat in out:
            raise ValueError(f"beasts: seat {seat} named twice")
        out[seat] = kind
    if len(out) >= len(seats):
        raise ValueError("beasts: a gladiator must fight the beast; name one beast seat (§28)")
    return out


def parse_pack(text: str) -> dict[str, str]:
    """B11: two or three beasts on blue, green (, gold), seat → kind in table order; ValueError
    with one line otherwise."""
    kinds = parse_beasts(text, ALL_SEATS)
    seats = tuple(s for s in ALL_SEATS if s in kinds)
    if len(seats) > MAX_BEASTS:
        raise ValueError(
            f"beasts: at most {MAX_BEASTS} beasts against one gladiator (§30.2.1.1: 1D3)"
        )
    want = ALL_SEATS[1 : len(seats) + 1]
    if seats != want:
        raise ValueError(
            f"beasts: {len(seats)} beasts are the seats {', '.join(want)}; the gladiator is red "
            f"(B11; kinds: {', '.join(beast_kinds())} or random)"
        )
    return {s: kinds[s] for s in seats}
