"""Reading a server's stderr after the hostile run (server/hostile.py): every traceback, and
whether it is the one an engine fault's log line carries (ruling HF1) or anything else.

The server logs an engine fault as one line, `match ID: engine fault at step N: TYPE: ...`,
with the cause's traceback under it (server/live_match.py). Any other traceback (an internal
error, an exception in the ASGI app, a failed task) follows some other line, or none. A chained
traceback ("The above exception was the direct cause ...") belongs to the line that opened the
chain.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

__all__ = ["FAULT_LINE", "StderrReport", "read_stderr"]

TRACEBACK = "Traceback (most recent call last):"
FAULT_LINE = re.compile(r"^match (?P<match>\S+): engine fault at step (?P<step>\d+): (?P<kind>\w+)")
_CHAINED = (
    "The above exception was the direct cause of the following exception:",
    "During handling of the above exception, another exception occurred:",
)


@dataclass
class StderrReport:
    fault_lines: int = 0
    fault_kinds: Counter[str] = field(default_factory=Counter)  # the cause's type, as logged
    tracebacks: int = 0  # every "Traceback (most recent call last):"
    fault_tracebacks: int = 0  # those under a fault's line (chained ones included)
    faults_without_traceback: int = 0
    other: list[str] = field(default_factory=list)  # each other incident: a line, its tracebacks

    @property
    def other_tracebacks(self) -> int:
        return self.tracebacks - self.fault_tracebacks

    def to_dict(self, shown: int = 5) -> dict[str, object]:
        return {
            "fault_lines": self.fault_lines,
            "fault_kinds": dict(sorted(self.fault_kinds.items())),
            "tracebacks": self.tracebacks,
            "fault_tracebacks": self.fault_tracebacks,
            "other_tracebacks": self.other_tracebacks,
            "other_incidents": len(self.other),
            "faults_without_traceback": self.faults_without_traceback,
            "other_shown": self.other[:shown],
        }


@dataclass
class _Block:
    """One log line and the tracebacks under it."""

    head: str | None
    lines: list[str] = field(default_factory=list)
    tracebacks: int = 0


def _blocks(text: str) -> list[_Block]:
    """The text cut at each line that is not part of a traceback. A traceback's frames are
    indented; its last line (the exception) is not, and the line after that starts a new block
    unless it chains another traceback."""
    blocks = [_Block(None)]
    in_frames = after_exception = chained = False
    for line in text.splitlines():
        if line.startswith(TRACEBACK):
            if after_exception and not chained:  # a second traceback, not the first's cause
                blocks.append(_Block(None))
            blocks[-1].tracebacks += 1
            blocks[-1].lines.append(line)
            in_frames, after_exception, chained = True, False, False
        elif in_frames and (line.startswith(" ") or not line):
            blocks[-1].lines.append(line)
        elif in_frames:  # the exception's own line closes the frames
            blocks[-1].lines.append(line)
            in_frames, after_exception = False, True
        elif after_exception and (line in _CHAINED or not line):
            blocks[-1].lines.append(line)
            chained = chained or line in _CHAINED
        else:
            blocks.append(_Block(line, [line]))
            after_exception = chained = False
    return blocks


def _excerpt(lines: list[str], keep: int = 12) -> str:
    """A traceback's line and its first and last lines: where it came from and what it was."""
    if len(lines) <= 2 * keep:
        return "\n".join(lines)
    return "\n".join([*lines[:keep], "...", *lines[-keep:]])


def read_stderr(text: str) -> StderrReport:
    report = StderrReport()
    for block in _blocks(text):
        found = FAULT_LINE.match(block.head or "")
        report.tracebacks += block.tracebacks
        if found is None:
            if block.tracebacks:
                report.other.append(_excerpt(block.lines))
            continue
        report.fault_lines += 1
        report.fault_kinds[found["kind"]] += 1
        report.fault_tracebacks += block.tracebacks
        if block.tracebacks == 0:
            report.faults_without_traceback += 1
    return report
