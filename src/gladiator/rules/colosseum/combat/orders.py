"""The Colosseum's two secret decisions, with their own notation kept as typed.

A phase plot is chosen from the legal plots, but typed in any spelling `parse_plot` reads
(`ff(r)` for `F F(R)`, `x+tw-head` for `X +TW-HEAD`, a throw or kick written with it, §13.3,
§13.5); each option carries the ghost of the move (end hex, path, facing). An allocation is a
`Distribute` over attack and defence slots whose text keeps the order of the attacks (Q25:
`A2:chest A3:head` strikes the chest first), which a plain `Distribute` would sort away.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from gladiator.core.decisions import ChooseOne, Distribute, IllegalOrder, Option, Slot, SlotGroup
from gladiator.core.hexgrid import Hex
from gladiator.rules.colosseum.combat.cf_allocation import MAX_ATTACK_CF_PER_AREA, AllocationError
from gladiator.rules.colosseum.combat.net_combat import DRAG, ESCAPE
from gladiator.rules.colosseum.combat.written import Written, canonical, read_written
from gladiator.rules.colosseum.kit.nets import join_net, split_net
from gladiator.rules.colosseum.plots.plots import PlotError, format_plot, parse_plot
from gladiator.rules.colosseum.vocabulary import AREAS, Area

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
    """§9.3: CF over attack and defence slots, the attacks in the order written (Q25), with §22's
    special boxes, the net's ESCAPE and DRAG (§20.5.5) and Find Weakness (§36.3) where offered.

    Where the match has more than two figures (`named`), every attack box names its target
    among `targets` (§27.3.1, G9: `A-BLUE-HEAD:4`), `caps` each one's largest attack (§27.5,
    G10). `refused` names the slots not offered this phase, each with the reason, so that an
    order naming one is refused with it."""

    refused: tuple[tuple[str, str], ...] = ()
    named: bool = False
    targets: tuple[str, ...] = ()
    caps: tuple[int, ...] = ()

    def read(self, order: str) -> Written:
        """The allocation an order writes, checked against this phase's limits (IllegalOrder
        with a one-line reason)."""
        written = self._written(order)
        text = canonical(written)
        self._offered(order, text)
        Distribute.validate(self, text)  # the slot and group limits of this phase
        return written

    def validate(self, order: str) -> str:
        return canonical(self.read(order))  # in the order written (Q25)

    def _written(self, order: str) -> Written:
        names = self.names()
        try:
            return read_written(
                order,
                self.budget,
                targets=self.targets,
                named=self.named,
                nets=ESCAPE in names or DRAG in names,
                weakness=any(n.endswith("-FW") for n in names),
                # Named, each slot's own cap is checked by Distribute.validate (G10).
                attack_cap=max(MAX_ATTACK_CF_PER_AREA, self.budget if self.named else 0),
            )
        except AllocationError as exc:
            raise IllegalOrder(order, str(exc), names) from None

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
            if slot.count("-") >= 2 + self.named:
                raise IllegalOrder(
                    order,
                    "special attacks and defences (§22) are Advanced Game rules "
                    "(advanced = true, specials = true)",
                )

    def aimed(self, target: str) -> AllocationChoice:
        """The one-target allocation with every attack at `target` (at most 8 CF each), his
        special attacks at him and the special defences (§22, G18), for a bot that fights one
        opponent at a time (G6); `retarget` turns its order back."""
        prefix = f"A-{target.upper()}-"
        slots = tuple(
            Slot(f"A-{a.upper()}", min(self._max(f"{prefix}{a.upper()}"), MAX_ATTACK_CF_PER_AREA))
            for a in AREAS
        )
        specials = tuple(
            replace(
                s, name="A-" + s.name[len(prefix) :], maximum=min(s.maximum, MAX_ATTACK_CF_PER_AREA)
            )
            for s in self.slots
            if s.name.startswith(prefix) and s.name.count("-") == 3 and not s.name.endswith("-FW")
        )
        slots += specials + tuple(s for s in self.slots if s.name.startswith("D-"))
        groups = tuple(g for g in self.groups if all(n.startswith("D-") for n in g.slots))
        groups += _special_groups(tuple(s.name for s in specials), self.budget)
        return AllocationChoice(
            prompt=self.prompt, secret=True, budget=self.budget, slots=slots, groups=groups
        )

    def retarget(self, order: str, target: str) -> str:
        """An order of `aimed(target)` (either allocation notation) as this decision's order."""
        try:
            written = read_written(order, self.budget)
        except AllocationError as exc:
            raise IllegalOrder(order, str(exc), self.names()) from None
        target_of = {area: target for area in written.allocation.order}  # every attack at him
        return self.validate(canonical(replace(written, target_of=target_of)))

    def _max(self, name: str) -> int:
        return next((s.maximum for s in self.slots if s.name == name), 0)

    def to_dict(self) -> dict[str, Any]:
        d = Distribute.to_dict(self)
        if self.named:  # G9: each attack slot's target and area, each target's largest attack
            d["attack_slots"] = [
                {"slot": s.name, "target": t, "area": a}
                for s in self.slots
                if (aim := _aim_of(s.name, self.targets)) is not None
                for t, a in (aim,)
            ]
            d["targets"] = [
                {"seat": t, "max_attack": cap}
                for t, cap in zip(self.targets, self.caps, strict=True)
            ]
        return d


def _aim_of(slot: str, targets: tuple[str, ...]) -> tuple[str, Area] | None:
    parts = slot.split("-")
    if len(parts) < 3 or parts[0] != "A":
        return None
    seat = next((t for t in targets if t.upper() == parts[1]), None)
    area = next((a for a in AREAS if a.upper() == parts[2]), None)
    return None if seat is None or area is None else (seat, area)


def _special_groups(names: tuple[str, ...], budget: int) -> tuple[SlotGroup, ...]:
    """§9.4.1, §22.1 for an aimed decision's special attacks: one attack an area, one special."""
    out = []
    for a in AREAS:
        here = tuple(n for n in names if n.split("-")[1] == a.upper())
        if here:
            out.append(
                SlotGroup(
                    (f"A-{a.upper()}", *here), budget, f"§9.4.1: one attack on the {a}", max_used=1
                )
            )
    if len(names) > 1:
        out.append(SlotGroup(names, budget, "§22.1: one special attack", max_used=1))
    return tuple(out)
