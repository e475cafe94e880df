"""Helpers for the campaign tests: dice rigged per rule, a new campaign, and fight reports of the
contract's shape made up for a bout (the engine's campaign_report is not needed to test the
campaign's rules)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from gladiator.campaign import CampaignError, CampaignState, Career, apply_step, state_digest
from gladiator.campaign.state import Bout
from gladiator.core.dice import Dice, DiceExpr, Roll, parse_dice


class Rigged(Dice):
    """Seeded dice, except that throws under the rules in `script` return the scripted totals
    in turn (a D66 is scripted as its two-digit value)."""

    def __init__(self, script: Mapping[str, Sequence[int]], seed: int = 0) -> None:
        super().__init__(seed)
        self.script = {rule: list(values) for rule, values in script.items()}

    def _take(self, rule: str) -> int | None:
        queue = self.script.get(rule)
        return queue.pop(0) if queue else None

    def d(self, sides: int, purpose: str, rule: str) -> int:
        value = self._take(rule)
        if value is None:
            return super().d(sides, purpose, rule)
        self.log.append(Roll(len(self.log), f"1D{sides}", (value,), value, purpose, rule))
        return value

    def roll_detail(self, notation: str | DiceExpr, purpose: str, rule: str) -> Roll:
        value = self._take(rule)
        if value is None:
            return super().roll_detail(notation, purpose, rule)
        expr = parse_dice(notation) if isinstance(notation, str) else notation
        r = Roll(len(self.log), str(expr), (value,), value, purpose, rule)
        self.log.append(r)
        return r


def create(seed: int = 1, lanistas: int = 2, **options: Any) -> CampaignState:
    step: dict[str, Any] = {
        "kind": "create",
        "id": "c1",
        "name": "Ludus",
        "seed": seed,
        "options": options,
        "lanistas": [{"id": f"l{i + 1}", "name": f"Lanista {i + 1}"} for i in range(lanistas)],
    }
    if options.get("stables") == "bought":
        step["purchases"] = {f"l{i + 1}": ["gallus"] * 4 for i in range(lanistas)}
    return apply_step(None, step).state


def career(**kw: Any) -> Career:
    base: dict[str, Any] = {
        "id": "g1",
        "lanista": "l1",
        "name": "Flamma",
        "tr": 10,
        "st": 2,
        "ag": 1,
        "cn": 4,
        "w": 11,
    }
    return Career.model_validate(base | kw)


def seat_report(seat: str, result: str, **kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "seat": seat,
        "name": seat,
        "result": result,
        "alive": True,
        "mortal": False,
        "missus": False,
        "opponent_missus": False,
        "stans_missus": result == "draw",
        "attack_cf": 0,
        "defense_cf": 0,
        "kills": [],
        "wounds": [0, 0, 0, 0, 0],
        "cleaved": False,
        "turns": 5,
        "opponents": [],
        "carry": {"wounds": [1, 0, 0, 0, 0], "cf_lost_other": 0, "st_lost": 0, "ag_lost": 0},
    }
    return base | kw


def reports_for(bout: Bout, winner: int | None, **kw: Any) -> list[dict[str, Any]]:
    """One report per fight: side `winner` (0, 1 or None for a draw) wins every fight; `kw`
    goes into every report of side 0's men."""
    out = []
    for seats in bout.seats:
        fight = {}
        for seat, member in seats.items():
            if member.startswith("beast:"):
                continue
            side = 0 if member in bout.sides[0].gladiators else 1
            result = "draw" if winner is None else "victory" if side == winner else "defeat"
            fight[seat] = seat_report(seat, result, **(kw if side == 0 else {}))
        out.append(fight)
    return out


def fake_play(seed: int) -> Any:
    """A play_fight that decides every fight at random, in the contract's report shape."""
    rng = random.Random(seed)

    def play(options: dict[str, Any], seats: dict[str, str | None]) -> dict[str, Any]:
        order = list(seats)
        if options.get("teams"):
            a, _b = options["teams"].split(":")
            side_a = a.split("+")
        else:
            side_a = [order[0]]
        beasts = {s.split(":")[0] for s in options.get("beasts", "").split(",") if s}
        roll = rng.random()
        out = {}
        for seat in order:
            if seat in beasts:
                continue
            mine = seat in side_a
            result = "draw" if roll < 0.1 else "victory" if (roll < 0.55) == mine else "defeat"
            alive = result != "defeat" or rng.random() < 0.6
            out[seat] = seat_report(
                seat,
                result,
                alive=alive,
                mortal=not alive,
                missus=result == "defeat" and alive,
                attack_cf=rng.randint(0, 90),
                defense_cf=rng.randint(0, 60),
                kills=[{"victim": "x", "turn": rng.randint(1, 6), "kind": "quick"}]
                if result == "victory" and rng.random() < 0.3
                else [],
                wounds=[rng.randint(0, 5) for _ in range(5)],
                cleaved=rng.random() < 0.05,
            )
        return out

    return play


def refused(state: CampaignState, step: dict[str, Any], message: str) -> None:
    """The step is refused in one line matching `message`, and the state is untouched."""
    before = state_digest(state)
    with pytest.raises(CampaignError, match=message) as err:
        apply_step(state, step)
    assert "\n" not in str(err.value)
    assert state_digest(state) == before
