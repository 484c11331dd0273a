"""A Linux/macOS terminal driver that notices when standard input ends.

Textual's input thread loops forever on a stdin at EOF (a dropped SSH link without
SIGHUP, `nohup`, `< /dev/null`), at 100% CPU. This driver's input thread stops at the
first empty read (or EIO from a hung-up terminal) and tells the app, which saves and
exits. Everything else is Textual's `LinuxDriver`.
"""

from __future__ import annotations

import errno
import os
import selectors
from codecs import getincrementaldecoder
from typing import Callable

from textual._loop import loop_last
from textual._parser import ParseError
from textual._xterm_parser import XTermParser
from textual.drivers.linux_driver import LinuxDriver


class EOFAwareDriver(LinuxDriver):
    """`LinuxDriver` whose input thread ends on EOF and calls `app.on_input_eof()`."""

    def _input_ended(self) -> None:
        handler: Callable[[], object] | None = getattr(self._app, "on_input_eof", None)
        if handler is None:
            handler = self._app.exit
        self._loop.call_soon_threadsafe(handler)

    def run_input_thread(self) -> None:
        selector = selectors.SelectSelector()
        selector.register(self.fileno, selectors.EVENT_READ)
        fileno = self.fileno
        parser = XTermParser(self._debug)
        feed = parser.feed
        tick = parser.tick
        decode = getincrementaldecoder("utf-8")().decode

        def process(events: list[tuple[selectors.SelectorKey, int]], final: bool = False) -> bool:
            """Feed what was read to the parser; False once the input has ended."""
            for last, (_key, mask) in loop_last(events):
                if mask & selectors.EVENT_READ:
                    try:
                        data = os.read(fileno, 1024 * 4)
                    except OSError as exc:
                        if exc.errno in (errno.EIO, errno.EBADF, errno.ENXIO):
                            return False
                        raise
                    if not data:
                        return False
                    for event in feed(decode(data, final=final and last)):
                        self.process_message(event)
            for event in tick():
                self.process_message(event)
            return True

        ended = False
        try:
            while not self.exit_event.is_set():
                if not process(selector.select(0.1)):
                    ended = True
                    break
            if not ended:
                selector.unregister(self.fileno)
                process(selector.select(0.1), final=True)
        finally:
            selector.close()
            try:
                for _event in feed(""):
                    pass
            except (EOFError, ParseError):
                pass
        if ended and not self.exit_event.is_set():
            self._input_ended()
