"""Edits the screen makes to the line the GM typed, as text: the difficulty chosen in the
difficulty table put where the line says one (or before its `=`, or at the end)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gmscreen.play.exchange import Draft


def with_difficulty(text: str, draft: Draft | None, token: str) -> str:
    """`text` with `token` (the game's way of writing a difficulty: `sd3`, `40`) in place of the
    difficulty `draft` read in it, else before a trailing `= …` label, else at the end."""
    if draft is not None and draft.difficulty_span is not None and draft.difficulty_span != (0, 0):
        a, b = draft.difficulty_span
        return text[:a] + token + text[b:]
    cut = text.find(" =")
    if cut < 0 and text.startswith("="):
        cut = 0
    if cut >= 0:
        return f"{text[:cut].rstrip()} {token} {text[cut:].lstrip()}".lstrip()
    return (text.rstrip() + " " + token).lstrip()
