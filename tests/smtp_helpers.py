"""A local SMTP server for the mail tests: aiosmtpd in a thread of the test's own process, on
127.0.0.1 and a free port, keeping every message it takes. Nothing is sent anywhere else."""

from __future__ import annotations

import email
import email.policy
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Inbox:
    """What the local SMTP server took: each message with its envelope's recipients."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.recipients: list[list[str]] = []
        self._lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        with self._lock:
            self.messages.append(message)
            self.recipients.append(list(envelope.rcpt_tos))
        return "250 Message accepted for delivery"

    def wait_for(self, count: int, timeout: float = 15.0) -> list[EmailMessage]:
        """The messages once there are `count` of them (AssertionError after `timeout`)."""
        end = time.monotonic() + timeout
        while len(self.messages) < count:
            assert time.monotonic() < end, f"{len(self.messages)} messages, not {count}"
            time.sleep(0.02)
        return list(self.messages)


@contextmanager
def local_smtp(inbox: Inbox | None = None, port: int | None = None) -> Iterator[Controller]:
    """A local SMTP server (its `.port`, its handler the `inbox`) until the block ends."""
    controller = Controller(inbox or Inbox(), hostname="127.0.0.1", port=port or free_port())
    controller.start()
    try:
        yield controller
    finally:
        controller.stop()


def body_of(message: EmailMessage) -> str:
    part = message.get_body(("plain",))
    assert part is not None
    text: str = part.get_content()  # type: ignore[attr-defined]
    return text.replace("\r\n", "\n")  # SMTP's line ends
