"""What every page of the web arena must pass in a browser (issue #14): no serious or critical
axe-core violation at 1280×800 and 390×844, nothing scrolling sideways on the phone, the board's
tools within the screen; and screenshots for docs/web/screenshots/."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from PIL import Image
from playwright.sync_api import Page

__all__ = [
    "DESK",
    "PHONE",
    "SHOTS",
    "check_both_sizes",
    "serious",
    "shoot",
    "too_wide",
    "tools_fit",
]

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "web" / "screenshots"


PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 800}


def shoot(page: Page, name: str) -> None:
    """A screenshot for docs/web/screenshots/, kept small: 256 colours hold these pages."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    image = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
    image.quantize(colors=256).save(SHOTS / f"{name}.png", optimize=True)


def serious(page: Page) -> list[str]:
    results: Any = Axe().run(page)
    found = results.response["violations"]
    # Every violation by impact, for the accessibility note (pytest -s shows it).
    print(
        f"axe {page.url.split('#')[0]} {page.viewport_size}:",
        [(v["impact"], v["id"], [n["target"] for n in v["nodes"]][:3]) for v in found],
    )
    return [v["id"] for v in found if v.get("impact") in ("serious", "critical")]


_WIDE_JS = """() => document.scrollingElement.scrollWidth <= innerWidth ? [] :
  [...document.querySelectorAll('body *')]
    .filter((e) => e.getBoundingClientRect().right > innerWidth)
    .map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className.baseVal ?? e.className}`
      + ` ${Math.round(e.getBoundingClientRect().right)}`).slice(0, 12)"""


def too_wide(page: Page) -> list[str]:
    """What sticks out on the right when the page scrolls sideways (nothing when it does not:
    document.scrollingElement.scrollWidth <= innerWidth)."""
    found: list[str] = page.evaluate(_WIDE_JS)
    return found


_TOOLS_JS = """() => ['#caption', '.animate-toggle'].map((sel) => {
  const e = document.querySelector(sel);
  const r = e.getBoundingClientRect();
  return [sel, r.left >= 0 && r.right <= innerWidth && e.scrollWidth <= e.clientWidth, r.height];
})"""


def tools_fit(page: Page) -> None:
    """On the phone the caption wraps inside the screen and the animation toggle stays on it,
    its label a target at least 44 px high."""
    (caption, inside, _), (toggle, toggle_inside, high) = page.evaluate(_TOOLS_JS)
    assert inside, caption
    assert toggle_inside and high >= 44, (toggle, high)


def check_both_sizes(page: Page, shot: str | None = None) -> None:
    """No serious or critical axe violation at 1280×800 and 390×844, nothing scrolling sideways
    on the phone, and (when named) a screenshot at each size."""
    for size, tag in ((DESK, "1280"), (PHONE, "390")):
        page.set_viewport_size(size)
        if size is PHONE:
            assert too_wide(page) == [], (page.url, too_wide(page))
            if page.locator("#animate").count():
                tools_fit(page)
        assert serious(page) == [], (page.url, tag)
        if shot:
            shoot(page, f"{shot}-{tag}")
    page.set_viewport_size(DESK)
