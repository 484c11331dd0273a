"""Completion in the quick-roll line: the inline suggestion (the rest of the first candidate)
and the common beginning that Tab completes when there are several."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from textual.suggester import Suggester, SuggestionReady

if TYPE_CHECKING:
    from textual.widgets import Input

    from gmscreen.play.quickroll import Completion


class CompletionSource(Protocol):
    """What the suggester asks of the line: whether it was read yet, and its completions."""

    read_once: bool

    def completion_for(self, value: str, cursor: int) -> Completion | None: ...


class LineSuggester(Suggester):
    """Inline completion: the rest of the only (or first) candidate for the word being typed."""

    def __init__(self, line: CompletionSource) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.line = line

    async def get_suggestion(self, value: str) -> str | None:
        if not value or value.endswith(" ") or not self.line.read_once:
            return None          # (the first key's: asked again once its echo is out)
        completion = self.line.completion_for(value, len(value))
        if completion is None or not completion.candidates:
            return None
        typed = value[completion.start:]
        rest = rest_of(completion.candidates[0], typed)
        return None if rest is None else value[:completion.start] + typed + rest

    @staticmethod
    async def ask(line: "Input", value: str) -> None:
        """`line`'s suggestion for `value`, asked now (the line asks for one itself only when
        its value changes), and given to it as its own suggester gives it."""
        suggester = line.suggester
        if suggester is None:
            return
        suggestion = await suggester.get_suggestion(value if suggester.case_sensitive else value.casefold())
        if suggestion is not None:
            line.post_message(SuggestionReady(value, suggestion))


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
