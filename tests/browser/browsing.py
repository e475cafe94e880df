"""The browser tests' surroundings: where Chromium is and how it is started, a web arena that
can be stopped and started again on the same port and database, browser contexts whose pages
record every console error and uncaught exception, and screenshots for people to look at."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page

from server_helpers import arena

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
VIEWPORT = {"width": 1360, "height": 900}


class LiveArena:
    """The web arena over a SQLite file, on a loopback port it keeps across restarts (so that
    the pages' own reconnection finds the new server; `port`: that port from the start, 0 for a
    free one). `app_options` go to `create_app` at every start (a fake clock, a mail policy)."""

    def __init__(self, db: str, port: int = 0, **app_options: Any) -> None:
        self.db = db
        self.app_options = app_options
        self.port = port
        self.url = ""
        self._running: contextlib.ExitStack | None = None
        self.start()

    def start(self) -> None:
        assert self._running is None
        stack = contextlib.ExitStack()
        listening = stack.enter_context(arena(self.db, port=self.port, **self.app_options))
        self._running = stack
        self.url = listening.url
        self.port = int(listening.url.rsplit(":", 1)[1])

    def stop(self) -> None:
        if self._running is not None:
            self._running.close()
            self._running = None

    def restart(self) -> None:
        self.stop()
        self.start()


class Pages:
    """Browser contexts (one per player: cookies and storage of their own) and their pages;
    every console error and uncaught exception of any page is kept and fails the test, except
    those the test declared it expects (`expect_console`)."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.contexts: list[BrowserContext] = []
        self.problems: list[str] = []
        self.expected: list[re.Pattern[str]] = []
        self.tolerated: list[str] = []

    def context(self) -> BrowserContext:
        ctx = self.browser.new_context(viewport=VIEWPORT)  # type: ignore[arg-type]
        ctx.set_default_timeout(15_000)
        self.contexts.append(ctx)
        return ctx

    def open(self, url: str, ctx: BrowserContext | None = None) -> Page:
        page = (ctx or self.context()).new_page()
        page.on("console", lambda msg: self._console(page, msg))
        page.on("pageerror", lambda exc: self.problems.append(f"{page.url}: page error: {exc}"))
        page.goto(url)
        return page

    def expect_console(self, pattern: str) -> None:
        """Console errors matching `pattern` are expected from here on (a socket that cannot
        connect while the server is down) and do not fail the test."""
        self.expected.append(re.compile(pattern))

    def _console(self, page: Page, msg: ConsoleMessage) -> None:
        if msg.type != "error":
            return
        line = f"{page.url}: console error: {msg.text}"
        if any(p.search(msg.text) for p in self.expected):
            self.tolerated.append(line)
        else:
            self.problems.append(line)

    def check(self) -> None:
        assert not self.problems, "\n".join(self.problems)

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()


def screenshot(page: Page, name: str) -> Path:
    """Save a PNG of the page under artifacts/screenshots/ (kept for people to look at)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path
