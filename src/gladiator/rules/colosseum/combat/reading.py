"""Reading one attack of the attack rounds (§9.5, §9.6) for `PhaseCombat` (rounds.py): the CF
an earlier loss takes off the defence (§9.4.7), a fumble's penalty (§9.6), Find Weakness (TL6),
a special defence's automatic result (§22.3), a rear attack's missing defence (§27.4, G5) and
the roll on the CRT; a Feint's counter-attack (§22.2, S4); and the reconversion of a result for
the kit an earlier simultaneous result left the defender (G11)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Literal

from gladiator.rules.colosseum.combat.cf_account import CfAccount
from gladiator.rules.colosseum.combat.cf_allocation import AREA_NUMBERS
from gladiator.rules.colosseum.combat.crt import (
    CombatDice,
    CrtOutcome,
    convert_result,
    resolve_crt,
    unrolled_outcome,
)
from gladiator.rules.colosseum.combat.sequence import Plan, PlannedAttack, Side
from gladiator.rules.colosseum.combat.weakness import FW_RULE, Weakness, find_weakness
from gladiator.rules.colosseum.events import Event, event
from gladiator.rules.colosseum.plots.special_notation import special_name
from gladiator.rules.colosseum.tables.advanced_tables import advanced_tables
from gladiator.rules.colosseum.tables.crt_tables import CrtResult
from gladiator.rules.colosseum.vocabulary import AREAS, Area, CrtVariant

__all__ = ["Live", "Reading", "Shift"]

Shift = Callable[[Side, Side, Area], tuple[str, Mapping[str, str]] | None]


@dataclass(slots=True)
class Live:
    planned: PlannedAttack
    cf: int
    status: Literal["pending", "resolved", "cancelled"] = "pending"


class Reading:
    """The part of `PhaseCombat` that reads one attack; the state is the phase's."""

    names: tuple[str, ...]
    plans: tuple[Plan, ...]
    accounts: tuple[CfAccount, ...]
    events: list[Event]
    _dice: CombatDice
    _drm: Callable[[Side, Side, Area], int] | None
    _shift: Shift | None
    _no_defence: Callable[[Side, Side], bool] | None
    _crt: CrtVariant
    _guard_results: dict[str, CrtResult]
    _weapon: list[bool]
    _shield: list[bool]
    _defence: list[list[int]]
    _fumble_due: list[bool]
    _weakness: list[Weakness | None]
    _found: list[int | None]
    _many: bool

    def defence_cf(self, side: Side, area: Area) -> int:
        """His defence CF on that area now (may be below 0, §9.4.7)."""
        return self._defence[side][AREA_NUMBERS[area] - 1]

    def _read(self, live: Live, via: Area | None = None) -> CrtOutcome:
        p = live.planned
        fw = self._weakness[p.side]
        if fw is not None and via is None and p.rank >= 0 and p.area == fw.area:  # TL6
            self._weakness[p.side] = None
            found, outcome, e = find_weakness(
                self._dice,
                self.names[p.side],
                p.area,
                live.cf,
                p.round,
                p.side,
                self.defence_cf(p.target, p.area),
                fw.tr_bonus,
            )
            self._found[p.side] = found
            self.events.append(e)
            return outcome
        d = p.target
        index = AREA_NUMBERS[p.area] - 1
        if self._found[p.side] is not None:  # TL6: the finding comes off this defence
            self._strike_weakness(p.side, d, p.area, self._found[p.side] or 0)
            self._found[p.side] = None
        account = self.accounts[d]
        if account.waiting:  # §9.4.7
            waiting = account.waiting
            before = self._defence[d][index]
            self._defence[d][index] -= waiting
            account.off_defence += waiting
            account.waiting = 0
            self.events.append(
                event(
                    "defence_reduced",
                    "§9.4.7",
                    f"{self.names[d]}'s {p.area} defence {before} -> "
                    f"{self._defence[d][index]}: {waiting} CF lost earlier this phase",
                    side=d,
                    area=p.area,
                    amount=waiting,
                )
            )
        if self._fumble_due[d]:  # §9.6
            self._fumble_due[d] = False
            penalty = self._dice.roll("1D6", "fumble penalty", "§9.6")
            now = self._defence[d][index]
            self._defence[d][index] -= penalty
            self.events.append(
                event(
                    "fumble_penalty",
                    "§9.6",
                    f"{self.names[d]} fumbled: 1D6 = {penalty} comes off his {p.area} "
                    f"defence, {now} -> {self._defence[d][index]}",
                    side=d,
                    area=p.area,
                    amount=penalty,
                )
            )
        code = p.special if via is None else ""
        guard = self.plans[d].special_defence
        rear = self._no_defence is not None and self._no_defence(p.side, d)
        if guard is not None and guard[0] == p.area and not rear:  # §22.3; G18: not from behind
            outcome, events = self._guarded(live, guard[1], self._defence[d][index])
            return self._logged(replace(outcome, special=code), events, p)
        defence = self._rear(p, self._defence[d][index], rear)
        extra = self._drm(p.side, d, p.area) if self._drm is not None else 0
        label = f"{self.names[p.side]} -> {self.names[d]}'s {p.area}"
        if code:  # §22.2
            label += f" ({special_name('A', code)})"
        outcome, events = resolve_crt(
            self._dice,
            live.cf,
            defence,
            drm=extra,
            has_weapon=self._weapon[d],
            has_shield=self._shield[d],
            crt=self._crt,
            label=label,
            defender=self.names[d],
            shift=self._shift(p.side, d, via or p.area) if self._shift is not None else None,
        )
        return self._logged(replace(outcome, special=code) if code else outcome, events, p)

    def _logged(self, outcome: CrtOutcome, events: list[Event], p: PlannedAttack) -> CrtOutcome:
        for e in events:
            if self._many:
                e.update(side=p.side, target=p.target, area=p.area, round=p.round)
            else:
                e.update(side=p.side, area=p.area, round=p.round)
        events[0]["text"] = f"round {p.round}: {events[0]['text']}"
        self.events.extend(events)
        return outcome

    def _strike_weakness(self, by: Side, d: Side, area: Area, amount: int) -> None:
        """TL6: his finding comes off the defence of the next area he attacks."""
        index = AREA_NUMBERS[area] - 1
        before = self._defence[d][index]
        self._defence[d][index] -= amount
        self.events.append(
            event(
                "find_weakness",
                FW_RULE,
                f"{self.names[by]} strikes where he found weakness: {self.names[d]}'s {area} "
                f"defence {before} -> {self._defence[d][index]}",
                side=by,
                area=area,
                amount=amount,
            )
        )

    def _rear(self, p: PlannedAttack, defence: int, rear: bool) -> int:
        """§27.4 (G5): from a single gladiator's rear hexes only a weakened defence counts."""
        if not rear or defence <= 0:
            return defence
        self.events.append(
            event(
                "rear_attack",
                "§27.4",
                f"{self.names[p.side]} attacks from {self.names[p.target]}'s rear hexes: his "
                f"{p.area} defence {defence} does not count",
                side=p.side,
                area=p.area,
            )
        )
        return 0

    def _guard(self, code: str) -> CrtResult:
        if code not in self._guard_results:
            auto = advanced_tables().specials.t20.defences[code].auto  # type: ignore[index]
            self._guard_results[code] = CrtResult.model_validate(auto)
        return self._guard_results[code]

    def _guarded(self, live: Live, code: str, defence: int) -> tuple[CrtOutcome, list[Event]]:
        """§22.3: a special defence's automatic result instead of the roll, converted for
        the defender's kit as any result is (§9.6, S3)."""
        p = live.planned
        d = p.target
        auto = self._guard(code)
        result, changes = convert_result(
            auto, has_weapon=self._weapon[d], has_shield=self._shield[d]
        )
        outcome = unrolled_outcome(live.cf, defence, auto, result, guard=code)
        shown = "No Effect" if str(auto) == "-" else str(auto)
        events = [
            event(
                "special_defence",
                "§22.3",
                f"{self.names[p.side]} -> {self.names[d]}'s {p.area}: "
                f"{self.names[d]}'s {special_name('D', code)}, {live.cf} CF against "
                f"{defence} defence: automatically {shown}, no roll",
                modified_cf=outcome.modified_cf,
                result=str(result),
                special=code,
            )
        ]
        for before, after, lacking in changes:
            events.append(
                event(
                    "conversion",
                    "§9.6",
                    f"{self.names[d]} has no {lacking}: {before} becomes {after}",
                    result=after,
                )
            )
        return outcome, events

    def _reconvert(self, p: PlannedAttack, outcome: CrtOutcome) -> CrtOutcome:
        """G11: simultaneous results take effect in turn; one that needs the shield or weapon
        an earlier one cost the defender is converted as §9.6 says."""
        d = p.target
        result, changes = convert_result(
            outcome.result, has_weapon=self._weapon[d], has_shield=self._shield[d]
        )
        for before, after, lacking in changes:
            self.events.append(
                event(
                    "conversion",
                    "§9.6",
                    f"{self.names[d]} has no {lacking} now: {before} becomes {after}",
                    result=after,
                )
            )
        return replace(outcome, result=result) if changes else outcome

    def counter_area(self, side: Side, target: Side) -> Area:
        """S4: the Feint's counter goes at the defender's area with the least defence now that
        no special defence makes No Effect; ties to the lower area number."""
        guard = self.plans[target].special_defence
        shut = {guard[0]} if guard is not None and self._guard(guard[1]).code == "-" else set()
        open_ = [a for a in AREAS if a not in shut] or list(AREAS)
        return min(open_, key=lambda a: (self.defence_cf(target, a), AREA_NUMBERS[a]))
