"""The tray while players watch: what it shows in place of a roll's secrets.

A GM-only roll (`mj`) shows nothing of itself; a roll whose difficulty is hidden (`caché`)
shows who rolls, the dice and the outcome, never the difficulty nor what gives it away (the
odds, a margin, a score against it). What is secret is `gmscreen.play.public`'s to say.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content

from gmscreen.i18n import _
from gmscreen.play.public import Visibility, is_hidden, roll_visibility

from gmscreen.ui.sanitize import literal
from gmscreen.ui.widgets.tray.choice_prompt import prompt_content

if TYPE_CHECKING:
    from gmscreen.play.quickroll import Draft, Prompt


def draft_visibility(draft: Draft | None, *, gm_only: bool, watching: bool) -> Visibility:
    """What the players may see of the roll typed (everything while they are not watching)."""
    if draft is None or not watching:
        return Visibility.PUBLIC
    return roll_visibility(gm_only=gm_only or draft.gm_only, hidden=is_hidden(draft.request))


def line_visibility(text: str, *, gm_only: bool, watching: bool) -> Visibility:
    """What the players may see of a line that does not parse (yet): its words say whether it
    is secret (`mj`, `caché`), so that an error quoting it gives nothing away."""
    if not watching:
        return Visibility.PUBLIC
    from gmscreen.play.quickroll.grammar import GM_WORDS, HIDDEN_WORDS
    from gmscreen.play.quickroll.text import fold

    words = set(fold(text).split())
    return roll_visibility(gm_only=gm_only or bool(words & GM_WORDS), hidden=bool(words & HIDDEN_WORDS))


def secret_mark(ascii: bool) -> str:
    return "*" if ascii else "◆"


def watched_odds_content(draft: Draft, visible: Visibility, *, ascii: bool) -> Content:
    """The odds row of a secret roll while players watch: who rolls when only the difficulty
    is hidden, nothing of the roll when it is the GM's."""
    if visible is Visibility.SECRET:
        return Content.styled(f"{secret_mark(ascii)} " + _("GM's secret roll"), "bold $warning")
    return Content.assemble(literal(draft.who, "bold"), " · ",
                            ("(" + _("secret difficulty") + ")", "italic $text-muted"))


def watched_error_content(visible: Visibility, *, ascii: bool) -> Content:
    """A secret line that does not read yet, while players watch: said without quoting it."""
    head = f"{secret_mark(ascii)} " + _("GM's secret roll") if visible is Visibility.SECRET else _("secret difficulty")
    return Content.assemble((head, "bold $warning"), " · ", (_("the line does not read yet"), "$text-muted"))


def watched_prompt_content(prompt: Prompt, visible: Visibility, *, who: str, ascii: bool) -> Content:
    """A choice inside a secret roll while players watch: its keys, and a question that tells
    nothing secret (the game's public wording when it has one: an Éclats die and result)."""
    from dataclasses import replace

    if visible is Visibility.PUBLIC:
        return prompt_content(prompt)
    if visible is Visibility.SECRET:
        question = f"{secret_mark(ascii)} " + _("GM's secret roll: choose")
    else:
        question = getattr(prompt, "public", None) or _("{name}: choose (secret difficulty)").format(name=who)
    # An option's chance would tell the difficulty (or the roll) too: only its words stay; and
    # so would Enter's choice, the one the odds assume (reroll while the result fails).
    options = tuple(replace(o, chance=None) for o in prompt.options)
    return prompt_content(replace(prompt, question=question, options=options), with_default=False)
