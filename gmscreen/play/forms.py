"""The few typed values a game asks for (a new timer's skill, threshold, opponent…), as plain data.

A game's part says which fields its form has and how each is checked; the screen shows them
in a dialog (`ui/screens/roster_dialogs.PromptScreen`). Kept free of Textual so the games'
modules can build forms without the screen, and the checks are one set for both.
"""

from __future__ import annotations

from dataclasses import field
from typing import Callable

from gmscreen.i18n import _
from gmscreen.i18n.typography import minus
from gmscreen.rules.records import record

Check = Callable[[str], "str | None"]


@record
class Field:
    """One field of a form. `check(text)` returns an error message or None."""

    name: str
    label: str
    value: str = ""
    placeholder: str = ""
    check: Check | None = None
    multiline: bool = False


@record
class Form:
    """A titled list of fields, with a line of help under them."""

    title: str
    fields: list[Field] = field(default_factory=list)
    note: str = ""


def parse_int(text: str) -> int | None:
    """An integer as the GM types it ('+3', '−2' with U+2212), else None."""
    text = text.strip().replace("\u2212", "-")
    if text.startswith("+"):
        text = text[1:]
    try:
        return int(text, 10)
    except ValueError:
        return None


def int_check(lo: int, hi: int, *, empty_ok: bool = False, what: str | None = None) -> Check:
    """A check accepting an integer from lo to hi (− typed as U+2212 is accepted too)."""

    def check(text: str) -> str | None:
        text = text.strip()
        name = what if what is not None else _("a value")
        if not text:
            return None if empty_ok else _("{what}: expected a whole number from {lo} to {hi}").format(
                what=name, lo=minus(lo), hi=minus(hi))
        value = parse_int(text)
        if value is None:
            return _("{what}: expected a whole number from {lo} to {hi}, not {text}").format(
                what=name, lo=minus(lo), hi=minus(hi), text=repr(text))
        if not lo <= value <= hi:
            return _("{what}: expected a whole number from {lo} to {hi}, not {text}").format(
                what=name, lo=minus(lo), hi=minus(hi), text=minus(value))
        return None

    return check


def nonempty(what: str, max_len: int = 200) -> Check:
    """A check refusing an empty or overlong text."""

    def check(text: str) -> str | None:
        if not text.strip():
            return _("{what}: cannot be empty").format(what=what)
        if len(text) > max_len:
            return _("{what}: {n} characters at most").format(what=what, n=max_len)
        return None

    return check
