"""The row under the quick-roll line while typing: the exact odds of the roll typed (and how a
modifier moves them), or where the line stops making sense."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content

from gmscreen.i18n import _
from gmscreen.i18n.typography import percent
from gmscreen.rules import RequestError, get_system

from gmscreen.play import chances
from gmscreen.play.effects import conditions_said
from gmscreen.ui.sanitize import literal

if TYPE_CHECKING:
    from gmscreen.play.quickroll import Draft, QuickRollError


def error_content(error: QuickRollError, *, ascii: bool) -> Content:
    """Why the line goes wrong, in words that quote what was typed: never a character offset
    (an internal number the GM cannot use; `ascii` kept for the callers)."""
    return literal(error.message)


def odds_content(draft: Draft, *, gm_only: bool, ascii: bool, width: int | None = None, tail: bool = True) -> Content:
    """"MJ +2 : 40 % → 55 % · réussite · label" ("GM +2: 40% → 55% · success · label" in English):
    the chance of the roll typed, before and after
    its modifier, or what the line still lacks. The conditions applied come first with the
    chance before and after them ("Ébloui par la lanterne −1 dé : 91 % → 84 %"); when `width`
    is too narrow, shorter (see below). Those left out and the reminders follow the label (not
    with `tail` False: what a row is measured by, the tail being cut first)."""
    if draft.unconditioned is None or width is None:      # no condition applied: nothing to fit
        return _odds_content(draft, gm_only=gm_only, ascii=ascii, short=False, width=width, tail=tail)
    # Narrower and narrower: names by their first word; then without the word "success" (the
    # chance of a test is that of success; a contest keeps who wins); then no chance before
    # them. The conditions stay in front of the label: the row's fitting (`odds_fit`) shrinks the
    # label's other parts then, never its difficulty. (What follows the label, conditions left
    # out and reminders, is cut first: not measured.)
    levels = [(False, True, True, True), (True, True, True, True), (True, True, True, False),
              (True, False, True, False)]
    options: dict[str, bool] = {}       # set by the loop's first turn (levels is not empty)
    for short, with_before, first, success in levels:
        options = {"short": short, "with_before": with_before, "first": first, "success": success}
        if _odds_content(draft, gm_only=gm_only, ascii=ascii, tail=False, **options).cell_length <= width:
            break
    return _odds_content(draft, gm_only=gm_only, ascii=ascii, width=width, tail=tail, **options)


def _odds_content(draft: Draft, *, gm_only: bool, ascii: bool, short: bool, with_before: bool = True,
                  first: bool = True, success: bool = True, tail: bool = True, width: int | None = None) -> Content:
    """The row at one level of shortening; what the odds assume (a choice) fills the room left
    at `width` (None: not said, as when measuring)."""
    parts: list[Content | tuple[str, str] | str] = []
    if gm_only:
        parts.append((_("GM") + " ", "bold $warning"))
    try:
        chance = chances.chance(draft.odds_request)
    except RequestError as exc:
        from gmscreen.play.quickroll import rule_message

        return literal(rule_message(exc))
    contest = get_system(draft.system).kinds[draft.kind].contest
    word = _("{name} wins").format(name=draft.who) if contest else _("success") if success else ""
    if draft.missing:
        parts.append(literal(draft.missing, "$warning"))
        return Content.assemble(*parts)
    said = conditions_said(draft, chances.chance, short=short, ascii=ascii)
    arrow = "->" if ascii else "→"
    chance_shown = bool(said.applied and said.before is not None and first)
    if chance_shown and with_before and said.before is not None:    # (chance_shown says it is not None)
        parts += [literal(said.applied, "bold"), (_(": {before} {arrow} ").format(before=pct(said.before), arrow=arrow), ""),
                  (pct(chance), "bold"), " " if draft.baseline is None or not draft.modifier_text else " · "]
    elif chance_shown:
        parts += [literal(said.applied, "bold"), " · "]
        chance_shown = False
    if draft.baseline is not None and draft.modifier_text:
        try:
            before = chances.chance(draft.baseline)
            parts += [literal(draft.modifier_text, "bold"), (_(": {before} {arrow} ").format(before=pct(before), arrow=arrow), ""),
                      (pct(chance), "bold"), " · "]
        except RequestError:
            if not chance_shown:
                parts += [(pct(chance), "bold"), " · "]
    elif not chance_shown:
        parts += [(pct(chance), "bold"), " "]
    if word:
        parts.append(literal(word))
    elif parts and parts[-1] in (" ", " · "):
        parts.pop()
    if draft.forced:
        parts.append((" · " + _("table dice"), "italic"))
    parts += [" · ", literal(draft.label, "$text-muted")]
    at = next((n + 1 for n, part in enumerate(parts) if part == (pct(chance), "bold")), None)
    row = Content.assemble(*parts) if width is None or at is None else with_assumption(parts, at, draft, width)
    after = [(said.applied, "bold"), (said.left_out, "italic"), (said.reminders, "$warning")] if tail else []
    extras: list[Content | str] = []
    for extra, style in after[0 if not first else 1:]:
        if extra:
            extras += [" · ", literal(extra, style)]
    return Content.assemble(row, *extras) if extras else row


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
