"""The last resort of a session that was told to end: save and leave, even if the UI is stuck.

A signal or a departed client asks the app to save and exit through its event loop. Should
that loop be busy (a layout that never ends, a long computation), nothing would happen: the
process would hold the campaign's lock forever. `arm` starts a timer thread that, if the
process is still there when it expires, saves (bounded in time: the UI thread may hold the
session) and ends it with `os._exit`. `watch_signals` arms it from a Python-level signal
handler, which runs even while the event loop never yields; the loop's own handler (through
asyncio's wakeup fd) still does the normal, orderly exit first.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from typing import Callable, Iterable

from gmscreen.i18n import _

SIGNAL_GRACE = 2.5          # s: a signalled process is gone within 5 s, saved
CLIENT_GRACE = 10.0         # s: a session whose client left is gone within 30 s
SAVE_TIMEOUT = 1.5          # s: the last-resort save waits this long for the session

_timer: threading.Timer | None = None


def arm(save: Callable[[], object], code: int, reason: str, delay: float) -> None:
    """Once per process: in `delay` seconds, if still running, save and `os._exit(code)`.
    No lock: a signal handler may call it while the main thread is inside it (two timers at
    worst, the first one wins)."""
    global _timer
    if _timer is not None:
        return
    _timer = threading.Timer(delay, _last_resort, (save, code, reason))
    _timer.name = "gmscreen-exit-guard"
    _timer.daemon = True
    _timer.start()


def _last_resort(save: Callable[[], object], code: int, reason: str) -> None:
    outcome: list[bool] = []
    saver = threading.Thread(target=_quiet(save, outcome), name="gmscreen-last-save", daemon=True)
    saver.start()
    saver.join(SAVE_TIMEOUT)
    if outcome == [True]:
        said = _("gmscreen: {reason}; the screen did not stop in time, campaign saved")
    else:
        said = _("gmscreen: {reason}; the screen did not stop in time, not saved (the journal keeps every "
                 "change for the next opening)")
    # Said on stderr if it can take it at once: a terminal nobody reads would block the write.
    message = (said.format(reason=_(reason) if reason else reason) + "\n").encode()
    teller = threading.Thread(target=_say, args=(message,), name="gmscreen-last-word", daemon=True)
    teller.start()
    teller.join(0.2)
    os._exit(code)


def _say(message: bytes) -> None:
    try:
        os.write(sys.__stderr__.fileno() if sys.__stderr__ else 2, message)
    except (OSError, ValueError):
        pass


def _quiet(save: Callable[[], object], outcome: list[bool]) -> Callable[[], None]:
    def run() -> None:
        try:
            outcome.append(save() is not False)
        except Exception:           # noqa: BLE001 - leaving anyway; the journal holds every change
            outcome.append(False)
    return run


def watch_signals(signals: Iterable[int], save: Callable[[], object]) -> None:
    """After `loop.add_signal_handler(sig, ...)`: also arm the guard at the signal itself.

    asyncio's own Python-level handler does nothing (the C handler writes the signal to the
    loop's wakeup fd, which stays); ours arms the guard, in the main thread between two
    bytecodes, whatever the loop is doing."""
    for sig in signals:
        try:
            signal.signal(sig, _make_handler(save))
        except (ValueError, OSError):
            continue


def _make_handler(save: Callable[[], object]) -> Callable[[int, object], None]:
    def handler(signum: int, _frame: object) -> None:
        arm(save, 128 + signum, signal.Signals(signum).name, SIGNAL_GRACE)
    return handler
