"""GLADIATOR Colosseum Edition, Basic Game (shared/rules/colosseum.md, Part 2 §4-§18): a duel.

Each phase (§5.2): both gladiators secretly plot (a `ChooseOne` of their legal phase plots,
§5.2.1, §7.2); the plots are revealed and executed together (§5.2.2, §8), with the §15.4 Fall
Prone check first, collisions, Stun and Stumble, then Stun recovery (§11.5, in the order Q23
recommends). If either may attack (§9.1), the defender is turned (§9.1.2), the positional
advantages (§9.2) and the CFs available (§9.3.1) are worked out and both secretly allocate (a
`Distribute`, §9.3); the five attack rounds run (§9.4-§9.6) with wounds, shields and drops
(§10-§13). The end of the phase bleeds severed arteries (§10.5 SA) and buries the dead; after
phase 8 comes endurance (§17.2) and, from turn 3, the stans missus roll (§5.4.1). A Prone
gladiator at an opponent's mercy goes to the Moment of Truth (§8.3, §18.2), decided by §18.3.

RULINGS (engine level; the modules it uses keep their own):

E1  §9.1.2: the defender is turned to face an opponent who *may* attack him, before allocation,
    since the allocation is written with the facings it is made for. The attacker's PA is worked
    out before the turn; the one turned gets no PA (§9.2).
E2  §9.3.1, §15.5, §16.3: CFs available = current CF + PA − Stun, −2 while performing a Stumble;
    a Prone gladiator (who cannot attack, §16.3) defends with half of it, fractions dropped.
E3  §14.2, §14.3: a Kneeling gladiator's attacks, and attacks on a Kneeling gladiator's legs, are
    made at half the CF allocated (fractions dropped; an attack halved to 0 is none). The CF
    allocated still count for §18.3.
E4  A gladiator without a weapon may not attack (unarmed combat is §23, Advanced Game). After
    movement he tries to pick up what he lacks when it lies within one hex (§13.4: always tries,
    since trying costs nothing; R, offered then, is the careful −6 try; a battered shield is
    left). Kicks (§13.5) and throws (§13.3) are written with the plot: items.py, I1-I9.
E5  §18.2 is checked at the start of each phase: a Prone gladiator in the combat front of an
    armed, able opponent goes to the Moment of Truth if he is unconscious or has no movement
    phase left (so he cannot KN or RO, §16.3.1).
E6  §18.3, Q7: the performance value is the attack CF minus the defence CF allocated over the
    match, divided by 10 toward zero (option `performance = "raw"` for the text's unscaled one).
    Methods: "killed" (died in combat), "missus" (beaten and spared), "mercy" (beaten, refused
    missus and killed), "stans missus" (§5.4.1 draw, both appeal), "time" (max_turns reached).
E7  §15.3, §15.4, §16.4: a gladiator already Prone who must Stumble (one collision knocked him
    down and tripped him) plots KN or RO as every Prone man must, and the trip is spent (option
    `prone_trip = "stumble"`: §15.3 first, he writes S and lies through it); a Stumble made while
    Prone makes no Fall Prone check.
E8  §14.1.1, §16.2, Q24: a Prone gladiator who kneels rolls 1D6: on 1-4 he kneels in his own
    (torso) hex, on 5-6 in his legs hex, which is his rear neighbour if he lies face down and his
    front neighbour if face up (a man who falls forward has his legs behind him; one who falls
    backward, in front), or his own hex if that one is held by the opponent or off the board. He
    keeps the facing he lay with (and KN's own rotation). Face up/down is all §16.2 changes.
E9  §7.7 keeps relative positions when it shifts everyone back onto the board, so two gladiators
    running apart would outgrow any board. The printed board's size is unknown, so a plot is
    offered only if it ends within half the board's short side of the opponent's hex (or, if no
    plot does, no farther from him than he is now).
E10 §16.2: he lies face up if his last step of his own (F, SFL, SFR, C forward; B, SBL, SBR
    backward) went backward, face down otherwise (and before his first step); a Roll or a push
    is no step of his. Set whenever he falls Prone (§15.4, T7, §11.4).
E11 §15.1: a gladiator who steps backward into a hex where an item lay at the start of the phase
    checks for Stumble once that phase (§15.2.1, Q5, with every hex he moved backward), after the
    collisions and only if no collision has already tripped him. A "body" is a Prone or dead
    gladiator: entering a Prone man's hex is §8.3, and a dead one ends the duel.
E12 §18.4: in a duel the appeal settles the match, so the phase it takes is the phase in which
    the Moment of Truth comes (§18.2 at its start: nobody plots or allocates in it; §8.3 after the
    collision: no recovery, kick, throw or combat follows; §5.4.1 after the eighth phase: a phase
    of its own). The victor must allow it (he has no other opponent), may neither attack nor be
    attacked, and neither side does anything else in it; no wound bleeds in it (§10.5 SA).
E13 §7.5: with the option `reaction_time` (seconds, 0 = off) the plot decision carries a
    `time_limit`; a gladiator who has not written his plot when it runs out has frozen: he is
    given the plot that neither moves nor turns him (a non-rotating Pause X; a forced Stumble S;
    KN for a Prone man, who may not Pause, §16.4; the empty plot when nothing else is legal).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from functools import cache, lru_cache
from importlib import resources
from typing import Any, NamedTuple

from gladiator.core.decisions import Decision, Distribute, Option
from gladiator.core.dice import Dice
from gladiator.core.hexgrid import (
    Hex,
    HexMap,
    Relation,
    add,
    disk,
    distance,
    neighbor_at,
    rectangle,
)
from gladiator.core.protocol import Event, Outcome, Ruleset
from gladiator.rules.colosseum.attacks import (
    Allocation,
    CrtOutcome,
    PhaseCombat,
    allocation_decision,
    parse_allocation,
)
from gladiator.rules.colosseum.items import (
    drop_item,
    lose_item,
    may_kick_with,
    may_throw,
    recover_items,
    recoverable,
    resolve_kicks,
    resolve_throws,
)
from gladiator.rules.colosseum.logsheet import SheetEvent, roll_log_sheet
from gladiator.rules.colosseum.movement import (
    FigureState,
    forced_rotation,
    in_front,
    may_attack,
    positional_advantage,
    resolve_movement,
    starting_positions,
    stumble_check,
)
from gladiator.rules.colosseum.options import SEAT_NAMES, ColosseumOptions, normalise
from gladiator.rules.colosseum.orders import AllocationChoice, PlotChoice
from gladiator.rules.colosseum.plots import (
    EMPTY,
    KICK_DIRECTIONS,
    ItemKind,
    Kick,
    PhasePlot,
    PlotStatus,
    Throw,
    exceeds_rate,
    format_plot,
    legal_plots,
    parse_plot,
    path,
    posture_after,
    uses_movement_phase,
)
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.tables import AREAS, FILES, Area, GladiatorClass, tables
from gladiator.rules.colosseum.wounds import (
    HitOutcome,
    ItemDrop,
    body_hit,
    drop_check,
    drop_location,
    phases_since_stunned,
    severed_artery_bleeding,
    shield_hit,
    stumbling_check,
    stun_recovery,
)

__all__ = ["ColosseumRules", "board_of", "digest", "max_apart", "offered_plots", "plot_status"]

PHASES_PER_TURN = 8  # §5.1
FALL_PRONE_BELOW = 7  # §15.4: 2D6 + AG below 7
STUMBLE_CF_PENALTY = 2  # §15.5
MISSUS_ABOVE = 9  # §18.3.1
_CLASSES: tuple[GladiatorClass, ...] = ("light", "medium", "heavy")


def _event(kind: str, rule: str, text: str, **extra: Any) -> Event:
    return {"type": kind, "rule": rule, "text": f"{text} ({rule})", **extra}


def _plain(events: list[Event]) -> list[Event]:
    """Events as plain JSON data (hexes as [q, r] lists), so records replay exactly."""
    out: list[Event] = json.loads(json.dumps(events))
    return out


def _sheet_events(seat: str, events: Iterable[SheetEvent]) -> list[Event]:
    return [_event(e.kind, e.rule, f"{seat}: {e.text}", seat=seat) for e in events]


@cache
def _board(width: int, height: int) -> HexMap:
    return rectangle(width, height, name=f"arena-{width}x{height}")


def board_of(state: ColosseumState) -> HexMap:
    return _board(int(state.options["board_width"]), int(state.options["board_height"]))


@cache
def digest() -> str:
    """A hash of the Colosseum data files (the tables this engine plays by)."""
    data = resources.files("gladiator.rules.colosseum").joinpath("data")
    blob = repr(sorted((name, data.joinpath(name).read_text("utf-8")) for name in FILES))
    return hashlib.sha256(blob.encode()).hexdigest()


def _trip_spent(state: ColosseumState, g: Gladiator) -> bool:
    """E7 (option `prone_trip`): a Prone man's pending Stumble gives way to §16.4's KN or RO."""
    return g.posture == "prone" and state.options.get("prone_trip", "spent") == "spent"


def plot_status(state: ColosseumState, g: Gladiator) -> PlotStatus:
    """§5.2.1, §10.5 LMP, §15.3, §16.4, §17.3: what decides his legal plots now."""
    return PlotStatus(
        move_rate=g.sheet.move,
        moves_used=g.moves_used,
        posture=g.posture,
        must_stumble=g.must_stumble and not _trip_spent(state, g),
        can_recover=bool(recoverable(state, g)),  # §7.4 R, §13.4
        unconscious=g.sheet.unconscious,
        lmp=g.crits.lmp,
        exceeded_last_turn=g.exceeded_last_turn,
    )


def max_apart(state: ColosseumState) -> int:
    """E9: how far from his opponent a plot may take a gladiator (half the board's short side)."""
    return min(int(state.options["board_width"]), int(state.options["board_height"])) // 2


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


@lru_cache(maxsize=1024)
def _around(here: Hex) -> dict[Hex, Hex]:
    """Every hex a plot can reach from `here` (a Charge goes 3), by its offset."""
    return {off: add(here, off) for off in disk(Hex(0, 0), 3)}


_PAUSE = PhasePlot(("X",), (0, 0))  # §7.4: X, the free Pause a throw is written with (I1)


@cache
def _with(plot: PhasePlot, extra: Kick | Throw) -> str:
    """The text of a plot with a throw or a kick written after it."""
    return format_plot(replace(plot, extra=extra))


@lru_cache(maxsize=512)
def _shapes(status: PlotStatus, facing: int) -> tuple[tuple[PhasePlot, _Shape], ...]:
    return tuple((p, _shape(p, facing)) for p in legal_plots(status))


@lru_cache(maxsize=4096)
def _offered(
    status: PlotStatus, here: Hex, facing: int, there: Hex, apart: int
) -> tuple[tuple[PhasePlot, _Shape], ...]:
    legal = _shapes(status, facing)
    around = _around(here)
    gap: dict[Hex, int] = {}
    ends: list[int] = []
    for _, shape in legal:
        d = gap.get(shape.end)
        if d is None:
            d = gap[shape.end] = distance(around[shape.end], there)
        ends.append(d)
    near = tuple(ps for ps, d in zip(legal, ends, strict=True) if d <= apart)
    if near:
        return near
    now = distance(here, there)
    return tuple(ps for ps, d in zip(legal, ends, strict=True) if d <= now) or legal


def offered_plots(state: ColosseumState, g: Gladiator) -> list[PhasePlot]:
    """§5.2.1: his legal plots (`legal_plots`), less those that would run away (E9): a plot must
    end within `max_apart` of the opponent's hex; if none does, it may not end farther from him
    than he is now. (Throws and kicks, written with some of them, are `_plot_decision`'s.)"""
    o = _other(state, g.seat)
    offered = _offered(plot_status(state, g), g.hex, g.facing, o.hex, max_apart(state))
    return [p for p, _ in offered]


@lru_cache(maxsize=2048)
def _plot_options(
    status: PlotStatus,
    here: Hex,
    facing: int,
    there: Hex,
    apart: int,
    floor: tuple[tuple[Hex, ItemKind], ...],
    throwable: tuple[ItemKind, ...],
    target: str,
) -> tuple[Option, ...]:
    """The plot decision's options: the offered plots, then kicks written with those that end on
    an item (§13.5, I6), then the throws written with a Pause (§13.3, I1)."""
    plots = _offered(status, here, facing, there, apart)
    around = _around(here).__getitem__
    ways: dict[tuple[Hex, ...], tuple[Hex, ...]] = {}  # many plots share a way (hot path)

    def ghost(shape: _Shape, label: str, text: str = "") -> Option:
        # The ghost of the move: the end hex, the hexes passed through (his own first) and the
        # facing it ends with.
        way = ways.get(shape.hexes)
        if way is None:
            way = ways[shape.hexes] = tuple(map(around, shape.hexes))
        return Option(text or shape.text, label, way[-1], way, shape.facing)

    over = status.moves_used >= status.moves_allowed  # §17.3: a moving plot is the extra phase
    extra = "extra phase (§17.3)"
    out = [ghost(shape, extra if over and shape.moves else "") for _, shape in plots]
    lying: dict[Hex, list[ItemKind]] = {}
    for h, kind in floor:
        if kind not in lying.setdefault(h, []):
            lying[h].append(kind)
    for p, shape in plots if lying else ():
        kinds = lying.get(around(shape.end))
        if not kinds or not may_kick_with(p, status.posture):
            continue
        for kind in kinds:
            for side in range(6):
                label = f"kick the {kind} {KICK_DIRECTIONS[side]} (§13.5)"
                out.append(ghost(shape, label, _with(p, Kick(kind, side))))
    pause = next(((p, sh) for p, sh in plots if p == _PAUSE), None) if throwable else None
    if pause is not None:
        for kind in throwable:
            for area in AREAS:
                label = f"throw your {kind} at {target}, the {area} on a 6 (§13.3)"
                out.append(ghost(pause[1], label, _with(_PAUSE, Throw(kind, area))))
    return tuple(out)


def _timeout_order(options: tuple[Option, ...]) -> str:
    """E13, §7.5: the plot that neither moves nor turns him."""
    texts = {o.text for o in options}
    return next((t for t in ("X", "S", "KN", "-") if t in texts), options[0].text)


def _plot_decision(state: ColosseumState, g: Gladiator) -> PlotChoice:
    o = _other(state, g.seat)
    status = plot_status(state, g)
    floor = tuple(sorted({(i.hex, i.item) for i in state.items}))
    throwable = tuple(k for k in ("weapon", "shield") if may_throw(g, o, k))
    options = _plot_options(
        status, g.hex, g.facing, o.hex, max_apart(state), floor, throwable, o.seat
    )
    limit = int(state.options.get("reaction_time", 0))
    return PlotChoice(
        prompt=f"{g.seat}: plot turn {state.turn} phase {state.phase} (§5.2.1)"
        + (f"; {limit} seconds (§7.5)" if limit else ""),
        secret=True,
        options=options,
        time_limit=float(limit) if limit else None,  # §7.5
        on_timeout=_timeout_order(options) if limit else None,
    )


def _as_area(name: str) -> Area:
    return AREAS[AREAS.index(name)]


def _other(state: ColosseumState, seat: str) -> Gladiator:
    return next(g for s, g in state.gladiators.items() if s != seat)


def _pose(g: Gladiator) -> tuple[Any, int]:
    return (g.hex, g.facing)


def counter_number(cls: str, taken: Mapping[str, Gladiator]) -> int:
    """§2.3.1, §3.2: the log sheet's ID is the counter's number, and counters 1-4 are light,
    5-8 medium, 9-12 heavy: the first of his class's counters not yet in the arena."""
    first = {"light": 1, "medium": 5, "heavy": 9}[cls]
    used = {g.sheet.id for g in taken.values()}
    return next(n for n in range(first, first + 4) if n not in used)


class ColosseumRules(Ruleset[ColosseumState]):
    name = "colosseum"
    title = "GLADIATOR Colosseum Edition, Basic Game"
    version = 1

    def normalise_options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        return normalise(raw)

    def options_schema(self) -> dict[str, Any]:
        return ColosseumOptions.model_json_schema()

    def seats(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        return SEAT_NAMES

    def initial_state(
        self, options: Mapping[str, Any], dice: Dice
    ) -> tuple[ColosseumState, list[Event]]:
        board = _board(int(options["board_width"]), int(options["board_height"]))
        starts = starting_positions(board)  # §4.5
        events: list[Event] = []
        gladiators: dict[str, Gladiator] = {}
        for i, seat in enumerate(SEAT_NAMES):
            choice = options["gladiators"][i]
            if choice == "random":
                n = dice.roll("1D3", f"{seat}'s class (1 light, 2 medium, 3 heavy)", "§3.4")
                cls = _CLASSES[n - 1]
            else:
                cls = choice
            sheet = roll_log_sheet(dice, cls, id=counter_number(cls, gladiators), name=seat)
            pos = starts[i]
            gladiators[seat] = Gladiator(
                seat, sheet, pos.hex, pos.facing, left_handed=bool(options["left_handed"][i])
            )
            events.append(
                _event(
                    "gladiator",
                    "§4.3",
                    f"{seat}: {cls} gladiator, TR {sheet.tr} ST {sheet.st} AG {sheet.ag} "
                    f"CN {sheet.cn} W {sheet.w}, CF {sheet.cf}, move {sheet.move}, "
                    f"{sheet.shield} shield",
                    seat=seat,
                    gladiator_class=cls,
                    cf=sheet.cf,
                )
            )
        a, b = (gladiators[s] for s in SEAT_NAMES)
        events.append(
            _event(
                "placed",
                "§4.5",
                f"{a.seat} at {a.hex.q},{a.hex.r} and {b.seat} at {b.hex.q},{b.hex.r}, facing "
                "each other with four empty hexes between them",
            )
        )
        state = ColosseumState(options=dict(options), gladiators=gladiators)
        _start_phase(state, dice, events)
        return state, _plain(events)

    # -- decisions ---------------------------------------------------------------------------
    def pending(self, state: ColosseumState) -> Mapping[str, Decision]:
        if state.step == "over":
            return {}
        out: dict[str, Decision] = {}
        for seat, g in state.gladiators.items():
            if state.step == "plot":
                out[seat] = _plot_decision(state, g)
            else:
                out[seat] = _allocation(g)
        return out

    def apply(
        self, state: ColosseumState, orders: Mapping[str, str], dice: Dice, *, quiet: bool = False
    ) -> list[Event]:
        events: list[Event] = []
        if state.step == "plot":
            _movement(state, orders, dice, events)
        elif state.step == "allocate":
            _combat(state, orders, dice, events)
        return [] if quiet else _plain(events)

    def outcome(self, state: ColosseumState) -> Outcome | None:
        if state.step != "over":
            return None
        return Outcome(state.winners, state.end_method, state.end_summary)

    def view(self, state: ColosseumState, seat: str | None) -> dict[str, Any]:
        # Everything in the state is public: both log sheets are on the table, and secret
        # orders wait in Match until revealed.
        v = state.to_dict()
        v["ruleset"] = self.name
        v["board"] = {
            "shape": "rectangle",
            "width": state.options["board_width"],
            "height": state.options["board_height"],
        }
        v["seat"] = seat
        return v

    def state_to_dict(self, state: ColosseumState) -> dict[str, Any]:
        return state.to_dict()

    def clone(self, state: ColosseumState) -> ColosseumState:
        return state.clone()

    def data_digest(self) -> str:
        return digest()

    def heuristic(self, state: ColosseumState, seat: str) -> float:
        out = self.outcome(state)
        if out is not None:
            if not out.winners:
                return 0.0
            return 1.0 if seat in out.winners else -1.0
        me = state.gladiators[seat]
        other = _other(state, seat)

        def score(g: Gladiator) -> float:
            s = g.sheet
            posture = {"standing": 0.0, "kneeling": -2.0, "prone": -6.0}[g.posture]
            return s.current_cf - s.stun_in_effect - 2.0 * sum(s.wounds) + posture

        return max(-1.0, min(1.0, (score(me) - score(other)) / 40.0))

    def lookahead(self) -> int:
        return 0

    def seat_label(self, state: ColosseumState, seat: str) -> str:
        return state.gladiators[seat].sheet.gladiator_class

    def rounds(self, state: ColosseumState) -> int:
        return min(state.turn, int(state.options["max_turns"]))

    def scene(self, state: ColosseumState, seat: str | None) -> dict[str, Any]:
        from gladiator.rules.colosseum.presentation import scene

        return scene(state, seat)

    def render_text(self, state: ColosseumState, seat: str | None) -> str:
        from gladiator.rules.colosseum.presentation import render

        return render(state, seat)


# -- the allocation decision (§9.3) ---------------------------------------------------------------
def _allocation(g: Gladiator) -> Distribute:
    d = allocation_decision(
        g.available,
        prompt=f"{g.seat}: allocate up to {max(g.available, 0)} CF to attack and defence (§9.3)"
        + ("" if g.may_attack else "; you may not attack this phase (§9.1)"),
    )
    slots = d.slots
    if not g.may_attack:
        slots = tuple(replace(s, maximum=0) if s.name.startswith("A-") else s for s in slots)
    return AllocationChoice(
        prompt=d.prompt,
        secret=True,
        budget=d.budget,
        slots=slots,
        exact=d.exact,
        max_used=d.max_used,
    )


# -- the phase ------------------------------------------------------------------------------------
def _start_phase(state: ColosseumState, dice: Dice, events: list[Event]) -> None:
    state.step = "plot"
    events.append(
        {
            "type": "phase",
            "turn": state.turn,
            "phase": state.phase,
            "text": f"Turn {state.turn}, phase {state.phase} (§5.2)",
        }
    )
    # §18.2, E5: a Prone gladiator starting a phase helpless in an armed opponent's front.
    for seat, g in state.gladiators.items():
        if g.posture != "prone":
            continue
        o = _other(state, seat)
        able = o.alive and o.has_weapon and o.posture != "prone" and not o.sheet.unconscious
        if not able or not in_front(_pose(o), _pose(g)):
            continue
        helpless = g.sheet.unconscious or not plot_status(state, g).can_move
        if helpless:
            why = "unconscious" if g.sheet.unconscious else "unable to move"
            events.append(
                _event(
                    "moment_of_truth",
                    "§18.2",
                    f"{seat} starts the phase Prone and {why} in {o.seat}'s combat front: "
                    "the Moment of Truth",
                )
            )
            whole = f"this whole phase (turn {state.turn}, phase {state.phase})"
            _moment_of_truth(state, [seat], o.seat, dice, events, whole)
            return


def _leaves_hex(plot: PhasePlot, g: Gladiator) -> bool:
    return any(p.hex != g.hex for p in path(plot, g.hex, g.facing))


def _movement(
    state: ColosseumState, orders: Mapping[str, str], dice: Dice, events: list[Event]
) -> None:
    """§5.2.2-§5.2.5: reveal, the Stumble and Fall Prone checks (§5.2.2.1), movement and
    collisions, Stun recovery, item recovery (§5.2.4.1), kicks (§5.2.4.2), throws (Q10)."""
    t, ph = state.turn, state.phase
    figures: dict[str, FigureState] = {}
    paths: dict[str, list[Any]] = {}
    plots: dict[str, PhasePlot] = {}
    start_stun: dict[str, int] = {}
    since: dict[str, int] = {}
    items_before = {i.hex for i in state.items}  # §15.1 (E11)
    kicks: dict[str, Kick] = {}
    throws: dict[str, Throw] = {}
    for seat, g in state.gladiators.items():
        written = parse_plot(orders[seat])
        plot = written.bare()
        status = plot_status(state, g)
        text = format_plot(written)
        g.sheet = g.sheet.with_phase_plot(t, ph, text)  # §3.20
        g.last_plot = text
        events.append(_event("plot", "§5.2.2", f"{seat} reveals {text}", seat=seat, plot=text))
        if uses_movement_phase(plot):  # §5.2.1, Q3
            if exceeds_rate(status, plot):
                g.exceeded_this_turn = True
                events.append(
                    _event(
                        "exceeded",
                        "§17.3",
                        f"{seat} moves in one phase more than his rate allows",
                        seat=seat,
                    )
                )
            g.moves_used += 1
        start_stun[seat] = g.sheet.stun_in_effect
        since[seat] = phases_since_stunned(g.sheet, t, ph) if g.sheet.last_stunned else 0
        # §10.5 STU: a stumbling check when he tries to leave his hex.
        stu = g.crits.stu and "S" not in plot.actions and _leaves_hex(plot, g)
        if stu and stumbling_check(g.crits.stu, dice):
            events.append(
                _event(
                    "stumble",
                    "§10.5",
                    f"{seat} stumbles (STU) and performs a Stumble instead of {text}",
                    seat=seat,
                )
            )
            plot = written = PhasePlot(("S",), (0, 0))  # his throw or kick goes too
        if isinstance(written.extra, Kick):
            kicks[seat] = written.extra
        elif isinstance(written.extra, Throw):
            throws[seat] = written.extra
        g.stumbling = False
        if g.must_stumble and _trip_spent(state, g):
            g.must_stumble = False  # §16.4 (E7): he gets up or rolls instead; the trip is spent
        if "S" in plot.actions:
            g.must_stumble = False
            if g.posture != "prone":  # §15.4 (E7)
                roll = dice.roll("2D6", f"{seat}'s Fall Prone check 2D6 + AG", "§15.4")
                total = roll + g.sheet.current_ag
                if total < FALL_PRONE_BELOW:
                    _fall_prone(g)
                    plot = EMPTY  # §16.2.1: he stays Prone for the rest of the phase
                    events.append(
                        _event(
                            "fall_prone",
                            "§15.4",
                            f"{seat} stumbles: 2D6 {roll} + AG {g.sheet.current_ag} = {total}, "
                            "below 7: he falls Prone in his hex",
                            seat=seat,
                        )
                    )
                else:
                    g.stumbling = True
                    events.append(
                        _event(
                            "stumbling",
                            "§15.4",
                            f"{seat} stumbles: 2D6 {roll} + AG {g.sheet.current_ag} = {total}: "
                            "he keeps his feet (−2 CF this phase, §15.5)",
                            seat=seat,
                        )
                    )
        prone = g.posture == "prone"
        figures[seat] = FigureState(
            gladiator_class=g.sheet.gladiator_class,
            shield=g.sheet.shield if g.has_shield and not g.sheet.shield_useless else None,
            st=g.sheet.current_st,
            ag=g.sheet.current_ag,
            stun=g.sheet.stun_in_effect,
            kneeling=g.posture == "kneeling",
            stumbling=g.stumbling,
            prone=prone,
            rolling=prone and bool(plot.actions) and plot.actions[0].startswith("RO"),
            recovering="R" in plot.actions,  # §8.2 T12: −3 to his impact factor
            left_handed=g.left_handed,
        )
        paths[seat] = list(path(plot, g.hex, g.facing))
        plots[seat] = plot
    result = resolve_movement(
        figures,
        paths,
        dice,
        board=board_of(state),
        stumble_rule=state.options["stumble_rule"],
    )
    events.extend(result.events)
    for seat, pos in result.positions.items():
        g = state.gladiators[seat]
        g.hex, g.facing = pos.hex, pos.facing
        steps = [kind for _, kind in result.tracks.get(seat, ())[1:]]
        own = [k for k in steps if k in ("forward", "backward")]
        if own:  # §16.2 (E10)
            g.last_move = "backward" if own[-1] == "backward" else "forward"
    for seat, g in state.gladiators.items():
        lay = paths[seat][0].facing  # the facing he lay with, if he was Prone (E8)
        _posture_after(state, g, plots[seat], lay, not result.moment_of_truth, dice, events)
    mercy: tuple[str, str] | None = None
    for c in result.collisions:
        for sr in c.stun_rolls:  # §8.4.3, §8.4.4
            g = state.gladiators[sr.figure]
            g.sheet, evs = g.sheet.with_stun(sr.stun, turn=t, phase=ph)
            events.extend(_sheet_events(g.seat, evs))
            if sr.extra == "fall_prone":
                _fall_prone(g)
                events.append(_event("fall_prone", "§8.4.3", f"{g.seat} falls Prone (T7)"))
            elif sr.extra == "weapon_drop" and g.has_weapon:
                drop_item(state, board_of(state), g, "weapon", dice, "§8.4.3 T7", events)
            elif sr.extra == "shield_drop" and g.has_shield:
                drop_item(state, board_of(state), g, "shield", dice, "§8.4.3 T7", events)
        for sc in c.stumble_checks:
            if sc.stumbled:
                state.gladiators[sc.figure].must_stumble = True
                events.append(
                    _event(
                        "tripped",
                        "§15.3",
                        f"{sc.figure} tripped: he must write S next phase",
                        seat=sc.figure,
                    )
                )
        if c.mercy is not None:
            victor = next(f for f in c.figures if f != c.mercy)
            mercy = (c.mercy, victor)
    for g in state.gladiators.values():
        _check_unconscious(g, events)
    if mercy is not None:  # §8.3, §18.2.1 (the collision has announced it)
        here = f"the rest of this phase (turn {t}, phase {ph})"
        _moment_of_truth(state, [mercy[0]], mercy[1], dice, events, here)
        return
    # §15.1 (E11): stepping backward into a hex where an item lies.
    for seat, g in state.gladiators.items():
        back = [h for h, kind in result.tracks.get(seat, ())[1:] if kind == "backward"]
        if g.must_stumble or not g.alive or not any(h in items_before for h in back):
            continue
        check, ev = stumble_check(
            seat,
            len(back),
            g.sheet.stun_in_effect,
            dice,
            state.options["stumble_rule"],
            "after stepping backward onto an item",
            "§15.1",
        )
        events.append(ev)
        if check.stumbled:
            g.must_stumble = True
            events.append(
                _event("tripped", "§15.1", f"{seat} tripped: he must write S next phase", seat=seat)
            )
    # §11.5 after all movement and collisions (Q23): Stun from this phase's collision stays.
    for seat, g in state.gladiators.items():
        if start_stun[seat] <= 0:
            continue
        before = g.sheet.stun_in_effect
        g.sheet, removed = stun_recovery(
            g.sheet, since[seat], dice, start_of_phase_stun=start_stun[seat]
        )
        events.append(
            _event(
                "stun_recovery",
                "§11.5",
                f"{seat} shakes off {removed} Stun ({before} → {g.sheet.stun_in_effect})",
                seat=seat,
                removed=removed,
            )
        )
    collided = {f for c in result.collisions for f in c.figures}
    recover_items(state, plots, result.tracks, collided, dice, events)  # §5.2.4.1
    if kicks:  # §5.2.4.2
        resolve_kicks(state, kicks, result.tracks, board_of(state), dice, events)
    if throws:  # §13.3 at the start of the combat step (Q10, I1)
        resolve_throws(
            state,
            throws,
            board_of(state),
            dice,
            events,
            lambda att, d, area, outcome, evs: _thrown_hit(state, att, d, area, outcome, dice, evs),
        )
        if any(not g.alive for g in state.gladiators.values()):
            _end_phase(state, dice, events)
            return
    if _prepare_combat(state, events):
        state.step = "allocate"
        return
    _end_phase(state, dice, events)


def _posture_after(
    state: ColosseumState,
    g: Gladiator,
    plot: PhasePlot,
    lay: int,
    may_rise: bool,
    dice: Dice,
    events: list[Event],
) -> None:
    """§14.1, R11 (Q24): KN kneels (from Prone or standing); a Kneeling gladiator who plots a
    movement action, C or a rotating X stands up. §14.1.1 (E8): a Prone one who kneels rolls
    for where his KN counter goes (not when the match has just gone to the Moment of Truth)."""
    after = posture_after(plot, g.posture)
    if after == g.posture or (g.posture == "prone" and not may_rise):
        return
    if g.posture == "prone":
        _kneel_from_prone(state, g, lay, dice, events)
    elif after == "kneeling":
        g.posture = "kneeling"
        events.append(_event("posture", "§14.3", f"{g.seat} kneels", seat=g.seat))
    else:
        g.posture = "standing"
        events.append(_event("posture", "§14", f"{g.seat} stands up", seat=g.seat))


def _kneel_from_prone(
    state: ColosseumState, g: Gladiator, lay: int, dice: Dice, events: list[Event]
) -> None:
    """§14.1, §14.1.1, §16.2 (E8): 1-4 his torso hex, 5-6 his legs hex."""
    roll = dice.roll("1D6", f"{g.seat}'s KN counter: torso (1-4) or legs (5-6)", "§14.1.1")
    face = g.prone_face or "down"
    where = "his own hex (torso)"
    if roll >= 5:
        legs = neighbor_at(g.hex, lay, Relation.REAR if face == "down" else Relation.FRONT)
        held = any(o.hex == legs for o in state.gladiators.values() if o is not g)
        if legs in board_of(state) and not held:
            g.hex = legs
            where = f"his legs hex {legs.q},{legs.r} (face {face})"
        else:
            where = "his own hex (his legs hex is " + ("taken" if held else "off the board") + ")"
    g.posture = "kneeling"
    g.prone_face = None
    events.append(
        _event(
            "posture",
            "§14.1.1",
            f"{g.seat} rises to his knees: 1D6 {roll}, the KN counter goes in {where}",
            seat=g.seat,
            hex=g.hex,
        )
    )


def _fall_prone(g: Gladiator) -> None:
    """§16.1, §16.2 (E10): laid flat in his hex, face up after a backward step, else face down."""
    if g.posture != "prone":
        g.posture = "prone"
        g.prone_face = "up" if g.last_move == "backward" else "down"


def _check_unconscious(g: Gladiator, events: list[Event]) -> None:
    if g.alive and g.sheet.unconscious and g.posture != "prone":  # §11.4
        _fall_prone(g)
        events.append(
            _event(
                "unconscious",
                "§11.4",
                f"{g.seat} falls unconscious and is laid Prone in his hex",
                seat=g.seat,
            )
        )


def _able(x: Gladiator, y: Gladiator) -> bool:
    """§9.1, §16.3, E4: x may attack y now."""
    return (
        x.alive
        and y.alive
        and x.has_weapon
        and not x.sheet.unconscious
        and may_attack(_pose(x), _pose(y), attacker_prone=x.posture == "prone")
    )


def _pa(x: Gladiator, y: Gladiator) -> int:
    """§9.2, T11, §9.2.1: x's PA attacking y."""
    return positional_advantage(
        _pose(x),
        _pose(y),
        left_handed=y.left_handed,
        stumbling=y.stumbling,
        prone=y.posture == "prone",
    )


def _prepare_combat(state: ColosseumState, events: list[Event]) -> bool:
    """§5.2.6.1, §9.1-§9.3.1: who may attack, forced rotation, PA and the CFs available."""
    a, b = state.gladiators[SEAT_NAMES[0]], state.gladiators[SEAT_NAMES[1]]
    for g in (a, b):
        g.may_attack, g.pa, g.available = False, 0, 0
    ca, cb = _able(a, b), _able(b, a)
    if not ca and not cb:
        return False
    if ca and cb:  # §9.1.3: each in the other's front, nobody turns
        a.pa, b.pa = _pa(a, b), _pa(b, a)
    else:
        x, y = (a, b) if ca else (b, a)
        rot = forced_rotation(
            _pose(x),
            _pose(y),
            left_handed=y.left_handed,
            stumbling=y.stumbling,
            prone=y.posture == "prone",
        )
        x.pa = rot.attacker_pa
        if rot.turns:  # §9.1.2 (E1)
            y.facing = rot.facing
            events.append(
                _event(
                    "forced_rotation",
                    "§9.1.2",
                    f"{y.seat} turns to face {x.seat} (facing {y.facing}); {x.seat} keeps "
                    f"his PA {x.pa}",
                    seat=y.seat,
                    facing=y.facing,
                )
            )
        if _able(y, x):
            y.pa = _pa(y, x) if rot.defender_pa_allowed else 0
    for g, o in ((a, b), (b, a)):
        g.may_attack = _able(g, o)
        avail = g.sheet.available_cf(g.pa)  # §9.3.1
        notes = [f"CF {g.sheet.current_cf}", f"PA {g.pa:+d}", f"Stun −{g.sheet.stun_in_effect}"]
        if g.stumbling:  # §15.5
            avail -= STUMBLE_CF_PENALTY
            notes.append("stumbling −2 (§15.5)")
        if g.posture == "prone":  # §16.3 (E2)
            avail = max(avail, 0) // 2
            notes.append("Prone: half, defence only (§16.3)")
        g.available = avail
        events.append(
            _event(
                "available",
                "§9.3.1",
                f"{g.seat}: {', '.join(notes)} → {avail} CF available"
                + ("" if g.may_attack else "; he may not attack"),
                seat=g.seat,
                available=avail,
                may_attack=g.may_attack,
            )
        )
    return True


Lose = Callable[[Gladiator, ItemKind, ItemDrop | None, str], None]


def _strike(
    state: ColosseumState,
    att: Gladiator,
    d: Gladiator,
    area: Area,
    outcome: CrtOutcome,
    dice: Dice,
    events: list[Event],
    lose: Lose,
) -> int:
    """§9.6: what a result that touches the defender does (S, S* §12; P, P* §13.1; H §10), for an
    attack in the combat step and for a thrown item (§13.3.1.1); the CF he loses at once."""
    t, ph = state.turn, state.phase

    def apply_hit(hit: HitOutcome) -> int:
        d.crits = d.crits.after(hit)
        if hit.severed_artery:
            d.arteries = (*d.arteries, (hit.area, t, ph))
        if hit.weapon_drop is not None and d.has_weapon:
            lose(d, "weapon", hit.weapon_drop, "§10.5 WD")
        if hit.shield_drop is not None and d.has_shield:
            lose(d, "shield", hit.shield_drop, "§10.5 SD")
        return hit.cf_lost + hit.stun  # §9.4.6, §11.3

    code = outcome.code
    lost = 0
    if code == "H":
        d.sheet, hit = body_hit(
            d.sheet,
            area,
            outcome.result.modifier,
            dice,
            turn=t,
            phase=ph,
            helmet_lost=d.crits.helmet_lost,
            has_weapon=d.has_weapon,
            has_shield=d.has_shield,
        )
        events.extend(hit.events)
        if hit.wounds_marked:
            state.bleed(d)
        lost = apply_hit(hit)
    elif code in ("S", "S*"):
        d.sheet, so = shield_hit(
            d.sheet,
            outcome.result,
            att.sheet.current_st,
            outcome.unweakened_cf,
            dice,
            drop_modified_cf=outcome.modified_cf,
            has_weapon=d.has_weapon,
            area=area,
            turn=t,
            phase=ph,
            helmet_lost=d.crits.helmet_lost,
        )
        events.extend(so.events)
        if so.shield_drop is not None:
            lose(d, "shield", so.shield_drop, "§12.3" if so.shield_useless else "S*")
        elif so.shield_useless:
            # §12.3 "must be dropped or thrown away [see 13.1]": it falls where §13.2 says (I2:
            # he drops it at once rather than keep a useless shield for a later throw).
            drop, ev = drop_location(dice, "shield", "§12.3")
            events.append(ev)
            lose(d, "shield", drop, "§12.3")
        if so.weapon_drop is not None and d.has_weapon:
            lose(d, "weapon", so.weapon_drop, "§12.3.1 P box")
        if so.body_hit is not None:
            lost = apply_hit(so.body_hit)
    elif code in ("P", "P*"):
        arms = d.sheet.cf_lost_to_wounds("arms")
        dropped = drop_check(outcome.result, outcome.modified_cf, att.sheet.current_st, arms, dice)
        events.append(
            _event(
                "drop_roll",
                "§13.1.1",
                f"{d.seat}'s weapon drop roll after {code}: "
                + ("he drops his weapon" if dropped else "he keeps it"),
                seat=d.seat,
            )
        )
        if dropped and d.has_weapon:
            drop, ev = drop_location(dice, "weapon", f"§13.1.1 {code}")
            events.append(ev)
            lose(d, "weapon", drop, f"§13.1.1 {code}")
    return lost


def _thrown_hit(
    state: ColosseumState,
    att: Gladiator,
    d: Gladiator,
    area: Area,
    outcome: CrtOutcome,
    dice: Dice,
    events: list[Event],
) -> None:
    """§13.3.1.1: a thrown item's CRT result, before any CF is allocated (I4)."""
    board = board_of(state)

    def lose(g: Gladiator, item: ItemKind, drop: ItemDrop | None, cause: str) -> None:
        lose_item(state, board, g, item, drop, cause, events)

    _strike(state, att, d, area, outcome, dice, events, lose)
    if d.alive and (d.sheet.killed or d.crits.killed):
        d.alive = False
        d.cause = f"killed by {att.seat}'s thrown item"
    _check_unconscious(d, events)


def _combat(
    state: ColosseumState, orders: Mapping[str, str], dice: Dice, events: list[Event]
) -> None:
    """§9.4-§9.6 with §10-§13 through `on_hit`."""
    gl = [state.gladiators[s] for s in SEAT_NAMES]
    allocs: list[Allocation] = []
    for i, g in enumerate(gl):
        al = parse_allocation(orders[g.seat], g.available)
        g.last_allocation = orders[g.seat]
        g.attack_used += sum(al.attack)  # §18.3, Q7
        g.defence_used += sum(al.defence)
        events.append(
            _event(
                "allocation",
                "§9.4.1",
                f"{g.seat} reveals {orders[g.seat]}",
                seat=g.seat,
                allocation=orders[g.seat],
            )
        )
        other = gl[1 - i]
        attack = list(al.attack)
        # §14.3 (E3), §13.4.2, §14.2; several halvings multiply (Q26: a kneeling man's first
        # phase with a recovered weapon strikes at a quarter).
        halvings = [
            (rule, why)
            for rule, why, on in (
                ("§14.3", "kneeling", g.posture == "kneeling"),
                ("§13.4.2", "a weapon just recovered", g.recovered_weapon),
            )
            if on
        ]
        for _ in halvings:
            attack = [v // 2 for v in attack]
        legs = AREAS.index("legs")
        if other.posture == "kneeling":  # §14.2
            attack[legs] //= 2
            halvings.append(("§14.2", f"legs of a kneeling {other.seat}"))
        if tuple(attack) != al.attack:
            events.append(
                _event(
                    "half_cf",
                    ", ".join(rule for rule, _ in halvings),
                    f"{g.seat}'s attacks at half CF ({'; '.join(why for _, why in halvings)}): "
                    + " ".join(f"{a}:{v}" for a, v in zip(AREAS, attack, strict=True) if v),
                    seat=g.seat,
                )
            )
            al = Allocation(al.available, tuple(attack), al.defence)
        allocs.append(al)
    combat: PhaseCombat

    def lose(g: Gladiator, item: ItemKind, drop: ItemDrop | None, cause: str) -> None:
        side = gl.index(g)
        lose_item(state, board_of(state), g, item, drop, cause, events_sink)
        combat.set_equipment(side, **{item: False})
        if item == "weapon":  # E4: no attack without a weapon, from now on
            combat.cancel_attacks(side, "weapon dropped", "§13.1")

    def on_hit(attacker: int, defender: int, area: Area, result: CrtOutcome) -> int:
        d = gl[defender]
        lost = _strike(state, gl[attacker], d, area, result, dice, events_sink, lose)
        if d.alive and (d.sheet.killed or d.crits.killed):
            d.alive = False
            d.cause = "killed in combat"
            combat.cancel_attacks(defender, "he is dead", "§10.3.2")
            combat.cancel_attacks(1 - defender, "his opponent is dead", "§10.3.2")
        elif d.sheet.unconscious:
            _check_unconscious(d, events_sink)
            combat.cancel_attacks(defender, "he is unconscious", "§11.4")
        return lost

    combat = PhaseCombat(
        allocs,
        dice,
        on_hit,
        names=SEAT_NAMES,
        has_weapon=(gl[0].has_weapon, gl[1].has_weapon),
        has_shield=(
            gl[0].has_shield and not gl[0].sheet.shield_useless,
            gl[1].has_shield and not gl[1].sheet.shield_useless,
        ),
        crt=state.options["crt"],
        # §10.3.3.1: while his CF is below 1, every attack against him subtracts it.
        drm=lambda a, d, area: max(0, -gl[d].sheet.current_cf),
    )
    # What a hit does goes into the phase's event stream at the point it happens.
    events_sink = combat.events
    events.extend(combat.run())
    _end_phase(state, dice, events)


def _end_phase(state: ColosseumState, dice: Dice, events: list[Event]) -> None:
    """§5.2.7, §10.5 SA, §10.3.2; then the next phase or the end of the turn (§5.4)."""
    t, ph = state.turn, state.phase
    for g in state.gladiators.values():
        g.recovered_weapon = False  # §13.4.2 lasts the phase of the recovery
        if not g.alive:
            continue
        bleeding: list[Area] = [_as_area(a) for a, tt, pp in g.arteries if (tt, pp) < (t, ph)]
        if bleeding:
            g.sheet, evs = severed_artery_bleeding(g.sheet, bleeding)
            events.extend(evs)
            state.bleed(g)
        if g.sheet.killed or g.crits.killed:
            g.alive = False
            g.cause = g.cause or ("bled to death (§10.5 SA)" if bleeding else "killed in combat")
        _check_unconscious(g, events)
    if _check_deaths(state, events):
        return
    for g in state.gladiators.values():
        g.stumbling = False
        g.may_attack, g.pa, g.available = False, 0, 0
    if state.phase < PHASES_PER_TURN:  # §5.3: the next phase, until one side is beaten
        state.phase += 1
    else:
        _end_turn(state, dice, events)
        if state.step == "over":
            return
    _start_phase(state, dice, events)


def _check_deaths(state: ColosseumState, events: list[Event]) -> bool:
    dead = [g for g in state.gladiators.values() if not g.alive]
    if not dead:
        return False
    for g in dead:
        events.append(_event("dead", "§10.3.2", f"{g.seat} is dead: {g.cause}", seat=g.seat))
    alive = [g for g in state.gladiators.values() if g.alive]
    if alive:
        w = alive[0]
        _finish(state, (w.seat,), "killed", f"{w.seat} killed {dead[0].seat} in combat", events)
    else:
        _finish(state, (), "killed", "both gladiators died", events)
    return True


def _end_turn(state: ColosseumState, dice: Dice, events: list[Event]) -> None:
    """§5.4: endurance (§17.2, §17.3) and, from turn 3, stans missus (§5.4.1)."""
    t = state.turn
    end = tables().turn_end
    const = (
        end.endurance.constant
        if state.options["endurance"] == "rules"
        else end.endurance.reference_sheet_constant
    )
    for seat, g in state.gladiators.items():
        die = dice.roll(end.endurance.dice, f"{seat}'s endurance 1D6 + turn", "§17.2")
        bonus = end.endurance.exceeded_turn_bonus if g.exceeded_this_turn else 0
        value = (g.sheet.cn + g.sheet.move + const) - (die + t + bonus)
        text = (
            f"{seat}: (CN {g.sheet.cn} + move {g.sheet.move} {const:+d}) − (1D6 {die} + turn {t}"
            + (f" + {bonus} (§17.3)" if bonus else "")
            + f") = {value}"
        )
        if value < 0:
            g.sheet, evs = g.sheet.with_endurance_loss(t, -value)
            events.append(
                _event("endurance", "§17.2", f"{text}: loses {-value} CF", seat=seat, lost=-value)
            )
            events.extend(_sheet_events(seat, evs))
            _check_unconscious(g, events)
        else:
            events.append(_event("endurance", "§17.2", f"{text}: no loss", seat=seat, lost=0))
    sm = end.stans_missus
    if t >= sm.first_turn:
        roll = dice.roll(sm.dice, "stans missus 1D6 + turn", "§5.4.1")
        stopped = roll + t > sm.stopped_if_above
        events.append(
            _event(
                "stans_missus_roll",
                "§5.4.1",
                f"1D6 {roll} + turn {t} = {roll + t}"
                + (": stans missus, the match is stopped" if stopped else ": the fight goes on"),
                stopped=stopped,
            )
        )
        if stopped:
            after = f"a phase of its own after turn {t}"
            _moment_of_truth(state, list(SEAT_NAMES), None, dice, events, after)
            return
    for g in state.gladiators.values():
        g.moves_used = 0
        g.exceeded_last_turn = g.exceeded_this_turn
        g.exceeded_this_turn = False
    if state.turn >= int(state.options["max_turns"]):
        _finish(
            state,
            (),
            "time",
            f"no result after {state.options['max_turns']} turns: a draw (max_turns)",
            events,
        )
        return
    state.turn += 1
    state.phase = 1


def _moment_of_truth(
    state: ColosseumState,
    appellants: list[str],
    victor: str | None,
    dice: Dice,
    events: list[Event],
    when: str,
) -> None:
    """§18.3: each appellant rolls 2D6 + performance value + Prestige; above 9 is missus. §18.4
    (E12): the appeal takes the phase `when` names, in which nobody does anything else."""
    if victor is None:
        doing = "both appeal; neither moves nor fights"
    else:
        doing = (
            f"{appellants[0]} appeals for missus and {victor} must allow it; {victor} may neither "
            "attack nor be attacked, and neither moves"
        )
    events.append(
        _event(
            "appeal_phase",
            "§18.4",
            f"the appeal takes {when}: {doing}",
        )
    )
    spared: dict[str, bool] = {}
    for seat in appellants:
        g = state.gladiators[seat]
        raw = g.attack_used - g.defence_used
        pv = int(raw / 10) if state.options["performance"] == "tenths" else raw  # Q7
        roll = dice.roll("2D6", f"{seat}'s appeal for missus", "§18.3")
        total = roll + pv + g.sheet.prestige
        spared[seat] = total > MISSUS_ABOVE
        events.append(
            _event(
                "appeal",
                "§18.3.1" if spared[seat] else "§18.3.2",
                f"{seat} appeals: 2D6 {roll} + performance {pv} (attack {g.attack_used} − "
                f"defence {g.defence_used}) + prestige {g.sheet.prestige} = {total}: "
                + ("missus, he leaves the arena alive" if spared[seat] else "he is killed"),
                seat=seat,
                total=total,
                spared=spared[seat],
            )
        )
        if not spared[seat]:
            g.alive = False
            g.cause = "killed at the Moment of Truth"
    if victor is None:  # §5.4.1 stans missus
        alive = [s for s in appellants if spared[s]]
        winners = tuple(alive) if len(alive) == 1 else ()
        if len(alive) == 2:
            summary = "stans missus: both are spared, a draw"
        elif alive:
            summary = f"stans missus: only {alive[0]} is spared"
        else:
            summary = "stans missus: both are refused and killed"
        _finish(state, winners, "stans missus", summary, events)
        return
    beaten = appellants[0]
    if spared[beaten]:
        _finish(state, (victor,), "missus", f"{victor} beat {beaten}, who is spared", events)
    else:
        _finish(state, (victor,), "mercy", f"{victor} beat {beaten} and killed him", events)


def _finish(
    state: ColosseumState,
    winners: tuple[str, ...],
    method: str,
    summary: str,
    events: list[Event],
) -> None:
    for g in state.gladiators.values():
        if g.alive and g.crits.mortal:  # §10.5 M: he fights on but dies at the end of the match
            g.alive = False
            g.cause = "a mortal wound (§10.5 M)"
            events.append(
                _event("mortal", "§10.5", f"{g.seat} dies of his mortal wound", seat=g.seat)
            )
            summary += f"; {g.seat} dies of a mortal wound"
    state.step = "over"
    state.winners = winners
    state.end_method = method
    state.end_summary = summary
    events.append({"type": "end", "winners": list(winners), "method": method, "text": summary})
