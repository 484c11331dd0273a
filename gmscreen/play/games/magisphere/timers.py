"""Magisphère's extended opposition as a timer: the form naming the opponent, the length and
both sides' scores, the request it makes, one d20 a side a round, and the score in words."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from gmscreen.campaign.model import Timer
from gmscreen.campaign.textsafe import clean
from gmscreen.play.forms import Field, Form, int_check, nonempty
from gmscreen.play.timers import TimedTest, name_of

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign, Character
    from gmscreen.rules._base import System

D20 = 20


class ExtendedOpposition(TimedTest):
    """Rounds of opposed d20s until one side has the successes the length asks (2, 3, 5)."""

    kind = "opposition"
    option = "Opposition étendue (Magisphère)"
    who_missing = "sélectionnez d'abord le personnage qui mène l'opposition (roster)"

    def form(self, campaign: Campaign, system: System, character: Character) -> Form:
        name = clean(character.name)
        return Form(f"Opposition étendue de {name}", [
            Field("label", "Libellé", check=nonempty("Libellé")),
            Field("opponent", "Adversaire (nom d'un personnage ou nom libre)", check=nonempty("Adversaire")),
            Field("target", "Réussites à obtenir (2 brève, 3 tendue, 5 majeure)", "3",
                  check=int_check(1, 10, what="Réussites")),
            Field("actor_stat", f"Statistique de {name}", check=int_check(0, 30, what="Statistique")),
            Field("actor_skill", f"Compétence de {name}", "0",
                  check=int_check(0, 20, empty_ok=True, what="Compétence")),
            Field("opponent_stat", "Statistique de l'adversaire", check=int_check(0, 30, what="Statistique")),
            Field("opponent_skill", "Compétence de l'adversaire", "0",
                  check=int_check(0, 20, empty_ok=True, what="Compétence")),
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
        return f"manche {len(dice['actor_dice'])}"

    def progress(self, campaign: Campaign, timer: Timer, result: dict) -> str:
        actor, opponent = clean(name_of(campaign, timer.who)), clean(name_of(campaign, timer.opponent))
        return (f"{actor} {result['actor_points']} – {result['opponent_points']} {opponent}"
                f" · en {result['target']} · manche {result['rounds']}")


OPPOSITION = ExtendedOpposition()
