"""How long a server start takes when the store holds many matches nobody plays (issue #13.3).

Creates N quick matches whose two human seats never act (through the hub, as the API does, in an
SQLite file), then times a restart (opening the store plus `Hub.resume_all`) and counts the
matches rebuilt, in each case on a fresh copy of that file:

- `clocks_off`: this build with `--abandon-after 0 --void-after 0` (every match rebuilt);
- `clocks_due`: this build with the default clocks, started 3,601 s after the matches were made
  (they are voided by one statement, none rebuilt);
- `after_clocks`: the start after that one (nothing left to do);
- `baseline` (with `--baseline REV`): the build at git revision REV, run in its own Python process
  from a `git archive` of it (every match rebuilt).

    uv run --frozen python scripts/abandon_restart.py --baseline REV --out FILE.json

(the figures of docs/web/abandon-restart.json: REV the commit before the clocks).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SEATS = {"red": "human", "blue": "human"}


def _hub_module() -> Any:
    from gladiator.server import hub

    return hub


def _new_hub(store: Any, policy: Any | None) -> Any:
    hub = _hub_module()
    return hub.Hub(store) if policy is None else hub.Hub(store, policy)


def _create(url: str, matches: int) -> float:
    from gladiator.store import Store

    async def make(store: Any) -> None:
        hub = _new_hub(store, _policy(0, 0))
        for i in range(matches):
            await hub.create("quick", {}, SEATS, i)
        hub.stop()

    start = time.perf_counter()
    with Store(url) as store:
        asyncio.run(make(store))
    return time.perf_counter() - start


def _policy(abandon: float, void: float, ahead: float = 0.0) -> Any | None:
    try:
        from gladiator.server.abandonment import AbandonPolicy
    except ImportError:  # a build before the clocks
        return None
    return AbandonPolicy(abandon, void, lambda: time.time() + ahead)


def _restart(url: str, policy: Any | None) -> dict[str, Any]:
    from gladiator.store import Store

    hub_module = _hub_module()
    rebuilt = 0
    real = hub_module.rebuild

    def counting(stored: Any) -> Any:
        nonlocal rebuilt
        rebuilt += 1
        return real(stored)

    hub_module.rebuild = counting

    async def resume(store: Any) -> int:
        hub = _new_hub(store, policy)
        await hub.resume_all()
        kept = len(hub.live)
        hub.stop()
        return kept

    try:
        start = time.perf_counter()
        store = Store(url)
        opened = time.perf_counter()
        try:
            kept = asyncio.run(resume(store))
        finally:
            store.close()
        done = time.perf_counter()
    finally:
        hub_module.rebuild = real
    return {
        "total_s": round(done - start, 3),
        "store_open_s": round(opened - start, 3),
        "resume_s": round(done - opened, 3),
        "rebuilt": rebuilt,
        "in_memory_after": kept,
    }


def measure(matches: int, *, baseline: bool) -> dict[str, Any]:
    """This interpreter's gladiator: create, then the restarts (`baseline`: an old build's)."""
    with tempfile.TemporaryDirectory() as tmp:
        made = Path(tmp) / "made.db"
        created_s = _create(f"sqlite:///{made}", matches)

        def copy(name: str, source: Path = made) -> str:
            target = Path(tmp) / name
            shutil.copyfile(source, target)
            return f"sqlite:///{target}"

        result: dict[str, Any] = {"matches": matches, "create_s": round(created_s, 3)}
        if baseline:
            result["baseline"] = _restart(copy("baseline.db"), None)
            return result
        result["clocks_off"] = _restart(copy("off.db"), _policy(0, 0))
        due = copy("due.db")
        result["clocks_due"] = _restart(due, _policy(600, 3600, ahead=3601))
        result["after_clocks"] = _restart(due, _policy(600, 3600, ahead=3601))
        return result


def _baseline(rev: str, matches: int) -> dict[str, Any]:
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", rev, "src"], check=True, capture_output=True
    ).stdout
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", rev], check=True, capture_output=True, text=True
    ).stdout.strip()
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(fileobj=BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        env = {**os.environ, "PYTHONPATH": str(Path(tmp) / "src")}
        out = subprocess.run(
            [sys.executable, __file__, "--matches", str(matches), "--as-baseline"],
            check=True,
            capture_output=True,
            text=True,
            env=env,
        ).stdout
    found: dict[str, Any] = json.loads(out)
    found["revision"] = rev
    found["commit"] = commit
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=4000)
    parser.add_argument("--baseline", help="a git revision to measure the same way")
    parser.add_argument("--out", type=Path, help="also write the JSON here")
    parser.add_argument("--as-baseline", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.matches < 1:
        parser.error("--matches must be at least 1")
    if args.as_baseline:
        print(json.dumps(measure(args.matches, baseline=True)))
        return
    result: dict[str, Any] = {
        "command": "uv run --frozen python scripts/abandon_restart.py " + " ".join(sys.argv[1:]),
        "machine": {
            "platform": platform.platform(),
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "load_average_before": [round(x, 2) for x in os.getloadavg()],
        },
        "commit": subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True
        ).stdout.strip(),
        "database": "sqlite (a temporary file)",
        "matches": "quick, both seats human, no order ever given",
    }
    if args.baseline:
        result["baseline"] = _baseline(args.baseline, args.matches)
    result["this_build"] = measure(args.matches, baseline=False)
    result["machine"]["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    text = json.dumps(result, indent=1)
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
