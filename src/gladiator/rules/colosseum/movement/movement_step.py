"""The movement step of a phase (§5.2.2-§5.2.5): the plots revealed, the Stumble and Fall Prone
checks (§5.2.2.1, §15.4), simultaneous movement and collisions (movement.py), Stun recovery
(§11.5), item recovery (§5.2.4.1), kicks (§5.2.4.2) and throws (§13.3, Q10).

RULINGS (engine level, the E series of docs/rulings.md)

E11 §15.1: a gladiator who steps backward into a hex where an item lay at the start of the phase
    checks for Stumble once that phase (§15.2.1, Q5, with every hex he moved backward), after the
    collisions and only if no collision has already tripped him. A "body" is a Prone or dead
    gladiator: entering a Prone man's hex is §8.3, and a dead one ends the duel.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, Literal

from gladiator.core.dice import Dice
from gladiator.core.hexgrid import Hex
from gladiator.core.protocol import Event
from gladiator.rules.colosseum.arena.board import board_of
from gladiator.rules.colosseum.arena.walls import arena_of, in_edge_order
from gladiator.rules.colosseum.beasts.beast_movement import (
    STANDS,
    beast_moves,
    beasts_hexes,
    steps_moved,
)
from gladiator.rules.colosseum.combat.net_attacks import resolve_net_orders
from gladiator.rules.colosseum.end.appeal import moment_of_truth
from gladiator.rules.colosseum.end.match_end import fight_over
from gladiator.rules.colosseum.events import event, sheet_events
from gladiator.rules.colosseum.hits.cleaving import blood_checks
from gladiator.rules.colosseum.hits.hits import thrown_hit
from gladiator.rules.colosseum.hits.items import (
    drop_item,
    recover_items,
    resolve_kicks,
    resolve_throws,
)
from gladiator.rules.colosseum.hits.wounds import (
    phases_since_stunned,
    stumbling_check,
    stun_recovery,
)
from gladiator.rules.colosseum.kit.nets import NetOrder, join_net, split_net
from gladiator.rules.colosseum.movement.collision_records import FigureState, StumbleCheck, StunRoll
from gladiator.rules.colosseum.movement.movement import resolve_movement
from gladiator.rules.colosseum.movement.postures import (
    FALL_PRONE_BELOW,
    check_unconscious,
    fall_prone,
    posture_after_plot,
)
from gladiator.rules.colosseum.movement.stumble_check import stumble
from gladiator.rules.colosseum.plots.plot_decision import plot_status, trip_spent
from gladiator.rules.colosseum.plots.plot_legality import exceeds_rate
from gladiator.rules.colosseum.plots.plots import (
    EMPTY,
    Kick,
    PhasePlot,
    Throw,
    format_plot,
    parse_plot,
    path,
    uses_movement_phase,
)
from gladiator.rules.colosseum.plots.sprint import sprint_checks
from gladiator.rules.colosseum.setup.outfit import kneel_check
from gladiator.rules.colosseum.state import ColosseumState, Gladiator

AfterMovement = Literal["combat", "end", "over"]


def move_figures(
    state: ColosseumState, orders: Mapping[str, str], dice: Dice, events: list[Event]
) -> AfterMovement:
    """§5.2.2-§5.2.5 for every figure: the gladiators' plots with every beast standing (§28.4,
    B2: its counter blocks them), then each beast in table order (§28.4, B13), whose T22 move
    reads the steps its man plotted (B5). Says what comes next, as `resolve_plots`."""
    beasts = [b for b in state.gladiators.values() if b.beast is not None]
    full = {s: orders.get(s, STANDS) for s in state.gladiators}
    moved = {
        b.seat: steps_moved(orders[m.seat], m.hex, m.facing)
        for b in beasts
        for m in state.opponents(b.seat)[:1]
    }
    after = resolve_plots(state, full, dice, events, blocked=beasts_hexes(state))
    if after != "combat" or not beasts:
        return after
    for b in beasts:
        beast_moves(state, b, moved[b.seat], dice, events)
    return "over" if fight_over(state, events) else "combat"  # B9, B14


def _leaves_hex(plot: PhasePlot, g: Gladiator) -> bool:
    return any(p.hex != g.hex for p in path(plot, g.hex, g.facing))


def resolve_plots(
    state: ColosseumState,
    orders: Mapping[str, str],
    dice: Dice,
    events: list[Event],
    *,
    blocked: Collection[Hex] = (),
) -> AfterMovement:
    """§5.2.2-§5.2.5: reveal, the Stumble and Fall Prone checks (§5.2.2.1), movement and
    collisions, Stun recovery, item recovery (§5.2.4.1), kicks (§5.2.4.2), throws (Q10). Says
    what comes next: "over" (the Moment of Truth has settled the match), "end" (a thrown item
    killed: the phase ends), or "combat" (see whether anyone may attack, §5.2.6.1). A path
    stops before any `blocked` hex (a beast's counter, §28, B2)."""
    t, ph = state.turn, state.phase
    figures: dict[str, FigureState] = {}
    paths: dict[str, list[Any]] = {}
    plots: dict[str, PhasePlot] = {}
    start_stun: dict[str, int] = {}
    since: dict[str, int] = {}
    items_before = {i.hex for i in state.items}  # §15.1 (E11)
    blood_before = set(state.blood_counters)  # §26.3
    kicks: dict[str, Kick] = {}
    throws: dict[str, Throw] = {}
    advanced = bool(state.options.get("advanced"))
    nets: dict[str, NetOrder] = {}  # §20.3.1: the net orders written with the plots
    for seat, g in state.gladiators.items():
        net: NetOrder | None = None
        if advanced:
            plot_text, net = split_net(orders[seat])
            written = parse_plot(plot_text)
        else:
            written = parse_plot(orders[seat])
        plot = written.bare()
        status = plot_status(state, g)
        text = join_net(format_plot(written), net)
        if advanced:
            g.net_order, g.net_cf, g.net_loss = (net.text if net else ""), 0, 0
            if net is not None:
                nets[seat] = net
        g.sheet = g.sheet.with_phase_plot(t, ph, text)  # §3.20
        g.last_plot = text
        if g.beast is None:  # §28: the engine moves a beast (T22); it reveals no plot
            events.append(event("plot", "§5.2.2", f"{seat} reveals {text}", seat=seat, plot=text))
        if uses_movement_phase(plot):  # §5.2.1, Q3
            if exceeds_rate(status, plot):
                g.exceeded_this_turn = True
                events.append(
                    event(
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
                event(
                    "stumble",
                    "§10.5",
                    f"{seat} stumbles (STU) and performs a Stumble instead of {text}",
                    seat=seat,
                )
            )
            plot = written = PhasePlot(("S",), (0, 0))  # his throw or kick goes too
            if nets.pop(seat, None) is not None:  # and his net order (§20.3.1)
                g.net_order = ""
        if isinstance(written.extra, Kick):
            kicks[seat] = written.extra
        elif isinstance(written.extra, Throw):
            throws[seat] = written.extra
        g.stumbling = False
        if g.must_stumble and trip_spent(state, g):
            g.must_stumble = False  # §16.4 (E7): he gets up or rolls instead; the trip is spent
        if "S" in plot.actions:
            g.must_stumble = False
            if g.posture != "prone":  # §15.4 (E7)
                roll = dice.roll("2D6", f"{seat}'s Fall Prone check 2D6 + AG", "§15.4")
                total = roll + g.sheet.current_ag
                if total < FALL_PRONE_BELOW:
                    fall_prone(g)
                    plot = EMPTY  # §16.2.1: he stays Prone for the rest of the phase
                    events.append(
                        event(
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
                        event(
                            "stumbling",
                            "§15.4",
                            f"{seat} stumbles: 2D6 {roll} + AG {g.sheet.current_ag} = {total}: "
                            "he keeps his feet (−2 CF this phase, §15.5)",
                            seat=seat,
                        )
                    )
        if "KN" in plot.actions and kneel_check(g, dice, events):  # §19.4.4 (Crupellarius)
            plot = EMPTY  # he lies Prone instead (§16.2.1)
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
            rising=prone and plot.actions[:1] == ("KN",) and state.options["prone_kn"] == "rising",
            recovering="R" in plot.actions,  # §8.2 T12: −3 to his impact factor
            left_handed=g.left_handed,
            hold_ground="HG" in g.talents,  # §36.3 HG: +3 on his collision IF (§8.4)
        )
        paths[seat] = list(path(plot, g.hex, g.facing))
        if blocked and g.hex not in blocked:  # B2: nobody enters a beast's hexes
            cut = next((i for i, p in enumerate(paths[seat]) if p.hex in blocked), None)
            paths[seat] = paths[seat][:cut]
        plots[seat] = plot
    result = resolve_movement(
        figures,
        paths,
        dice,
        board=board_of(state),
        stumble_rule=state.options["stumble_rule"],
        arena=arena_of(state.options, state.arena_size, state.walls),
    )
    events.extend(result.events)
    if result.wall_markers is not None:  # §25.3 (W7)
        state.walls = in_edge_order(result.wall_markers)
    for seat, pos in result.positions.items():
        g = state.gladiators[seat]
        g.hex, g.facing = pos.hex, pos.facing
        steps = [kind for _, kind in result.tracks.get(seat, ())[1:]]
        own = [k for k in steps if k in ("forward", "backward")]
        if own:  # §16.2 (E10)
            g.last_move = "backward" if own[-1] == "backward" else "forward"
    for seat, g in state.gladiators.items():
        lay = paths[seat][0].facing  # the facing he lay with, if he was Prone (E8)
        posture_after_plot(state, g, plots[seat], lay, not result.moment_of_truth, dice, events)
    mercy: tuple[str, str] | None = None

    def stunned(sr: StunRoll, rule: str) -> None:  # §8.4.3, §25.4: T7's Stun row
        g = state.gladiators[sr.figure]
        g.sheet, evs = g.sheet.with_stun(sr.stun, turn=t, phase=ph)
        events.extend(sheet_events(g.seat, evs))
        if sr.extra == "fall_prone":
            fall_prone(g)
            events.append(event("fall_prone", rule, f"{g.seat} falls Prone (T7)"))
        elif sr.extra == "weapon_drop" and g.has_weapon:
            drop_item(state, board_of(state), g, "weapon", dice, f"{rule} T7", events)
        elif sr.extra == "shield_drop" and g.has_shield:
            drop_item(state, board_of(state), g, "shield", dice, f"{rule} T7", events)

    def tripped(sc: StumbleCheck) -> None:  # §8.4.4, §25.4 (W5)
        if sc.stumbled:
            state.gladiators[sc.figure].must_stumble = True
            events.append(
                event(
                    "tripped",
                    "§15.3",
                    f"{sc.figure} tripped: he must write S next phase",
                    seat=sc.figure,
                )
            )

    for c in result.collisions:
        for sr in c.stun_rolls:  # §8.4.3, §8.4.4
            stunned(sr, "§8.4.3")
        for sc in c.stumble_checks:
            tripped(sc)
        if c.mercy is not None:
            victor = next(f for f in c.figures if f != c.mercy)
            if state.side(victor) != state.side(c.mercy):  # G12: never a teammate's mercy
                mercy = (c.mercy, victor)
    for w in result.walls:  # §25.4 (W4-W6)
        stunned(w.stun_roll, "§25.4")
        if w.stumble_check is not None:
            tripped(w.stumble_check)
    for g in state.gladiators.values():
        check_unconscious(g, events)
    if mercy is not None:  # §8.3, §18.2.1 (the collision has announced it)
        here = f"the rest of this phase (turn {t}, phase {ph})"
        moment_of_truth(state, [mercy[0]], mercy[1], dice, events, here)
        return "over"
    # §15.1 (E11): stepping backward into a hex where an item lies.
    for seat, g in state.gladiators.items():
        back = [h for h, kind in result.tracks.get(seat, ())[1:] if kind == "backward"]
        if g.must_stumble or not g.alive or not any(h in items_before for h in back):
            continue
        why = "after stepping backward onto an item"
        stumble(g, len(back), dice, state.options["stumble_rule"], why, "§15.1", events)
    if state.options.get("talents"):  # §36.3 SP (Q48, TL7): the Stumble check of a sprint
        sprint_checks(state, plots, dice, events)
    if state.options.get("advanced"):  # §26.3: entering a hex with a Blood counter
        blood_checks(state, result.tracks, blood_before, dice, events)
    # §11.5 after all movement and collisions (Q23): Stun from this phase's collision stays.
    for seat, g in state.gladiators.items():
        if start_stun[seat] <= 0:
            continue
        before = g.sheet.stun_in_effect
        g.sheet, removed = stun_recovery(
            g.sheet, since[seat], dice, start_of_phase_stun=start_stun[seat]
        )
        events.append(
            event(
                "stun_recovery",
                "§11.5",
                f"{seat} shakes off {removed} Stun ({before} → {g.sheet.stun_in_effect})",
                seat=seat,
                removed=removed,
            )
        )
    collided = {f for c in result.collisions for f in c.figures}
    collided |= {w.figure for w in result.walls}  # W10: a wall collision is a collision
    recover_items(state, plots, result.tracks, collided, dice, events)  # §5.2.4.1
    if kicks:  # §5.2.4.2
        resolve_kicks(state, kicks, result.tracks, board_of(state), dice, events)
    if nets:  # §5.2.5, §20.3-§20.8 (net_attacks.py)
        paused = {s: "X" in p.actions for s, p in plots.items()}
        resolve_net_orders(state, nets, result.tracks, paths, paused, collided, dice, events)
    if throws:  # §13.3 at the start of the combat step (Q10, I1)
        resolve_throws(
            state,
            throws,
            board_of(state),
            dice,
            events,
            lambda att, d, area, outcome, evs: thrown_hit(state, att, d, area, outcome, dice, evs),
        )
        if any(not g.alive for g in state.gladiators.values()):
            return "end"
    return "combat"
