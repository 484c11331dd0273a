"""Magisphère's extended opposition as a timer: the form naming the opponent, the length and
both sides' scores, the request it makes, one d20 a side a round, and the score in words."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from gmscreen.campaign.model import Timer
from gmscreen.campaign.textsafe import clean
from gmscreen.i18n import N_, _
from gmscreen.i18n.typography import Name
from gmscreen.play.forms import Field, Form, int_check, nonempty
from gmscreen.play.timers import TimedTest, name_of

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign, Character
    from gmscreen.rules._base import System

D20 = 20


class ExtendedOpposition(TimedTest):
    """Rounds of opposed d20s until one side has the successes the length asks (2, 3, 5)."""

    kind = "opposition"
    option = N_("Extended opposition (Magisphère)")
    who_missing = N_("select the character who leads the opposition first (roster)")

    def form(self, campaign: Campaign, system: System, character: Character) -> Form:
        name = Name(clean(character.name))
        return Form(_("Extended opposition of {name}").format(name=name), [
            Field("label", _("Label"), check=nonempty(_("Label"))),
            Field("opponent", _("Opponent (a character's name or a free name)"), check=nonempty(_("Opponent"))),
            Field("target", _("Successes to get (2 brief, 3 tense, 5 major)"), "3",
                  check=int_check(1, 10, what=_("Successes"))),
            Field("actor_stat", _("Statistic of {name}").format(name=name), check=int_check(0, 30, what=_("Statistic"))),
            Field("actor_skill", _("Skill of {name}").format(name=name), "0",
                  check=int_check(0, 20, empty_ok=True, what=_("Skill"))),
            Field("opponent_stat", _("The opponent's statistic"), check=int_check(0, 30, what=_("Statistic"))),
            Field("opponent_skill", _("The opponent's skill"), "0",
                  check=int_check(0, 20, empty_ok=True, what=_("Skill"))),
        ])

    def make(self, campaign: Campaign, system: System, character: Character, values: dict[str, str]) -> Timer:
        others = {c.name.casefold(): c for c in campaign.characters if c.id != character.id}
        name = values["opponent"].strip()
        opponent = others.get(name.casefold())
        request = {"system": "magisphere", "kind": "extended_opposed", "target": int(values["target"]),
                   "actor_stat": int(values["actor_stat"]), "actor_skill": int(values["actor_skill"] or 0),
                   "opponent_stat": int(values["opponent_stat"]),
                   "opponent_skill": int(values["opponent_skill"] or 0)}
        return Timer(id="", label=values["label"].strip(), kind=self.kind, who=character.id,
                     opponent=opponent.id if opponent else name, request=request)

    def next_dice(self, dice: dict[str, Any], before: dict, rng: random.Random) -> str:
        for field in ("actor_dice", "opponent_dice"):
            dice.setdefault(field, []).append(1 + int(rng.random() * D20))
        return _("round {n}").format(n=len(dice['actor_dice']))

    def progress(self, campaign: Campaign, timer: Timer, result: dict) -> str:
        actor, opponent = clean(name_of(campaign, timer.who)), clean(name_of(campaign, timer.opponent))
        return (f"{actor} {result['actor_points']} – {result['opponent_points']} {opponent}"
                " · " + _("to {target}").format(target=result['target'])
                + " · " + _("round {n}").format(n=result['rounds']))


OPPOSITION = ExtendedOpposition()
