"""Command palette (ctrl+p): every key's action, every character, every skill, every theme,
Textual's system commands and the language, in the language spoken and found in either.

Names come from campaign files, so each hit is literal `Content` highlighted here
(Textual's `Matcher.highlight` would parse `Orc [A]` as markup).
"""

from __future__ import annotations

import gettext
import unicodedata
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any, Callable, Iterator, Protocol, cast

from textual.binding import Binding
from textual.command import CommandList, DiscoveryHit, Hit, Hits, Provider
from textual.content import Content

from gmscreen import i18n
from gmscreen.i18n import N_, _
from gmscreen.play.quickroll.grammar import Side, grammar_for
from gmscreen.play.quickroll.text import words
from gmscreen.play.tables import table_for
from gmscreen.rules.records import record
from .binding_words import describe, textual_word
from .key_owners import SCREEN_GROUP
from .palette_words import SEARCH_WORDS
from .sanitize import clean
from .terminal.palette import SpokenCommandPalette

if TYPE_CHECKING:
    from textual.screen import Screen

    from gmscreen.campaign.model import Character
    from gmscreen.campaign.session import CampaignSession


class PaletteHost(Protocol):
    """What the palette asks of the app it opens over (the GMScreenApp): said here, so that the
    palette does not import the app that imports it."""

    session: CampaignSession | None
    selected_id: str | None
    theme: str

    @property
    def available_themes(self) -> dict[str, Any]: ...
    def system_commands(self, screen: Screen) -> list[tuple[str, str, Any]]: ...
    def set_theme(self, name: str) -> bool: ...
    def switch_language(self, lang: str) -> None: ...
    async def run_action(self, action: str, default_namespace: Any = None) -> bool: ...
    def select_character(self, char_id: str | None) -> None: ...
    async def action_show_pane(self, pane_id: str) -> None: ...
    def action_focus_quick_roll(self) -> None: ...
    def set_line(self, text: str) -> None: ...

# Each language by its own name: the palette offers the other one in its words.
LANGUAGE_NAMES = {"fr": "français", "en": "English"}


@lru_cache(maxsize=None)
def _catalog(lang: str) -> gettext.NullTranslations:
    return i18n.catalog_for(lang)


def _every(message: str) -> tuple[str, ...]:
    """`message` in each language the screen speaks (a command is found by any of them)."""
    return tuple(_catalog(lang).gettext(message) for lang in i18n.LANGUAGES)


def _every_description(description: str) -> tuple[str, ...]:
    """A key's description in each language (Textual's own words have their context)."""
    if textual_word(description) is not None:
        return tuple(_catalog(lang).pgettext("textual", description) for lang in i18n.LANGUAGES)
    return _every(description)


def search_words(key: str | None) -> tuple[str, ...]:
    """The phrases a command is also found by (`palette_words`), in every language; none when
    it has no entry."""
    words = SEARCH_WORDS.get(key or "")
    if words is None:
        return ()
    phrases: list[str] = []
    for each in _every(words):
        phrases.extend(phrase.strip() for phrase in each.split(",") if phrase.strip())
    return tuple(dict.fromkeys(phrases))


def fold(text: str) -> str:
    """Lower case without accents, one character for one (`Épée` -> `epee`): the offsets of a
    match in the folded text are those of the text shown."""
    out = []
    for char in text:
        base = unicodedata.normalize("NFKD", char)[:1].lower()
        out.append(base if len(base) == 1 else char)
    return "".join(out)


@record
class Command:
    """A palette entry: `title` as shown, `forms` what it is also found by (its title in each
    language, its search words)."""

    title: str
    forms: tuple[str, ...]
    callback: Callable[[], Any]
    help: str
    discoverable: bool
    line: str = ""          # a "Roll …" command: what it puts in the quick-roll line


def _phrase(template: str, **fields: str) -> tuple[str, tuple[str, ...]]:
    """A title from a msgid template (marked `N_`): (in the language spoken, in every language)."""
    return _(template).format(**fields), tuple(each.format(**fields) for each in _every(template))


def _leaf_stats(sheet: dict[str, Any]) -> Iterator[str]:
    """Every stat or skill name of a sheet, nested free groups included, once each."""
    seen: set[str] = set()
    stack = list(sheet.values())
    while stack:
        group = stack.pop(0)
        if not isinstance(group, dict):
            continue
        for key, value in group.items():
            if isinstance(value, dict):
                stack.append(value)
            elif key not in seen:
                seen.add(key)
                yield key


class GMScreenCommands(Provider):
    """Keys of the app and panes, Textual's system commands, characters ("Select …"), skills
    ("Roll …"), themes and the language; found by their French or English title, accents or not."""

    def _commands(self) -> list[Command]:
        """Built each time: the campaign and the language change."""
        app = cast(PaletteHost, self.app)     # the palette is the GMScreenApp's (its COMMANDS)
        commands: list[Command] = []
        from .screens.keys_help import binding_table

        for group, node, binding, keys in binding_table(app):
            names = _every_description(binding.description) if binding.description else (binding.action,)
            title, forms = describe(binding), names
            if group != SCREEN_GROUP:
                title = _("{group}: {action}").format(group=_(group), action=title)
                forms = tuple(template.format(group=where, action=name) for template, where, name
                              in zip(_every(N_("{group}: {action}")), _every(group), names * len(i18n.LANGUAGES)))
            help_text = _("key {keys}").format(keys=" ".join(keys)) + (f" · {binding.id}" if binding.id else "")
            commands.append(Command(title, forms + search_words(binding.id),
                                    partial(_run_action, app, binding.action, node), help_text, group == SCREEN_GROUP))
        screen = self.screen
        for title_id, help_id, callback in app.system_commands(screen):
            commands.append(Command(_(title_id), _every(title_id) + search_words(title_id), callback, _(help_id),
                                    True))
        session = app.session
        if session is not None:
            characters: list[Character] = list(session.campaign.characters)
            for character in characters:
                name = clean(character.name)
                title, forms = _phrase(N_("Select {name}"), name=name)
                commands.append(Command(title, forms, partial(_select, app, character.id),
                                        _("party") if character.side == "party" else _("NPC"), True))
            selected = app.selected_id
            characters.sort(key=lambda c: c.id != selected)
            grammar = grammar_for(session.campaign, table_for(session.campaign.system))
            for character in characters:
                name = clean(character.name)
                # Only what the quick-roll line takes as a trait (not MIR's Voies or wounds).
                found: set[tuple[str, ...]] = set()
                for cand in grammar.traits(Side(role="actor", start=0, character=character)):
                    found.add(cand.words)
                    found.update(cand.aliases)
                for skill in _leaf_stats(character.sheet):
                    if words(skill) not in found:
                        continue
                    line = f"{name} {clean(skill)} "
                    title, forms = _phrase(N_("Roll {line}"), line=line.rstrip())
                    commands.append(Command(title, forms, partial(_roll_line, app, line),
                                            _("put it in the quick-roll line"), False, line))
        for theme in sorted(app.available_themes):
            if theme.startswith("gmscreen-") or theme == app.theme:
                title, forms = _phrase(N_("Theme {theme}"), theme=theme)
                commands.append(Command(title, forms, partial(app.set_theme, theme),
                                        _("switch theme (remembered)"), False))
        for lang in i18n.LANGUAGES:
            if lang != i18n.language():
                title, forms = _phrase(N_("Language: {language}"), language=LANGUAGE_NAMES[lang])
                commands.append(Command(title, forms, partial(app.switch_language, lang),
                                        _("the whole screen in this language (remembered)"), True))
        return commands

    async def discover(self) -> Hits:
        for command in self._commands():
            if command.discoverable:
                yield DiscoveryHit(Content(command.title), command.callback, text=command.title, help=command.help)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(fold(query))
        fuzzy = matcher.fuzzy_search
        for command in self._commands():
            score, offsets = fuzzy.match(matcher.query, fold(command.title))
            for form in command.forms:
                if form != command.title:
                    score = max(score, fuzzy.match(matcher.query, fold(form))[0])
            if score > 0:
                display = Content(command.title)
                for offset in offsets:
                    display = display.stylize(matcher.match_style, offset, offset + 1)
                yield Hit(score, display, command.callback, text=command.title, help=command.help)


class Palette(SpokenCommandPalette):
    """Textual's palette, its own words in the language spoken."""

    # Textual's own keys and words, through `action_page`.
    BINDINGS = [
        Binding("pagedown", "page(1)", "Next page", show=False),
        Binding("pageup", "page(-1)", "Previous page", show=False),
    ]
    _PAGE_TRIES = 20        # frames a page key waits for the list of hits to be laid out

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("placeholder", _("Search for commands…"))
        super().__init__(**kwargs)

    def action_page(self, direction: int, tries: int = 0) -> None:
        """PageDown / PageUp through the hits. ctrl+p and PageUp in one packet bring the key
        before the hits' first frame: Textual's own binding then pages a list not laid out yet
        and ends in a KeyError, taking the screen down. The key waits for the frame instead."""
        hits = self.query_one(CommandList)
        if hits.option_count and not hits.scrollable_content_region:
            if tries < self._PAGE_TRIES:
                self.call_after_refresh(self.action_page, direction, tries + 1)
            return
        (hits.action_page_down if direction > 0 else hits.action_page_up)()


async def _run_action(app: PaletteHost, action: str, node: Any) -> None:
    await app.run_action(action, node)


async def _select(app: PaletteHost, char_id: str) -> None:
    app.select_character(char_id)
    await app.action_show_pane("roster")


def _roll_line(app: PaletteHost, line: str) -> None:
    app.action_focus_quick_roll()
    app.set_line(line)
