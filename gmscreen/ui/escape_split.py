"""Escape then a key, typed fast, stays Escape then that key.

Over SSH, Escape and the key after it often arrive in one packet. Textual's parser then
reads them as one sequence: Alt+key, or a macOS Option character (ESC 2 is "™", ESC f is
ctrl+right), or nothing at all (ESC /), so leaving the line with Escape and typing `/` or a
pane key put garbage in the line instead. gmscreen binds no Alt key; an ESC followed in the
same read by a character that starts no terminal sequence is the Escape key, and is sent as
such before the character. Text inside a bracketed paste is left alone.
"""

from __future__ import annotations

from typing import Iterator

ESC = "\x1b"
# What follows ESC in the sequences a terminal sends: CSI, SS3, OSC, DCS, APC, PM, ST, ESC.
_INTRODUCERS = frozenset("[O]P_^\\\x1b")
PASTE_START = "\x1b[200~"
PASTE_END = "\x1b[201~"


class EscapeSplitter:
    """Cuts decoded terminal input into pieces, with the lone Escapes between them."""

    def __init__(self) -> None:
        self.in_paste = False

    def split(self, text: str) -> Iterator[str | None]:
        """The text in order; None where an Escape key stands on its own."""
        start = 0
        at = text.find(ESC)
        while at >= 0:
            if text.startswith(PASTE_START, at):
                self.in_paste = True
            elif text.startswith(PASTE_END, at):
                self.in_paste = False
            elif not self.in_paste and at + 1 < len(text) and text[at + 1] not in _INTRODUCERS:
                if at > start:
                    yield text[start:at]
                yield None
                start = at + 1
            at = text.find(ESC, at + 1)
        if start < len(text):
            yield text[start:]
