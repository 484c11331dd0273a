"""Opening a campaign: in a thread, its panes mounted, its roll log read after the first frame.

The layer above `layout`: a campaign named on the command line is opened before the first
frame (`_preopen`), any other in a worker (`open_campaign`); a file that cannot be opened goes
to the load-error screen; an opened one gets its panes, its warnings and the focus, then the
keys typed meanwhile (`_show_ready`). Its roll log, which grows all campaign long, is read once
the first frame is out, indexed in a thread, and followed for the rolls another process logs.
Closing is `lifecycle`'s (mixed in here: an opening settles and closes the campaign before it).
"""

from __future__ import annotations

import gc
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.containers import Container
from textual.widgets import Static
from textual.worker import Worker, WorkerState

from gmscreen.i18n import _, os_reason

from .config import first_run_campaign
from .layout import AppLayout
from .lifecycle import SessionKeeper
from .panes import MAIN_PANES, make_pane
from .sanitize import clean
from .terminal.start_slices import next_slice, warm_up

if TYPE_CHECKING:
    from .terminal.keygate import KeyGate

ROLL_FOLLOW_SECONDS = 0.5               # another process's roll shows within a second
_LOG_READ_DELAY = 0.25                 # seconds after the first frame: see `_read_log_soon`


class AppOpening(SessionKeeper, AppLayout):
    """A campaign opened (or refused, on the load-error screen), shown, its roll log read and followed."""

    path: Path | None                  # the campaign shown (or being opened)
    key_gate: KeyGate                  # keys typed while a campaign opens wait for its panes
    asks_language: bool                # the first screen asks which language (`language_question`)
    start_slices: int                  # turns of the loop the start took after the first frame
    _opening: Path | None
    _preopened: Any                    # a session opened in compose, panes already there
    _rolls_to_load: Any                # a session whose roll log is read after the first frame
    _config_to_save: bool              # the campaign opened, remembered after the first frame
    _first_frame_out = False        # on_ready has run: the first frame is on screen

    if TYPE_CHECKING:       # the app's key (ctrl+o)
        def action_open_campaign(self) -> None: ...

    # ------------------------------------------------------------ the start

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

    def _read_log_soon(self) -> None:
        """After the first frame: the roll log of the campaign it shows, read in a thread."""
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

    # ------------------------------------------------------------ opening

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

    def _open_worker_changed(self, event: Worker.StateChanged) -> None:
        """The workers of an opening: the campaign opened (or not), its roll log read, then indexed."""
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
                    from gmscreen.play.problem_words import problem_words

                    self._warn_all([problem_words(p, session.campaign, session.path) for p in index.problems],
                                   "warning",
                                   _("the roll log of {name}").format(name=session.path.name))
        elif worker.name == "index-rolls" and event.state == WorkerState.ERROR:
            self.warn(_("the older rolls of the log could not be read: {problem}").format(problem=worker.error),
                      "error")

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
        warnings = [p for p in session.warnings if "read-only" not in p.message]
        if warnings:            # by the names the GM knows, not the file's path and key paths
            from gmscreen.play.problem_words import problem_words

            self._warn_all([problem_words(p, session.campaign, session.path) for p in warnings], "warning",
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

    # ------------------------------------------------------------ the roll log

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
        from gmscreen.play.problem_words import problem_words

        self._warn_all([problem_words(p, session.campaign, session.path) for p in problems], "warning",
                       _("the roll log of {name}").format(name=session.path.name))
        self.refresh_views()
        self.show_status()
