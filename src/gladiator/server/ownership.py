"""This server process among others on one database (docs/deploy.md; rulings OW1-OW5).

The process registers itself with the URL its clients reach it at, beats its heartbeat every
`heartbeat` seconds, and at each beat takes over the running matches of processes that died
(store/owners.py). A process is dead when its heartbeat is older than `lease` seconds, or at
once when it ran on this host and its pid is gone (a kill -9 seen by a neighbour, OW3).
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from gladiator.server.security import normalise_origin
from gladiator.store import Store, StoreError
from gladiator.store.owners import Owner, Peer

__all__ = ["Ownership", "OwnershipPolicy"]

log = logging.getLogger("gladiator.server")


@dataclass(frozen=True)
class OwnershipPolicy:
    heartbeat: float = 1.0
    # Five missed beats: longer than a garbage-collection pause or a slow commit, short enough
    # that the matches of a machine that died go on within seconds.
    lease: float = 5.0

    def __post_init__(self) -> None:
        if not 0 < self.heartbeat < self.lease:
            raise ValueError("the heartbeat must be positive and shorter than the lease")


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's
        return True
    except OSError:
        return False
    return True


def _utc(value: datetime) -> datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


class Ownership:
    def __init__(
        self,
        store: Store,
        url: str | None = None,
        policy: OwnershipPolicy | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.owners = store.owners
        self.me = secrets.token_hex(8)
        self.url = url or ""
        self.policy = policy or OwnershipPolicy()
        self.clock = clock
        self.host = socket.gethostname()[:255]
        self.pid = os.getpid()
        self.registered = False

    def _now(self) -> datetime:
        return datetime.fromtimestamp(self.clock(), UTC)

    def dead(self, peer: Peer) -> bool:
        if peer.id == self.me:
            return False
        if self.clock() - _utc(peer.heartbeat_at).timestamp() > self.policy.lease:
            return True
        return peer.host == self.host and peer.pid != self.pid and not _pid_alive(peer.pid)

    # Blocking calls (the hub runs them in worker threads).
    def register(self) -> None:
        self.owners.register(Peer(self.me, self.url, self.host, self.pid, self._now()))
        self.registered = True

    def beat(self) -> None:
        if not self.owners.heartbeat(self.me, self._now()):
            self.register()  # a peer found the row stale and removed it: say it again

    def claim(self, match_id: str) -> Owner | None:
        return self.owners.claim(match_id, self.me, self.dead)

    def claim_orphans(self) -> list[str]:
        return self.owners.claim_orphans(self.me, self.dead)

    def peer_origins(self) -> frozenset[str]:
        """The origins of the other live processes (their public URLs)."""
        found = set()
        for peer in self.owners.peers():
            if peer.id != self.me and peer.url and not self.dead(peer):
                try:
                    found.add(normalise_origin(peer.url))
                except ValueError:
                    continue
        return frozenset(found)

    def retire(self) -> None:
        """Let every match go for another process to take at once (a clean stop, OW4)."""
        if not self.registered:
            return
        try:
            released = self.owners.retire(self.me)
        except StoreError as exc:  # they are taken over when the lease runs out instead
            log.warning("this server's matches were not let go: %s", exc)
            return
        self.registered = False
        if released:
            log.info("let go of %d running matches for another server process", released)
