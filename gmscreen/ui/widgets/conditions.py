"""A character's conditions in words: the short line of the roster and the initiative (with
their rounds left, fitted to a width) and one condition in full (notices, the sheet). Every
name and effect is the GM's text: cleaned, never read as markup."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from gmscreen.campaign.model import Character
from gmscreen.i18n import _, ngettext
from gmscreen.ui.sanitize import clean


def conditions_text(character: Character, width: int | None = None) -> Text:
    """Conditions with their rounds left: 'Ébloui (1) · Fièvre grise'.

    With a width, long names are shortened so that every condition and its rounds stay visible.
    """
    text = Text(no_wrap=True, overflow="ellipsis")
    conds = character.conditions
    room = None
    if width is not None and conds:
        full = sum(len(clean(c.name)) + (len(f" ({c.rounds})") if c.rounds is not None else 0) for c in conds)
        full += 3 * (len(conds) - 1)
        if full > width:
            fixed = sum(len(f" ({c.rounds})") for c in conds if c.rounds is not None) + 3 * (len(conds) - 1)
            room = max(3, (width - fixed) // len(conds))
    for i, cond in enumerate(conds):
        if i:
            text.append(" · ", style="dim")
        name = clean(cond.name)
        if room is not None and len(name) > room:
            name = name[: room - 1] + "…"
        text.append(name, style="italic")
        if cond.rounds is not None:
            text.append(f" ({cond.rounds})", style="bold")
    return text


def condition_line(cond: Any) -> str:
    """One condition in words, for notices and the sheet (plain text, cleaned)."""
    out = clean(cond.name)
    if cond.effect:
        out = _("{name}: {effect}").format(name=out, effect=clean(cond.effect))
    if cond.rounds is not None:
        out += " (" + ngettext("{n} round", "{n} rounds", cond.rounds).format(n=cond.rounds) + ")"
    return out
