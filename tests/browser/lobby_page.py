"""Driving the lobby page (src/gladiator/web/static/lobby.js lists its DOM hooks): pick the
rules, set options, say who plays each seat, type a seed, create, and read the links shown."""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Locator, Page, expect

# What a test sets an option to: text for a field or a choice list, a flag for a checkbox, a
# list for a list option (one entry per field: one class or style per seat).
OptionValue = str | bool | list[str]


@dataclass(frozen=True)
class Created:
    match_id: str
    links: dict[str, str]  # human seat -> its arena link (token in the fragment)
    bots: dict[str, str]  # bot seat -> what the lobby says of it
    hotseat: str | None
    spectator: str
    commitment: str


def create_match(
    page: Page,
    ruleset: str,
    *,
    options: dict[str, OptionValue] | None = None,
    seats: dict[str, str] | None = None,
    seed: int | None = None,
    deadline: str | None = None,
    then: str = "bot",
    emails: dict[str, str] | None = None,
) -> Created:
    """Fill the lobby's form and press Create match; what the lobby then shows. `deadline`:
    a correspondence match, its choice's label ("1 day"), `then` what follows when it passes
    ("bot" or "forfeit") and `emails` the addresses typed for human seats."""
    page.select_option("#ruleset", ruleset)
    expect(page.locator("#seats tr[data-seat]").first).to_be_visible()
    for name, value in (options or {}).items():
        set_option(page, name, value)
    # A changed option is checked by the server (preview) before Create is enabled again.
    expect(page.locator("#create")).to_be_enabled()
    expect(page.locator("#options-error")).to_be_hidden()
    for seat, who in (seats or {}).items():
        page.select_option(f'#seats tr[data-seat="{seat}"] select', who)
    if deadline is not None:
        page.select_option("#deadline-seconds", label=deadline)
        page.check(f'input[name="deadline-then"][value="{then}"]')
        for seat, address in (emails or {}).items():
            page.fill(f'#emails input[data-email-seat="{seat}"]', address)
    if seed is not None:
        page.locator("details.advanced summary").click()
        page.fill("#seed-input", str(seed))
    # A page that created a match before shows it until the new one comes: wait for that.
    before = page.locator("#created h3").all_inner_texts()
    page.click("#create")
    created = page.locator("#created")
    expect(created).to_be_visible()
    if before:
        expect(created.locator("h3")).not_to_have_text(before[0])
    expect(page.locator("#create-error")).to_be_hidden()
    match_id = created.locator("h3").inner_text().removeprefix("Match ").strip()
    links: dict[str, str] = {}
    bots: dict[str, str] = {}
    for row in created.locator("[data-seat]").all():
        seat = row.get_attribute("data-seat") or ""
        href = row.get_attribute("href")
        if href:
            links[seat] = href
        else:
            bots[seat] = row.inner_text()
    hotseat = page.locator("#hotseat-link")
    return Created(
        match_id=match_id,
        links=links,
        bots=bots,
        hotseat=hotseat.get_attribute("href") if hotseat.count() else None,
        spectator=page.locator("#spectator-link").get_attribute("href") or "",
        commitment=page.inner_text("#commitment").strip(),
    )


def set_option(page: Page, name: str, value: OptionValue) -> None:
    """Set one option the way a player would: tick or clear a flag, pick from a choice list,
    type into a text box; a list option field by field (`[data-index]`), after pressing + or -
    until it has as many fields as `value` has entries."""
    if isinstance(value, list):
        fields = page.locator(f'#options [data-opt="{name}"][data-index]')
        row = page.locator(".option-row").filter(has=fields.first)
        while fields.count() < len(value):
            row.locator("button.add").click()
        while fields.count() > len(value):
            row.locator("button.remove").click()
        for i, item in enumerate(value):
            _set_field(page.locator(f'#options [data-opt="{name}"][data-index="{i}"]'), item)
        return
    _set_field(page.locator(f'#options [data-opt="{name}"]'), value)


def _set_field(field: Locator, value: str | bool) -> None:
    tag, kind = field.evaluate("(e) => [e.tagName, e.type]")
    if isinstance(value, bool):
        assert kind == "checkbox", f"a flag needs a checkbox, not {tag} {kind}"
        field.set_checked(value)
    # An option with few values (from the ruleset's options schema) is a choice list.
    elif tag == "SELECT":
        field.select_option(value)
    else:
        field.fill(value)


def my_matches(page: Page) -> dict[str, dict[str, str]]:
    """The lobby's "My matches": {match id: {seat: rejoin link}}."""
    out: dict[str, dict[str, str]] = {}
    for row in page.locator("#my-matches tr[data-match]").all():
        links = {
            a.get_attribute("data-seat") or "": a.get_attribute("href") or ""
            for a in row.locator("a.rejoin").all()
        }
        out[row.get_attribute("data-match") or ""] = links
    return out
