"""The campaign API of the web arena (docs/web.md, Campaigns): create a campaign, read its view,
and a human lanista's actions, each one campaign step.

A human lanista holds a secret link `/campaign/{id}#t=TOKEN`: the token is stored only as its
hash (store.campaign_tokens) and opens his own seat in each arena match of his gladiators, so the
one link is all he needs. The view is public and never holds a token, the campaign's seed (which
foretells every die) or another lanista's sealed bids (L12).
"""

from __future__ import annotations

import asyncio
import re
import secrets
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from gladiator.campaign import CampaignError, CampaignState
from gladiator.campaign.driver import arena_lanistas, next_move
from gladiator.campaign.fights import fight_lanistas
from gladiator.campaign_service.fights import RULESET
from gladiator.campaign_service.service import state_of
from gladiator.server import security
from gladiator.server.campaign_catalogue import catalogue
from gladiator.server.campaign_runner import CampaignRunner, fight_match_id
from gladiator.server.correspondence import campaign_deadline
from gladiator.server.mail import MailPolicy, checked_address, may_mail
from gladiator.server.messages import DeadlineBody
from gladiator.store import StoredCampaign, StoreError, hash_token, new_token
from gladiator.store.stored import StoredDeadline

__all__ = ["ACTIONS", "CreateCampaignBody", "campaign_routes", "campaign_view"]

_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
ACTIONS = (
    "offer_odds",
    "buy_armour",
    "spend_xp",
    "bid",
    "ready",
    "offer_side_bet",
    "take_side_bet",
    "decline_side_bet",
    "withdraw_side_bet",
    "bot_fight",
    "set_unique",
    "buy_stable",
    "retire",
    "sell",
    "prefer_styles",
)
EVENTS_SHOWN = 30
READ_TRIES = 10
BodyOf = Callable[[Request, type[Any]], Awaitable[Any]]


class LanistaSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(min_length=1, max_length=40)]
    kind: Literal["human", "bot"] = "bot"
    # Where a human lanista's fight notices go (CP5, CP8); never shown back.
    email: Annotated[StrictStr, Field(max_length=254)] | None = None


class CreateCampaignBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(min_length=1, max_length=80)] = "Campaign"
    seed: Annotated[int, Field(ge=0, lt=2**63)] | None = None
    lanistas: Annotated[list[LanistaSpec], Field(min_length=1, max_length=8)]
    options: dict[str, Any] = Field(default_factory=dict)
    # Correspondence play (CP8): each human lanista's time for a decision and to be ready.
    deadline: DeadlineBody | None = None


class ActionBody(BaseModel):
    """A lanista's step: `kind` and its payload (checked by the campaign rules); `actor`, when
    given, must be the lanista the token is for."""

    model_config = ConfigDict(extra="allow")
    kind: str
    actor: str | None = None


def lanista_emails(
    lanistas: list[LanistaSpec], deadline: StoredDeadline | None, mail: MailPolicy | None
) -> dict[str, str]:
    """The human lanistas' addresses by lanista id (l1, l2, ...), checked as a match's are
    (CP5); ValueError (one line, never the address) for what is refused."""
    given = {f"l{i}": spec for i, spec in enumerate(lanistas, start=1) if spec.email}
    if not given:
        return {}
    may_mail(deadline, mail, "campaigns", "campaign")
    checked: dict[str, str] = {}
    for lid, spec in given.items():
        if spec.kind != "human":
            raise ValueError(f"lanista {spec.name}: a bot lanista gets no notices")
        checked[lid] = checked_address(f"lanista {spec.name}", spec.email or "")
    return checked


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _one_line(exc: Exception) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def campaign_view(
    state: CampaignState,
    ledgers: dict[str, list[dict[str, Any]]],
    steps: list[dict[str, Any]],
    you: str | None,
    running: dict[str, bool] | None = None,
    accounts: dict[str, int] | None = None,
) -> dict[str, Any]:
    """What anyone may see of a campaign, and `you`'s own sealed bids. `running`: the arena
    matches of fights now held by the server, each with whether it is over; `accounts`: every
    ledger account's balance (they sum to 0: the money is double-entry)."""
    running = running or {}
    fighting = {gid for bout in state.munus_bouts() for gid in bout.gladiators()}
    meta = state.meta
    move = next_move(state)
    lanistas = [
        {
            "id": lan.id,
            "name": lan.name,
            "kind": lan.kind,
            "purse": lan.purse,
            "out": lan.out,
            "ready": lan.id in meta.ready,
            "ledger": ledgers.get(lan.id, []),
        }
        for lan in state.lanistas.values()
    ]
    gladiators = [
        {
            "id": g.id,
            "lanista": g.lanista,
            "name": g.name,
            "status": g.status,
            **{k: getattr(g, k) for k in ("tr", "st", "ag", "cn", "w", "cf", "xp", "prestige")},
            "origin": g.origin,
            "talents": list(g.talents),
            "record": g.record.model_dump(),
            "bought_as": g.bought_as,
            "preferences": meta.preferences.get(g.id, []),
            "history": g.history,
        }
        for g in state.gladiators.values()
        if g.lanista is not None or g.status == "for_sale" or g.id in fighting
    ]
    bouts = []
    for bout in state.munus_bouts():
        fights = []
        ids = list(bout.matches) or [
            fight_match_id(meta.id, bout.id, n)
            for n in range(len(bout.fights))
            if fight_match_id(meta.id, bout.id, n) in running
        ]
        for index, match_id in enumerate(ids):
            over = bout.status == "settled" or running.get(match_id, False)
            fights.append(
                {
                    "match": match_id,
                    "over": over,
                    "seats": _seats_of(state, bout.id, index),
                }
            )
        bouts.append(
            {
                "id": bout.id,
                "type": bout.type,
                "sine_missione": bout.sine_missione,
                "sides": [s.model_dump() for s in bout.sides],
                "seats": bout.seats,
                "styles": bout.styles,
                "wager": bout.wager.model_dump() if bout.wager else None,
                "side_bets": [bet.model_dump() for bet in bout.side_bets],
                "bot_fights": list(bout.bot_fights),
                "unique": bout.unique.model_dump() if bout.unique else None,
                "armour": bout.armour,
                "status": bout.status,
                "outcome": bout.outcome,
                "matches": list(bout.matches),
                "fights": fights,
            }
        )
    lots = [
        {
            "gladiator": lot.gladiator,
            "seller": lot.seller,
            "your_bid": lot.bids.get(you) if you else None,
        }
        for lot in meta.lots
    ]
    return {
        "id": meta.id,
        "name": meta.name,
        "seq": meta.seq,
        "munus": meta.munus,
        "munera": meta.options.munera,
        "options": meta.options.model_dump(),
        "phase": meta.phase,
        "winner": meta.winner,
        "arena_size": meta.arena_size,
        "entries": meta.entries.get(you, None) if you else None,
        "waiting": list(move.waiting),
        "you": you,
        "lanistas": lanistas,
        "gladiators": gladiators,
        "bouts": bouts,
        "events": steps,
        "accounts": accounts or {},
        "timeline": [row.model_dump() for row in meta.timeline],
        "rules": catalogue(),
        "lots": lots,
    }


def _seats_of(state: CampaignState, bout_id: str, index: int) -> dict[str, str]:
    bout = state.bouts[bout_id]
    if index >= len(bout.seats):
        return {}
    players = arena_lanistas(state, bout)
    return {seat: lid for seat, lid in fight_lanistas(state, bout, index).items() if lid in players}


def _step_line(seq: int, kind: str, payload: dict[str, Any], at: str) -> dict[str, Any]:
    # The payload of a bout_result holds whole match reports: the view keeps the headline.
    names: tuple[str, ...] = ("actor", "bout", "gladiator", "odds", "amount", "bet", "stake")
    if kind == "bid":  # L12: bids are sealed until the auction; the view says only who bid
        names = ("actor", "gladiator")
    keep: dict[str, Any] = {k: payload[k] for k in names if k in payload}
    if "matches" in payload:
        keep["matches"] = payload["matches"]
    return {"seq": seq, "kind": kind, "at": at, **keep}


def campaign_routes(runner: CampaignRunner, check_origin: Any, body_of: BodyOf) -> list[BaseRoute]:
    """The routes of the campaign API, over `runner`'s store and hub."""
    service, tokens, store = runner.service, runner.tokens, runner.store.campaigns

    def campaign_id_of(request: Request) -> str:
        campaign_id = str(request.path_params["campaign_id"])
        if not _ID.match(campaign_id):
            raise security.NoMatch()
        return campaign_id

    async def lanista_of(campaign_id: str, token: str) -> str:
        lanista = await asyncio.to_thread(tokens.lanista_for, campaign_id, token)
        if lanista is False:
            raise security.WrongToken()
        return lanista

    async def read(campaign_id: str) -> StoredCampaign | None:
        # A read racing the runner's commit can see the campaign row and its steps at two
        # different steps (the store reads them in two statements): read again.
        for attempt in range(READ_TRIES):
            try:
                return await asyncio.to_thread(store.load_campaign, campaign_id)
            except StoreError:
                if attempt == READ_TRIES - 1:
                    raise
                await asyncio.sleep(0.05)
        return None

    async def load(campaign_id: str) -> CampaignState | None:
        stored = await read(campaign_id)
        return None if stored is None else state_of(stored)

    async def create(request: Request) -> Response:
        check_origin(request)
        body: CreateCampaignBody = await body_of(request, CreateCampaignBody)
        campaign_id = secrets.token_hex(8)
        lanistas: list[dict[str, Any]] = [
            {
                "id": f"l{i}",
                "name": spec.name,
                "kind": spec.kind,
                "bot": None if spec.kind == "human" else "steady",
            }
            for i, spec in enumerate(body.lanistas, start=1)
        ]
        step = {
            "kind": "create",
            "id": campaign_id,
            "name": body.name,
            "seed": body.seed if body.seed is not None else secrets.randbelow(2**62),
            "options": body.options,
            "lanistas": lanistas,
        }
        secret = {lan["id"]: new_token() for lan in lanistas if lan["kind"] == "human"}
        clock = body.deadline
        try:
            deadline = None
            if clock is not None:
                policy = runner.hub.deadlines
                deadline = campaign_deadline(RULESET, clock.seconds, clock.then, clock.bot, policy)
            emails = lanista_emails(body.lanistas, deadline, runner.hub.mail)
        except ValueError as exc:
            return _error(400, _one_line(exc))
        try:
            await asyncio.to_thread(service.create, step)
            hashes = {lid: hash_token(t) for lid, t in secret.items()}
            await asyncio.to_thread(tokens.add, campaign_id, hashes, emails)
            if deadline is not None:
                await asyncio.to_thread(runner.store.campaign_clocks.set, campaign_id, deadline)
        except CampaignError as exc:
            return _error(400, _one_line(exc))
        except StoreError as exc:
            return _error(503, _one_line(exc))
        runner.kick(campaign_id)
        base = f"{str(request.base_url).rstrip('/')}/campaign/{campaign_id}"
        out: dict[str, Any] = {}
        for lan in lanistas:
            entry: dict[str, Any] = {"name": lan["name"], "kind": lan["kind"]}
            if lan["id"] in secret:
                entry["link"] = f"{base}#t={secret[lan['id']]}"
            out[lan["id"]] = entry
        return JSONResponse({"id": campaign_id, "link": base, "lanistas": out}, status_code=201)

    async def view(request: Request) -> Response:
        campaign_id = campaign_id_of(request)
        token = security.bearer_token(request.headers.get("authorization"))
        if token is not None:
            check_origin(request)
        stored = await read(campaign_id)
        if stored is None:
            return _error(404, "no such campaign")
        state = state_of(stored)
        you = None if token is None else await lanista_of(campaign_id, token)
        lines = await asyncio.to_thread(store.ledger, campaign_id)
        ledgers: dict[str, list[dict[str, Any]]] = {}
        accounts: dict[str, int] = {}
        # The ledger is read after the state: a step committed in between is left out, so the
        # purses and the balances shown are of the same step.
        for line in (x for x in lines if x.seq <= state.meta.seq):
            accounts[line.account] = accounts.get(line.account, 0) + line.amount
            if line.account.startswith("lanista:"):
                ledgers.setdefault(line.account.removeprefix("lanista:"), []).append(
                    {"seq": line.seq, "amount": line.amount, "memo": line.memo}
                )
        steps = [
            _step_line(s.seq, s.kind, s.payload, s.at.isoformat())
            for s in stored.steps[-EVENTS_SHOWN:]
        ]
        prefix = f"{campaign_id}-"
        running = {
            mid: live.finish_stored
            for mid, live in runner.hub.live.items()
            if mid.startswith(prefix)
        }
        view = campaign_view(state, ledgers, steps[::-1], you, running, accounts)
        clock = await asyncio.to_thread(runner.store.campaign_clocks.deadline, campaign_id)
        if clock is not None:  # CP8: the lanistas it waits for are made ready at `due`
            view["deadline"] = {
                "seconds": clock.seconds,
                "due": stored.updated_at.timestamp() + clock.seconds,
            }
        return JSONResponse(view)

    async def act(request: Request) -> Response:
        check_origin(request)
        campaign_id = campaign_id_of(request)
        token = security.bearer_token(request.headers.get("authorization"))
        if token is None:
            return _error(401, "a lanista's token is required")
        if await load(campaign_id) is None:
            return _error(404, "no such campaign")
        lanista = await lanista_of(campaign_id, token)
        body: ActionBody = await body_of(request, ActionBody)
        if body.actor is not None and body.actor != lanista:
            return _error(403, f"this link acts for lanista {lanista}, not {body.actor}")
        if body.kind not in ACTIONS:
            return _error(400, f"a lanista's action is one of {', '.join(ACTIONS)}")
        step = {**body.model_dump(), "actor": lanista}
        async with runner.lock(campaign_id):
            try:
                result = await asyncio.to_thread(service.step, campaign_id, step)
            except CampaignError as exc:
                return _error(400, _one_line(exc))
            except StoreError as exc:
                return _error(409, _one_line(exc))
        runner.kick(campaign_id)
        return JSONResponse({"seq": result.state.meta.seq, "events": result.events})

    return [
        Route("/api/campaigns", create, methods=["POST"]),
        Route("/api/campaigns/{campaign_id}", view),
        Route("/api/campaigns/{campaign_id}/actions", act, methods=["POST"]),
    ]
