"""The row under the quick-roll line while typing: the exact odds of the roll typed (and how a
modifier moves them), or where the line stops making sense."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content

from gmscreen.i18n import _
from gmscreen.i18n.typography import percent
from gmscreen.rules import RequestError, get_system

from gmscreen.play import chances
from gmscreen.ui.sanitize import literal

if TYPE_CHECKING:
    from gmscreen.play.quickroll import Draft, QuickRollError


def error_content(error: QuickRollError, *, ascii: bool) -> Content:
    """Why the line goes wrong, in words that quote what was typed: never a character offset
    (an internal number the GM cannot use; `ascii` kept for the callers)."""
    return literal(error.message)


def odds_content(draft: Draft, *, gm_only: bool, ascii: bool, width: int | None = None) -> Content:
    """"MJ +2 : 40 % → 55 % · réussite · label" ("GM +2: 40% → 55% · success · label" in English):
    the chance of the roll typed, before and after
    its modifier, or what the line still lacks."""
    parts: list[Content | tuple[str, str] | str] = []
    if gm_only:
        parts.append((_("GM") + " ", "bold $warning"))
    try:
        chance = chances.chance(draft.odds_request)
    except RequestError as exc:
        from gmscreen.play.quickroll import rule_message

        return literal(rule_message(exc))
    contest = get_system(draft.system).kinds[draft.kind].contest
    word = _("{name} wins").format(name=draft.who) if contest else _("success")
    if draft.missing:
        parts.append(literal(draft.missing, "$warning"))
        return Content.assemble(*parts)
    if draft.baseline is not None and draft.modifier_text:
        try:
            before = chances.chance(draft.baseline)
            arrow = "->" if ascii else "→"
            parts += [literal(draft.modifier_text, "bold"), (_(": {before} {arrow} ").format(before=pct(before), arrow=arrow), ""),
                      (pct(chance), "bold"), " · "]
        except RequestError:
            parts += [(pct(chance), "bold"), " · "]
    else:
        parts += [(pct(chance), "bold"), " "]
    parts.append(literal(word))
    if draft.forced:
        parts.append((" · " + _("table dice"), "italic"))
    parts += [" · ", literal(draft.label, "$text-muted")]
    return with_assumption(parts, parts.index((pct(chance), "bold")) + 1, draft, width)


def with_assumption(parts: list, at: int, draft: Draft, width: int | None) -> Content:
    """What the odds assume put at `at` (right after the chance), in the room the line leaves at
    `width` (`gmscreen.play.choice_odds`: its "without" part goes first, never the difficulty)."""
    from gmscreen.play.choice_odds import assumes_words

    line = Content.assemble(*parts)
    tail = " ·" if parts[at] == " " else ""                 # "73 % (…) · 35 % sans · réussite"
    words = assumes_words(draft, None if width is None else width - line.cell_length - len(tail))
    return Content.assemble(*parts[:at], literal(words + tail), *parts[at:]) if words else line


def pct(value: float) -> str:
    """A chance as the tray writes it, never rounded to a lie: "40 %", "12,5 %", "99,6 %",
    "0,3 %" in French; "40%", "12.5%" in English."""
    return percent(value)
