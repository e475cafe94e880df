"""Reinforcement-learning environments for every ruleset: Gymnasium (`gym_env`), PettingZoo
(`pettingzoo_env`) and OpenSpiel (`openspiel_game`), over one `Episode` driver with the
observation encoders (`obs_*`) and action mappings (`action_map`, `vocabulary`) of docs/rulings.md
RL1-RL9.

Importing this package registers the Gymnasium ids `gladiator/Quick-v0`, `gladiator/Skirmish-v0`
and `gladiator/Colosseum-v0` (or `gymnasium.make("gladiator.rl:gladiator/Quick-v0")`).
"""

from __future__ import annotations

import gymnasium

__all__ = ["GYM_IDS"]

GYM_IDS = {
    "quick": "gladiator/Quick-v0",
    "skirmish": "gladiator/Skirmish-v0",
    "colosseum": "gladiator/Colosseum-v0",
}

for _ruleset, _id in GYM_IDS.items():
    if _id not in gymnasium.registry:
        gymnasium.register(
            id=_id, entry_point="gladiator.rl.gym_env:GladiatorEnv", kwargs={"ruleset": _ruleset}
        )
