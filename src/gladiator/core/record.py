"""The match record: plain, versioned JSON from which a match is replayed bit for bit.

A record holds the ruleset, its options, the seed commitment (and, once revealed, the seed and
nonce), every order in the order it was applied, and, for checking, every roll, every event, the
outcome and the hash of the final state.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["SCHEMA", "SCHEMA_VERSION", "MatchRecord", "RecordError"]

SCHEMA = "gladiator.match-record"
SCHEMA_VERSION = 1


class RecordError(ValueError):
    """A record file that cannot be used: not JSON, another format, or missing fields."""


@dataclass
class MatchRecord:
    ruleset: str
    ruleset_version: int
    ruleset_digest: str
    options: dict[str, Any]
    seed_commitment: str
    seed: int | None = None
    nonce: str | None = None
    steps: list[dict[str, str]] = field(default_factory=list)
    rolls: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    outcome: dict[str, Any] | None = None
    final_hash: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "schema_version": SCHEMA_VERSION,
            "ruleset": self.ruleset,
            "ruleset_version": self.ruleset_version,
            "ruleset_digest": self.ruleset_digest,
            "options": self.options,
            "seed_commitment": self.seed_commitment,
            "seed": self.seed,
            "nonce": self.nonce,
            "steps": self.steps,
            "rolls": self.rolls,
            "events": self.events,
            "outcome": self.outcome,
            "final_hash": self.final_hash,
        }

    def to_json(self, *, indent: int | None = 1) -> str:
        return json.dumps(self.to_dict(), indent=indent, sort_keys=False)

    @classmethod
    def from_json(cls, text: str | bytes) -> MatchRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(
                f"not a match record: invalid JSON ({exc.msg} at line {exc.lineno})"
            ) from None
        except RecursionError:
            raise RecordError("not a match record: JSON nested too deeply") from None
        except UnicodeDecodeError:
            raise RecordError("not a match record: not UTF-8 text") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> MatchRecord:
        if not isinstance(data, Mapping) or data.get("schema") != SCHEMA:
            raise RecordError(f"not a match record: no {SCHEMA!r} schema marker")
        version = data.get("schema_version")
        if type(version) is not int or version != SCHEMA_VERSION:
            raise RecordError(
                f"match record schema version {version!r} is not supported "
                f"(this program reads version {SCHEMA_VERSION})"
            )
        try:
            rec = cls(
                ruleset=_typed(data, "ruleset", str),
                ruleset_version=_typed(data, "ruleset_version", int),
                ruleset_digest=_typed(data, "ruleset_digest", str),
                options=_typed(data, "options", dict),
                seed_commitment=_typed(data, "seed_commitment", str),
                seed=_optional(data, "seed", int),
                nonce=_optional(data, "nonce", str),
                steps=_typed(data, "steps", list),
                rolls=_typed(data, "rolls", list),
                events=_typed(data, "events", list),
                outcome=_optional(data, "outcome", dict),
                final_hash=_optional(data, "final_hash", str),
            )
        except KeyError as exc:
            raise RecordError(f"match record is missing the field {exc.args[0]!r}") from None
        for i, step in enumerate(rec.steps):
            if not isinstance(step, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in step.items()
            ):
                raise RecordError(f"match record step {i} is not a mapping of seat to order text")
        for name, items in (("rolls", rec.rolls), ("events", rec.events)):
            if not all(isinstance(x, dict) for x in items):
                raise RecordError(f"match record {name} must all be objects")
        return rec


def _typed(data: Mapping[str, Any], key: str, kind: type) -> Any:
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"match record field {key!r} should be {kind.__name__}")
    return value


def _optional(data: Mapping[str, Any], key: str, kind: type) -> Any:
    value = data.get(key)
    return None if value is None else _typed(data, key, kind)
