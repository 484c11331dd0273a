"""The game master's screen: the shell around the panes.

`GMScreenApp` is the top of a chain of layers, one job each (read from the bottom up):
`looks` (theme, glyphs, language, config.toml), `telling` (toasts, status line, save state),
`layout` (the main screen, its two layouts, the current pane and the focus), `opening` (a
campaign opened in a thread, its panes, its roll log read after the first frame and
followed), and here the keys and the life of the screen: compose, mount, each key and paste
in order, the first frame, the palette's commands, the key actions. Beside it: `keygate` hands
the keys on in order, `disk_watch` takes in what someone else wrote to the campaign file,
`lock_retry` takes the campaign once another gmscreen lets go of it, `lifecycle` saves
whatever ends the session.
"""

from __future__ import annotations

import gc
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container
from textual.screen import Screen
from textual.widgets import Static
from textual.worker import Worker

from gmscreen import i18n
from gmscreen.i18n import N_, _

from .config import Config
from .disk_watch import DISK_CHECK_SECONDS, DiskWatch
from .layout import CSS
from .lock_retry import LOCK_RETRY_SECONDS, LockRetry
from .opening import ROLL_FOLLOW_SECONDS, AppOpening
from .panes import MAIN_PANES, PANES, WIDE_HEIGHT, WIDE_WIDTH, make_pane, pane_title
from .sanitize import pasted
from .status import StatusLine
from .telling import KEPT_NOTICES
from .terminal import driver_class
from .terminal.footer import QuietFooter
from .terminal.keygate import KeyGate
from .terminal.start_slices import next_slice
from .terminal.toasts import SteadyToasts, keep_toast_rack

if TYPE_CHECKING:
    from .widgets.tray.dice_tray import DiceTray

# Tab / shift+tab walk the panes in this order.
PANE_CYCLE = MAIN_PANES + ("dice-tray",)
PANES_GROUP = Binding.Group(N_("Panes"), compact=True)


def _palette_commands() -> type:
    """The palette's provider, imported when the palette first opens (not at start-up)."""
    from .palette import GMScreenCommands

    return GMScreenCommands


class GMScreenApp(SteadyToasts, AppOpening):
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

    def __init__(self, path: Path | str | None = None, *, theme: str | None = None, ascii: bool = False,
                 config: Config | None = None, resume_gc: bool = False, language: str | None = None,
                 environment: bool = False) -> None:
        super().__init__(None)
        self.notices = deque(maxlen=KEPT_NOTICES)    # what `notify` said, oldest first
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
        self.asks_language = environment and self.config.asks_language(language)
        self._stop_listening = None                # `i18n.on_change` subscription, while mounted
        self.ascii = ascii
        self.path: Path | None = Path(path) if path is not None else None
        self.current_pane = MAIN_PANES[0]
        self.exit_reason = ""
        self._opening: Path | None = None
        self._signals: list[int] = []
        self._pending_exit: int | None = None      # exit asked while a campaign was still opening
        self._settled = False                      # a campaign is shown, or the load error screen
        self._preopened: Any = None                # a session opened in compose, panes already there
        self._rolls_to_load: Any = None            # a session whose roll log is read after the first frame
        self._config_to_save = False               # the campaign opened, remembered after the first frame
        self.start_slices = 0                      # turns of the loop the start took after the first frame
        self.startup_problems = list(self.config.problems)
        self._choose_looks(theme, ascii)          # the themes registered and one chosen; --ascii
        if self.config.keymap:
            self.set_keymap(self.config.keymap)
        self._keymap_checked = False
        self.key_gate = KeyGate(self)
        self.disk_watch = DiskWatch(self)
        self.lock_retry = LockRetry(self)

    # ------------------------------------------------------------ the life of the screen

    def get_driver_class(self) -> Any:
        """Textual's driver, or one that ends with its input or its browser tab (`terminal`)."""
        return driver_class(super().get_driver_class())

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
        self._read_log_soon()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A worker started or ended: an opening's (`opening`), or the autosave (`telling`)."""
        self._open_worker_changed(event)
        self._save_worker_changed(event)

    def on_unmount(self) -> None:
        if self._stop_listening is not None:
            self._stop_listening()
            self._stop_listening = None
        self._remove_signal_handlers()
        self._drop_session()
        self.key_gate.gone()

    # ------------------------------------------------------------ the palette

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

    # ------------------------------------------------------------ panes

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

    def action_undo(self) -> None:
        if self.table is not None:
            self.table.undo()    # (a roll waiting for a choice refuses it: the table says why)

    def action_redo(self) -> None:
        if self.table is not None:
            self.table.redo()

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
        self.save_soon()
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
