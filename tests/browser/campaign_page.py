"""Driving the campaign page (src/gladiator/web/static/campaign.js and campaign_actions.js, whose
top comments list the DOM hooks) as a lanista does, and checking its money against the server's
double-entry ledger after every step."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx
from playwright.sync_api import Page, expect


@dataclass
class CampaignPage:
    page: Page
    base: str
    campaign: str
    token: str
    you: str = "l1"
    name: str = "You"

    def view(self) -> dict[str, Any]:
        answer = httpx.get(
            f"{self.base}/api/campaigns/{self.campaign}",
            headers={"Authorization": f"Bearer {self.token}"},
            timeout=10,
        )
        assert answer.status_code == 200, answer.text
        data: dict[str, Any] = answer.json()
        return data

    def settle(self, phase: str = "", timeout: float = 120_000) -> dict[str, Any]:
        """Wait until the campaign, in `phase` if given, waits for this lanista (or is over)
        and the page shows that step; the view then."""
        self.page.wait_for_function(
            """([you, phase]) => {
              const s = document.querySelector('#campaign-status').textContent;
              const mine = s.includes('waiting for ' + you) || s.includes(', over');
              return s.includes(phase) && mine;
            }""",
            arg=[self.name, phase],
            timeout=timeout,
        )
        view = self.view()
        expect(self.page.locator("body")).to_have_attribute("data-seq", str(view["seq"]))
        return view

    def submit(self, form: str, button: str | None = None) -> None:
        """Submit a form and wait for the page to say it was done; a refusal fails the test."""
        self.page.click(button or f"{form} button[type=submit]")
        # send() hides both at once, then shows one of them with the server's answer
        self.page.wait_for_function(
            """() => !document.querySelector('#action-done').hidden
              || !document.querySelector('#action-error').hidden"""
        )
        assert self.page.locator("#action-error").is_hidden(), self.page.inner_text("#action-error")


def check_ledger(cp: CampaignPage) -> dict[str, Any]:
    """The money balances: every account of the double-entry ledger sums to 0 with the others;
    each purse is its account and the sum of its ledger lines; each open bout's escrow holds its
    wager's stakes and each side bet's escrow the stakes made (§37.4, §37.4.1); the page shows the
    server's purses."""
    view = cp.view()
    accounts: dict[str, int] = view["accounts"]
    assert sum(accounts.values()) == 0, accounts
    for lan in view["lanistas"]:
        lines = sum(e["amount"] for e in lan["ledger"])
        assert accounts.get(f"lanista:{lan['id']}", 0) == lan["purse"] == lines, lan["id"]
    for bout in view["bouts"]:
        held = sum(bout["wager"]["stakes"].values()) if bout["status"] == "scheduled" else 0
        assert accounts.get(f"escrow:{bout['id']}", 0) == held, bout["id"]
        for bet in bout["side_bets"]:
            escrow = accounts.get(f"side:{bet['id']}", 0)
            if bet["status"] == "offered":
                assert escrow == bet["stake"], bet
            elif bet["status"] == "taken":
                assert escrow == bet["stake"] + bet["takes"], bet
            else:
                assert escrow == 0, bet
    for lan in view["lanistas"]:
        purse = cp.page.locator(f'#league tr[data-lanista="{lan["id"]}"] td.purse')
        expect(purse).to_have_text(str(lan["purse"]))
    return view
