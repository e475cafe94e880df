"""A lanista's own stable: the men he gets at the start (§37.2) or buys (§37.2.1), and between
munera the man he retires, the man he puts up for sale (§37.5, L20), and the styles he would
have each man fight in (§30.2.3.1 NOTE).
"""

from __future__ import annotations

from typing import Any

from gladiator.campaign.context import StepContext
from gladiator.campaign.creation import add_gladiator
from gladiator.campaign.errors import CampaignError
from gladiator.campaign.ledger import BANK
from gladiator.campaign.state import Lanista, Lot
from gladiator.campaign.tables import campaign_tables, chart

__all__ = ["buy_stable", "check_purchase", "get_men", "must_buy", "prefer_styles", "retire", "sell"]


def get_men(ctx: StepContext, lanista: Lanista, styles: list[Any]) -> None:
    """§3.11, §33, §35.2, §36.2: his new men, one per entry of `styles`: None, rolled (§37.2);
    a T37 style, bought at its price (§37.2.1, L8)."""
    state = ctx.state
    for style in styles:
        career = add_gladiator(state, ctx.dice, lanista.id)
        if style is not None:  # checked by check_purchase: a name of the chart
            cost = chart()[style].cost or 0
            career.bought_as = style
            ctx.ledger.pay(lanista.id, BANK, cost, f"{career.name}, a {style} (T37)")
        ctx.event("gladiator", f"{lanista.name} gets {career.name}", "§37.2", gladiator=career.id)


def style_names(styles: Any) -> list[str]:
    """A list of T37 styles, each a name of the chart, or a one-line refusal."""
    if not isinstance(styles, list) or not all(isinstance(s, str) for s in styles):
        raise CampaignError("styles are a list of the Gladiator chart's style names (T37)")
    unknown = [s for s in styles if s not in chart()]
    if unknown:
        raise CampaignError(f"not styles of the Gladiator chart (T37): {unknown}")
    return list(styles)


def check_purchase(lanista: str, styles: Any) -> list[Any]:
    """§37.2.1: four to six men, each bought as a style of the chart at its price."""
    lt = campaign_tables().lanistas
    if not isinstance(styles, list) or not lt.bought_min <= len(styles) <= lt.bought_max:
        n = len(styles) if isinstance(styles, list) else styles
        raise CampaignError(
            f"lanista {lanista} must buy {lt.bought_min} to {lt.bought_max} gladiators "
            f"(§37.2.1), not {n}"
        )
    return style_names(styles)


def must_buy(ctx: StepContext, lanista: Lanista) -> bool:
    """§37.2.1: a lanista of a bought-stables campaign who has not bought his men yet."""
    state = ctx.state
    return (
        state.meta.options.stables == "bought"
        and state.meta.munus == 0
        and not any(g.lanista == lanista.id for g in state.gladiators.values())
    )


def buy_stable(ctx: StepContext) -> None:
    """§37.2.1: a lanista who was not given his purchases at the creation buys his four to six
    men before the first munus."""
    ctx.phase("between")
    actor = ctx.actor()
    if not must_buy(ctx, actor):
        raise CampaignError(
            "a stable is bought once, before the first munus, where stables are bought (§37.2.1)"
        )
    get_men(ctx, actor, check_purchase(actor.id, ctx.field("styles", list)))
    ctx.state.meta.timeline[-1:] = [ctx.state.standing()]  # the start, as bought


def _between_man(ctx: StepContext) -> tuple[Lanista, Any]:
    """The actor's living man who leaves his stable now: no longer entered for the next munus
    (an entry of a man who is gone would stop it opening)."""
    ctx.phase("between")
    actor = ctx.actor()
    career = ctx.own_gladiator(actor, ctx.field("gladiator", str))
    entered = ctx.state.meta.entries.get(actor.id)
    if entered and career.id in entered:
        entered.remove(career.id)
    return actor, career


def retire(ctx: StepContext) -> None:
    """A lanista retires one of his men from the arena, between munera: he is not lost in the
    arena, so no new man is offered for him (§37.5)."""
    actor, career = _between_man(ctx)
    career.status = "retired"
    career.history.append({"munus": ctx.state.meta.munus, "retired": True})
    ctx.event("retired", f"{actor.name} retires {career.name}", "", gladiator=career.id)


def sell(ctx: StepContext) -> None:
    """L20: a lanista puts one of his men up for sale at the next auction (§37.5): sold, the
    price is his; unsold, the man comes back to him."""
    actor, career = _between_man(ctx)
    career.status = "for_sale"
    ctx.state.meta.lots.append(Lot(gladiator=career.id, seller=actor.id))
    ctx.event("lot", f"{actor.name} puts {career.name} up for sale", "§37.5", lot=career.id)


def prefer_styles(ctx: StepContext) -> None:
    """§30.2.3.1 NOTE (option choose_style): the styles a man would fight in, best first; the
    first that his match's category allows is taken, else one at random."""
    if not ctx.state.meta.options.choose_style:
        raise CampaignError("style preferences need the option choose_style (§30.2.3.1 NOTE)")
    actor = ctx.actor()
    career = ctx.own_gladiator(actor, ctx.field("gladiator", str))
    styles = style_names(ctx.field("styles", list))
    if len(set(styles)) != len(styles):
        raise CampaignError("each style is named once")
    ctx.state.meta.preferences[career.id] = [str(s) for s in styles]
    ctx.event("styles", f"{career.name} prefers {', '.join(styles) or 'none'}", "§30.2.3.1")
