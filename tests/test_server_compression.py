"""The server does not compress websocket frames (issue 13, item 5; docs/deploy.md): at 200
matches per-message deflate was 18% of the event loop, for updates of a few KiB on loopback or
behind a proxy that may compress itself."""

from __future__ import annotations

from pathlib import Path

from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
from websockets.sync.client import connect

from server_helpers import arena, db_url, new_match


def test_a_client_offering_per_message_deflate_is_answered_without_it(tmp_path: Path) -> None:
    with arena(db_url(tmp_path)) as server:
        made = new_match(server.url, seats={"red": "human", "blue": "bot:random"}, seed=1)
        ws_url = "ws" + server.url.removeprefix("http") + f"/ws/{made['id']}"
        with connect(ws_url, extensions=[ClientPerMessageDeflateFactory()]) as sock:
            assert sock.request is not None and sock.response is not None
            offered = sock.request.headers.get("Sec-WebSocket-Extensions", "")
            assert "permessage-deflate" in offered  # the client did ask
            assert "Sec-WebSocket-Extensions" not in sock.response.headers
