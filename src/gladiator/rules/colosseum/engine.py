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
    left). Kicking items (§13.5) is not implemented yet.
E5  §18.2 is checked at the start of each phase: a Prone gladiator in the combat front of an
    armed, able opponent goes to the Moment of Truth if he is unconscious or has no movement
    phase left (so he cannot KN or RO, §16.3.1).
E6  §18.3, Q7: the performance value is the attack CF minus the defence CF allocated over the
    match, divided by 10 toward zero (option `performance = "raw"` for the text's unscaled one).
    Methods: "killed" (died in combat), "missus" (beaten and spared), "mercy" (beaten, refused
    missus and killed), "stans missus" (§5.4.1 draw, both appeal), "time" (max_turns reached).
E7  §15.4: a gladiator already Prone who must Stumble makes no Fall Prone check.
E8  §14.1.1: the KN counter's torso/legs roll is not made; a Prone gladiator kneels in his hex.
E9  §7.7 keeps relative positions when it shifts everyone back onto the board, so two gladiators
    running apart would outgrow any board. The printed board's size is unknown, so a plot is
    offered only if it ends within half the board's short side of the opponent's hex (or, if no
    plot does, no farther from him than he is now).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import replace
from functools import cache
from importlib import resources
from itertools import pairwise
from typing import Any, Literal

from gladiator.core.decisions import Decision, Distribute, Option
from gladiator.core.dice import Dice
from gladiator.core.hexgrid import Hex, HexMap, Relation, add, distance, neighbor_at, rectangle
from gladiator.core.protocol import Event, Outcome, Ruleset
from gladiator.rules.colosseum.attacks import (
    Allocation,
    CrtOutcome,
    PhaseCombat,
    allocation_decision,
    parse_allocation,
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
)
from gladiator.rules.colosseum.options import SEAT_NAMES, normalise
from gladiator.rules.colosseum.orders import AllocationChoice, PlotChoice
from gladiator.rules.colosseum.plots import (
    EMPTY,
    PhasePlot,
    PlotStatus,
    exceeds_rate,
    format_plot,
    legal_plots,
    parse_plot,
    path,
    uses_movement_phase,
)
from gladiator.rules.colosseum.state import ColosseumState, Gladiator, GroundItem
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


def plot_status(state: ColosseumState, g: Gladiator) -> PlotStatus:
    """§5.2.1, §10.5 LMP, §15.3, §16.4, §17.3: what decides his legal plots now."""
    return PlotStatus(
        move_rate=g.sheet.move,
        moves_used=g.moves_used,
        posture=g.posture,
        must_stumble=g.must_stumble,
        can_recover=bool(_recoverable(state, g)),  # §7.4 R, §13.4
        unconscious=g.sheet.unconscious,
        lmp=g.crits.lmp,
        exceeded_last_turn=g.exceeded_last_turn,
    )


def _wants(g: Gladiator, item: str) -> bool:
    """§13.4: he may pick up what he lacks (never more than two items: a weapon and a shield)."""
    return not g.has_weapon if item == "weapon" else not g.has_shield


def _hexes_moved(planned: list[Any], reached: Hex) -> int:
    """Hexes entered along his plotted path until the hex he ended in (a collision stops him)."""
    moved = 0
    for a, b in pairwise(planned):
        if a.hex != b.hex:
            moved += 1
            if b.hex == reached:
                break
    return moved


def _recoverable(state: ColosseumState, g: Gladiator) -> list[GroundItem]:
    """Items within one hex of him that he could pick up (§13.4)."""
    return [i for i in state.items if distance(i.hex, g.hex) <= 1 and _wants(g, i.item)]


def _recovery(
    state: ColosseumState,
    plots: Mapping[str, PhasePlot],
    paths: Mapping[str, list[Any]],
    collided: set[str],
    dice: Dice,
    events: list[Event],
) -> None:
    """§5.2.4.1, §13.4.1: after movement, each gladiator within one hex of an item he lacks tries
    to pick it up: 1D6 + the T14 DRMs, recovered below 1 (R1: trying costs nothing, so he always
    tries; a battered shield is not worth picking up)."""
    t14 = tables().items.t14
    d = t14.drms
    for seat, g in state.gladiators.items():
        if not g.alive or g.posture == "prone" or g.sheet.unconscious:
            continue
        for item in _recoverable(state, g):
            if item.battered:
                continue
            other = _other(state, seat)
            moved = _hexes_moved(paths[seat], g.hex)
            used_r = plots[seat].actions == ("R",) and seat not in collided
            parts = [
                (d.heavy.drm, g.sheet.gladiator_class == "heavy"),
                (d.light.drm, g.sheet.gladiator_class == "light"),
                (d.opponent_in_item_hex.drm, other.alive and other.hex == item.hex),
                (
                    d.opponent_adjacent_to_item.drm,
                    other.alive and distance(other.hex, item.hex) == 1,
                ),
                (d.item_in_adjacent_hex.drm, item.hex != g.hex),
                (d.moved.drm * moved, moved > 0),
                (d.used_recover_action.drm, used_r),
                (d.collided.drm, seat in collided),
                (d.kneeling.drm, g.posture == "kneeling"),
                (d.stumbling.drm, g.must_stumble),
                (d.stun.drm * g.sheet.stun_in_effect, g.sheet.stun_in_effect > 0),
                (d.agility.drm * g.sheet.current_ag, True),
            ]
            drm = sum(v for v, on in parts if on)
            roll = dice.roll(t14.dice, f"{seat} tries to pick up his {item.item}", "§13.4.1")
            got = roll + drm < t14.succeeds_below
            events.append(
                _event(
                    "recovery",
                    "§13.4.1",
                    f"{seat} tries to pick up the {item.item}: {roll} {drm:+d} = {roll + drm}: "
                    + ("recovered" if got else "fumbled"),
                    seat=seat,
                    item=item.item,
                )
            )
            if got:
                state.items.remove(item)
                if item.item == "weapon":
                    g.has_weapon = True
                    g.recovered_weapon = True  # §13.4.2: half CF on attacks this phase
                else:
                    g.has_shield = True
                break


def max_apart(state: ColosseumState) -> int:
    """E9: how far from his opponent a plot may take a gladiator (half the board's short side)."""
    return min(int(state.options["board_width"]), int(state.options["board_height"])) // 2


@cache
def _end_offset(plot: PhasePlot, facing: int) -> Hex:
    """Where a plot ends, relative to where it starts (paths are the same from every hex)."""
    return path(plot, Hex(0, 0), facing)[-1].hex


@cache
def _plot_text(plot: PhasePlot) -> str:
    return format_plot(plot)


def offered_plots(state: ColosseumState, g: Gladiator) -> list[PhasePlot]:
    """§5.2.1: his legal plots (`legal_plots`), less those that would run away (E9): a plot must
    end within `max_apart` of the opponent's hex; if none does, it may not end farther from him
    than he is now."""
    legal = legal_plots(plot_status(state, g))
    o = _other(state, g.seat)
    ends = [(p, distance(add(g.hex, _end_offset(p, g.facing)), o.hex)) for p in legal]
    near = [p for p, d in ends if d <= max_apart(state)]
    if near:
        return near
    now = distance(g.hex, o.hex)
    return [p for p, d in ends if d <= now] or legal


def _as_area(name: str) -> Area:
    return AREAS[AREAS.index(name)]


def _other(state: ColosseumState, seat: str) -> Gladiator:
    return next(g for s, g in state.gladiators.items() if s != seat)


def _pose(g: Gladiator) -> tuple[Any, int]:
    return (g.hex, g.facing)


class ColosseumRules(Ruleset[ColosseumState]):
    name = "colosseum"
    title = "GLADIATOR Colosseum Edition, Basic Game"
    version = 1

    def normalise_options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        return normalise(raw)

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
            sheet = roll_log_sheet(dice, cls, id=i + 1, name=seat)  # §3, §4.3
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
                status = plot_status(state, g)
                opts = tuple(
                    Option(_plot_text(p), "extra phase (§17.3)" if exceeds_rate(status, p) else "")
                    for p in offered_plots(state, g)
                )
                out[seat] = PlotChoice(
                    prompt=f"{seat}: plot turn {state.turn} phase {state.phase} (§5.2.1)",
                    secret=True,
                    options=opts,
                )
            else:
                out[seat] = _allocation(g)
        return out

    def apply(self, state: ColosseumState, orders: Mapping[str, str], dice: Dice) -> list[Event]:
        events: list[Event] = []
        if state.step == "plot":
            _movement(state, orders, dice, events)
        elif state.step == "allocate":
            _combat(state, orders, dice, events)
        return _plain(events)

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
            _moment_of_truth(state, [seat], o.seat, dice, events)
            return


def _leaves_hex(plot: PhasePlot, g: Gladiator) -> bool:
    return any(p.hex != g.hex for p in path(plot, g.hex, g.facing))


def _movement(
    state: ColosseumState, orders: Mapping[str, str], dice: Dice, events: list[Event]
) -> None:
    """§5.2.2-§5.2.3: reveal, Fall Prone checks, movement and collisions, Stun recovery."""
    t, ph = state.turn, state.phase
    figures: dict[str, FigureState] = {}
    paths: dict[str, list[Any]] = {}
    plots: dict[str, PhasePlot] = {}
    start_stun: dict[str, int] = {}
    since: dict[str, int] = {}
    for seat, g in state.gladiators.items():
        plot = parse_plot(orders[seat])
        status = plot_status(state, g)
        text = format_plot(plot)
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
            plot = PhasePlot(("S",), (0, 0))
        g.stumbling = False
        if "S" in plot.actions:
            g.must_stumble = False
            if g.posture != "prone":  # §15.4 (E7)
                roll = dice.roll("2D6", f"{seat}'s Fall Prone check 2D6 + AG", "§15.4")
                total = roll + g.sheet.current_ag
                if total < FALL_PRONE_BELOW:
                    g.posture = "prone"
                    plot = EMPTY
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
        _posture_after(g, plots[seat], events)
    mercy: tuple[str, str] | None = None
    for c in result.collisions:
        for sr in c.stun_rolls:  # §8.4.3, §8.4.4
            g = state.gladiators[sr.figure]
            g.sheet, evs = g.sheet.with_stun(sr.stun, turn=t, phase=ph)
            events.extend(_sheet_events(g.seat, evs))
            if sr.extra == "fall_prone":
                g.posture = "prone"
                events.append(_event("fall_prone", "§8.4.3", f"{g.seat} falls Prone (T7)"))
            elif sr.extra == "weapon_drop" and g.has_weapon:
                _drop(state, g, "weapon", dice, "§8.4.3 T7", events)
            elif sr.extra == "shield_drop" and g.has_shield:
                _drop(state, g, "shield", dice, "§8.4.3 T7", events)
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
        _moment_of_truth(state, [mercy[0]], mercy[1], dice, events)
        return
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
    _recovery(state, plots, paths, collided, dice, events)  # §5.2.4.1
    if _prepare_combat(state, events):
        state.step = "allocate"
        return
    _end_phase(state, dice, events)


def _posture_after(g: Gladiator, plot: PhasePlot, events: list[Event]) -> None:
    """§14.1, R11 (Q24): KN kneels (from Prone or standing); a Kneeling gladiator who plots a
    movement action, C or a rotating X stands up."""
    acts = plot.actions
    if g.posture == "prone":
        if acts == ("KN",):
            g.posture = "kneeling"
            events.append(_event("posture", "§14.1", f"{g.seat} rises to his knees", seat=g.seat))
    elif g.posture == "kneeling":
        stays = not acts or acts in (("KN",), ("S",)) or (acts == ("X",) and not plot.rotates)
        if not stays:
            g.posture = "standing"
            events.append(_event("posture", "§14", f"{g.seat} stands up", seat=g.seat))
    elif acts == ("KN",):
        g.posture = "kneeling"
        events.append(_event("posture", "§14.3", f"{g.seat} kneels", seat=g.seat))


def _check_unconscious(g: Gladiator, events: list[Event]) -> None:
    if g.alive and g.sheet.unconscious and g.posture != "prone":  # §11.4
        g.posture = "prone"
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


def _combat(
    state: ColosseumState, orders: Mapping[str, str], dice: Dice, events: list[Event]
) -> None:
    """§9.4-§9.6 with §10-§13 through `on_hit`."""
    t, ph = state.turn, state.phase
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
        if g.posture == "kneeling" or g.recovered_weapon:  # §14.3 (E3), §13.4.2
            attack = [v // 2 for v in attack]
        legs = AREAS.index("legs")
        if other.posture == "kneeling":  # §14.2
            attack[legs] //= 2
        if tuple(attack) != al.attack:
            events.append(
                _event(
                    "half_cf",
                    "§13.4.2"
                    if g.recovered_weapon
                    else "§14.2"
                    if g.posture != "kneeling"
                    else "§14.3",
                    f"{g.seat}'s attacks at half CF "
                    f"({'a weapon just recovered' if g.recovered_weapon else 'kneeling'}): "
                    + " ".join(f"{a}:{v}" for a, v in zip(AREAS, attack, strict=True) if v),
                    seat=g.seat,
                )
            )
            al = Allocation(al.available, tuple(attack), al.defence)
        allocs.append(al)
    combat: PhaseCombat

    def lose(
        side: int, item: Literal["weapon", "shield"], drop: ItemDrop | None, cause: str
    ) -> None:
        g = gl[side]
        _lose_item(state, g, item, drop, cause, events_sink)
        combat.set_equipment(side, **{item: False})
        if item == "weapon":  # E4: no attack without a weapon, from now on
            combat.cancel_attacks(side, "weapon dropped", "§13.1")

    def apply_hit(side: int, hit: HitOutcome) -> int:
        g = gl[side]
        g.crits = g.crits.after(hit)
        if hit.severed_artery:
            g.arteries = (*g.arteries, (hit.area, t, ph))
        if hit.weapon_drop is not None and g.has_weapon:
            lose(side, "weapon", hit.weapon_drop, "§10.5 WD")
        if hit.shield_drop is not None and g.has_shield:
            lose(side, "shield", hit.shield_drop, "§10.5 SD")
        return hit.cf_lost + hit.stun  # §9.4.6, §11.3

    def on_hit(attacker: int, defender: int, area: Area, result: CrtOutcome) -> int:
        outcome = result
        att, d = gl[attacker], gl[defender]
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
            events_sink.extend(hit.events)
            lost = apply_hit(defender, hit)
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
            events_sink.extend(so.events)
            if so.shield_drop is not None or so.shield_useless:
                lose(defender, "shield", so.shield_drop, "§12.3" if so.shield_useless else "S*")
            if so.weapon_drop is not None and d.has_weapon:
                lose(defender, "weapon", so.weapon_drop, "§12.3.1 P box")
            if so.body_hit is not None:
                lost = apply_hit(defender, so.body_hit)
        elif code in ("P", "P*"):
            arms = d.sheet.cf_lost_to_wounds("arms")
            dropped = drop_check(
                outcome.result, outcome.modified_cf, att.sheet.current_st, arms, dice
            )
            events_sink.append(
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
                events_sink.append(ev)
                lose(defender, "weapon", drop, f"§13.1.1 {code}")
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


def _drop_hex(g: Gladiator, drop: ItemDrop | None) -> Any:
    h = g.hex
    if drop is None:
        return h
    rel = int(Relation.from_code(drop.direction))
    for _ in range(drop.distance):
        h = neighbor_at(h, g.facing, rel)
    return h


def _lose_item(
    state: ColosseumState,
    g: Gladiator,
    item: Literal["weapon", "shield"],
    drop: ItemDrop | None,
    cause: str,
    events: list[Event],
) -> None:
    """§13.2: the item leaves his hand and lies where it landed (a battered shield, §12.3, in
    his own hex)."""
    if item == "weapon":
        g.has_weapon = False
    else:
        g.has_shield = False
    where = _drop_hex(g, drop)
    state.items.append(
        GroundItem(item, g.seat, where, battered=item == "shield" and g.sheet.shield_useless)
    )
    events.append(
        _event(
            "item_lost",
            "§13.2.3",
            f"{g.seat}'s {item} lies at {where.q},{where.r} ({cause})",
            seat=g.seat,
            item=item,
        )
    )


def _drop(
    state: ColosseumState,
    g: Gladiator,
    item: Literal["weapon", "shield"],
    dice: Dice,
    cause: str,
    events: list[Event],
) -> None:
    drop, ev = drop_location(dice, item, cause)
    events.append(ev)
    _lose_item(state, g, item, drop, cause, events)


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
        if g.sheet.killed or g.crits.killed:
            g.alive = False
            g.cause = g.cause or ("bled to death (§10.5 SA)" if bleeding else "killed in combat")
        _check_unconscious(g, events)
    if _check_deaths(state, events):
        return
    for g in state.gladiators.values():
        g.stumbling = False
        g.may_attack, g.pa, g.available = False, 0, 0
    if state.phase < PHASES_PER_TURN:
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
            _moment_of_truth(state, list(SEAT_NAMES), None, dice, events)
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
) -> None:
    """§18.3: each appellant rolls 2D6 + performance value + Prestige; above 9 is missus."""
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
