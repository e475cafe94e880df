"""Running the app on uvicorn: the listening socket (opened first, so that a busy port or a bad
host is one clear line, not a traceback) and the server, in the foreground or in a thread."""

from __future__ import annotations

import asyncio
import errno
import ipaddress
import re
import socket
import threading
import time
from dataclasses import dataclass

import uvicorn
from starlette.types import ASGIApp

from gladiator.server.conn_limits import (
    Guard,
    GuardedListener,
    GuardedWebSocket,
    Limits,
    guarded_protocols,
    quiet_accept_errors,
)

__all__ = ["Limits", "Listening", "open_listener", "serve", "start_in_thread", "url_of"]

# uvicorn refuses bigger websocket frames itself (close 1009) before the app reads them; the app
# then applies the protocol's 8 KiB limit to what is left.
WS_MAX_SIZE = 64 * 1024
# A request head over this is refused with a 400 (h11's own default, stated here so it stays).
MAX_HEAD = 16 * 1024
KEEP_ALIVE = 5  # seconds an idle connection is kept after a response
SHUTDOWN_GRACE = 10  # seconds open connections get to finish when the server stops
CLOSE_GRACE = 2  # of which seconds a websocket gets to answer the server's close frame
_HOSTNAME = re.compile(r"^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,62})(\.[A-Za-z0-9-]{1,63})*$")


def open_listener(host: str, port: int) -> socket.socket:
    """A bound, listening TCP socket; ValueError with one line if the host or port is bad."""
    if not 0 <= port <= 65535:
        raise ValueError(f"--port must be 0..65535, not {port}")
    try:
        family = socket.AF_INET6 if ipaddress.ip_address(host).version == 6 else socket.AF_INET
    except ValueError:
        if not _HOSTNAME.match(host):
            raise ValueError(f"--host {host!r} is neither an IP address nor a host name") from None
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except socket.gaierror:
            raise ValueError(f"--host {host!r}: no such host") from None
        family = infos[0][0]
    sock = GuardedListener(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise ValueError(f"port {port} on {host} is busy (another server uses it)") from None
        if exc.errno == errno.EADDRNOTAVAIL:
            raise ValueError(f"--host {host}: not an address of this machine") from None
        if exc.errno == errno.EACCES:
            raise ValueError(
                f"port {port}: permission denied (ports below 1024 need root)"
            ) from None
        raise ValueError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    sock.set_inheritable(True)
    return sock


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


class _Server(uvicorn.Server):
    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        quiet_accept_errors(asyncio.get_running_loop())
        await super().startup(sockets=sockets)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """Stop listening, then give every websocket the closing handshake (1012, "service
        restart") and up to CLOSE_GRACE seconds to finish it before uvicorn's own shutdown
        closes what is left (ruling HC7)."""
        for server in self.servers:
            server.close()
        sockets_open = [c for c in self.server_state.connections if isinstance(c, GuardedWebSocket)]
        for ws in sockets_open:
            ws.going_away()
        deadline = time.monotonic() + CLOSE_GRACE
        while time.monotonic() < deadline and any(
            c in self.server_state.connections for c in sockets_open
        ):
            await asyncio.sleep(0.02)
        await super().shutdown(sockets=sockets)


def _guarded(
    app: ASGIApp, sock: socket.socket, log_level: str, limits: Limits | None
) -> tuple[uvicorn.Server, GuardedListener]:
    """The server and its listening socket, sharing one guard of the connection limits."""
    limits = limits or Limits.checked()
    guard = Guard(limits)
    listener = GuardedListener.adopt(sock)
    listener.guard = guard
    http, ws = guarded_protocols(guard)
    config = uvicorn.Config(
        app,
        log_level=log_level,
        http=http,
        ws=ws,
        ws_max_size=WS_MAX_SIZE,
        # Per-message deflate was 18% of the event loop at 200 matches (issue 13, item 5) for
        # messages of a few KiB; a proxy in front may compress instead (docs/deploy.md).
        ws_per_message_deflate=False,
        h11_max_incomplete_event_size=MAX_HEAD,
        timeout_keep_alive=KEEP_ALIVE,
        timeout_graceful_shutdown=SHUTDOWN_GRACE,
        backlog=limits.backlog,
        lifespan="on",
        proxy_headers=False,
        server_header=False,
    )
    return _Server(config), listener


def serve(
    app: ASGIApp, sock: socket.socket, *, log_level: str = "info", limits: Limits | None = None
) -> None:
    """Run until interrupted (Ctrl-C)."""
    server, listener = _guarded(app, sock, log_level, limits)
    server.run(sockets=[listener])


@dataclass
class Listening:
    """A server running in a daemon thread (tests, the load test)."""

    server: uvicorn.Server
    thread: threading.Thread
    url: str

    def stop(self, timeout: float = 10.0) -> None:
        self.server.should_exit = True
        self.thread.join(timeout)


def start_in_thread(
    app: ASGIApp,
    host: str = "127.0.0.1",
    port: int = 0,
    *,
    log_level: str = "warning",
    limits: Limits | None = None,
) -> Listening:
    """Start the app on a free loopback port (port 0) in a daemon thread; returns once it
    accepts connections. RuntimeError if it does not start within 20 s."""
    server, sock = _guarded(app, open_listener(host, port), log_level, limits)
    # An app of create_app learns here where it listens, for the other processes on its
    # database to send its matches' clients (docs/deploy.md); `gladiator serve` says it itself.
    ownership = getattr(getattr(getattr(app, "state", None), "hub", None), "ownership", None)
    if ownership is not None and not ownership.url:
        ownership.url = url_of(sock)
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [sock]}, daemon=True, name="gladiator-server"
    )
    thread.start()
    deadline = time.monotonic() + 20.0
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            server.should_exit = True
            raise RuntimeError("the server did not start")
        time.sleep(0.01)
    return Listening(server, thread, url_of(sock))
