"""Never lose a session: how the screen ends, whatever ends it.

`q`, ctrl+q, a signal (SIGHUP from a dropped SSH link, SIGTERM, SIGINT), standard input at
its end or a browser tab gone: each settles a roll waiting for a choice (logged as it
stood), saves, and exits. A loop too busy to do so is covered by `exitguard`. Mixed into the
app, which owns the session.
"""

from __future__ import annotations

import asyncio
import signal
from typing import TYPE_CHECKING, Any

from gmscreen.i18n import N_, _

# Why the input ended, as the drivers say it (driver.py, web_driver.py): shown translated.
INPUT_ENDED = (N_("standard input closed"), N_("the browser disconnected"), N_("the server closed the connection"))


# What the last save before the end did, for the words said once the screen is gone (`exit_words`).
SAVED, UNCHANGED, KEPT, FAILED = "saved", "unchanged", "kept", "failed"


class SessionKeeper:
    """The app's ending: signal handlers, end of input, the last save."""

    session: Any
    table: Any
    exit_reason: str
    exit_saved: str = ""           # SAVED, UNCHANGED, KEPT or FAILED: the last save_now's doing; "": none
    _signals: list[int]
    _settled: bool
    _pending_exit: int | None

    if TYPE_CHECKING:       # given by the app it is mixed into (CampaignHost, Textual's App)
        @property
        def is_headless(self) -> bool: ...

        def warn(self, message: str, severity: str = "warning") -> None: ...

        def exit(self, result: Any = None, return_code: int = 0, message: Any = None) -> None: ...

    def _settle_pending_roll(self) -> None:
        """A roll waiting for a choice (Impulsion reroll, parry...) when the campaign closes is
        settled with its defaults and logged: dice the table saw are never lost."""
        if self.table is not None and self.session is not None and not self.session.closed:
            self.table.settle()

    def _drop_session(self) -> None:
        session, self.session = self.session, None
        if session is not None:
            try:
                session.close()
            except Exception as exc:          # noqa: BLE001 - reported, the next campaign still opens
                self.warn(_("{name}: could not close cleanly: {problem}").format(name=session.path.name, problem=exc),
                          "error")

    def _install_signal_handlers(self) -> None:
        if self.is_headless or not hasattr(signal, "SIGHUP"):
            return
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGHUP, signal.SIGTERM, signal.SIGINT):   # SIGINT: `kill -INT`, a wrapper's ctrl+c
            try:
                loop.add_signal_handler(sig, self._on_signal, sig)
            except (ValueError, RuntimeError):
                continue
            self._signals.append(sig)
        from .terminal import exitguard

        exitguard.watch_signals(self._signals, self.save_now)   # saved and gone in 5 s even if the loop is stuck

    def _remove_signal_handlers(self) -> None:
        if not self._signals:
            return
        loop = asyncio.get_running_loop()
        for sig in self._signals:
            loop.remove_signal_handler(sig)
        self._signals = []

    def save_now(self) -> bool:
        """Synchronous full save; False (after telling the GM, if the screen is still there) on failure."""
        from gmscreen.campaign.errors import CampaignError

        session = self.session
        if session is None or session.closed:
            return True
        changed = bool(session.dirty)
        try:
            session.save_now()
        except (CampaignError, OSError) as exc:
            self.exit_reason = _("save failed: {problem}").format(problem=exc)
            self.exit_saved = FAILED
            return False
        # (read-only, or the file changed on disk meanwhile: the changes stay in the journal)
        self.exit_saved = UNCHANGED if not changed else KEPT if session.dirty else SAVED
        return True

    def _on_signal(self, sig: int) -> None:
        self.exit_reason = signal.Signals(sig).name
        self._save_and_exit(128 + sig)

    def on_input_eof(self, reason: str = "") -> None:
        """Called by the driver when standard input ends or the browser leaves: nobody can type any more."""
        self.exit_reason = _(reason or INPUT_ENDED[0])
        self._save_and_exit(0)

    def _save_and_exit(self, code: int) -> None:
        if self.session is None and not self._settled:
            self._pending_exit = code          # the campaign is still opening: save it once open, then exit
            return
        self._settle_pending_roll()
        self.save_now()
        self.exit(return_code=code)

    @staticmethod
    def _close_opened(result: Any) -> None:
        if not isinstance(result, BaseException):
            try:
                result.close()
            except Exception:                  # noqa: BLE001 - exiting anyway; the journal keeps the changes
                pass


def exit_words(app: Any) -> str:
    """What the screen says on its way out when something other than the GM ended it (standard
    input closed, a signal): "gmscreen: standard input closed; campaign saved" only when a save
    wrote the file; "" when the GM quit."""
    reason = getattr(app, "exit_reason", "")
    if not reason:
        return ""
    saved = getattr(app, "exit_saved", "")
    if saved == SAVED:
        said = _("gmscreen: {reason}; campaign saved")
    elif saved == UNCHANGED:
        said = _("gmscreen: {reason}; nothing had changed, nothing written")
    elif saved in (KEPT, FAILED):
        said = _("gmscreen: {reason}; not saved: the journal keeps every change for the next opening")
    else:
        said = _("gmscreen: {reason}")
    return said.format(reason=reason)
