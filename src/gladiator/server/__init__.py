"""The web arena server (docs/web.md): the ASGI app, the live matches it hosts, and its guards."""

from __future__ import annotations

from gladiator.server.app import create_app

__all__ = ["create_app"]
