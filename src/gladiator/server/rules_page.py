"""The in-app rules reference: `GET /rules/{ruleset}` renders that ruleset's numbered summary
(docs/rules/{ruleset}.md, our own words) as a page with an anchor per § (`#s9.5`), so that the
arena's event log can link each § citation to it. The Markdown is rendered by markdown.py,
which escapes everything first; the page runs only /static/rules.js (no inline script)."""

from __future__ import annotations

import html
from functools import cache
from pathlib import Path

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from gladiator import registry
from gladiator.server.markdown import Rendered, render

__all__ = ["RULES_DIR", "rules_routes"]

# The summaries live with the documentation of the source tree (docs/rules/); an installed
# package may carry them as gladiator/rules_docs/ (a wheel's force-include).
_HERE = Path(__file__).resolve()
RULES_DIR = next(
    (
        d
        for d in (_HERE.parents[3] / "docs" / "rules", _HERE.parents[1] / "rules_docs")
        if d.is_dir()
    ),
    _HERE.parents[3] / "docs" / "rules",
)

_PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{title} — rules reference</title>
  <link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="/static/style.css">
  <link rel="stylesheet" href="/static/orders.css">
  <script type="module" src="/static/rules.js"></script>
</head>
<body class="rules-page">
  <header class="top">
    <a class="home" href="/">GLADIATOR</a>
    <h1>{title}</h1>
  </header>
  <main class="rules">
    <nav class="rules-toc" aria-label="sections"><ol>{toc}</ol></nav>
    <article id="rules-text" class="rules-text" data-ruleset="{name}">
{body}
    </article>
  </main>
</body>
</html>
"""


@cache
def _rendered(name: str, mtime: float) -> Rendered:
    return render((RULES_DIR / f"{name}.md").read_text("utf-8"))


def page_html(name: str) -> str | None:
    """The rules page of ruleset `name`, or None when it has no summary here."""
    file = RULES_DIR / f"{name}.md"
    if name not in registry.names() or not file.is_file():
        return None
    done = _rendered(name, file.stat().st_mtime)
    toc = "".join(f'<li><a href="#{a}">{html.escape(text)}</a></li>' for a, text in done.toc)
    title = html.escape(registry.get(name).title)
    return _PAGE.format(title=title, toc=toc, body=done.body, name=html.escape(name))


async def rules(request: Request) -> Response:
    name = request.path_params["ruleset"]
    text = page_html(name)
    if text is None:
        raise HTTPException(404, f"no rules reference for {name!r}")
    return HTMLResponse(text)


def rules_routes() -> list[Route]:
    return [Route("/rules/{ruleset}", rules)]
