"""The net's notation and who may use it (§20.1-§20.8, Advanced Game): the net order written with
a phase plot (`F F +TN`, `X +LN2`, `RN`), the phase clock its reuse is counted on (§20.5.1,
§20.6.2) and the checks every step of the net shares.

A net order is written after the movement actions (§20.3.1): `+TN` Toss Net (§20.5), `+SN` Swing
Net (§20.6), `+LN1`/`+LN2`/`+LN3` Lay Net on the left-front, front or right-front hex (§20.7),
`+LG` let go of a net that ensnares the opponent (§20.5.6) and `+DN-<side>` drop the net into an
adjacent hex (§20.8.2, a kick's six sides: F FR BR B BL FL). `RN` Repel Net (§20.4) is a special
action on its own.

RULINGS (docs/rulings.md, the N series)

N1  §20.2, §20.3.1, §7.1: a net attack may be written with any plot of a man free to move: not
    Prone (§16.3: no attack in any manner), not while he must Stumble (S is all he may write) and
    not unconscious; Kneeling he may. It costs its CF (§20.3.2) out of his CFs available, so it is
    offered only while his current CF less Stun covers the cost. RN needs the same freedom and
    is offered only while an opponent holds a net.
N2  §20.5.1, §20.5.1.1, §20.6.2, §20.6.3: the net's reuse is counted in phases across turns (the
    EXAMPLEs: a toss in turn 1 phase 7 is next legal in turn 2 phase 2, a swing in turn 1 phase 8
    in turn 2 phase 2). An attack made counts even with nobody to hit; one cancelled by a
    collision (§20.3.3) was never made: it costs no CF and starts no wait.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from gladiator.rules.colosseum.plots.plots import KICK_DIRECTIONS, PlotError
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.tables.advanced_tables import advanced_tables
from gladiator.rules.colosseum.tables.net_tables import NetAttack

__all__ = [
    "LOOSE",
    "NetOrder",
    "attack_spec",
    "free_to_move",
    "join_net",
    "may_use_net",
    "phase_number",
    "split_net",
    "victim_of",
]

PHASES_PER_TURN = 8  # §5.1
LOOSE = "-"  # §20.5.6: ensnared by a net whose holder let go of it
RETIARIUS = "retiarius"

NetCode = Literal["TN", "SN", "LN", "RN", "LG", "DN"]
_ATTACKS = ("TN", "SN", "LN")


@dataclass(frozen=True, slots=True)
class NetOrder:
    """One net order: its code, and a Net Lay's hex (1-3) or a drop's side (KICK_DIRECTIONS)."""

    code: NetCode
    where: int = 0

    @property
    def attack(self) -> bool:
        """A net attack (TN, SN, LN#), as opposed to RN, LG or DN."""
        return self.code in _ATTACKS

    @property
    def text(self) -> str:
        if self.code == "LN":
            return f"LN{self.where}"
        if self.code == "DN":
            return f"DN-{KICK_DIRECTIONS[self.where]}"
        return self.code


_SIDES = "|".join(sorted(KICK_DIRECTIONS, key=len, reverse=True))
_SUFFIX = re.compile(rf"\+\s*(TN|SN|LN[1-3]|LG|DN-(?:{_SIDES}))\s*$", re.IGNORECASE)
_NETLIKE = re.compile(r"(^|\s|\+)\s*(TN|SN|LN\d*|LG|DN\S*|RN)\b", re.IGNORECASE)


def _order(token: str) -> NetOrder:
    t = token.upper()
    if t.startswith("LN"):
        return NetOrder("LN", int(t[2:]))
    if t.startswith("DN-"):
        return NetOrder("DN", KICK_DIRECTIONS.index(t[3:]))
    code: NetCode = "TN" if t == "TN" else "SN" if t == "SN" else "LG"
    return NetOrder(code)


def split_net(text: str) -> tuple[str, NetOrder | None]:
    """The plot part of an order and its net order, if any: `F F +TN` is (`F F`, TN), `RN` is
    (`X`, RN) since Repel Net neither moves nor turns him (§20.4.1). PlotError with a one-line
    message for a net order that cannot be read or is written where it may not be."""
    t = text.strip()
    if t.upper() == "RN":
        return "X", NetOrder("RN")
    m = _SUFFIX.search(t)
    if m is not None:
        rest = t[: m.start()].strip()
        if not rest:
            raise PlotError(f"{text!r}: a net order follows a plot, e.g. 'F +TN' (§20.3.1)")
        if _NETLIKE.search(rest):
            raise PlotError(f"{text!r}: at most one net order a phase (§20.3.1 NOTE)")
        return rest, _order(m.group(1))
    if _NETLIKE.search(t):
        if re.search(r"\bRN\b", t, re.IGNORECASE):
            raise PlotError(f"{text!r}: RN is a special action, written alone (§20.4.1)")
        raise PlotError(
            f"{text!r}: a net order is +TN, +SN, +LN1, +LN2, +LN3, +LG or +DN-<side> after the "
            f"plot ({', '.join(KICK_DIRECTIONS)}) (§20.3.1, §20.8.2)"
        )
    return t, None


def join_net(plot_text: str, net: NetOrder | None) -> str:
    """The canonical text of a plot with its net order (`RN` alone)."""
    if net is None:
        return plot_text
    if net.code == "RN":
        return "RN"
    return f"{plot_text} +{net.text}"


def phase_number(state: ColosseumState) -> int:
    """N2: the phase counted across turns (turn 1 phase 1 is 1)."""
    return (state.turn - 1) * PHASES_PER_TURN + state.phase


def attack_spec(order: NetOrder) -> NetAttack:
    code: Literal["TN", "SN", "LN"] = (
        "TN" if order.code == "TN" else "SN" if order.code == "SN" else "LN"
    )
    return advanced_tables().nets.attack(code)


def free_to_move(g: Gladiator) -> bool:
    """N1, §7.1, §20.2: on his feet or knees, not bound to Stumble, conscious."""
    return g.alive and g.posture != "prone" and not g.must_stumble and not g.sheet.unconscious


def victim_of(state: ColosseumState, g: Gladiator) -> Gladiator | None:
    """The opponent his net ensnares while he still holds it (§20.5.5, §20.5.6), if any."""
    return next((o for o in state.gladiators.values() if o.ensnared == g.seat), None)


def may_use_net(g: Gladiator) -> bool:
    """§20.1, §20.8.3: he holds a free net (not one wrapped round an opponent) and, if he is no
    Retiarius, does not also hold both a shield and another weapon."""
    if not g.net:
        return False
    return g.style == RETIARIUS or not (g.has_shield and g.weapons)
