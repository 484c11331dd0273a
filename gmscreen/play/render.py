"""A result in the words of the command line and of the roll log: variants of the one renderer.

`gmscreen.rules.render.DescriptionRenderer` walks a rules `Description` piece by piece (d20's
stringifiers are the model); here are the command line's variant (`CliRenderer`: each die with
its word, "detail → headline"), the roll log's (`CompactRenderer`: every die in a few
characters), and the log's fallback for a record the rules cannot describe. The Markdown
export's variant sits beside its escapes (`gmscreen.campaign.export.MarkdownRenderer`), the dice
tray's styled one in the ui. What a game calls things (its die words, the unit of a total, the
difficulty's name) is read from its `System`, never from its id; every word is said in the
language spoken (`gmscreen.i18n`). No Textual here.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from gmscreen.i18n import _, pgettext
from gmscreen.i18n.games import words_for
from gmscreen.rules._base import Description, DiceGroup, Die, System
from gmscreen.rules.render import DescriptionRenderer, describe

__all__ = ["CliRenderer", "CompactRenderer", "DescriptionRenderer", "describe", "describe_result",
           "difficulty_name", "name_difficulty", "outcome_words", "status_words"]


def describe_result(system: System | None, result: Mapping[str, Any]) -> Description:
    """The system's own words, or the bare outcome when the record cannot be described
    (an older or hand-edited log must still show, never crash the screen)."""
    if "system" not in result and isinstance(result.get("total"), int) and "expression" in result:
        # A plain dice expression (initiative, `2d6+1`): its total and faces, no system words.
        dice = result.get("dice")
        faces = [f for f in dice if isinstance(f, int) and not isinstance(f, bool)] if isinstance(dice, list) else []
        group = DiceGroup(label="", dice=tuple(Die(face=f, sides=0) for f in faces), total=result["total"])
        return Description(headline=f"= {result['total']}", detail="", groups=(group,), good=None)
    described = describe(system, result)
    if described is not None:
        return described
    key = result.get("outcome", result.get("winner", ""))
    return Description(headline=outcome_words(system, key) if isinstance(key, str) and key else "?",
                       detail="", groups=(), good=None)


def outcome_words(system: System | None, key: str) -> str:
    """An outcome key in the language spoken: the system's words (English msgids, or a
    third-party game's own words, shown as they are) else the key itself, said."""
    words = system.outcome_words if system is not None else {}
    return _(words.get(key) or key.replace("_", " "))


# ---------------------------------------------------------------- the command line

def status_words() -> dict[str, str]:
    """What each die status is called on the command line, in the language spoken."""
    return {
        "counted": pgettext("die", "counted"),
        "critical": pgettext("die", "critical"),
        "fumble": pgettext("die", "fumble"),
        "exploded": pgettext("die", "explodes"),
        "rerolled": pgettext("die", "rerolled"),
        "kept": pgettext("die", "kept"),
        "plain": "",
    }


def difficulty_name(system: System, request: Mapping[str, Any]) -> tuple[int, str] | None:
    """(2, "Facile") when the request's difficulty is a row the system's table names."""
    value = request.get(system.difficulty_field)
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    for row in system.difficulties:
        if row.value == value and row.label:
            return value, row.label
    return None


def name_difficulty(text: str, system: System, request: Mapping[str, Any]) -> str:
    """'pour SD 2' -> 'pour SD 2 (Facile)' when the table names that value and the text does not."""
    named = difficulty_name(system, request)
    if not named:
        return text
    value, label = named
    pattern = re.compile(rf"\b(SD|SR|seuil|Seuil|difficulté|Difficulté|threshold|Threshold|difficulty|Difficulty)"
                         rf"( de| of)? {value}\b(?! \()")
    return pattern.sub(lambda m: f"{m.group(0)} ({label})", text, count=1)


class CliRenderer(DescriptionRenderer[str]):
    """`gmscreen roll`: one line per group, each die with its word ("[12 succès critique = 2]"),
    then "detail → headline", the difficulty named from the table."""

    die_separator = "  "
    no_dice = "—"

    def __init__(self, system: System, request: Mapping[str, Any]) -> None:
        self.system = system
        self.request = request
        # A game's own die words are English msgids (a third-party game's own words stay as given).
        own = words_for(system.id)          # the game's own catalog first (gmscreen.i18n.games)
        self.own = own
        self.words = {**status_words(), **{k: own.pgettext("die", w) for k, w in system.die_words.items()}}

    def die(self, die: Die) -> str:
        word = self.words.get(die.status, die.status)
        return f"[{die.face} {word}]" if word else str(die.face)

    def total(self, group: DiceGroup) -> str:
        if group.total is None:
            return ""
        unit = (self.system.total_unit_one or self.system.total_unit) if abs(group.total) == 1 \
            else self.system.total_unit
        space = unit[:len(unit) - len(unit.lstrip())]
        return f"  = {group.total}{space}{self.own.pgettext('total unit', unit.strip())}" if unit.strip() else f"  = {group.total}"

    def group(self, group: DiceGroup) -> str:
        return "  " + _("{label}: {dice}").format(label=group.label, dice=self.dice(group)) + self.total(group)

    def detail(self, desc: Description) -> str:
        return name_difficulty(desc.detail, self.system, self.request)

    def lines(self, desc: Description) -> list[str]:
        detail = self.detail(desc)
        outcome = f"  {detail} → {desc.headline}" if detail else f"  {desc.headline}"
        return [self.group(g) for g in desc.groups if self.shows(g)] + [outcome]

    def render(self, desc: Description) -> str:
        return "\n".join(self.lines(desc))


# ---------------------------------------------------------------- the roll log


class CompactRenderer(DescriptionRenderer[str]):
    """The log's dice column, every die in a few characters: an open die joins the next with
    "+", a rerolled one points to its replacement, criticals and fumbles get "!"; groups split by
    "|", no labels nor totals."""

    group_separator = " | "

    def __init__(self, *, ascii: bool = False) -> None:
        self.arrow = "->" if ascii else "→"

    def die(self, die: Die) -> str:
        return str(die.face) + ("!" if die.status in ("critical", "fumble") else "")

    def after(self, die: Die) -> str:
        """What follows a face: how it leads to the next one."""
        if die.status == "exploded":
            return "+"
        if die.status == "rerolled":
            return self.arrow
        return " "

    def dice(self, group: DiceGroup) -> str:
        return "".join(self.die(d) + self.after(d) for d in group.dice).rstrip()

    def group(self, group: DiceGroup) -> str:
        return self.dice(group)

    def shows(self, group: DiceGroup) -> bool:
        return bool(group.dice)
