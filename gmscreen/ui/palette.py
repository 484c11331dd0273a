"""Command palette (ctrl+p): every key's action, every character, every skill, every theme.

Names come from campaign files, so each hit is literal `Content` highlighted here
(Textual's `Matcher.highlight` would parse `Orc [A]` as markup).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Iterator, cast

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content

from gmscreen.play.quickroll.grammar import Side, grammar_for
from gmscreen.play.quickroll.text import words
from .sanitize import clean

if TYPE_CHECKING:
    from gmscreen.campaign.model import Character

    from .app import GMScreenApp


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
    """Keys of the app and panes, characters ("Select …"), skills ("Roll …") and themes."""

    def _commands(self) -> list[tuple[str, Callable[[], Any], str, bool]]:
        """(title, callback, help, discoverable) — built each time: the campaign changes."""
        app = cast("GMScreenApp", self.app)     # the palette is the GMScreenApp's (its COMMANDS)
        commands: list[tuple[str, Callable[[], Any], str, bool]] = []
        from .screens.keys_help import binding_table

        for group, node, binding, keys in binding_table(app):
            title = binding.description or binding.action
            where = "" if group == "Screen" else f"{group}: "
            commands.append((f"{where}{title}", partial(_run_action, app, binding.action, node),
                             f"key {' '.join(keys)}" + (f" · {binding.id}" if binding.id else ""), group == "Screen"))
        session = app.session
        if session is not None:
            characters: list[Character] = list(session.campaign.characters)
            for character in characters:
                name = clean(character.name)
                commands.append((f"Select {name}", partial(_select, app, character.id),
                                 "party" if character.side == "party" else "NPC", True))
            selected = app.selected_id
            characters.sort(key=lambda c: c.id != selected)
            grammar = grammar_for(session.campaign)
            for character in characters:
                name = clean(character.name)
                # Only what the quick-roll line takes as a trait (not MIR's Voies or wounds).
                forms: set[tuple[str, ...]] = set()
                for cand in grammar.traits(Side(role="actor", start=0, character=character)):
                    forms.add(cand.words)
                    forms.update(cand.aliases)
                for skill in _leaf_stats(character.sheet):
                    if words(skill) not in forms:
                        continue
                    line = f"{name} {clean(skill)} "
                    commands.append((f"Roll {name} {clean(skill)}", partial(_roll_line, app, line),
                                     "put it in the quick-roll line", False))
        for theme in sorted(app.available_themes):
            if theme.startswith("gmscreen-") or theme == app.theme:
                commands.append((f"Theme {theme}", partial(app.set_theme, theme), "switch theme (remembered)",
                                 False))
        return commands

    async def discover(self) -> Hits:
        for title, callback, help_text, discoverable in self._commands():
            if discoverable:
                yield DiscoveryHit(Content(title), callback, text=title, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, callback, help_text, _ in self._commands():
            score, offsets = matcher.fuzzy_search.match(matcher.query, title)
            if score > 0:
                display = Content(title)
                for offset in offsets:
                    display = display.stylize(matcher.match_style, offset, offset + 1)
                yield Hit(score, display, callback, text=title, help=help_text)


async def _run_action(app: GMScreenApp, action: str, node: Any) -> None:
    await app.run_action(action, node)


async def _select(app: GMScreenApp, char_id: str) -> None:
    app.select_character(char_id)
    await app.action_show_pane("roster")


def _roll_line(app: GMScreenApp, line: str) -> None:
    app.action_focus_quick_roll()
    app.set_line(line)
