"""What the odds of a roll assume, said beside them: "73 % (avec 2 relances d'Impulsion) · 35 % sans".

`rules.odds` prices a roll with a choice inside it under one way of playing (its "policy": a
side rerolls while it fails, Providence is called or not, the target parries…). The game's
`RollRules.assumed` names that way in words and gives the same test played the other way; this
module prices it (through the memo of `gmscreen.play.chances`) and writes the segment the odds
line shows, in forms from the fullest to none, so that a narrow screen drops the "sans" part
first and never the difficulty.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmscreen.i18n import _
from gmscreen.i18n.typography import percent
from gmscreen.rules import RequestError

from . import chances
from .exchange import Assumed, priced    # what a game's `RollRules.assumed` gives, named here as ever

if TYPE_CHECKING:
    from .exchange import Draft

__all__ = ["Assumed", "assumed", "assumes_forms", "assumes_words", "priced"]


def assumed(draft: Draft) -> Assumed | None:
    """What the odds of `draft` assume (None: no choice inside this roll), as the game that
    read it says (`RollRules.assumed`)."""
    if draft.forced or draft.missing:
        return None
    return draft.table.roll.assumed(draft)


def assumes_forms(draft: Draft) -> list[str]:
    """The segment said right after the chance, fullest first and "" last:
    " (with 2 Impulsion rerolls) · 35% without", " (with 2 Impulsion rerolls)", " (2 rerolls)", ""."""
    choice = assumed(draft)
    if choice is None:
        return [""]
    forms = []
    try:
        other = chances.chance(choice.request)
        forms.append(" " + _("({assumed}) · {chance} {other}").format(
            assumed=choice.words, chance=percent(other), other=choice.other))
    except RequestError:
        pass
    forms += [f" ({choice.words})", f" ({choice.short})", ""]
    return forms


def assumes_words(draft: Draft, room: int | None = None) -> str:
    """The fullest form that takes at most `room` cells (None: the fullest)."""
    forms = assumes_forms(draft)
    if room is None:
        return forms[0]
    return next((form for form in forms if len(form) <= room), "")
