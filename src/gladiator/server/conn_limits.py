"""Limits on client connections, so that silent or slow clients cannot take the server from
everyone else (docs/web.md, Limits; rulings HC1-HC3).

uvicorn accepts every connection and waits for its request for ever, so a few hundred silent
sockets use up the open-file limit; after that the database, the pages and every other client
fail with "Too many open files", and asyncio's accept loop logs that with a traceback for every
queued connection. Here:

- the listening socket (`GuardedListener`) counts the connections open, in all and per client
  address, and refuses one over a limit the moment it is accepted (a 503, then closed), so the
  file descriptors in use stay below the limit set at start;
- at the total limit the connection that has waited longest for its request is dropped to make
  room, so a flood of silent sockets cannot keep real clients out;
- a connection must send a complete request (head and body) within `request_timeout` seconds
  of opening, or of its previous response, or it is closed (slowloris);
- refusals and accept errors are logged once a minute with a count, never a line each.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import ipaddress
import logging
import socket
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from gladiator.server.throttled_log import ThrottledWarning

__all__ = [
    "DEFAULT_PER_ADDRESS",
    "DEFAULT_REQUEST_TIMEOUT",
    "Guard",
    "GuardedListener",
    "Limits",
    "file_budget",
    "guarded_protocols",
    "open_file_limit",
    "quiet_accept_errors",
]

log = logging.getLogger("gladiator.server")

DEFAULT_REQUEST_TIMEOUT = 10.0
# A browser tab holds about 6 connections and a socket per match; a household or an office
# behind one NAT address should not be refused.
DEFAULT_PER_ADDRESS = 128
_FALLBACK_LIMIT = 1024  # where the platform cannot say its open-file limit
_REFUSAL = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"connection: close\r\ncontent-length: 22\r\n\r\ntoo many connections\r\n"
)
_SILENT_ACCEPT = 1.0  # asyncio retries an accept that ran out of descriptors after 1 s
# Connections the kernel holds until they are accepted; they use no descriptor of ours, and a
# short queue makes clients wait a second for each SYN dropped while the server is busy.
_KERNEL_BACKLOG = 2048


def open_file_limit() -> int:
    """The soft RLIMIT_NOFILE of this process (what `ulimit -n` says)."""
    try:
        import resource
    except ImportError:  # not on Windows
        return _FALLBACK_LIMIT
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return _FALLBACK_LIMIT * 64 if soft == resource.RLIM_INFINITY else soft


def _reserve(limit: int) -> int:
    """Descriptors kept back from clients: the database's connections, the pages read from
    disk, the event loop's own, and the sockets accepted in one batch before any is refused."""
    return max(64, limit // 8)


def file_budget(limit: int | None = None) -> int:
    """The most client connections the open-file limit allows (the default total limit)."""
    limit = open_file_limit() if limit is None else limit
    return max(1, limit - _reserve(limit))


@dataclass(frozen=True)
class Limits:
    request_timeout: float
    max_connections: int
    max_per_address: int

    @classmethod
    def checked(
        cls,
        *,
        request_timeout: float = DEFAULT_REQUEST_TIMEOUT,
        max_connections: int | None = None,
        max_per_address: int = DEFAULT_PER_ADDRESS,
    ) -> Limits:
        """The limits, the total one from the open-file limit unless given; ValueError (one
        line, naming the `serve` option) for a value that cannot work."""
        if not 0.5 <= request_timeout <= 3600:
            raise ValueError(
                f"--request-timeout must be 0.5..3600 seconds, not {request_timeout:g}"
            )
        budget = file_budget()
        if max_connections is None:
            max_connections = budget
        elif not 1 <= max_connections <= budget:
            raise ValueError(
                f"--max-connections must be 1..{budget} (the open-file limit is "
                f"{open_file_limit()}; raise it with `ulimit -n`), not {max_connections}"
            )
        if max_per_address < 1:
            raise ValueError(f"--max-per-address must be at least 1, not {max_per_address}")
        return cls(request_timeout, max_connections, min(max_per_address, max_connections))

    @property
    def backlog(self) -> int:
        """asyncio accepts up to `backlog` sockets in one go before any is counted, so the
        batch must fit in the reserve."""
        limit = open_file_limit()
        return max(8, min(512, _reserve(limit) // 2))


def address_key(host: str) -> str:
    """What counts as one client: its IPv4 address, or its IPv6 /64 (one subscriber's)."""
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{ip}/64", strict=False))
    return str(ip)


class Guard:
    """The connections open (by file descriptor) and the ones still waiting for a request."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.open: dict[int, str] = {}  # fd -> address key
        self.per_address: Counter[str] = Counter()
        self.waiting: dict[GuardedH11, None] = {}  # insertion order: longest waiting first
        self.refused = 0
        self.evicted = 0
        self._crowded_address = ThrottledWarning(log)
        self._full = ThrottledWarning(log)

    def admit(self, fd: int, host: str) -> bool:
        key = address_key(host)
        if self.per_address[key] >= self.limits.max_per_address:
            self.refused += 1
            self._crowded_address.warn(
                "refused a connection from %s: %d open from there (--max-per-address)",
                key,
                self.per_address[key],
            )
            return False
        while len(self.open) >= self.limits.max_connections:
            if not self.waiting:
                self.refused += 1
                self._full.warn(
                    "refused a connection: %d open, none idle (--max-connections)", len(self.open)
                )
                return False
            oldest = next(iter(self.waiting))
            self.evicted += 1
            self._full.warn(
                "%d connections open: closed the one waiting longest for its request to make "
                "room (--max-connections)",
                len(self.open),
            )
            oldest.evict()
        self.release(fd)  # a socket asyncio failed to set up is never released otherwise
        self.open[fd] = key
        self.per_address[key] += 1
        return True

    def release(self, fd: int) -> None:
        key = self.open.pop(fd, None)
        if key is not None:
            self.per_address[key] -= 1
            if self.per_address[key] <= 0:
                del self.per_address[key]


class GuardedListener(socket.socket):
    """A listening socket that counts and refuses at accept, before asyncio makes a transport
    (it accepts a whole batch at once, which alone can exhaust the descriptors)."""

    guard: Guard | None = None
    _quiet_until = 0.0

    @classmethod
    def adopt(cls, sock: socket.socket) -> GuardedListener:
        if isinstance(sock, GuardedListener):
            return sock
        listener = cls(sock.family, sock.type, sock.proto, fileno=sock.detach())
        listener.set_inheritable(True)
        return listener

    def listen(self, backlog: int = _KERNEL_BACKLOG) -> None:
        # asyncio passes its accept batch size here too; the kernel's queue may be longer.
        super().listen(max(backlog, _KERNEL_BACKLOG))

    def accept(self) -> tuple[socket.socket, Any]:
        guard = self.guard
        if guard is None:
            return super().accept()
        while True:
            if time.monotonic() < self._quiet_until:
                # asyncio would try again at once for every queued connection, logging each.
                raise BlockingIOError(errno.EAGAIN, "waiting for descriptors")
            try:
                conn, addr = super().accept()
            except OSError as exc:
                if exc.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                    self._quiet_until = time.monotonic() + _SILENT_ACCEPT
                raise
            host = addr[0] if isinstance(addr, tuple) else str(addr)
            if guard.admit(conn.fileno(), host):
                return conn, addr
            _refuse(conn)


def _refuse(conn: socket.socket) -> None:
    with contextlib.suppress(OSError):
        conn.setblocking(False)
        conn.send(_REFUSAL)
    conn.close()


def _fd_of(transport: asyncio.BaseTransport) -> int:
    sock = transport.get_extra_info("socket")
    return sock.fileno() if sock is not None else -1


class GuardedH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a deadline for each request and the guard's count."""

    guard: ClassVar[Guard]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._fd = -1
        self._deadline: asyncio.TimerHandle | None = None
        self._upgraded = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._fd = _fd_of(transport)
        self._track()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        self.guard.release(self._fd)
        super().connection_lost(exc)

    def handle_events(self) -> None:
        super().handle_events()
        self._track()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._track()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        # The socket's protocol becomes the websocket one, which releases it when it closes.
        self._upgraded = True
        self._stop_waiting()
        super().handle_websocket_upgrade(event)

    def evict(self) -> None:
        """Dropped to make room: counted out now, as the descriptor closes on the next turn of
        the loop."""
        self._stop_waiting()
        self.guard.release(self._fd)
        self.transport.abort()

    # A request is waited for while its head or body is incomplete; its handling, however long,
    # is the app's business.
    def _track(self) -> None:
        if self._upgraded or self.transport is None or self.transport.is_closing():
            self._stop_waiting()
        elif self.conn.their_state in (h11.IDLE, h11.SEND_BODY):
            if self._deadline is None:
                timeout = self.guard.limits.request_timeout
                self._deadline = self.loop.call_later(timeout, self._time_out)
                self.guard.waiting[self] = None
        else:
            self._stop_waiting()

    def _stop_waiting(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self.guard.waiting.pop(self, None)

    def _time_out(self) -> None:
        self._deadline = None
        self.guard.waiting.pop(self, None)
        if not self.transport.is_closing():
            self.transport.close()


class GuardedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol, releasing the guard's count of the upgraded socket."""

    guard: ClassVar[Guard]

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self._fd = _fd_of(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        self.guard.release(self._fd)
        super().connection_lost(exc)

    def going_away(self, code: int = 1012) -> None:
        """Start the closing handshake as the app's own close would (uvicorn's `send` of
        `websocket.close`): the frame goes out, reading goes on until the client echoes it,
        and the socket closes then or after `close_timeout`. uvicorn's `shutdown` closes
        the TCP connection at once instead, so a client whose message is in flight gets a
        reset and never reads the frame (ruling HC7)."""
        if not self.handshake_complete or self.close_sent or self.transport.is_closing():
            return
        self.queue.put_nowait({"type": "websocket.disconnect", "code": code})
        self.conn.send_close(code)
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.close_sent = True
        if self.read_paused:
            self.read_paused = False
            self.transport.resume_reading()
        self.close_timer = self.loop.call_later(self.close_timeout, self.transport.close)


def guarded_protocols(guard: Guard) -> tuple[type[GuardedH11], type[GuardedWebSocket]]:
    """The two protocol classes for one server, sharing its guard."""

    class Http(GuardedH11):
        pass

    class Ws(GuardedWebSocket):
        pass

    Http.guard = guard
    Ws.guard = guard
    return Http, Ws


def quiet_accept_errors(loop: asyncio.AbstractEventLoop) -> None:
    """Log "out of descriptors" from asyncio's accept once a minute, without a traceback;
    everything else as asyncio would."""
    throttled = ThrottledWarning(log)

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if str(context.get("message", "")).startswith("socket.accept() out of system resource"):
            exc = context.get("exception")
            reason = exc.strerror if isinstance(exc, OSError) else str(exc)
            throttled.warn("cannot accept connections for now: %s", reason)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handler)
