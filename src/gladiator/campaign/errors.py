"""The one error a campaign step raises for bad input."""

from __future__ import annotations

__all__ = ["CampaignError"]


class CampaignError(ValueError):
    """A step that cannot be applied; the message is one line and the state is unchanged."""

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split()))
