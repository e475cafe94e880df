"""Line editing and history for orders typed in the terminal (stdlib readline).

With readline loaded, `input()` (and so Rich's `Prompt.ask`) gets cursor keys, Emacs editing and
an Up-arrow history of what was typed. The history is kept per ruleset in the user's data
directory, `$XDG_DATA_HOME/gladiator/history-RULESET` (`~/.local/share/...` by default), the last
500 entries, so that the orders of one Colosseum match are at hand in the next; `GLADIATOR_HISTORY
=off` keeps it for the session only, and so does input that is not a terminal (a script piped
in has no use for it, and a test must not write to the home directory). A secret hotseat entry
is read without echo (getpass), which never goes through readline, so the history never holds
one player's secret order for the other.
Where readline is missing (Windows without pyreadline) input works as before."""

from __future__ import annotations

import contextlib
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

__all__ = ["HISTORY_LENGTH", "history_file", "order_history"]

HISTORY_LENGTH = 500
_NAME = re.compile(r"^[a-z0-9_-]{1,40}$")


def _readline() -> ModuleType | None:
    try:
        import readline
    except ImportError:  # no readline on this platform: plain input()
        return None
    return readline


def history_file(ruleset: str) -> Path | None:
    """Where the history of `ruleset` is kept, or None (session only)."""
    if os.environ.get("GLADIATOR_HISTORY", "").lower() in ("off", "0", "no"):
        return None
    if not _NAME.match(ruleset):
        return None
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "gladiator" / f"history-{ruleset}"


@contextlib.contextmanager
def order_history(ruleset: str, persist: bool | None = None) -> Iterator[ModuleType | None]:
    """Readline on, with the ruleset's history loaded, for the time of a match; the history is
    written back at the end (a file that cannot be read or written leaves the session's).
    `persist` (default: whether stdin is a terminal) says whether the file is used at all."""
    rl = _readline()
    if rl is None:
        yield None
        return
    rl.clear_history()
    rl.set_history_length(HISTORY_LENGTH)
    keep = sys.stdin.isatty() if persist is None else persist
    path = history_file(ruleset) if keep else None
    if path is not None and path.is_file():
        with contextlib.suppress(OSError):
            rl.read_history_file(str(path))
    try:
        yield rl
    finally:
        if path is not None:
            with contextlib.suppress(OSError):
                path.parent.mkdir(parents=True, exist_ok=True)
                rl.write_history_file(str(path))
        rl.clear_history()
