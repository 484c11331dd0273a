"""MIR's extended test (R19) as a timer: the form naming a skill, threshold, cap and
temporality, the request it makes, one test's d12s an interval, and R20 (during a fight, only
a Simple extended test, one turn a test, is rolled).

The roller's conditions are re-read at each interval: the timer keeps the request as typed (no
condition in it) and, in `test_modifiers`, what the conditions changed at each test made (a
dazzle gone gives its die back, a wound taken costs one: R3–R5 as for a simple test)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from gmscreen.campaign.model import Timer
from gmscreen.campaign.textsafe import clean
from gmscreen.i18n import N_, _
from gmscreen.i18n.typography import Name
from gmscreen.play.forms import Field, Form, int_check
from gmscreen.play.timers import TimedTest
from gmscreen.rules.mir import INTERVAL_WORDS, SIDES, dice_count

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
    option = N_("Extended test (MIR) for the selected character")
    who_missing = N_("select the character who makes the test first (roster)")

    def form(self, campaign: Campaign, system: System, character: Character) -> Form:
        skills = _skills(system)

        def check_skill(text: str) -> str | None:
            found = _find_skill(skills, text) if text.strip() else []
            if len(found) == 1:
                return None
            if not found:
                return _("Skill: none begins with {text}").format(text=repr(text.strip()))
            return _("Ambiguous skill: {skills}").format(skills=", ".join(skills[k].label for k in found))

        def check_interval(text: str) -> str | None:
            return None if _fold(text) in INTERVAL_WORDS else _("Temporality: tour, heure, jour or semaine")

        return Form(_("Extended test of {name}").format(name=Name(clean(character.name))), [
            Field("skill", _("Skill"), check=check_skill),
            Field("threshold", _("Successes to reach (extended SD)"), check=int_check(1, 99, what="SD")),
            Field("max", _("Number of tests at most (empty: no limit)"),
                  check=int_check(0, 99, empty_ok=True, what=_("Maximum"))),
            Field("interval", _("Temporality (tour, heure, jour, semaine)"), "jour", check=check_interval),
        ], note=_("R19: « Guérison (Héritage) (1 jour, 3 max.) 8 succès »"))

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
                   "threshold": threshold, "max_tests": cap, "interval": interval,
                   "test_modifiers": []}         # the conditions re-read from the first interval on
        label = (f"{skill.label} ({voies[skill.parent].label}) ({INTERVAL_WORDS[interval]}{f', {cap} max.' if cap else ''}) "
                 f"{threshold} succès")
        return Timer(id="", label=label, kind=self.kind, who=character.id, request=request)

    def refusal(self, campaign: Campaign, timer: Timer) -> str | None:
        interval = timer.request.get("interval", "")
        if campaign.encounter.round > 0 and interval not in ("", "tour"):
            # R20: during a fight, only a Simple extended test (1 tour) is rolled.
            return _("R20: during a fight, only a Simple extended test (1 tour) is made; this one takes "
                     "{interval}: it is rolled once the fight is over (E)").format(
                         interval=INTERVAL_WORDS.get(interval, interval))
        return None

    def next_dice(self, dice: dict[str, Any], before: dict, rng: random.Random,
                  request: dict[str, Any] | None = None) -> str:
        rolls = dice.get("rolls", [])
        n = before["dice_per_test"]
        if request is not None:             # R5 with this test's change (`test_modifiers`)
            changes = request.get("test_modifiers") or []
            n = dice_count(request, "", changes[len(rolls)] if len(rolls) < len(changes) else 0)
        rolls.append([1 + int(rng.random() * SIDES) for _ in range(n)])
        dice["rolls"] = rolls
        return _("test {n}").format(n=len(rolls))

    def start_fields(self, request: dict[str, Any], unconditioned: dict[str, Any] | None,
                     result: dict[str, Any]) -> dict[str, Any]:
        """The request as typed, and what the roller's conditions changed at each test the line
        rolled (one, or each group of faces typed)."""
        typed = dict(unconditioned if unconditioned is not None else request)
        typed.pop("test_modifiers", None)
        change = _dice_change(request) - _dice_change(typed)
        return {"request": {**typed, "test_modifiers": [change] * len(result.get("rolls") or [[]])}}

    def interval_request(self, campaign: Campaign, timer: Timer) -> tuple[dict[str, Any], list]:
        """The timer's request with the change of the next test: the roller's conditions as they
        stand now (in a fight, its wounds too: R4), capped as for a simple test (R3). A timer
        without `test_modifiers` (kept before conditions were re-read) has them in its request
        already: as it is."""
        request = timer.request
        if not isinstance(request.get("test_modifiers"), list):
            return request, []
        from gmscreen.play.effects import apply_conditions, scene_of

        from . import TABLE                  # this game's own parts
        from gmscreen.play.quickroll.grammar import Side

        made = len(timer.dice.get("rolls") or [])
        changes = (list(request["test_modifiers"]) + [0] * made)[:made]
        typed = {k: v for k, v in request.items() if k != "test_modifiers"}
        character = campaign.character(timer.who) if timer.who else None
        met: list = []
        if character is not None:
            side = Side("actor", 0, character=character)
            now, met, _unused = apply_conditions(TABLE, "extended", typed, [side], scene=scene_of(campaign))
            change = _dice_change(now) - _dice_change(typed)
        else:
            change = 0
        return {**request, "test_modifiers": changes + [max(-12, min(12, change))]}, met

    def progress(self, campaign: Campaign, timer: Timer, result: dict) -> str:
        cap = result.get("max_tests", 0)
        parts = [f"{result['total_successes']}/{result['threshold']}",
                 _("test {n}/{cap}").format(n=result['tests'], cap=cap) if cap
                 else _("test {n}").format(n=result['tests'])]
        interval = INTERVAL_WORDS.get(result.get("interval", ""))
        if interval:
            parts.append(interval)
        if result["outcome"] == "failure":
            parts.append(_("0 successes") if result["failure_reason"] == "no_success" else _("tests used up"))
        return " · ".join(parts)


def _dice_change(request: dict[str, Any]) -> int:
    """The dice a request's situation and antecedents add (R3, R4): modifier − penalty."""
    return int(request.get("modifier", 0) or 0) - int(request.get("penalty", 0) or 0)


EXTENDED = ExtendedTest()
