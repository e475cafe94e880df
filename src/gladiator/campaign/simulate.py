"""An in-memory driver: a campaign played by bot lanistas, each fight by `play_fight`.

`play_fight(engine_options, seats -> lanista) -> campaign_report` is the Colosseum engine (the
service plays a match with the options and returns `campaign_report(state)`), or a fake in tests.
Every change goes through `apply_step`, in the order `driver.next_move` reads off the state, so
the results are the steps a store would commit, and the same seed and the same fights give the
same campaign.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gladiator.campaign.driver import next_move
from gladiator.campaign.fights import fight_lanistas, next_fight
from gladiator.campaign.state import CampaignState
from gladiator.campaign.steps import StepResult, apply_step

__all__ = ["PlayFight", "bout_reports", "simulate"]

PlayFight = Callable[[dict[str, Any], dict[str, str | None]], dict[str, Any]]


def bout_reports(state: CampaignState, bout_id: str, play_fight: PlayFight) -> list[dict[str, Any]]:
    """Every fight of the bout, one after another (a Consecutive carries on, §30.2.1.1)."""
    bout = state.bouts[bout_id]
    reports: list[dict[str, Any]] = []
    while (options := next_fight(bout, reports)) is not None:
        reports.append(play_fight(options, fight_lanistas(state, bout, len(reports))))
    return reports


def simulate(
    state: CampaignState, munera: int, play_fight: PlayFight
) -> tuple[CampaignState, list[StepResult]]:
    """Play up to `munera` munera (fewer if the campaign ends) with bot lanistas; a human
    lanista's turn stops it (the driver waits for him)."""
    results: list[StepResult] = []
    closed = 0
    while closed < munera:
        move = next_move(state)
        if move.fight is not None:
            step: dict[str, Any] = {
                "kind": "bout_result",
                "bout": move.fight,
                "reports": bout_reports(state, move.fight, play_fight),
            }
        elif move.step is not None:
            step = move.step
        else:
            break  # over, or waiting for a human lanista
        result = apply_step(state, step)
        state = result.state
        results.append(result)
        if step["kind"] == "munus_close":
            closed += 1
    return state, results
