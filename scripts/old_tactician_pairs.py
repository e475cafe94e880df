"""The tactician of an old checkout against this one, on duplicate deals in this build's engine
(issue 38's "the new tactician against today's"):

    uv run python scripts/old_tactician_pairs.py OLD_CHECKOUT '{"advanced": true}' 400

OLD_CHECKOUT holds the tactician as it was before issue 38 (bots/colosseum_tactician.py and
bots/tactician_advanced.py, e.g. `git worktree add OLD 670e1a9`). Its two modules are loaded as
a bot of this build ("tactician-old"), so only the bots differ, never the rules; the deals are
`sim --duplicate`'s (seed 38). Prints the pair scores as JSON."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path


def main(old: str, options: str, matches: int) -> None:
    src = Path(old) / "src" / "gladiator" / "bots"
    with tempfile.TemporaryDirectory() as tmp:
        package = Path(tmp) / "old_tactician"
        package.mkdir()
        (package / "__init__.py").write_text("")
        (package / "advanced.py").write_text((src / "tactician_advanced.py").read_text())
        bot = (
            (src / "colosseum_tactician.py")
            .read_text()
            .replace(
                "from gladiator.bots.tactician_advanced import",
                "from old_tactician.advanced import",
            )
        )
        (package / "bot.py").write_text(bot)
        sys.path.insert(0, tmp)
        print(json.dumps(_pairs(json.loads(options), matches)))


def _pairs(opts: dict[str, object], matches: int) -> dict[str, object]:
    from old_tactician.bot import TacticianBot  # type: ignore[import-not-found]

    from gladiator import bots
    from gladiator.sim.duplicate import pair_scores
    from gladiator.sim.runner import run_batch

    bots.BOTS["tactician-old"] = TacticianBot  # forked workers inherit it
    names = ["tactician", "tactician-old"]
    results = run_batch("colosseum", opts, matches, 38, names, jobs=2, duplicate=True)
    pairs = [p.to_dict() for p in pair_scores(results, names)]
    return {"options": opts, "matches": matches, "pairs": pairs}


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
