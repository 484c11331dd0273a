"""Completion in the quick-roll line: the inline suggestion (the rest of the first candidate)
and the common beginning that Tab completes when there are several."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.suggester import Suggester

if TYPE_CHECKING:
    from gmscreen.ui.widgets.tray.dice_tray import DiceTray


class LineSuggester(Suggester):
    """Inline completion: the rest of the only (or first) candidate for the word being typed."""

    def __init__(self, tray: "DiceTray") -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.tray = tray

    async def get_suggestion(self, value: str) -> str | None:
        if not value or value.endswith(" ") or not self.tray.line_read_once:
            return None          # (the first key's: asked again once its echo is out)
        completion = self.tray.completion_for(value, len(value))
        if completion is None or not completion.candidates:
            return None
        choice = completion.candidates[0]
        typed = value[completion.start:]
        if not choice.casefold().startswith(typed.casefold()):
            return None
        return value[:completion.start] + typed + choice[len(typed):]


def common_prefix(words: tuple[str, ...]) -> str:
    """The beginning all `words` share (case-insensitively), as the first one spells it."""
    first = words[0]
    n = len(first)
    for word in words[1:]:
        n = min(n, len(word))
        while n and word[:n].casefold() != first[:n].casefold():
            n -= 1
    return first[:n]
