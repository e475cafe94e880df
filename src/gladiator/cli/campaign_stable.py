"""`gladiator campaign ...`: the steps a lanista takes beyond odds, XP, bids and armour, the
same steps the campaign page's forms send: side bets (§37.4.1, L19), a Unique Match's set-up
(§30.2.1.1, L4), a bot to fight his bout, a stable bought (§37.2.1), a man sold or retired (L20)
and his styles (§30.2.3.1 NOTE). Each is one campaign step; a refusal is one line on stderr."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from gladiator.cli.campaign import DEFAULT_DB, AsOpt, DbOpt, campaign_app, commit_step

__all__ = ["campaign_app"]

Campaign = Annotated[str, typer.Argument(help="The campaign's id.")]
Man = Annotated[str, typer.Argument(help="The gladiator's id.")]


def _names(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


@campaign_app.command("side-bet")
def side_bet(
    campaign: Campaign,
    bout: Annotated[str, typer.Argument(help="The bout's id.")],
    backs: Annotated[int, typer.Argument(help="The side you back: 0 or 1.")],
    stake: Annotated[int, typer.Argument(help="Your stake (sesterces).")],
    takes: Annotated[int, typer.Argument(help="The taker's stake (the odds are takes:stake).")],
    actor: AsOpt,
    to: Annotated[str | None, typer.Option(help="Offer it to this lanista only.")] = None,
    db: DbOpt = DEFAULT_DB,
) -> None:
    """Offer a side bet on any bout of the munus, at any odds (§37.4.1)."""
    step: dict[str, Any] = {
        "kind": "offer_side_bet",
        "actor": actor,
        "bout": bout,
        "backs": backs,
        "stake": stake,
        "takes": takes,
    }
    if to is not None:
        step["to"] = to
    commit_step(db, campaign, step)


@campaign_app.command("take-bet")
def take_bet(
    campaign: Campaign,
    bet: Annotated[str, typer.Argument(help="The side bet's id (b12-s1).")],
    actor: AsOpt,
    withdraw: Annotated[bool, typer.Option(help="Withdraw your own offer instead.")] = False,
    db: DbOpt = DEFAULT_DB,
) -> None:
    """Take a side bet offered to you or to anyone (§37.4.1), or withdraw your own."""
    kind = "withdraw_side_bet" if withdraw else "take_side_bet"
    commit_step(db, campaign, {"kind": kind, "actor": actor, "bet": bet})


@campaign_app.command("unique")
def unique(
    campaign: Campaign,
    bout: Annotated[str, typer.Argument(help="The Unique Match's bout.")],
    actor: AsOpt,
    men: Annotated[int, typer.Option(help="His side: he and the house's men (1-6).")] = 1,
    opponents: Annotated[int, typer.Option(help="The house's challengers (0-6).")] = 0,
    beasts: Annotated[int, typer.Option(help="Random beasts instead (1-3, one man).")] = 0,
    death: Annotated[bool, typer.Option(help="Sine missione (§30.2.2).")] = False,
    name: Annotated[str, typer.Option(help="What the match is called.")] = "Unique Match",
    db: DbOpt = DEFAULT_DB,
) -> None:
    """Set up your man's Unique Match as you like (§30.2.1.1, L4)."""
    match = {
        "name": name,
        "men": men,
        "opponents": opponents,
        "beasts": beasts,
        "sine_missione": death,
    }
    commit_step(db, campaign, {"kind": "set_unique", "actor": actor, "bout": bout, "match": match})


@campaign_app.command("bot-fight")
def bot_fight(campaign: Campaign, bout: str, actor: AsOpt, db: DbOpt = DEFAULT_DB) -> None:
    """Have a bot fight your men of a bout instead of playing it yourself."""
    commit_step(db, campaign, {"kind": "bot_fight", "actor": actor, "bout": bout})


@campaign_app.command("buy-stable")
def buy_stable(
    campaign: Campaign,
    styles: Annotated[str, typer.Argument(help="Four to six T37 styles, gallus,secutor,...")],
    actor: AsOpt,
    db: DbOpt = DEFAULT_DB,
) -> None:
    """Buy your stable at the chart's prices, before the first munus (§37.2.1)."""
    commit_step(db, campaign, {"kind": "buy_stable", "actor": actor, "styles": _names(styles)})


@campaign_app.command("sell")
def sell(campaign: Campaign, gladiator: Man, actor: AsOpt, db: DbOpt = DEFAULT_DB) -> None:
    """Put one of your men up for sale at the next auction (§37.5, L20)."""
    commit_step(db, campaign, {"kind": "sell", "actor": actor, "gladiator": gladiator})


@campaign_app.command("retire")
def retire(campaign: Campaign, gladiator: Man, actor: AsOpt, db: DbOpt = DEFAULT_DB) -> None:
    """Retire one of your men from the arena (L20)."""
    commit_step(db, campaign, {"kind": "retire", "actor": actor, "gladiator": gladiator})


@campaign_app.command("styles")
def styles(
    campaign: Campaign,
    gladiator: Man,
    wanted: Annotated[str, typer.Argument(help="T37 styles, best first: gallus,secutor.")],
    actor: AsOpt,
    db: DbOpt = DEFAULT_DB,
) -> None:
    """Name the styles a man would fight in (§30.2.3.1 NOTE; option choose_style)."""
    step = {"kind": "prefer_styles", "actor": actor, "gladiator": gladiator}
    commit_step(db, campaign, {**step, "styles": _names(wanted)})
