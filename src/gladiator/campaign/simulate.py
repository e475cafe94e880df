"""An in-memory driver: a campaign played by bot lanistas, each fight by `play_fight`.

`play_fight(engine_options, seats -> lanista) -> campaign_report` is the Colosseum engine (the
lead's service plays a match with the options and returns `campaign_report(state)`), or a fake
in tests. Every change goes through `apply_step`, so the results are the steps a store would
commit, and the same seed and the same fights give the same campaign.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gladiator.campaign.bot import (
    bot_armour,
    bot_bids,
    bot_entries,
    bot_offer,
    bot_preferences,
    bot_spending,
)
from gladiator.campaign.fights import fight_lanistas, next_fight
from gladiator.campaign.state import CampaignState
from gladiator.campaign.steps import StepResult, apply_step

__all__ = ["PlayFight", "munus_steps", "simulate"]

PlayFight = Callable[[dict[str, Any], dict[str, str | None]], dict[str, Any]]


class _Run:
    def __init__(self, state: CampaignState) -> None:
        self.state = state
        self.results: list[StepResult] = []

    def over(self) -> bool:
        return self.state.meta.phase == "over"

    def step(self, step: dict[str, Any]) -> StepResult:
        result = apply_step(self.state, step)
        self.state = result.state
        self.results.append(result)
        return result


def munus_steps(run: _Run, play_fight: PlayFight) -> None:
    state = run.state
    active = [lanista.id for lanista in state.active_lanistas()]
    open_step: dict[str, Any] = {
        "kind": "munus_open",
        "entries": {lid: bot_entries(state, lid) for lid in active},
    }
    if state.meta.options.choose_style:
        prefs: dict[str, list[str]] = {}
        for lid in active:
            prefs |= bot_preferences(state, lid)
        open_step["preferences"] = prefs
    run.step(open_step)
    if run.over():
        return
    bouts = [b.id for b in run.state.munus_bouts()]
    for bid in bouts:
        for lid in run.state.bouts[bid].lanistas():
            odds = bot_offer(run.state, lid, run.state.bouts[bid])
            if odds is not None:
                run.step({"kind": "offer_odds", "actor": lid, "bout": bid, "odds": odds})
            for armour in bot_armour(run.state, lid, run.state.bouts[bid]):
                run.step(armour)
    for bid in bouts:
        bout = run.state.bouts[bid]
        reports: list[dict[str, Any]] = []
        while (options := next_fight(bout, reports)) is not None:
            reports.append(play_fight(options, fight_lanistas(run.state, bout, len(reports))))
        run.step({"kind": "bout_result", "bout": bid, "reports": reports})
        if run.over():
            return
    run.step({"kind": "munus_close"})
    if run.over():
        return
    for lid in [lanista.id for lanista in run.state.active_lanistas()]:
        for career in run.state.stable(lid):
            plan = bot_spending(career)
            if plan:
                run.step(
                    {"kind": "spend_xp", "actor": lid, "gladiator": career.id, "purchases": plan}
                )
        for gid, amount in bot_bids(run.state, lid):
            run.step({"kind": "bid", "actor": lid, "gladiator": gid, "amount": amount})
    if run.state.meta.lots:
        run.step({"kind": "auction"})


def simulate(
    state: CampaignState, munera: int, play_fight: PlayFight
) -> tuple[CampaignState, list[StepResult]]:
    """Play up to `munera` munera (fewer if the campaign ends) with bot lanistas."""
    run = _Run(state)
    for _ in range(munera):
        if run.over():
            break
        munus_steps(run, play_fight)
    return run.state, run.results
