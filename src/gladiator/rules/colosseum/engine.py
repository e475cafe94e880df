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

Every match shape (a duel, teams §27, a beast hunt or a pack §28) is a roster of figures on two
sides (setup/roster.py) played by the same steps, each a sub-package: `setup/` (§4), `plots/`
(§5.2.1, the plot decision), `movement/` (§5.2.2-§5.2.5; the beasts move after the men, §28.4,
`beasts/`), `combat/` (§5.2.6, §9: engagement, the allocation decision, the attack rounds, for any
number of figures), `hits/` (§9.6-§13, §26) and `end/` (§5.2.7, §5.4, §18, §27.7: the phase, the
appeal, the end of the fight). Beside them: `tables/` (the rulebook's tables as data), `sheet/`
(§3), `arena/` (§4, §6, §25), `kit/` (§19-§21, §24, §36), `presentation/`, `campaign/` (§30-§35's
hooks in a match) and `evaluation/` (the heuristic, V4). This module strings the steps together
behind the `Ruleset` protocol. Their rulings are the E series of docs/rulings.md, each written in
the module that applies it.
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
from gladiator.rules.colosseum.campaign.campaign_report import campaign_report
from gladiator.rules.colosseum.combat.allocation import allocation_choice
from gladiator.rules.colosseum.combat.engage import engage
from gladiator.rules.colosseum.combat.resolve import resolve_combat
from gladiator.rules.colosseum.end.phase import end_phase
from gladiator.rules.colosseum.evaluation.value import heuristic
from gladiator.rules.colosseum.events import plain
from gladiator.rules.colosseum.kit.styles import style
from gladiator.rules.colosseum.movement.movement_step import move_figures
from gladiator.rules.colosseum.options import ColosseumOptions, normalise
from gladiator.rules.colosseum.plots.plot_decision import plot_decision
from gladiator.rules.colosseum.plots.solitaire import (
    first_stage,
    plot_seats,
    reveal_first,
    with_first_plots,
)
from gladiator.rules.colosseum.presentation import presentation
from gladiator.rules.colosseum.setup.match import setup_match
from gladiator.rules.colosseum.setup.roster import roster_of
from gladiator.rules.colosseum.state import ColosseumState
from gladiator.rules.colosseum.tables.advanced_tables import ADVANCED_FILES
from gladiator.rules.colosseum.tables.tables import FILES
from gladiator.rules.colosseum.teams import is_over


def digest() -> str:
    """A hash of the Colosseum data files (the tables this engine plays by, the Advanced Game's
    too: a record played with them replays only under the same)."""
    data = resources.files("gladiator.rules.colosseum").joinpath("data")
    names = (*FILES, *ADVANCED_FILES)
    blob = repr(sorted((name, data.joinpath(name).read_text("utf-8")) for name in names))
    return hashlib.sha256(blob.encode()).hexdigest()


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
        return roster_of(options).seats  # a duel's red and blue; up to 12 (§27, G1; B11)

    def initial_state(
        self, options: Mapping[str, Any], dice: Dice
    ) -> tuple[ColosseumState, list[Event]]:
        events: list[Event] = []
        state = setup_match(options, dice, events)  # §4 for any roster (setup/)
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
        elif state.step == "plot":  # §5.2.2-§5.2.5, §28.4: the men move, then the beasts
            after = move_figures(state, with_first_plots(state, orders), dice, events)
            if after == "combat" and engage(state, events):
                state.step = "allocate"
            elif not is_over(state):  # §27: one man's appeal leaves the rest fighting (G7)
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
        return heuristic(state, seat)  # V4 (value.py)

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
