"""The player view's app: a read-only second screen that follows the GM's session.

Every POLL_SECONDS it asks its `CampaignWatch` to look at the campaign's files (a `stat`
each; a file is read again only when it changed), and redraws when something did. It holds
no session, takes no lock, saves nothing of the campaign: `q`, a signal, the end of standard
input or a closed browser tab just end it. Started with no language chosen anywhere (no
--lang, none in config.toml, LANG=C), it asks which on its first screen, as the GM's screen
does and with the same question (`screens.language_question`), and remembers the answer in
the same config.toml: its one setting it writes.
"""

from __future__ import annotations

import asyncio
import signal
from typing import TYPE_CHECKING, Any, Sequence

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Static

from gmscreen import i18n
from gmscreen.i18n import N_, _
from gmscreen.play.player_view import POLL_SECONDS, CampaignWatch, PlayerState

from ..config import Config
from ..glyphs import AsciiGlyphs
from ..sanitize import literal
from ..themes import load_themes
from ..terminal import driver_class
from ..terminal.footer import QuietFooter
from .latest_roll import LatestRoll
from .roll_list import RollList
from .round_banner import RoundBanner
from .style import CSS
from .turn_order import TurnOrder

if TYPE_CHECKING:
    from textual.filter import LineFilter

DEFAULT_THEME = "gmscreen-dark"


def mark_secret_rolls(config: Config) -> bool:
    """config.toml's `[players] mark_secret_rolls = true`: a GM-only roll shows as "GM's secret
    roll" (never its dice nor its result); by default it does not show at all."""
    section = config.extra.get("players")
    return isinstance(section, dict) and section.get("mark_secret_rolls") is True


class PlayersApp(App):
    """`PlayersApp(watch)`: the view of an opened `CampaignWatch` (see `gmscreen.ui.players.run`)."""

    TITLE = "gmscreen"
    CSS = CSS
    ENABLE_COMMAND_PALETTE = False
    AUTO_FOCUS = None
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (60, "-wide")]
    BINDINGS = [Binding("q", "quit", N_("Quit"), id="players.quit")]

    def __init__(self, watch: CampaignWatch, *, ascii: bool = False, theme: str | None = None,
                 config: Config | None = None, language: str | None = None, environment: bool = False) -> None:
        """`language`: --lang; `environment`: the command line's run (`gmscreen players`), where
        a language chosen nowhere is asked (`Config.asks_language`)."""
        super().__init__()
        self.campaign_watch = watch       # (not `watch`: DOMNode.watch is a method)
        self.config = config if config is not None else Config.load()
        self.asks_language = environment and self.config.asks_language(language)
        self.show_secret = mark_secret_rolls(self.config)
        self.ascii = ascii
        self.shown: PlayerState | None = None
        themes, _problems = load_themes()
        for each in themes:
            self.register_theme(each)
        for name in (theme, self.config.theme, DEFAULT_THEME):
            if name and name in self.available_themes:
                self.theme = name
                break
        if ascii:
            self.add_class("-ascii")
            self._ascii_glyphs = AsciiGlyphs()

    _ascii_glyphs: AsciiGlyphs | None = None

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters, then (`--ascii`) every glyph drawn in ASCII."""
        filters = super().get_line_filters()
        return filters if self._ascii_glyphs is None else [*filters, self._ascii_glyphs]

    def get_driver_class(self) -> Any:
        """Textual's driver, or one that ends with its input or its browser tab (`terminal`)."""
        return driver_class(super().get_driver_class())

    def compose(self) -> ComposeResult:
        yield Static("", id="players-title", markup=False)
        yield RoundBanner()
        with Horizontal(id="players-middle"):
            yield TurnOrder()
            yield LatestRoll()
        yield RollList()
        yield Static("", id="players-problem", markup=False)
        yield QuietFooter()

    def on_mount(self) -> None:
        self._install_signal_handlers()
        self.redraw()
        self.set_interval(POLL_SECONDS, self.look, name="players-poll")
        if self.asks_language:
            from ..screens.language_question import PLAYERS_HINT, ask_language

            self.asks_language = False
            ask_language(self, PLAYERS_HINT)

    def switch_language(self, lang: str) -> None:
        """The language question answered: the view in `lang` now, remembered in config.toml."""
        i18n.set_language(lang)
        self.shown = None                                   # every word drawn again
        self.redraw()
        for footer in self.query(QuietFooter):
            footer.relabel()
        self.refresh_bindings()
        if self.config.language != lang:
            self.config.remember_language(lang, save=False)
            self.run_worker(self._save_config, thread=True, group="config", name="config", exit_on_error=False)

    def _save_config(self) -> None:
        """In a thread (tomlkit reads the file first, to keep the GM's text); a failure said."""
        config = self.config
        if not config.save() and not config.broken:
            problem = config.problems[-1] if config.problems else _("settings not saved")
            self.call_from_thread(self.notify, problem, severity="warning", markup=False)

    def _install_signal_handlers(self) -> None:
        if self.is_headless or not hasattr(signal, "SIGHUP"):
            return
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGHUP, signal.SIGTERM):      # nothing to save: just leave, the terminal restored
            try:
                loop.add_signal_handler(sig, self.exit, None, 128 + sig)
            except (ValueError, RuntimeError):
                continue

    def on_input_eof(self, reason: str = "") -> None:
        """Nobody can press a key any more (stdin ended, the tab closed): the view ends."""
        self.exit()

    def look(self) -> None:
        """One look at the files; a redraw when something changed."""
        said = (self.campaign_watch.problem, self.campaign_watch.notice)
        if self.campaign_watch.poll() or (self.campaign_watch.problem, self.campaign_watch.notice) != said:
            self.redraw()

    def redraw(self) -> None:
        state = self.campaign_watch.state(show_secret=self.show_secret, ascii=self.ascii)
        problem = self.query_one("#players-problem", Static)
        words = (_("cannot read the campaign now: {problem}").format(problem=self.campaign_watch.problem)
                 if self.campaign_watch.problem else self.campaign_watch.notice)
        problem.update(literal(words) if words else "")
        problem.set_class(bool(words), "-shown")
        if state is None or state == self.shown:
            return
        self.shown = state
        title = " · ".join((state.name, state.game, _("session {n}").format(n=state.session)))
        self.query_one("#players-title", Static).update(literal(title))
        self.title = state.name
        self.query_one(RoundBanner).show(state)
        self.query_one(TurnOrder).show(state)
        self.query_one(LatestRoll).show(state)
        self.query_one(RollList).show(state)
