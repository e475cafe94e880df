"""The client's messages and HTTP bodies (pydantic at the edge), and the server's messages.

Everything a client sends is checked here before the hub sees it: unknown fields are refused
(`extra="forbid"`), an order is at most 500 characters, a client's message id at most 64.
Server messages are plain dicts built by the functions below, so their shape lives in one place
(docs/web.md, "Websocket").
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
)

__all__ = [
    "MAX_ORDER",
    "ClientMessage",
    "CreateMatchBody",
    "DeadlineBody",
    "Hello",
    "OrderBody",
    "OrderMessage",
    "Ping",
    "PreviewBody",
    "ResendBody",
    "ack",
    "clock",
    "error",
    "first_problem",
    "parse_client",
    "update",
    "welcome",
]

MAX_ORDER = 500
MAX_LEGAL_SHOWN = 50

# Strict: `true` is not the number 1, nor 5 the text "5".
ClientId = Annotated[StrictStr, Field(max_length=64)] | Annotated[StrictInt, Field(ge=0, lt=2**53)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Hello(_Strict):
    type: Literal["hello"]
    token: Annotated[str, Field(min_length=1, max_length=200)]
    last_event: Annotated[int, Field(ge=0)] = 0


# The decision an order answers, as the view's `decision_number` said (CP9): an order for one that
# is over (its deadline's stand-in played it) is refused, never applied to the next one.
Step = Annotated[StrictInt, Field(ge=0, lt=2**31)]


class OrderMessage(_Strict):
    type: Literal["order"]
    id: ClientId | None = None
    order: Annotated[str, Field(max_length=MAX_ORDER)]
    decision_number: Step | None = None


class Ping(_Strict):
    type: Literal["ping"]


ClientMessage = Annotated[Hello | OrderMessage | Ping, Field(discriminator="type")]
_CLIENT: TypeAdapter[Hello | OrderMessage | Ping] = TypeAdapter(ClientMessage)


def parse_client(text: str | bytes) -> Hello | OrderMessage | Ping:
    """One client message from its JSON text; raises ValidationError (bad JSON included)."""
    return _CLIENT.validate_json(text)


class OrderBody(_Strict):
    order: Annotated[str, Field(max_length=MAX_ORDER)]
    id: ClientId | None = None
    decision_number: Step | None = None


class PreviewBody(_Strict):
    options: dict[str, Any] = Field(default_factory=dict)


class DeadlineBody(_Strict):
    """A correspondence match's deadline (CP1): seconds for each decision, and what happens
    when they pass: the seat's stand-in bot plays ("level:LEVEL" or "bot:NAME"; default the
    normal level), or the seat forfeits."""

    seconds: Annotated[StrictInt, Field(ge=1, le=10**8)]
    then: Literal["bot", "forfeit"] = "bot"
    bot: Annotated[str, Field(max_length=60)] | None = None


class CreateMatchBody(_Strict):
    ruleset: Annotated[str, Field(max_length=40)]
    options: dict[str, Any] = Field(default_factory=dict)
    # seat -> "human" | "bot:NAME"; seats left out are human
    seats: dict[Annotated[str, Field(max_length=40)], Annotated[str, Field(max_length=60)]] = Field(
        default_factory=dict
    )
    seed: Annotated[int, Field(ge=0, lt=2**63)] | None = None
    # DM3 (issue 38): play this deal from both sides: a second match on the same seed with the
    # two seats' players swapped (two-seat matches only)
    both_sides: bool = False
    deadline: DeadlineBody | None = None
    # seat -> an address for its correspondence notices (CP5); never shown back
    emails: dict[
        Annotated[str, Field(max_length=40)], Annotated[StrictStr, Field(max_length=254)]
    ] = Field(default_factory=dict)


class ResendBody(_Strict):
    """A lost seat link asked for again (CP7)."""

    seat: Annotated[StrictStr, Field(min_length=1, max_length=40)]


_KINDS = {"str", "int", "float", "bool", "list", "dict"}


def first_problem(exc: ValidationError) -> str:
    """The first thing pydantic found wrong, as one sentence that quotes no input back."""
    errors = exc.errors(include_url=False, include_input=False)
    if not errors:
        return "invalid message"
    e = errors[0]
    if e.get("type") == "json_invalid":
        return "the message is not valid JSON"
    if e.get("type") == "union_tag_invalid" or e.get("type") == "union_tag_not_found":
        return "unknown message type; expected hello, order or ping"
    # pydantic names the branches of a union in the location ("id.constrained-str"): a player
    # knows the field only, and every branch's complaint is one of the things it could be.
    loc = [p for p in e.get("loc", ()) if not (isinstance(p, str) and ("-" in p or p in _KINDS))]
    if len(loc) > 1 and loc[0] in ("hello", "order", "ping"):
        loc = loc[1:]  # the message's type, which pydantic puts first in a tagged union
    where = ".".join(str(p) for p in loc) or "message"
    said = [x.get("msg", "invalid") for x in errors if x.get("loc", ())[:1] == e.get("loc", ())[:1]]
    return f"{where}: {' or '.join(dict.fromkeys(m[:1].lower() + m[1:] for m in said))}"


# -- server messages ---------------------------------------------------------------------------
def welcome(
    match_id: str,
    seat: str | None,
    ruleset: str,
    title: str,
    seats: list[str],
    commitment: str,
) -> dict[str, Any]:
    return {
        "type": "welcome",
        "match": match_id,
        "seat": seat,
        "role": "spectator" if seat is None else "player",
        "ruleset": ruleset,
        "title": title,
        "seats": seats,
        "commitment": commitment,
    }


def update(
    view: dict[str, Any], scene: dict[str, Any], events: list[dict[str, Any]], first: int
) -> dict[str, Any]:
    return {
        "type": "update",
        "view": view,
        "scene": scene,
        "events": events,
        "first_event": first,
        "event_count": first + len(events),
    }


def ack(client_id: str | int | None, order: str) -> dict[str, Any]:
    return {"type": "ack", "id": client_id, "order": order}


def error(
    client_id: str | int | None, message: str, legal: list[str] | tuple[str, ...] = ()
) -> dict[str, Any]:
    return {
        "type": "error",
        "id": client_id,
        "message": message,
        "legal": list(legal[:MAX_LEGAL_SHOWN]),
    }


def stale(client_id: str | int | None, named: int, now: int) -> dict[str, Any]:
    """The answer to an order for a decision other than the one asked (CP9): nothing was done
    with it."""
    why = (
        "which is over (its deadline may have passed and been played for you)"
        if named < now
        else "which is not asked yet"
    )
    answer = error(
        client_id,
        f"that order was for decision {named}, {why}; decision {now} is asked now: nothing "
        "was done with the order",
    )
    answer.update(reason="stale", decision_number=now)
    return answer


def moved(url: str | None) -> dict[str, Any]:
    """Another server process holds the match: connect to `url` (None: to any of them) and say
    hello again (docs/deploy.md, OW5)."""
    return {"type": "moved", "url": url}


def clock(seat: str, deadline: float, *, expired: bool = False) -> dict[str, Any]:
    msg: dict[str, Any] = {"type": "clock", "seat": seat, "deadline": deadline}
    if expired:
        msg["expired"] = True
    return msg


VOIDED_TEXT = (
    "The rules engine failed on this decision (step {step}), so nothing of it was played: "
    "every order of it is voided. Please give your order again{again}."
)


def voided(step: int, seats: list[str], own: str | None) -> dict[str, Any]:
    """Every connection's notice that a decision was voided by an engine fault (HF1): the seats
    asked again, and only the receiver's own voided order (the others stay secret)."""
    again = f" (yours was {own}; it is offered again, another order may be wiser)" if own else ""
    return {
        "type": "voided",
        "step": step,
        "seats": seats,
        "your_order": own,
        "message": VOIDED_TEXT.format(step=step, again=again),
    }


def fault(client_id: str | int | None, order: str, step: int) -> dict[str, Any]:
    """The answer to the order that completed a decision the engine failed on (HF1)."""
    answer = error(client_id, VOIDED_TEXT.format(step=step, again=f" (yours was {order})"))
    answer.update(reason="engine_fault", voided=True, step=step)
    return answer
