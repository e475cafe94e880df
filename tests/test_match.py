"""Tests for gladiator.core.match, gladiator.core.record and gladiator.registry.

`Match` is the checked layer over any ruleset: it is the one place that checks orders, keeps a
simultaneous decision's secret orders until every seat is in, and writes the record that replays
the match bit for bit. The toy ruleset in `toy_ruleset.py` drives it, with a secret simultaneous
pick for both seats each round and an occasional open decision for one seat.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from gladiator import registry
from gladiator.core.decisions import IllegalOrder
from gladiator.core.match import Match, NotYourTurn, ReplayMismatch
from gladiator.core.record import SCHEMA, SCHEMA_VERSION, MatchRecord, RecordError
from gladiator.core.seeding import commit
from toy_ruleset import ToyRules, pick_text

TOY = ToyRules()


def _play_out(match: Match, rng: random.Random, *, steps: int | None = None) -> None:
    """Submit random legal orders for the seats still waiting (through `submit`) until the end, or
    for `steps` decisions."""
    done = 0
    while not match.finished and (steps is None or done < steps):
        for seat in match.waiting_for():
            match.submit(seat, match.pending()[seat].sample(rng))
        done += 1


def _finished_match(seed: int = 5, *, target: int = 3) -> Match:
    match = Match(TOY, {"target": target}, seed=seed, nonce="n0nce")
    _play_out(match, random.Random(seed))
    assert match.finished
    return match


def _bonus_match() -> Match:
    """A match standing at the open, one-seat bonus decision (§T.4)."""
    for seed in range(200):
        match = Match(TOY, {"target": 5}, seed=seed, nonce="n")
        rng = random.Random(seed)
        while not match.finished:
            if len(match.pending()) == 1:
                return match
            _play_out(match, rng, steps=1)
    raise AssertionError("no toy match reached a bonus decision")


# -- the toy ruleset drives both decision shapes ---------------------------------------------


def test_toy_matches_exercise_secret_simultaneous_and_open_single_seat_decisions() -> None:
    """Across a few toy matches both shapes of decision occur, and every match ends."""
    shapes: set[tuple[int, bool]] = set()
    for seed in range(10):
        match = Match(TOY, {"target": 4}, seed=seed)
        rng = random.Random(seed)
        while not match.finished:
            pending = match.pending()
            shapes.add((len(pending), all(d.secret for d in pending.values())))
            _play_out(match, rng, steps=1)
        assert match.pending() == {}
        assert match.outcome is not None
    assert shapes == {(2, True), (1, False)}


# -- checked submission ----------------------------------------------------------------------


def test_submit_canonicalises_orders() -> None:
    """Orders are checked against the pending decision and kept in canonical text."""
    match = Match(TOY, seed=1)
    match.submit("A", "  a3 ")
    match.submit("B", "1")
    assert match.steps == [{"A": "A3", "B": "B1"}]


def test_submit_rejects_an_illegal_order_and_leaves_the_seat_free_to_retry() -> None:
    """An order the decision does not allow raises IllegalOrder listing the legal ones."""
    match = Match(TOY, seed=1)
    with pytest.raises(IllegalOrder) as info:
        match.submit("A", "A4")
    assert info.value.legal == ("A1", "A2", "A3")
    with pytest.raises(IllegalOrder):
        match.submit("A", "B1")  # the other seat's option
    assert match.waiting_for() == ["A", "B"]
    assert match.submit("A", "A2") == []


def test_submit_from_a_seat_with_nothing_to_decide_is_not_your_turn() -> None:
    """During one seat's open decision, the other seat (or a stranger) gets NotYourTurn."""
    match = _bonus_match()
    (deciding,) = match.pending()
    other = "B" if deciding == "A" else "A"
    with pytest.raises(NotYourTurn, match=f"{other} has nothing to decide now; waiting for"):
        match.submit(other, "BANK")
    with pytest.raises(NotYourTurn):
        match.submit("Z", "A1")
    match.submit(deciding, "bank")
    assert match.steps[-1] == {deciding: "BANK"}


def test_submitting_twice_for_one_decision_is_not_your_turn() -> None:
    """A seat that has already given its order for this decision cannot give another."""
    match = Match(TOY, seed=1)
    match.submit("A", "A1")
    with pytest.raises(NotYourTurn, match="already given an order"):
        match.submit("A", "A2")
    with pytest.raises(NotYourTurn):
        match.check("A", "A2")
    match.submit("B", "B2")
    assert match.steps == [{"A": "A1", "B": "B2"}]


def test_submitting_after_the_end_is_not_your_turn() -> None:
    """Once the match is over nobody may order anything."""
    match = _finished_match()
    with pytest.raises(NotYourTurn, match="the match is over"):
        match.submit("A", "A1")
    with pytest.raises(NotYourTurn):
        match.apply_step({"A": "A1", "B": "B1"})
    assert match.waiting_for() == []


def test_apply_step_must_name_exactly_the_pending_seats() -> None:
    """apply_step takes one order per pending seat, all checked, or none at all."""
    match = Match(TOY, seed=1)
    with pytest.raises(NotYourTurn, match="the decision is for"):
        match.apply_step({"A": "A1"})
    with pytest.raises(IllegalOrder):
        match.apply_step({"A": "A1", "B": "B9"})
    assert match.steps == []
    assert match.waiting_for() == ["A", "B"]
    events = match.apply_step({"A": "1", "B": "b3"})
    assert events and events[0]["type"] == "reveal"
    assert match.steps == [{"A": "A1", "B": "B3"}]


# -- simultaneous orders are buffered --------------------------------------------------------


def test_simultaneous_orders_are_buffered_until_every_seat_is_in() -> None:
    """The first secret order changes nothing (no roll, no event, same state); the last resolves."""
    match = Match(TOY, seed=3)
    hash_before = TOY.state_hash(match.state)
    rolls_before, events_before = len(match.rolls), len(match.events)
    assert match.submit("B", "B2") == []
    assert TOY.state_hash(match.state) == hash_before
    assert (len(match.rolls), len(match.events)) == (rolls_before, events_before)
    assert match.steps == []
    events = match.submit("A", "A1")
    assert events, "the last order resolves the step"
    assert match.events[-len(events) :] == events
    assert len(match.rolls) == rolls_before + 1
    assert match.steps == [{"A": "A1", "B": "B2"}]
    assert events[0]["picks"] == {"A": 1, "B": 2}


def test_waiting_for_and_submitted_lists_follow_submissions() -> None:
    """waiting_for names the seats still to order; views list who has submitted (not what)."""
    match = Match(TOY, seed=2)
    assert match.waiting_for() == ["A", "B"]
    assert match.view(None)["submitted"] == []
    match.submit("B", "B3")
    assert match.waiting_for() == ["A"]
    for seat in ("A", "B", None):
        view = match.view(seat)
        assert view["waiting_for"] == ["A"]
        assert view["submitted"] == ["B"]
    match.submit("A", "A3")
    assert match.view(None)["submitted"] == []
    assert set(match.view(None)["waiting_for"]) == set(match.pending())


# -- secrecy ---------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3])
def test_a_secret_order_is_invisible_to_the_other_seat_and_spectators(n: int) -> None:
    """After A submits, neither B's view nor a spectator's holds A's order; A's own view does."""
    match = Match(TOY, seed=4)
    canary = pick_text("A", n)
    match.submit("A", str(n))
    assert canary not in json.dumps(match.view("B"))
    assert canary not in json.dumps(match.view(None))
    assert "my_order" not in match.view("B")
    assert match.view("A")["my_order"] == canary
    assert canary in json.dumps(match.view("A"))
    # Nor does the record of the match so far, with or without the seed.
    assert canary not in match.record().to_json()
    assert canary not in match.record(reveal=True).to_json()


def test_secret_orders_stay_hidden_at_every_simultaneous_decision_of_a_match() -> None:
    """Throughout whole matches, whoever submits first, the pending order never leaks."""
    for seed in range(6):
        match = Match(TOY, {"target": 4}, seed=seed)
        rng = random.Random(seed)
        while not match.finished:
            pending = match.pending()
            if len(pending) == 2:
                first, second = rng.sample(sorted(pending), 2)
                order = match.pending()[first].sample(rng)
                match.submit(first, order)
                for viewer in (second, None):
                    assert order not in json.dumps(match.view(viewer))
                assert match.view(first)["my_order"] == order
            _play_out(match, rng, steps=1)


def test_view_shows_a_seat_its_own_decision_only() -> None:
    """A pending seat sees its decision as JSON; a spectator sees none."""
    match = Match(TOY, seed=4)
    assert match.view("A")["decision"]["kind"] == "choose"
    assert [o["text"] for o in match.view("A")["decision"]["options"]] == ["A1", "A2", "A3"]
    assert "decision" not in match.view(None)


def test_view_reveals_the_seed_only_after_the_end() -> None:
    """Views carry the seed commitment; the seed and nonce appear once the match is over."""
    match = Match(TOY, seed=12345, nonce="abc")
    view = match.view(None)
    assert view["seed_commitment"] == commit(12345, "abc")
    assert "seed" not in view and "nonce" not in view
    assert view["outcome"] is None
    _play_out(match, random.Random(0))
    view = match.view(None)
    assert view["seed"] == 12345 and view["nonce"] == "abc"
    assert match.outcome is not None
    assert view["outcome"] == match.outcome.to_dict()


# -- records and replay ----------------------------------------------------------------------


def test_record_round_trips_through_json_and_replays_identically() -> None:
    """record -> to_json -> from_json -> replay reproduces the rolls, events and final hash."""
    match = _finished_match(seed=21)
    record = match.record()
    loaded = MatchRecord.from_json(record.to_json())
    assert loaded.to_dict() == json.loads(record.to_json())
    replayed = Match.replay(loaded, TOY)
    assert replayed.finished
    assert replayed.rolls == match.rolls
    assert replayed.events == match.events
    assert replayed.steps == match.steps
    assert TOY.state_hash(replayed.state) == TOY.state_hash(match.state) == loaded.final_hash
    assert replayed.record().to_dict() == record.to_dict()


@pytest.mark.parametrize("seed", range(8))
def test_replay_reproduces_many_matches(seed: int) -> None:
    """Replaying is exact for a spread of seeds and match lengths."""
    match = _finished_match(seed=seed, target=2 + seed % 4)
    replayed = Match.replay(MatchRecord.from_json(match.record().to_json(indent=None)), TOY)
    assert replayed.record().to_json() == match.record().to_json()


def test_record_describes_the_match() -> None:
    """A record names the ruleset, its version, the options, the commitment and the outcome."""
    match = _finished_match(seed=8)
    data = json.loads(match.record().to_json())
    assert data["schema"] == SCHEMA and data["schema_version"] == SCHEMA_VERSION
    assert data["ruleset"] == "toy" and data["ruleset_version"] == 1
    assert data["options"] == {"target": 3, "max_rounds": 40}
    assert data["seed_commitment"] == commit(data["seed"], data["nonce"])
    assert match.outcome is not None
    assert data["outcome"] == match.outcome.to_dict()
    assert data["rolls"] == [r.to_dict() for r in match.rolls]
    assert data["events"][0]["type"] == "start"


def test_seed_is_hidden_in_the_record_until_the_end_unless_revealed() -> None:
    """Mid-match the record holds the commitment but not the seed; reveal=True shows it."""
    match = Match(TOY, seed=99, nonce="xyz")
    _play_out(match, random.Random(1), steps=2)
    assert not match.finished
    hidden = match.record()
    assert hidden.seed is None and hidden.nonce is None
    assert hidden.seed_commitment == commit(99, "xyz")
    assert hidden.outcome is None
    assert json.loads(hidden.to_json())["seed"] is None
    shown = match.record(reveal=True)
    assert (shown.seed, shown.nonce) == (99, "xyz")
    _play_out(match, random.Random(1))
    assert match.record().seed == 99
    assert match.record(reveal=False).seed is None


def test_an_unfinished_revealed_record_replays_to_the_same_point() -> None:
    """A record revealed mid-match replays to the same unfinished state."""
    match = Match(TOY, {"target": 6}, seed=7)
    _play_out(match, random.Random(7), steps=3)
    replayed = Match.replay(MatchRecord.from_json(match.record(reveal=True).to_json()), TOY)
    assert not replayed.finished
    assert TOY.state_hash(replayed.state) == TOY.state_hash(match.state)
    assert dict(replayed.pending()).keys() == dict(match.pending()).keys()


def _tampered(mutate: Callable[[dict[str, Any]], None], seed: int = 21) -> MatchRecord:
    data = json.loads(_finished_match(seed=seed).record().to_json())
    mutate(data)
    return MatchRecord.from_json(json.dumps(data))


def _other_pick(data: dict[str, Any]) -> None:
    step = data["steps"][0]
    n = int(step["A"][1:])
    step["A"] = pick_text("A", n % 3 + 1)


def _illegal_pick(data: dict[str, Any]) -> None:
    data["steps"][0]["A"] = "A9"


def _drop_last_step(data: dict[str, Any]) -> None:
    data["steps"].pop()


def _extra_step(data: dict[str, Any]) -> None:
    data["steps"].append({"A": "A1", "B": "B1"})


def _changed_face(data: dict[str, Any]) -> None:
    roll = data["rolls"][1]
    roll["faces"] = [roll["faces"][0] % 6 + 1]


def _changed_purpose(data: dict[str, Any]) -> None:
    data["rolls"][0]["for"] = "something else"


def _extra_roll(data: dict[str, Any]) -> None:
    data["rolls"].append(dict(data["rolls"][-1], n=len(data["rolls"])))


def _changed_seed(data: dict[str, Any]) -> None:
    data["seed"] += 1


def _changed_nonce(data: dict[str, Any]) -> None:
    data["nonce"] += "x"


def _changed_commitment(data: dict[str, Any]) -> None:
    data["seed_commitment"] = commit(data["seed"] + 1, data["nonce"])


def _changed_event(data: dict[str, Any]) -> None:
    data["events"][-1]["text"] += "!"


def _changed_outcome(data: dict[str, Any]) -> None:
    data["outcome"]["winners"] = ["A", "B"]


def _changed_hash(data: dict[str, Any]) -> None:
    data["final_hash"] = "0" * 64


def _newer_version(data: dict[str, Any]) -> None:
    data["ruleset_version"] = 2


@pytest.mark.parametrize(
    ("mutate", "fragment"),
    [
        (_other_pick, r"differ|step \d+"),
        (_illegal_pick, "step 0"),
        (_drop_last_step, r"differ|step \d+"),
        (_extra_step, "step"),
        (_changed_face, "dice differ from roll 1 on"),
        (_changed_purpose, "dice differ from roll 0 on"),
        (_extra_roll, "dice differ"),
        (_changed_seed, "does not match the published commitment"),
        (_changed_nonce, "does not match the published commitment"),
        (_changed_commitment, "does not match the published commitment"),
        (_changed_event, "events differ"),
        (_changed_outcome, "outcome differs"),
        (_changed_hash, "final state differs"),
        (_newer_version, "version 2"),
    ],
)
def test_replay_of_a_tampered_record_raises_replay_mismatch(
    mutate: Callable[[dict[str, Any]], None], fragment: str
) -> None:
    """Any change to orders, rolls, seed, events, outcome or final hash is caught on replay."""
    record = _tampered(mutate)
    with pytest.raises(ReplayMismatch, match=fragment) as info:
        Match.replay(record, TOY)
    assert "\n" not in str(info.value)


def test_replay_of_an_unrevealed_record_raises_replay_mismatch() -> None:
    """A record that hides its seed cannot be replayed."""
    record = MatchRecord.from_json(_finished_match().record(reveal=False).to_json())
    with pytest.raises(ReplayMismatch, match="does not reveal its seed"):
        Match.replay(record, TOY)


def test_replay_of_a_record_with_invalid_options_raises_record_error() -> None:
    """Options the ruleset rejects make the record unusable (RecordError, a ValueError)."""
    record = _tampered(lambda d: d["options"].update(target=0))
    with pytest.raises(RecordError, match="record options are invalid"):
        Match.replay(record, TOY)


def test_replay_rejects_a_record_of_another_ruleset() -> None:
    """A record that says it is for another ruleset must not replay as if it were this one."""
    record = _tampered(lambda d: d.update(ruleset="quick"))
    with pytest.raises(ValueError, match="quick"):
        Match.replay(record, TOY)


# -- loading corrupt records -----------------------------------------------------------------


def _valid_record_dict() -> dict[str, Any]:
    return json.loads(_finished_match(seed=2).record().to_json())


def _with(**changes: Any) -> str:
    data = _valid_record_dict()
    data.update(changes)
    return json.dumps(data)


def _without(key: str) -> str:
    data = _valid_record_dict()
    del data[key]
    return json.dumps(data)


def _corrupt_inputs() -> Iterator[Any]:
    yield pytest.param("{not json", "invalid JSON", id="not-json")
    yield pytest.param("", "invalid JSON", id="empty")
    yield pytest.param('{"schema": "gladiator.match-record",', "invalid JSON", id="truncated")
    yield pytest.param(b"\xff\xfe\x00\x00garbage", "not a match record", id="not-utf8")
    yield pytest.param("[1, 2, 3]", "schema marker", id="json-list")
    yield pytest.param("null", "schema marker", id="json-null")
    yield pytest.param('"a string"', "schema marker", id="json-string")
    yield pytest.param('{"schema": "other.format", "schema_version": 1}', "schema", id="other")
    yield pytest.param(_with(schema="gladiator.something-else"), "schema marker", id="schema")
    yield pytest.param(_with(schema_version=99), "version 99", id="version-99")
    yield pytest.param(_with(schema_version="1"), "version '1'", id="version-string")
    yield pytest.param(_without("schema_version"), "version None", id="no-version")
    for key in ("ruleset", "ruleset_version", "options", "seed_commitment", "steps", "rolls"):
        yield pytest.param(_without(key), f"missing the field '{key}'", id=f"missing-{key}")
    yield pytest.param(_with(ruleset=3), "'ruleset' should be str", id="ruleset-int")
    yield pytest.param(_with(ruleset_version="1"), "'ruleset_version' should be int", id="ver-str")
    yield pytest.param(_with(ruleset_version=True), "should be int", id="version-bool")
    yield pytest.param(_with(options=[]), "'options' should be dict", id="options-list")
    yield pytest.param(_with(seed="12"), "'seed' should be int", id="seed-str")
    yield pytest.param(_with(seed=1.5), "'seed' should be int", id="seed-float")
    yield pytest.param(_with(nonce=5), "'nonce' should be str", id="nonce-int")
    yield pytest.param(_with(steps={"A": "A1"}), "'steps' should be list", id="steps-dict")
    yield pytest.param(_with(rolls="none"), "'rolls' should be list", id="rolls-str")
    yield pytest.param(_with(outcome=[]), "'outcome' should be dict", id="outcome-list")
    yield pytest.param(_with(final_hash=0), "'final_hash' should be str", id="hash-int")
    yield pytest.param(_with(steps=[["A", "A1"]]), "step 0 is not a mapping", id="step-list")
    yield pytest.param(_with(steps=[{"A": 1}]), "step 0 is not a mapping", id="step-int-order")
    yield pytest.param(
        _with(steps=[{"A": "A1", "B": "B1"}, {"A": None}]), "step 1 is not", id="step-null"
    )
    yield pytest.param(_with(steps=["A1"]), "step 0 is not", id="step-str")


@pytest.mark.parametrize(("text", "fragment"), list(_corrupt_inputs()))
def test_from_json_rejects_corrupt_input_with_a_one_line_record_error(
    text: Any, fragment: str
) -> None:
    """Anything but a valid record raises RecordError (a ValueError) with a one-line message."""
    with pytest.raises(RecordError) as info:
        MatchRecord.from_json(text)
    err = info.value
    assert isinstance(err, ValueError)
    assert fragment in str(err)
    assert "\n" not in str(err)
    assert err.__cause__ is None


def test_from_json_accepts_records_without_optional_fields() -> None:
    """seed, nonce, outcome and final_hash are optional: absent reads as None."""
    data = _valid_record_dict()
    for key in ("seed", "nonce", "outcome", "final_hash"):
        del data[key]
    record = MatchRecord.from_json(json.dumps(data))
    assert record.seed is None and record.outcome is None and record.final_hash is None


def test_from_json_rejects_deeply_nested_json_with_record_error() -> None:
    """Pathologically nested JSON is corrupt input too, and must raise RecordError."""
    with pytest.raises(RecordError):
        MatchRecord.from_json("[" * 100_000 + "]" * 100_000)


# -- the registry ----------------------------------------------------------------------------


@pytest.fixture
def toy_registered() -> Iterator[ToyRules]:
    """The toy ruleset registered (with registry.register) for one test, and removed afterwards."""
    registry.get("quick")  # load the built-in ruleset first, so it stays registered
    rules = ToyRules()
    registry.register(rules)
    try:
        yield rules
    finally:
        registry.unregister(rules.name)


@pytest.mark.parametrize("name", ["quick", "QUICK", " Quick "])
def test_registry_get_finds_quick_case_insensitively(name: str) -> None:
    """get() loads a known ruleset on first use and ignores case and surrounding space."""
    rules = registry.get(name)
    assert rules.name == "quick"
    assert registry.get("quick") is rules
    assert "quick" in registry.names()


def test_registry_get_unknown_names_the_known_rulesets(toy_registered: ToyRules) -> None:
    """An unknown name raises UnknownRuleset, a ValueError listing every known ruleset."""
    with pytest.raises(registry.UnknownRuleset) as info:
        registry.get("nope")
    err = info.value
    assert isinstance(err, ValueError)
    assert err.name == "nope"
    assert "'nope'" in str(err)
    assert "quick" in str(err) and "toy" in str(err)


def test_registry_register_makes_a_ruleset_available_by_name(toy_registered: ToyRules) -> None:
    """A registered ruleset is listed and found by name, and a record of it replays via lookup."""
    assert "toy" in registry.names()
    assert registry.get("TOY") is toy_registered
    record = MatchRecord.from_json(_finished_match().record().to_json())
    replayed = Match.replay(record, registry.get(record.ruleset))
    assert replayed.finished


def test_registry_fixture_cleans_up() -> None:
    """Without the fixture the toy ruleset is not registered (tests do not leak state)."""
    assert "toy" not in registry.names()
