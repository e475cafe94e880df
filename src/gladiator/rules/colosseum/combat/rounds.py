"""The attack rounds of one combat phase among any number of figures (§5.2.6.3, §9.4-§9.6,
§27.3-§27.4): CF-loss propagation over the attack sequence.

A pure module: no movement, no wounds. What a body hit (or a shield hit, a parry) does to the
defender is the caller's business, plugged in as `on_hit`, which answers how many CF the
defender lost; this module carries that loss through the rest of the phase (§9.4.6-§9.4.8).
Every die goes through the match's `dice` with its purpose and rule section; every step emits
an event dict `{"type", "rule", "text"}` whose text ends with the rule section.

Readings of the reference (shared/rules/colosseum.md) this module follows:

* **Simultaneous attacks** are read on the values from before their step: every CRT roll of
  the step is made first, then the results take effect in turn, each converted for the kit the
  earlier ones left the defender (§9.6, G11); the losses they cause fall on later attacks only.
* **CF loss (§9.4.6-§9.4.8):** comes off the victim's unresolved attacks in sequence order (an
  attack cut to 0 is cancelled; the sequence stays). What they cannot absorb waits and comes off
  the defence of the next area of his that is actually attacked (cancelled attacks attack
  nothing); losses that wait add up; that defence may go below 0 and stays lowered for the
  phase. If no attack against him remains, the rest has no effect (§9.4.8).
* **Fumble (§9.6):** the fumbler's remaining attacks are cancelled. The 1D6 penalty is rolled
  only if he is attacked again this phase, when that attack comes, and comes off the defence of
  the area attacked (EX-9.6: 2 - (3 - 4) = 3).
* **Every attack is a separate attack (§27.4):** read on its own CF against the defence of the
  area it strikes, which counts against each attack on it, but one from a single gladiator's
  rear hexes (`no_defence`, G5).
* **Yielding (§27.3, G4)** orders the sequence (sequence.py); each round in which a single
  gladiator yields is logged after the sequence (`yield`), naming whom he yields to.
* The callback is called for every result that touches the defender (S, S*, P, P* and H); "-"
  and F are handled here. Where a phase has more than two figures, the log names each attack's
  target.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Protocol

from gladiator.rules.colosseum.combat.cf_account import CfAccount
from gladiator.rules.colosseum.combat.crt import CombatDice, CrtOutcome
from gladiator.rules.colosseum.combat.reading import Live, Reading, Shift
from gladiator.rules.colosseum.combat.sequence import (
    Plan,
    PlannedAttack,
    Side,
    Step,
    attack_sequence,
)
from gladiator.rules.colosseum.combat.weakness import Weakness
from gladiator.rules.colosseum.events import Event, event
from gladiator.rules.colosseum.tables.crt_tables import CrtResult
from gladiator.rules.colosseum.vocabulary import Area, CrtVariant

__all__ = ["OnHit", "PhaseCombat"]


class OnHit(Protocol):
    """What a result that touches the defender does: returns the CF he loses at once (>= 0)."""

    def __call__(self, attacker: Side, defender: Side, area: Area, result: CrtOutcome) -> int: ...


def _checked_loss(lost: object) -> int:
    if not isinstance(lost, int) or isinstance(lost, bool) or lost < 0:
        raise ValueError(f"on_hit must return the CF lost (an int >= 0), not {lost!r}")
    return lost


class PhaseCombat(Reading):
    """The attack sequence of one phase (§9.4-§9.6) over every figure's `plans`.

    `run()` (or `step()` repeatedly) resolves the attacks in sequence. `on_hit(attacker,
    defender, area, outcome)` may call `set_equipment` (a dropped weapon or shield changes later
    conversions), `charge` or `cancel_attacks`/`cancel_attacks_on` (a figure killed or knocked
    out). `drm(attacker, defender, area)` adds other DRMs to the CRT roll; `shift` a weapon's
    CRT shift; `speeds` are the weapons' Spd (§9.4.5); `has_weapon` and `has_shield` the
    defenders' kit at the start (§9.6); `yields` who yields to whom (§27.3, G4); `weakness` each
    figure's given-up attack (TL6); `named`: the log names each attack's target (a match of more
    than two figures, though fewer may be left to fight; default: more than two here).
    """

    def __init__(
        self,
        plans: Sequence[Plan],
        dice: CombatDice,
        on_hit: OnHit,
        *,
        names: Sequence[str] | None = None,
        speeds: Sequence[int | Sequence[int]] | None = None,
        has_weapon: Sequence[bool] | None = None,
        has_shield: Sequence[bool] | None = None,
        crt: CrtVariant = "rules",
        drm: Callable[[Side, Side, Area], int] | None = None,
        shift: Shift | None = None,
        guard_results: Mapping[str, CrtResult] | None = None,
        yields: Mapping[Side, set[Side]] | None = None,
        no_defence: Callable[[Side, Side], bool] | None = None,
        weakness: Sequence[Weakness | None] | None = None,
        named: bool | None = None,
    ) -> None:
        n = len(plans)
        names = tuple(names) if names is not None else tuple(f"G{i + 1}" for i in range(n))
        if len(names) != n or n < 2:
            raise ValueError(f"a phase's combat needs two or more figures, each named: {names}")
        self.names = names
        self.plans = tuple(plans)
        self._many = n > 2 if named is None else named  # the log names targets (the match's)
        self.sequence = attack_sequence(self.plans, speeds, yields)
        self._dice = dice
        self._on_hit = on_hit
        self._drm = drm
        self._shift = shift
        self._no_defence = no_defence
        self._crt = crt
        # §22.3: each special defence's automatic result (T20 by default; Q9's option).
        self._guard_results = dict(guard_results or {})
        self._weakness = list(weakness) if weakness is not None else [None] * n
        self._found: list[int | None] = [None] * n
        self._charged = [0] * n
        self._round = 0
        self._weapon = list(has_weapon) if has_weapon is not None else [True] * n
        self._shield = list(has_shield) if has_shield is not None else [True] * n
        self._live = {_key(p): Live(p, p.cf) for step in self.sequence for p in step.attacks}
        self._defence = [list(p.defence) for p in self.plans]
        self._fumble_due = [False] * n
        self.fumbled = [False] * n
        self.accounts = tuple(CfAccount() for _ in range(n))
        self.outcomes: list[tuple[PlannedAttack, CrtOutcome]] = []
        self.events: list[Event] = [self._sequence_event(), *self._yield_events(yields or {})]
        self._next = 0
        self._finished = False

    # -- state ------------------------------------------------------------------------------
    @property
    def done(self) -> bool:
        return self._finished

    def attack_cf(self, side: Side, area: Area) -> int:
        """His attack CF on that area now (0 if he did not attack it)."""
        live = self._attack_on(side, area)
        return 0 if live is None else live.cf

    def attack_status(self, side: Side, area: Area) -> str | None:
        live = self._attack_on(side, area)
        return None if live is None else live.status

    def _attack_on(self, side: Side, area: Area) -> Live | None:
        # One attack box per area (§9.4.1, G9), whatever its target.
        return next((v for (s, _, a), v in self._live.items() if s == side and a == area), None)

    def has_item(self, side: Side, item: str) -> bool:
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
        return [self._cancel(live, reason, rule) for live in self._pending(side=side)]

    def cancel_attacks_on(self, target: Side, reason: str, rule: str) -> list[Event]:
        """Cancel every unresolved attack on him (he is dead, §10.3.2)."""
        return [self._cancel(live, reason, rule) for live in self._pending(target=target)]

    def _cancel(self, live: Live, reason: str, rule: str) -> Event:
        live.status = "cancelled"
        p = live.planned
        on = f" on {self.names[p.target]}" if self._many else ""
        e = event(
            "attack_cancelled",
            rule,
            f"{self.names[p.side]}'s {p.area} attack{on} ({live.cf} CF) is cancelled: {reason}",
            side=p.side,
            area=p.area,
        )
        self.events.append(e)
        return e

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
        if self._next < len(self.sequence):
            self._resolve(self.sequence[self._next])
            self._next += 1
        if self._next >= len(self.sequence):
            self._close()
        return self.events[start:]

    def _resolve(self, step: Step) -> None:
        self._round = step.round
        active = [self._live[_key(p)] for p in step.attacks]
        active = [live for live in active if live.status == "pending"]
        if len(active) > 1:
            who = " and ".join(self.names[live.planned.side] for live in active)
            self.events.append(
                event(
                    "simultaneous",
                    "§9.4.4",
                    f"round {step.round}: equal CF ({active[0].cf}), {who} strike simultaneously",
                    round=step.round,
                )
            )
        reads: list[tuple[Live, CrtOutcome]] = []
        for live in active:  # every attack of the step is read on the values from before it
            reads.append((live, self._read(live)))
            live.status = "resolved"
        losses = [0] * len(self.names)
        for live, outcome in reads:  # ...then the results take effect in turn (§9.4.6, G11)
            p = live.planned
            outcome = self._reconvert(p, outcome)
            self.outcomes.append((p, outcome))
            if outcome.code == "F":
                self._fumble(p.side)
            elif outcome.code != "-":
                losses[p.target] += _checked_loss(self._on_hit(p.side, p.target, p.area, outcome))
        for side, lost in enumerate(losses):
            lost += self._charged[side]
            self._charged[side] = 0
            if lost:
                self._lose(side, lost)

    def counter_attack(self, side: Side, target: Side, cf: int, via: Area) -> int:
        """§22.2 Feint: an immediate counter-attack of `cf` CF by `side` on `target` (S4),
        struck with the weapon of the Feint on `via`; the CF the defender loses at once."""
        area = self.counter_area(side, target)
        planned = PlannedAttack(side, target, area, cf, self._round, -1)
        self.events.append(
            event(
                "feint_counter",
                "§22.2",
                f"{self.names[side]}'s feint opens {self.names[target]}'s guard: he "
                f"counter-attacks the {area} with {cf} CF",
                side=side,
                area=area,
                cf=cf,
            )
        )
        outcome = replace(self._read(Live(planned, cf, "resolved"), via=via), counter_of=via)
        self.outcomes.append((planned, outcome))
        if outcome.code == "F":
            self._fumble(side)
            return 0
        if outcome.code == "-":
            return 0
        return _checked_loss(self._on_hit(side, target, area, outcome))

    # -- CF losses (§9.4.6-§9.4.8) and fumbles (§9.6) ----------------------------------------
    def _pending(self, *, side: Side | None = None, target: Side | None = None) -> list[Live]:
        """His attacks (or those on him) not yet resolved nor cancelled, in sequence order."""
        out: list[Live] = []
        for step in self.sequence[self._next :]:
            for p in step.attacks:
                live = self._live[_key(p)]
                if live.status != "pending":
                    continue
                if (side is None or p.side == side) and (target is None or p.target == target):
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
        for live in self._pending(side=side):
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
        if self._pending(target=side):
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
        for side, account in enumerate(self.accounts):
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
        def shown(p: PlannedAttack) -> str:
            to = f"→{self.names[p.target]}" if self._many else ""
            return f"{self.names[p.side]}{to} {p.area} {p.cf}"

        def data(p: PlannedAttack) -> dict[str, object]:
            if self._many:
                return {"side": p.side, "target": p.target, "area": p.area, "cf": p.cf}
            return {"side": p.side, "area": p.area, "cf": p.cf}

        parts = [f"r{s.round} " + " = ".join(shown(p) for p in s.attacks) for s in self.sequence]
        return event(
            "attack_sequence",
            "§9.4.2",
            "attack sequence: " + ("; ".join(parts) if parts else "no attacks"),
            steps=[[data(p) for p in s.attacks] for s in self.sequence],
        )

    def _yield_events(self, yields: Mapping[Side, set[Side]]) -> list[Event]:
        """§27.3 (G4): each round in which a single gladiator's attacks wait for those of the
        adjacent opponents he makes no attack on."""
        out: list[Event] = []
        for rnd in sorted({s.round for s in self.sequence}):
            sides = {p.side for s in self.sequence if s.round == rnd for p in s.attacks}
            for side in sorted(sides):
                first = sorted(yields.get(side, set()) & sides)
                if not first:
                    continue
                to = ", ".join(self.names[x] for x in first)
                out.append(
                    event(
                        "yield",
                        "§27.3",
                        f"round {rnd}: {self.names[side]} yields to {to}, whom he does not "
                        "attack: his attacks of the round come last",
                        side=side,
                        round=rnd,
                        to=first,
                    )
                )
        return out


def _key(p: PlannedAttack) -> tuple[Side, Side, Area]:
    return p.side, p.target, p.area
