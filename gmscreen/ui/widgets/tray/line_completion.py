"""Completion in the quick-roll line: the inline suggestion (the rest of the first candidate)
and the common beginning that Tab completes when there are several."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from textual.suggester import Suggester

if TYPE_CHECKING:
    from gmscreen.play.quickroll import Completion


class CompletionSource(Protocol):
    """What the suggester asks of the tray: whether the line was read yet, and its completions."""

    line_read_once: bool

    def completion_for(self, value: str, cursor: int) -> Completion | None: ...


class LineSuggester(Suggester):
    """Inline completion: the rest of the only (or first) candidate for the word being typed."""

    def __init__(self, tray: CompletionSource) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.tray = tray

    async def get_suggestion(self, value: str) -> str | None:
        if not value or value.endswith(" ") or not self.tray.line_read_once:
            return None          # (the first key's: asked again once its echo is out)
        completion = self.tray.completion_for(value, len(value))
        if completion is None or not completion.candidates:
            return None
        typed = value[completion.start:]
        rest = rest_of(completion.candidates[0], typed)
        return None if rest is None else value[:completion.start] + typed + rest


def rest_of(choice: str, typed: str) -> str | None:
    """What completes `typed` into `choice`, or into one of its later words (the line takes a
    character by any word of the name: "louv" → "louvensac" for "Mlle de Louvensac"), case and
    accents aside as the line reads them ("elo" → "eloquence"); None when it begins none."""
    from gmscreen.play.quickroll.text import fold

    wanted = fold(typed)
    for word in (choice, *choice.split()[1:]):
        start = word[:len(typed)]
        if len(word) > len(typed) and len(fold(start)) == len(wanted) and fold(start) == wanted:
            return word[len(typed):]
    return None


def common_prefix(words: tuple[str, ...]) -> str:
    """The beginning all `words` share (case-insensitively), as the first one spells it."""
    first = words[0]
    n = len(first)
    for word in words[1:]:
        n = min(n, len(word))
        while n and word[:n].casefold() != first[:n].casefold():
            n -= 1
    return first[:n]
