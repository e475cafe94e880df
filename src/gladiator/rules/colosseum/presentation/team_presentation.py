"""What a team match (§27) adds to the text render and the web scene: each gladiator's side,
the men out of the fight, and map letters that tell twelve seats apart (G17: gold is Y, since
green has G; the later seats take a letter of their name that no earlier seat and no map mark
(w a weapon, n a net, o another item) uses)."""

from __future__ import annotations

from typing import Any

from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.teams import pack_beasts

__all__ = ["letter", "side_label", "team_lines", "team_scene"]


def letter(seat: str) -> str:
    """The seat's map letter (lower case; the render capitalises a standing man)."""
    return LETTERS.get(seat, seat[0])


# G17: red R, blue B, green G as ever; the others by a letter of their own.
LETTERS = {
    "gold": "y",
    "white": "h",
    "black": "k",
    "purple": "p",
    "silver": "s",
    "orange": "a",
    "brown": "u",
    "grey": "e",
    "pink": "i",
}


def sides_text(state: ColosseumState) -> str:
    """The sides as the option `teams` writes them; a pack's red against its beasts (B11)."""
    beasts = pack_beasts(state.options)
    return str(state.options.get("teams") or ("red:" + "+".join(beasts) if beasts else "red:blue"))


def side_label(state: ColosseumState, seat: str) -> str:
    return sides_text(state).split(":")[state.side(seat)]


def _fallen_line(g: Gladiator) -> str:
    how = g.cause if not g.alive else "spared (missus), he has left the arena"
    if g.beast is not None:  # B14
        how = f"{g.beast.name}, " + ("dead" if not g.alive else "unconscious, carried off")
    return f"{g.seat:<5} out of the fight: {how}"


def team_lines(state: ColosseumState) -> list[str]:
    """The sides (§27) and the fallen (G7), for the text render."""
    sides = " v ".join(sides_text(state).split(":"))
    return [f"sides: {sides}", *(_fallen_line(g) for g in state.fallen.values())]


def team_scene(state: ColosseumState, out: dict[str, Any], panel: Any) -> None:
    """Each figure and panel names its side; the fallen keep a panel, marked out of the fight."""
    out["sides"] = [part.split("+") for part in sides_text(state).split(":")]
    for fig in out["figures"]:
        fig["side"] = side_label(state, fig["seat"])
    for g in state.fallen.values():
        p = panel(g)
        gone = "unconscious" if g.beast is not None else "spared (missus)"  # B14
        p["rows"].append(["Out of the fight", g.cause if not g.alive else gone])
        out["panels"].append(p)
    for p in out["panels"]:
        p["side"] = side_label(state, p["seat"])
        p["title"] += f" ({p['side']})"
