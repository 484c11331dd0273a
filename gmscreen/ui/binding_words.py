"""Key descriptions in the language spoken, Textual's own included.

A `Binding`'s description is its English msgid (ours wrapped in `N_` where they are declared);
the footer, the keys screen (`?`) and the palette show it through `describe`. Textual's widgets
declare theirs in English without a catalog: they are listed here (context "textual") so
that the catalogs must translate them (tests/test_i18n.py), and a new Textual word is
caught by tests/ui/test_language.py.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from gmscreen.i18n import N_, _, language, pgettext

# A key's short word for a footer without room for its full one (msgid of the description ->
# msgid of the short word); a description not here is its own short word.
SHORT_WORDS = {
    "Add condition": N_("Cond.+"),
    "Remove condition": N_("Cond.−"),
    "Resource +1": N_("Res.+"),
    "Resource −1": N_("Res.−"),
    "To initiative": N_("→Init."),
    "Duplicate": N_("Dup."),
    "Remove": N_("Rem."),
    "Set initiative": N_("Init."),
    "Wait/come back": N_("Wait"),
    "Roll interval": N_("Interval"),
    "Leave line": N_("Leave"),
}

@lru_cache(maxsize=4)
def _textual_words(lang: str) -> dict[str, str]:
    """Textual 8's own binding descriptions and palette words for the widgets gmscreen shows (App,
    Screen, Input, DataTable, OptionList, TextArea, Select, Button, scroll containers, the command
    palette) -> their text in `lang` (the language spoken when called). Context "textual": "End"
    the key is not "End" the fight."""
    return {
        "Quit": pgettext("textual", "Quit"),
        "Quit the app and return to the command prompt.":
            pgettext("textual", "Quit the app and return to the command prompt."),
        "palette": pgettext("textual", "palette"),
        "Open the command palette": pgettext("textual", "Open the command palette"),
        "Focus Next": pgettext("textual", "Focus Next"),
        "Focus Previous": pgettext("textual", "Focus Previous"),
        "Copy selected text": pgettext("textual", "Copy selected text"),
        "Move cursor left": pgettext("textual", "Move cursor left"),
        "Move cursor left and select": pgettext("textual", "Move cursor left and select"),
        "Move cursor left a word": pgettext("textual", "Move cursor left a word"),
        "Move cursor left a word and select": pgettext("textual", "Move cursor left a word and select"),
        "Move cursor right or accept the completion suggestion":
            pgettext("textual", "Move cursor right or accept the completion suggestion"),
        "Move cursor right and select": pgettext("textual", "Move cursor right and select"),
        "Move cursor right a word": pgettext("textual", "Move cursor right a word"),
        "Move cursor right a word and select": pgettext("textual", "Move cursor right a word and select"),
        "Delete character left": pgettext("textual", "Delete character left"),
        "Select all": pgettext("textual", "Select all"),
        "Go to start": pgettext("textual", "Go to start"),
        "Go to end": pgettext("textual", "Go to end"),
        "Select line start": pgettext("textual", "Select line start"),
        "Select line end": pgettext("textual", "Select line end"),
        "Delete character right": pgettext("textual", "Delete character right"),
        "Submit": pgettext("textual", "Submit"),
        "Delete left to start of word": pgettext("textual", "Delete left to start of word"),
        "Delete all to the left": pgettext("textual", "Delete all to the left"),
        "Delete right to start of word": pgettext("textual", "Delete right to start of word"),
        "Delete all to the right": pgettext("textual", "Delete all to the right"),
        "Cut selected text": pgettext("textual", "Cut selected text"),
        "Paste text from the clipboard": pgettext("textual", "Paste text from the clipboard"),
        "Select": pgettext("textual", "Select"),
        "Cursor up": pgettext("textual", "Cursor up"),
        "Cursor down": pgettext("textual", "Cursor down"),
        "Cursor right": pgettext("textual", "Cursor right"),
        "Cursor left": pgettext("textual", "Cursor left"),
        "Page up": pgettext("textual", "Page up"),
        "Page down": pgettext("textual", "Page down"),
        "Top": pgettext("textual", "Top"),
        "Bottom": pgettext("textual", "Bottom"),
        "Home": pgettext("textual", "Home"),
        "End": pgettext("textual", "End"),
        "Down": pgettext("textual", "Down"),
        "Last": pgettext("textual", "Last"),
        "First": pgettext("textual", "First"),
        "Page Down": pgettext("textual", "Page Down"),
        "Page Up": pgettext("textual", "Page Up"),
        "Up": pgettext("textual", "Up"),
        "Cursor word left": pgettext("textual", "Cursor word left"),
        "Cursor word right": pgettext("textual", "Cursor word right"),
        "Cursor line start": pgettext("textual", "Cursor line start"),
        "Cursor line end": pgettext("textual", "Cursor line end"),
        "Cursor page up": pgettext("textual", "Cursor page up"),
        "Cursor page down": pgettext("textual", "Cursor page down"),
        "Cursor left word select": pgettext("textual", "Cursor left word select"),
        "Cursor right word select": pgettext("textual", "Cursor right word select"),
        "Cursor line start select": pgettext("textual", "Cursor line start select"),
        "Cursor line end select": pgettext("textual", "Cursor line end select"),
        "Cursor up select": pgettext("textual", "Cursor up select"),
        "Cursor down select": pgettext("textual", "Cursor down select"),
        "Cursor left select": pgettext("textual", "Cursor left select"),
        "Cursor right select": pgettext("textual", "Cursor right select"),
        "Select line": pgettext("textual", "Select line"),
        "Cut": pgettext("textual", "Cut"),
        "Copy": pgettext("textual", "Copy"),
        "Paste": pgettext("textual", "Paste"),
        "Delete to line start": pgettext("textual", "Delete to line start"),
        "Delete to line end": pgettext("textual", "Delete to line end"),
        "Delete line": pgettext("textual", "Delete line"),
        "Undo": pgettext("textual", "Undo"),
        "Redo": pgettext("textual", "Redo"),
        "Show menu": pgettext("textual", "Show menu"),
        "Press button": pgettext("textual", "Press button"),
        "Scroll Up": pgettext("textual", "Scroll Up"),
        "Scroll Down": pgettext("textual", "Scroll Down"),
        "Scroll Left": pgettext("textual", "Scroll Left"),
        "Scroll Right": pgettext("textual", "Scroll Right"),
        "Scroll Home": pgettext("textual", "Scroll Home"),
        "Scroll End": pgettext("textual", "Scroll End"),
        "Page Left": pgettext("textual", "Page Left"),
        "Page Right": pgettext("textual", "Page Right"),
        "Go to bottom": pgettext("textual", "Go to bottom"),
        "Go to top": pgettext("textual", "Go to top"),
        "Next command": pgettext("textual", "Next command"),
        "Exit the command palette": pgettext("textual", "Exit the command palette"),
        "Next page": pgettext("textual", "Next page"),
        "Previous page": pgettext("textual", "Previous page"),
        "Previous command": pgettext("textual", "Previous command"),
    }


def textual_word(message: str) -> str | None:
    """One of Textual's own words in the language spoken; None when `message` is not one."""
    return _textual_words(language()).get(message)


def tr(message: str | None) -> str:
    """`message` (ours or Textual's) in the language spoken; "" stays "" (gettext would give the
    catalog's header)."""
    if not message:
        return ""
    word = textual_word(message)
    return word if word is not None else _(message)


def describe(binding: Any) -> str:
    """What a key does, in the language spoken (its action when it has no description)."""
    return tr(binding.description) if binding.description else binding.action


def short_word(binding: Any) -> str:
    """What a key does in the fewest letters the footer shows (its full words when it has no
    shorter ones), in the language spoken."""
    description = binding.description
    return _(SHORT_WORDS[description]) if description in SHORT_WORDS else describe(binding)
