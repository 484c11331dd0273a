"""The row under the quick-roll line while typing: the exact odds of the roll typed (and how a
modifier moves them), or where the line stops making sense."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content

from gmscreen.rules import RequestError, get_system

from gmscreen.play import chances
from gmscreen.ui.sanitize import literal

if TYPE_CHECKING:
    from gmscreen.play.quickroll import Draft, QuickRollError


def error_content(error: QuickRollError, *, ascii: bool) -> Content:
    """"▲12 …": where the line goes wrong, and why."""
    pointer = "^" if ascii else "▲"
    where = f"{pointer}{error.position + 1} " if error.position else ""
    return Content.assemble((where, "bold"), literal(error.message))


def odds_content(draft: Draft, *, gm_only: bool, ascii: bool) -> Content:
    """"MJ +2 : 40 % → 55 % · réussite · label": the chance of the roll typed, before and after
    its modifier, or what the line still lacks."""
    parts: list[Content | tuple[str, str] | str] = []
    if gm_only:
        parts.append(("MJ ", "bold $warning"))
    try:
        chance = chances.chance(draft.odds_request)
    except RequestError as exc:
        from gmscreen.play.quickroll import rule_message

        return literal(rule_message(exc))
    contest = get_system(draft.system).kinds[draft.kind].contest
    word = f"{draft.who} l'emporte" if contest else "réussite"
    if draft.missing:
        parts.append(literal(draft.missing, "$warning"))
        return Content.assemble(*parts)
    if draft.baseline is not None and draft.modifier_text:
        try:
            before = chances.chance(draft.baseline)
            arrow = "->" if ascii else "→"
            parts += [literal(draft.modifier_text, "bold"), (f" : {pct(before)} {arrow} ", ""),
                      (pct(chance), "bold"), " · "]
        except RequestError:
            parts += [(pct(chance), "bold"), " · "]
    else:
        parts += [(pct(chance), "bold"), " "]
    parts.append(literal(word))
    if draft.forced:
        parts.append((" · dés de la table", "italic"))
    parts += [" · ", literal(draft.label, "$text-muted")]
    return Content.assemble(*parts)


def pct(value: float) -> str:
    """A chance as the tray writes it: "40 %", "<1 %", ">99 %"."""
    if 0 < value < 0.01:
        return "<1 %"
    if 0.99 < value < 1:
        return ">99 %"
    return f"{value:.0%}".replace("%", " %")
