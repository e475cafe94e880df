"""The plot decision (§5.2.1, §7.2, §7.5): what a gladiator may write this phase, as the options
of a secret `ChooseOne`, each with the ghost of its path for a front end, and the throws (§13.3)
and kicks (§13.5) written with a plot (items.py, I1-I9).

RULINGS (engine level, the E series of docs/rulings.md)

E7  §15.3, §15.4, §16.4: a gladiator already Prone who must Stumble (one collision knocked him
    down and tripped him) plots KN or RO as every Prone man must, and the trip is spent (option
    `prone_trip = "stumble"`: §15.3 first, he writes S and lies through it); a Stumble made while
    Prone makes no Fall Prone check.
E13 §7.5: with the option `reaction_time` (seconds, 0 = off) the plot decision carries a
    `time_limit`; a gladiator who has not written his plot when it runs out has frozen: he is
    given the plot that neither moves nor turns him (a non-rotating Pause X; a forced Stumble S;
    KN for a Prone man, who may not Pause, §16.4; the empty plot when nothing else is legal).
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache, lru_cache
from typing import NamedTuple

from gladiator.core.decisions import Option
from gladiator.core.hexgrid import Hex
from gladiator.rules.colosseum.combat.orders import PlotChoice
from gladiator.rules.colosseum.hits.item_choices import may_kick_with, may_throw, recoverable
from gladiator.rules.colosseum.plots.net_plots import (
    NetOrders,
    net_orders,
    net_refusals,
    with_nets,
)
from gladiator.rules.colosseum.plots.plot_legality import PlotStatus, legal_plots
from gladiator.rules.colosseum.plots.plots import (
    KICK_DIRECTIONS,
    ItemKind,
    Kick,
    PhasePlot,
    Posture,
    Throw,
    format_plot,
    path,
    uses_movement_phase,
)
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.vocabulary import AREAS


def trip_spent(state: ColosseumState, g: Gladiator) -> bool:
    """E7 (option `prone_trip`): a Prone man's pending Stumble gives way to §16.4's KN or RO."""
    return g.posture == "prone" and state.options.get("prone_trip", "spent") == "spent"


def plot_status(state: ColosseumState, g: Gladiator) -> PlotStatus:
    """§5.2.1, §10.5 LMP, §15.3, §16.4, §17.3: what decides his legal plots now."""
    return PlotStatus(
        move_rate=g.sheet.move,
        moves_used=g.moves_used,
        posture=g.posture,
        must_stumble=g.must_stumble and not trip_spent(state, g),
        can_recover=bool(recoverable(state, g)),  # §7.4 R, §13.4
        unconscious=g.sheet.unconscious,
        lmp=g.crits.lmp,
        exceeded_last_turn=g.exceeded_last_turn,
        sprint="SP" in g.talents,  # §36.3 SP (Q48, R20)
    )


class _Shape(NamedTuple):
    """A plot as a ghost, relative to where it starts (paths are the same from every hex): its
    text, where it ends, the hexes it passes through (the start first) and its final facing."""

    text: str
    end: Hex
    hexes: tuple[Hex, ...]
    facing: int
    moves: bool  # uses a movement phase (§5.2.1)


@cache
def _shape(plot: PhasePlot, facing: int) -> _Shape:
    poses = path(plot, Hex(0, 0), facing)
    hexes = [poses[0].hex]
    for p in poses[1:]:
        if p.hex != hexes[-1]:
            hexes.append(p.hex)
    return _Shape(
        format_plot(plot), poses[-1].hex, tuple(hexes), poses[-1].facing, uses_movement_phase(plot)
    )


_PAUSE = PhasePlot(("X",), (0, 0))  # §7.4: X, the free Pause a throw is written with (I1)


@cache
def _with(plot: PhasePlot, extra: Kick | Throw) -> str:
    """The text of a plot with a throw or a kick written after it."""
    return format_plot(replace(plot, extra=extra))


class _Plots:
    """One list of legal plots, shared by every status that allows the same plots (a match's
    150-odd statuses allow some seven lists), hashed by identity so that a cache keyed by it
    does not hash the list again."""

    __slots__ = ("plots",)

    def __init__(self, plots: tuple[PhasePlot, ...]) -> None:
        self.plots = plots


_LISTS: dict[tuple[PhasePlot, ...], _Plots] = {}


@lru_cache(maxsize=2048)
def _plots_of(status: PlotStatus, facing_free: bool) -> _Plots:
    plots = tuple(legal_plots(status, facing_free=facing_free))
    return _LISTS.setdefault(plots, _Plots(plots))


@lru_cache(maxsize=512)
def _shapes(plots: _Plots, facing: int) -> tuple[tuple[PhasePlot, _Shape], ...]:
    return tuple((p, _shape(p, facing)) for p in plots.plots)


def _ghost(shape: _Shape, label: str, text: str = "") -> Option:
    # The ghost of the move: the end hex, the hexes passed through (his own first) and the
    # facing it ends with.
    return Option(text or shape.text, label, shape.end, shape.hexes, shape.facing)


@lru_cache(maxsize=1024)
def _base_options(plots: _Plots, facing: int, over: bool) -> tuple[Option, ...]:
    """Every legal plot (§7.2, however far from his opponent it takes him, §7.7); with `over`
    (§17.3) a moving plot is the extra phase. Cached apart from the items lying around, whose
    offsets change with every step he takes."""
    extra = "extra phase (§17.3)"
    return tuple(
        _ghost(shape, extra if over and shape.moves else "") for _, shape in _shapes(plots, facing)
    )


@lru_cache(maxsize=1024)
def _kickers(
    plots: _Plots, facing: int, posture: Posture
) -> dict[Hex, tuple[tuple[int, PhasePlot, _Shape], ...]]:
    """The plots a kick may be written with (§13.5, I6), by the hex they end on, each with its
    place among the plots so that kicks keep the plots' order."""
    by_end: dict[Hex, list[tuple[int, PhasePlot, _Shape]]] = {}
    for i, (p, shape) in enumerate(_shapes(plots, facing)):
        if may_kick_with(p, posture):
            by_end.setdefault(shape.end, []).append((i, p, shape))
    return {h: tuple(v) for h, v in by_end.items()}


@lru_cache(maxsize=8192)
def _plot_kicks(plot: PhasePlot, facing: int, kinds: tuple[ItemKind, ...]) -> tuple[Option, ...]:
    """The kicks written with one plot (§13.5, I6), the same whatever else he may plot."""
    shape = _shape(plot, facing)
    return tuple(
        _ghost(
            shape,
            f"kick the {kind} {KICK_DIRECTIONS[side]} (§13.5)",
            _with(plot, Kick(kind, side)),
        )
        for kind in kinds
        for side in range(6)
    )


@lru_cache(maxsize=16384)
def _kicks(
    plots: _Plots, facing: int, posture: Posture, end: Hex, kinds: tuple[ItemKind, ...]
) -> tuple[tuple[int, tuple[Option, ...]], ...]:
    """The kicks of the items lying `end` away (§13.5, I6), grouped by the plot they are
    written with and its place among the plots."""
    return tuple(
        (i, _plot_kicks(p, facing, kinds))
        for i, p, _ in _kickers(plots, facing, posture).get(end, ())
    )


@lru_cache(maxsize=1024)
def _throws(
    plots: _Plots, facing: int, throwable: tuple[ItemKind, ...], target: str
) -> tuple[Option, ...]:
    """The throws written with a Pause (§13.3, I1), if he may Pause."""
    pause = next((sh for p, sh in _shapes(plots, facing) if p == _PAUSE), None)
    if pause is None:
        return ()
    return tuple(
        _ghost(
            pause,
            f"throw your {kind} at {target}, the {area} on a 6 (§13.3)",
            _with(_PAUSE, Throw(kind, area)),
        )
        for kind in throwable
        for area in AREAS
    )


@lru_cache(maxsize=4096)
def _plot_options(
    status: PlotStatus,
    facing: int,
    floor: tuple[tuple[Hex, ItemKind], ...],
    throwable: tuple[ItemKind, ...],
    target: str,
    ensnared: bool = False,
    nets: NetOrders | None = None,
) -> tuple[Option, ...]:
    """The plot decision's options: every legal plot, then kicks written with those that end on
    an item (§13.5, I6), then the throws written with a Pause (§13.3, I1), then the net orders
    (net_plots.py). In his own frame: hexes are offsets from his hex, and so is `floor` (the
    items lying around), so one set of options serves wherever he stands."""
    plots = _plots_of(status, not ensnared)  # R16, §20.5.4: an ensnared man may not rotate
    options = _base_options(plots, facing, status.moves_used >= status.moves_allowed)
    if floor or throwable:
        options += _items(plots, status, facing, floor, throwable, target)
    if ensnared and status.posture == "prone":  # N4: a Prone ensnared man stays in his hex
        options = tuple(x for x in options if x.hex == Hex(0, 0)) or options
    return options if nets is None else with_nets(options, nets)


def _items(
    plots: _Plots,
    status: PlotStatus,
    facing: int,
    floor: tuple[tuple[Hex, ItemKind], ...],
    throwable: tuple[ItemKind, ...],
    target: str,
) -> tuple[Option, ...]:
    """The kicks (§13.5, I6) and throws (§13.3, I1) he may write with his plots."""
    out: list[Option] = []
    lying: dict[Hex, list[ItemKind]] = {}
    for h, kind in floor:
        if kind not in lying.setdefault(h, []):
            lying[h].append(kind)
    reach = _kickers(plots, facing, status.posture)
    groups = sorted(
        g
        for h, kinds in lying.items()
        if h in reach  # most items lie where no plot of his ends
        for g in _kicks(plots, facing, status.posture, h, tuple(kinds))
    )
    for _, kicks in groups:  # in the order of the plots they are written with
        out.extend(kicks)
    if throwable:
        out.extend(_throws(plots, facing, throwable, target))
    return tuple(out)


def _timeout_order(options: tuple[Option, ...]) -> str:
    """E13, §7.5: the plot that neither moves nor turns him."""
    texts = {o.text for o in options}
    return next((t for t in ("X", "S", "KN", "-") if t in texts), options[0].text)


def plot_decision(state: ColosseumState, g: Gladiator) -> PlotChoice:
    o = state.opponent(g.seat)
    status = plot_status(state, g)
    here = g.hex
    floor = tuple(
        sorted(
            {
                (Hex(i.hex.q - here.q, i.hex.r - here.r), i.item)
                for i in state.items
                if i.item != "net"  # §20.8.2: a net cannot be kicked
            }
        )
    )
    throwable = tuple(k for k in ("weapon", "shield") if may_throw(g, o, k))
    refused: dict[str, str] = {}
    nets = None
    if state.options.get(
        "advanced"
    ):  # §20 (net_plots.py, N3, N4; G19; B17: no net attack at beasts)
        refused = net_refusals(state, g)
        nets = net_orders(state, g, refused)
    options = _plot_options(status, g.facing, floor, throwable, o.seat, bool(g.ensnared), nets)
    limit = int(state.options.get("reaction_time", 0))
    return PlotChoice(
        prompt=f"{g.seat}: plot turn {state.turn} phase {state.phase} (§5.2.1)"
        + (f"; {limit} seconds (§7.5)" if limit else ""),
        secret=True,
        options=options,
        origin=here,
        time_limit=float(limit) if limit else None,  # §7.5
        on_timeout=_timeout_order(options) if limit else None,
        refusals=tuple(sorted(refused.items())),
    )
