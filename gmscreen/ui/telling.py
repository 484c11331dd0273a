"""What the screen tells the GM: toasts (each one kept in `notices`), the status line, the save's state.

The layer above `looks`: whatever the app, a pane or a worker has to say comes through here, on
the status line when it names a change (undo, redo: the players may watch it there), as a toast
otherwise, and a flood of problems (a hand-edited file gone wrong) as a few toasts and a count.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, NamedTuple

from textual.worker import Worker, WorkerState

from gmscreen.i18n import N_, _, ngettext

from .key_owners import binding_owners
from .looks import AppLooks
from .status import StatusLine
from .terminal.bindings import bindings_of

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel
    from textual.timer import Timer

MAX_NOTICES = 4            # load problems shown one by one; past that, the first ones and a count
KEPT_NOTICES = 200         # `GMScreenApp.notices`: the last ones said
SAVING_SHOWN_AFTER = 0.1                # a save still running then says "saving…" on the status line


class Notice(NamedTuple):
    """A notice the screen gave (a toast), as it was said."""

    message: str
    severity: str
    title: str = ""


class AppTelling(AppLooks):
    """Notices, the status line and the save's state on it, problems told a few at a time."""

    notices: deque[Notice]             # what `notify` said, oldest first (the last `KEPT_NOTICES`)
    _keymap_checked: bool
    _saving_timer: Timer | None         # says "saving…" for a save still running after a moment

    # ------------------------------------------------------------ notices

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """Textual's toast, and the notice kept in `notices` (the last `KEPT_NOTICES`, toasts
        gone or not: what the screen told the GM, for the tests and whoever asks)."""
        self.notices.append(Notice(message, severity, title))
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

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
        known = {b.id for _group, node in binding_owners(self) for bs in bindings_of(node).key_to_bindings.values()
                 for b in bs if b.id}
        unknown = sorted(set(self.config.keymap) - known)
        if unknown:
            self.warn(_("{file}: [keymap]: no binding with id {ids}; see the keys screen (?) for the ids").format(
                file=self.config.path, ids=", ".join(unknown)))

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

    def _save_worker_changed(self, event: Worker.StateChanged) -> None:
        """The autosave's worker: "saving…" for a save still running after a moment, then "saved"."""
        if event.worker.name == "autosave" and self.session is not None:
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
