"""GLADIATOR Colosseum Edition, Basic Game (shared/rules/colosseum.md, Part 2 §4-§18) and, behind
`advanced`, the Advanced Game (§19-§29): a duel, a team match (§27) or a beast hunt (§28).

Each phase (§5.2): both gladiators secretly plot (a `ChooseOne` of their legal phase plots,
§5.2.1, §7.2); the plots are revealed and executed together (§5.2.2, §8), with the §15.4 Fall
Prone check first, collisions, Stun and Stumble, then Stun recovery (§11.5, in the order Q23
recommends). If either may attack (§9.1), the defender is turned (§9.1.2), the positional
advantages (§9.2) and the CFs available (§9.3.1) are worked out and both secretly allocate (a
`Distribute`, §9.3); the five attack rounds run (§9.4-§9.6) with wounds, shields and drops
(§10-§13). The end of the phase bleeds severed arteries (§10.5 SA) and buries the dead; after
phase 8 comes endurance (§17.2) and, from turn 3, the stans missus roll (§5.4.1). A Prone
gladiator at an opponent's mercy goes to the Moment of Truth (§8.3, §18.2), decided by §18.3.

Each step is a module of its own: `plot_decision` (§5.2.1), `movement_step` (§5.2.2-§5.2.5),
`combat/` (§5.2.6, §9: engagement, the allocation decision, the attack rounds, for any number of
gladiators), `hits` (§9.6-§13), `postures` (§11.4, §14, §16), `phase` (§5.1-§5.4) and `appeal`
(§18); this module strings them together behind the `Ruleset` protocol. Their rulings are the E
series of docs/rulings.md, each written in the module that applies it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import replace
from importlib import resources
from typing import Any, ClassVar

from gladiator.core.decisions import Decision
from gladiator.core.dice import Dice
from gladiator.core.protocol import Event, Outcome, Ruleset
from gladiator.rules.colosseum import presentation
from gladiator.rules.colosseum.advanced_tables import ADVANCED_FILES
from gladiator.rules.colosseum.beast_pack import pack_setup
from gladiator.rules.colosseum.beast_phase import resolve_beast_plots
from gladiator.rules.colosseum.beast_setup import beast_gladiators
from gladiator.rules.colosseum.board import board, starting_positions
from gladiator.rules.colosseum.campaign_prestige import intimidation
from gladiator.rules.colosseum.campaign_report import campaign_report
from gladiator.rules.colosseum.combat.allocation import allocation_choice
from gladiator.rules.colosseum.combat.engage import engage
from gladiator.rules.colosseum.combat.resolve import resolve_combat
from gladiator.rules.colosseum.events import event, plain
from gladiator.rules.colosseum.logsheet_roll import roll_log_sheet
from gladiator.rules.colosseum.material_heuristic import material_heuristic
from gladiator.rules.colosseum.movement_step import resolve_plots
from gladiator.rules.colosseum.options import SEAT_NAMES, ColosseumOptions, normalise
from gladiator.rules.colosseum.outfit import styled_gladiators
from gladiator.rules.colosseum.phase import end_phase, start_phase
from gladiator.rules.colosseum.plot_decision import plot_decision
from gladiator.rules.colosseum.solitaire import (
    first_stage,
    plot_seats,
    reveal_first,
    with_first_plots,
)
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.styles import style
from gladiator.rules.colosseum.tables import FILES
from gladiator.rules.colosseum.team_engine import team_setup
from gladiator.rules.colosseum.teams import is_over, is_pack, is_team_match, seats_of
from gladiator.rules.colosseum.value import value
from gladiator.rules.colosseum.vocabulary import GladiatorClass
from gladiator.rules.colosseum.walls import setup_arena

_CLASSES: tuple[GladiatorClass, ...] = ("light", "medium", "heavy")


def digest() -> str:
    """A hash of the Colosseum data files (the tables this engine plays by, the Advanced Game's
    too: a record played with them replays only under the same)."""
    data = resources.files("gladiator.rules.colosseum").joinpath("data")
    names = (*FILES, *ADVANCED_FILES)
    blob = repr(sorted((name, data.joinpath(name).read_text("utf-8")) for name in names))
    return hashlib.sha256(blob.encode()).hexdigest()


def counter_number(cls: str, taken: Mapping[str, Gladiator]) -> int:
    """§2.3.1, §3.2: the log sheet's ID is the counter's number, and counters 1-4 are light,
    5-8 medium, 9-12 heavy: the first of his class's counters not yet in the arena."""
    first = {"light": 1, "medium": 5, "heavy": 9}[cls]
    used = {g.sheet.id for g in taken.values()}
    # G16: a big team match (§30.2.1.1) may field more than four of a class; the extras get
    # the numbers after the box's twelve counters.
    spare = next(n for n in range(13, 13 + len(taken) + 1) if n not in used)
    return next((n for n in range(first, first + 4) if n not in used), spare)


class ColosseumRules(Ruleset[ColosseumState]):
    name = "colosseum"
    title = "GLADIATOR Colosseum Edition: Basic and Advanced Game"
    # Hints the lobby shows beside an option's field (server/app.py passes them on).
    option_notes: ClassVar[dict[str, str]] = {
        "advanced": "the Advanced Game, §19-§29: styles, nets, weapons, specials, walls, ...",
        "styles": "a T37 fighting style per seat (§19), or random",
        "weapons": "per seat, where the style lets him choose (§21, §24): e.g. sword,axe",
        "beasts": "a beast hunt (§28): seat:kind, e.g. blue:lion (or blue:random); "
        "up to 3 beasts against red: blue:lion,green:bear,gold:random (§30.2.1.1)",
        "teams": "team combat (§27): sides of seats, e.g. red+green:blue; up to 6 a side "
        "(§30.2.1.1): red, blue, green, gold, white, black, purple, silver, orange, brown, "
        "grey, pink",
        "solitaire": "seats the §29 centurion rules move after the others have plotted",
    }
    # 2: the Basic Game's corrections (M3, §10.3.3, E9, M5) and the Advanced Game (§19-§29).
    version = 2

    def normalise_options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        return normalise(raw)

    def options_schema(self) -> dict[str, Any]:
        return ColosseumOptions.model_json_schema()

    def seats(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        return seats_of(options)  # red and blue; a team match's 3 to 12 (§27, G1)

    def initial_state(
        self, options: Mapping[str, Any], dice: Dice
    ) -> tuple[ColosseumState, list[Event]]:
        arena = board(int(options["board_width"]), int(options["board_height"]))
        starts = starting_positions(arena)  # §4.5
        events: list[Event] = []
        gladiators: dict[str, Gladiator] = {}
        if is_team_match(options):  # §27: 3 to 12 seats in two sides (teams.py, G1, G2)
            state = team_setup(options, dice, arena, counter_number, events)
            intimidation(state, dice, events)  # §35.4 (Campaign Game, X4)
            start_phase(state, dice, events)
            return state, plain(events)
        if is_pack(options):  # §28, §30.2.1.1: red against 2 or 3 beasts (B11, B12)
            state = pack_setup(options, dice, arena, counter_number, events)
            start_phase(state, dice, events)
            return state, plain(events)
        if options.get("beasts"):  # §28: a gladiator against a beast (beast_setup.py)
            gladiators = beast_gladiators(options, SEAT_NAMES, starts, dice, counter_number, events)
        elif options.get("advanced"):  # §19: styles, their sheets and kit (outfit.py)
            gladiators = styled_gladiators(
                options, SEAT_NAMES, starts, dice, counter_number, events
            )
        else:
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
                    event(
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
        size, walls, arena_events = setup_arena(options, dice)  # §4.4, §25.2 (Advanced Game)
        events.extend(arena_events)
        a, b = (gladiators[s] for s in SEAT_NAMES)
        events.append(
            event(
                "placed",
                "§4.5",
                f"{a.seat} at {a.hex.q},{a.hex.r} and {b.seat} at {b.hex.q},{b.hex.r}, facing "
                "each other with four empty hexes between them",
            )
        )
        state = ColosseumState(
            options=dict(options), gladiators=gladiators, arena_size=size, walls=walls
        )
        intimidation(state, dice, events)  # §35.4 (Campaign Game, X4)
        start_phase(state, dice, events)
        return state, plain(events)

    # -- decisions ---------------------------------------------------------------------------
    def pending(self, state: ColosseumState) -> Mapping[str, Decision]:
        if state.step == "over":
            return {}
        if state.step == "plot":
            # §29.3 (option `solitaire`): the centurions plot once the others are revealed.
            late = bool(state.early_plots)
            out: dict[str, Decision] = {}
            for seat in plot_seats(state):
                if state.gladiators[seat].beast is not None:
                    continue  # §28: the engine plays the beast; it has no decision
                d = plot_decision(state, state.gladiators[seat])
                out[seat] = replace(d, secret=False) if late else d
            return out
        # §9.3 (§27.3.1: each attack box names its target); a beast's attacks are rolled (§28.6)
        return {
            seat: allocation_choice(g, state)
            for seat, g in state.gladiators.items()
            if g.beast is None
        }

    def apply(
        self, state: ColosseumState, orders: Mapping[str, str], dice: Dice, *, quiet: bool = False
    ) -> list[Event]:
        events: list[Event] = []
        if state.step == "plot" and first_stage(state):
            reveal_first(state, orders, events)  # §29.3: the centurions plot next
        elif state.step == "plot" and state.options.get("beasts"):  # §28.4, §28.6
            after = resolve_beast_plots(state, orders, dice, events)
            if after == "combat" and engage(state, events):
                state.step = "allocate"
            elif after != "over":
                end_phase(state, dice, events)
        elif state.step == "plot":
            after = resolve_plots(state, with_first_plots(state, orders), dice, events)
            if after == "combat" and engage(state, events):
                state.step = "allocate"
            elif after != "over" or not is_over(state):  # §27: one man's appeal (G7)
                end_phase(state, dice, events)
        elif state.step == "allocate":
            resolve_combat(state, orders, dice, events)
            if self.outcome(state) is None:  # a drag to the Moment of Truth (§20.5.5.1) ends it
                end_phase(state, dice, events)
        return [] if quiet else plain(events)

    def outcome(self, state: ColosseumState) -> Outcome | None:
        if state.step != "over":
            return None
        return Outcome(state.winners, state.end_method, state.end_summary)

    def view(self, state: ColosseumState, seat: str | None) -> dict[str, Any]:
        # Everything in the state is public: both log sheets are on the table, and secret
        # orders wait in Match until revealed; so §27.6's "no talking" among teammates holds
        # too: no seat's view tells him what his teammate plotted.
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

    def campaign_report(self, state: ColosseumState) -> dict[str, dict[str, Any]]:
        """§31-§35 (X7-X9): what the Campaign Game reads off a finished match."""
        return campaign_report(state)

    def heuristic(self, state: ColosseumState, seat: str) -> float:
        # V4: the fitted value function (value.py) in a duel; the first material score where it
        # was not fitted (team matches, beast hunts). Only the greedy bot reads this: the
        # tactician and the centurion play by their own evaluations.
        if is_team_match(state.options) or state.options.get("beasts"):
            return material_heuristic(state, seat)
        return value(state, seat)

    def lookahead(self) -> int:
        return 0

    def seat_label(self, state: ColosseumState, seat: str) -> str:
        g = state.figure(seat)
        if g.beast is not None:  # §28
            return f"beast/{g.beast.name}"
        if g.style:  # §19: "class/Style", so a batch reports by class and by style
            return f"{g.sheet.gladiator_class}/{style(g.style).name}"
        return g.sheet.gladiator_class

    def seat_facets(self, state: ColosseumState, seat: str) -> dict[str, str]:
        """His class; in the Advanced Game also his style (§19) and what he holds (§21, §24: one
        weapon or a pair, "+net" for a net §20, "unarmed" §23). A beast (§28) is "beast/<name>"
        in every facet, so it is its own row in each report. Meant to be read at the start."""
        g = state.figure(seat)
        if g.beast is not None:
            name = f"beast/{g.beast.name}"
            return {"class": name, "style": name, "weapon": name}
        if not g.style:
            return {"class": g.sheet.gladiator_class}
        held = [*g.weapons, *(["net"] if g.net else [])]
        return {
            "class": g.sheet.gladiator_class,
            "style": style(g.style).name,
            "weapon": "+".join(held) or "unarmed",
        }

    def rounds(self, state: ColosseumState) -> int:
        return min(state.turn, int(state.options["max_turns"]))

    def scene(self, state: ColosseumState, seat: str | None) -> dict[str, Any]:
        return presentation.scene(state, seat)

    def glossary(self) -> dict[str, Any]:
        """What the orders, badges and sheet rows mean (presentation.py), for front ends."""
        return presentation.glossary()

    def render_text(self, state: ColosseumState, seat: str | None) -> str:
        return presentation.render(state, seat)
