"""Escape then a key, typed fast, stays Escape then that key.

Over SSH, Escape and the key after it often arrive in one packet. Textual's parser then
reads them as one sequence: Alt+key, or a macOS Option character (ESC 2 is "™", ESC f is
ctrl+right), or nothing at all (ESC /), so leaving the line with Escape and typing `/` or a
pane key put garbage in the line instead. gmscreen binds no Alt key; an ESC followed by a
character that starts no terminal sequence is the Escape key, and is sent as such before the
character. Text inside a bracketed paste is left alone.

The same holds across reads: an ESC that ends what was read is held, not handed to Textual's
parser (which would wait for the rest of a sequence and read ESC then `2`, come 50 ms later
in the next packet, as Alt+2: the key lost). The next read says what it was: the start of a
sequence (`[A` follows) or the Escape key. Nothing follows within the terminal's escape delay
(`ESCDELAY`, as Textual waits): the Escape key.
"""

from __future__ import annotations

from typing import Iterator

ESC = "\x1b"
# What follows ESC in the sequences a terminal sends: CSI, SS3, OSC, DCS, APC, PM, ST. An ESC
# after ESC is not one: the first is the Escape key (as Textual's parser reads it too).
_INTRODUCERS = frozenset("[O]P_^\\")
PASTE_START = "\x1b[200~"
PASTE_END = "\x1b[201~"


class EscapeSplitter:
    """Cuts decoded terminal input into pieces, with the lone Escapes between them.

    `split(text, now)` for each read; `expire(now)` when nothing was read for a while, which
    gives the Escape key held since a read ended with it once `delay` seconds have passed
    (`wait(now)`: how long until then)."""

    def __init__(self, delay: float = 0.1) -> None:
        self.in_paste = False
        self.delay = delay
        self._held_at: float | None = None     # when the ESC that ended a read was read

    @property
    def holding(self) -> bool:
        return self._held_at is not None

    def split(self, text: str, now: float = 0.0) -> Iterator[str | None]:
        """The text in order; None where an Escape key stands on its own."""
        if not text:
            return
        if self._held_at is not None:
            self._held_at = None
            if self.in_paste or text[0] in _INTRODUCERS:
                text = ESC + text               # the ESC held starts what came now
            else:
                yield None
        start = 0
        at = text.find(ESC)
        while at >= 0:
            if text.startswith(PASTE_START, at):
                self.in_paste = True
            elif text.startswith(PASTE_END, at):
                self.in_paste = False
            elif at + 1 == len(text):           # the read ends with it: the next one will tell
                if at > start:
                    yield text[start:at]
                self._held_at = now
                return
            elif not self.in_paste and text[at + 1] not in _INTRODUCERS:
                if at > start:
                    yield text[start:at]
                yield None
                start = at + 1
            at = text.find(ESC, at + 1)
        if start < len(text):
            yield text[start:]

    def wait(self, now: float) -> float | None:
        """Seconds until the ESC held is the Escape key (None: none held)."""
        if self._held_at is None:
            return None
        return max(0.0, self._held_at + self.delay - now)

    def expire(self, now: float, *, final: bool = False) -> Iterator[str | None]:
        """The ESC held, once nothing followed it in time (or the input ends, `final`): the
        Escape key (None), or inside a paste the character itself, for the parser."""
        if self._held_at is None or (not final and now < self._held_at + self.delay):
            return
        self._held_at = None
        yield ESC if self.in_paste else None
