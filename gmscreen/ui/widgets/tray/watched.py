"""The tray while players watch: what it shows in place of a roll's secrets.

A GM-only roll (`mj`) shows nothing of itself; a roll whose difficulty is hidden (`caché`)
shows who rolls, the dice and the outcome, never the difficulty nor what gives it away (the
odds, a margin, a score against it); a roll against a character hidden from the players never
names them (the line typed, the odds, the outcome). What is secret is `gmscreen.play.public`'s
to say (a `Sight`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content

from gmscreen.i18n import _
from gmscreen.play.public import ACTOR, Sight, Visibility, hidden_words

from gmscreen.ui.sanitize import literal
from gmscreen.ui.widgets.tray.choice_prompt import prompt_content

if TYPE_CHECKING:
    from gmscreen.play.quickroll import Draft, Prompt


def secret_mark(ascii: bool) -> str:
    return "*" if ascii else "◆"


def watched_odds_content(draft: Draft, visible: Sight, *, ascii: bool) -> Content:
    """The odds row of a secret roll while players watch: who rolls (unless hidden) when only
    the difficulty or a side is hidden, nothing of the roll when it is the GM's."""
    if visible.secret:
        return Content.styled(f"{secret_mark(ascii)} " + _("GM's secret roll"), "bold $warning")
    who = "?" if ACTOR in visible.hidden_sides else draft.who
    return Content.assemble(literal(who, "bold"), " · ", (hidden_words(visible), "italic $text-muted"))


def watched_error_content(visible: Sight, *, ascii: bool) -> Content:
    """A secret line that does not read yet, while players watch: said without quoting it."""
    head = f"{secret_mark(ascii)} " + _("GM's secret roll") if visible.secret else hidden_words(visible).strip("()")
    return Content.assemble((head, "bold $warning"), " · ", (_("the line does not read yet"), "$text-muted"))


def watched_prompt_content(prompt: Prompt, visible: Sight, *, who: str, ascii: bool) -> Content:
    """A choice inside a secret roll while players watch: its keys, and a question that tells
    nothing secret (the game's public wording when it has one: an Éclats die and result)."""
    from dataclasses import replace

    if visible.whole:
        return prompt_content(prompt)
    if visible.secret:
        question = f"{secret_mark(ascii)} " + _("GM's secret roll: choose")
    elif visible.visibility is Visibility.DIFFICULTY_HIDDEN and ACTOR not in visible.hidden_sides:
        question = getattr(prompt, "public", None) or _("{name}: choose (secret difficulty)").format(name=who)
    else:
        question = _("{name}: choose").format(name="?" if ACTOR in visible.hidden_sides else who)
    # An option's chance would tell the difficulty (or the roll) too: only its words stay; and
    # so would Enter's choice, the one the odds assume (reroll while the result fails).
    options = tuple(replace(o, chance=None) for o in prompt.options)
    return prompt_content(replace(prompt, question=question, options=options), with_default=False)
