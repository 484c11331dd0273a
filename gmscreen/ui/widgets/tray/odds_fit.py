"""The odds row at 80 columns: shortened from the parts that matter least, never through the
difficulty. The row ends with the test's label ("Loriane · Éloquence (Espoir) 3+2 · SD 3
(Moyenne)"); a plain ellipsis at the right edge would cut the difficulty first. Here the
label's other parts shrink first (the skill, the helpers, then the name: the line just above
says them), then the modifier's comparison goes, and the difficulty stays whole."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Callable

from rich.cells import cell_len, set_cell_size
from textual.content import Content

if TYPE_CHECKING:
    from gmscreen.play.quickroll import Draft

SEP = " · "
STUB = 3            # the fewest letters a part cut short keeps ("Gué…"); shorter, it goes


def fit_odds(draft: Draft, width: int, render: Callable[[Draft], Content], *, ascii: bool = False,
             shown: Callable[[Draft], Content] | None = None) -> Content:
    """`render(draft)` (the odds row) fitted to `width` cells, the difficulty kept whole: the
    label's other parts shrink (to a few letters, then left out, who rolls last: the line just
    above says them all), and only then does the modifier's comparison ("18 % → 40 %") go.
    `shown` (default `render`) draws the row chosen: it may add a tail cut first, at the edge."""
    shown = shown or render
    content = render(draft)
    if width <= 0 or content.cell_length <= width or not draft.label:
        return shown(draft)
    ellipsis = "~" if ascii else "…"
    plain = replace(draft, baseline=None, modifier_text="")
    chosen = draft          # replaced by the loop's first row (the loop always runs)
    for shorter, floor, who in ((draft, 6, False), (draft, 0, False), (draft, 0, True), (plain, 6, False),
                                (plain, 0, True)):
        head = render(replace(shorter, label="")).cell_length
        label = fit_label(draft.label, width - head, draft.difficulty_text, ellipsis=ellipsis, floor=floor,
                          shrink_first=who)
        chosen = replace(shorter, label=label)
        if render(chosen).cell_length <= width:
            return shown(chosen)
    return shown(chosen)


def fit_label(label: str, room: int, difficulty: str, *, ellipsis: str = "…", floor: int = 0,
              shrink_first: bool = True) -> str:
    """`label` in `room` cells if it can be: the parts other than `difficulty` (the one the game
    says states it, `Draft.difficulty_text`) shrink, the longest first, to `floor` cells at least
    (0: left out at last); the first part (who rolls) only when `shrink_first`. The difficulty
    never shrinks; a label without it is left to the row's own edge."""
    parts = label.split(SEP)
    if not difficulty or difficulty not in parts:
        return label
    fixed = [p == difficulty or (n == 0 and not shrink_first) for n, p in enumerate(parts)]
    least = max(floor, STUB + cell_len(ellipsis)) if floor else 0

    def length() -> int:
        return cell_len(SEP.join(p for p in parts if p))

    while length() > room:
        candidates = [i for i, p in enumerate(parts) if p and not fixed[i] and cell_len(p) > least]
        if not candidates:
            break
        i = max(candidates, key=lambda n: cell_len(parts[n]))
        size = cell_len(parts[i])
        target = max(size - (length() - room), least)
        if target >= STUB + cell_len(ellipsis):
            parts[i] = set_cell_size(parts[i], target - cell_len(ellipsis)).rstrip() + ellipsis
        else:
            parts[i] = ""
    return SEP.join(p for p in parts if p)
