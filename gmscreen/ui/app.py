"""The game master's screen: the shell around the panes.

`GMScreenApp` opens the campaign (in a thread), mounts the panes and lays them out for the
terminal's size (all at once from 120×32, one at a time with the dice tray below it in
80×24). Beside it: `keygate` hands the keys on in order, `disk_watch` takes in what someone
else wrote to the campaign file, `lock_retry` takes the campaign once another gmscreen lets
go of it, `lifecycle` saves whatever ends the session, and the roll
log is read after the first frame without ever holding a key.
"""

from __future__ import annotations

import gc
from collections import deque
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Sequence

from textual import events
from textual.app import App, ComposeResult, InvalidThemeError
from textual.binding import Binding
from textual.containers import Container
from textual.reactive import Reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static
from textual.worker import Worker, WorkerState

from gmscreen import i18n
from gmscreen.i18n import N_, _, ngettext, os_reason

from .config import Config, first_run_campaign
from .disk_watch import DISK_CHECK_SECONDS, DiskWatch
from .glyphs import AsciiGlyphs
from .host import CampaignHost
from .terminal import driver_class
from .terminal.keygate import KeyGate
from .lifecycle import SessionKeeper
from .lock_retry import LOCK_RETRY_SECONDS, LockRetry
from .panes import MAIN_PANES, PANES, WIDE_HEIGHT, WIDE_WIDTH, is_wide, make_pane, pane_title, retitle
from .sanitize import clean, pasted
from .terminal.steady import SteadyScreen
from .terminal.start_slices import next_slice, warm_up
from .status import StatusLine
from .themes import ANSI_THEME, DEFAULT_THEME, GM_VARIABLES, load_themes, next_theme
from .terminal.bindings import bindings_of
from .terminal.footer import QuietFooter
from .terminal.toasts import SteadyToasts, keep_toast_rack

if TYPE_CHECKING:
    from textual.timer import Timer
    from textual.filter import LineFilter
    from textual.notifications import SeverityLevel

    from .widgets.tray.dice_tray import DiceTray

MAX_NOTICES = 4            # load problems shown one by one; past that, the first ones and a count
KEPT_NOTICES = 200         # `GMScreenApp.notices`: the last ones said


class Notice(NamedTuple):
    """A notice the screen gave (a toast), as it was said."""

    message: str
    severity: str
    title: str = ""

# Tab / shift+tab walk the panes in this order.
PANE_CYCLE = MAIN_PANES + ("dice-tray",)
PANES_GROUP = Binding.Group(N_("Panes"), compact=True)

CSS = """
Screen { layout: vertical; }
#body { height: 1fr; layout: vertical; }
#panes { height: 1fr; }
.loading { height: 1fr; content-align: center middle; color: $text-muted; }
.pane {
    height: 1fr;
    width: 1fr;
    border: round $border-blurred;
    border-title-color: $text-muted;
}
.pane:focus-within { border: round $border; border-title-color: $text; }
#panes > .pane { display: none; }
#panes > .pane.-current { display: block; }
#dice-tray { height: 7; }
#dice-tray.-maximized, .pane.-maximized { height: 1fr; display: block; }

Screen.-wide.-tall #panes { layout: grid; grid-size: 2 2; grid-columns: 3fr 2fr; }
Screen.-wide.-tall #panes > .pane { display: block; }
Screen.-wide.-tall #dice-tray { height: 9; }

/* The toasts' rack is kept placed, invisible while empty (`terminal.toasts`), and only as
   wide as its toasts (the right half): as it grows and shrinks, the rows it spans are sent again. */
ToastRack { min-height: 1; width: 50%; offset-x: 50%; }
ToastRack Toast { max-width: 100%; }

App.-ascii .pane { border: ascii $border-blurred; }
App.-ascii .pane:focus-within { border: ascii $border; }
App.-ascii Input { border: ascii $border-blurred; }
App.-ascii Input:focus { border: ascii $border; }
App.-ascii Input.-textual-compact, App.-ascii Input.-textual-compact:focus { border: none; }  /* one-line fields */
App.-ascii .dialog { border: ascii $border; }
App.-ascii FooterKey.-command-palette { border-left: ascii $foreground 20%; }
"""


ROLL_FOLLOW_SECONDS = 0.5               # another process's roll shows within a second
_LOG_READ_DELAY = 0.25               # seconds after the first frame: see `on_ready`
SAVING_SHOWN_AFTER = 0.1                # a save still running then says "saving…" on the status line
_ASCII_KEY_NAMES = {"⏎": "enter", "↑": "up", "↓": "down", "←": "left", "→": "right", "⌫": "backspace"}


def _palette_commands() -> type:
    """The palette's provider, imported when the palette first opens (not at start-up)."""
    from .palette import GMScreenCommands

    return GMScreenCommands


class MainScreen(SteadyScreen):
    """The screen of the panes: tab moves from pane to pane rather than widget to widget."""

    BINDINGS = [
        Binding("tab", "app.cycle_pane(1)", N_("Next pane"), show=False, id="app.next-pane"),
        Binding("shift+tab", "app.cycle_pane(-1)", N_("Previous pane"), show=False, id="app.previous-pane"),
    ]
    # Textual's Screen repaints all of itself on each focus move; the widgets whose look
    # depends on focus restyle (and redraw) themselves, so a pane switch sends what changed.
    focused: Reactive[Widget | None] = Reactive(None, repaint=False)

    @classmethod
    def size_classes(cls, app: App, width: int, height: int) -> dict[str, bool]:
        """The breakpoint classes (`-wide`, `-tall`…) of a terminal that size, as Textual's own
        Resize handler sets them (the highest breakpoint reached, each way)."""
        horizontal = cls.HORIZONTAL_BREAKPOINTS or app.HORIZONTAL_BREAKPOINTS or []
        vertical = cls.VERTICAL_BREAKPOINTS or app.VERTICAL_BREAKPOINTS or []
        classes = {name: False for _, name in (*horizontal, *vertical)}
        for size, breakpoints in ((width, horizontal), (height, vertical)):
            reached = [name for at, name in sorted(breakpoints, reverse=True) if size >= at]
            if reached:
                classes[reached[0]] = True
        return classes

    def on_mount(self) -> None:
        """The size classes from the start: Textual sets them on the first Resize, after the
        screen's first frame, which then went in the one-pane layout and the whole screen again
        in the four-pane one. (Set when the app made the screen, they change nothing here.)"""
        width, height = self.app.size
        if width and height:
            self.update_classes(self.size_classes(self.app, width, height), animate=False)


class GMScreenApp(SteadyToasts, SessionKeeper, CampaignHost):
    """The app: `GMScreenApp(path)` (None: the last campaign, or a copy of the MIR sample)."""

    TITLE = "gmscreen"
    CSS = CSS
    COMMANDS = {_palette_commands}        # Textual's system commands included, translated (`system_commands`)
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (WIDE_WIDTH, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (WIDE_HEIGHT, "-tall")]
    AUTO_FOCUS = None
    BINDINGS = [
        Binding("slash", "focus_quick_roll", N_("Roll"), id="app.quick-roll"),
        Binding("n", "next_turn", N_("Next"), id="app.next-turn"),
        Binding("p", "previous_turn", N_("Prev"), id="app.previous-turn"),
        Binding("ctrl+z", "undo", N_("Undo"), id="app.undo"),
        Binding("ctrl+y", "redo", N_("Redo"), show=False, id="app.redo"),
        Binding("1,ampersand", "show_pane('roster')", N_("Roster"), id="app.pane-roster", group=PANES_GROUP),
        Binding("2,é", "show_pane('initiative')", N_("Initiative"), id="app.pane-initiative", group=PANES_GROUP),
        Binding("3,quotation_mark", "show_pane('difficulty')", N_("Difficulty"), id="app.pane-difficulty",
                group=PANES_GROUP),
        Binding("4,apostrophe", "show_pane('log')", N_("Log"), id="app.pane-log", group=PANES_GROUP),
        Binding("h", "toggle_gm_only", N_("GM-only"), show=False, id="app.gm-only"),
        Binding("full_stop", "repeat_roll", N_("Repeat roll"), show=False, id="app.repeat-roll"),
        Binding("ctrl+f", "search_log", N_("Search log"), show=False, id="app.search-log"),
        Binding("z", "zoom", N_("Zoom"), show=False, id="app.zoom"),
        Binding("t", "cycle_theme", N_("Theme"), show=False, id="app.theme"),
        Binding("ctrl+o", "open_campaign", N_("Open campaign"), show=False, id="app.open"),
        Binding("ctrl+e", "campaign_form", N_("Campaign settings"), show=False, id="app.campaign-form"),
        Binding("L", "luck", N_("Luck over time"), show=False, id="app.luck"),
        Binding("question_mark", "keys", N_("Keys"), id="app.keys"),
        Binding("q", "quit", N_("Quit"), id="app.quit"),
    ]

    _saving_timer: Timer | None         # says "saving…" for a save still running after a moment

    def __init__(self, path: Path | str | None = None, *, theme: str | None = None, ascii: bool = False,
                 config: Config | None = None, resume_gc: bool = False, language: str | None = None,
                 environment: bool = False) -> None:
        super().__init__(None)
        self.notices: deque[Notice] = deque(maxlen=KEPT_NOTICES)    # what `notify` said, oldest first
        self._resume_gc = resume_gc                # `run` paused the collector for the start
        self.config = config if config is not None else Config.load()
        # --lang, else config.toml's `language`, else (`environment`: the command line's run) the
        # environment, else French; with none of them the language already chosen stays.
        if language is not None or self.config.language is not None or environment:
            spoken = i18n.language()
            i18n.choose(language, self.config.language)
            if config is None and i18n.language() != spoken:
                self.config = Config.load(self.config.path)      # its problems in the language chosen
        # Chosen nowhere (LANG=C on a server): the first screen asks once (`language_question`).
        self.asks_language = (environment and language is None and self.config.language is None
                              and not self.config.broken and i18n.from_environment() is None)
        self._stop_listening: Any = None           # `i18n.on_change` subscription, while mounted
        self.ascii = ascii
        self.path: Path | None = Path(path) if path is not None else None
        self.current_pane = MAIN_PANES[0]
        self.exit_reason = ""
        self._theme_ready = False
        self._opening: Path | None = None
        self._signals: list[int] = []
        self._pending_exit: int | None = None      # exit asked while a campaign was still opening
        self._settled = False                      # a campaign is shown, or the load error screen
        self._preopened: Any = None                # a session opened in compose, panes already there
        self._rolls_to_load: Any = None            # a session whose roll log is read after the first frame
        self._config_to_save = False               # the campaign opened, remembered after the first frame
        self.start_slices = 0                      # turns of the loop the start took after the first frame
        self.startup_problems: list[str] = list(self.config.problems)
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
        if self.config.keymap:
            self.set_keymap(self.config.keymap)
        self._keymap_checked = False
        self.key_gate = KeyGate(self)
        self.disk_watch = DiskWatch(self)
        self.lock_retry = LockRetry(self)

    # ------------------------------------------------------------ themes

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

    _ascii_glyphs: AsciiGlyphs | None = None
    _mounted = False                # on_mount has run
    _first_frame_out = False        # on_ready has run: the first frame is on screen

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters, then (`--ascii`) every glyph drawn in ASCII (gmscreen.ui.glyphs)."""
        filters = super().get_line_filters()
        return filters if self._ascii_glyphs is None else [*filters, self._ascii_glyphs]

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

    def system_commands(self, screen: Screen) -> list[tuple[str, str, Any]]:
        """Textual's system commands as (title msgid, help msgid, callback); the palette shows them
        in the language spoken and finds them in either (`get_system_commands` for Textual)."""
        commands: list[tuple[str, str, Any]] = [
            (N_("Theme"), N_("Change the current theme"), self.action_change_theme),
            (N_("Quit"), N_("Quit the application as soon as possible"), self.action_quit),
            (N_("Keys"), N_("Show every key and its id"), self.action_keys),
        ]
        if screen.maximized is not None:
            commands.append((N_("Minimize"), N_("Minimize the widget and restore to normal size"),
                             screen.action_minimize))
        elif screen.focused is not None and screen.focused.allow_maximize:
            commands.append((N_("Maximize"), N_("Maximize the focused widget"), screen.action_maximize))
        if self.writable:
            commands.append((N_("Save now"), N_("Write the campaign to its file now (each change is saved a "
                                                "moment after it is made anyway)"), self.action_save))
        commands.append((N_("Screenshot"), N_("Save an SVG 'screenshot' of the current screen"),
                         lambda: self.set_timer(0.1, self.deliver_screenshot)))
        return commands

    def get_system_commands(self, screen: Screen) -> Any:
        from textual.app import SystemCommand

        for title, help_text, callback in self.system_commands(screen):
            yield SystemCommand(_(title), _(help_text), callback)

    def action_command_palette(self) -> None:
        """Textual's palette, its words in the language spoken."""
        from textual.command import CommandPalette

        from .palette import Palette

        # Textual types `is_open`'s app as App[object]; any app will do (App's type is invariant)
        if self.use_command_palette and not CommandPalette.is_open(self):  # type: ignore[arg-type]
            self.push_screen(Palette(id="--command-palette"))

    def search_themes(self) -> None:
        """`t`: the themes, the palette's words in the language spoken."""
        from textual.theme import ThemeProvider

        from .palette import Palette

        self.push_screen(Palette(providers=[ThemeProvider], placeholder=_("Search for themes…")))

    # ------------------------------------------------------------ layout

    def get_driver_class(self) -> Any:
        """Textual's driver, or one that ends with its input or its browser tab (`terminal`)."""
        return driver_class(super().get_driver_class())

    def get_default_screen(self) -> Screen:
        """The screen of the panes, with its size classes before anything in it is styled (set
        once mounted, they restyled the whole screen a second time before the first frame)."""
        width, height = self.size
        classes = MainScreen.size_classes(self, width, height) if width and height else {}
        return MainScreen(id="_default", classes=" ".join(name for name, on in classes.items() if on))

    def compose(self) -> ComposeResult:
        preopened = self._preopen()
        status = StatusLine()
        if preopened is not None:          # the first frame already says where the GM is
            status.show_session(preopened, ascii=self.ascii)
        yield status
        with Container(id="body"):
            if preopened is None:
                yield Static("", classes="loading", markup=False)
            else:
                # The current pane lit before it is styled (lit once mounted, it was styled twice).
                yield Container(*[make_pane(pane_id, current=pane_id == self.current_pane)
                                  for pane_id in self._first_panes()], id="panes")
                yield make_pane("dice-tray")
        yield QuietFooter()

    def _first_panes(self) -> tuple[str, ...]:
        """The panes of the first frame: all four in the wide layout, else only the current one;
        the hidden ones are mounted right after the first frame (`_build_missing_panes`)."""
        if is_wide(*self.size):
            return MAIN_PANES
        return (self.current_pane,)

    async def _build_missing_panes(self) -> None:
        """Mount the main panes the first frame left out, each at its place in the order."""
        for each in self._mount_missing_panes():
            await each

    def _mount_missing_panes(self) -> list[Any]:
        """Start mounting the missing main panes; what to await for them to be mounted."""
        found = self.screen_stack[0].query("#panes") if self.screen_stack else None
        if not found:
            return []
        container = found.first()
        if not container.is_attached:          # already taken down: an exit asked during start-up
            return []
        present = {child.id for child in container.children}
        mounting = []
        for index, pane_id in enumerate(MAIN_PANES):
            if pane_id in present:
                continue
            before = next((p for p in MAIN_PANES[index + 1:] if p in present), None)
            pane = make_pane(pane_id)
            mounting.append(container.mount(pane) if before is None else container.mount(pane, before=f"#{before}"))
            present.add(pane_id)
        if mounting:
            self._mark_current(self.current_pane)
        return mounting

    async def _ensure_pane(self, pane_id: str) -> None:
        """A key for a pane not built yet (pressed as the screen appeared) waits for it."""
        if self.session is not None and self.pane(pane_id) is None:
            await self._build_missing_panes()

    def _preopen(self) -> Any:
        """Open a campaign named on the command line before the first frame, so that the
        first frame shows it. Its roll log is read after (deferred). Any problem leaves it to
        `open_campaign`, which reports it on the load-error screen."""
        if self.path is None or not self.path.is_file():
            return None
        result = self._open_in_thread(self.path)
        if isinstance(result, BaseException):
            return None
        self._preopened = result
        self.session = result          # the panes composed below find it when they mount
        self._settled = True
        return result

    @property
    def status(self) -> StatusLine:
        return self.screen_stack[0].query_one(StatusLine)

    @property
    def wide(self) -> bool:
        screen = self.screen_stack[0] if self.screen_stack else None
        return screen is not None and screen.has_class("-wide") and screen.has_class("-tall")

    def get_key_display(self, binding: Binding) -> str:
        """Footer and keys screen: `--ascii` shows "enter", "up"… instead of ⏎, ↑…"""
        display = super().get_key_display(binding)
        if self.ascii and not display.isascii():
            for glyph, name in _ASCII_KEY_NAMES.items():
                display = display.replace(glyph, name)
        return display

    def on_mount(self) -> None:
        self._mounted = True
        keep_toast_rack(self)
        from .terminal.repaint import forget_stale_repaints

        forget_stale_repaints(self.screen)
        self._stop_listening = i18n.on_change(self._language_changed)
        self._theme_ready = True
        if self._config_changed:
            self.save_config()
        self._install_signal_handlers()
        self.set_interval(DISK_CHECK_SECONDS, self.disk_watch.look, name="disk-watch")
        self.set_interval(ROLL_FOLLOW_SECONDS, self._follow_rolls, name="roll-follow")
        self.set_interval(LOCK_RETRY_SECONDS, self.lock_retry.look, name="lock-retry")
        self._warn_all(self.startup_problems, "error", None)
        if self._preopened is not None:
            session, self._preopened = self._preopened, None
            self._opening = Path(session.path)
            self.call_later(self._install_session, session, True)
            return
        path = self.path if self.path is not None else self._start_path()
        if path is not None:
            self.open_campaign(path)
        else:
            self._settled = True
            self.key_gate.set_open(True)

    async def on_event(self, event: events.Event) -> None:
        """Keys and pastes go on one at a time, in order (see `keygate`); pasted text reaches a
        field only once its escape sequences and controls are gone (every field: quick roll,
        forms, notes, search)."""
        if KeyGate.gated(event):
            if not self.key_gate.admit(event):
                return
            if not self.screen_stack:          # keys held behind `q`: the screen is gone
                self.key_gate.dispatched()
                return
            if isinstance(event, events.Paste):
                event.text = pasted(event.text)
            try:
                await super().on_event(event)
            finally:
                self.key_gate.dispatched()
            return
        await super().on_event(event)

    async def on_ready(self) -> None:
        """The first frame is on screen: what start-up built lives all session, so it is moved
        out of the collector's sight (gc.freeze) before collection resumes."""
        self._first_frame_out = True
        if self._resume_gc:
            self._resume_gc = False
            gc.freeze()
            gc.enable()
        # The rest of the start, a slice per turn of the loop (keys typed meanwhile go between).
        next_slice(self, self._start_slices, self.session)
        if self._config_to_save:
            self._config_to_save = False
            self.save_config()
        session, self._rolls_to_load = self._rolls_to_load, None
        if session is not None and session is self.session:
            # A little later: the keys typed as the screen appeared are answered first, not
            # behind a thread that shares the interpreter with them (no one types headless).
            async def read() -> None:
                if session is self.session:
                    await self._build_missing_panes()      # the log pane takes the rolls in as they come
                    self._load_rolls(session)

            if self.is_headless:
                self.call_later(read)
            else:
                self.set_timer(_LOG_READ_DELAY, read)

    def _start_slices(self, session: Any, step: int = 0) -> None:
        """After the first frame, one piece per turn of the loop (keys typed meanwhile go in
        between, none waits for the whole): the tray's grammar with the game's words, the
        module of each hidden pane, then those panes mounted together (one layout, one frame),
        then the modules of a first roll (`warm_up`)."""
        if session is None or session is not self.session or not self.is_running:
            return
        missing = [p for p in MAIN_PANES if self.pane(p) is None]
        if step == 0:
            from gmscreen.play.tables import table_for  # the game's line ready before the first key

            table_for(session.campaign.system).line
        elif step <= len(missing):         # (a module a turn: the imports are most of the cost)
            from .panes import pane_class

            pane_class(missing[step - 1])
        self.start_slices += 1
        if step > len(missing):
            self._mount_missing_panes()
            next_slice(self, warm_up, self, session)
            return
        next_slice(self, self._start_slices, session, step + 1)

    def _start_path(self) -> Path | None:
        last = self.config.last_campaign
        if last is not None:
            if last.is_file():
                return last
            self.warn(_("last campaign {path} is gone; opening the sample campaign instead").format(path=last))
        try:
            return first_run_campaign()
        except OSError as exc:
            self.warn(_("cannot copy the sample campaign: {problem}").format(problem=os_reason(exc)), "error")
            self.action_open_campaign()
            return None

    # ------------------------------------------------------------ opening and closing

    def open_campaign(self, path: Path | str) -> None:
        """Close the open campaign (saved) and open `path` in a thread; panes follow."""
        path = Path(path)
        self._opening = path
        self._settled = False
        self.key_gate.set_open(False)          # keys typed while it opens wait for its panes
        self._settle_pending_roll()
        self._drop_session()
        self.status.show_loading(_("loading {name}…").format(name=clean(path.name)))
        body = self.screen_stack[0].query_one("#body", Container)
        loading = clean(_("Loading {path}…").format(path=path))
        if body.query("#panes"):
            body.remove_children()
            body.mount(Static(loading, classes="loading", markup=False))
        else:
            body.query_one(".loading", Static).update(loading)
        self.run_worker(lambda: self._open_in_thread(path), thread=True, group="open", name="open",
                        exit_on_error=False)

    @staticmethod
    def _open_in_thread(path: Path) -> Any:
        """The session, or the exception that says why it could not be opened."""
        from gmscreen.campaign import open_session
        from gmscreen.campaign.errors import CampaignError, CampaignLocked

        try:
            return open_session(path, defer_rolls=True)
        except (CampaignError, CampaignLocked, OSError, UnicodeError, ValueError) as exc:
            return exc

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if worker.name == "open":
            if event.state == WorkerState.SUCCESS:
                if self._pending_exit is not None:
                    self._close_opened(worker.result)
                    self.exit(return_code=self._pending_exit)
                elif isinstance(worker.result, BaseException):
                    self._open_failed(worker.result)
                else:
                    self.call_later(self._install_session, worker.result)
            elif event.state == WorkerState.ERROR:
                self._open_failed(worker.error)
        elif worker.name == "load-rolls" and event.state in (WorkerState.SUCCESS, WorkerState.ERROR):
            if event.state == WorkerState.ERROR:
                self.warn(_("the roll log could not be read: {problem}").format(problem=worker.error), "error")
            else:
                assert worker.result is not None      # a success: what `_load_rolls`'s worker returned
                self._rolls_loaded(*worker.result)
                self._index_rolls(worker.result[0])
        elif worker.name == "index-rolls" and event.state == WorkerState.SUCCESS:
            assert worker.result is not None          # a success: what `_index_rolls`'s worker returned
            session, index = worker.result
            if session is self.session and index is not None:
                session.install_roll_index(index)
                self._show_rolls()
                if index.problems:      # older entries left out (a number out of range): said with their place
                    self._warn_all([str(p) for p in index.problems], "warning",
                                   _("the roll log of {name}").format(name=session.path.name))
        elif worker.name == "index-rolls" and event.state == WorkerState.ERROR:
            self.warn(_("the older rolls of the log could not be read: {problem}").format(problem=worker.error),
                      "error")
        elif worker.name == "autosave" and self.session is not None:
            if event.state == WorkerState.RUNNING:
                # "saving…" only for a save still running after a moment: a quick one says
                # "saved" once, not two words flashing by (each one a write down the wire).
                self._saving_timer = self.set_timer(SAVING_SHOWN_AFTER, self._say_saving)
            elif event.state in (WorkerState.SUCCESS, WorkerState.ERROR, WorkerState.CANCELLED):
                timer: Timer | None = getattr(self, "_saving_timer", None)
                if timer is not None:
                    timer.stop()
                    self._saving_timer = None
                if event.state == WorkerState.SUCCESS:
                    self._show_save_state(N_("saved") if not self.session.dirty else "")

    def _open_failed(self, error: BaseException | None) -> None:
        from gmscreen.campaign.errors import CampaignError, Problem

        from .screens.load_error import LoadErrorScreen

        path = self._opening or Path("?")
        if isinstance(error, CampaignError):
            problems = [str(p) for p in error.problems] or [str(error)]
        elif isinstance(error, OSError):
            problems = [str(Problem(str(path), "", _("cannot open: {problem}").format(
                problem=os_reason(error))))]
        else:
            problems = [_("{path}: cannot open: {problem}").format(path=path,
                                                                 problem=f"{type(error).__name__}: {error}")]
        self._settled = True
        self.status.show_loading(_("{name}: not loaded").format(name=clean(path.name)))
        self.push_screen(LoadErrorScreen(path, problems, self.config), self._chosen_after_error)
        self.key_gate.set_open(True)

    def _chosen_after_error(self, choice: Path | None) -> None:
        if choice is None:
            self.exit(2, return_code=2)
        else:
            self.open_campaign(choice)

    async def _install_session(self, session: Any, mounted: bool = False) -> None:
        if self._opening is not None and Path(session.path) != self._opening.absolute():
            session.close()            # superseded by a later open
            return
        self.session = session
        self._settled = True
        self.path = Path(session.path)
        recovered = session.recover_pending()      # dice shown before a crash: logged as they stood
        if not mounted:
            body = self.screen_stack[0].query_one("#body", Container)
            await body.remove_children()
            panes = [make_pane(pane_id) for pane_id in MAIN_PANES]
            await body.mount(Container(*panes, id="panes"), make_pane("dice-tray"))
            self._mark_current(self.current_pane)         # (composed with the session: lit in compose)
        self.selected_id = None
        if not mounted or recovered is not None:     # (panes composed with the session showed it as they mounted)
            self.refresh_views()
        self.show_status()
        self.refresh_bindings()
        self.config.remember_campaign(self.path, save=False)
        if self._first_frame_out:
            self.save_config()
        else:
            self._config_to_save = True     # after the first frame: its thread would share the interpreter
        if session.read_only:
            self.warn(_("{name} is open read-only ({reason}): changes and rolls are not saved").format(
                name=session.path.name, reason=session.read_only_reason), "warning")
        self._warn_all([str(p) for p in session.warnings if "read-only" not in p.message], "warning",
                       f"gmscreen validate {session.path}")
        self.call_after_refresh(self._warn_unread_effects, session)    # (its module: after the first frame)
        if recovered is not None:
            secret = recovered.gm_only or bool(recovered.result.get("hidden"))
            what = _("the GM's secret roll") if secret else f"{recovered.who} · {recovered.line}"
            self.warn(_("roll shown before the stop, logged as it stood: {roll}").format(roll=what))
        if mounted:
            self._show_ready()                      # lit in the first frame, keys let in at once
        else:
            self._focus_pane(self.current_pane)      # lit in the next frame, not the pane sent again after it
            self.call_after_refresh(self._show_ready)
        self._check_keymap()
        if not session.rolls_loaded:
            # The roll log grows all campaign long: read it once the first frame is out (a
            # thread started before it would hold the interpreter lock while the frame is drawn).
            if self._first_frame_out:
                self._load_rolls(session)
            else:
                self._rolls_to_load = session

    def _warn_unread_effects(self, session: Any) -> None:
        """The conditions whose effect the game cannot read (so not applied), once per opening."""
        if session is not self.session:
            return
        from gmscreen.play.effects import file_problems
        from gmscreen.play.tables import known_table

        self._warn_all([str(p) for p in file_problems(session.campaign, Path(session.path),
                                                      game=known_table(session.campaign.system))], "warning",
                       f"gmscreen validate {session.path}")

    def _show_ready(self) -> None:
        """The campaign is on screen: focus its pane, then let the keys typed meanwhile in."""
        self._focus_pane(self.current_pane)
        if self.asks_language:
            from .screens.language_question import ask_language

            self.asks_language = False
            ask_language(self)
        self.call_later(self.key_gate.set_open, True)

    def _load_rolls(self, session: Any) -> None:
        self.run_worker(lambda: (session, self._read_log(session)), thread=True, group="open",
                        name="load-rolls", exit_on_error=False)

    @staticmethod
    def _read_log(session: Any) -> list[Any]:
        """In a thread. A long log is a million objects kept all session: left to the collector,
        each full pass over them would stop the screen (and every key) for half a second, so it
        is paused while they are made, then they are moved out of its sight (gc.freeze)."""
        paused = gc.isenabled()
        gc.disable()
        # The reader would hold the interpreter lock for a whole switch interval each time the
        # screen's loop lets it go (at every select), so each key waited several of them.
        from gmscreen.campaign.rolltail import TAIL_ROLLS

        from .terminal.quick_switch import quick_switches

        try:
            with quick_switches():
                return session.load_rolls(tail=TAIL_ROLLS)
        finally:
            gc.freeze()
            if paused:
                gc.enable()

    def _index_rolls(self, session: Any) -> None:
        """Where the rolls older than the tail are, found in a thread; parsed when asked for."""
        if session is self.session:
            from .terminal.quick_switch import give_way, quick_switches

            def index() -> tuple[Any, Any]:
                with quick_switches():
                    return session, session.index_rolls(pause=give_way)

            self.run_worker(index, thread=True, group="open", name="index-rolls", exit_on_error=False)

    def _follow_rolls(self) -> None:
        """Rolls logged by another process (`gmscreen roll --campaign`, `gmscreen line`) shown
        within a second: a stat of the log each tick, its new bytes read when it grew."""
        session = self.session
        if session is not None and session.rolls_loaded and not session.closed and session.follow_rolls():
            self._show_rolls()

    def _show_rolls(self) -> None:
        """Only the views of the log take in rolls that came (the others did not change)."""
        from .widgets.log.roll_log import RollLog

        for view in self.views():
            if isinstance(view, RollLog) and self.session is not None:
                view.show_campaign(self.session)

    def _rolls_loaded(self, session: Any, problems: list[Any]) -> None:
        if session is not self.session:
            return
        self._warn_all([str(p) for p in problems], "warning",
                       _("the roll log of {name}").format(name=session.path.name))
        self.refresh_views()
        self.show_status()

    def _warn_all(self, problems: list[str], severity: str, full_list: str | None) -> None:
        """A few problems one notification each; many (a hand-edited file gone wrong) the first
        ones and a count, rather than a screen buried under toasts."""
        if len(problems) <= MAX_NOTICES:
            for problem in problems:
                self.warn(problem, severity)
            return
        for problem in problems[:MAX_NOTICES - 1]:
            self.warn(problem, severity)
        rest = len(problems) - (MAX_NOTICES - 1)
        if full_list:
            said = ngettext("… and {n} more problem of the same kind (all of them: {where})",
                            "… and {n} more problems of the same kind (all of them: {where})", rest)
        else:
            said = ngettext("… and {n} more problem of the same kind", "… and {n} more problems of the same kind",
                            rest)
        self.warn(said.format(n=rest, where=full_list), severity)

    def _check_keymap(self) -> None:
        """Say once which keymap ids match no binding (a typo, or a key of a removed feature)."""
        if self._keymap_checked or not self.config.keymap:
            return
        self._keymap_checked = True
        known = {b.id for _group, node in self.binding_owners() for bs in bindings_of(node).key_to_bindings.values()
                 for b in bs if b.id}
        unknown = sorted(set(self.config.keymap) - known)
        if unknown:
            self.warn(_("{file}: [keymap]: no binding with id {ids}; see the keys screen (?) for the ids").format(
                file=self.config.path, ids=", ".join(unknown)))

    def on_unmount(self) -> None:
        if self._stop_listening is not None:
            self._stop_listening()
            self._stop_listening = None
        self._remove_signal_handlers()
        self._drop_session()
        self.key_gate.gone()

    # ------------------------------------------------------------ notices

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """Textual's toast, and the notice kept in `notices` (the last `KEPT_NOTICES`, toasts
        gone or not: what the screen told the GM, for the tests and whoever asks)."""
        self.notices.append(Notice(message, severity, title))
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    # ------------------------------------------------------------ status

    def _status_line(self) -> StatusLine | None:
        """The status line, or None while the screen is being taken down (a worker may finish
        after the GM quit)."""
        found = self.screen_stack[0].query(StatusLine) if self.screen_stack else None
        return found.first() if found else None

    def show_status(self) -> None:
        status = self._status_line()
        if status is not None:
            status.show_session(self.session, ascii=self.ascii)

    def _say_saving(self) -> None:
        self._saving_timer = None
        self._show_save_state(N_("saving…"))

    def _show_save_state(self, state: str) -> None:
        status = self._status_line()
        if status is not None:
            status.save_state = state
            self.show_status()

    def tell(self, message: str) -> None:
        """Said on the status line in place of the last change's label, until the next change
        (a toast would send its box and the screen under it twice). What undo and redo say while
        players watch names the change as they may see it, and stays on the status line for them."""
        if self._status_line() is None:
            super().tell(message)
            return
        self._told = message
        self._told_watched = self.players_watching

    def after_change(self) -> None:
        super().after_change()
        status = self._status_line()
        if status is not None:
            status.notice, self._told = getattr(self, "_told", ""), ""
            status.notice_public = getattr(self, "_told_watched", False)
            status.save_state = "" if not self.writable else N_("unsaved")
            self.show_status()

    def _save_in_thread(self) -> None:
        super()._save_in_thread()
        session = self.session
        if session is not None and session.dirty and not session.closed and session.disk_conflict is None:
            self.call_from_thread(self._show_save_state, N_("save failed"))     # (a conflict: the GM is asked)

    # ------------------------------------------------------------ panes

    def _pane_of(self, widget: Widget | None) -> Widget | None:
        while widget is not None and isinstance(widget, Widget):
            if widget.id in PANES and widget.has_class("pane"):
                return widget
            widget = widget.parent  # type: ignore[assignment]
        return None

    def _mark_current(self, pane_id: str) -> None:
        self.current_pane = pane_id
        for other in MAIN_PANES:
            widget = self.pane(other)
            if widget is not None:
                widget.set_class(other == pane_id, "-current")

    def _focus_pane(self, pane_id: str) -> None:
        """Focus the pane now, not after the next frame (`Widget.focus` waits for it): the pane
        shown and its border lit go down the wire in one frame, not the pane twice."""
        widget = self.pane(pane_id)
        if widget is None:
            return
        if widget.focusable:
            self._focus_now(widget)
            return
        for child in widget.query("*"):
            if child.focusable:
                self._focus_now(child)
                return

    def _focus_now(self, widget: Widget) -> None:
        screen = self.screen_stack[0] if self.screen_stack else None
        if screen is not None and screen is self.screen and widget.screen is screen:
            screen.set_focus(widget)
        else:
            widget.focus()

    def on_descendant_focus(self, event: Any) -> None:
        pane = self._pane_of(getattr(event, "widget", None))
        if pane is not None and pane.id in MAIN_PANES and pane.id != self.current_pane:
            self._mark_current(pane.id)

    async def action_show_pane(self, pane_id: str) -> None:
        if self.session is None or pane_id not in PANES:
            return
        await self._ensure_pane(pane_id)
        from .terminal.repaint import one_frame

        one_frame(self)          # tables, borders and footer restyled, each widget on its own: one frame
        shown, before = self.pane(pane_id), self.pane(self.current_pane)
        room = before.content_size if before is not None and before is not shown else None
        if self.screen.maximized is not None:
            self.screen.minimize()
        if pane_id in MAIN_PANES:
            self._mark_current(pane_id)
        presize = getattr(shown, "presize", None)
        if presize is not None and shown is not None and room and not shown.size.width:
            presize(room)                       # its first showing: drawn at the size it gets
        self._focus_pane(pane_id)

    async def action_cycle_pane(self, step: int) -> None:
        if self.session is None:
            return
        here = self._pane_of(self.screen.focused)
        current = here.id if here is not None and here.id in PANE_CYCLE else self.current_pane
        index = PANE_CYCLE.index(current)
        await self.action_show_pane(PANE_CYCLE[(index + step) % len(PANE_CYCLE)])

    def action_zoom(self) -> None:
        screen = self.screen
        if screen.maximized is not None:
            screen.minimize()
            return
        pane = self._pane_of(screen.focused) or self.pane(self.current_pane)
        if pane is not None:
            screen.maximized = pane

    # ------------------------------------------------------------ delegated to panes

    def dice_tray(self) -> DiceTray | None:
        """The dice tray when it is built (a layout may leave it out)."""
        from .widgets.tray.dice_tray import DiceTray

        tray = self.pane("dice-tray")
        return tray if isinstance(tray, DiceTray) else None

    def _tray(self) -> DiceTray | None:
        """The dice tray for a key of the app; None, the GM told, when it is not there."""
        tray = self.dice_tray()
        if tray is None:
            self.warn(_("{pane}: not available").format(pane=pane_title("dice-tray")))
        return tray

    def action_focus_quick_roll(self) -> None:
        if self.screen.maximized is not None:
            self.screen.minimize()
        tray = self._tray()
        if tray is not None:
            tray.focus_line()

    def action_next_turn(self) -> None:
        from gmscreen.ui.fight_flow import move_turn     # the play core moves it: no pane to wait for

        move_turn(self, True)

    def action_previous_turn(self) -> None:
        from gmscreen.ui.fight_flow import move_turn

        move_turn(self, False)

    def action_toggle_gm_only(self) -> None:
        tray = self._tray()
        if tray is not None:
            tray.toggle_gm_only()

    def action_repeat_roll(self) -> None:
        tray = self._tray()
        if tray is not None:
            tray.repeat_last()

    async def action_search_log(self) -> None:
        await self._ensure_pane("log")
        if not self.wide:
            self._mark_current("log")
        from .widgets.log.roll_log import RollLog

        log = self.pane("log")
        if isinstance(log, RollLog):
            log.start_search()
        else:
            self.warn(_("{pane}: not available").format(pane=pane_title("log")))

    def action_redo(self) -> None:
        self.redo()          # (a roll waiting for a choice refuses it: the table says why)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("next_turn", "previous_turn", "focus_quick_roll", "toggle_gm_only", "repeat_roll",
                      "search_log", "show_pane", "cycle_pane", "zoom", "luck"):
            return self.session is not None
        if action == "undo":
            return None if self.session is None or not self.session.can_undo else True
        if action == "redo":
            return None if self.session is None or not self.session.can_redo else True
        return True

    def set_line(self, text: str) -> None:
        """Put `text` in the quick-roll line (palette "Roll <name> <skill>")."""
        tray = self._tray()
        if tray is not None:
            tray.set_line(text)

    # ------------------------------------------------------------ screens

    def action_save(self) -> None:
        """Palette "Save now": the save a change would start a moment later, started at once."""
        if not self.may_edit() or self.session is None or not self.session.dirty:
            if self.session is not None and self.writable:
                self.warn(_("nothing to save: the file is up to date"), "information")
            return
        if self._save_timer is not None:
            self._save_timer.stop()
        self._start_save()
        self.warn(_("saving {name}…").format(name=self.session.path.name), "information")

    def action_keys(self) -> None:
        from .screens.keys_help import KeysHelpScreen

        if not isinstance(self.screen, KeysHelpScreen):
            self.push_screen(KeysHelpScreen())

    def action_luck(self) -> None:
        from .screens.luck_view import LuckScreen

        if self.session is not None and not isinstance(self.screen, LuckScreen):
            self.push_screen(LuckScreen(self.session.rolls, self.session.campaign.session,
                                        include_masked=not self.players_watching, campaign=self.session.campaign))

    def action_campaign_form(self) -> None:
        """Name, notes, initiative dice and rule options: checked as the file is, one undoable change."""
        from .screens.campaign_form import CampaignFormScreen

        if isinstance(self.screen, CampaignFormScreen) or not self.may_edit():
            return
        session = self.session

        def done(settings: dict | None) -> None:
            if not settings or self.session is not session:
                return
            from gmscreen.play import campaign_form

            self.change(_("Campaign settings"), lambda b: campaign_form.apply(b, settings))

        self.push_screen(CampaignFormScreen(session.campaign, str(session.path)), done)

    def action_open_campaign(self) -> None:
        from .screens.open_campaign import OpenCampaignScreen

        if isinstance(self.screen, OpenCampaignScreen):
            return

        def chosen(choice: Path | None) -> None:
            if choice is not None:
                self.open_campaign(choice)
            elif self.session is None:
                self.exit(2, return_code=2)

        self.push_screen(OpenCampaignScreen(self.path, self.config), chosen)

    async def action_quit(self) -> None:
        self._settle_pending_roll()
        self.exit(0)
