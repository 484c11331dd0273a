"""Worker threads that do not make the keys wait.

A thread busy with Python code (reading the roll log, the quick-roll history, the search
text of older rolls) holds the interpreter lock for a whole switch interval (5 ms) each time
the screen's loop lets it go — at every select — so a key that takes a dozen of those waited
a tenth of a second. While such a thread works the interval is cut short; the last one to
finish puts it back. And while the screen answers a key, a thread that can pause between
pieces of its work (`give_way`) does: the key's work is not shared with it at all.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from typing import Iterator

SWITCH_INTERVAL = 0.0005        # seconds

_lock = threading.Lock()
_busy = 0
_saved = 0.005


@contextlib.contextmanager
def quick_switches() -> Iterator[None]:
    global _busy, _saved
    with _lock:
        if _busy == 0:
            _saved = sys.getswitchinterval()
            sys.setswitchinterval(min(_saved, SWITCH_INTERVAL))
        _busy += 1
    try:
        yield
    finally:
        with _lock:
            _busy -= 1
            if _busy == 0:
                sys.setswitchinterval(_saved)


# While the screen answers a key (from its admission until the screen has settled, see
# `keygate`), a worker thread that calls `give_way` between pieces of its work waits, so the
# key has the interpreter to itself; never longer than this at a time (a screen stuck busy
# must not stop the work).
GIVE_WAY_LIMIT = 0.05           # seconds

_screen_idle = threading.Event()
_screen_idle.set()


def screen_busy(busy: bool) -> None:
    """The screen is answering a key (True), or has settled (False)."""
    if busy:
        _screen_idle.clear()
    else:
        _screen_idle.set()


def give_way() -> None:
    """Called by a worker thread between two pieces of its work."""
    _screen_idle.wait(GIVE_WAY_LIMIT)
