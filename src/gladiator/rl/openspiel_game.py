"""OpenSpiel games: `python_gladiator_quick`, `python_gladiator_skirmish` and
`python_gladiator_colosseum`, registered with pyspiel when this module is imported.

    import gladiator.rl.openspiel_game  # noqa: F401
    game = pyspiel.load_game("python_gladiator_skirmish", {"options": '{"max_turns": 10}'})

Parameters: `options`, the match options as a JSON object (default `{}`); `seed`, the first match
seed (default 0); `slots`, the Colosseum's candidate slots (0: the default). RL9:

* dynamics SIMULTANEOUS: at every node every player acts at once; the seats the ruleset has
  pending play their orders, every other player has one legal action, `pass` (the last index,
  `num_distinct_actions() - 1`), which does nothing. Action i < pass means what it means in the
  Gymnasium and PettingZoo environments (RL2, RL3).
* chance SAMPLED_STOCHASTIC: there are no chance nodes; each state carries the engine's own
  `Dice`, seeded with the game's `seed` parameter, and a clone copies the dice, so it throws
  what the original would. Every `new_initial_state()` of one game is the same match start
  (OpenSpiel builds clones from a new initial state, so a counter would shift with every
  clone); load the game with other seeds for other matches.
* utilities +1 for a winner, -1 for every other seat, 0 for all in a draw (RL7), at the end only.
* `observation_tensor` and `information_state_tensor` are both the seat's current observation
  from the ruleset's encoder (RL1): not perfect recall (a learner needing its history keeps
  it); the strings are the ruleset's text rendering for that seat.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from gladiator.rl.episode import Episode

__all__ = ["GAME_NAMES", "GladiatorGame", "GladiatorState"]

GAME_NAMES = {
    "quick": "python_gladiator_quick",
    "skirmish": "python_gladiator_skirmish",
    "colosseum": "python_gladiator_colosseum",
}
_MAX_SEATS = {"quick": 6, "skirmish": 6, "colosseum": 12}
# A bound for GameInfo only: every match ends by its own turn limit well before it.
MAX_GAME_LENGTH = 100_000


def _game_type(ruleset: str) -> Any:
    return pyspiel.GameType(
        short_name=GAME_NAMES[ruleset],
        long_name=f"Python GLADIATOR ({ruleset} rules)",
        dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=_MAX_SEATS[ruleset],
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification={"options": "{}", "seed": 0, "slots": 0},
    )


class GladiatorGame(pyspiel.Game):  # type: ignore[misc]
    ruleset = "quick"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        try:
            self.match_options = json.loads(str(params.get("options", "{}")))
        except json.JSONDecodeError as exc:
            raise ValueError(f"the 'options' parameter is not JSON: {exc}") from None
        self.first_seed = int(params.get("seed", 0))
        self.slots = int(params.get("slots", 0)) or None
        probe = Episode(self.ruleset, self.match_options, self.first_seed, slots=self.slots)
        self.seats = probe.seats
        self.pass_action = probe.n_actions
        self.obs_size = probe.obs_size
        super().__init__(
            _game_type(self.ruleset),
            pyspiel.GameInfo(
                num_distinct_actions=probe.n_actions + 1,
                max_chance_outcomes=0,
                num_players=len(self.seats),
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=None,
                max_game_length=MAX_GAME_LENGTH,
            ),
            params,
        )

    def new_initial_state(self) -> GladiatorState:
        ep = Episode(self.ruleset, self.match_options, self.first_seed, slots=self.slots)
        return GladiatorState(self, ep)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> GladiatorObserver:
        return GladiatorObserver(self.obs_size)


class GladiatorState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: GladiatorGame, episode: Episode) -> None:
        super().__init__(game)
        self.episode = episode
        self.seats = game.seats
        self.pass_action = game.pass_action

    def current_player(self) -> int:
        if self.episode.over:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(pyspiel.PlayerId.SIMULTANEOUS)

    def _legal_actions(self, player: int) -> list[int]:
        seat = self.seats[player]
        if seat not in self.episode.pending:
            return [self.pass_action]
        return [int(i) for i in np.flatnonzero(self.episode.mask(seat))]

    def _apply_actions(self, actions: list[int]) -> None:
        chosen = {s: int(a) for s, a in zip(self.seats, actions, strict=True)}
        self.episode.step({s: chosen[s] for s in self.episode.pending})

    def _action_to_string(self, player: int, action: int) -> str:
        if action == self.pass_action:
            return "pass"
        seat = self.seats[player]
        order = self.episode.menu(seat).orders[action] if seat in self.episode.pending else ""
        return f"{seat}:{order}" if order else f"{seat}:action {action}"

    def is_terminal(self) -> bool:
        return self.episode.over

    def returns(self) -> list[float]:
        if not self.episode.over:
            return [0.0] * len(self.seats)
        final = self.episode.final_rewards()
        return [final[s] for s in self.seats]

    def __str__(self) -> str:
        return self.episode.render(None)


class GladiatorObserver:
    """Observer (OpenSpiel's PyObserver interface): the ruleset's encoder, for either tensor."""

    def __init__(self, size: int) -> None:
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: GladiatorState, player: int) -> None:
        self.tensor[:] = state.episode.observe(state.seats[player])

    def string_from(self, state: GladiatorState, player: int) -> str:
        return state.episode.render(state.seats[player])


def _register() -> None:
    registered = set(pyspiel.registered_names())
    for ruleset, name in GAME_NAMES.items():
        if name in registered:
            continue
        cls = type(f"Gladiator{ruleset.title()}Game", (GladiatorGame,), {"ruleset": ruleset})
        pyspiel.register_game(_game_type(ruleset), cls)


_register()
