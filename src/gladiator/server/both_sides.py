"""Play this deal from both sides (DM3, issue 38): a match and its twin on the same seed, each
seat's player (and correspondence address) in the other seat, so that whoever plays it meets the
same log sheets and dice from the other side of the board, as a duplicate pair does in
`sim --duplicate` (DM2). Two-seat matches only: with more seats "the other side" is no one
swap."""

from __future__ import annotations

import secrets

from gladiator import registry
from gladiator.server.messages import CreateMatchBody

__all__ = ["Deal", "both_sides"]

Deal = tuple[dict[str, str], dict[str, str], int | None]  # seats, emails, seed


def both_sides(body: CreateMatchBody) -> list[Deal]:
    """The matches to create: the one asked for, and with `both_sides` its twin; ValueError (one
    line) where the match has not two seats."""
    first: Deal = (dict(body.seats), dict(body.emails), body.seed)
    if not body.both_sides:
        return [first]
    rs = registry.get(body.ruleset)
    seats = rs.seats(rs.normalise_options(body.options))
    if len(seats) != 2:
        raise ValueError(
            f"both_sides plays a two-seat match from each side; this one has {len(seats)} seats"
        )
    a, b = seats
    swap = {a: b, b: a}
    seed = body.seed if body.seed is not None else secrets.randbelow(2**62)
    players = {swap[s]: kind for s, kind in body.seats.items() if s in swap}
    emails = {swap[s]: address for s, address in body.emails.items() if s in swap}
    return [(dict(body.seats), dict(body.emails), seed), (players, emails, seed)]
