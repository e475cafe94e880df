"""Batch results as Parquet: one row per match, the batch's description in the file's metadata.

A batch kept on disk is a folder: `batch.json` (what was asked: ruleset, options, bots, seed,
how many matches) and `part-*.parquet` files, each holding some finished matches. A part is
written whole (to a temporary name, then renamed), so a batch stopped at any moment loses at most
the matches in flight, and `done_indices` tells a resumed batch what is left to play. A single
`.parquet` file with the same columns is read the same way.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from gladiator.sim.runner import MatchSummary

__all__ = [
    "SCHEMA",
    "SCHEMA_NAME",
    "SCHEMA_VERSION",
    "BatchMeta",
    "BatchMismatch",
    "done_indices",
    "from_table",
    "open_batch",
    "read_results",
    "to_table",
    "write_part",
]

SCHEMA_NAME = "gladiator.sim.results"
SCHEMA_VERSION = 1
_META_KEY = b"gladiator.batch"

SCHEMA = pa.schema(
    [
        pa.field("index", pa.int64(), nullable=False),
        pa.field("seed", pa.int64(), nullable=False),
        pa.field("seats", pa.list_(pa.string()), nullable=False),
        pa.field("labels", pa.list_(pa.string()), nullable=False),  # parallel to seats
        pa.field("facets", pa.string(), nullable=False),  # JSON: seat -> {facet: value}
        pa.field("winners", pa.list_(pa.string()), nullable=False),
        pa.field("method", pa.string(), nullable=False),
        pa.field("steps", pa.int32(), nullable=False),
        pa.field("rounds", pa.int32(), nullable=False),
        pa.field("dice", pa.int64(), nullable=False),
    ]
)


class BatchMismatch(ValueError):
    """A batch folder asked to resume with a different ruleset, options, bots or seed."""


@dataclass(frozen=True)
class BatchMeta:
    """What a batch plays: enough to play the rest of it, or to check a resume asks the same."""

    ruleset: str
    options: dict[str, Any]
    bots: list[str]
    seed: int
    matches: int
    schema: str = SCHEMA_NAME
    schema_version: int = SCHEMA_VERSION
    extra: dict[str, Any] = field(default_factory=dict)
    duplicate: bool = False  # matches 2k and 2k + 1 play one deal, the bots swapped (duplicate.py)

    def same_batch(self, other: BatchMeta) -> bool:
        return not self.differences(other)

    def differences(self, other: BatchMeta) -> list[str]:
        """What makes `other` another batch, as "seed 3 here, 4 there" phrases. Compared as
        JSON, so that options read back from a file (lists) equal options given (tuples)."""
        out = []
        for key in ("ruleset", "options", "bots", "seed", "duplicate"):
            mine, theirs = _canonical(getattr(self, key)), _canonical(getattr(other, key))
            if mine != theirs:
                out.append(f"{key} {mine} here, {theirs} there")
        return out

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> BatchMeta:
        try:
            d = json.loads(text)
            if d.get("schema") != SCHEMA_NAME:
                raise ValueError(f"not a {SCHEMA_NAME} description")
            if int(d.get("schema_version", 0)) > SCHEMA_VERSION:
                raise ValueError(
                    f"written by a newer gladiator (schema version {d['schema_version']})"
                )
            return cls(
                ruleset=str(d["ruleset"]),
                options=dict(d["options"]),
                bots=[str(b) for b in d["bots"]],
                seed=int(d["seed"]),
                matches=int(d["matches"]),
                schema_version=int(d["schema_version"]),
                extra=dict(d.get("extra", {})),
                duplicate=bool(d.get("duplicate", False)),
            )
        except (KeyError, TypeError, json.JSONDecodeError) as exc:
            raise ValueError(f"unreadable batch description: {exc}") from None


def _canonical(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        return ",".join(value)
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def to_table(summaries: Sequence[MatchSummary], meta: BatchMeta | None = None) -> pa.Table:
    seats = [list(s.labels) for s in summaries]
    table = pa.table(
        {
            "index": [s.index for s in summaries],
            "seed": [s.seed for s in summaries],
            "seats": seats,
            "labels": [[s.labels[k] for k in ks] for s, ks in zip(summaries, seats, strict=True)],
            "facets": [json.dumps(s.facets, sort_keys=True) for s in summaries],
            "winners": [list(s.winners) for s in summaries],
            "method": [s.method for s in summaries],
            "steps": [s.steps for s in summaries],
            "rounds": [s.rounds for s in summaries],
            "dice": [s.dice for s in summaries],
        },
        schema=SCHEMA,
    )
    if meta is not None:
        table = table.replace_schema_metadata({_META_KEY: meta.to_json().encode()})
    return table


def from_table(table: pa.Table) -> list[MatchSummary]:
    missing = [f.name for f in SCHEMA if f.name not in table.column_names]
    if missing:
        raise ValueError(f"not a results table: no column {', '.join(missing)}")
    cols = {name: table.column(name).to_pylist() for name in SCHEMA.names}
    out = []
    for i in range(table.num_rows):
        out.append(
            MatchSummary(
                index=int(cols["index"][i]),
                seed=int(cols["seed"][i]),
                winners=tuple(cols["winners"][i]),
                method=str(cols["method"][i]),
                labels=dict(zip(cols["seats"][i], cols["labels"][i], strict=True)),
                steps=int(cols["steps"][i]),
                rounds=int(cols["rounds"][i]),
                dice=int(cols["dice"][i]),
                facets=json.loads(cols["facets"][i]),
            )
        )
    return out


def write_part(folder: Path, summaries: Sequence[MatchSummary], meta: BatchMeta) -> Path:
    """Write finished matches as one part of the batch in `folder`, atomically."""
    indices = [s.index for s in summaries]
    name = f"part-{min(indices):07d}-{max(indices):07d}.parquet"
    final = folder / name
    tmp = folder / f".{name}.{os.getpid()}.tmp"
    pq.write_table(to_table(summaries, meta), tmp)
    os.replace(tmp, final)
    return final


def open_batch(folder: Path, meta: BatchMeta) -> BatchMeta:
    """Start the batch in `folder`, or check that the batch already there is this one."""
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"{folder} is a file, not a batch folder")
    folder.mkdir(parents=True, exist_ok=True)
    desc = folder / "batch.json"
    if desc.exists():
        try:
            old = BatchMeta.from_json(desc.read_text())
        except ValueError as exc:
            raise ValueError(f"{desc}: {exc}") from None
        diff = meta.differences(old)
        if diff:
            raise BatchMismatch(
                f"{folder} holds another batch ({'; '.join(diff)}): "
                "use a new folder to play this one"
            )
        if old.matches >= meta.matches:
            return old
    elif _parts(folder):
        raise ValueError(f"{folder} holds result parts but no batch.json: not a batch folder")
    tmp = folder / f".batch.json.{os.getpid()}.tmp"
    tmp.write_text(meta.to_json())
    os.replace(tmp, desc)
    return meta


def _parts(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("part-*.parquet") if p.is_file())


def done_indices(folder: Path) -> set[int]:
    """The match indices already written in `folder` (reading only that column)."""
    done: set[int] = set()
    for part in _parts(folder):
        done.update(pq.read_table(part, columns=["index"]).column("index").to_pylist())
    return done


def read_results(path: Path) -> tuple[BatchMeta | None, list[MatchSummary]]:
    """A batch folder or one Parquet file: its description (if kept) and its matches by index.
    A match found twice (two overlapping parts of a resumed batch) counts once."""
    try:
        if path.is_dir():
            desc = path / "batch.json"
            meta = BatchMeta.from_json(desc.read_text()) if desc.exists() else None
            tables: Iterable[pa.Table] = [pq.read_table(p) for p in _parts(path)]
        else:
            table = pq.read_table(path)
            raw = (table.schema.metadata or {}).get(_META_KEY)
            meta = BatchMeta.from_json(raw.decode()) if raw else None
            tables = [table]
    except (OSError, pa.ArrowException) as exc:
        raise ValueError(f"cannot read results from {path}: {exc}") from None
    by_index: dict[int, MatchSummary] = {}
    for t in tables:
        for s in from_table(t):
            by_index.setdefault(s.index, s)
    return meta, [by_index[i] for i in sorted(by_index)]
