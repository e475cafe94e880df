"""A tiny ruleset used to test the ruleset-agnostic core (`Match`, records, the registry).

The toy game ("secret numbers"), two seats, A and B:

* §T.1 Setup: a D6 is rolled for the opening flourish (so `initial_state` uses the dice too).
* §T.2 Each round both seats secretly pick 1, 2 or 3 (a simultaneous, secret `ChooseOne`). Seat A's
  options are written `A1`..`A3` and seat B's `B1`..`B3` (the bare digit is accepted as an alias),
  so a seat's order text never appears in the other seat's decision: tests can use it as a canary.
* §T.3 A D6 is rolled. Equal picks: nobody scores. Otherwise on an even die the higher pick wins
  the round, on an odd die the lower pick. The round winner scores 1 point.
* §T.4 If the winner's pick equals the die read as a D3 (halved, rounding up), the winner alone
  decides, openly (a sequential, non-secret `ChooseOne`): BANK (+1 point) or GAMBLE (throw 2D6
  read separately: doubles score +3, anything else nothing).
* §T.5 The first seat to reach `target` points wins; after `max_rounds` rounds it is a draw.

Past picks are kept in the state as plain numbers (`{"A": 3}`), never as order text, so the order
text of a pending secret pick can only leak through a bug in the layer that buffers it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from gladiator.core.decisions import ChooseOne, Decision, Option
from gladiator.core.dice import Dice
from gladiator.core.protocol import Event, Outcome, Ruleset, Seat

__all__ = ["SEATS", "ToyRules", "ToyState", "pick_text"]

SEATS: tuple[Seat, ...] = ("A", "B")
_OPTION_KEYS = {"target", "max_rounds"}


def pick_text(seat: Seat, n: int) -> str:
    """The canonical order text for `seat` picking `n`."""
    return f"{seat}{n}"


@dataclass
class ToyState:
    target: int
    max_rounds: int
    scores: dict[Seat, int] = field(default_factory=lambda: dict.fromkeys(SEATS, 0))
    round: int = 1
    phase: str = "pick"  # "pick" | "bonus" | "over"
    bonus_seat: Seat | None = None
    flourish: int = 0
    history: list[dict[str, int]] = field(default_factory=list)


class ToyRules(Ruleset[ToyState]):
    name: ClassVar[str] = "toy"
    title: ClassVar[str] = "Secret Numbers (test toy)"
    version: ClassVar[int] = 1

    def normalise_options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        unknown = set(raw) - _OPTION_KEYS
        if unknown:
            raise ValueError(f"unknown toy options: {', '.join(sorted(unknown))}")
        target = raw.get("target", 3)
        max_rounds = raw.get("max_rounds", 40)
        for key, value in (("target", target), ("max_rounds", max_rounds)):
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 100:
                raise ValueError(f"toy option {key} must be an integer 1..100, not {value!r}")
        return {"target": target, "max_rounds": max_rounds}

    def seats(self, options: Mapping[str, Any]) -> tuple[Seat, ...]:
        return SEATS

    def initial_state(self, options: Mapping[str, Any], dice: Dice) -> tuple[ToyState, list[Event]]:
        state = ToyState(target=options["target"], max_rounds=options["max_rounds"])
        state.flourish = dice.d(6, "opening flourish", "§T.1")
        return state, [{"type": "setup", "text": f"§T.1 the crowd roars {state.flourish}"}]

    def pending(self, state: ToyState) -> Mapping[Seat, Decision]:
        if state.phase == "pick":
            return {seat: self._pick_decision(seat) for seat in SEATS}
        if state.phase == "bonus":
            assert state.bonus_seat is not None
            return {
                state.bonus_seat: ChooseOne(
                    prompt="§T.4 bank the bonus point or gamble on doubles?",
                    options=(Option("BANK", "+1 point"), Option("GAMBLE", "2D6: doubles +3")),
                    aliases=(("B", "BANK"), ("G", "GAMBLE")),
                )
            }
        return {}

    @staticmethod
    def _pick_decision(seat: Seat) -> ChooseOne:
        return ChooseOne(
            prompt="§T.2 pick a number secretly",
            secret=True,
            options=tuple(Option(pick_text(seat, n), f"pick {n}") for n in (1, 2, 3)),
            aliases=tuple((str(n), pick_text(seat, n)) for n in (1, 2, 3)),
        )

    def apply(
        self, state: ToyState, orders: Mapping[Seat, str], dice: Dice, *, quiet: bool = False
    ) -> list[Event]:
        if state.phase == "pick":
            return self._apply_picks(state, orders, dice)
        if state.phase == "bonus":
            return self._apply_bonus(state, orders, dice)
        raise ValueError("the toy match is over")

    def _apply_picks(self, state: ToyState, orders: Mapping[Seat, str], dice: Dice) -> list[Event]:
        picks = {seat: int(orders[seat][len(seat) :]) for seat in SEATS}
        die = dice.d(6, "round die", "§T.3")
        state.history.append({**picks, "die": die})
        events: list[Event] = [
            {
                "type": "reveal",
                "text": f"§T.3 round {state.round}: A picked {picks['A']}, "
                f"B picked {picks['B']}, die {die}",
                "picks": picks,
                "die": die,
            }
        ]
        state.round += 1
        if picks["A"] == picks["B"]:
            events.append({"type": "tie", "text": "§T.3 equal picks: nobody scores"})
        else:
            higher = max(SEATS, key=lambda s: picks[s])
            lower = min(SEATS, key=lambda s: picks[s])
            winner = higher if die % 2 == 0 else lower
            state.scores[winner] += 1
            events.append({"type": "score", "text": f"§T.3 {winner} scores", "seat": winner})
            if picks[winner] == (die + 1) // 2 and not self._decided(state):
                state.phase = "bonus"
                state.bonus_seat = winner
                return events
        self._settle(state)
        return events

    def _apply_bonus(self, state: ToyState, orders: Mapping[Seat, str], dice: Dice) -> list[Event]:
        seat = state.bonus_seat
        assert seat is not None
        choice = orders[seat]
        events: list[Event]
        if choice == "BANK":
            state.scores[seat] += 1
            events = [{"type": "bonus", "text": f"§T.4 {seat} banks 1 point"}]
        else:
            a, b = dice.pair("gamble for doubles", "§T.4")
            gain = 3 if a == b else 0
            state.scores[seat] += gain
            events = [{"type": "bonus", "text": f"§T.4 {seat} gambles: {a},{b}, +{gain}"}]
        state.phase = "pick"
        state.bonus_seat = None
        self._settle(state)
        return events

    @staticmethod
    def _decided(state: ToyState) -> bool:
        return max(state.scores.values()) >= state.target

    def _settle(self, state: ToyState) -> None:
        if self._decided(state) or state.round > state.max_rounds:
            state.phase = "over"

    def outcome(self, state: ToyState) -> Outcome | None:
        if state.phase != "over":
            return None
        winners = tuple(s for s in SEATS if state.scores[s] >= state.target)
        if winners:
            return Outcome(winners, "points", f"{winners[0]} reached {state.target} points")
        return Outcome((), "rounds", f"no winner after {state.max_rounds} rounds")

    def view(self, state: ToyState, seat: Seat | None) -> dict[str, Any]:
        return {
            "scores": dict(state.scores),
            "round": state.round,
            "phase": state.phase,
            "bonus_seat": state.bonus_seat,
            "history": [dict(h) for h in state.history],
        }

    def state_to_dict(self, state: ToyState) -> dict[str, Any]:
        return {
            "target": state.target,
            "max_rounds": state.max_rounds,
            "scores": dict(state.scores),
            "round": state.round,
            "phase": state.phase,
            "bonus_seat": state.bonus_seat,
            "flourish": state.flourish,
            "history": [dict(h) for h in state.history],
        }

    def clone(self, state: ToyState) -> ToyState:
        return ToyState(
            target=state.target,
            max_rounds=state.max_rounds,
            scores=dict(state.scores),
            round=state.round,
            phase=state.phase,
            bonus_seat=state.bonus_seat,
            flourish=state.flourish,
            history=[dict(h) for h in state.history],
        )
