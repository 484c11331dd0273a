"""Which language? Asked once, on the first screen, when nothing chose one.

No --lang, no `language` in config.toml and an environment that names no language we speak
(LANG=C.UTF-8 or POSIX on a server, in a container): rather than French without a word, the
screen asks. Each choice is written in its own language, so whoever reads either can answer;
↑/↓ and enter, or `f` / `e` at once. The answer is the screen's language from then on and is
remembered in config.toml (as the palette's "Language: …" does), so it is never asked again.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from gmscreen import i18n
from gmscreen.i18n import N_

from .dialog import Dialog

# Each language's line, in that language: (the language's name, what choosing it does).
CHOICES = (
    ("fr", N_("French"), N_("the screen and its messages in French")),
    ("en", N_("English"), N_("the screen and its messages in English")),
)
TITLE = N_("Language of the screen")
HINT = N_("↑ ↓ enter, or f / e — remembered; ctrl+p to change it")
# The players' view has no palette: the language is changed where the GM sits.
PLAYERS_HINT = N_("↑ ↓ enter, or f / e — remembered; --lang to change it")


def said_in(lang: str, message: str) -> str:
    """`message` in `lang` whatever the language spoken (the pseudo-language's marks in tests)."""
    if i18n.language() == i18n.PSEUDO:
        return i18n._(message)
    return i18n.catalog_for(lang).gettext(message)


class LanguageQuestion(Dialog[str]):
    """Dismissed with "fr" or "en". No escape: a language is needed, and enter takes the first."""

    DEFAULT_CSS = """
    LanguageQuestion { align: center middle; }
    LanguageQuestion > #language-dialog {
        width: 70; max-width: 100%; height: auto; max-height: 100%;
        border: round $border; background: $surface; padding: 0 1;
    }
    LanguageQuestion .title { text-style: bold; }
    LanguageQuestion OptionList { height: auto; margin: 1 0; }
    LanguageQuestion .hint { color: $text-muted; }
    """

    BINDINGS = [
        Binding("f", "choose('fr')", N_("French"), id="language.french"),
        Binding("e", "choose('en')", N_("English"), id="language.english"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="language-dialog"):
            yield Label(" / ".join(said_in(lang, TITLE) for lang, _name, _what in CHOICES),
                        classes="title", markup=False)
            options = [Option(f"{said_in(lang, name)} — {said_in(lang, what)}", id=lang)
                       for lang, name, what in CHOICES]
            yield OptionList(*options, id="language-choices", markup=False)
            for lang, _name, _what in CHOICES:
                yield Static(said_in(lang, self.hint), classes="hint", markup=False)

    def __init__(self, hint: str = HINT) -> None:
        super().__init__()
        self.hint = hint

    def on_mount(self) -> None:
        choices = self.query_one(OptionList)
        choices.highlighted = 0
        choices.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id:
            self.dismiss(event.option.id)

    def action_choose(self, lang: str) -> None:
        self.dismiss(lang)


def ask_language(app: Any, hint: str = HINT) -> None:
    """Push the question on `app`; the answer is spoken at once and remembered (`switch_language`).
    `hint` (a msgid): how to change it later, in that app."""

    def answered(lang: str | None) -> None:
        if lang in i18n.LANGUAGES:
            app.switch_language(lang)

    app.push_screen(LanguageQuestion(hint), answered)
