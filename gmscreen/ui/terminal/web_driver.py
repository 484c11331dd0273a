"""Textual's web driver (textual-serve, `textual serve`), made to end with its client.

- Sizes reach the app in the order they were sent. Textual posts the driver's initial size
  two loop hops late and the browser's sizes at once, so the browser's first size could be
  overtaken by the (older) initial one; here every size takes the path of the initial one
  and of the keys.
- Sizes are capped at 500×200 cells (`web.guard`), the first one (COLUMNS and ROWS) too: a
  client asking for 10000×10000 cells would cost the app 900 MB and its server 300 MB of
  output in 30 s. The server caps them as well; this is the app's own guard.
- The screen reaches the browser with its symbols in the browser's font (`web.glyphs`).
- A "quit" from the server (the tab was closed, or its connection timed out) or the end of
  standard input (the server itself is gone) saves and ends the session through the app, after
  the keys already received, with the exit guard armed (`driver.input_ended`).

Loaded only when Textual is asked for its web driver (TEXTUAL_DRIVER, set by textual-serve).
"""

from __future__ import annotations

import os
from typing import Any

from textual import events
from textual.drivers.web_driver import WebDriver
from textual.geometry import Size

from .driver import NoticesKeys, input_ended
from gmscreen.ui.web import guard
from gmscreen.ui.web.glyphs import for_browser


def _first_size() -> tuple[int, int]:
    """The size the server started us with (COLUMNS, ROWS), capped; 80×24 when there is none."""
    return guard.size(os.environ.get("COLUMNS", ""), os.environ.get("ROWS", "")) or guard.DEFAULT_SIZE


class ClientAwareWebDriver(NoticesKeys, WebDriver):
    """`WebDriver` whose sizes keep their order and their caps, whose symbols are the browser
    font's, and whose session ends with its client."""

    _gone = False

    def __init__(self, app: Any, *, debug: bool = False, mouse: bool = True,
                 size: tuple[int, int] | None = None) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=size if size is not None else _first_size())

    def write(self, data: str) -> None:
        super().write(for_browser(data))

    def on_meta(self, packet_type: str, payload: dict[str, object]) -> None:
        if packet_type == "resize":
            sized = guard.size(payload.get("width"), payload.get("height"))
            if sized is None:
                return                          # not a size: the last good one stays
            width, height = sized
            self._size = (width, height)
            size = Size(width, height)
            self.send_message(events.Resize(size, size))
        elif packet_type == "quit":
            self._client_gone("the browser disconnected")
        else:
            super().on_meta(packet_type, payload)

    def run_input_thread(self) -> None:
        try:
            super().run_input_thread()
        finally:
            if not self.exit_event.is_set():    # not stopped by the app: the server went away
                self._client_gone("the server closed the connection")

    def _client_gone(self, reason: str) -> None:
        if self._gone:
            return
        self._gone = True
        # Nobody reads the screen any more, and the server may have stopped reading our
        # output: a write to a full pipe would block the app for good (the exit guard would
        # end it, 10 s later). Output is dropped from now on.
        # Textual leaves `_write` unannotated, inferred as the partial(os.write, fd) it sets.
        self._write = _discard  # type: ignore[assignment]
        input_ended(self, reason)


def _discard(data: bytes) -> int:
    return len(data)
