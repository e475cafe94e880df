"""The Colosseum's two secret decisions, with their own notation kept as typed.

A phase plot is chosen from the legal plots, but typed in any spelling `parse_plot` reads
(`ff(r)` for `F F(R)`, `x+tw-head` for `X +TW-HEAD`, a throw or kick written with it, §13.3,
§13.5); each option carries the ghost of the move (end hex, path, facing). An allocation is a
`Distribute` over attack and defence slots whose text keeps the order of the attacks (Q25:
`A2:chest A3:head` strikes the chest first), which a plain `Distribute` would sort away.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gladiator.core.decisions import ChooseOne, Distribute, IllegalOrder, Option
from gladiator.core.hexgrid import Hex
from gladiator.rules.colosseum.cf_allocation import (
    AllocationError,
    format_allocation,
    parse_allocation,
)
from gladiator.rules.colosseum.net_combat import DRAG, ESCAPE, split_net_allocation
from gladiator.rules.colosseum.nets import join_net, split_net
from gladiator.rules.colosseum.plots import PlotError, format_plot, parse_plot

__all__ = ["AllocationChoice", "PlotChoice"]


_OWN_HEX = Hex(0, 0)


@dataclass(frozen=True, slots=True)
class PlotChoice(ChooseOne):
    """§7.2: one of the legal plots, in any spelling of the plot notation (§7.5: with the
    option `reaction_time`, timed; the time-out order is the one that neither moves nor turns).

    The options are in the gladiator's own frame: each option's hex and path are offsets from
    `origin`, his hex, so the same options serve him wherever he stands (search and simulation
    never draw ghosts). `board_options()` and `to_dict()` (what front ends receive) give them on
    the board.
    """

    origin: Hex = _OWN_HEX
    # §20 (Advanced Game): why a net order not offered is refused, by code (net_plots.py).
    refusals: tuple[tuple[str, str], ...] = ()

    def board_options(self) -> tuple[Option, ...]:
        q, r = self.origin

        def at(h: Hex) -> Hex:
            return Hex(h.q + q, h.r + r)

        return tuple(
            Option(
                o.text,
                o.label,
                None if o.hex is None else at(o.hex),
                tuple(map(at, o.path)),
                o.facing,
            )
            for o in self.options
        )

    def to_dict(self) -> dict[str, Any]:
        d = ChooseOne.to_dict(self)
        d["options"] = [o.to_dict() for o in self.board_options()]
        return d

    def validate(self, order: str) -> str:
        try:
            plot_text, net = split_net(order)  # §20.3.1: a net order written after the plot
            canonical = join_net(format_plot(parse_plot(plot_text)), net)
        except PlotError as exc:
            raise IllegalOrder(order, str(exc), self.texts()) from None
        if net is not None and canonical not in self.texts():
            why = dict(self.refusals).get(net.code)
            if why:
                raise IllegalOrder(order, why) from None
        return ChooseOne.validate(self, canonical)


@dataclass(frozen=True, slots=True)
class AllocationChoice(Distribute):
    """§9.3: CF over attack and defence slots, the attacks in the order written.

    `refused` names the special attack and defence slots (§22) not offered this phase, each with
    the reason, so that an order naming one is refused with it."""

    refused: tuple[tuple[str, str], ...] = ()

    def validate(self, order: str) -> str:
        written, net = order, ""
        if any(s.name in (ESCAPE, DRAG) for s in self.slots):  # §20.5.5 (net_combat.py)
            written, amounts = split_net_allocation(order)
            net = " ".join(f"{k}:{v}" for k, v in sorted(amounts.items(), reverse=True) if v)
        try:
            allocation = parse_allocation(written, self.budget)
        except AllocationError as exc:
            raise IllegalOrder(order, str(exc), self.names()) from None
        text = format_allocation(allocation, "slots")
        if allocation.special_attack is not None or allocation.special_defence is not None:
            self._offered(order, text)
        if net:
            text = net if text == "-" else f"{text} {net}"
        Distribute.validate(self, text)  # the slot limits of this phase (§9.1, §9.3.2)
        return text

    def _offered(self, order: str, text: str) -> None:
        """§22: a special he may not use now is refused with its reason (S9)."""
        names = set(self.names())
        why = dict(self.refused)
        for item in text.split():
            slot = item.split(":")[0]
            if slot in names:
                continue
            if slot in why:
                raise IllegalOrder(order, why[slot])
            if slot.count("-") >= 2:
                raise IllegalOrder(
                    order,
                    "special attacks and defences (§22) are Advanced Game rules "
                    "(advanced = true, specials = true)",
                )
