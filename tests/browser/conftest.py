"""Fixtures of the browser tests: Debian's Chromium driven by Playwright's sync API (a clear
failure, or a skip with GLADIATOR_SKIP_BROWSER=1, where it is not installed), a web arena per
test, and the pages of a test, checked for console errors when it ends.

These tests run in a pytest process of their own (`pytest -m browser`, see the Makefile): once
Playwright's sync API has run, asyncio.run() in a later test of the same process fails."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect, sync_playwright

from browser.browsing import CHROMIUM, CHROMIUM_ARGS, LiveArena, Pages
from server_helpers import db_url

# Two slow cores run the server, the browser and the test: give the page time to catch up.
expect.set_options(timeout=15_000)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        if os.environ.get("GLADIATOR_SKIP_BROWSER") == "1":
            pytest.skip(f"no Chromium at {CHROMIUM} (GLADIATOR_SKIP_BROWSER=1)")
        pytest.fail(
            f"the browser tests need Debian's Chromium at {CHROMIUM}: "
            "apt-get install chromium (or set GLADIATOR_SKIP_BROWSER=1 to skip them)",
            pytrace=False,
        )
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveArena]:
    server = LiveArena(db_url(tmp_path))
    yield server
    server.stop()


@pytest.fixture
def pages(browser: Browser) -> Iterator[Pages]:
    opened = Pages(browser)
    yield opened
    try:
        opened.check()
    finally:
        opened.close()
