"""The Campaign Game (§30-§37): a pure state machine of careers, lanistas, munera and money.

No I/O, no clock, no global random: `apply_step(state, step)` turns a `CampaignState` and a step
into a new state, its double-entry ledger entries and events, with dice seeded from (campaign
seed, step seq). Fights are played by the Colosseum engine from the options each bout carries;
their `campaign_report`s come back in a `bout_result` step.
"""

from gladiator.campaign.errors import CampaignError
from gladiator.campaign.fights import fight_lanistas, next_fight
from gladiator.campaign.ledger import LedgerEntry
from gladiator.campaign.state import (
    Bout,
    CampaignOptions,
    CampaignState,
    Career,
    Lanista,
    Meta,
    state_digest,
)
from gladiator.campaign.steps import StepResult, apply_step

__all__ = [
    "Bout",
    "CampaignError",
    "CampaignOptions",
    "CampaignState",
    "Career",
    "Lanista",
    "LedgerEntry",
    "Meta",
    "StepResult",
    "apply_step",
    "fight_lanistas",
    "next_fight",
    "state_digest",
]
