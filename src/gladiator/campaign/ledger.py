"""Double-entry money (§37): every sesterce moves between two accounts, so a step's entries sum
to 0 and a lanista's purse is the balance of his account.

Accounts: "lanista:<id>", "bank" (the editor of the games: starting money, bonuses, purchases)
and "escrow:<bout id>" (the stakes of a bout's wager until it is settled).
"""

from __future__ import annotations

from typing import NamedTuple

from gladiator.campaign.errors import CampaignError
from gladiator.campaign.state import CampaignState

__all__ = ["BANK", "Ledger", "LedgerEntry", "escrow", "lanista_account"]

BANK = "bank"


def lanista_account(lanista: str) -> str:
    return f"lanista:{lanista}"


def escrow(bout: str) -> str:
    return f"escrow:{bout}"


class LedgerEntry(NamedTuple):
    account: str
    amount: int
    memo: str


class Ledger:
    """The entries of one step, kept in pairs; lanistas' purses follow their accounts."""

    def __init__(self, state: CampaignState) -> None:
        self.state = state
        self.entries: list[LedgerEntry] = []

    def move(self, source: str, target: str, amount: int, memo: str) -> None:
        if amount < 0:
            raise ValueError("a transfer moves a positive amount")
        if amount == 0:
            return
        self._post(source, -amount, memo)
        self._post(target, amount, memo)

    def pay(self, lanista: str, target: str, amount: int, memo: str) -> None:
        """The lanista pays; refused in one line if his purse cannot cover it (§37.6)."""
        purse = self.state.lanistas[lanista].purse
        if amount > purse:
            raise CampaignError(
                f"lanista {lanista} cannot pay {amount} sesterces ({memo}): his purse holds {purse}"
            )
        self.move(lanista_account(lanista), target, amount, memo)

    def _post(self, account: str, amount: int, memo: str) -> None:
        self.entries.append(LedgerEntry(account, amount, memo))
        if account.startswith("lanista:"):
            self.state.lanistas[account.removeprefix("lanista:")].purse += amount

    def balance(self, account: str) -> int:
        return sum(e.amount for e in self.entries if e.account == account)
