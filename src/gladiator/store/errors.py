"""The errors the storage layer raises: one-line messages a user can act on."""

from __future__ import annotations

__all__ = ["NotOwner", "StoreError", "StoreUnavailable"]


class StoreError(ValueError):
    """A database that cannot be used, or stored data that is broken or refused."""


class StoreUnavailable(StoreError):
    """The database could not be reached or was busy (a lost connection, a lock held too long,
    a full pool): nothing was refused, and the same call may well succeed a moment later."""


class NotOwner(StoreError):
    """Another server process holds the match now (it took it over while this one was thought
    dead): this one must let it go (docs/deploy.md, OW2)."""
