"""What a benchmark ran on, so that figures from different machines are not compared blindly."""

from __future__ import annotations

import os
import platform
from typing import Any

__all__ = ["load_average", "machine", "usable_cpus"]


def machine() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "system": platform.system(),
        "release": platform.release(),
        "machine": platform.machine(),
        "processor": _cpu_model(),
        "cpus": os.cpu_count(),
        "cpus_usable": _usable_cpus(),
    }


def load_average() -> list[float] | None:
    """The 1, 5 and 15 minute load averages: how busy the machine was (None where unknown)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):
        return None


def usable_cpus() -> int:
    """The CPUs this process may run on (at least 1): the default size of a local pool."""
    return _usable_cpus() or 1


def _usable_cpus() -> int | None:
    # A container or taskset may allow fewer CPUs than the machine has.
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count()


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"
