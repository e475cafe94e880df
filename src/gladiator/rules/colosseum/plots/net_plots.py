"""The net orders a plot decision offers (§20.3.1, §5.2.1.1, §20.4, §20.5.6, §20.8.2; Advanced
Game): each legal plot again with a net attack after it, RN for a man who fears one, and why
an order not offered is refused. Options stay in the gladiator's own frame (orders.PlotChoice).

RULINGS (docs/rulings.md, the N series)

N3  §20.3.1, §20.8.2, §20.5.6: a net attack, and letting go of a net that ensnares the opponent,
    may follow any plot but a Stumble, a throw or a kick (one extra a plot); dropping the net
    into an adjacent hex is written with the free Pause X only (as a throw is, I1). A net that
    ensnares the opponent cannot attack until it comes back (he has one net): he may only drag
    (net_combat.py) or let go.
N4  §20.5.4, §20.5.4.1: an ensnared man's plots are those that do not rotate him
    (plot_legality.py R16); a Prone ensnared man may write only what leaves him in his hex (KN,
    or nothing).
B17 §20, §28: no net attack in a beast hunt (TN, SN, LN); he may drop the net (§20.8.2) to take
    his trident in both hands (§20.9.2), as in any match. Repel Net and letting go never arise
    (no beast holds a net or is ensnared).
G19 §20, §27: in a team match the net is cast at opponents only: a toss at the nearest one in
    his three-hex front, a lay catching opponents; a swing stops at the first figure, whose
    friend it does not catch (N7); Repel Net is for an opponent's net.
"""

from __future__ import annotations

from typing import NamedTuple

from gladiator.core.decisions import Option
from gladiator.core.hexgrid import Hex
from gladiator.rules.colosseum.kit.nets import (
    NetOrder,
    attack_spec,
    free_to_move,
    may_use_net,
    phase_number,
    victim_of,
)
from gladiator.rules.colosseum.plots.plots import KICK_DIRECTIONS
from gladiator.rules.colosseum.setup.roster import roster_of
from gladiator.rules.colosseum.state import ColosseumState, Gladiator

__all__ = ["NetOrders", "net_orders", "net_refusals", "with_nets"]

_LAY_SIDE = {1: "left-front", 2: "front", 3: "right-front"}
_NOT_AT_BEASTS = "no net attack in a beast hunt: the net is for men; X +DN drops it (B17, §28)"
_OWN = Hex(0, 0)
_ATTACK_ORDERS = {"TN": NetOrder("TN"), "SN": NetOrder("SN"), "LN": NetOrder("LN", 1)}


def _when(n: int) -> str:
    return f"turn {(n - 1) // 8 + 1} phase {(n - 1) % 8 + 1}"


def net_refusals(state: ColosseumState, g: Gladiator) -> dict[str, str]:
    """Why each net order he may not write now is refused (one line, with its rule); an order
    not listed here is allowed, where his plot allows it."""
    out: dict[str, str] = {}
    now = phase_number(state)
    attacks = ("TN", "SN", "LN")
    victim = victim_of(state, g)
    if not g.net:
        for c in (*attacks, "LG", "DN"):
            out[c] = "you hold no net (§20.1)"
    elif victim is not None:
        for c in (*attacks, "DN"):
            out[c] = f"your net ensnares {victim.seat}: drag him or let go (+LG) (§20.5.5, §20.5.6)"
    else:
        out["LG"] = "your net ensnares nobody; drop it with X +DN-<side> (§20.5.6, §20.8.2)"
        if not may_use_net(g):
            for c in attacks:
                out[c] = "you hold a shield and another weapon: no hand for the net (§20.8.3)"
        elif not free_to_move(g):
            for c in attacks:
                out[c] = "a net attack needs a man free to move (§20.2, §7.1)"
        for c in attacks:
            spec = attack_spec(_ATTACK_ORDERS[c])
            if c in out:
                continue
            if g.sheet.available_cf(0) < spec.cf:
                out[c] = f"a {spec.name} costs {spec.cf} CF and you have fewer (§20.3.2)"
            ready = g.toss_ready if c == "TN" else g.swing_ready if c == "SN" else 0
            if ready > now:
                out[c] = f"the net may not be used so again before {_when(ready)} ({spec.section})"
            elif g.net_ready > now:  # N2, N12
                out[c] = (
                    f"the net may not be used again before {_when(g.net_ready)} (§20.5.1, "
                    "§20.6.2; cast at nobody §20.5.1.1, §20.6.3)"
                )
    fearing = [o for o in state.opponents(g.seat) if o.alive and o.net] and free_to_move(g)
    if not fearing:
        out["RN"] = "Repel Net needs a man free to move facing an opponent's net (§20.4.1)"
    if roster_of(state.options).beasts:  # B17: a dropped net is no attack on the beast
        out.update({c: _NOT_AT_BEASTS for c in attacks})
    return out


class NetOrders(NamedTuple):
    """The net orders a plot decision adds (N3): each plot again with one of `extras` (suffix,
    label) after it, the drops written with X, and RN."""

    extras: tuple[tuple[str, str], ...]
    drops: bool
    rn: bool


def with_nets(options: tuple[Option, ...], nets: NetOrders) -> tuple[Option, ...]:
    """The plot options with the net orders (N3) and RN (§20.4)."""
    out = list(options)
    bare = [o for o in options if "+" not in o.text and not o.text.startswith("S")]
    for suffix, label in nets.extras:
        out.extend(Option(f"{o.text} +{suffix}", label, o.hex, o.path, o.facing) for o in bare)
    pause = next((o for o in bare if o.text == "X"), None)
    if nets.drops and pause is not None:
        for side, name in enumerate(KICK_DIRECTIONS):
            label = f"drop the net into the {name} hex (§20.8.2)"
            text = f"X +{NetOrder('DN', side).text}"
            out.append(Option(text, label, pause.hex, pause.path, pause.facing))
    if nets.rn and pause is not None:
        out.append(Option("RN", "Repel Net: stand and fend off the net (§20.4)", _OWN, (_OWN,)))
    return tuple(out)


def net_orders(state: ColosseumState, g: Gladiator, refused: dict[str, str]) -> NetOrders | None:
    """The net orders he may write now (N3), and RN (§20.4); None when he may write none (most
    men hold no net and face none)."""
    if {"TN", "SN", "LN", "LG", "DN", "RN"} <= refused.keys():
        return None
    foes = state.opponents(g.seat)
    target = foes[0].seat if len(foes) == 1 else "the nearest opponent in front"  # G19
    extras: list[tuple[str, str]] = []
    if "TN" not in refused:
        extras.append(("TN", f"and toss the net at {target} (§20.5, 6 CF)"))
    if "SN" not in refused:
        extras.append(("SN", "and swing the net at the first figure in front (§20.6, 4 CF)"))
    if "LN" not in refused:  # §20.7.1: a lay may be written every phase (no wait)
        for n, side in _LAY_SIDE.items():
            extras.append((f"LN{n}", f"and lay the net in the {side} hex (§20.7, 2 CF)"))
    if "LG" not in refused:
        extras.append(("LG", "and let go of the net, leaving him ensnared (§20.5.6)"))
    return NetOrders(tuple(extras), "DN" not in refused, "RN" not in refused)
