"""MIR's extended test (R19) as a timer: the form naming a skill, threshold, cap and
temporality, the request it makes, one test's d12s an interval, and R20 (during a fight, only
a Simple extended test, one turn a test, is rolled)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from gmscreen.campaign.model import Timer
from gmscreen.campaign.textsafe import clean
from gmscreen.play.forms import Field, Form, int_check
from gmscreen.play.timers import TimedTest
from gmscreen.rules.mir import INTERVAL_WORDS, SIDES

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign, Character
    from gmscreen.rules._base import Stat, System


def _fold(text: str) -> str:
    """Names the GM types, matched as everywhere else (surrounding spaces ignored)."""
    from gmscreen.play.quickroll.text import fold     # the quick-roll line loads on first use

    return fold(text.strip())


def _skills(system: System) -> dict[str, Stat]:
    return {s.key: s for s in system.group("skills").stats}   # type: ignore[union-attr]


def _find_skill(skills: dict[str, Stat], text: str) -> list[str]:
    """The skills `text` names: by full name or key, else those it begins."""
    t = _fold(text)
    exact = [k for k, s in skills.items() if _fold(s.label) == t or k == t]
    return exact or [k for k, s in skills.items() if _fold(s.label).startswith(t) or k.startswith(t)]


class ExtendedTest(TimedTest):
    """R19: successes summed over several tests of a skill, one per temporality."""

    kind = "extended"
    option = "Test étendu (MIR) pour le personnage sélectionné"
    who_missing = "sélectionnez d'abord le personnage qui fait le test (roster)"

    def form(self, campaign: Campaign, system: System, character: Character) -> Form:
        skills = _skills(system)

        def check_skill(text: str) -> str | None:
            found = _find_skill(skills, text) if text.strip() else []
            if len(found) == 1:
                return None
            if not found:
                return f"Compétence : aucune ne commence par {text.strip()!r}"
            return "Compétence ambiguë : " + ", ".join(skills[k].label for k in found)

        def check_interval(text: str) -> str | None:
            return None if _fold(text) in INTERVAL_WORDS else "Temporalité : tour, heure, jour ou semaine"

        return Form(f"Test étendu de {clean(character.name)}", [
            Field("skill", "Compétence", check=check_skill),
            Field("threshold", "Succès à atteindre (SD étendu)", check=int_check(1, 99, what="SD")),
            Field("max", "Nombre de tests au plus (vide : sans limite)",
                  check=int_check(0, 99, empty_ok=True, what="Maximum")),
            Field("interval", "Temporalité (tour, heure, jour, semaine)", "jour", check=check_interval),
        ], note="R19 : « Guérison (Héritage) (1 jour, 3 max.) 8 succès »")

    def make(self, campaign: Campaign, system: System, character: Character, values: dict[str, str]) -> Timer:
        skills = _skills(system)
        voies = {s.key: s for s in system.group("voies").stats}     # type: ignore[union-attr]
        key = _find_skill(skills, values["skill"])[0]
        skill = skills[key]
        sheet = character.sheet
        level = sheet.get("skills", {}).get(key, 0)
        voie = sheet.get("voies", {}).get(skill.parent, 1)
        threshold = int(values["threshold"])
        cap = int(values["max"].strip() or "0")
        interval = _fold(values["interval"])
        request = {"system": "mir", "kind": "extended", "skill": level, "voie": voie,
                   "threshold": threshold, "max_tests": cap, "interval": interval}
        label = (f"{skill.label} ({voies[skill.parent].label}) ({INTERVAL_WORDS[interval]}{f', {cap} max.' if cap else ''}) "
                 f"{threshold} succès")
        return Timer(id="", label=label, kind=self.kind, who=character.id, request=request)

    def refusal(self, campaign: Campaign, timer: Timer) -> str | None:
        interval = timer.request.get("interval", "")
        if campaign.encounter.round > 0 and interval not in ("", "tour"):
            # R20: during a fight, only a Simple extended test (1 tour) is rolled.
            return (f"R20 : pendant un combat, seul un test étendu Simple (1 tour) se fait ; "
                    f"celui-ci prend {INTERVAL_WORDS.get(interval, interval)} : "
                    "il se lance une fois le combat fini (E)")
        return None

    def next_dice(self, dice: dict[str, Any], before: dict, rng: random.Random) -> str:
        rolls = dice.get("rolls", [])
        rolls.append([1 + int(rng.random() * SIDES) for _ in range(before["dice_per_test"])])
        dice["rolls"] = rolls
        return f"test {len(rolls)}"

    def progress(self, campaign: Campaign, timer: Timer, result: dict) -> str:
        cap = result.get("max_tests", 0)
        parts = [f"{result['total_successes']}/{result['threshold']}",
                 f"test {result['tests']}/{cap}" if cap else f"test {result['tests']}"]
        interval = INTERVAL_WORDS.get(result.get("interval", ""))
        if interval:
            parts.append(interval)
        if result["outcome"] == "failure":
            parts.append("0 succès" if result["failure_reason"] == "no_success" else "tests épuisés")
        return " · ".join(parts)


EXTENDED = ExtendedTest()
