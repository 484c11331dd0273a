"""Text from files and from people, made harmless for a terminal: controls shown, never sent.

A name such as `Chien\\x1b#8` written to a terminal as is fills it with E's; ESC, BEL, C1
bytes and bidi overrides can move the cursor, retitle the window or make text read as
something else. Every command's output and the Markdown export go through
`escape_controls`, which writes each such character as a visible escape (`\\x1b`). The
screen neutralises the same characters (`CONTROL`) in its own way (gmscreen.ui.sanitize).
No Textual here: the command line and the campaign layer use it too.
"""

from __future__ import annotations

import re
from functools import cache

# C0 controls but tab and newline, DEL, C1 controls, and the bidi embeddings, overrides and
# isolates that can make a name display as something else.
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


# The same, with newline, and lone surrogates (undecodable bytes of a file name or argument
# read with surrogateescape), which no terminal encoding can write.
@cache
def _unsafe_line() -> re.Pattern[str]:
    return re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


@cache
def _unsafe_text() -> re.Pattern[str]:
    return re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


_NAMED = {"\r": "\\r", "\n": "\\n"}
_LINE_BREAKS = re.compile("[\t\n]+")
REPLACEMENT = "\ufffd"


def clean(text: object, *, single_line: bool = True) -> str:
    """For the screen: control characters neutralised (shown as U+FFFD); one line unless
    told otherwise."""
    value = CONTROL.sub(REPLACEMENT, str(text))
    if single_line:
        value = _LINE_BREAKS.sub(" ", value)
    return value


def _visible(match: re.Match) -> str:
    ch = match.group()
    named = _NAMED.get(ch)
    if named:
        return named
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape_controls(text: object, *, newlines: bool = True) -> str:
    """`text` with every control character written as a visible escape (`\\x1b`, `\\r`, `\\u202e`).

    Tabs stay; newlines stay unless `newlines` is False (text that must stay on one line,
    such as a name in a heading or an error message).
    """
    value = str(text)
    pattern = _unsafe_text() if newlines else _unsafe_line()
    return pattern.sub(_visible, value)


class SafeWriter:
    """A text stream that escapes controls in everything written through it (stdout, stderr).

    One choke point for a command's output: whatever prints, whatever it prints, nothing
    reaches the terminal as a control sequence.
    """

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(escape_controls(text))
        return len(text)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        self._stream.flush()

    def isatty(self) -> bool:
        return bool(getattr(self._stream, "isatty", lambda: False)())

    def __getattr__(self, name: str):
        return getattr(self._stream, name)
