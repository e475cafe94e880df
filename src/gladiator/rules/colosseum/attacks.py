"""One combat phase between two gladiators: the attack rounds and CF-loss propagation.

Colosseum Edition §9.3 (allocating CFs), §9.4 (the attack sequence, T10), §9.5 (resolving one
attack on the CRT, T5) and §9.6 (the results, T6), as a pure module: no movement, no wounds. What a
body hit (or a shield hit, a parry) does to the defender is the wound module's business; it is
plugged in as a callback that answers how many CF the defender lost, and this module carries that
loss through the rest of the phase (§9.4.6-§9.4.8). Every die goes through the match's `dice` with
its purpose and rule section; every step emits an event dict `{"type", "rule", "text"}` whose text
ends with the rule section, e.g. "... (§9.5)".

The allocation and its notation are cf_allocation.py's, the order of the attacks
attack_sequence.py's, the reading of one attack on the CRT crt.py's.

Readings of the reference (shared/rules/colosseum.md) this module follows:

* **Simultaneous attacks** are read on the values from before their step: both CRT rolls are made
  first, then both results take effect; the losses they cause fall on later attacks only.
* **CF loss (§9.4.6-§9.4.8):** comes off the victim's unresolved attacks in sequence order (an
  attack cut to 0 is cancelled; the sequence stays). What they cannot absorb waits and comes off
  the defence of the next area of his that is actually attacked (cancelled attacks attack
  nothing); losses that wait add up; that defence may go below 0 and stays lowered for the phase.
  If no attack against him remains, the rest has no effect (§9.4.8).
* **Fumble (§9.6):** the fumbler's remaining attacks are cancelled. The 1D6 penalty is rolled only
  if he is attacked again this phase, when that attack comes, and comes off the defence of the
  area attacked (EX-9.6: 2 - (3 - 4) = 3).
* The callback is called for every result that touches the defender (S, S*, P, P* and H); "-" and
  F are handled here. `CrtOutcome.unweakened_cf` is the modified CF without the part that comes from
  a defence driven below 0 (§12.2 NOTE), for the shield-damage roll.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal, Protocol

from gladiator.rules.colosseum.advanced_tables import advanced_tables
from gladiator.rules.colosseum.attack_sequence import PlannedAttack, Side, attack_sequence
from gladiator.rules.colosseum.cf_allocation import AREA_NUMBERS, Allocation, read_area
from gladiator.rules.colosseum.crt import (
    CombatDice,
    CrtOutcome,
    convert_result,
    resolve_crt,
    unrolled_outcome,
)
from gladiator.rules.colosseum.crt_tables import CrtResult
from gladiator.rules.colosseum.events import Event, event
from gladiator.rules.colosseum.special_notation import special_name
from gladiator.rules.colosseum.vocabulary import AREAS, Area, CrtVariant

__all__ = [
    "CfAccount",
    "Item",
    "OnHit",
    "PhaseCombat",
]

Item = Literal["weapon", "shield"]


class OnHit(Protocol):
    """What a result that touches the defender does: returns the CF he loses at once (>= 0)."""

    def __call__(self, attacker: Side, defender: Side, area: Area, result: CrtOutcome) -> int: ...


# --- the phase (§9.4.6-§9.4.8) -------------------------------------------------------------------


@dataclass(slots=True)
class CfAccount:
    """Where one gladiator's CF losses this phase went (§9.4.6-§9.4.8)."""

    lost: int = 0
    off_attacks: int = 0
    off_defence: int = 0
    no_effect: int = 0
    waiting: int = 0  # still to come off the next area attacked (§9.4.7)


@dataclass(slots=True)
class _Live:
    planned: PlannedAttack
    cf: int
    status: Literal["pending", "resolved", "cancelled"] = "pending"


class PhaseCombat:
    """The combat step of one phase between two gladiators (§5.2.6.3, §9.4-§9.6): the attack
    sequence over the five attack rounds.

    Give it both allocations, the dice and `on_hit`; `run()` (or `step()` repeatedly) resolves the
    attacks in sequence. `on_hit(attacker, defender, area, outcome)` is called for every S, S*, P,
    P* or H and returns the CF the defender loses at once (wounds, Stun: §9.4.6, §11.3). It may
    call `set_equipment` (a dropped weapon or shield changes later conversions) or
    `cancel_attacks` (a gladiator killed or knocked out). `drm(attacker, defender, area)` adds
    other DRMs to the CRT roll. `speeds` are the weapons' Spd (§9.4.5); `has_weapon` and
    `has_shield` the defenders' kit at the start (§9.6).
    """

    def __init__(
        self,
        allocations: Sequence[Allocation],
        dice: CombatDice,
        on_hit: OnHit,
        *,
        speeds: Sequence[int | Sequence[int]] = (0, 0),
        names: Sequence[str] = ("G1", "G2"),
        has_weapon: Sequence[bool] = (True, True),
        has_shield: Sequence[bool] = (True, True),
        crt: CrtVariant = "rules",
        drm: Callable[[Side, Side, Area], int] | None = None,
        shift: Callable[[Side, Area], tuple[str, Mapping[str, str]] | None] | None = None,
        guard_results: Mapping[str, CrtResult] | None = None,
    ) -> None:
        if len(allocations) != 2 or len(names) != 2:
            raise ValueError("a phase's combat is between two gladiators")
        self.allocations = (allocations[0], allocations[1])
        self.names = (names[0], names[1])
        self.sequence = attack_sequence(self.allocations, speeds)
        self._dice = dice
        self._on_hit = on_hit
        self._drm = drm
        self._shift = shift
        self._charged = [0, 0]
        self._crt: CrtVariant = crt
        # §22.3: each special defence's automatic result (T20 by default; Q9's option).
        self._guard_results = dict(guard_results or {})
        self._round = 0
        self._weapon = [bool(has_weapon[0]), bool(has_weapon[1])]
        self._shield = [bool(has_shield[0]), bool(has_shield[1])]
        self._live = {
            (p.side, p.area): _Live(p, p.cf) for step in self.sequence for p in step.attacks
        }
        self._defence = [list(a.defence) for a in self.allocations]
        self._fumble_due = [False, False]
        self.fumbled = [False, False]
        self.accounts = (CfAccount(), CfAccount())
        self.outcomes: list[tuple[PlannedAttack, CrtOutcome]] = []
        self.events: list[Event] = []
        self._next = 0
        self._finished = False
        self.events.append(self._sequence_event())

    # -- state ------------------------------------------------------------------------------
    @property
    def done(self) -> bool:
        return self._finished

    def attack_cf(self, side: Side, area: Area | int) -> int:
        """His attack CF on that area now (0 if he did not attack it)."""
        live = self._live.get((side, read_area(area)))
        return 0 if live is None else live.cf

    def attack_status(self, side: Side, area: Area | int) -> str | None:
        live = self._live.get((side, read_area(area)))
        return None if live is None else live.status

    def defence_cf(self, side: Side, area: Area | int) -> int:
        """His defence CF on that area now (may be below 0, §9.4.7)."""
        return self._defence[side][AREA_NUMBERS[read_area(area)] - 1]

    def has_item(self, side: Side, item: Item) -> bool:
        return (self._weapon if item == "weapon" else self._shield)[side]

    # -- changes the callback may make ------------------------------------------------------
    def set_equipment(
        self, side: Side, *, weapon: bool | None = None, shield: bool | None = None
    ) -> None:
        """A weapon or shield dropped (or recovered) during the phase (§13, §9.6)."""
        if weapon is not None:
            self._weapon[side] = weapon
        if shield is not None:
            self._shield[side] = shield

    def charge(self, side: Side, amount: int) -> None:
        """A CF loss `on_hit` caused to someone other than the defender (§23.2.1: the unarmed
        attacker's own arms), taken with the step's other losses (§9.4.6)."""
        if amount < 0:
            raise ValueError(f"a CF loss cannot be {amount}")
        self._charged[side] += amount

    def cancel_attacks(self, side: Side, reason: str, rule: str) -> list[Event]:
        """Cancel every unresolved attack of his (e.g. killed, §10.3.2; unconscious, §11.4)."""
        events: list[Event] = []
        for live in self._pending_of(side):
            live.status = "cancelled"
            events.append(
                event(
                    "attack_cancelled",
                    rule,
                    f"{self.names[side]}'s {live.planned.area} attack ({live.cf} CF) is "
                    f"cancelled: {reason}",
                    side=side,
                    area=live.planned.area,
                )
            )
        self.events.extend(events)
        return events

    # -- resolution -------------------------------------------------------------------------
    def run(self) -> list[Event]:
        """Resolve every remaining step; returns the events of the whole phase so far."""
        while not self._finished:
            self.step()
        return self.events

    def step(self) -> list[Event]:
        """Resolve the next step of the sequence (and close the phase after the last)."""
        start = len(self.events)
        if self._finished:
            return []
        if self._next >= len(self.sequence):
            self._close()
            return self.events[start:]
        step = self.sequence[self._next]
        self._next += 1
        self._round = step.round
        active = [self._live[(p.side, p.area)] for p in step.attacks]
        active = [live for live in active if live.status == "pending"]
        if len(active) > 1:
            self.events.append(
                event(
                    "simultaneous",
                    "§9.4.4",
                    f"round {step.round}: equal CF ({active[0].cf}), "
                    f"{self.names[0]} and {self.names[1]} strike simultaneously",
                    round=step.round,
                )
            )
        # Every attack of the step is read on the values from before it (§9.4.4)...
        reads: list[tuple[_Live, CrtOutcome]] = []
        for live in active:
            reads.append((live, self._read(live)))
            live.status = "resolved"
        # ...then the results take effect (§9.4.6).
        losses = [0, 0]
        for live, outcome in reads:
            p = live.planned
            self.outcomes.append((p, outcome))
            defender = 1 - p.side
            if outcome.code == "F":
                self._fumble(p.side)
            elif outcome.code != "-":
                lost = self._on_hit(p.side, defender, p.area, outcome)
                if not isinstance(lost, int) or isinstance(lost, bool) or lost < 0:
                    raise ValueError(f"on_hit must return the CF lost (an int >= 0), not {lost!r}")
                losses[defender] += lost
        for side in (0, 1):
            losses[side] += self._charged[side]
            self._charged[side] = 0
            if losses[side]:
                self._lose(side, losses[side])
        if self._next >= len(self.sequence):
            self._close()
        return self.events[start:]

    def counter_attack(self, side: Side, cf: int, via: Area) -> int:
        """§22.2 Feint: an immediate counter-attack of `cf` CF by `side` (S4: on the defender's
        area with the least defence now that no special defence makes No Effect; ties to the
        lower area number), struck with the weapon of the Feint on `via`; the CF the defender
        loses at once."""
        defender = 1 - side
        guard = self.allocations[defender].special_defence
        shut = {guard[0]} if guard is not None and self._guard(guard[1]).code == "-" else set()
        open_ = [a for a in AREAS if a not in shut] or list(AREAS)
        area = min(open_, key=lambda a: (self.defence_cf(defender, a), AREA_NUMBERS[a]))
        planned = PlannedAttack(side, area, cf, self._round, -1)
        self.events.append(
            event(
                "feint_counter",
                "§22.2",
                f"{self.names[side]}'s feint opens {self.names[defender]}'s guard: he "
                f"counter-attacks the {area} with {cf} CF",
                side=side,
                area=area,
                cf=cf,
            )
        )
        outcome = replace(self._read(_Live(planned, cf, "resolved"), via=via), counter_of=via)
        self.outcomes.append((planned, outcome))
        if outcome.code == "F":
            self._fumble(side)
            return 0
        if outcome.code == "-":
            return 0
        lost = self._on_hit(side, defender, area, outcome)
        if not isinstance(lost, int) or isinstance(lost, bool) or lost < 0:
            raise ValueError(f"on_hit must return the CF lost (an int >= 0), not {lost!r}")
        return lost

    def _guard(self, code: str) -> CrtResult:
        if code not in self._guard_results:
            auto = advanced_tables().specials.t20.defences[code].auto  # type: ignore[index]
            self._guard_results[code] = CrtResult.model_validate(auto)
        return self._guard_results[code]

    def _guarded(self, live: _Live, code: str, defence: int) -> tuple[CrtOutcome, list[Event]]:
        """§22.3: a special defence's automatic result instead of the roll, converted for
        the defender's kit as any result is (§9.6, S3)."""
        p = live.planned
        defender = 1 - p.side
        auto = self._guard(code)
        result, changes = convert_result(
            auto, has_weapon=self._weapon[defender], has_shield=self._shield[defender]
        )
        outcome = unrolled_outcome(live.cf, defence, auto, result, guard=code)
        shown = "No Effect" if str(auto) == "-" else str(auto)
        events = [
            event(
                "special_defence",
                "§22.3",
                f"{self.names[p.side]} -> {self.names[defender]}'s {p.area}: "
                f"{self.names[defender]}'s {special_name('D', code)}, {live.cf} CF against "
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
                    f"{self.names[defender]} has no {lacking}: {before} becomes {after}",
                    result=after,
                )
            )
        return outcome, events

    def _read(self, live: _Live, via: Area | None = None) -> CrtOutcome:
        p = live.planned
        defender = 1 - p.side
        index = AREA_NUMBERS[p.area] - 1
        account = self.accounts[defender]
        before = self._defence[defender][index]
        if account.waiting:
            waiting = account.waiting
            self._defence[defender][index] -= waiting
            account.off_defence += waiting
            account.waiting = 0
            self.events.append(
                event(
                    "defence_reduced",
                    "§9.4.7",
                    f"{self.names[defender]}'s {p.area} defence {before} -> "
                    f"{self._defence[defender][index]}: {waiting} CF lost earlier this phase",
                    side=defender,
                    area=p.area,
                    amount=waiting,
                )
            )
        if self._fumble_due[defender]:
            self._fumble_due[defender] = False
            penalty = self._dice.roll("1D6", "fumble penalty", "§9.6")
            now = self._defence[defender][index]
            self._defence[defender][index] -= penalty
            self.events.append(
                event(
                    "fumble_penalty",
                    "§9.6",
                    f"{self.names[defender]} fumbled: 1D6 = {penalty} comes off his {p.area} "
                    f"defence, {now} -> {self._defence[defender][index]}",
                    side=defender,
                    area=p.area,
                    amount=penalty,
                )
            )
        guard = self.allocations[defender].special_defence
        special = self.allocations[p.side].special_attack
        code = special[1] if special is not None and special[0] == p.area and via is None else ""
        if guard is not None and guard[0] == p.area:  # §22.3
            outcome, events = self._guarded(live, guard[1], self._defence[defender][index])
            outcome = replace(outcome, special=code)
            for e in events:
                e.update(side=p.side, area=p.area, round=p.round)
            events[0]["text"] = f"round {p.round}: {events[0]['text']}"
            self.events.extend(events)
            return outcome
        extra = self._drm(p.side, defender, p.area) if self._drm is not None else 0
        label = f"{self.names[p.side]} -> {self.names[defender]}'s {p.area}"
        if code:  # §22.2
            label += f" ({special_name('A', code)})"
        outcome, events = resolve_crt(
            self._dice,
            live.cf,
            self._defence[defender][index],
            drm=extra,
            has_weapon=self._weapon[defender],
            has_shield=self._shield[defender],
            crt=self._crt,
            label=label,
            defender=self.names[defender],
            shift=self._shift(p.side, via or p.area) if self._shift is not None else None,
        )
        if code:
            outcome = replace(outcome, special=code)
        for e in events:
            e.update(side=p.side, area=p.area, round=p.round)
        events[0]["text"] = f"round {p.round}: {events[0]['text']}"
        self.events.extend(events)
        return outcome

    def _pending_of(self, side: Side) -> list[_Live]:
        """His attacks not yet resolved nor cancelled, in sequence order."""
        out: list[_Live] = []
        for step in self.sequence[self._next :]:
            for p in step.attacks:
                live = self._live[(p.side, p.area)]
                if p.side == side and live.status == "pending":
                    out.append(live)
        return out

    def _fumble(self, side: Side) -> None:
        self.fumbled[side] = True
        self._fumble_due[side] = True
        self.events.append(
            event(
                "fumble",
                "§9.6",
                f"{self.names[side]} fumbles: his remaining attacks are cancelled, and 1D6 comes "
                "off the defence of his next area attacked",
                side=side,
            )
        )
        self.cancel_attacks(side, "fumble", "§9.6")

    def _lose(self, side: Side, amount: int) -> None:
        """§9.4.6-§9.4.8: a CF loss taken at once."""
        name = self.names[side]
        account = self.accounts[side]
        account.lost += amount
        self.events.append(
            event("cf_loss", "§9.4.6", f"{name} loses {amount} CF", side=side, amount=amount)
        )
        left = amount
        for live in self._pending_of(side):
            if not left:
                break
            take = min(live.cf, left)
            live.cf -= take
            left -= take
            account.off_attacks += take
            area = live.planned.area
            if live.cf == 0:
                live.status = "cancelled"
                text = f"{name}'s {area} attack loses {take} CF and is cancelled"
                kind = "attack_cancelled"
            else:
                text = f"{name}'s {area} attack loses {take} CF, {live.cf} left"
                kind = "attack_reduced"
            self.events.append(event(kind, "§9.4.6", text, side=side, area=area, amount=take))
        if not left:
            return
        if self._pending_of(1 - side):
            account.waiting += left
            self.events.append(
                event(
                    "defence_loss_waiting",
                    "§9.4.7",
                    f"{left} CF will come off the defence of {name}'s next area attacked",
                    side=side,
                    amount=left,
                )
            )
        else:
            account.no_effect += left
            self.events.append(
                event(
                    "loss_without_effect",
                    "§9.4.8",
                    f"{left} CF of {name}'s loss has no further effect this phase",
                    side=side,
                    amount=left,
                )
            )

    def _close(self) -> None:
        self._finished = True
        for side in (0, 1):
            account = self.accounts[side]
            if account.waiting:
                left = account.waiting
                account.no_effect += left
                account.waiting = 0
                self.events.append(
                    event(
                        "loss_without_effect",
                        "§9.4.8",
                        f"{left} CF of {self.names[side]}'s loss has no further effect: "
                        "no attack against him remained",
                        side=side,
                        amount=left,
                    )
                )
        self.events.append(event("combat_end", "§9.4", "the phase's attacks are over"))

    def _sequence_event(self) -> Event:
        parts: list[str] = []
        for step in self.sequence:
            names = " = ".join(f"{self.names[p.side]} {p.area} {p.cf}" for p in step.attacks)
            parts.append(f"r{step.round} {names}")
        text = "attack sequence: " + ("; ".join(parts) if parts else "no attacks")
        return event(
            "attack_sequence",
            "§9.4.2",
            text,
            steps=[
                [{"side": p.side, "area": p.area, "cf": p.cf} for p in step.attacks]
                for step in self.sequence
            ],
        )
