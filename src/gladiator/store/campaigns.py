"""`CampaignStore`: campaigns, their items, their steps and their double-entry ledger.

It takes and gives plain JSON dicts (it does not import gladiator.campaign). Every change is a
step, written in ONE transaction: the campaign's seq is claimed first by a conditional UPDATE
(`seq = seq - 1` or nothing), so a step repeated after a crash or sent twice at once is refused,
never doubled; then the items it changed, the step row and its ledger entries, which sum to 0.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine, func, insert, select, update
from sqlalchemy.orm import Session, sessionmaker

from gladiator.store.campaign_docs import (
    bout_fields,
    check_ledger,
    document_json,
    gladiator_fields,
    lanista_fields,
    unique_ids,
)
from gladiator.store.campaign_models import (
    BoutRow,
    CampaignRow,
    CampaignStepRow,
    GladiatorRow,
    LanistaRow,
    LedgerEntryRow,
)
from gladiator.store.engine import database_errors, open_engine, serialiser
from gladiator.store.errors import StoreError
from gladiator.store.schema import prepare_schema
from gladiator.store.stored_campaign import CampaignSummary, LedgerLine, StoredCampaign, StoredStep

__all__ = ["CampaignStore", "LedgerEntry"]

# (account, amount, memo), or a mapping with those keys
LedgerEntry = tuple[str, int, str] | Mapping[str, Any]
Doc = Mapping[str, Any]
_RACE = "another step of this campaign was stored at the same time"


def _now() -> datetime:
    return datetime.now(UTC)


def _utc(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _json_object(text: str, what: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise StoreError(f"{what} is not valid JSON") from None
    if not isinstance(value, dict):
        raise StoreError(f"{what} is not a JSON object")
    return value


class _Items:
    """The given items of one step, checked, as the rows to write."""

    def __init__(self, lanistas: Sequence[Doc], gladiators: Sequence[Doc], bouts: Sequence[Doc]):
        self.lanistas = [(lanista_fields(d), document_json(d, "lanista")) for d in lanistas]
        self.gladiators = [(gladiator_fields(d), document_json(d, "gladiator")) for d in gladiators]
        self.bouts = [(bout_fields(d), document_json(d, "bout")) for d in bouts]
        unique_ids([f[0] for f, _ in self.lanistas], "lanista")
        unique_ids([f[0] for f, _ in self.gladiators], "gladiator")
        unique_ids([f[0] for f, _ in self.bouts], "bout")

    def write(self, conn: Connection, campaign_id: str, seq: int) -> None:
        self._check_lanistas_exist(conn, campaign_id)
        lanistas = [
            {"id": i, "name": name, "kind": kind, "doc": doc}
            for (i, name, kind), doc in self.lanistas
        ]
        gladiators = [
            {"id": i, "lanista_id": lanista, "status": status, "doc": doc}
            for (i, lanista, status), doc in self.gladiators
        ]
        bouts = [
            {"id": i, "munus": munus, "status": status, "match_ids": json.dumps(m), "doc": doc}
            for (i, munus, status, m), doc in self.bouts
        ]
        # Lanistas first: a gladiator's row refers to his lanista's.
        for row_type, values in (
            (LanistaRow, lanistas),
            (GladiatorRow, gladiators),
            (BoutRow, bouts),
        ):
            _upsert(conn, row_type, campaign_id, seq, values)

    def _check_lanistas_exist(self, conn: Connection, campaign_id: str) -> None:
        named = {lanista for (_, lanista, _), _ in self.gladiators if lanista is not None}
        named -= {f[0] for f, _ in self.lanistas}
        if not named:
            return
        known = set(
            conn.scalars(
                select(LanistaRow.id).where(
                    LanistaRow.campaign_id == campaign_id, LanistaRow.id.in_(named)
                )
            )
        )
        for gladiator_id, lanista, _ in (f for f, _ in self.gladiators):
            if lanista is not None and lanista in named - known:
                raise StoreError(f"gladiator {gladiator_id} belongs to no lanista {lanista!r}")


def _upsert(
    conn: Connection,
    row_type: type[LanistaRow] | type[GladiatorRow] | type[BoutRow],
    campaign_id: str,
    seq: int,
    values: list[dict[str, Any]],
) -> None:
    if not values:
        return
    existing = set(
        conn.scalars(
            select(row_type.id).where(
                row_type.campaign_id == campaign_id, row_type.id.in_([v["id"] for v in values])
            )
        )
    )
    fresh = [
        {**v, "campaign_id": campaign_id, "seq": seq} for v in values if v["id"] not in existing
    ]
    for v in values:
        if v["id"] in existing:
            conn.execute(
                update(row_type)
                .where(row_type.campaign_id == campaign_id, row_type.id == v["id"])
                .values(**{k: x for k, x in v.items() if k != "id"}, seq=seq)
            )
    if fresh:
        conn.execute(insert(row_type), fresh)


def _snapshot(session: Session) -> None:
    """Make the session's reads one snapshot, so a load never mixes a campaign's rows from
    before and after a step another thread or process commits meanwhile. SQLite's driver
    begins a transaction only before a write, so each read would see the latest commit: begin
    one now (WAL keeps its snapshot). PostgreSQL's READ COMMITTED reads each statement anew:
    REPEATABLE READ reads them all as of the first."""
    conn = session.connection()
    if conn.dialect.name == "sqlite":
        conn.exec_driver_sql("BEGIN")
    elif conn.dialect.name == "postgresql":
        conn.exec_driver_sql("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")


class CampaignStore:
    """Campaigns in the store's database; `Store(url).campaigns` shares a Store's connections."""

    def __init__(self, url: str = "sqlite:///gladiator.db") -> None:
        engine = open_engine(url)
        try:
            prepare_schema(engine)
        except BaseException:
            engine.dispose()
            raise
        self._setup(engine, serialiser(engine), owns=True)

    @classmethod
    def sharing(cls, engine: Engine, lock: AbstractContextManager[Any]) -> CampaignStore:
        """A CampaignStore on an Engine whose schema is already prepared (a Store's)."""
        store = cls.__new__(cls)
        store._setup(engine, lock, owns=False)
        return store

    def _setup(self, engine: Engine, lock: AbstractContextManager[Any], *, owns: bool) -> None:
        self._engine = engine
        self._lock = lock
        self._owns = owns
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    def close(self) -> None:
        if self._owns:
            self._engine.dispose()

    def __enter__(self) -> CampaignStore:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    @contextmanager
    def _session(
        self, what: str, *, conflict: str | None = None, refusals: bool = False
    ) -> Iterator[Session]:
        """One transaction, committed on leaving; any error rolls all of it back. With
        `refusals`, a StoreError raised inside is prefixed with `what`."""
        with (
            self._lock,
            database_errors(what, conflict=conflict),
            self._sessions.begin() as session,
        ):
            try:
                yield session
            except StoreError as exc:
                if not refusals:
                    raise
                raise StoreError(f"{what}: {exc}") from None

    # -- writing -----------------------------------------------------------------------------
    def create_campaign(
        self,
        campaign_id: str,
        name: str,
        seed: int,
        meta: Doc,
        lanistas: Sequence[Doc],
        gladiators: Sequence[Doc],
        bouts: Sequence[Doc],
        ledger: Sequence[LedgerEntry],
        *,
        state_digest: str = "",
        payload: Doc | None = None,
    ) -> None:
        """Store a new campaign at seq 0: its items, step 0 ("create") and its opening ledger."""
        what = f"cannot create campaign {campaign_id}"
        if not campaign_id or len(campaign_id) > 64:
            raise StoreError(f"{what}: a campaign id has 1 to 64 characters")
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
            raise StoreError(f"{what}: the seed must be a whole number 0..2**63-1, not {seed!r}")
        step = self._checked_step(what, "create", payload or {}, meta, ledger, state_digest)
        items = self._checked_items(what, lanistas, gladiators, bouts)
        exists = "a campaign with that id already exists"
        with self._session(what, conflict=exists, refusals=True) as session:
            if session.get(CampaignRow, campaign_id) is not None:
                raise StoreError(exists)
            now = _now()
            session.execute(
                insert(CampaignRow).values(
                    id=campaign_id,
                    name=name,
                    seed=seed,
                    seq=0,
                    meta=step["meta"],
                    created_at=now,
                    updated_at=now,
                )
            )
            self._write_step(session.connection(), campaign_id, 0, step, items, now)

    def commit_step(
        self,
        campaign_id: str,
        seq: int,
        kind: str,
        payload: Doc,
        meta: Doc,
        lanistas: Sequence[Doc],
        gladiators: Sequence[Doc],
        bouts: Sequence[Doc],
        ledger: Sequence[LedgerEntry],
        state_digest: str,
    ) -> None:
        """Apply step `seq` in one transaction: the campaign's new meta, the items the step
        changed (upserted), the step row and its ledger entries. Refused (StoreError, nothing
        written) unless the stored seq is `seq - 1` and the entries sum to 0."""
        what = f"cannot store step {seq} of campaign {campaign_id}"
        if not isinstance(seq, int) or isinstance(seq, bool) or not 1 <= seq < 2**31:
            raise StoreError(f"{what}: a step's seq is a whole number from 1")
        step = self._checked_step(what, kind, payload, meta, ledger, state_digest)
        items = self._checked_items(what, lanistas, gladiators, bouts)
        with self._session(what, conflict=_RACE, refusals=True) as session:
            now = _now()
            # Claiming the seq is the transaction's first write: it takes the row lock
            # (PostgreSQL) or the database's write lock (SQLite) before anything is read.
            claimed = session.connection().execute(
                update(CampaignRow)
                .where(CampaignRow.id == campaign_id, CampaignRow.seq == seq - 1)
                .values(seq=seq, meta=step["meta"], updated_at=now)
            )
            if claimed.rowcount != 1:
                stored = session.scalar(
                    select(CampaignRow.seq).where(CampaignRow.id == campaign_id)
                )
                if stored is None:
                    raise StoreError("there is no such campaign")
                if seq <= stored:
                    raise StoreError(f"step {seq} is already stored (the campaign is at {stored})")
                raise StoreError(f"the campaign is at step {stored}: the next step is {stored + 1}")
            self._write_step(session.connection(), campaign_id, seq, step, items, now)

    @staticmethod
    def _checked_step(
        what: str, kind: str, payload: Doc, meta: Doc, ledger: Sequence[LedgerEntry], digest: str
    ) -> dict[str, Any]:
        try:
            if not isinstance(kind, str) or not kind or len(kind) > 64:
                raise StoreError(f"a step's kind has 1 to 64 characters, not {kind!r}")
            if not isinstance(payload, Mapping) or not isinstance(meta, Mapping):
                raise StoreError("a step's payload and meta are JSON objects")
            if not isinstance(digest, str) or len(digest) > 128:
                raise StoreError("a state digest is text of at most 128 characters")
            return {
                "kind": kind,
                "payload": document_json(payload, "step payload"),
                "meta": document_json(meta, "campaign meta"),
                "ledger": check_ledger(ledger),
                "digest": digest,
            }
        except StoreError as exc:
            raise StoreError(f"{what}: {exc}") from None

    @staticmethod
    def _checked_items(
        what: str, lanistas: Sequence[Doc], gladiators: Sequence[Doc], bouts: Sequence[Doc]
    ) -> _Items:
        try:
            return _Items(lanistas, gladiators, bouts)
        except StoreError as exc:
            raise StoreError(f"{what}: {exc}") from None

    @staticmethod
    def _write_step(
        conn: Connection,
        campaign_id: str,
        seq: int,
        step: dict[str, Any],
        items: _Items,
        now: datetime,
    ) -> None:
        conn.execute(
            insert(CampaignStepRow).values(
                campaign_id=campaign_id,
                seq=seq,
                kind=step["kind"],
                payload=step["payload"],
                state_digest=step["digest"],
                at=now,
            )
        )
        items.write(conn, campaign_id, seq)
        if step["ledger"]:
            conn.execute(
                insert(LedgerEntryRow),
                [
                    {"campaign_id": campaign_id, "seq": seq, "account": a, "amount": n, "memo": m}
                    for a, n, m in step["ledger"]
                ],
            )

    # -- reading -----------------------------------------------------------------------------
    def seq(self, campaign_id: str) -> int | None:
        """The last step stored, or None when there is no such campaign."""
        with self._session(f"cannot read campaign {campaign_id}") as session:
            return session.scalar(select(CampaignRow.seq).where(CampaignRow.id == campaign_id))

    def load_campaign(self, campaign_id: str) -> StoredCampaign | None:
        """The campaign as stored, or None; StoreError if its rows are broken."""
        where = f"campaign {campaign_id}"
        with self._session(f"cannot load campaign {campaign_id}") as session:
            _snapshot(session)
            row = session.get(CampaignRow, campaign_id)
            if row is None:
                return None
            steps = session.scalars(
                select(CampaignStepRow)
                .where(CampaignStepRow.campaign_id == campaign_id)
                .order_by(CampaignStepRow.seq)
            ).all()
            unbalanced = session.execute(
                select(LedgerEntryRow.seq, func.sum(LedgerEntryRow.amount))
                .where(LedgerEntryRow.campaign_id == campaign_id)
                .group_by(LedgerEntryRow.seq)
                .having(func.sum(LedgerEntryRow.amount) != 0)
                .order_by(LedgerEntryRow.seq)
            ).first()
            docs = {
                name: {
                    item_id: _json_object(doc, f"{where}: {name[:-1]} {item_id}")
                    for item_id, doc in session.execute(
                        select(table.id, table.doc)
                        .where(table.campaign_id == campaign_id)
                        .order_by(table.id)
                    )
                }
                for name, table in (
                    ("lanistas", LanistaRow),
                    ("gladiators", GladiatorRow),
                    ("bouts", BoutRow),
                )
            }
        for expected, step in enumerate(steps):
            if step.seq != expected:
                raise StoreError(f"{where}: step {expected} is missing (next stored is {step.seq})")
        if len(steps) != row.seq + 1:
            raise StoreError(f"{where}: it is at step {row.seq} but {len(steps)} steps are stored")
        if unbalanced is not None:
            raise StoreError(
                f"{where}: the ledger entries of step {unbalanced[0]} sum to {unbalanced[1]}, not 0"
            )
        return StoredCampaign(
            id=row.id,
            name=row.name,
            seed=row.seed,
            seq=row.seq,
            meta=_json_object(row.meta, f"{where}: its meta"),
            lanistas=docs["lanistas"],
            gladiators=docs["gladiators"],
            bouts=docs["bouts"],
            steps=tuple(
                StoredStep(
                    seq=s.seq,
                    kind=s.kind,
                    payload=_json_object(s.payload, f"{where}: the payload of step {s.seq}"),
                    state_digest=s.state_digest,
                    at=_utc(s.at),
                )
                for s in steps
            ),
            created_at=_utc(row.created_at),
            updated_at=_utc(row.updated_at),
        )

    def balances(self, campaign_id: str) -> dict[str, int]:
        """Every account's balance (the sum of its entries), by account name."""
        with self._session(f"cannot read the ledger of campaign {campaign_id}") as session:
            rows = session.execute(
                select(LedgerEntryRow.account, func.sum(LedgerEntryRow.amount))
                .where(LedgerEntryRow.campaign_id == campaign_id)
                .group_by(LedgerEntryRow.account)
                .order_by(LedgerEntryRow.account)
            ).all()
        return {str(account): int(total) for account, total in rows}

    def ledger(self, campaign_id: str, account: str | None = None) -> list[LedgerLine]:
        """The entries in the order written, of one account (a lanista's statement) or all."""
        query = select(LedgerEntryRow).where(LedgerEntryRow.campaign_id == campaign_id)
        if account is not None:
            query = query.where(LedgerEntryRow.account == account)
        with self._session(f"cannot read the ledger of campaign {campaign_id}") as session:
            rows = session.scalars(query.order_by(LedgerEntryRow.seq, LedgerEntryRow.id)).all()
        return [LedgerLine(r.seq, r.account, r.amount, r.memo) for r in rows]

    def gladiators_of(self, campaign_id: str, lanista_id: str | None) -> list[dict[str, Any]]:
        """A lanista's gladiators (None: the house's), dead and retired ones too, by id."""
        what = f"cannot read the gladiators of campaign {campaign_id}"
        owner = (
            GladiatorRow.lanista_id.is_(None)
            if lanista_id is None
            else GladiatorRow.lanista_id == lanista_id
        )
        with self._session(what) as session:
            rows = session.execute(
                select(GladiatorRow.id, GladiatorRow.doc)
                .where(GladiatorRow.campaign_id == campaign_id, owner)
                .order_by(GladiatorRow.id)
            ).all()
            return [_json_object(doc, f"campaign {campaign_id}: gladiator {i}") for i, doc in rows]

    def bouts_of(self, campaign_id: str, munus: int) -> list[dict[str, Any]]:
        """The bouts of one munus, by id."""
        with self._session(f"cannot read the bouts of campaign {campaign_id}") as session:
            rows = session.execute(
                select(BoutRow.id, BoutRow.doc)
                .where(BoutRow.campaign_id == campaign_id, BoutRow.munus == munus)
                .order_by(BoutRow.id)
            ).all()
            return [_json_object(doc, f"campaign {campaign_id}: bout {i}") for i, doc in rows]

    def list_campaigns(self, *, limit: int = 100) -> list[CampaignSummary]:
        """The newest campaigns first, with their lanistas; never a seed."""
        if limit < 1:
            raise StoreError(f"the limit must be at least 1, not {limit}")
        with self._session("cannot list the campaigns") as session:
            rows = session.scalars(
                select(CampaignRow)
                .order_by(CampaignRow.created_at.desc(), CampaignRow.id)
                .limit(limit)
            ).all()
            lanistas: dict[str, list[tuple[str, str, str]]] = {r.id: [] for r in rows}
            for campaign_id, lanista_id, name, kind in session.execute(
                select(LanistaRow.campaign_id, LanistaRow.id, LanistaRow.name, LanistaRow.kind)
                .where(LanistaRow.campaign_id.in_(list(lanistas)))
                .order_by(LanistaRow.campaign_id, LanistaRow.id)
            ):
                lanistas[campaign_id].append((lanista_id, name, kind))
        return [
            CampaignSummary(
                id=r.id,
                name=r.name,
                seq=r.seq,
                created_at=_utc(r.created_at),
                updated_at=_utc(r.updated_at),
                lanistas=tuple(lanistas[r.id]),
            )
            for r in rows
        ]
