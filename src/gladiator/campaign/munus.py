"""§30: arranging every bout of a munus.

The entered gladiators are taken in turn (lanistas in their order, each stable in its order);
each one not yet matched finds his match (§30.2: T31, death roll, T32, styles) and is matched
with opponents; a gladiator fights one match per munus (§30.2 NOTE), so whoever is drawn into
a bout is not taken again.

L2 (who the opponents are): where the match type allows, the opponents are gladiators of another
lanista (the "opposing Lanista" of §37.4) who can fight in the rolled challenger category: the
lanistas after the gladiator's own are asked in turn, and the first with such a man entered and
unmatched fills the other side as far as his entered men go. The rest, and all opponents of a
Champion match (an arena Champion, §30.2.1.1) and of a Consecutive (the house's run of fresh
challengers), are the house's challengers (§30.3). Teammates (Two/Three Pairs, Battle) come from
the gladiator's own lanista's entered men first, then the house. A Unique Match (66) is the
match-maker's choice on P4's menu, which the gladiator's lanista may set up anew (L4): the men
in it besides him are the house's. Beast fights are against 1D3 beasts (P3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gladiator.campaign.challengers import new_challenger
from gladiator.campaign.creation import gladiator_name
from gladiator.campaign.fights import BEAST, build_fight
from gladiator.campaign.pairing import career_styles, pick_style, roll_beast, roll_match
from gladiator.campaign.state import Bout, CampaignState, Career, Side, UniqueMatch
from gladiator.campaign.tables import MatchType, campaign_tables
from gladiator.campaign.unique import roll_unique
from gladiator.core.dice import Dice

__all__ = ["arrange_munus", "rearrange_unique"]

# Men per side beyond the gladiator himself, and whether another lanista's men may be drawn.
_TEAM: dict[MatchType, int] = {"two_pairs": 2, "three_pairs": 3}
_LANISTA_OPPONENTS: set[MatchType] = {
    "matched_pair",
    "two_on_one",
    "two_pairs",
    "three_pairs",
    "battle",
}
_BEAST_STYLES = {"venatores": "venator", "bestiarii": "bestiarius"}
CONTRA = "contra_retiarius"


class _Arranger:
    def __init__(
        self,
        state: CampaignState,
        dice: Dice,
        entries: Sequence[str],
        preferences: Mapping[str, Sequence[str]],
    ) -> None:
        self.state = state
        self.dice = dice
        self.entries = list(entries)
        self.matched: set[str] = set()
        self.preferences = preferences
        self.order = [lanista.id for lanista in state.active_lanistas()]

    def career(self, gid: str) -> Career:
        return self.state.gladiators[gid]

    def free(self, lanista: str | None, category: str | None, *, skip: str = "") -> list[str]:
        """Entered, unmatched men of `lanista` who can fight in `category`."""
        return [
            g
            for g in self.entries
            if g not in self.matched
            and g != skip
            and self.career(g).lanista == lanista
            and career_styles(self.career(g), category)
        ]

    def challenger(self, opponent_record: int, champion: bool) -> str:
        gid = self.state.new_id("g")
        name = gladiator_name(self.state.meta.next_id - 2)
        self.state.gladiators[gid] = new_challenger(
            self.dice, id=gid, name=name, opponent_record=opponent_record, champion=champion
        )
        return gid

    def style(self, gid: str, category: str | None, bout: Bout) -> None:
        career = self.career(gid)
        prefs = self.preferences.get(gid, ()) if career.lanista is not None else ()
        bout.styles[gid] = pick_style(
            self.dice, career_or_none(career), category, career.name, prefs
        )

    def arrange(self, gid: str, arena_size: int) -> Bout:
        g = self.career(gid)
        self.matched.add(gid)
        roll = roll_match(self.dice, g)
        kind: MatchType = roll.row.type
        bout = Bout(
            id=self.state.new_id("b"),
            munus=self.state.meta.munus,
            type=kind,
            sine_missione=roll.sine_missione,
            categories=list(roll.categories or ()),
            sides=[],
        )
        t = campaign_tables().challengers
        if kind == "unique":
            self.unique(bout, gid, roll_unique(self.dice), arena_size)
            return bout
        if kind in _BEAST_STYLES:
            bout.styles[gid] = _BEAST_STYLES[kind]
            beasts = [
                BEAST + roll_beast(self.dice)
                for _ in range(self.dice.roll(t.beasts_dice, "beasts fought", "§30.2.1.1"))
            ]
            # The beasts are the house's side: the bank takes the bet (L3).
            bout.sides = [
                Side(lanista=g.lanista, gladiators=[gid]),
                Side(lanista=None, gladiators=[]),
            ]
            self._fight(bout, [gid], beasts, arena_size)
            return bout
        mine, theirs = roll.categories if roll.categories else (None, None)
        per_side = _TEAM.get(kind, 1)
        opponents_n = {"two_on_one": 2, "consecutive": 0}.get(kind, per_side)
        if kind == "battle":
            per_side = opponents_n = self.dice.roll(t.battle_dice, "men per side", "§30.2.1.1")
        team = [gid, *self.free(g.lanista, mine)[: per_side - 1]]
        self.matched.update(team)
        record = g.record.total
        team += [self.challenger(record, False) for _ in range(per_side - len(team))]
        rival_lanista: str | None = None
        rivals: list[str] = []
        if kind in _LANISTA_OPPONENTS:
            rival_lanista, rivals = self._rivals(g.lanista, theirs, opponents_n)
        self.matched.update(rivals)
        champion = kind == "champion"
        rivals += [self.challenger(record, champion) for _ in range(opponents_n - len(rivals))]
        for member in team:
            self.style(member, mine, bout)
        for member in rivals:
            self.style(member, theirs, bout)
        if kind == "consecutive":
            n = self.dice.roll(t.consecutive_dice, "opponents one after another", "§30.2.1.1")
            run = [self.challenger(record, False) for _ in range(n + t.consecutive_plus)]
            for member in run:
                self.style(member, theirs, bout)
            bout.sides = [
                Side(lanista=g.lanista, gladiators=team),
                Side(lanista=None, gladiators=run),
            ]
            for member in run:
                self._fight(bout, team, [member], arena_size)
            return bout
        bout.sides = [
            Side(lanista=g.lanista, gladiators=team),
            Side(lanista=rival_lanista, gladiators=rivals),
        ]
        self._fight(bout, team, rivals, arena_size)
        return bout

    def unique(self, bout: Bout, gid: str, spec: UniqueMatch, arena_size: int) -> None:
        """§30.2.1.1, P4: his side of `spec.men` (he and the house's men) against
        `spec.opponents` of the house's challengers, or `spec.beasts` random beasts (P3)."""
        g = self.career(gid)
        mine, theirs = bout.categories if bout.categories else (None, None)
        if spec.beasts and bout.styles.get(gid) == CONTRA:
            del bout.styles[gid]  # F1: a Contra-Retiarius fights no beast; he takes another style
            mine = None
        record = g.record.total
        team = [gid] + [self.challenger(record, False) for _ in range(spec.men - 1)]
        bout.unique = spec
        bout.sine_missione = spec.sine_missione and not spec.beasts
        for member in team:
            if member not in bout.styles:
                self.style(member, None if spec.beasts and mine == "V" else mine, bout)
        if spec.beasts:
            beasts = [BEAST + roll_beast(self.dice) for _ in range(spec.beasts)]
            bout.sides = [
                Side(lanista=g.lanista, gladiators=team),
                Side(lanista=None, gladiators=[]),
            ]
            self._fight(bout, team, beasts, arena_size)
            return
        rivals = [self.challenger(record, False) for _ in range(spec.opponents)]
        for member in rivals:
            self.style(member, theirs, bout)
        bout.sides = [
            Side(lanista=g.lanista, gladiators=team),
            Side(lanista=None, gladiators=rivals),
        ]
        self._fight(bout, team, rivals, arena_size)

    def _rivals(
        self, own: str | None, category: str | None, n: int
    ) -> tuple[str | None, list[str]]:
        """L2: the first other lanista, after `own` in turn, with a man for `category`."""
        if own not in self.order:
            return None, []
        start = self.order.index(own)
        for step in range(1, len(self.order)):
            other = self.order[(start + step) % len(self.order)]
            men = self.free(other, category)[:n]
            if men:
                return other, men
        return None, []

    def _fight(self, bout: Bout, a: list[str], b: list[str], arena_size: int) -> None:
        seats, options = build_fight(self.state, bout, a, b, arena_size)
        bout.seats.append(seats)
        bout.fights.append(options)


def career_or_none(career: Career) -> Career | None:
    """A challenger (the house's) is born to his style: no talent bars him from one."""
    return career if career.lanista is not None else None


def rearrange_unique(
    state: CampaignState, dice: Dice, bout: Bout, spec: UniqueMatch, arena_size: int
) -> None:
    """A Unique Match set up again (§30.2.1.1): the house's men of its old set-up never fight
    (they go back to the school) and the bout is made anew from `spec`."""
    gid = bout.sides[0].gladiators[0]
    for member in bout.gladiators():
        if member != gid:
            state.gladiators[member].status = "retired"
            bout.styles.pop(member, None)
    bout.seats, bout.fights = [], []
    _Arranger(state, dice, [], {}).unique(bout, gid, spec, arena_size)


def arrange_munus(
    state: CampaignState,
    dice: Dice,
    entries: Sequence[str],
    arena_size: int,
    preferences: Mapping[str, Sequence[str]] | None = None,
) -> list[Bout]:
    """§30.2 for every entered gladiator; the bouts are added to `state` and returned."""
    arranger = _Arranger(state, dice, entries, preferences or {})
    bouts: list[Bout] = []
    for gid in entries:
        if gid in arranger.matched:
            continue
        bout = arranger.arrange(gid, arena_size)
        state.bouts[bout.id] = bout
        bouts.append(bout)
    return bouts
