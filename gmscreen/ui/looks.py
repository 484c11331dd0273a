"""How the screen looks and speaks: its theme, its glyphs, its language, and config.toml.

The bottom layer of the app (`looks` → `telling` → `layout` → `opening` → `app`): what the GM
chooses once and keeps (a theme, `--ascii`, a language) is chosen here before the first frame,
changed here while the screen runs, and remembered in config.toml, written in a thread. Kept
apart from the app so that a theme or language question has one place to look.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Sequence

from textual.app import InvalidThemeError
from textual.binding import Binding

from gmscreen import i18n
from gmscreen.i18n import _

from .glyphs import AsciiGlyphs
from .autosave import AppAutosave
from .panes import PANES, retitle
from .terminal.footer import QuietFooter
from .themes import ANSI_THEME, DEFAULT_THEME, GM_VARIABLES, load_themes, next_theme

if TYPE_CHECKING:
    from textual.filter import LineFilter

    from .config import Config

_ASCII_KEY_NAMES = {"⏎": "enter", "↑": "up", "↓": "down", "←": "left", "→": "right", "⌫": "backspace"}


class AppLooks(AppAutosave):
    """Themes (shipped, the GM's, Textual's), `--ascii`, the language switch, config.toml's saving."""

    config: Config
    startup_problems: list[str]        # said once the screen is up (`on_mount`)
    own_themes: list[str]              # `t` cycles these, shipped then the user's
    _config_changed: bool              # --theme chose a theme to remember (saved once running)
    _theme_set_early: bool
    _stop_listening: Any               # `i18n.on_change` subscription, while mounted

    _ascii_glyphs: AsciiGlyphs | None = None
    _mounted = False                # on_mount has run
    _theme_ready = False            # mounted: a theme chosen now is remembered (`watch_theme`)

    # ------------------------------------------------------------ themes

    def _choose_looks(self, theme: str | None, ascii: bool) -> None:
        """In `__init__`: the themes registered and one chosen, `--ascii` set up."""
        themes, problems = load_themes()
        for each in themes:
            self.register_theme(each)
        self.own_themes = [each.name for each in themes]     # `t` cycles these, shipped then the user's
        self.startup_problems += problems
        self._config_changed = False               # --theme chose a theme to remember (saved once running)
        self._pick_theme(theme)
        # The stylesheet, not read yet, takes the chosen theme's variables now: Textual's own
        # refresh for the change (queued by the theme's watcher) would parse it all twice.
        self._theme_chosen = True
        self.stylesheet.set_variables(self.get_css_variables())
        self._theme_set_early = True
        if ascii:
            self.add_class("-ascii")
            self._ascii_glyphs = AsciiGlyphs()       # every glyph drawn, in ASCII (`get_line_filters`)

    def _pick_theme(self, asked: str | None) -> None:
        """--theme, else the remembered one, else $TEXTUAL_THEME, else gmscreen-dark (ansi on 16 colours)."""
        candidates: list[str] = []
        if asked:
            candidates.append(asked)
        if self.config.theme:
            candidates.append(self.config.theme)
        env = os.environ.get("TEXTUAL_THEME")
        if env:
            candidates += [name.strip() for name in env.split(",") if name.strip()]
        candidates.append(ANSI_THEME if os.environ.get("TERM", "").startswith("linux") else DEFAULT_THEME)
        for name in candidates:
            if name in self.available_themes:
                self.theme = name
                break
            origin = "--theme" if name == asked else "config.toml" if name == self.config.theme else None
            if origin:
                self.startup_problems.append(_("{origin}: no theme named {name}; available: {themes}").format(
                    origin=origin, name=repr(name), themes=", ".join(sorted(self.available_themes))))
        if asked and self.theme == asked and self.config.theme != asked:
            self.config.remember_theme(asked, save=False)
            self._config_changed = True         # saved in a thread once the app runs

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters, then (`--ascii`) every glyph drawn in ASCII (gmscreen.ui.glyphs)."""
        filters = super().get_line_filters()
        return filters if self._ascii_glyphs is None else [*filters, self._ascii_glyphs]

    def get_key_display(self, binding: Binding) -> str:
        """Footer and keys screen: `--ascii` shows "enter", "up"… instead of ⏎, ↑…"""
        display = super().get_key_display(binding)
        if self.ascii and not display.isascii():
            for glyph, name in _ASCII_KEY_NAMES.items():
                display = display.replace(glyph, name)
        return display

    def refresh_css(self, animate: bool = True) -> None:
        if self._theme_set_early:
            self._theme_set_early = False
            if not self._mounted:              # the theme chosen in __init__: already in the variables
                return
        super().refresh_css(animate)

    _theme_chosen = False

    def get_css_variables(self) -> dict[str, str]:
        """None before `__init__` has chosen the theme: Textual's own `__init__` asks for its
        default theme's, which would be worked out only to be replaced."""
        if not self._theme_chosen:
            return {}
        return super().get_css_variables()

    def get_theme_variable_defaults(self) -> dict[str, str]:
        generated = self.current_theme.to_color_system().generate()
        return {name: generated.get(value[1:], value) if value.startswith("$") else value
                for name, value in GM_VARIABLES.items()}

    def watch_theme(self, name: str) -> None:
        if self._theme_ready and self.config.theme != name:
            self.config.remember_theme(name, save=False)
            self.save_config()

    def action_cycle_theme(self) -> None:
        """`t`: the next shipped or user theme, named in a notice (every theme: the palette's Theme)."""
        name = next_theme(self.theme, self.own_themes)
        if name != self.theme and self.set_theme(name):
            self.warn(_("Theme: {name}").format(name=name), severity="information")

    def set_theme(self, name: str) -> bool:
        try:
            self.theme = name
        except InvalidThemeError:
            self.warn(_("no theme named {name}").format(name=repr(name)))
            return False
        return True

    # ------------------------------------------------------------ config.toml

    def save_config(self) -> None:
        """`config.toml` is written in a thread (tomlkit reads it first to keep the GM's text)."""
        self.run_worker(self._save_config_in_thread, thread=True, group="config", name="config",
                        exit_on_error=False)

    def _save_config_in_thread(self) -> None:
        from .terminal.quick_switch import quick_switches      # (its first save imports tomlkit: 70 ms of Python)

        config = self.config
        with quick_switches():
            saved = config.save()
        if not saved and not config.broken:
            problem = config.problems[-1] if config.problems else _("settings not saved")
            self.call_from_thread(self.warn, problem)

    # ------------------------------------------------------------ language

    def switch_language(self, lang: str) -> None:
        """The palette's "Language: …": the whole screen in `lang` now, remembered in config.toml."""
        i18n.set_language(lang)          # the screen redraws in `_language_changed`
        if self.config.language != lang:
            self.config.remember_language(lang, save=False)
            self.save_config()

    def _language_changed(self, lang: str) -> None:
        """Every word on screen again in the new language: titles, footer, status, each pane."""
        if not self.screen_stack:
            return
        main = self.screen_stack[0]
        for pane_id in PANES:
            widget = self.pane(pane_id)
            if widget is not None:
                retitle(widget)
        for footer in main.query(QuietFooter):
            footer.relabel()
        self.refresh_views()
        self.show_status()
        self.refresh_bindings()
