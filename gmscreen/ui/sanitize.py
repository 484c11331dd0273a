"""One gate for untrusted text on its way to the terminal.

Names, notes and skills come from campaign files shared between GMs, or are typed
by the GM. Textual parses square brackets in plain strings as markup (`[/]` crashes,
`Orc [A]` loses text) and lets ESC and C1 controls through to the terminal. Every
such string goes through `clean`, and is shown through `literal`/`literal_text`,
which never parse markup.
"""

from __future__ import annotations

import re
from functools import cache

from rich.text import Text
from textual.content import Content

from gmscreen.campaign.textsafe import CONTROL, REPLACEMENT, clean

__all__ = ["REPLACEMENT", "clean", "literal", "literal_text", "pasted"]


# Terminal escape sequences as they come in pasted text: CSI (colours, cursor moves), OSC
# (titles, hyperlinks, clipboard writes) up to BEL or ST, and two-character escapes.
@cache
def _escape_sequence() -> re.Pattern[str]:
    return re.compile("\x1b\\[[0-?]*[ -/]*[@-~]|\x1b\\][^\x07\x1b]*(?:\x07|\x1b\\\\)?|\x1b[@-_]|\x9b[0-?]*[ -/]*[@-~]")


def literal(text: object, style: str = "", *, single_line: bool = True) -> Content:
    """Textual `Content` showing `text` exactly as typed (no markup)."""
    content = Content(clean(text, single_line=single_line))
    return content.stylize(style) if style else content


def literal_text(text: object, style: str = "", *, single_line: bool = True) -> Text:
    """Rich `Text` showing `text` exactly as typed, for DataTable cells and strips."""
    return Text(clean(text, single_line=single_line), style=style, no_wrap=single_line)


def pasted(text: str) -> str:
    """Text pasted into a field, as the GM meant it: escape sequences (a colour copied from a
    terminal, a hostile clipboard) are dropped whole, other controls removed, tabs made spaces."""
    value = _escape_sequence().sub("", text).replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")
    return CONTROL.sub("", value)
