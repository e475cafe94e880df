"""bout_result: the engine's report of each fight of a bout, applied all at once.

For each gladiator of the bout: his record (L11: a side that wins gives each of its men a
victory; a lost bout is a missus M if he was spared, else a defeat; a draw is S), death, and for
a lanista's gladiator the XP of §31.2, the injuries of §32.2 (L5: crippled, retired), and the
prestige change of §35.5. Then the wager (§37.4, L1; a draw returns the stakes), the side bets
(§37.4.1, L19), the Colosseum bonus (§37.3.1: 1,000 to each lanista in the bout when the Arena
Size is 1), and the Emperor's Champion (the Campaign preface: ten victories win freedom, and
§37.3.2's 10,000; a tenth victory won with a mortal wound still counts, and he dies a free man).

A Consecutive bout is one match of up to 1D3+1 fights (L14): it is won by winning every fight,
lost by losing one, and a drawn fight ends the run as a draw. Its gladiator's wounds for §32 are
those of his last fight (they carry from fight to fight, so the last report holds them all).
"""

from __future__ import annotations

from typing import Any

from gladiator.campaign.context import StepContext
from gladiator.campaign.errors import CampaignError
from gladiator.campaign.experience import match_xp
from gladiator.campaign.fights import BEAST
from gladiator.campaign.injuries import apply_injuries, crippled
from gladiator.campaign.ledger import BANK, escrow, lanista_account
from gladiator.campaign.prestige import prestige_change
from gladiator.campaign.reports import SeatReport, parse_fight_report
from gladiator.campaign.side_bets import settle_side_bets
from gladiator.campaign.state import Bout, Career
from gladiator.campaign.tables import campaign_tables

__all__ = ["bout_result"]


def _parse(bout: Bout, raw: Any) -> list[dict[str, SeatReport]]:
    if not isinstance(raw, list) or not raw:
        raise CampaignError("bout_result needs 'reports': one fight report per fight played")
    if len(raw) > len(bout.fights):
        raise CampaignError(f"bout {bout.id} has {len(bout.fights)} fights, not {len(raw)}")
    fights = [parse_fight_report(r, set(bout.seats[i])) for i, r in enumerate(raw)]
    for i, (seats, fight) in enumerate(zip(bout.seats, fights, strict=False)):
        missing = [s for s, m in seats.items() if not m.startswith(BEAST) and s not in fight]
        if missing:
            raise CampaignError(f"fight {i + 1} of bout {bout.id} has no report for {missing}")
    if bout.type == "consecutive":
        for i, fight in enumerate(fights[:-1]):
            if fight["red"].result != "victory" or not fight["red"].alive:
                raise CampaignError(f"the run ended at fight {i + 1}: no fight follows it")
        last = fights[-1]["red"]
        if len(fights) < len(bout.fights) and last.result == "victory" and last.alive:
            raise CampaignError(f"bout {bout.id}: fight {len(fights) + 1} is not reported yet")
    elif len(fights) != 1:
        raise CampaignError(f"bout {bout.id} is one fight; {len(fights)} reported")
    return fights


def _outcome(bout: Bout, fights: list[dict[str, SeatReport]]) -> str:
    """'side0', 'side1' or 'draw'."""
    if bout.type == "consecutive":
        last = fights[-1]["red"].result
        won = last == "victory" and len(fights) == len(bout.fights)
        return "side0" if won else "side1" if last == "defeat" else "draw"
    if not bout.sides[1].gladiators:  # beasts (§28): the men win, lose or draw as red did
        result = fights[0]["red"].result
        return "side0" if result == "victory" else "side1" if result == "defeat" else "draw"
    winners = set()
    for i, side in enumerate(bout.sides):
        for seat, member in bout.seats[0].items():
            report = fights[0].get(seat)
            if member in side.gladiators and report is not None and report.result == "victory":
                winners.add(f"side{i}")
    return winners.pop() if len(winners) == 1 else "draw"


def _reports_of(bout: Bout, fights: list[dict[str, SeatReport]], gid: str) -> list[SeatReport]:
    return [
        fight[seat]
        for seats, fight in zip(bout.seats, fights, strict=False)
        for seat, member in seats.items()
        if member == gid and seat in fight
    ]


def _record(career: Career, side: int, outcome: str, reports: list[SeatReport]) -> str:
    last = reports[-1]
    if outcome == f"side{side}":
        career.record.victories += 1
        return "victory"
    if outcome == "draw":
        career.record.stans += 1
        return "draw"
    if last.missus and last.alive:
        career.record.missus += 1
        return "missus"
    career.record.defeats += 1
    return "defeat"


def bout_result(ctx: StepContext) -> None:
    ctx.no_actor()
    ctx.phase("munus")
    state = ctx.state
    bout = ctx.bout(ctx.field("bout", str))
    if bout.munus != state.meta.munus:
        raise CampaignError(f"bout {bout.id} belongs to munus {bout.munus}")
    raw = ctx.field("reports", list)
    fights = _parse(bout, raw)
    outcome = _outcome(bout, fights)
    lt = campaign_tables().lanistas
    pr_before = {g: state.gladiators[g].prestige for g in bout.gladiators()}
    for side_index, side in enumerate(bout.sides):
        opponents = [g for i, s in enumerate(bout.sides) if i != side_index for g in s.gladiators]
        for gid in side.gladiators:
            reports = _reports_of(bout, fights, gid)
            if not reports:
                continue  # a Consecutive challenger whose fight never came
            career = state.gladiators[gid]
            _settle_gladiator(ctx, bout, career, side_index, outcome, reports, opponents, pr_before)
    _settle_wager(ctx, bout, outcome)
    settle_side_bets(ctx, bout, outcome)
    fee = state.meta.options.appearance_fee
    if fee:  # L18: the editor's fee for each of a lanista's men who fought (not the house's)
        for side in bout.sides:
            if side.lanista is not None:
                own = [g for g in side.gladiators if state.gladiators[g].lanista == side.lanista]
                memo = f"appearance fee, bout {bout.id} (L18)"
                ctx.ledger.move(BANK, lanista_account(side.lanista), fee * len(own), memo)
    if state.meta.options.colosseum_bonus and state.meta.arena_size == 1:
        for lid in dict.fromkeys(bout.lanistas()):
            memo = f"Colosseum bonus, bout {bout.id} (§37.3.1)"  # §25.2.1: size 1 pays more
            ctx.ledger.move(BANK, lanista_account(lid), lt.colosseum_bonus, memo)
    bout.status, bout.outcome = "settled", outcome
    bout.reports = [dict(r) for r in raw]
    bout.matches = [str(m) for m in ctx.field("matches", list, [])]
    ctx.event("settled", f"bout {bout.id}: {outcome}", "§30", bout=bout.id, outcome=outcome)


def _settle_gladiator(
    ctx: StepContext,
    bout: Bout,
    career: Career,
    side: int,
    outcome: str,
    reports: list[SeatReport],
    opponents: list[str],
    pr_before: dict[str, int],
) -> None:
    state = ctx.state
    result = _record(career, side, outcome, reports)
    alive = reports[-1].alive
    entry: dict[str, Any] = {"munus": bout.munus, "bout": bout.id, "type": bout.type}
    entry["result"] = result
    if career.lanista is None:
        career.status = "retired" if alive else "dead"
        career.history.append(entry)
        return
    lid = career.lanista
    if alive:
        xp = match_xp(reports)
        career.xp += xp
        entry["xp"] = xp
        entry["injuries"] = apply_injuries(career, reports[-1].wounds, ctx.dice)
        entry["prestige"] = prestige_change(
            career,
            [pr_before[g] for g in opponents],
            ctx.dice,
            missus=any(r.missus for r in reports),
            cleaved=any(r.cleaved for r in reports),
        )
    freed = career.record.victories >= campaign_tables().lanistas.freedom_victories
    if freed:
        _freedom(ctx, career, alive)
    elif not alive:
        career.status = "dead"
        state.meta.lost[lid] = state.meta.lost.get(lid, 0) + 1
        ctx.event("death", f"{career.name} dies in bout {bout.id}", "§30", gladiator=career.id)
    elif crippled(career):
        career.status = "retired"
        state.meta.lost[lid] = state.meta.lost.get(lid, 0) + 1
        ctx.event("crippled", f"{career.name} is crippled and retires", "§32.2")
    career.history.append(entry)


def _freedom(ctx: StepContext, career: Career, alive: bool) -> None:
    """The Campaign preface, §37.3.2: the tenth victory makes him the Emperor's Champion."""
    state, lt = ctx.state, campaign_tables().lanistas
    lid = career.lanista
    assert lid is not None
    career.status = "free" if alive else "dead"
    memo = f"{career.name} wins his freedom (§37.3.2)"
    ctx.ledger.move(BANK, lanista_account(lid), lt.freedom_bonus, memo)
    how = "and walks free" if alive else "and dies a free man"
    ctx.event(
        "freedom", f"{career.name} wins his tenth victory {how}", "§37.3.2", gladiator=career.id
    )
    if state.meta.options.goal == "freedom" and state.meta.winner is None:
        state.meta.winner, state.meta.phase = lid, "over"


def _settle_wager(ctx: StepContext, bout: Bout, outcome: str) -> None:
    """§37.4, L1: the winner takes both stakes; a draw returns each one."""
    wager = bout.wager
    if wager is None:
        return
    pot = escrow(bout.id)
    if outcome == "draw":
        for account, stake in wager.stakes.items():
            ctx.ledger.move(pot, account, stake, f"bet returned, bout {bout.id} drawn")
        return
    side = bout.sides[int(outcome[-1])]
    winner = lanista_account(side.lanista) if side.lanista else BANK
    total = sum(wager.stakes.values())
    ctx.ledger.move(pot, winner, total, f"bet won, bout {bout.id}")
