"""A roll result as the dice tray draws it: the headline, every die in the style of its status,
groups side by side wrapping at the tray's width, and the mask shown while players watch.

Pure rendering: Textual `Content` from what the rules described; every untrusted string
(names, headlines, details, labels) goes through `literal`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.content import Content

from ..sanitize import literal

if TYPE_CHECKING:
    from gmscreen.play.quickroll import Draft
    from gmscreen.campaign.model import RollRecord
    from gmscreen.rules._base import DiceGroup

# How each die status looks (theme variables, so every theme, ANSI included, decides).
DIE_STYLES = {
    "counted": "bold $success",
    "critical": "bold reverse $success",
    "fumble": "bold $error",
    "exploded": "underline $warning",
    "rerolled": "strike $text-muted",
    "kept": "bold",
    "plain": "$text-muted",
}


@dataclass(frozen=True)
class ShownRoll:
    """The roll the tray shows, kept so that it can be drawn again: masked or not as the players
    come and go, revealed from the log, or at a new width."""

    who: str
    headline: str
    detail: str
    good: bool | None
    groups: tuple[DiceGroup, ...]
    gm_only: bool
    secret: bool                        # GM-only or secret difficulty: masked while players watch
    record: RollRecord | None = None    # None when not logged (read-only campaign)
    pending: bool = False               # a choice is still to be made
    plain: str | None = None            # a result the rules cannot describe, shown as it is

    @property
    def masked(self) -> bool:
        return self.secret and not (self.record is not None and self.record.revealed)


def shown_content(shown: ShownRoll, *, watching: bool, ascii: bool, width: int) -> Content:
    """The whole result: masked while players watch a secret roll, else headline and dice rows."""
    if watching and shown.masked:
        return masked_content(ascii)
    if shown.plain is not None:
        return literal(shown.plain)
    return Content("\n").join([headline_content(shown), *dice_lines(shown.groups, width)])


def masked_content(ascii: bool) -> Content:
    """What the players see of a GM-only or secret roll."""
    mark = "*" if ascii else "◆"
    return Content.assemble((f"{mark} jet secret du MJ", "bold $warning"),
                            ("  (joueurs présents : dés et résultat masqués)", "$text-muted"))


def headline_content(shown: ShownRoll) -> Content:
    """"MJ Ana : réussite  détail": who rolled, the outcome in its colour, the detail."""
    parts: list[Any] = []
    if shown.gm_only:
        parts.append(("MJ ", "bold $warning"))
    style = "bold $success" if shown.good else "bold $error" if shown.good is False else "bold"
    headline = shown.headline
    if shown.pending:
        style, headline = "bold", "en cours"
    parts += [literal(shown.who, "bold"), " : ", literal(headline, style)]
    if shown.detail:
        parts += ["  ", literal(shown.detail, "$text-muted")]
    return Content.assemble(*parts)


def dice_lines(groups: tuple[DiceGroup, ...], width: int) -> list[Content]:
    """Every die on screen: groups (a side, a die of the roll) side by side while they fit in
    `width`, a new line before a group that does not (a contest is cut between its sides, not
    at the right edge)."""
    lines: list[Content] = []
    for group in groups:
        content = group_content(group)
        if lines and lines[-1].cell_length + 2 + content.cell_length <= width:
            lines[-1] = Content.assemble(lines[-1], "  ", content)
        else:
            lines.append(content)
    return lines


def group_content(group: DiceGroup) -> Content:
    """"acteur 3 8 7 12 = 4": the label, each die in the style of its status, the total (left out
    when it only repeats a single die)."""
    parts: list[Any] = []
    if group.label:
        parts.append(literal(group.label + " ", "$text-muted"))
    for n, die in enumerate(group.dice):
        if n:
            parts.append(" ")
        parts.append((f"{die.face}", DIE_STYLES.get(die.status, "")))
    single = len(group.dice) == 1 and group.dice[0].face == group.total
    if group.total is not None and not single:
        parts.append((f" = {group.total}", "bold"))
    return Content.assemble(*parts)


def winner_words(winner: str | None, draft: Draft, fallback: str) -> str:
    """The headline of a contest: who won, by name."""
    if winner == "actor":
        return f"{draft.who} l'emporte"
    if winner == "opponent" and len(draft.sides) > 1:
        return f"{draft.sides[1].name} l'emporte"
    return fallback
