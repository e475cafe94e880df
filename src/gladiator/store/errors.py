"""The one error the storage layer raises: a one-line message a user can act on."""

from __future__ import annotations

__all__ = ["StoreError"]


class StoreError(ValueError):
    """A database that cannot be used, or stored data that is broken or refused."""
