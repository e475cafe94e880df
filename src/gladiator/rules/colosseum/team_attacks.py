"""One combat phase among three or four gladiators (§27 on §9.4-§9.6): the duel's attack
sequence (attacks.py `PhaseCombat`) with a target on every attack.

It follows attacks.py's readings of §9.4-§9.6 (the sequence fixed when revealed, equal CFs
simultaneous, CF losses off the victim's own unresolved attacks and then off the defence of his
next area attacked, the fumble penalty on the next attack against him), with §27's changes:

* §27.4: every attack is a separate attack, read on its own CF (two opponents' CFs on one area
  are never added together), and the defender's defence on an area counts against each attack on
  it, except an attack from one of his three rear hexes (`no_defence`), which meets none (G5).
* §27.3: a gladiator who `yields` to an adjacent opponent he is not attacking makes his attacks
  of a round after every other attack of that round, whatever the CFs (G4).
* G11: simultaneous attacks on one man take effect in turn, each converted for the kit the
  earlier ones left him (§9.6).
* A man killed has his own attacks cancelled and every attack still to come against him (§10.3.2).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from gladiator.rules.colosseum.attack_sequence import attack_schedule
from gladiator.rules.colosseum.cf_allocation import AREA_NUMBERS
from gladiator.rules.colosseum.crt import CombatDice, CrtOutcome, convert_result, resolve_crt
from gladiator.rules.colosseum.vocabulary import Area, CrtVariant

__all__ = ["TeamAttack", "TeamCombat", "TeamStep", "team_sequence"]

Event = dict[str, Any]
Who = int  # an index into the combat's gladiators
TeamHit = Callable[[Who, Who, Area, CrtOutcome], int]


def _event(kind: str, rule: str, text: str, **extra: Any) -> Event:
    return {"type": kind, "rule": rule, "text": f"{text} ({rule})", **extra}


@dataclass(frozen=True, slots=True)
class TeamAttack:
    """One attack as revealed: whose, at whom, where, with the CF allocated, in which round."""

    side: Who
    target: Who
    area: Area
    cf: int
    round: int
    rank: int  # his k-th attack in the order he wrote them (Q25)


@dataclass(frozen=True, slots=True)
class TeamStep:
    round: int
    attacks: tuple[TeamAttack, ...]


def team_sequence(
    attacks: Sequence[Sequence[tuple[Who, Area, int]]],
    speeds: Sequence[int | Sequence[int]],
    yields: Mapping[Who, set[Who]] | None = None,
) -> tuple[TeamStep, ...]:
    """§9.4.2-§9.4.5 for every attacker's (target, area, CF) attacks, in his own order, with
    §27.3: in a round where a man and an opponent he yields to both attack, his attacks come
    after every other attack of that round (G4). Within a tier more CF goes first; equal CFs of
    different men are simultaneous, each man's k-th attack of that CF with the others' k-th."""
    planned: list[TeamAttack] = []
    for side, (mine, speed) in enumerate(zip(attacks, speeds, strict=True)):
        rounds = attack_schedule(len(mine), speed)
        for rank, ((target, area, cf), rnd) in enumerate(zip(mine, rounds, strict=True)):
            planned.append(TeamAttack(side, target, area, cf, rnd, rank))
    yields = yields or {}
    steps: list[TeamStep] = []
    for rnd in sorted({p.round for p in planned}):
        here = [p for p in planned if p.round == rnd]
        sides = {p.side for p in here}
        late = {s for s in sides if yields.get(s, set()) & sides}

        def tier(p: TeamAttack, late: set[Who] = late) -> int:
            return 1 if p.side in late else 0

        for t in sorted({tier(p) for p in here}):
            layer = [p for p in here if tier(p) == t]
            for cf in sorted({p.cf for p in layer}, reverse=True):
                by_side = [
                    sorted((p for p in layer if p.cf == cf and p.side == s), key=lambda p: p.rank)
                    for s in sorted({p.side for p in layer if p.cf == cf})
                ]
                for i in range(max(len(g) for g in by_side)):
                    steps.append(TeamStep(rnd, tuple(g[i] for g in by_side if i < len(g))))
    return tuple(steps)


@dataclass(slots=True)
class _Live:
    planned: TeamAttack
    cf: int
    status: Literal["pending", "resolved", "cancelled"] = "pending"


class TeamCombat:
    """The attack rounds of one phase among N gladiators (see the module's docstring).

    `attacks[i]`: gladiator i's attacks as (target, area, CF) in his order; `defences[i]` his
    defence CF per area. `on_hit(attacker, defender, area, outcome)` returns the CF the defender
    loses at once; it may call `set_equipment`, `cancel_attacks` or `cancel_attacks_on`.
    `no_defence(attacker, defender)`: the attacker stands in one of the defender's rear hexes
    (§27.4)."""

    def __init__(
        self,
        attacks: Sequence[Sequence[tuple[Who, Area, int]]],
        defences: Sequence[Sequence[int]],
        dice: CombatDice,
        on_hit: TeamHit,
        *,
        names: Sequence[str],
        speeds: Sequence[int | Sequence[int]],
        has_weapon: Sequence[bool],
        has_shield: Sequence[bool],
        crt: CrtVariant = "rules",
        yields: Mapping[Who, set[Who]] | None = None,
        no_defence: Callable[[Who, Who], bool] | None = None,
        drm: Callable[[Who, Who, Area], int] | None = None,
        shift: Callable[[Who, Who, Area], tuple[str, Mapping[str, str]] | None] | None = None,
    ) -> None:
        n = len(names)
        self.names = tuple(names)
        self.sequence = team_sequence(attacks, speeds, yields)
        self._dice = dice
        self._on_hit = on_hit
        self._drm = drm
        self._shift = shift
        self._no_defence = no_defence
        self._crt: CrtVariant = crt
        self._weapon = list(has_weapon)
        self._shield = list(has_shield)
        self._live = {
            (p.side, p.target, p.area): _Live(p, p.cf) for s in self.sequence for p in s.attacks
        }
        self._defence = [list(d) for d in defences]
        self._waiting = [0] * n
        self._charged = [0] * n
        self._fumble_due = [False] * n
        self.lost = [0] * n
        self.outcomes: list[tuple[TeamAttack, CrtOutcome]] = []
        self.events: list[Event] = [self._sequence_event()]
        self._next = 0

    # -- what on_hit may change -------------------------------------------------------------
    def set_equipment(
        self, side: Who, *, weapon: bool | None = None, shield: bool | None = None
    ) -> None:
        if weapon is not None:
            self._weapon[side] = weapon
        if shield is not None:
            self._shield[side] = shield

    def charge(self, side: Who, amount: int) -> None:
        """A CF loss on someone other than the defender (§23.2.1), taken with the step's."""
        self._charged[side] += amount

    def cancel_attacks(self, side: Who, reason: str, rule: str) -> None:
        """Every unresolved attack of his is cancelled (killed §10.3.2, unconscious §11.4)."""
        for live in self._pending(lambda p: p.side == side):
            self._cancel(live, reason, rule)

    def cancel_attacks_on(self, target: Who, reason: str, rule: str) -> None:
        """Every unresolved attack on him is cancelled (he is dead, §10.3.2)."""
        for live in self._pending(lambda p: p.target == target):
            self._cancel(live, reason, rule)

    def _cancel(self, live: _Live, reason: str, rule: str) -> None:
        live.status = "cancelled"
        p = live.planned
        self.events.append(
            _event(
                "attack_cancelled",
                rule,
                f"{self.names[p.side]}'s {p.area} attack on {self.names[p.target]} "
                f"({live.cf} CF) is cancelled: {reason}",
                side=p.side,
                area=p.area,
            )
        )

    # -- resolution -------------------------------------------------------------------------
    def run(self) -> list[Event]:
        while self._next < len(self.sequence):
            self._step(self.sequence[self._next])
            self._next += 1
        for side, left in enumerate(self._waiting):
            if left:
                self._waiting[side] = 0
                self.events.append(
                    _event(
                        "loss_without_effect",
                        "§9.4.8",
                        f"{left} CF of {self.names[side]}'s loss has no further effect: no "
                        "attack against him remained",
                        side=side,
                        amount=left,
                    )
                )
        self.events.append(_event("combat_end", "§9.4", "the phase's attacks are over"))
        return self.events

    def _step(self, step: TeamStep) -> None:
        active = [self._live[(p.side, p.target, p.area)] for p in step.attacks]
        active = [live for live in active if live.status == "pending"]
        if len(active) > 1:
            who = " and ".join(self.names[live.planned.side] for live in active)
            self.events.append(
                _event(
                    "simultaneous",
                    "§9.4.4",
                    f"round {step.round}: equal CF ({active[0].cf}), {who} strike simultaneously",
                    round=step.round,
                )
            )
        reads = []
        for live in active:  # read on the values from before the step (§9.4.4) ...
            reads.append((live, self._read(live)))
            live.status = "resolved"
        losses = [0] * len(self.names)
        for live, outcome in reads:  # ... then the results take effect (§9.4.6)
            p = live.planned
            outcome = self._reconvert(p, outcome)
            self.outcomes.append((p, outcome))
            if outcome.code == "F":
                self._fumble(p.side)
            elif outcome.code != "-":
                losses[p.target] += self._on_hit(p.side, p.target, p.area, outcome)
        for side in range(len(self.names)):
            total = losses[side] + self._charged[side]
            self._charged[side] = 0
            if total:
                self._lose(side, total)

    def _reconvert(self, p: TeamAttack, outcome: CrtOutcome) -> CrtOutcome:
        """G11: two simultaneous attacks on one man take effect in turn; a result that needs
        the shield or weapon the earlier one cost him is converted as §9.6 says."""
        d = p.target
        result, changes = convert_result(
            outcome.result, has_weapon=self._weapon[d], has_shield=self._shield[d]
        )
        for before, after, lacking in changes:
            self.events.append(
                _event(
                    "conversion",
                    "§9.6",
                    f"{self.names[d]} has no {lacking} now: {before} becomes {after}",
                    result=after,
                )
            )
        return replace(outcome, result=result) if changes else outcome

    def _read(self, live: _Live) -> CrtOutcome:
        p = live.planned
        d = p.target
        index = AREA_NUMBERS[p.area] - 1
        if self._waiting[d]:  # §9.4.7
            before = self._defence[d][index]
            self._defence[d][index] -= self._waiting[d]
            self.events.append(
                _event(
                    "defence_reduced",
                    "§9.4.7",
                    f"{self.names[d]}'s {p.area} defence {before} -> {self._defence[d][index]}: "
                    f"{self._waiting[d]} CF lost earlier this phase",
                    side=d,
                    area=p.area,
                    amount=self._waiting[d],
                )
            )
            self._waiting[d] = 0
        if self._fumble_due[d]:  # §9.6
            self._fumble_due[d] = False
            penalty = self._dice.roll("1D6", "fumble penalty", "§9.6")
            now = self._defence[d][index]
            self._defence[d][index] -= penalty
            self.events.append(
                _event(
                    "fumble_penalty",
                    "§9.6",
                    f"{self.names[d]} fumbled: 1D6 = {penalty} comes off his {p.area} defence, "
                    f"{now} -> {self._defence[d][index]}",
                    side=d,
                    area=p.area,
                    amount=penalty,
                )
            )
        defence = self._defence[d][index]
        rear = self._no_defence is not None and self._no_defence(p.side, d)
        if rear and defence > 0:  # §27.4 (G5): only a weakened defence still counts
            self.events.append(
                _event(
                    "rear_attack",
                    "§27.4",
                    f"{self.names[p.side]} attacks from {self.names[d]}'s rear hexes: his "
                    f"{p.area} defence {defence} does not count",
                    side=p.side,
                    area=p.area,
                )
            )
            defence = 0
        extra = self._drm(p.side, d, p.area) if self._drm is not None else 0
        outcome, events = resolve_crt(
            self._dice,
            live.cf,
            defence,
            drm=extra,
            has_weapon=self._weapon[d],
            has_shield=self._shield[d],
            crt=self._crt,
            label=f"{self.names[p.side]} -> {self.names[d]}'s {p.area}",
            defender=self.names[d],
            shift=self._shift(p.side, d, p.area) if self._shift is not None else None,
        )
        for e in events:
            e.update(side=p.side, target=d, area=p.area, round=p.round)
        events[0]["text"] = f"round {p.round}: {events[0]['text']}"
        self.events.extend(events)
        return outcome

    def _pending(self, keep: Callable[[TeamAttack], bool]) -> list[_Live]:
        out: list[_Live] = []
        for step in self.sequence[self._next :]:
            for p in step.attacks:
                live = self._live[(p.side, p.target, p.area)]
                if live.status == "pending" and keep(p):
                    out.append(live)
        return out

    def _fumble(self, side: Who) -> None:
        self._fumble_due[side] = True
        self.events.append(
            _event(
                "fumble",
                "§9.6",
                f"{self.names[side]} fumbles: his remaining attacks are cancelled, and 1D6 comes "
                "off the defence of his next area attacked",
                side=side,
            )
        )
        self.cancel_attacks(side, "fumble", "§9.6")

    def _lose(self, side: Who, amount: int) -> None:
        """§9.4.6-§9.4.8: off his own unresolved attacks, then his next area attacked."""
        name = self.names[side]
        self.lost[side] += amount
        self.events.append(
            _event("cf_loss", "§9.4.6", f"{name} loses {amount} CF", side=side, amount=amount)
        )
        left = amount
        for live in self._pending(lambda p: p.side == side):
            if not left:
                break
            take = min(live.cf, left)
            live.cf -= take
            left -= take
            area = live.planned.area
            if live.cf == 0:
                live.status = "cancelled"
                kind, text = "attack_cancelled", f"{name}'s {area} attack loses {take} CF and is "
                text += "cancelled"
            else:
                kind, text = "attack_reduced", f"{name}'s {area} attack loses {take} CF, "
                text += f"{live.cf} left"
            self.events.append(_event(kind, "§9.4.6", text, side=side, area=area, amount=take))
        if not left:
            return
        if self._pending(lambda p: p.target == side):
            self._waiting[side] += left
            self.events.append(
                _event(
                    "defence_loss_waiting",
                    "§9.4.7",
                    f"{left} CF will come off the defence of {name}'s next area attacked",
                    side=side,
                    amount=left,
                )
            )
        else:
            self.events.append(
                _event(
                    "loss_without_effect",
                    "§9.4.8",
                    f"{left} CF of {name}'s loss has no further effect this phase",
                    side=side,
                    amount=left,
                )
            )

    def _sequence_event(self) -> Event:
        parts = []
        for step in self.sequence:
            names = " = ".join(
                f"{self.names[p.side]}→{self.names[p.target]} {p.area} {p.cf}" for p in step.attacks
            )
            parts.append(f"r{step.round} {names}")
        return _event(
            "attack_sequence",
            "§9.4.2",
            "attack sequence: " + ("; ".join(parts) if parts else "no attacks"),
            steps=[
                [
                    {"side": p.side, "target": p.target, "area": p.area, "cf": p.cf}
                    for p in s.attacks
                ]
                for s in self.sequence
            ],
        )
