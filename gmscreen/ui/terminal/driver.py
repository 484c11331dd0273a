"""A Linux/macOS terminal driver that notices when standard input ends, and reads keys as typed.

Textual's input thread loops forever on a stdin at EOF (a dropped SSH link without
SIGHUP, `nohup`, `< /dev/null`), at 100% CPU. This driver's input thread stops at the
first empty read (or EIO from a hung-up terminal) and tells the app, which saves and
exits. Everything else is Textual's `LinuxDriver`. `input_ended` is shared with the web
driver (`web_driver.py`): whoever can no longer type, the session ends the same way.

Keys typed before the terminal is made raw (a line and Enter typed as the command starts)
were taken in by the terminal in cooked mode, where ICRNL turned Enter (CR) into a newline
(LF), which Textual reads as ctrl+j: the Enter was lost. The bytes waiting when the input
thread starts get their newlines back as Enter. Escape then a key is split as
`escape_split` says, within a read and across two.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import os
import selectors
import struct
import termios
import time
import tty
from codecs import getincrementaldecoder
from typing import Any, Callable

from textual import constants, events
from textual.events import Key
from textual._loop import loop_last
from textual._parser import ParseError
from textual._xterm_parser import XTermParser
from textual.drivers.linux_driver import LinuxDriver
from textual.message import Message

from . import exitguard
from .escape_split import ESC, EscapeSplitter
from .wire import join_runs, send_changed_cells_only


KEYS_GRACE = 3.0            # s: keys read before the input ended get this long to be handled


class NoticesKeys:
    """Driver mixin: `typed` once a key or a paste has been read."""

    typed = False

    def process_message(self, message: Message) -> None:
        if isinstance(message, (events.Key, events.Paste)):
            self.typed = True
        super().process_message(message)  # type: ignore[misc]


def input_ended(driver: Any, reason: str) -> None:
    """Nobody can type any more (called from the input thread): arm the exit guard, then ask
    the app to save and exit (`app.on_input_eof(reason)`). Keys read before (a roll typed as
    the tab closed) are handled first: they travel the same two loop hops
    (`Driver.send_message`) and the app's key gate lets them through one by one."""
    app, loop = driver._app, driver._loop
    exitguard.arm(getattr(app, "save_now", lambda: None), 0, reason, exitguard.CLIENT_GRACE)

    async def ask() -> None:
        if driver.typed:
            await _keys_handled(app, loop)
        handler: Callable[..., object] | None = getattr(app, "on_input_eof", None)
        if handler is None:
            app.exit()
        else:
            app.call_later(handler, reason)     # in the app's queue: after its own start-up

    try:
        asyncio.run_coroutine_threadsafe(ask(), loop)
    except RuntimeError:            # the loop is already closed: the app is gone
        pass


async def _keys_handled(app: Any, loop: asyncio.AbstractEventLoop) -> None:
    deadline = loop.time() + KEYS_GRACE
    reached = asyncio.Event()
    if app.call_later(reached.set):         # behind the keys in the app's queue: they reach the gate
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(reached.wait(), KEYS_GRACE)
    gate = getattr(app, "key_gate", None)
    if gate is not None:
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(gate.settled(), max(0.0, deadline - loop.time()))


class EOFAwareDriver(NoticesKeys, LinuxDriver):
    """`LinuxDriver` whose input thread ends on EOF and calls `app.on_input_eof()`."""

    def _input_ended(self) -> None:
        input_ended(self, "standard input closed")

    def start_application_mode(self) -> None:
        send_changed_cells_only()          # partial updates from the cells they change
        super().start_application_mode()

    def write(self, data: str) -> None:
        """Each frame with its repeated styles joined (`gmscreen.ui.wire`): fewer bytes over SSH."""
        super().write(join_runs(data))

    def run_input_thread(self) -> None:
        selector = selectors.SelectSelector()
        selector.register(self.fileno, selectors.EVENT_READ)
        fileno = self.fileno
        parser = XTermParser(self._debug)
        feed = parser.feed
        tick = parser.tick
        decode = getincrementaldecoder("utf-8")().decode
        splitter = EscapeSplitter(constants.ESCAPE_DELAY)
        now = time.monotonic
        cooked = typed_while_cooked(fileno, getattr(self, "attrs_before", None))

        def send(pieces: Any) -> None:
            for piece in pieces:
                if piece is None:           # Escape, then a key (in the same read or the next)
                    self.process_message(Key("escape", ESC))
                    continue
                for event in feed(piece):
                    self.process_message(event)

        def process(events: list[tuple[selectors.SelectorKey, int]], final: bool = False) -> bool:
            """Feed what was read to the parser; False once the input has ended."""
            nonlocal cooked
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
                    if cooked:
                        data, cooked = data[:cooked].replace(b"\n", b"\r") + data[cooked:], max(0, cooked - len(data))
                    send(splitter.split(decode(data, final=final and last), now()))
            send(splitter.expire(now(), final=final))
            for event in tick():
                self.process_message(event)
            return True

        def timeout() -> float:
            """A read's wait: short enough to tell a held ESC from the Escape key in time."""
            held = splitter.wait(now())
            return 0.1 if held is None else min(0.1, held)

        ended = False
        try:
            while not self.exit_event.is_set():
                if not process(selector.select(timeout())):
                    ended = True
                    break
            if not ended:
                selector.unregister(self.fileno)
                process(selector.select(0.1), final=True)
        finally:
            selector.close()
            try:
                send(splitter.expire(now(), final=True))
                for _event in feed(""):
                    pass
            except (EOFError, ParseError):
                pass
        if ended and not self.exit_event.is_set():
            self._input_ended()


def typed_while_cooked(fileno: int, cooked_attrs: list[Any] | None) -> int:
    """How many bytes wait on the terminal as its input thread starts: typed before Textual
    made it raw, they went through its cooked mode, where ICRNL made each Enter a newline (0
    when the terminal did not translate, or cannot say). A ctrl+j typed in the moment between
    the terminal made raw and this count reads as Enter too: nothing binds it."""
    if not cooked_attrs or not cooked_attrs[tty.IFLAG] & termios.ICRNL:
        return 0
    try:
        waiting = fcntl.ioctl(fileno, termios.FIONREAD, b"\0\0\0\0")
    except OSError:
        return 0
    return max(0, struct.unpack("i", waiting)[0])
