"""A campaign kept in the store: every step applied to the stored state and committed in one
transaction (its changed items, the step and its ledger entries together, or nothing).

The campaign package is pure: `apply_step(state, step)` gives the new state and the ledger
entries. This service loads the state from the store, applies the step, and commits the items the
step changed with `CampaignStore.commit_step`, which refuses a step whose seq is not the next (so
a step retried after a crash, or sent twice by two windows, is never applied twice). A refused
step (`CampaignError`, `StoreError`) writes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from gladiator.campaign import CampaignError, CampaignState, StepResult, apply_step, state_digest
from gladiator.campaign.driver import Move, next_move
from gladiator.campaign.fights import next_fight
from gladiator.campaign.state import Bout, Career, Lanista, Meta
from gladiator.campaign_service.fights import fight_seed, play_fight
from gladiator.store import CampaignStore, StoredCampaign

__all__ = [
    "CampaignService",
    "PlayBout",
    "PlayedBout",
    "StepWrite",
    "bot_fights",
    "docs_of",
    "move_step",
    "state_of",
    "step_write",
]

Doc = dict[str, Any]


@dataclass(frozen=True)
class PlayedBout:
    """A bout's fights as played: one campaign report per fight, and the stored arena match of
    each fight where they were kept (a replay for the campaign page), else none."""

    reports: list[dict[str, Any]]
    matches: list[str] = field(default_factory=list)


# Plays the fights of a bout (state, bout id).
PlayBout = Callable[[CampaignState, str], PlayedBout]


def _meta_doc(meta: Meta) -> Doc:
    return meta.model_dump(mode="json", by_alias=True)


def _bout_doc(bout: Bout) -> Doc:
    # The store indexes a bout's matches under "match_ids" (a web page finds the bout of a match).
    return {**bout.model_dump(mode="json"), "match_ids": list(bout.matches)}


def docs_of(state: CampaignState) -> tuple[Doc, list[Doc], list[Doc], list[Doc]]:
    """The state as the store keeps it: meta, lanistas, gladiators, bouts (plain JSON dicts)."""
    return (
        _meta_doc(state.meta),
        [lanista.model_dump(mode="json") for lanista in state.lanistas.values()],
        [career.model_dump(mode="json") for career in state.gladiators.values()],
        [_bout_doc(bout) for bout in state.bouts.values()],
    )


def _creation_order(item_id: str) -> tuple[str, int]:
    # Gladiators and bouts are numbered by one counter as they are made ("g12", "b7"): the
    # number is their order, which the rules' "in turn" loops follow (the store sorts by text).
    prefix = item_id.rstrip("0123456789")
    number = item_id[len(prefix) :]
    return prefix, int(number) if number else -1


def state_of(stored: StoredCampaign) -> CampaignState:
    """The campaign state from what the store holds (the reverse of `docs_of`), its items in
    the order they were made, as in the state that was stored: the same state, to the order of
    its stables, so a campaign loaded again goes on as it would have (L15)."""
    created = [str(e.get("id")) for e in stored.steps[0].payload.get("lanistas", [])]
    lanistas = sorted(
        stored.lanistas, key=lambda i: (created.index(i) if i in created else len(created), i)
    )
    bouts = {}
    for bid in sorted(stored.bouts, key=_creation_order):
        plain = {k: v for k, v in stored.bouts[bid].items() if k != "match_ids"}
        bouts[bid] = Bout.model_validate(plain)
    return CampaignState(
        meta=Meta.model_validate(stored.meta),
        lanistas={i: Lanista.model_validate(stored.lanistas[i]) for i in lanistas},
        gladiators={
            i: Career.model_validate(stored.gladiators[i])
            for i in sorted(stored.gladiators, key=_creation_order)
        },
        bouts=bouts,
    )


def _changed(before: Iterable[Doc], after: Iterable[Doc]) -> list[Doc]:
    old = {d["id"]: d for d in before}
    return [d for d in after if old.get(d["id"]) != d]


def _ledger(result: StepResult) -> list[tuple[str, int, str]]:
    return [(e.account, e.amount, e.memo) for e in result.ledger]


@dataclass(frozen=True)
class StepWrite:
    """What one applied step writes: the arguments of `CampaignStore.commit_step` (at seq 0,
    of `create_campaign`, with every item)."""

    seq: int
    kind: str
    payload: Doc
    meta: Doc
    lanistas: list[Doc]
    gladiators: list[Doc]
    bouts: list[Doc]
    ledger: list[tuple[str, int, str]]
    state_digest: str


def step_write(
    before: CampaignState | None, step: Mapping[str, Any], result: StepResult
) -> StepWrite:
    """The items `step` changed from `before` (None: the creation, every item), its ledger
    entries and the digest of the state after it."""
    old: tuple[Doc, list[Doc], list[Doc], list[Doc]] = (
        ({}, [], [], []) if before is None else docs_of(before)
    )
    new = docs_of(result.state)
    return StepWrite(
        seq=result.state.meta.seq,
        kind=str(step["kind"]),
        payload=dict(step),
        meta=new[0],
        lanistas=_changed(old[1], new[1]),
        gladiators=_changed(old[2], new[2]),
        bouts=_changed(old[3], new[3]),
        ledger=_ledger(result),
        state_digest=state_digest(result.state),
    )


def move_step(state: CampaignState, move: Move, play: PlayBout) -> dict[str, Any] | None:
    """The step a move takes: its own, or its bout's fights played by `play` (None: the
    campaign waits for a human lanista or is over)."""
    if move.fight is not None:
        played = play(state, move.fight)
        step: dict[str, Any] = {
            "kind": "bout_result",
            "bout": move.fight,
            "reports": played.reports,
        }
        if played.matches:
            step["matches"] = played.matches
        return step
    return move.step


class CampaignService:
    """Create, load and step campaigns in `store`."""

    def __init__(self, store: CampaignStore) -> None:
        self.store = store

    def create(self, step: Mapping[str, Any]) -> StepResult:
        """Step 0: a `create` step (id, name, seed, options, lanistas)."""
        result = apply_step(None, dict(step))
        write = step_write(None, step, result)
        self.store.create_campaign(
            result.state.meta.id,
            result.state.meta.name,
            result.state.meta.seed,
            write.meta,
            write.lanistas,
            write.gladiators,
            write.bouts,
            write.ledger,
            state_digest=write.state_digest,
            payload=write.payload,
        )
        return result

    def load(self, campaign_id: str) -> CampaignState:
        stored = self.store.load_campaign(campaign_id)
        if stored is None:
            raise CampaignError(f"there is no campaign {campaign_id!r}")
        return state_of(stored)

    def step(self, campaign_id: str, step: Mapping[str, Any]) -> StepResult:
        """Apply `step` to the stored campaign and commit it; refused steps write nothing."""
        state = self.load(campaign_id)
        return self.step_from(state, step)

    def step_from(self, state: CampaignState, step: Mapping[str, Any]) -> StepResult:
        """As `step`, from a state already loaded (the store still refuses it unless the state
        is the stored one: its seq must be the stored seq)."""
        result = apply_step(state, dict(step))
        write = step_write(state, step, result)
        self.store.commit_step(
            result.state.meta.id,
            write.seq,
            write.kind,
            write.payload,
            write.meta,
            write.lanistas,
            write.gladiators,
            write.bouts,
            write.ledger,
            write.state_digest,
        )
        return result

    def advance(
        self,
        campaign_id: str,
        play: PlayBout | None = None,
        *,
        humans_fight: frozenset[str] = frozenset(),
        max_steps: int | None = None,
        until_munus_closed: int | None = None,
        on_step: Callable[[dict[str, Any], StepResult], None] | None = None,
    ) -> Move:
        """Take the campaign's next moves (driver.next_move), each committed as its own step,
        until it waits for a human lanista or is over, or `max_steps` steps are taken, or
        `until_munus_closed` munera are closed; the move it stopped at is returned. Fights are
        played by `play` (default: bots in this process, seeded from the campaign)."""
        state = self.load(campaign_id)
        play = play or bot_fights(state.meta.seed)
        taken = closed = 0
        while True:
            move = next_move(state, humans_fight)
            if max_steps is not None and taken >= max_steps:
                return move
            if until_munus_closed is not None and closed >= until_munus_closed:
                return move
            step = move_step(state, move, play)
            if step is None:
                return move
            result = self.step_from(state, step)
            state = result.state
            taken += 1
            closed += step["kind"] == "munus_close"
            if on_step is not None:
                on_step(step, result)


def bot_fights(seed: int, bot: str = "tactician") -> PlayBout:
    """Plays every fight of a bout in this process with `bot` in every seat."""

    def play(state: CampaignState, bout_id: str) -> PlayedBout:
        reports: list[dict[str, Any]] = []
        bout = state.bouts[bout_id]
        while (options := next_fight(bout, reports)) is not None:
            reports.append(play_fight(options, fight_seed(seed, bout_id, len(reports)), bot).report)
        return PlayedBout(reports)

    return play
