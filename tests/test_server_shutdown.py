"""A stopping server closes its websockets with a handshake (ruling HC7): a client whose message
is in flight at the stop reads close 1012 rather than a reset."""

from __future__ import annotations

import json
import select
import socket
import threading
from pathlib import Path

from websockets.client import ClientProtocol
from websockets.frames import Close, Frame, Opcode
from websockets.protocol import State
from websockets.uri import parse_uri

from gladiator.server.app import create_app
from gladiator.server.listen import start_in_thread
from gladiator.store import Store
from server_helpers import db_url, new_match


class _SlowCloser:
    """A websocket client on a raw socket (websockets' sans-I/O protocol) that answers the
    server's close frame only when told to."""

    def __init__(self, url: str) -> None:
        uri = parse_uri(url)
        self.frames: list[Frame] = []
        self.proto = ClientProtocol(uri)
        self.sock = socket.create_connection((uri.host, uri.port), timeout=10)
        self.proto.send_request(self.proto.connect())
        self.flush()
        while self.proto.state is State.CONNECTING:
            self.proto.receive_data(self.sock.recv(65536))
        self.frames += [e for e in self.proto.events_received() if isinstance(e, Frame)]

    def flush(self) -> None:
        for data in self.proto.data_to_send():
            if data:
                self.sock.sendall(data)

    def send_text(self, text: str) -> None:
        self.proto.send_text(text.encode())
        self.flush()

    def next_frame(self) -> Frame:
        """The next frame from the server (one read may bring several)."""
        while not self.frames:
            data = self.sock.recv(65536)
            assert data, "the server closed the connection"
            self.proto.receive_data(data)
            self.frames += [e for e in self.proto.events_received() if isinstance(e, Frame)]
        return self.frames.pop(0)

    def ended_within(self, seconds: float) -> bool:
        """True if the server ends the TCP connection within `seconds`."""
        ready, _, _ = select.select([self.sock], [], [], seconds)
        return bool(ready) and self.sock.recv(65536) == b""


def test_a_stopping_server_waits_for_the_clients_answer_to_its_close(tmp_path: Path) -> None:
    """RFC 6455 §7.1.2: the server reads on after its close frame until the client's answer,
    so what the client sent meanwhile is not met with a reset (ruling HC7)."""
    store = Store(db_url(tmp_path))
    running = start_in_thread(create_app(store))
    stopping = threading.Thread(target=running.stop)
    try:
        made = new_match(running.url, "quick", seed=7)
        client = _SlowCloser("ws" + running.url.removeprefix("http") + f"/ws/{made['id']}")
        client.send_text(json.dumps({"type": "hello", "token": made["spectator_token"]}))
        assert json.loads(client.next_frame().data)["type"] == "welcome"
        stopping.start()
        while (frame := client.next_frame()).opcode is not Opcode.CLOSE:
            pass
        assert Close.parse(frame.data).code == 1012
        assert not client.ended_within(0.5), "the server cut the connection before the answer"
        client.flush()  # the protocol's answer to the close
        assert client.ended_within(5)
    finally:
        if stopping.is_alive():
            stopping.join(15)
        running.stop()
        store.close()
